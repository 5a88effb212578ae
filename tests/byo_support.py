"""Shared by the ``replicas import dbt`` tests: the two example projects imported once per test
session into their own cache root (``$REPLICAS_HOME/byo-tests``), so imports never show up in
the replica lists other tests check."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS_PROJECT = FIXTURES / "byo_seeds_shop"
SOURCES_PROJECT = FIXTURES / "byo_sources_saas"
#: replica name → project: one uses seeds as raw data, the other sources.yml.
PROJECTS = {"byo_shop": SEEDS_PROJECT, "byo_saas": SOURCES_PROJECT}


def byo_home() -> Path:
    base = Path(os.environ["REPLICAS_HOME"])
    if base.name == "byo-tests":
        return base
    return base / "byo-tests"


@contextlib.contextmanager
def home_for_imports() -> Iterator[Path]:
    """``REPLICAS_HOME`` pointed at the imports' own cache root for the block."""
    old = os.environ["REPLICAS_HOME"]
    home = byo_home()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["REPLICAS_HOME"] = str(home)
    try:
        yield home
    finally:
        os.environ["REPLICAS_HOME"] = old


_IMPORTED: dict[str, Any] = {}


def import_all() -> dict[str, Any]:
    """Import both example projects (checked: seed 0 builds with every test passing), once per
    process; later calls only register the imports again (test modules restore registries)."""
    from replicas.importer import import_dbt_project
    from replicas.importer.steps.install import register_import

    for name, path in PROJECTS.items():
        if name in _IMPORTED:
            register_import(_IMPORTED[name].spec)
        else:
            _IMPORTED[name] = import_dbt_project(path, name)
    return dict(_IMPORTED)
