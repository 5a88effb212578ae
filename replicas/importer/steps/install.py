"""``import_dbt_project``: a user's dbt project → a registered, buildable replica.

Steps: check the project (:func:`~replicas.importer.steps.project.check_project`), stage the copy in a
temporary directory beside the import's final place, compile it once with dbt (trusted, in the
kit's OS sandbox when available) to read every model's compiled SQL and every test from the
manifest, derive the synthesis schema, and rename the whole directory into place. Then — unless
``check=False`` — build seed 0 at the default scale the way ``replicas build`` does; a test that
fails on synthesised data is reported by name with its model and column, and the import is
withdrawn.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replicas.atomicio import publish_dir, remove_tree
from replicas.dbt import run_dbt
from replicas.factory.deploy import Knob
from replicas.importer.knobs import KNOBS_FILE, KnobsError, check_files, combinations, load_knobs
from replicas.importer.schema import NAME_RE, ImportSpec
from replicas.importer.steps.derive import derive_spec
from replicas.importer.steps.project import ImportRefused, check_project, stage_copy
from replicas.importer.store import (
    PROJECT_DIR,
    SPEC_FILE,
    import_dir,
    imports_root,
    replica_spec,
)

__all__ = ["DEFAULT_END", "DEFAULT_START", "ImportResult", "import_dbt_project", "remove_import"]

DEFAULT_START = dt.date(2024, 1, 1)
DEFAULT_END = dt.date(2025, 12, 31)
_COMPILE_TIMEOUT_S = 600


@dataclass(frozen=True)
class ImportResult:
    spec: ImportSpec
    path: Path
    models: int
    tests: int
    checked: dict[str, Any] | None
    #: knob name -> its alternatives' labels (the project's ``replicas_knobs.yml``)
    knobs: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": 1,
            "replica": self.spec.name,
            "path": str(self.path),
            "project": self.spec.project_name,
            "source_path": self.spec.source_path,
            "models": self.models,
            "tests": self.tests,
            "raw_tables": {
                t.name: {"origin": t.origin, "columns": len(t.columns), "checks": len(t.checks)}
                for t in self.spec.tables
            },
            "date_range": [self.spec.start.isoformat(), self.spec.end.isoformat()],
            "notes": list(self.spec.notes),
            "check_build": self.checked,
            "knobs": self.knobs,
            "families": [
                f"{self.spec.name}.mutant_fix-v1",
                f"{self.spec.name}.mutant_fix_multi-v1",
                *(
                    [f"{self.spec.name}.mutant_fix-v2", f"{self.spec.name}.mutant_fix_multi-v2"]
                    if self.knobs
                    else []
                ),
                f"{self.spec.name}.mart_metric-v1",
            ],
        }


def _check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise ImportRefused(f"--name must match [a-z][a-z0-9_]* (a task-id prefix), got {name!r}")
    from replicas.importer.store import _is_import
    from replicas.replica import REPLICAS

    existing = REPLICAS.find(name)
    if existing is not None and not _is_import(existing):
        raise ImportRefused(f"--name {name!r} clashes with a shipped replica; choose another name")


def _compile(project: Path, scratch: Path) -> dict[str, Any]:
    result = run_dbt(
        project, scratch / "compile.duckdb", ["compile"], timeout_s=_COMPILE_TIMEOUT_S, trusted=True
    )
    manifest_path = project / "target" / "manifest.json"
    if not result.ok or not manifest_path.is_file():
        lines = [ln for ln in result.summary.splitlines() if ln.strip()][-6:]
        raise ImportRefused("dbt could not compile the project: " + " | ".join(lines))
    manifest: dict[str, Any] = json.loads(manifest_path.read_text(encoding="utf-8"))
    for leftover in ("target", "logs"):
        shutil.rmtree(project / leftover, ignore_errors=True)
    (project / ".user.yml").unlink(missing_ok=True)
    return manifest


def register_import(spec: ImportSpec) -> None:
    """Make the imported replica buildable, and its task families listable, in this process."""
    from replicas.build.fingerprint import forget_fingerprints
    from replicas.importer.steps.families import register_families
    from replicas.replica import register_replica

    register_replica(replica_spec(spec), replace=True)
    forget_fingerprints()
    register_families(spec.name)


def remove_import(name: str) -> None:
    """Withdraw an import (its directory and registration; cached snapshots age out)."""
    from replicas.importer.steps.families import unregister_families
    from replicas.replica import REPLICAS

    remove_tree(import_dir(name))
    REPLICAS.unregister(name)
    unregister_families(name)


def _failed_tests(message: str, manifest: dict[str, Any]) -> list[str]:
    out = []
    for uid in re.findall(r"FAIL (test\.[^\s:]+)", message):
        node = manifest.get("nodes", {}).get(uid) or {}
        model = str((node.get("test_metadata") or {}).get("kwargs", {}).get("model", ""))
        named = re.search(r"(?:ref|source)\(([^)]*)\)", model)
        attached = str(node.get("attached_node") or "").rsplit(".", 1)[-1] or (
            ".".join(p.strip(" '\"") for p in named.group(1).split(",")) if named else ""
        )
        column = node.get("column_name")
        where = f"{attached}.{column}" if attached and column else attached or "?"
        out.append(f"test {node.get('name', uid)} failed on {where}")
    return out


def import_dbt_project(
    path: Path,
    name: str,
    *,
    start: dt.date = DEFAULT_START,
    end: dt.date = DEFAULT_END,
    check: bool = True,
) -> ImportResult:
    """Import the dbt project at ``path`` as replica ``name``; :class:`ImportRefused` on bad input."""
    _check_name(name)
    if end <= start:
        raise ImportRefused(f"--end {end} must be after --start {start}")
    facts = check_project(path)
    final = import_dir(name)
    imports_root().mkdir(parents=True, exist_ok=True)
    work = imports_root() / f".tmp-{name}-{uuid.uuid4().hex[:8]}"
    work.mkdir()
    try:
        stage_copy(facts, work / PROJECT_DIR)
        # the knobs are the kit's metadata, not the company's project: kept beside the project,
        # so no sandbox (a copy of the project) holds the other deployments' rules
        if (work / PROJECT_DIR / KNOBS_FILE).is_file():
            (work / PROJECT_DIR / KNOBS_FILE).rename(work / KNOBS_FILE)
        static = [s for s in facts.seeds if s.static]
        if static:
            (work / "seed_data").mkdir()
            for seed in static:
                shutil.copyfile(seed.path, work / "seed_data" / seed.path.name)
        manifest = _compile(work / PROJECT_DIR, work)
        knobs = _knobs(work, manifest)
        (work / "compile.duckdb").unlink(missing_ok=True)
        spec = derive_spec(facts, manifest, name=name, start=start, end=end, source_path=facts.root)
        (work / SPEC_FILE).write_text(spec.to_json(), encoding="utf-8")
        publish_dir(work, final)
    finally:
        remove_tree(work)
    register_import(spec)
    nodes = manifest.get("nodes", {}).values()
    models = sum(1 for n in nodes if n.get("resource_type") == "model")
    tests = sum(1 for n in nodes if n.get("resource_type") == "test")
    checked = _check_build(name, manifest) if check else None
    if check and knobs:
        _check_knobs_compiled(name, knobs)
    labels = {k.name: [c.label for c in k.choices] for k in knobs}
    return ImportResult(spec, final, models, tests, checked, labels)


def _knobs(work: Path, manifest: dict[str, Any]) -> tuple[Knob, ...]:
    """The import's deployment knobs, each edit checked against the staged project's files."""
    project = work / PROJECT_DIR
    try:
        knobs = load_knobs(work)
        models = {
            str(n["name"])
            for n in manifest.get("nodes", {}).values()
            if n.get("resource_type") == "model"
        }
        check_files(project, knobs, models)
    except KnobsError as exc:
        raise ImportRefused(str(exc)) from None
    return knobs


def _check_knobs_compiled(name: str, knobs: tuple[Knob, ...]) -> None:
    """Every deployment's compiled effect holds on the compiled project (a var's effect on its
    model's SQL, a model file's edit in its compiled SQL); the import is withdrawn otherwise."""
    from replicas.factory.deploy import DeploymentError, deployed_with

    for picks in combinations(knobs):
        try:
            deployed_with(name, 0, picks)
        except DeploymentError as exc:
            remove_import(name)
            rules = ", ".join(f"{k.name}={c.label!r}" for k, c in picks)
            raise ImportRefused(
                f"{KNOBS_FILE}: a deployment does not apply to the compiled project ({rules}): "
                f"{exc}; import withdrawn"
            ) from None


def _check_build(name: str, manifest: dict[str, Any]) -> dict[str, Any]:
    from replicas.build import BuildError, ensure_snapshot

    try:
        snapshot = ensure_snapshot(name, 0)
    except BuildError as exc:
        failed = _failed_tests(str(exc), manifest)
        remove_import(name)
        detail = "; ".join(failed) if failed else str(exc).splitlines()[-1]
        raise ImportRefused(
            f"the project does not build on synthesised data (seed 0), import withdrawn: {detail}"
        ) from None
    dbt = snapshot.manifest.get("dbt", {})
    return {"seed": 0, "scale": snapshot.scale, "dbt": dbt}
