"""The hard families of ``replicas/families/ecommerce_enterprise`` (suite hard-v1).

Question families, on both hard-v1 seeds and every variant: the oracle's tool calls score 1.0
through ``Env``; an empty submission and the instruction-only (naive) reading score 0; every
recorded wrong reading fails; rebuilding gives the identical task; each definition the task
depends on is recorded where the agent can reach it. dbt families: each injected defect changes
the graded mart on its own (so a partial fix fails), the Snowflake originals do not parse as
DuckDB, the monolith reads sources while its split does not, and the incremental bug is visible
in the replayed loads. Episodes that grade a dbt project (oracle passes, the untouched sandbox
fails) run for one task per dbt family. Expected answers come from the families' SQL on the
snapshot, never from this file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pytest

from replicas.build import Snapshot, ensure_snapshot
from replicas.db import readonly_connection
from replicas.env import Env
from replicas.families.ecommerce_enterprise import (
    incremental_fix,
    multi_layer_incident,
    refactor_split,
)
from replicas.families.ecommerce_enterprise._common import (
    differ,
    evaluation_sql,
    model_files,
    render,
)
from replicas.tasks import BuildContext, Task, ToolCall, get_family, submit
from replicas.verifiers.answers import check_answer

#: every test here builds enterprise snapshots (131 models) and many run dbt episodes on them
pytestmark = pytest.mark.slow

SEEDS = (11, 12)
VARIANTS = range(4)
QUESTION_FAMILIES = (
    "ecommerce_enterprise.finance_revenue-v1",
    "ecommerce_enterprise.category_revenue_asof-v1",
    "ecommerce_enterprise.governed_metric-v1",
    "ecommerce_enterprise.people_count-v1",
)
DBT_FAMILIES = (
    "ecommerce_enterprise.multi_layer_incident-v1",
    "ecommerce_enterprise.incremental_fix-v1",
    "ecommerce_enterprise.dialect_migration-v1",
    "ecommerce_enterprise.refactor_split-v1",
)
QUESTION_CASES = [
    pytest.param(f, s, v, id=f"{f.split('.')[1]}-s{s}v{v}")
    for f in QUESTION_FAMILIES
    for s in SEEDS
    for v in VARIANTS
]
DBT_CASES = [
    pytest.param(f, s, v, id=f"{f.split('.')[1]}-s{s}v{v}")
    for f in DBT_FAMILIES
    for s in SEEDS
    for v in VARIANTS
]

_TASKS: dict[tuple[str, int, int], Task] = {}


@pytest.fixture(scope="session")
def snapshots() -> dict[int, Snapshot]:
    return {seed: ensure_snapshot("ecommerce_enterprise", seed) for seed in SEEDS}


def built(snapshots: dict[int, Snapshot], family: str, seed: int, variant: int) -> Task:
    key = (family, seed, variant)
    if key not in _TASKS:
        _TASKS[key] = get_family(family).build(snapshots[seed], seed, variant)
    return _TASKS[key]


def run_episode(
    task: Task, snapshot: Snapshot, calls: Sequence[ToolCall]
) -> tuple[float, dict[str, Any]]:
    with Env.from_task(task, snapshot=snapshot) as env:
        env.reset()
        reward: float = 0.0
        info: dict[str, Any] = {}
        for call in calls:
            obs, reward, terminated, truncated, info = env.step(call.to_action())
            if call.name != "submit":
                assert not info.get("error"), f"{call.name} failed: {obs[:800]}"
            if terminated or truncated:
                break
        return float(reward), dict(info.get("verdict") or {})


# --------------------------------------------------------------------------------------------
# question families


@pytest.mark.parametrize(("family", "seed", "variant"), QUESTION_CASES)
def test_question_oracle_scores_one_naive_reading_and_empty_score_zero(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    task = built(snapshots, family, seed, variant)
    assert task.difficulty == "hard"
    reward, verdict = run_episode(task, snapshots[seed], task.oracle)
    assert reward == 1.0, verdict
    assert run_episode(task, snapshots[seed], [submit("")])[0] == 0.0
    naive = task.metadata["naive_reading"]
    assert naive in task.wrong_readings
    reward, _ = run_episode(task, snapshots[seed], [submit(str(task.wrong_readings[naive]))])
    assert reward == 0.0
    for name, value in task.wrong_readings.items():
        assert not check_answer(task.answer_kind, value, task.expected, task.verifier).passed, name


@pytest.mark.parametrize(("family", "seed", "variant"), QUESTION_CASES[::4])
def test_question_tasks_rebuild_identically(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    again = get_family(family).build(snapshots[seed], seed, variant)
    assert again.to_dict() == built(snapshots, family, seed, variant).to_dict()


@pytest.mark.parametrize("family", [*QUESTION_FAMILIES, *DBT_FAMILIES])
def test_definitions_are_recorded_and_not_in_the_instruction(
    snapshots: dict[int, Snapshot], family: str
) -> None:
    task = built(snapshots, family, SEEDS[0], 0)
    sources = task.metadata["definitions_source"]
    assert sources and all(s["kind"] in ("file", "relation") for s in sources)
    project = Path(snapshots[SEEDS[0]].dbt_project)
    for entry in sources:
        if entry["kind"] == "file" and entry["where"] not in task.sandbox_patch:
            text = (project / entry["where"]).read_text(encoding="utf-8")
            assert entry["contains"].lower() in text.lower(), entry
    if task.answer_kind == "number":
        assert f"{task.expected:.2f}" not in task.instruction


def test_answers_differ_between_seeds(snapshots: dict[int, Snapshot]) -> None:
    for family in QUESTION_FAMILIES:
        answers = {built(snapshots, family, seed, 0).expected for seed in SEEDS}
        assert len(answers) == 2, family


# --------------------------------------------------------------------------------------------
# dbt families: build-time evidence (cheap, no dbt)


def _ctx(snapshots: dict[int, Snapshot], family: str, seed: int, variant: int) -> BuildContext:
    return BuildContext(get_family(family), snapshots[seed], seed, variant)


@pytest.mark.parametrize(("seed", "variant"), [(s, v) for s in SEEDS for v in VARIANTS])
def test_each_incident_defect_alone_changes_the_mart(
    snapshots: dict[int, Snapshot], seed: int, variant: int
) -> None:
    ctx = _ctx(snapshots, DBT_FAMILIES[0], seed, variant)
    mart, up, down, patch, restore = multi_layer_incident.choose(ctx)
    assert up.model != down.model and down.model == mart
    files = model_files(Path(snapshots[seed].dbt_project))
    by_model = {Path(p).stem: text for p, text in patch.items()}
    good = evaluation_sql(ctx, mart, {}, files)
    assert differ(ctx, good, evaluation_sql(ctx, mart, {up.model: by_model[up.model]}, files))
    assert differ(ctx, good, evaluation_sql(ctx, mart, {down.model: by_model[down.model]}, files))
    assert differ(ctx, good, evaluation_sql(ctx, mart, by_model, files))
    # the oracle restores exactly the pristine files
    for path, text in restore.items():
        assert (Path(snapshots[seed].dbt_project) / path).read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("family", "seed", "variant"), DBT_CASES)
def test_dbt_tasks_patch_something_and_differ_between_seeds(
    snapshots: dict[int, Snapshot], family: str, seed: int, variant: int
) -> None:
    task = built(snapshots, family, seed, variant)
    assert task.answer_kind == "dbt" and task.verifier.hidden_data
    project = Path(snapshots[seed].dbt_project)
    for path, text in task.sandbox_patch.items():
        pristine = project / path
        assert not pristine.is_file() or pristine.read_text(encoding="utf-8") != text
    other = built(snapshots, family, SEEDS[1 - SEEDS.index(seed)], variant)
    assert (dict(task.sandbox_patch), task.oracle) != (dict(other.sandbox_patch), other.oracle)


@pytest.mark.parametrize("seed", SEEDS)
def test_snowflake_originals_fail_on_duckdb_and_ports_run(
    snapshots: dict[int, Snapshot], seed: int
) -> None:
    con = readonly_connection(snapshots[seed].warehouse).cursor()
    try:
        for variant in range(3):
            task = built(snapshots, DBT_FAMILIES[2], seed, variant)
            (snowflake,) = task.sandbox_patch.values()
            rendered = render(
                "\n".join(line for line in snowflake.splitlines() if not line.startswith("--"))
            )
            with pytest.raises(duckdb.Error):
                con.execute(rendered).fetchall()
            (reference,) = task.verifier.reference_sql.values()
            assert con.execute(f"select count(*) from ({reference})").fetchall()[0][0] > 0
    finally:
        con.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_monolith_reads_sources_and_its_split_keeps_the_layers(
    snapshots: dict[int, Snapshot], seed: int, tmp_path: Path
) -> None:
    task = built(snapshots, DBT_FAMILIES[3], seed, 0)
    (monolith,) = task.sandbox_patch.values()
    assert monolith.count("source(") >= 7 and len(monolith.splitlines()) >= 150
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    (project / "models" / "rpt_channel_performance.sql").write_text(monolith)
    assert refactor_split.structure_problems(project)  # the monolith itself fails the structure
    for call in task.oracle:
        if call.name == "write_file":
            target = project / str(call.arguments["path"])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(str(call.arguments["content"]))
    (project / "models" / "rpt_channel_performance.sql").unlink()
    assert refactor_split.structure_problems(project) == []


@pytest.mark.parametrize(("seed", "variant"), [(s, v) for s in SEEDS for v in VARIANTS])
def test_incremental_bug_shows_in_the_replayed_loads(
    snapshots: dict[int, Snapshot], seed: int, variant: int
) -> None:
    task = built(snapshots, DBT_FAMILIES[1], seed, variant)
    ctx = _ctx(snapshots, DBT_FAMILIES[1], seed, variant)
    meta = task.metadata
    assert incremental_fix.bug_shows(ctx, meta["bug"], meta["source"], meta["cutoff"])
    late = ctx.scalar(
        f"select count(*) from raw.\"{meta['source']}\" where _loaded_at > timestamp '{meta['cutoff']}'"
    )
    assert late > 0


# --------------------------------------------------------------------------------------------
# dbt families: graded episodes (one task each; rebuilds on the hidden datasets too)


@pytest.mark.parametrize("family", DBT_FAMILIES)
def test_dbt_oracle_passes_and_untouched_sandbox_fails(
    snapshots: dict[int, Snapshot], family: str
) -> None:
    task = built(snapshots, family, SEEDS[0], 0)
    reward, verdict = run_episode(task, snapshots[SEEDS[0]], task.oracle)
    assert reward == 1.0, verdict
    reward, verdict = run_episode(task, snapshots[SEEDS[0]], [submit("done")])
    assert reward == 0.0
    assert verdict["reasons"], verdict
