"""``replicas export sft`` end to end on real snapshots, episodes and run directories.

Oracle demonstrations are exported in all three formats once per session (credit_cards seeds 1
and 2 plus ecommerce.revenue_period — snapshots other test modules build too); run directories
come from the real runner with the oracle and null agents. Parquet is loaded with the
``datasets`` library offline, JSONL with a strict line reader, and every record's tool calls are
replayed in a fresh episode to show what was written still scores.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from replicas.cli import app
from replicas.export import ExportConfig, ExportError, OracleSpec, export_sft, get_format
from replicas.export.layout import sha256_file
from replicas.export.phrasing import grounding_problem
from replicas.export.replay import replay
from replicas.export.skips import SkipLog
from replicas.export.sources import default_system_prompt, demonstrate
from replicas.runner import RunConfig, run
from replicas.tasks import submit, task_from_id

# offline before any test imports ``datasets`` (it reads these at import time; nothing imports
# it at module level, and load_parquet asserts the setting took)
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

FORMATS = ("openai", "trl", "sharegpt")
FAMILIES = (
    "credit_cards.card_terms_qa-v1",
    "credit_cards.eligibility-v1",
    "credit_cards.recommend_card-v1",
    "credit_cards.offer_audit-v1",
    "ecommerce.revenue_period-v1",
)
SEEDS = (1, 2)
VARIANTS = 2
ROLE_PATTERNS = {
    "openai": r"system user (assistant tool )*assistant",
    "trl": r"system user (assistant tool )*assistant assistant",  # prose turn, then submit
    "sharegpt": r"human (function_call observation )*function_call",
}

runner = CliRunner()


def cli(*args: str) -> Any:
    result = runner.invoke(app, ["export", "sft", *args])
    # rich wraps long error lines; the tests match on the unwrapped text
    result.text = " ".join(result.output.split())  # type: ignore[attr-defined]
    return result


def strict_jsonl(path: Path) -> list[dict[str, Any]]:
    """One JSON object per line, newline-terminated, no NaN/Infinity, no blank lines."""

    def no_constants(name: str) -> Any:
        raise ValueError(f"non-standard JSON constant {name}")

    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    records = []
    for number, line in enumerate(raw.decode("utf-8").split("\n")[:-1], start=1):
        assert line.strip(), f"{path.name}:{number} is blank"
        value = json.loads(line, parse_constant=no_constants)
        assert isinstance(value, dict), f"{path.name}:{number} is not an object"
        records.append(value)
    return records


def roles(fmt_name: str, record: dict[str, Any]) -> str:
    if fmt_name == "sharegpt":
        return " ".join(t["from"] for t in record["conversations"])
    return " ".join(m["role"] for m in record["messages"])


def load_parquet(out: Path, tmp: Path) -> Any:
    import datasets

    assert datasets.config.HF_HUB_OFFLINE
    return datasets.load_dataset(
        "parquet", data_dir=str(out / "data"), cache_dir=str(tmp / "hf-cache")
    )


@pytest.fixture(scope="session")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Any]]:
    root = tmp_path_factory.mktemp("sft")
    spec = OracleSpec(families=FAMILIES, seeds=SEEDS, variants_per_seed=VARIANTS)
    out = {}
    for fmt in FORMATS:
        config = ExportConfig(
            out=root / fmt, format=fmt, oracle=spec, split_by="seed", eval_fraction=0.5
        )
        out[fmt] = (root / fmt, export_sft(config))
    return out


# --------------------------------------------------------------------------------------------
# oracle exports


@pytest.mark.parametrize("fmt_name", FORMATS)
def test_parquet_loads_offline_and_equals_the_jsonl(
    fmt_name: str, exports: dict[str, tuple[Path, Any]], tmp_path: Path
) -> None:
    out, result = exports[fmt_name]
    fmt = get_format(fmt_name)
    ds = load_parquet(out, tmp_path)
    assert set(ds) == {"train", "test"}
    assert {s: len(ds[s]) for s in ds} == result.written
    for split_name in ds:
        records = strict_jsonl(out / f"{split_name}.jsonl")
        assert [fmt.from_arrow_row(row) for row in ds[split_name]] == records
        assert all(row["score"] == 1.0 and row["source"] == "oracle" for row in ds[split_name])


@pytest.mark.parametrize("fmt_name", FORMATS)
def test_every_record_validates_and_roles_alternate(
    fmt_name: str, exports: dict[str, tuple[Path, Any]]
) -> None:
    out, _ = exports[fmt_name]
    fmt = get_format(fmt_name)
    for split_name in ("train", "test"):
        for record in strict_jsonl(out / f"{split_name}.jsonl"):
            assert fmt.validate(record) == []
            assert re.fullmatch(ROLE_PATTERNS[fmt_name], roles(fmt_name, record))
            assert fmt.calls(record)[-1][0] == "submit"


def test_every_demonstration_family_and_seed_is_present(
    exports: dict[str, tuple[Path, Any]],
) -> None:
    _, result = exports["openai"]
    manifest = result.manifest
    assert set(manifest["by_family"]) == set(FAMILIES)
    assert manifest["counts"]["collected"] == {"oracle": len(FAMILIES) * len(SEEDS) * VARIANTS}
    written = sum(manifest["counts"]["written"].values())
    dropped = sum(info["count"] for info in manifest["skipped"].values())
    assert (
        written
        + dropped
        + manifest["counts"]["exact_duplicates"]
        + manifest["counts"]["near_duplicates"]
        == len(FAMILIES) * len(SEEDS) * VARIANTS
    )


def test_split_holds_out_whole_seeds(exports: dict[str, tuple[Path, Any]], tmp_path: Path) -> None:
    out, result = exports["trl"]
    ds = load_parquet(out, tmp_path)
    train_seeds, test_seeds = set(ds["train"]["seed"]), set(ds["test"]["seed"])
    assert train_seeds and test_seeds and not train_seeds & test_seeds
    assert sorted(result.manifest["split"]["test_groups"]) == sorted(str(s) for s in test_seeds)


def test_written_records_still_score_when_replayed(exports: dict[str, tuple[Path, Any]]) -> None:
    out, _ = exports["openai"]
    fmt = get_format("openai")
    ids = {}
    for split_name in ("train", "test"):
        records = strict_jsonl(out / f"{split_name}.jsonl")
        import pyarrow.parquet as pq

        task_ids = pq.read_table(out / f"data/{split_name}-00000-of-00001.parquet")["task_id"]
        ids.update(dict(zip(task_ids.to_pylist(), records, strict=True)))
    for task_id, record in ids.items():
        result = replay(task_from_id(task_id), fmt.calls(record))
        assert result.solved and result.score == 1.0, (task_id, result.reasons)


def test_manifest_hashes_every_file_and_the_card_declares_the_splits(
    exports: dict[str, tuple[Path, Any]],
) -> None:
    for fmt_name in FORMATS:
        out, _ = exports[fmt_name]
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["schema_version"] == 1 and manifest["format"] == fmt_name
        on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} - {
            "manifest.json"
        }
        assert set(manifest["files"]) == on_disk
        for rel, info in manifest["files"].items():
            assert sha256_file(out / rel) == info["sha256"]
        for split_name, n in manifest["counts"]["written"].items():
            assert len(strict_jsonl(out / f"{split_name}.jsonl")) == n
        card = (out / "README.md").read_text()
        header = yaml.safe_load(card.split("---\n")[1])
        files = header["configs"][0]["data_files"]
        assert {f["split"]: f["path"] for f in files} == {
            s: f"data/{s}-*" for s in manifest["counts"]["written"]
        }
        splits = {s["name"]: s["num_examples"] for s in header["dataset_info"]["splits"]}
        assert splits == manifest["counts"]["written"]
        for family in FAMILIES:
            assert family in card
        assert f"replica-kit {manifest['kit_version']}" in card
        assert not list(out.parent.glob(f".{out.name}.tmp-*"))


def test_sharegpt_dataset_info_names_the_files(exports: dict[str, tuple[Path, Any]]) -> None:
    out, result = exports["sharegpt"]
    info = json.loads((out / "dataset_info.json").read_text())
    assert set(info) == {f"replicas_sft_{s}" for s in result.written}
    for split_name in result.written:
        entry = info[f"replicas_sft_{split_name}"]
        assert (out / entry["file_name"]).is_file()
        assert entry["formatting"] == "sharegpt"
        assert entry["tags"]["function_tag"] == "function_call"


def test_export_is_byte_deterministic(exports: dict[str, tuple[Path, Any]], tmp_path: Path) -> None:
    out, _ = exports["openai"]
    spec = OracleSpec(families=FAMILIES, seeds=SEEDS, variants_per_seed=VARIANTS)
    again = tmp_path / "again"
    export_sft(ExportConfig(out=again, oracle=spec, split_by="seed", eval_fraction=0.5))
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first == second


def test_credit_card_prose_passes_the_compliance_verifier(
    exports: dict[str, tuple[Path, Any]],
) -> None:
    out, _ = exports["openai"]
    import pyarrow.parquet as pq

    table = pq.read_table(out / "data/train-00000-of-00001.parquet").to_pylist()
    table += pq.read_table(out / "data/test-00000-of-00001.parquet").to_pylist()
    checked = 0
    for row in table:
        if row["family"] not in ("credit_cards.card_terms_qa-v1", "credit_cards.recommend_card-v1"):
            continue
        task = task_from_id(row["task_id"])
        prose = json.loads(row["messages"])[-1]["content"]  # pyarrow reads the JSON text
        assert grounding_problem(task, prose) is None
        # the same prose with a wrong APR or fee is refused
        tampered = re.sub(r"\d+\.\d\d%", "99.99%", prose, count=1)
        if tampered == prose:
            tampered = re.sub(r"\$\d+", "$777", prose, count=1)
        assert tampered != prose
        assert grounding_problem(task, tampered) is not None
        checked += 1
    assert checked >= 4


def test_an_oracle_that_does_not_score_is_skipped() -> None:
    import dataclasses

    task = task_from_id(f"credit_cards.eligibility-v1.s{SEEDS[0]}.0")
    broken = dataclasses.replace(task, oracle=(*task.oracle[:-1], submit('["CC-9999"]')))
    skips = SkipLog()
    assert demonstrate(broken, default_system_prompt(), skips) is None
    assert skips.counts == {"oracle_not_solved": 1}
    assert demonstrate(task, default_system_prompt(), SkipLog()) is not None


# --------------------------------------------------------------------------------------------
# run directories and the CLI

RUN_TASKS = (
    "credit_cards.eligibility-v1.s0.0",
    "credit_cards.eligibility-v1.s0.1",
    "credit_cards.eligibility-v1.s1.0",
    "credit_cards.card_terms_qa-v1.s0.0",
    "credit_cards.recommend_card-v1.s0.1",
)


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("runs")
    run(RunConfig(out=root / "oracle", agent="oracle", task_ids=RUN_TASKS, workers=0, attempts=2))
    run(RunConfig(out=root / "null", agent="null", task_ids=RUN_TASKS, workers=0))
    return {"oracle": root / "oracle", "null": root / "null"}


def damaged_copy(runs: dict[str, Path], dest: Path) -> Path:
    """The oracle run with a torn line, a foreign line, an old-schema trajectory, a trajectory
    whose answer was edited after grading (its recorded score is still 1.0), one with a call the
    tool's schema rejects, and an episode labelled as an adversary strategy."""
    shutil.copytree(runs["oracle"], dest)
    records = [json.loads(line) for line in (dest / "results.jsonl").read_text().splitlines()]

    def record(task: str, attempt: int) -> dict[str, Any]:
        return next(r for r in records if r["task_id"] == task and r["attempt"] == attempt)

    def edit(rec: dict[str, Any], change: Any) -> None:
        path = dest / rec["trajectory"]
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))

    edit(record(RUN_TASKS[0], 0), lambda d: d.update(schema_version=0))
    edit(
        record(RUN_TASKS[1], 1),
        lambda d: d["steps"][-1]["arguments"].update(answer='["CC-0000"]'),
    )
    edit(record(RUN_TASKS[3], 1), lambda d: d["steps"][0].update(arguments={"sql": "select 1"}))
    record(RUN_TASKS[4], 1)["strategy"] = "echo_sql"
    lines = [json.dumps(r) for r in records]
    lines += ['{"hello": "from another tool"}', '{"schema_version": 1, "task_id": "torn']
    (dest / "results.jsonl").write_text("\n".join(lines))
    return dest


def test_run_export_keeps_verified_episodes_and_counts_every_skip(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    damaged = damaged_copy(runs, tmp_path / "damaged")
    out = tmp_path / "out"
    result = cli(
        "--run", str(damaged), "--run", str(runs["null"]), "--format", "trl",
        "--split-by", "task", "--eval-fraction", "0", "--out", str(out), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.output)
    skipped = {k: v["count"] for k, v in manifest["skipped"].items()}
    assert skipped == {
        "below_min_score": len(RUN_TASKS),  # every null-agent episode
        "foreign_result_line": 1,
        "torn_result_line": 1,
        "old_schema_version": 1,
        "malformed_call": 1,
        "adversary_episode": 1,
        "regrade_failed": 1,  # the forged answer no longer scores when replayed
    }
    # 2 oracle attempts per task, 3 of them skipped above; of the others only the untouched
    # task's second attempt is an exact duplicate (the forged one differs and fails re-grading)
    assert manifest["counts"]["collected"] == {"run": 2 * len(RUN_TASKS) - 3}
    assert manifest["counts"]["exact_duplicates"] == 1
    assert manifest["counts"]["written"] == {"train": len(RUN_TASKS)}
    records = strict_jsonl(out / "train.jsonl")
    assert all(r["messages"][-1]["tool_calls"][0]["function"]["name"] == "submit" for r in records)


def test_exclude_suite_drops_suite_tasks_and_instances(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = cli(
        "--run", str(runs["oracle"]), "--exclude-suite", "core-v1", "--eval-fraction", "0",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.output)
    assert manifest["skipped"]["contaminated_task_id:suite core-v1"]["count"] == 1
    import pyarrow.parquet as pq

    seeds = set(pq.read_table(out / "data/train-00000-of-00001.parquet")["seed"].to_pylist())
    assert seeds and seeds <= {0}  # the suite task and its seed-1 instance are gone


def test_oracle_cli_skips_suite_seeds(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli(
        "--oracle", "--family", "credit_cards.offer_audit-v1", "--seed-start", "0",
        "--seeds", "1", "--variants", "2", "--exclude-suite", "core-v1", "--format", "sharegpt",
        "--eval-fraction", "0", "--out", str(out), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.output)
    assert manifest["config"]["oracle"]["seeds"] == [0]  # 1, 2, 3 are core-v1's seeds
    skipped = {k: v["count"] for k, v in manifest["skipped"].items()}
    # fresh seeds cannot share a task id or instance with the suite; a long n-gram they may
    # (the credit_cards catalog reuses card names and terms across seeds)
    assert set(skipped) <= {"contaminated_ngram:suite core-v1"}
    assert manifest["counts"]["written"]["train"] + sum(skipped.values()) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--run", "{tmp}/missing"], "does not exist"),
        (["--run", "{tmp}"], "no results.jsonl"),
        (["--run", "{oracle}", "--format", "alpaca"], "unknown format"),
        (["--run", "{oracle}", "--eval-fraction", "1.5"], "--eval-fraction"),
        (["--run", "{oracle}", "--split-by", "colour"], "--split-by"),
        (["--run", "{oracle}", "--min-score", "2"], "--min-score"),
        (["--oracle", "--family", "credit_cards.nope-v1"], "unknown task family"),
        # one seed cannot make a seed-split test set: said up front, not an empty test split
        (["--oracle", "--family", "credit_cards.offer_audit-v1", "--seeds", "1"], "--seeds 2"),
        ([], "nothing to export"),
    ],
)
def test_usage_errors_exit_2_before_any_work(
    args: list[str], message: str, runs: dict[str, Path], tmp_path: Path
) -> None:
    filled = [a.format(tmp=tmp_path, oracle=runs["oracle"]) for a in args]
    out = tmp_path / "out"
    result = cli(*filled, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert message in result.text
    assert not out.exists()


def test_an_occupied_out_dir_is_refused_unless_forced(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = cli("--run", str(runs["oracle"]), "--out", str(out))
    assert result.exit_code == 2 and "not empty" in result.text
    assert (out / "keep.txt").read_text() == "mine"
    result = cli("--run", str(runs["oracle"]), "--eval-fraction", "0", "--force", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert not (out / "keep.txt").exists() and (out / "train.jsonl").is_file()


def test_a_filter_that_leaves_nothing_exits_1_and_writes_nothing(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = cli("--run", str(runs["null"]), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "below_min_score" in result.text and "nothing was written" in result.text
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]


def test_a_failure_while_writing_leaves_nothing_behind(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import replicas.export.pipeline as pipeline

    def broken_card(**kwargs: Any) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(pipeline, "render_card", broken_card)
    out = tmp_path / "out"
    config = ExportConfig(out=out, run_dirs=(runs["oracle"],), eval_fraction=0.0)
    with pytest.raises(OSError, match="disk full"):
        export_sft(config)
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]


def test_export_error_is_raised_by_the_library_too(runs: dict[str, Path], tmp_path: Path) -> None:
    config = ExportConfig(out=tmp_path / "out", run_dirs=(runs["null"],))
    with pytest.raises(ExportError, match="below_min_score"):
        export_sft(config)
