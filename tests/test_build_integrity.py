"""Published snapshots are read-only, verified against integrity.json, and rebuilt if damaged."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import duckdb
import pytest

from replicas.build import (
    INTEGRITY,
    Snapshot,
    build_info,
    ensure_snapshot,
    export_snapshot,
    is_cached,
)
from replicas.build import integrity as integrity_mod
from tests.toy_replica import ensure_registered

ensure_registered()

MODEL = "dbt/models/thing_totals.sql"


def _modes(root: Path) -> set[tuple[str, int]]:
    out = {("dir", stat.S_IMODE(root.stat().st_mode))}
    for path in root.rglob("*"):
        out.add(("dir" if path.is_dir() else "file", stat.S_IMODE(path.stat().st_mode)))
    return out


def test_published_snapshot_is_read_only_and_records_every_file() -> None:
    snap = ensure_snapshot("toy", 31)
    assert _modes(snap.path) == {("dir", 0o555), ("file", 0o444)}
    recorded = json.loads((snap.path / INTEGRITY).read_text())["files"]
    on_disk = {p.relative_to(snap.path).as_posix() for p in snap.path.rglob("*") if p.is_file()} - {
        INTEGRITY
    }
    assert set(recorded) == on_disk
    assert {"warehouse.duckdb", "manifest.json", MODEL, "dbt/target/manifest.json"} <= on_disk
    assert "integrity" not in (snap.path / "manifest.json").read_text()
    assert snap.verify() == []


def test_second_verify_costs_only_stats(monkeypatch: pytest.MonkeyPatch) -> None:
    snap = ensure_snapshot("toy", 32)
    hashed: list[str] = []
    real = integrity_mod.file_sha256

    def counting(path: Path) -> str:
        hashed.append(str(path))
        return real(path)

    monkeypatch.setattr(integrity_mod, "file_sha256", counting)
    integrity_mod._MEMO.clear()
    assert Snapshot.load(snap.path).verify() == []
    assert len(hashed) >= 5  # the first check reads every file
    hashed.clear()
    assert Snapshot.load(snap.path).verify() == []
    assert hashed == []


def _writable(path: Path) -> None:
    os.chmod(path.parent, 0o755)
    os.chmod(path, 0o644)


def test_tampered_model_file_is_detected_and_rebuilt() -> None:
    snap = ensure_snapshot("toy", 33)
    model = snap.path / MODEL
    original = model.read_bytes()
    _writable(model)
    model.write_text("select 1 as kind -- an agent was here\n")
    problems = snap.verify()
    assert problems == [f"{MODEL}: content changed (sha256 differs)"]
    assert not is_cached("toy", 33)
    rebuilt = ensure_snapshot("toy", 33)
    assert rebuilt.verify() == []
    assert (rebuilt.path / MODEL).read_bytes() == original
    assert "content changed" in build_info(rebuilt)["rebuilt_because"]
    assert _modes(rebuilt.path) == {("dir", 0o555), ("file", 0o444)}
    assert rebuilt.manifest == snap.manifest


def test_tampered_warehouse_and_extra_files_are_detected_and_rebuilt() -> None:
    snap = ensure_snapshot("toy", 34)
    _writable(snap.warehouse)
    con = duckdb.connect(str(snap.warehouse))
    con.execute("insert into raw.things values (999, 'z', 1.0)")
    con.close()
    os.chmod(snap.dbt_project / "models", 0o755)
    (snap.dbt_project / "models" / "answer.sql").write_text("select 42 as answer\n")
    problems = snap.verify()
    assert "warehouse.duckdb: content changed (sha256 differs)" in problems
    assert "dbt/models/answer.sql: not part of the published tree" in problems
    rebuilt = ensure_snapshot("toy", 34)
    assert rebuilt.verify() == []
    assert not (rebuilt.dbt_project / "models" / "answer.sql").exists()
    con = duckdb.connect(str(rebuilt.warehouse), read_only=True)
    try:
        assert con.execute("select count(*) from raw.things where kind = 'z'").fetchall() == [(0,)]
    finally:
        con.close()


def test_missing_file_or_integrity_record_is_a_problem(tmp_path: Path) -> None:
    snap = ensure_snapshot("toy", 35)
    copy = export_snapshot(snap, tmp_path / "copy")
    # an export is an ordinary writable directory that still verifies
    assert ("file", 0o444) not in _modes(copy.path)
    assert copy.verify() == []
    (copy.path / "dbt" / "dbt_project.yml").unlink()
    assert copy.verify() == ["dbt/dbt_project.yml: missing"]
    (copy.path / INTEGRITY).unlink()
    assert copy.verify() == [f"{INTEGRITY} is missing"]
    # exporting again over a damaged copy with force replaces it whole
    again = export_snapshot(snap, tmp_path / "copy", force=True)
    assert again.verify() == []
