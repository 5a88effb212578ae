"""Table fingerprints: the build's equal the canonical ones (``replicas.warehouse``) byte for
byte, whichever shortcut computes them (rows already in key order, a key-only permutation, a
one-column sort, the full ``ORDER BY ALL``); the canonical digest is the documented byte layout
(recomputed here in plain Python), the same in another process and for any row order or batch
size, and a one-cell change changes it."""

from __future__ import annotations

import hashlib
import math
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import replicas.warehouse
from replicas.build import MART_SCHEMA, ensure_snapshot
from replicas.build.tables import fingerprint_schemas, fingerprint_table
from replicas.warehouse import (
    RAW_SCHEMA,
    TABLE_HASH_FORMAT,
    fingerprint_tables,
    list_relations,
    table_fingerprint,
)
from tests.paths import REPO_ROOT

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
    # a unique key out of storage order: hashed through the permutation that sorts the key
    "nearly_sorted_key": "select case when range = 7 then 400000 when range = 400000 then 7 "
    "else range end as id, 'v' || (range % 97) as s, range % 3 = 0 as b "
    "from range(450001)",
    "timestamp_key_unsorted": "select timestamp '2024-01-01' + to_seconds((range * 37) % 1000) "
    "as at, range::double / 7 as f from range(1000)",
    "many_types": "select range::integer as id, "
    "case when range % 5 = 0 then null else 'x' || range end as s, "
    "case when range % 4 = 0 then null else range % 2 = 0 end as b, "
    "case when range % 6 = 0 then null else range::double / 3 end as f, "
    "case when range % 7 = 0 then 'nan'::double when range % 7 = 1 then -0.0 "
    "else range::double end as g, "
    "(range * 1000)::hugeint as h, (range / 8)::decimal(12,3) as d, "
    "date '2020-01-01' + range::int as dt, [range, range + 1] as l, "
    "{'a': range} as st, interval (range) minute as i, ''::blob || range::varchar::blob as bl "
    "from range(3000)",
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


# --------------------------------------------------------------------------------------------
# the canonical digest itself

#: A small table with every natively hashed kind of column, NULLs, NaN, -0.0 and text.
SMALL = (
    "select * from (values "
    "(3, 'c', true, 1.25, date '2024-03-01', timestamp '2024-03-01 10:00:00', 30::hugeint), "
    "(1, null, false, -0.0, null, timestamp '2024-01-01 00:00:01', null), "
    "(2, 'bb', null, 'nan'::double, date '2024-02-01', null, -2::hugeint), "
    "(4, 'é', true, 0.1 + 0.2, date '1969-12-31', timestamp '1969-12-31 23:59:59', 0::hugeint)"
    ") as t(id, s, b, f, d, ts, h)"
)


def _reference_digest(con: duckdb.DuckDBPyConnection, qualified: str) -> dict[str, object]:
    """The documented layout (module docstring of replicas.warehouse), computed row by row."""
    columns = [(str(c[0]), str(c[1])) for c in con.execute(f"DESCRIBE {qualified}").fetchall()]
    rows = con.execute(f"SELECT * FROM {qualified} ORDER BY ALL").fetchall()
    digest = hashlib.sha256(TABLE_HASH_FORMAT.encode() + b"\n")
    digest.update(("|".join(f"{n}:{t}" for n, t in columns) + "\n").encode())
    digest.update(struct.pack("<q", len(rows)))
    epoch = __import__("datetime").datetime(1970, 1, 1)
    for i, (_name, kind) in enumerate(columns):
        values, lengths, nulls = hashlib.sha256(), hashlib.sha256(), hashlib.sha256()
        for r, row in enumerate(rows):
            v = row[i]
            if v is None:
                nulls.update(struct.pack("<q", r))
            if kind == "VARCHAR":
                data = b"" if v is None else v.encode()
                lengths.update(struct.pack("<I", len(data)))
                values.update(data)
            elif kind == "INTEGER":
                values.update(struct.pack("<i", v or 0))
            elif kind == "BOOLEAN":
                values.update(struct.pack("<B", bool(v)))
            elif kind == "DOUBLE":
                f = 0.0 if v is None else (math.nan if math.isnan(v) else round(v, 10) + 0.0)
                values.update(struct.pack("<d", f))
            elif kind == "DATE":
                values.update(struct.pack("<i", 0 if v is None else (v - epoch.date()).days))
            elif kind == "TIMESTAMP":
                micros = (
                    0
                    if v is None
                    else (v - epoch) // __import__("datetime").timedelta(microseconds=1)
                )
                values.update(struct.pack("<q", micros))
            elif kind == "HUGEINT":
                values.update((v or 0).to_bytes(16, "little", signed=True))
            else:
                raise AssertionError(f"no reference layout for {kind}")
        digest.update(values.digest() + lengths.digest() + nulls.digest())
    return {"rows": len(rows), "sha256": digest.hexdigest()}


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.duckdb"
    con = duckdb.connect(str(path))
    con.execute(f"create table s as {SMALL}")
    con.close()
    return path


def test_the_digest_is_the_documented_byte_layout(small: Path) -> None:
    con = duckdb.connect(str(small), read_only=True)
    try:
        expected = _reference_digest(con, "s")
        assert table_fingerprint(con, "s") == expected
        assert fingerprint_table(con, "s") == expected
    finally:
        con.close()


def test_the_digest_is_the_same_in_another_process(small: Path) -> None:
    con = duckdb.connect(str(small), read_only=True)
    try:
        here = table_fingerprint(con, "s")["sha256"]
    finally:
        con.close()
    code = (
        "import sys, duckdb; from replicas.warehouse import table_fingerprint; "
        "con = duckdb.connect(sys.argv[1], read_only=True); "
        "con.execute('set enable_progress_bar = false'); "
        "print(table_fingerprint(con, 's')['sha256'])"
    )
    there = subprocess.run(
        [sys.executable, "-c", code, str(small)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    ).stdout.strip()
    assert there == here


def test_the_digest_ignores_row_order_and_batch_size(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = duckdb.connect(str(small))
    try:
        con.execute("create table shuffled as select * from s order by id desc")
        con.execute(
            "create table big as select range as k, 'v' || (range % 13) as s, "
            "range::double / 3 as f from range(70000)"
        )
        con.execute("create table big_shuffled as select * from big order by (k * 7919) % 70001")
        assert table_fingerprint(con, "shuffled") == table_fingerprint(con, "s")
        whole = table_fingerprint(con, "big")
        assert table_fingerprint(con, "big_shuffled") == whole
        assert fingerprint_table(con, "big_shuffled") == whole
        monkeypatch.setattr(replicas.warehouse, "_HASH_CHUNK_ROWS", 1000)
        assert table_fingerprint(con, "big") == whole
    finally:
        con.close()


#: One cell of SMALL changed, per kind of change: each must change the digest.
ONE_CELL = {
    "integer": "update s set id = 5 where id = 4",
    "text": "update s set s = 'bc' where id = 2",
    "text_to_null": "update s set s = null where id = 2",
    "null_to_empty_text": "update s set s = '' where id = 1",
    "boolean": "update s set b = false where id = 3",
    "boolean_null": "update s set b = false where id = 2",
    "double": "update s set f = 1.2500001 where id = 3",
    "double_nan": "update s set f = 0 where id = 2",
    "date": "update s set d = date '2024-03-02' where id = 3",
    "timestamp": "update s set ts = timestamp '2024-03-01 10:00:00.000001' where id = 3",
    "hugeint": "update s set h = 31 where id = 3",
    # text moved between neighbouring cells: lengths are hashed, not only the bytes
    "text_boundary": "update s set s = 'cb' where id = 3; update s set s = 'b' where id = 2",
}


@pytest.mark.parametrize("change", sorted(ONE_CELL))
def test_a_one_cell_change_changes_the_digest(small: Path, tmp_path: Path, change: str) -> None:
    con = duckdb.connect(str(small))
    try:
        before = table_fingerprint(con, "s")
        con.execute(ONE_CELL[change])
        after = table_fingerprint(con, "s")
        assert after["rows"] == before["rows"]
        assert after["sha256"] != before["sha256"]
        assert fingerprint_table(con, "s") == after == _reference_digest(con, "s")
    finally:
        con.close()
