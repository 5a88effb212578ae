"""``replicas.devtools.precompile``: the bytecode ``make install`` compiles for the OS sandbox.

The sandbox mounts site-packages read-only, so a module dbt imports without a ``.pyc`` would be
compiled from source by every sandboxed dbt process. The set compiled must therefore hold dbt's
whole requirement closure — and, to keep ``make install`` short, not the integrations' trees.
"""

from __future__ import annotations

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from replicas.devtools.precompile import closure, main, python_files


def test_the_closure_of_dbt_duckdb_is_what_dbt_imports_and_nothing_of_the_integrations() -> None:
    dists = closure(["dbt-duckdb"])
    for needed in ("dbt-core", "dbt-adapters", "dbt-common", "duckdb", "jinja2", "mashumaro"):
        assert canonicalize_name(needed) in dists, needed
    for host_only in ("ray", "transformers", "inspect-ai", "gradio"):
        assert canonicalize_name(host_only) not in dists, host_only
    # every requirement of every member (marker holding, no extra) is itself a member
    for dist in dists.values():
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            assert canonicalize_name(req.name) in dists, (dist.metadata["Name"], text)


def test_the_files_are_the_distributions_own_sources() -> None:
    files = python_files(closure(["dbt-core"])[canonicalize_name("dbt-core")])
    assert files and all(f.suffix == ".py" and f.is_file() for f in files)
    assert any(f.as_posix().endswith("dbt/cli/main.py") for f in files)


def test_an_unknown_distribution_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no-such-distribution-xyz"]) == 2
    assert "not installed: no-such-distribution-xyz" in capsys.readouterr().err
