"""The shipped dbt projects: each one self-contained, and vendored files identical across them.

``dbt deps`` is unavailable offline, so generic tests a package would provide are vendored into
every project that uses them. A copy edited in one project only would make one grain test mean
two things; this test catches that.
"""

from __future__ import annotations

from collections import defaultdict
from importlib import resources
from pathlib import Path

from replicas.replica import get_replica

#: Folders whose files are vendored (shared) rather than specific to one replica's data.
VENDORED_DIRS = ("tests/generic", "macros")


def shipped_projects() -> dict[str, Path]:
    """Every project in the installed ``replicas.dbt_projects`` package, by folder name."""
    root = Path(str(resources.files("replicas.dbt_projects")))
    return {p.parent.name: p.parent for p in sorted(root.glob("*/dbt_project.yml"))}


def test_every_shipped_project_belongs_to_its_replica() -> None:
    projects = shipped_projects()
    assert set(projects) == {"ecommerce", "credit_cards", "ecommerce_enterprise"}
    for name, root in projects.items():
        assert get_replica(name).dbt_project.resolve() == root.resolve()
        assert f"name: {name}\n" in (root / "dbt_project.yml").read_text(encoding="utf-8")


def test_vendored_files_shared_by_several_projects_are_byte_identical() -> None:
    copies: dict[str, dict[str, bytes]] = defaultdict(dict)
    for name, root in shipped_projects().items():
        for folder in VENDORED_DIRS:
            for path in sorted((root / folder).glob("*.sql")):
                copies[path.relative_to(root).as_posix()][name] = path.read_bytes()
    shared = {rel: by_project for rel, by_project in copies.items() if len(by_project) > 1}
    # The one generic test both projects use today; the check itself covers any later one.
    assert "tests/generic/unique_combination_of_columns.sql" in shared
    for rel, by_project in shared.items():
        bodies = set(by_project.values())
        assert len(bodies) == 1, f"{rel} differs between {sorted(by_project)}"
