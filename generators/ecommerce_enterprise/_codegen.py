"""Maintainer tool: (re)writes the generated files of the ``ecommerce_enterprise`` dbt project.

Run from the repository root::

    python -m replicas.generators.ecommerce_enterprise._codegen [--warehouse BUILT.duckdb]

It writes the staging views and the sources YAML from :mod:`._staging_spec`. With
``--warehouse`` (a warehouse the project was built into) it also writes every model
directory's ``_<dir>__models.yml`` — descriptions, owners, example SQL, every column with its
description from the data dictionary (``_dictionary_models.py``, ``_dictionary_columns.py``),
the data types of contracted models, and the key tests — so 130 models stay documented without
hand-editing 130 YAML files.
Hand-written SQL of the intermediate and mart layers is never touched. Not imported at run time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import yaml

from replicas.generators.ecommerce_enterprise._dictionary_columns import (
    COLUMN_EXTRAS,
    column_description,
)
from replicas.generators.ecommerce_enterprise._dictionary_models import (
    CONTRACTED,
    EXTRA_TESTS,
    KEYS,
    MODEL_DOCS,
)
from replicas.generators.ecommerce_enterprise._staging_spec import SPECS, SYSTEMS, StagingSpec

PROJECT = Path(__file__).resolve().parents[2] / "dbt_projects" / "ecommerce_enterprise"


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


_Dumper.add_representer(str, _str_presenter)


def dump(doc: object) -> str:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True)


def staging_sql(spec: StagingSpec) -> str:
    lines = ",\n".join(f"        {line}" for line in spec.select)
    return (
        "with\n\nsource as (\n\n"
        f"    select * from {{{{ source('{spec.system}', '{spec.table}') }}}}\n\n"
        "),\n\nrenamed as (\n\n"
        f"    select\n{lines}\n\n    from source\n\n"
        ")\n\nselect * from renamed\n"
    )


def write_staging() -> None:
    for system, description in SYSTEMS.items():
        folder = PROJECT / "models" / "staging" / system
        folder.mkdir(parents=True, exist_ok=True)
        tables = []
        for spec in SPECS:
            if spec.system != system:
                continue
            (folder / f"{spec.model}.sql").write_text(staging_sql(spec))
            table: dict[str, object] = {
                "name": spec.table,
                "identifier": spec.raw_name,
                "description": spec.description,
            }
            if spec.loaded_at:
                table["loaded_at_field"] = spec.loaded_at
            tables.append(table)
        doc = {
            "version": 2,
            "sources": [
                {
                    "name": system,
                    "schema": "raw",
                    "description": description,
                    "config": {"meta": {"owner": "data-platform"}},
                    "tables": tables,
                }
            ],
        }
        (folder / f"_{system}__sources.yml").write_text(dump(doc))


def _model_files() -> dict[str, Path]:
    return {p.stem: p for p in (PROJECT / "models").rglob("*.sql")}


def _leading_comment(sql: str) -> str:
    lines = []
    for line in sql.splitlines():
        if line.startswith("--"):
            lines.append(line[2:].strip())
        elif line.strip() and not line.startswith("{{"):
            break
    return " ".join(lines)


def _example(model: str, key: str | tuple[str, ...] | None, columns: list[str]) -> str:
    keys = [key] if isinstance(key, str) else list(key or columns[:1])
    shown = list(dict.fromkeys([*keys, *[c for c in columns if c not in keys][:3]]))
    return (
        "```sql\n"
        f"select {', '.join(shown)}\n"
        f"from {model}\n"
        f"order by {', '.join(keys)}\n"
        "limit 10\n"
        "```"
    )


def _key_tests(key: str | tuple[str, ...] | None) -> list[object]:
    if isinstance(key, tuple):
        return [
            {"unique_combination_of_columns": {"arguments": {"combination_of_columns": list(key)}}}
        ]
    return []


def write_model_yaml(warehouse: Path) -> None:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        rows = con.execute(
            "select table_name, column_name, data_type from information_schema.columns "
            "where table_schema = 'main' order by table_name, ordinal_position"
        ).fetchall()
    finally:
        con.close()
    columns: dict[str, list[tuple[str, str]]] = {}
    for table, column, dtype in rows:
        columns.setdefault(table, []).append((column, dtype))
    specs = {s.model: s for s in SPECS}
    by_dir: dict[Path, list[dict[str, object]]] = {}
    missing: list[str] = []
    for model, path in sorted(_model_files().items()):
        cols = columns.get(model)
        if cols is None:
            missing.append(model)
            continue
        spec = specs.get(model)
        key = spec.key if spec else KEYS.get(model)
        text = path.read_text()
        about = spec.description if spec else MODEL_DOCS.get(model) or _leading_comment(text)
        if not about:
            raise SystemExit(f"no description for {model}: add it to _dictionary_models._MODELS")
        description = (
            about.strip() + "\n\nExample:\n\n" + _example(model, key, [c for c, _ in cols])
        )
        entry: dict[str, object] = {"name": model, "description": description}
        config: dict[str, object] = {}
        if model in CONTRACTED:
            config["contract"] = {"enforced": True}
        if config:
            entry["config"] = config
        tests = _key_tests(key)
        if tests:
            entry["data_tests"] = tests
        col_docs = []
        for column, dtype in cols:
            doc: dict[str, object] = {
                "name": column,
                "description": column_description(model, column),
            }
            if model in CONTRACTED:
                doc["data_type"] = dtype.lower()
            doc.update(COLUMN_EXTRAS.get((model, column), {}))
            col_tests: list[object] = []
            if isinstance(key, str) and column == key:
                col_tests += ["unique", "not_null"]
            col_tests += EXTRA_TESTS.get((model, column), [])
            if col_tests:
                doc["data_tests"] = col_tests
            col_docs.append(doc)
        entry["columns"] = col_docs
        by_dir.setdefault(path.parent, []).append(entry)
    if missing:
        raise SystemExit(f"models not built in {warehouse}: {missing}")
    for folder, entries in by_dir.items():
        name = folder.name
        (folder / f"_{name}__models.yml").write_text(dump({"version": 2, "models": entries}))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warehouse", type=Path, help="a warehouse the project was built into")
    args = parser.parse_args(argv)
    write_staging()
    if args.warehouse:
        write_model_yaml(args.warehouse)


if __name__ == "__main__":
    main()
