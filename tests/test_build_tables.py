"""The build's table fingerprints equal the canonical ones (``replicas.warehouse``) byte for byte,
whichever shortcut computes them: rows already in key order (no sort), a unique first column (a
one-column sort), or the full ``ORDER BY ALL``."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from replicas.build import MART_SCHEMA, ensure_snapshot
from replicas.build.tables import fingerprint_schemas, fingerprint_table
from replicas.warehouse import RAW_SCHEMA, fingerprint_tables, list_relations, table_fingerprint

#: name -> CREATE TABLE ... AS query: each takes another path through fingerprint_table.
TABLES = {
    "sorted_key": "select range::bigint as id, (range * 7) % 13 as v, 'x' || range as s "
    "from range(450000)",
    "unsorted_key": "select (range * 7919) % 450001 as id, range % 5 as v from range(450001)",
    "repeated_first": "select range % 10 as g, range as id, random() as r from range(5000)",
    "null_in_key": "select case when range = 3 then null else range end as id, range as v "
    "from range(100)",
    "decreasing_key": "select 1000 - range as id, range::double / 3 as f from range(1000)",
    "text_key": "select 'k' || ((range * 31) % 997) as k, range as v from range(997)",
    "float_key": "select (range % 17)::double / 7 as f, range as v from range(300)",
    "float_nan": "select case when range % 3 = 0 then 'nan'::double else range end as f, "
    "range % 2 as v from range(30)",
    "timestamps": "select timestamp '2024-01-01' + to_seconds(range) as at, range as v "
    "from range(1000)",
    "date_ties": "select date '2024-01-01' + (range // 3)::int as d, range as v from range(90)",
    "one_column": "select (range * 13) % 101 as v from range(101)",
    "empty": "select 1 as id, 'a' as s where false",
    "wide_unique_text_first": "select md5(range::varchar) as h, range as id, null as n "
    "from range(2000)",
}


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tables") / "w.duckdb"
    con = duckdb.connect(str(path))
    con.execute("create schema t")
    for name, query in TABLES.items():
        con.execute(f'create table t."{name}" as {query}')
    con.close()
    return path


@pytest.mark.parametrize("name", sorted(TABLES))
def test_fingerprint_table_equals_the_canonical_hash(warehouse: Path, name: str) -> None:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        assert fingerprint_table(con, f't."{name}"') == table_fingerprint(con, f't."{name}"')
    finally:
        con.close()


def test_fingerprint_schemas_equals_the_canonical_hashes_of_a_build(tmp_path: Path) -> None:
    snapshot = ensure_snapshot("ecommerce", 1, 0.01)
    # A copy of the shared snapshot's file: in a full run this worker may already hold the
    # kit's locked-down read-only connection to the original, and DuckDB refuses a second
    # connection to one file with another configuration.
    warehouse = tmp_path / "warehouse.duckdb"
    shutil.copyfile(snapshot.warehouse, warehouse)
    schemas = {RAW_SCHEMA: None, MART_SCHEMA: "BASE TABLE"}
    fast = fingerprint_schemas(warehouse, schemas)
    names = {
        schema: list_relations(warehouse, schema, table_type=kind)
        for schema, kind in schemas.items()
    }
    assert names[RAW_SCHEMA] and names[MART_SCHEMA]
    assert fast == fingerprint_tables(warehouse, names)
    assert fast[RAW_SCHEMA] == snapshot.manifest["tables"]["raw"]
    assert fast[MART_SCHEMA] == snapshot.manifest["tables"]["marts"]
