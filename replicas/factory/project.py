"""What the factory knows about a replica's dbt project, read once from its compiled cache.

The compiled project (``replicas.build.compiled``) holds the ``target/manifest.json`` a real
``dbt build`` wrote and the replay plan derived from it: every model's raw and compiled SQL, its
file, materialisation and parents; every data test with its kind, model and column; sources;
and the project's vars. Column names and types come from a built snapshot's warehouse.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from replicas.build import ensure_snapshot
from replicas.build.compiled import CompiledProject, load_compiled
from replicas.build.plan import ReplayPlan
from replicas.db import readonly_connection
from replicas.replica import ReplicaSpec, get_replica

__all__ = ["FactoryUnsupported", "ModelInfo", "ProjectInfo", "TestInfo", "load_project"]

#: Directory names that mark a model's layer (dbt convention: staging → intermediate → marts).
_LAYERS = {
    "staging": "staging",
    "stg": "staging",
    "base": "staging",
    "intermediate": "intermediate",
    "int": "intermediate",
    "marts": "marts",
    "mart": "marts",
    "core": "marts",
    "reporting": "marts",
}


class FactoryUnsupported(RuntimeError):
    """The replica's project cannot go through the factory (e.g. replay cannot run it)."""


@dataclass(frozen=True)
class TestInfo:
    """One data test: its kind (``unique``, ``not_null``, ``accepted_values``, …, or
    ``singular``), the model it is attached to and its column, and the test's kwargs."""

    unique_id: str
    name: str
    kind: str
    model: str | None
    column: str | None
    kwargs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelInfo:
    """One model of the project."""

    unique_id: str
    name: str
    path: str
    raw: str
    compiled: str
    materialized: str
    layer: str
    parents: tuple[str, ...]
    description: str
    columns: tuple[tuple[str, str], ...]
    column_docs: Mapping[str, str] = field(default_factory=dict)

    @property
    def relation(self) -> str:
        return self.name

    def column_names(self) -> list[str]:
        return [c for c, _ in self.columns]

    def column_type(self, column: str) -> str | None:
        for name, kind in self.columns:
            if name.lower() == column.lower():
                return kind
        return None


@dataclass(frozen=True)
class ProjectInfo:
    """The project of one replica at one code fingerprint."""

    replica: str
    fingerprint: str
    database: str
    models: Mapping[str, ModelInfo]
    tests: tuple[TestInfo, ...]
    vars: Mapping[str, Any]
    marts: tuple[str, ...]
    plan: ReplayPlan
    source_columns: Mapping[str, tuple[tuple[str, str], ...]]

    def children(self, model: str) -> list[str]:
        return [m.name for m in self.models.values() if model in m.parents]

    def downstream(self, model: str) -> list[str]:
        """``model`` and every model built from it, in the plan's (DAG) order."""
        wanted = {model}
        for step in self.plan.models:
            name = step.unique_id.rsplit(".", 1)[-1]
            info = self.models.get(name)
            if info is not None and set(info.parents) & wanted:
                wanted.add(name)
        return [
            s.unique_id.rsplit(".", 1)[-1]
            for s in self.plan.models
            if s.unique_id.rsplit(".", 1)[-1] in wanted
        ]

    def key_columns(self, model: str) -> tuple[str, ...]:
        """The model's grain: a column tested ``unique`` (and ``not_null`` when possible), or
        a ``unique_combination_of_columns``; empty when no test states one."""
        unique = [
            t.column for t in self.tests if t.model == model and t.kind == "unique" and t.column
        ]
        not_null = {t.column for t in self.tests if t.model == model and t.kind == "not_null"}
        for column in unique:
            if column in not_null:
                return (str(column),)
        if unique:
            return (str(unique[0]),)
        for test in self.tests:
            if test.model == model and test.kind == "unique_combination_of_columns":
                cols = test.kwargs.get("combination_of_columns") or []
                if isinstance(cols, list) and cols:
                    return tuple(str(c) for c in cols)
        return ()

    def accepted_values(self, column: str) -> list[str]:
        """Every value an ``accepted_values`` test anywhere allows for a column of this name."""
        out: list[str] = []
        for test in self.tests:
            if test.kind == "accepted_values" and (test.column or "").lower() == column.lower():
                for value in test.kwargs.get("values") or []:
                    if isinstance(value, str) and value not in out:
                        out.append(value)
        return out

    def relation_columns(self, relation: str) -> list[str]:
        """Columns of a rendered relation name (``"warehouse"."main"."stg_orders"``)."""
        parts = [p.strip('"') for p in relation.split(".")]
        name = parts[-1]
        if len(parts) >= 2 and parts[-2] != "main":
            cols = self.source_columns.get(f"{parts[-2]}.{name}")
            return [c for c, _ in cols] if cols else []
        info = self.models.get(name)
        return info.column_names() if info else []

    def relation_column_type(self, relation: str, column: str) -> str | None:
        parts = [p.strip('"') for p in relation.split(".")]
        name = parts[-1]
        if len(parts) >= 2 and parts[-2] != "main":
            for col, kind in self.source_columns.get(f"{parts[-2]}.{name}", ()):
                if col.lower() == column.lower():
                    return kind
            return None
        info = self.models.get(name)
        return info.column_type(column) if info else None


def _layer(path: str, fqn: list[str]) -> str:
    parts = [p.lower() for p in Path(path).parts[:-1]] + [p.lower() for p in fqn[1:-1]]
    for part in parts:
        if part in _LAYERS:
            return _LAYERS[part]
    return "other"


def _warehouse_columns(warehouse: Path) -> dict[str, list[tuple[str, str]]]:
    cur = readonly_connection(warehouse).cursor()
    try:
        rows = cur.execute(
            "select table_schema, table_name, column_name, data_type from information_schema.columns "
            "where table_catalog = current_database() order by table_schema, table_name, ordinal_position"
        ).fetchall()
    finally:
        cur.close()
    out: dict[str, list[tuple[str, str]]] = {}
    for schema, table, column, kind in rows:
        out.setdefault(f"{schema}.{table}", []).append((str(column), str(kind)))
    return out


def _tests(manifest: Mapping[str, Any], project: str) -> tuple[TestInfo, ...]:
    out = []
    for uid, node in sorted(manifest.get("nodes", {}).items()):
        if node.get("resource_type") != "test":
            continue
        meta = node.get("test_metadata") or {}
        attached = node.get("attached_node") or ""
        model = attached.rsplit(".", 1)[-1] if attached.startswith("model.") else None
        kind = str(meta.get("name") or "singular")
        kwargs = {k: v for k, v in dict(meta.get("kwargs") or {}).items() if k != "model"}
        column = node.get("column_name") or kwargs.get("column_name")
        out.append(TestInfo(uid, str(node.get("name")), kind, model, column, kwargs))
    return tuple(out)


_PROJECTS: dict[str, ProjectInfo] = {}


def _compiled(spec: ReplicaSpec) -> CompiledProject:
    compiled = load_compiled(spec)
    if compiled is None:
        # the first build of a code fingerprint compiles the project (seed 0 is never a task)
        ensure_snapshot(spec.name, 0, spec.default_scale)
        compiled = load_compiled(spec)
    if compiled is None:
        raise FactoryUnsupported(f"{spec.name}: the compiled project could not be cached")
    if compiled.plan is None:
        raise FactoryUnsupported(
            f"{spec.name}: the factory validates mutants by replaying compiled SQL, which this "
            f"project does not support ({compiled.unsupported})"
        )
    return compiled


def load_project(replica: str) -> ProjectInfo:
    """The project of ``replica`` (memoised per code fingerprint)."""
    spec = get_replica(replica)
    compiled = _compiled(spec)
    key = str(compiled.path)
    cached = _PROJECTS.get(key)
    if cached is not None:
        return cached
    plan = compiled.plan
    assert plan is not None  # _compiled refuses a project without one
    manifest = json.loads((compiled.project / "target" / "manifest.json").read_text())
    project_yml = compiled.project / "dbt_project.yml"
    doc = yaml.safe_load(project_yml.read_text()) if project_yml.is_file() else {}
    project_name = str((doc or {}).get("name", replica))
    variables = dict((doc or {}).get("vars") or {})
    snapshot = ensure_snapshot(spec.name, 0, spec.default_scale)
    columns = _warehouse_columns(snapshot.warehouse)
    models: dict[str, ModelInfo] = {}
    for step in plan.models:
        node = manifest["nodes"][step.unique_id]
        name = str(node["name"])
        models[name] = ModelInfo(
            unique_id=step.unique_id,
            name=name,
            path=str(node["original_file_path"]),
            raw=str(node["raw_code"]),
            compiled=step.sql,
            materialized=step.materialized,
            layer=_layer(str(node["original_file_path"]), list(node.get("fqn", []))),
            parents=tuple(p.rsplit(".", 1)[-1] for p in step.parents),
            description=str(node.get("description") or ""),
            columns=tuple(columns.get(f"{step.schema}.{step.identifier}", ())),
            column_docs={
                str(c): str((v or {}).get("description") or "")
                for c, v in dict(node.get("columns") or {}).items()
            },
        )
    tests = _tests(manifest, project_name)
    marts = tuple(m for m in spec.marts if m in models) or tuple(
        name for name, m in models.items() if m.layer == "marts"
    )
    if not marts:
        parents = {p for m in models.values() for p in m.parents}
        marts = tuple(name for name in models if name not in parents)
    sources = {k: tuple(v) for k, v in columns.items() if not k.startswith("main.")}
    info = ProjectInfo(
        replica=replica,
        fingerprint=compiled.path.name,
        database=plan.database,
        models=models,
        tests=tests,
        vars=variables,
        marts=marts,
        plan=plan,
        source_columns=sources,
    )
    _PROJECTS[key] = info
    return info
