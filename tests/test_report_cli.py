"""`replicas report` / `replicas compare`: exit codes, bad input, files written, comparisons."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from replicas.cli import app
from replicas.metrics import wilson_interval
from replicas.report import ReportInputError, compare_runs, load_run
from tests.report_runs import make_run_dir

# A wide virtual terminal: rich would otherwise fold family names across table lines.
runner = CliRunner(env={"COLUMNS": "240"})


def _invoke(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def test_report_writes_all_files_and_prints_tables(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "run", seed=1)
    result = _invoke("report", run.path)
    assert result.exit_code == 0, result.output
    for name in ("summary.json", "report.md", "report.html"):
        assert (run.path / name).is_file()
    assert "ecommerce.revenue_period-v1" in result.output
    assert "Failure modes" in result.output
    md = (run.path / "report.md").read_text(encoding="utf-8")
    for family in {r["family"] for r in run.records}:
        assert family in md
    assert "## pass@k and pass^k" in md and "## Agent errors" in md


def test_report_json_prints_the_summary_it_wrote(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "run", seed=1)
    result = _invoke("report", run.path, "--json")
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    assert printed == json.loads((run.path / "summary.json").read_text(encoding="utf-8"))


def test_missing_or_non_run_directories_exit_2(tmp_path: Path) -> None:
    assert _invoke("report", tmp_path / "nope").exit_code == 2
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert _invoke("report", tmp_path / "file").exit_code == 2
    (tmp_path / "empty").mkdir()
    result = _invoke("report", tmp_path / "empty")
    assert result.exit_code == 2
    assert "results.jsonl" in result.output
    assert not (tmp_path / "empty" / "summary.json").exists()


@pytest.mark.parametrize("content", ["", "\n\n", 'garbage\n[1, 2]\n{"a": 1}\n'])
def test_results_without_any_episode_exit_2(tmp_path: Path, content: str) -> None:
    (tmp_path / "results.jsonl").write_text(content, encoding="utf-8")
    result = _invoke("report", tmp_path)
    assert result.exit_code == 2
    assert "no valid episode records" in result.output


def test_torn_foreign_and_duplicate_lines_are_skipped_with_counts(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "run", seed=3)
    results = run.path / "results.jsonl"
    lines = results.read_text(encoding="utf-8").splitlines()
    extra = [
        '{"kind": "progress", "done": 3}',
        "[1, 2, 3]",
        json.dumps({**run.records[0], "score": 7.5}),
        json.dumps({**run.records[1], "passed": "yes"}),
        lines[2],
        lines[5],
    ]
    torn = lines[7][: len(lines[7]) // 2]
    results.write_text("\n".join([*lines[:4], *extra, *lines[4:], torn]), encoding="utf-8")
    result = _invoke("report", run.path)
    assert result.exit_code == 0, result.output
    summary = json.loads((run.path / "summary.json").read_text(encoding="utf-8"))
    assert summary["input"]["skipped"] == {"torn": 1, "foreign": 4, "duplicate": 2}
    assert summary["overall"]["episodes"] == len(run.records)
    assert "skipped 4 foreign" in result.output
    assert "Input warnings" in (run.path / "report.md").read_text(encoding="utf-8")


def test_unknown_schema_version_is_a_clear_error(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "run", seed=3)
    with (run.path / "results.jsonl").open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({**run.records[0], "attempt": 99, "schema_version": 2}) + "\n")
    result = _invoke("report", run.path)
    assert result.exit_code == 2
    assert "schema_version 2" in result.output
    with pytest.raises(ReportInputError):
        load_run(run.path)


def test_unreadable_run_json_is_a_warning(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "run", seed=3)
    (run.path / "run.json").write_text("{oops", encoding="utf-8")
    result = _invoke("report", run.path)
    assert result.exit_code == 0
    assert "run.json is unreadable" in result.output
    assert (
        json.loads((run.path / "summary.json").read_text(encoding="utf-8"))["run"]["suite"] is None
    )


def _solved(records: list[dict[str, Any]]) -> set[str]:
    return {r["task_id"] for r in records if r["passed"]}


def test_compare_puts_two_runs_side_by_side(tmp_path: Path) -> None:
    a = make_run_dir(tmp_path / "a", agent="openai:model-a", seed=21)
    b = make_run_dir(
        tmp_path / "b",
        agent="openai:model-b",
        pass_prob={f: 0.55 for f in {r["family"] for r in a.records}},
        queries=(2, 8),
        seed=22,
    )
    comparison = compare_runs(a.path, b.path)
    assert (comparison["a"]["label"], comparison["b"]["label"]) == (
        "openai:model-a",
        "openai:model-b",
    )
    only_a = sorted(_solved(a.records) - _solved(b.records))
    only_b = sorted(_solved(b.records) - _solved(a.records))
    assert comparison["tasks"]["solved_only_by_a"] == only_a
    assert comparison["tasks"]["solved_only_by_b"] == only_b
    assert only_a or only_b
    for row in comparison["families"]:
        recs_a = [r for r in a.records if r["family"] == row["family"]]
        recs_b = [r for r in b.records if r["family"] == row["family"]]
        pa, pb = sum(r["passed"] for r in recs_a), sum(r["passed"] for r in recs_b)
        assert row["a"]["ci95"] == pytest.approx(list(wilson_interval(pa, len(recs_a))))
        assert row["delta"] == pytest.approx(pb / len(recs_b) - pa / len(recs_a))
    assert comparison["a"]["total_cost_usd"] == pytest.approx(sum(r["cost_usd"] for r in a.records))
    assert (
        comparison["b"]["verification"]["mean_query_steps_before_submit"]
        > comparison["a"]["verification"]["mean_query_steps_before_submit"]
    )
    assert not (a.path / "summary.json").exists(), "compare must not write into run directories"


def test_compare_cli_writes_markdown_and_exit_codes(tmp_path: Path) -> None:
    a = make_run_dir(tmp_path / "first", agent="oracle", seed=31)
    b = make_run_dir(tmp_path / "second", agent="oracle", seed=32)
    out = tmp_path / "out" / "compare.md"
    result = _invoke("compare", a.path, b.path, "--out", out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "oracle (first)" in text and "oracle (second)" in text
    by_family: dict[str, int] = defaultdict(int)
    for r in a.records:
        by_family[r["family"]] += 1
    for family in by_family:
        assert family in text
    for task in sorted(_solved(a.records) - _solved(b.records))[:3]:
        assert task in text
    assert "inspection steps before submit" in result.output
    assert _invoke("compare", a.path, tmp_path / "missing").exit_code == 2
    assert _invoke("compare", a.path, b.path, "--out", tmp_path).exit_code == 2
    printed = json.loads(_invoke("compare", a.path, b.path, "--json").stdout)
    assert printed["schema_version"] == 1


def test_relative_run_directory_paths_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_run_dir(tmp_path / "runs" / "rel", seed=6)
    monkeypatch.chdir(tmp_path)
    result = _invoke("report", "runs/rel")
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "runs" / "rel" / "summary.json").read_text(encoding="utf-8"))
    example = next(iter(summary["failure_modes"]["by_family"].values()))["top"][0]["example"]
    assert example["trajectory"].startswith("trajectories/")
    assert summary["verification"]["missing_trajectories"] == 0
