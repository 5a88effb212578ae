"""The fast SFT export paths write exactly what the plain path writes.

The plain path is computed here, at test time: every format exported on its own, in this
process, with an episode cache that never answers (each demonstration and each re-grade is
played for real — what the export did before plays were reused). The fast path is one
multi-format export with two worker processes and the on-disk episode cache. Every file of
every format must be byte-identical; a second, warm export must play nothing and still be
identical; and a record whose calls differ from any played episode must not be served from the
cache.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import replicas.export.pipeline as pipeline
from replicas.cli import app
from replicas.export import ExportConfig, OracleSpec, export_sft
from replicas.export.episodes import EpisodeCache, episode_key, replay_to_dict
from replicas.export.layout import sha256_file
from replicas.export.replay import Replay
from replicas.tasks import submit, task_from_id

FORMATS = ("openai", "trl", "sharegpt")
FAMILIES = ("credit_cards.eligibility-v1", "ecommerce.revenue_period-v1")
SEEDS = (1, 2)
SPEC = OracleSpec(families=FAMILIES, seeds=SEEDS, variants_per_seed=1)
#: four records cannot make a test split that survives decontamination; the split and the
#: decontamination code are the same for every path (test_export_pipeline covers them)
EVAL_FRACTION = 0.0


class NeverReuse(EpisodeCache):
    """Every lookup misses and nothing is kept: every episode is played (the plain path)."""

    def get(self, key: str) -> Replay | None:
        return None

    def put(self, key: str, result: Replay, *, persist: bool = True) -> None:
        return None


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def plain_export(out: Path, fmt: str, spec: OracleSpec, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(pipeline, "EpisodeCache", NeverReuse)
        config = ExportConfig(
            out=out,
            format=fmt,
            oracle=spec,
            split_by="seed",
            eval_fraction=EVAL_FRACTION,
            workers=1,
        )
        return export_sft(config)


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("plain")
    with pytest.MonkeyPatch.context() as monkeypatch:
        for fmt in FORMATS:
            plain_export(root / fmt, fmt, SPEC, monkeypatch)
    return {fmt: root / fmt for fmt in FORMATS}


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("episodes")


def fast_export(out: Path, cache: Path) -> Any:
    config = ExportConfig(
        out=out,
        format=",".join(FORMATS),
        oracle=SPEC,
        split_by="seed",
        eval_fraction=EVAL_FRACTION,
        workers=2,
        episode_cache_dir=cache,
    )
    return export_sft(config)


def test_multi_format_parallel_cached_export_is_byte_identical_to_plain_runs(
    plain: dict[str, Path], cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "multi"
    result = fast_export(out, cache_dir)
    assert set(result.parts) == set(FORMATS)
    for fmt in FORMATS:
        want, got = files_of(plain[fmt]), files_of(out / fmt)
        assert want, f"the plain {fmt} export wrote nothing"
        assert got == want, (
            f"{fmt}: files differ: {sorted(k for k in want if got.get(k) != want[k])}"
        )
        assert result.parts[fmt].written == json.loads(want["manifest.json"])["counts"]["written"]
    top = json.loads((out / "manifest.json").read_text())
    assert top["kind"] == "replicas-sft-export-set" and sorted(top["formats"]) == sorted(FORMATS)
    for rel, entry in top["files"].items():
        assert sha256_file(out / rel) == entry["sha256"]
    assert {p.parent.name for p in out.rglob("train.jsonl")} == set(FORMATS)
    # every demonstration that solved was kept on disk, once
    n_tasks = len(SPEC.task_ids())
    assert 0 < len(list(cache_dir.rglob("*.json"))) <= n_tasks


def test_a_warm_export_plays_nothing_and_writes_the_same_bytes(
    plain: dict[str, Path], cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast_export(tmp_path / "first", cache_dir)  # fills the cache (if no other test did)
    import replicas.export.episodes as episodes

    def no_play(*args: Any, **kwargs: Any) -> Replay:
        raise AssertionError("a warm export played an episode")

    import replicas.export.workers as workers

    def no_pool(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a warm export started worker processes")

    with monkeypatch.context() as patch:
        patch.setattr(episodes, "replay", no_play)
        patch.setattr(workers, "ProcessPoolExecutor", no_pool)
        config = ExportConfig(
            episode_cache_dir=cache_dir,
            out=tmp_path / "warm",
            format=",".join(FORMATS),
            oracle=SPEC,
            split_by="seed",
            eval_fraction=EVAL_FRACTION,
            workers=2,  # every play is cached: answered here, no process is started
        )
        export_sft(config)
    for fmt in FORMATS:  # served from disk, byte for byte what playing everything wrote
        assert files_of(tmp_path / "warm" / fmt) == files_of(plain[fmt])


def test_the_cache_key_covers_the_calls_and_the_task_definition() -> None:
    task = task_from_id(f"credit_cards.eligibility-v1.s{SEEDS[0]}.0")
    calls = [(c.name, dict(c.arguments)) for c in task.oracle]
    key = episode_key(task, calls)
    assert episode_key(task, [(n, dict(a)) for n, a in calls]) == key
    edited = [*calls[:-1], ("submit", {"answer": '["CC-0000"]'})]
    assert episode_key(task, edited) != key
    other_answer = dataclasses.replace(task, expected=["CC-0000"])
    assert other_answer.expected != task.expected
    assert episode_key(other_answer, calls) != key
    same_id_other_instruction = dataclasses.replace(task, instruction=task.instruction + " ")
    assert same_id_other_instruction.id == task.id
    assert episode_key(same_id_other_instruction, calls) != key


def test_a_cached_play_never_answers_different_calls_and_failures_are_not_kept(
    tmp_path: Path,
) -> None:
    task = task_from_id(f"credit_cards.eligibility-v1.s{SEEDS[0]}.0")
    calls = [(c.name, dict(c.arguments)) for c in task.oracle]
    cache = EpisodeCache(tmp_path / "c")
    solved = cache.replay(task, calls, agent_name="test")
    assert solved.solved and cache.plays == 1
    again = EpisodeCache(tmp_path / "c").replay(task, calls, agent_name="test")
    assert replay_to_dict(again) == replay_to_dict(solved)  # from disk, a fresh cache object
    wrong = [*calls[:-1], (submit('["CC-9999"]').name, dict(submit('["CC-9999"]').arguments))]
    failed = cache.replay(task, wrong, agent_name="test")
    assert not failed.solved and cache.plays == 2
    cache.replay(task, wrong, agent_name="test")
    assert cache.plays == 3  # an unsolved play is played again, never served
    assert len(list((tmp_path / "c").rglob("*.json"))) == 1


runner = CliRunner()


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        ("trl,alpaca", "unknown format 'alpaca'"),
        ("trl,trl", "names trl more than once"),
        ("trl,", "separated by commas"),
    ],
)
def test_a_bad_format_list_exits_2_naming_the_problem(
    fmt: str, message: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        ["export", "sft", "--oracle", "--family", FAMILIES[0], "--format", fmt, "--out", str(out)],
    )
    text = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert message in text
    if "unknown" in message:
        assert all(name in text for name in FORMATS), text  # the known formats are named
    assert not out.exists()


def test_workers_below_one_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        ["export", "sft", "--oracle", "--family", FAMILIES[0], "--workers", "0", "--out", str(out)],
    )
    assert result.exit_code == 2 and "--workers" in result.output
    assert not out.exists()


@pytest.mark.slow
def test_a_dbt_family_export_reuses_its_plays_and_matches_the_plain_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dbt_fix: the demonstration plays real dbt under bubblewrap and grades by rebuild; the
    fast path plays it once for two formats, the plain path four times (demo + re-grade, per
    format), and the bytes agree."""
    spec = OracleSpec(families=("ecommerce.dbt_fix-v1",), seeds=(SEEDS[0],), variants_per_seed=1)
    plain_dirs = {}
    for fmt in ("trl", "openai"):
        with monkeypatch.context() as patch:
            patch.setattr(pipeline, "EpisodeCache", NeverReuse)
            export_sft(
                ExportConfig(
                    out=tmp_path / f"plain-{fmt}", format=fmt, oracle=spec, eval_fraction=0.0
                )
            )
        plain_dirs[fmt] = tmp_path / f"plain-{fmt}"
    cache = tmp_path / "episodes"
    export_sft(
        ExportConfig(
            out=tmp_path / "fast",
            format="trl,openai",
            oracle=spec,
            eval_fraction=0.0,
            episode_cache_dir=cache,
        )
    )
    for fmt, want in plain_dirs.items():
        assert files_of(tmp_path / "fast" / fmt) == files_of(want)
    assert len(list(cache.rglob("*.json"))) == 1
