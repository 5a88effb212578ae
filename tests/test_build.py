"""The build pipeline on a tiny toy replica: caching, atomicity, determinism, bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from replicas.build import (
    MANIFEST_SCHEMA_VERSION,
    BuildError,
    BuildKey,
    Snapshot,
    ensure_snapshot,
    export_snapshot,
)
from replicas.paths import snapshots_dir
from replicas.replica import ReplicaSpec, get_replica, register_replica
from replicas.warehouse import TABLE_HASH_FORMAT
from tests.paths import REPO_ROOT
from tests.toy_replica import TOY_PROJECT, ensure_registered

ensure_registered()


def _leftovers() -> list[Path]:
    return [p for p in snapshots_dir().iterdir() if p.name.startswith((".tmp-", ".old-"))]


def test_build_writes_complete_snapshot_with_manifest() -> None:
    snap = ensure_snapshot("toy", 11)
    assert snap.warehouse.is_file() and snap.dbt_project.is_dir()
    manifest = json.loads((snap.path / "manifest.json").read_text())
    assert manifest["schema_version"] == MANIFEST_SCHEMA_VERSION == 2
    assert manifest["table_hash"] == TABLE_HASH_FORMAT
    assert (manifest["replica"], manifest["seed"], manifest["scale"]) == ("toy", 11, 0.01)
    assert manifest["tables"]["raw"]["things"]["rows"] == 10
    assert set(manifest["tables"]["marts"]) == {"thing_totals"}
    assert len(manifest["tables"]["marts"]["thing_totals"]["sha256"]) == 64
    assert manifest["dbt"]["ok"] is True
    assert manifest["dbt"]["status_counts"].get("pass", 0) >= 2
    assert {"dbt-core", "duckdb", "replica-kit"} <= set(manifest["versions"])
    # no absolute paths or timings in the manifest: it must be byte-identical across machines
    assert str(snap.path) not in json.dumps(manifest)
    assert "timings" not in manifest


def test_second_build_is_cache_hit() -> None:
    first = ensure_snapshot("toy", 12)
    stamp = (first.path / "manifest.json").stat().st_mtime_ns
    second = ensure_snapshot("toy", 12)
    assert second.path == first.path
    assert (second.path / "manifest.json").stat().st_mtime_ns == stamp


def test_forced_rebuild_is_byte_identical_and_seed_sensitive() -> None:
    first = (ensure_snapshot("toy", 13).path / "manifest.json").read_bytes()
    again = (ensure_snapshot("toy", 13, force=True).path / "manifest.json").read_bytes()
    assert first == again
    other = json.loads((ensure_snapshot("toy", 14).path / "manifest.json").read_text())
    mine = json.loads(first)
    assert other["tables"]["raw"]["things"]["sha256"] != mine["tables"]["raw"]["things"]["sha256"]


def test_failing_generator_names_step_and_leaves_nothing() -> None:
    with pytest.raises(BuildError) as info:
        ensure_snapshot("toy_broken", 1)
    assert info.value.step == "generate"
    assert "exploded on purpose" in str(info.value)
    assert not any(p.name.startswith("toy_broken") for p in snapshots_dir().iterdir())
    assert not [p for p in _leftovers() if "toy_broken" in p.name]


def test_failing_dbt_test_names_model_and_leaves_nothing(tmp_path: Path) -> None:
    project = tmp_path / "toy_failing"
    shutil.copytree(TOY_PROJECT, project)
    (project / "tests").mkdir()
    (project / "tests" / "no_kind_a.sql").write_text(
        "select * from {{ ref('thing_totals') }} where kind = 'a'\n"
    )
    try:
        get_replica("toy_failing")
    except ValueError:
        register_replica(
            ReplicaSpec(
                name="toy_failing",
                description="dbt test fails",
                generator="tests.toy_replica:generate",
                dbt_project=project,
            )
        )
    with pytest.raises(BuildError) as info:
        ensure_snapshot("toy_failing", 2)
    assert info.value.step == "dbt"
    assert "no_kind_a" in info.value.detail
    assert not any(p.name.startswith("toy_failing") for p in snapshots_dir().iterdir())
    assert not [p for p in _leftovers() if "toy_failing" in p.name]


def test_interrupted_build_leaves_nothing() -> None:
    import contextlib

    @contextlib.contextmanager
    def interrupt_at_dbt(name: str) -> Iterator[None]:
        if name.startswith("dbt"):
            raise KeyboardInterrupt
        yield

    with pytest.raises(KeyboardInterrupt):
        ensure_snapshot("toy", 15, step=interrupt_at_dbt)
    assert not (snapshots_dir() / BuildKey("toy", 15, 0.01).slug).exists()
    assert not [p for p in _leftovers() if "toy-s15" in p.name]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("nope", 1, 0.01), "known replicas: "),
        (("toy", -1, 0.01), "non-negative integer"),
        (("toy", True, 0.01), "non-negative integer"),
        (("toy", 1.5, 0.01), "non-negative integer"),
        (("toy", 1, 0.0), "positive"),
        (("toy", 1, -2.0), "positive"),
        (("toy", 1, float("nan")), "positive"),
        (("toy", 1, float("inf")), "positive"),
        (("toy", 1, 1e6), "too large"),
    ],
)
def test_bad_build_keys_are_rejected(args: tuple, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        BuildKey(*args)


def test_unknown_replica_error_lists_known() -> None:
    with pytest.raises(ValueError) as info:
        ensure_snapshot("ecomerce", 1)
    assert "ecommerce" in str(info.value) and "credit_cards" in str(info.value)


def test_export_refuses_foreign_dir_and_replaces_with_force(tmp_path: Path) -> None:
    snap = ensure_snapshot("toy", 16)
    out = tmp_path / "out"
    out.mkdir()
    (out / "precious.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="not a snapshot"):
        export_snapshot(snap, out)
    assert (out / "precious.txt").read_text() == "keep me"
    copied = export_snapshot(snap, out, force=True)
    assert not (out / "precious.txt").exists()
    assert copied.key == snap.key
    assert Snapshot.load(out).manifest == snap.manifest
    # same key again: a no-op, not an error
    assert export_snapshot(snap, out).path == out
    other = ensure_snapshot("toy", 17)
    with pytest.raises(FileExistsError, match="another key"):
        export_snapshot(other, out)


def test_snapshot_load_rejects_non_snapshots(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a replica snapshot"):
        Snapshot.load(tmp_path)


def test_editing_the_dbt_project_changes_the_cache_key(tmp_path: Path) -> None:
    from replicas import build as build_mod

    project = tmp_path / "toy_edit"
    shutil.copytree(TOY_PROJECT, project)
    spec = ReplicaSpec(
        name="toy_edit", description="", generator="tests.toy_replica:generate", dbt_project=project
    )
    before = build_mod.code_fingerprint(spec)
    (project / "models" / "thing_totals.sql").write_text("select 1 as kind\n")
    build_mod.forget_fingerprints()
    after = build_mod.code_fingerprint(spec)
    assert before != after
    build_mod.forget_fingerprints()


_FINGERPRINT_SCRIPT = """
import json, sys
from replicas.build import code_fingerprint
from replicas.replica import get_replica
print(json.dumps({n: code_fingerprint(get_replica(n)) for n in ("ecommerce", "credit_cards")}))
"""


def _fingerprints_of_copy(root: Path) -> dict[str, str]:
    """Cache-key fingerprints computed by a fresh interpreter over the kit copied to ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _FINGERPRINT_SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout))


def test_editing_one_replicas_generator_leaves_the_other_replicas_key(tmp_path: Path) -> None:
    # Lay the kit out as installed (generators/verifiers/dbt_projects inside ``replicas``), in a
    # copy, so editing a generator there cannot disturb other tests reading the real tree.
    kit = tmp_path / "kit" / "replicas"
    ignore = shutil.ignore_patterns("__pycache__", "target", "logs")
    shutil.copytree(REPO_ROOT / "replicas", kit, ignore=ignore)
    for name in ("generators", "verifiers", "dbt_projects"):
        shutil.copytree(REPO_ROOT / name, kit / name, ignore=ignore)
    before = _fingerprints_of_copy(kit.parent)
    people = kit / "generators" / "credit_cards" / "people.py"
    people.write_text(people.read_text() + "\n# an edit\n")
    after_cards_edit = _fingerprints_of_copy(kit.parent)
    assert after_cards_edit["ecommerce"] == before["ecommerce"]
    assert after_cards_edit["credit_cards"] != before["credit_cards"]
    orders = kit / "generators" / "ecommerce" / "orders.py"
    orders.write_text(orders.read_text() + "\n# an edit\n")
    after_orders_edit = _fingerprints_of_copy(kit.parent)
    assert after_orders_edit["ecommerce"] != before["ecommerce"]
    assert after_orders_edit["credit_cards"] == after_cards_edit["credit_cards"]
    # shared helpers (seeding) feed every replica
    seeding = kit / "seeding.py"
    seeding.write_text(seeding.read_text() + "\n# an edit\n")
    after_seeding_edit = _fingerprints_of_copy(kit.parent)
    assert after_seeding_edit["ecommerce"] != after_orders_edit["ecommerce"]
    assert after_seeding_edit["credit_cards"] != after_orders_edit["credit_cards"]


def test_data_library_versions_are_recorded_and_keyed() -> None:
    from replicas import build as build_mod

    versions = build_mod.data_versions()
    assert {"faker", "numpy", "polars", "duckdb", "dbt-core"} <= set(versions)
    assert all(v != "absent" for v in versions.values())
    snap = ensure_snapshot("toy", seed=1)
    assert snap.manifest["versions"]["faker"] == versions["faker"]


def test_unknown_engine_is_rejected_before_any_work() -> None:
    with pytest.raises(ValueError, match="unknown build engine 'spark'; choose one of replay, dbt"):
        ensure_snapshot("toy", 18, engine="spark")
    assert not (snapshots_dir() / BuildKey("toy", 18, 0.01).slug).exists()


def test_import_scan_memo_sees_an_edited_source(tmp_path: Path) -> None:
    """The closure's parse memo is keyed by the file's stat: an edit adds its new import."""
    from replicas.build import fingerprint

    source = tmp_path / "mod.py"
    source.write_text("import replicas.seeding\n")
    first = fingerprint._first_party_imports(source, "replicas.probe.mod")
    assert first == {"replicas.seeding"}
    assert fingerprint._first_party_imports(source, "replicas.probe.mod") is first  # memoised
    source.write_text("import replicas.seeding\nfrom replicas import atomicio\n")
    os.utime(source, ns=(source.stat().st_mtime_ns + 10**9,) * 2)
    assert fingerprint._first_party_imports(source, "replicas.probe.mod") == {
        "replicas.seeding",
        "replicas.atomicio",
    }
