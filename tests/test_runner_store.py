"""The results store: atomic appends, torn tails, foreign lines, concurrent writers."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from replicas.runner import (
    EpisodeRecord,
    EpisodeSpec,
    ResultsStore,
    agent_slug,
    read_results,
    read_trajectory,
    trajectory_relpath,
)
from replicas.runner.store import RESULTS_FILE


def make_record(task: str = "ecommerce.x-v1.s1.0", attempt: int = 0, **kw: object) -> EpisodeRecord:
    fields: dict[str, object] = {
        "task_id": task,
        "replica": "ecommerce",
        "family": "ecommerce.x-v1",
        "difficulty": "easy",
        "agent": "oracle",
        "attempt": attempt,
        "score": 1.0,
        "passed": True,
        "reasons": (),
        "steps": 2,
        "error_steps": 0,
        "tokens_in": 0,
        "tokens_out": 0,
        "cost_usd": 0.0,
        "wall_s": 0.1,
        "trajectory": trajectory_relpath(task, "oracle", attempt, None),
    }
    fields.update(kw)
    return EpisodeRecord(**fields)  # type: ignore[arg-type]


def test_append_writes_trajectory_then_line(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    record = make_record()
    store.append(record, {"schema_version": 1, "task_id": record.task_id, "steps": []})
    read = read_results(tmp_path)
    assert len(read.records) == 1 and not read.torn_tail and not read.bad_lines
    assert read.records[0]["schema_version"] == 1
    assert read_trajectory(tmp_path, read.records[0])["task_id"] == record.task_id
    line = (tmp_path / RESULTS_FILE).read_bytes()
    assert line.endswith(b"\n") and line.count(b"\n") == 1


def test_torn_tail_is_ignored_then_repaired_on_append(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.append(make_record(attempt=0), None)
    with open(tmp_path / RESULTS_FILE, "ab") as fh:
        fh.write(b'{"schema_version": 1, "task_id": "ecommerce.x-v1.s1.0", "agent": "ora')
    read = read_results(tmp_path)
    assert read.torn_tail and len(read.records) == 1
    store.append(make_record(attempt=1), None)
    lines = (tmp_path / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 2
    assert [json.loads(line)["attempt"] for line in lines] == [0, 1]
    assert not read_results(tmp_path).torn_tail


def test_repair_cuts_only_the_torn_tail(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.append(make_record(), None)
    size = (tmp_path / RESULTS_FILE).stat().st_size
    with open(tmp_path / RESULTS_FILE, "ab") as fh:
        fh.write(b'{"half": ')
    assert store.repair() == len(b'{"half": ')
    assert (tmp_path / RESULTS_FILE).stat().st_size == size
    assert store.repair() == 0


def test_foreign_and_duplicate_lines_are_skipped(tmp_path: Path) -> None:
    good = json.dumps(make_record().to_dict())
    other_version = json.dumps({**make_record(attempt=3).to_dict(), "schema_version": 99})
    (tmp_path / RESULTS_FILE).write_text(
        "\n".join([good, "not json", '{"no": "keys", "schema_version": 1}', other_version, good])
        + "\n"
    )
    read = read_results(tmp_path)
    assert len(read.records) == 1
    assert read.bad_lines == (2, 3, 4)


def _append_many(run_dir: str, worker: int, count: int) -> None:
    store = ResultsStore(run_dir)
    for i in range(count):
        store.append(make_record(task=f"ecommerce.x-v1.s{worker}.{i}", reasons=("x" * 3000,)), None)


def test_concurrent_writers_never_interleave(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_many, args=(str(tmp_path), w, 60)) for w in range(3)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    read = read_results(tmp_path)
    assert len(read.records) == 180 and not read.bad_lines and not read.torn_tail


def test_record_and_spec_validation() -> None:
    with pytest.raises(ValueError, match="score"):
        make_record(score=1.5)
    with pytest.raises(ValueError, match="steps"):
        make_record(steps=-1)
    with pytest.raises(ValueError, match="attempt"):
        EpisodeSpec("t", "oracle", -1)
    spec = EpisodeSpec("ecommerce.x-v1.s1.0", "adversary", 0, "scramble_rows")
    assert spec.trajectory.endswith("__adversary__a0__scramble_rows.json")
    assert spec.key == ("ecommerce.x-v1.s1.0", "adversary", 0, "scramble_rows")


def test_agent_slugs_are_file_safe() -> None:
    assert agent_slug("openai:gpt-4o-mini") == "openai-gpt-4o-mini"
    slug = agent_slug("cmd:python /x/y z.py --flag 'a b'")
    assert slug.startswith("cmd-") and "/" not in slug and " " not in slug
    assert agent_slug("cmd:a") != agent_slug("cmd:b")
    record = make_record()
    assert "strategy" not in record.to_dict() and "error" not in record.to_dict()
    with_extra = make_record(strategy="s", error="boom", extra={"breach": ["x"]}).to_dict()
    assert with_extra["strategy"] == "s" and with_extra["error"] == "boom"
    assert with_extra["breach"] == ["x"]
