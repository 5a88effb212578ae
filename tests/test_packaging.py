"""pyproject lists every package explicitly (package-dir mapping rules out auto-discovery).

A sub-package missing from the list would work in the editable install and vanish from the wheel,
so this test fails first.
"""

from __future__ import annotations

import tomllib

from tests.paths import REPO_ROOT

MAPPED = {
    "replicas": "replicas",
    "generators": "replicas.generators",
    "verifiers": "replicas.verifiers",
}


def _packages_on_disk() -> set[str]:
    found = set()
    for top, dotted in MAPPED.items():
        for init in (REPO_ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO_ROOT / top)
            if "__pycache__" in rel.parts:
                continue
            found.add(".".join([dotted, *rel.parts]) if rel.parts else dotted)
    return found


def test_every_package_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    missing = _packages_on_disk() - listed
    assert not missing, f"add to [tool.setuptools] packages: {sorted(missing)}"
    assert "replicas.dbt_projects" in listed
    mapping = config["tool"]["setuptools"]["package-dir"]
    assert mapping["replicas.generators"] == "generators"
    assert mapping["replicas.verifiers"] == "verifiers"
