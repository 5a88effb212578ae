"""Reports on REAL run directories written by the runner (oracle and null on two tasks).

The expectations come from the runner's own reader (`replicas.runner.read_results`,
`read_trajectory`), so this checks that the report reads what the runner writes — not that the
tasks are right (their own tests do that).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from replicas.cli import app
from replicas.report import compare_runs, load_run, write_report
from replicas.runner import RunConfig, read_results, read_trajectory, run
from replicas.tasks import all_families

QUERY_TOOLS = {"sql", "read_file", "list_files", "dbt"}


def _task_ids() -> tuple[str, ...]:
    """Variant 0 of the first two task families of one replica (one snapshot build)."""
    families = sorted(all_families(), key=lambda f: (f.replica != "credit_cards", f.name))
    replica = families[0].replica
    return tuple(f"{f.name}.s7.0" for f in families if f.replica == replica)[:2]


@pytest.fixture(scope="module")
def real_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("real")
    ids = _task_ids()
    out = {}
    for agent in ("oracle", "null"):
        out[agent] = root / agent
        run(RunConfig(out=out[agent], agent=agent, task_ids=ids, workers=0))
    return out


def test_summary_matches_the_runner_records(real_runs: dict[str, Path]) -> None:
    for run_dir in real_runs.values():
        records = read_results(run_dir).records
        summary = write_report(run_dir).summary
        assert summary["overall"]["episodes"] == len(records) > 0
        assert summary["overall"]["passed"] == sum(r["passed"] for r in records)
        assert summary["input"]["skipped"] == {"torn": 0, "foreign": 0, "duplicate": 0}
        episodes = {(e.task_id, e.attempt): e for e in load_run(run_dir).episodes}
        for record in records:
            episode = episodes[(record["task_id"], record["attempt"])]
            assert episode.reasons == tuple(record["reasons"])
            assert episode.steps == record["steps"]
        failed = [r for r in records if not r["passed"] and not r.get("error")]
        assert summary["failure_modes"]["failed_episodes"] == len(failed)


def test_trajectories_are_read_and_excerpted(real_runs: dict[str, Path]) -> None:
    run_dir = real_runs["oracle"]
    records = read_results(run_dir).records
    summary = write_report(run_dir).summary
    verification = summary["verification"]
    assert verification["missing_trajectories"] == 0
    counts = []
    for record in records:
        tools = [s["tool"] for s in read_trajectory(run_dir, record)["steps"]]
        before = tools[: tools.index("submit")] if "submit" in tools else tools
        counts.append(sum(t in QUERY_TOOLS for t in before))
    assert verification["mean_query_steps_before_submit"] == pytest.approx(
        sum(counts) / len(counts)
    )
    null_summary = write_report(real_runs["null"]).summary
    for block in null_summary["failure_modes"]["by_family"].values():
        example = block["top"][0]["example"]
        assert example["trajectory"] is not None
        assert example["steps"] and example["steps"][-1]["tool"] == "submit"


def test_compare_and_cli_on_real_runs(real_runs: dict[str, Path], tmp_path: Path) -> None:
    oracle, null = (read_results(real_runs[a]).records for a in ("oracle", "null"))

    def solved(records: tuple[dict[str, Any], ...]) -> set[str]:
        return {r["task_id"] for r in records if r["passed"]}

    comparison = compare_runs(real_runs["oracle"], real_runs["null"])
    assert comparison["tasks"]["solved_only_by_a"] == sorted(solved(oracle) - solved(null))
    assert comparison["tasks"]["solved_only_by_b"] == sorted(solved(null) - solved(oracle))
    out = tmp_path / "cmp.md"
    result = CliRunner().invoke(
        app, ["compare", str(real_runs["oracle"]), str(real_runs["null"]), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "oracle" in out.read_text(encoding="utf-8")
    result = CliRunner().invoke(app, ["report", str(real_runs["null"])])
    assert result.exit_code == 0, result.output
    html = (real_runs["null"] / "report.html").read_text(encoding="utf-8")
    for record in null:
        assert record["family"] in html
