"""summary.json on synthetic run directories: every number recomputed here from the raw records."""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from replicas.metrics import wilson_interval
from replicas.report import SUMMARY_SCHEMA_VERSION, load_run, write_summary
from tests.report_runs import make_run_dir


def _brute_pass_k(outcomes: list[bool], k: int) -> tuple[float, float]:
    subsets = list(itertools.combinations(outcomes, k))
    return sum(any(s) for s in subsets) / len(subsets), sum(all(s) for s in subsets) / len(subsets)


@pytest.fixture(scope="module")
def model_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    run = make_run_dir(tmp_path_factory.mktemp("model") / "run", seed=5)
    return run, write_summary(run.path)


def test_summary_is_written_atomically_and_versioned(model_run: tuple[Any, dict[str, Any]]) -> None:
    run, summary = model_run
    on_disk = json.loads((run.path / "summary.json").read_text(encoding="utf-8"))
    assert on_disk == summary
    assert summary["schema_version"] == SUMMARY_SCHEMA_VERSION
    assert not [p.name for p in run.path.iterdir() if p.name.startswith(".tmp")]
    assert summary["run"]["suite"] == "core-v1"
    assert summary["input"]["episodes"] == len(run.records)


@pytest.mark.parametrize(
    ("section", "field"),
    [("by_family", "family"), ("by_replica", "replica"), ("by_difficulty", "difficulty")],
)
def test_group_statistics_match_the_records(
    model_run: tuple[Any, dict[str, Any]], section: str, field: str
) -> None:
    run, summary = model_run
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in run.records:
        groups[record[field]].append(record)
    assert set(summary[section]) == set(groups)
    for name, records in groups.items():
        stats = summary[section][name]
        passed = sum(r["passed"] for r in records)
        assert stats["episodes"] == len(records)
        assert stats["passed"] == passed
        assert stats["success_rate"] == pytest.approx(passed / len(records))
        assert stats["ci95"] == pytest.approx(list(wilson_interval(passed, len(records))))
        assert stats["mean_steps"] == pytest.approx(sum(r["steps"] for r in records) / len(records))
        assert stats["mean_error_steps"] == pytest.approx(
            sum(r["error_steps"] for r in records) / len(records)
        )
        assert stats["total_tokens"] == sum(r["tokens_in"] + r["tokens_out"] for r in records)
        assert stats["total_cost_usd"] == pytest.approx(sum(r["cost_usd"] for r in records))
        assert stats["mean_wall_s"] == pytest.approx(
            sum(r["wall_s"] for r in records) / len(records)
        )
        assert stats["agent_errors"] == sum("error" in r for r in records)


def test_pass_at_k_and_pass_hat_k_match_enumeration_per_family(
    model_run: tuple[Any, dict[str, Any]],
) -> None:
    run, summary = model_run
    by_family: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in run.records:
        by_family[r["family"]][r["task_id"]].append(r["passed"])
    for family, tasks in by_family.items():
        pass_k = summary["by_family"][family]["pass_k"]
        assert pass_k["k"] == [1, 2, 3]
        for k in (1, 2, 3):
            at = [_brute_pass_k(outcomes, k)[0] for outcomes in tasks.values()]
            hat = [_brute_pass_k(outcomes, k)[1] for outcomes in tasks.values()]
            assert pass_k["pass_at_k"][str(k)] == pytest.approx(sum(at) / len(at))
            assert pass_k["pass_hat_k"][str(k)] == pytest.approx(sum(hat) / len(hat))
    overall = summary["overall"]["pass_k"]
    assert overall["pass_at_k"]["1"] == pytest.approx(summary["overall"]["success_rate"])
    assert overall["pass_hat_k"]["3"] <= overall["pass_hat_k"]["1"] <= overall["pass_at_k"]["3"]


def test_single_attempt_runs_have_no_pass_k(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "one", attempts=1, seed=2)
    summary = write_summary(run.path)
    assert summary["overall"]["pass_k"] is None
    assert all(s["pass_k"] is None for s in summary["by_family"].values())


def test_failure_modes_group_failed_episodes_by_reason_code(
    model_run: tuple[Any, dict[str, Any]],
) -> None:
    run, summary = model_run
    failed = [r for r in run.records if not r["passed"] and "error" not in r]
    want = Counter(code for r in failed for code in set(r["reasons"]) or {"no_reason"})
    modes = summary["failure_modes"]
    assert modes["failed_episodes"] == len(failed)
    assert {m["code"]: m["episodes"] for m in modes["codes"]} == dict(want)
    counts = [m["episodes"] for m in modes["codes"]]
    assert counts == sorted(counts, reverse=True)
    for family, block in modes["by_family"].items():
        fam_failed = [r for r in failed if r["family"] == family]
        fam_counts = Counter(code for r in fam_failed for code in set(r["reasons"]))
        assert block["failed"] == len(fam_failed)
        assert block["top"][0]["episodes"] == max(fam_counts.values())
        for item in block["top"]:
            example = item["example"]
            record = next(
                r
                for r in fam_failed
                if r["task_id"] == example["task_id"] and r["attempt"] == example["attempt"]
            )
            assert item["code"] in record["reasons"]
            trajectory = run.trajectories[Path(example["trajectory"]).name]
            last = trajectory["steps"][-3:]
            assert [s["tool"] for s in example["steps"]] == [s["tool"] for s in last]
            assert all(len(s["observation"]) <= 240 for s in example["steps"])
            assert example["feedback"].endswith("…") and len(example["feedback"]) <= 600


def test_agent_errors_are_counted_separately(model_run: tuple[Any, dict[str, Any]]) -> None:
    run, summary = model_run
    errors = [r for r in run.records if "error" in r]
    section = summary["agent_errors"]
    assert section["count"] == len(errors) > 0
    assert section["by_family"] == dict(Counter(r["family"] for r in errors))
    assert {e["task_id"] for e in section["examples"]} <= {r["task_id"] for r in errors}
    assert summary["failure_modes"]["failed_episodes"] == sum(
        1 for r in run.records if not r["passed"] and "error" not in r
    )


def test_verification_behaviour_counts_inspection_steps_before_submit(
    model_run: tuple[Any, dict[str, Any]],
) -> None:
    run, summary = model_run
    counts, blind = [], 0
    for trajectory in run.trajectories.values():
        tools = [s["tool"] for s in trajectory["steps"]]
        before = tools[: tools.index("submit")] if "submit" in tools else tools
        counts.append(sum(t in {"sql", "read_file", "list_files", "dbt"} for t in before))
        blind += "submit" in tools and counts[-1] == 0
    v = summary["verification"]
    assert v["trajectories"] == len(run.records)
    assert v["mean_query_steps_before_submit"] == pytest.approx(sum(counts) / len(counts))
    assert v["submitted_without_query"] == blind


def test_adversary_runs_report_pass_counts_per_strategy(tmp_path: Path) -> None:
    strategies = ("list_candidates", "grader_note", "read_answer_files")
    hack = ("grader_note", "ecommerce.revenue_period-v1.s7.1")
    run = make_run_dir(
        tmp_path / "adv", agent="adversary", strategies=strategies, hacked=frozenset({hack}), seed=4
    )
    summary = write_summary(run.path)
    adversary = summary["adversary"]
    assert adversary["episodes"] == len(run.records) == 16 * len(strategies)
    assert adversary["passed"] == 1
    rows = {row["strategy"]: row for row in adversary["strategies"]}
    assert set(rows) == set(strategies)
    assert rows["grader_note"]["passed"] == 1
    assert rows["grader_note"]["passed_tasks"] == [hack[1]]
    assert rows["list_candidates"]["passed"] == rows["read_answer_files"]["passed"] == 0
    assert all(row["episodes"] == 16 for row in rows.values())
    assert summary["overall"]["pass_k"] is None
    example = summary["failure_modes"]["by_family"]["credit_cards.card_terms-v1"]["top"][0]
    assert example["example"]["strategy"] in strategies
    assert example["example"]["strategy"] in example["example"]["trajectory"]


def test_non_adversary_runs_have_no_adversary_section(
    model_run: tuple[Any, dict[str, Any]],
) -> None:
    assert model_run[1]["adversary"] is None


def test_trajectories_are_found_by_name_when_records_omit_the_path(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "noref", trajectory_field=False, seed=8)
    summary = write_summary(run.path)
    assert summary["verification"]["missing_trajectories"] == 0
    example = next(iter(summary["failure_modes"]["by_family"].values()))["top"][0]["example"]
    assert example["trajectory"] is not None and example["steps"]


def test_missing_and_corrupt_trajectories_degrade_without_crashing(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "broken", seed=9)
    files = sorted((run.path / "trajectories").iterdir())
    for path in files[::2]:
        path.unlink()
    for path in files[1::4]:
        path.write_text("{not json", encoding="utf-8")
    summary = write_summary(run.path)
    v = summary["verification"]
    assert v["missing_trajectories"] == len(files[::2]) + len(files[1::4])
    assert summary["overall"]["episodes"] == len(run.records)


def test_summary_reflects_the_results_file_after_a_resume(tmp_path: Path) -> None:
    run = make_run_dir(tmp_path / "resume", attempts=2, seed=11)
    first = write_summary(run.path)
    lines = (run.path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    (run.path / "results.jsonl").write_text("\n".join(lines[:10]) + "\n", encoding="utf-8")
    partial = write_summary(run.path)
    assert partial["overall"]["episodes"] == 10 < first["overall"]["episodes"]
    assert load_run(run.path).episodes[0].task_id == min(r["task_id"] for r in run.records[:10])
