"""The environment factory on the real ecommerce project: operators, the funnel, the family and
the CLI (real DuckDB and dbt; nothing mocked)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlglot import parse_one
from typer.testing import CliRunner

from replicas.build import Snapshot, ensure_snapshot
from replicas.cli import build_app
from replicas.cli.audit import select_task_ids
from replicas.env import Env
from replicas.factory.candidates import candidates_for, catalogue
from replicas.factory.funnel import STAGES, SeedFunnel, count_stages
from replicas.factory.operators import all_operators
from replicas.factory.sqltext import Parsed, apply_edits, mask
from replicas.tasks import Task, ToolCall, get_family, submit

REPLICA = "ecommerce"
FAMILY = "ecommerce.mutant_fix-v1"
SEED = 1
#: The first candidates of seed 1's order: enough for survivors, cheap to validate.
FIRST = 4


def _jinja(text: str) -> list[str]:
    return [span.text for span in mask(text).spans]


def test_every_operator_names_the_bug_it_models() -> None:
    operators = all_operators()
    assert len(operators) >= 12
    for operator in operators:
        assert len(operator.bug.split()) >= 6, operator.name


def test_mutants_parse_and_keep_their_jinja_byte_identical() -> None:
    cat = catalogue(REPLICA)
    assert len(cat.sites) >= 50
    assert len({s.operator for s in cat.sites}) >= 10
    for site in cat.sites:
        model = cat.sources[site.model]
        for choice in site.choices:
            mutant = apply_edits(model.raw, choice.edits)
            assert mutant != model.raw, (site.operator, choice.note)
            replaced = [
                span.text
                for span in model.masked.spans
                if any(e.start <= span.start and span.end <= e.end for e in choice.edits)
            ]
            if replaced:
                # the one deliberate exception: a var-driven status list hard-coded stale
                assert site.operator == "status_list", (site.model, choice.note, replaced)
                assert all("var(" in text for text in replaced)
            kept = [t for t in _jinja(model.raw) if t not in replaced]
            assert _jinja(mutant) == kept, (site.model, choice.note)
            Parsed(mask(mutant))  # raises Unmutatable when sqlglot cannot parse it
            compiled = apply_edits(model.info.compiled, model.alignment.compile_edits(choice.edits))
            assert parse_one(compiled, read="duckdb") is not None


def test_candidates_are_seeded() -> None:
    one, again, two = (candidates_for(REPLICA, s) for s in (SEED, SEED, SEED + 1))
    assert [c.key for c in one] == [c.key for c in again]
    assert [c.key for c in one] != [c.key for c in two]
    # the order is a permutation of one alternative per site
    assert len(one) == len(two) == len(catalogue(REPLICA).sites)


def test_funnel_on_the_first_candidates_is_consistent() -> None:
    """Validated anew (no cache): every stage counts at most the stage before it, a survivor's
    mutant really differs from the pristine model, and equivalent outputs are deduplicated."""
    with SeedFunnel(REPLICA, SEED, cache=False) as funnel:
        stages = funnel.walk(range(FIRST))
        survivors = funnel.survivors(upto=FIRST - 1)
        assert funnel.validated == FIRST
    counts = count_stages(stages.values())
    assert counts["candidates"] == FIRST
    values = [counts[s] for s in STAGES]
    assert values == sorted(values, reverse=True), counts
    assert counts["usable"] >= 1, counts
    assert [s.number for s in survivors] == list(range(counts["usable"]))
    identities = [(s.graded, s.outcome.signature) for s in survivors]
    assert len(set(identities)) == len(identities)
    for survivor in survivors:
        assert survivor.outcome.visible_marts and survivor.outcome.hidden_diff
        assert survivor.candidate.model not in survivor.symptom or (
            survivor.candidate.model == survivor.graded
        )


def run_episode(task: Task, snapshot: Snapshot, calls: Sequence[ToolCall]) -> tuple[float, Any]:
    with Env.from_task(task, snapshot=snapshot) as env:
        env.reset()
        reward = 0.0
        info: dict[str, Any] = {}
        for call in calls:
            obs, reward, terminated, truncated, info = env.step(call.to_action())
            if call.name != "submit":
                assert not info.get("error"), f"{call.name} failed: {obs[:800]}"
            if terminated or truncated:
                break
        return float(reward), info.get("verdict") or {}


def test_a_variant_is_checked_on_its_prefix_not_the_whole_funnel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Building variant k validates candidates up to survivor k: ``has_variant`` asks the funnel
    for k + 1 survivors, never for all of them (``limit=None`` walks all ~170 candidates)."""
    asked: list[int | None] = []
    original = SeedFunnel.survivors

    def recording(self: SeedFunnel, limit: int | None = None, upto: int | None = None) -> Any:
        asked.append(limit)
        return original(self, limit=limit, upto=upto)

    monkeypatch.setattr(SeedFunnel, "survivors", recording)
    family = get_family(FAMILY)
    assert family.has_variant(SEED, 0)
    assert not family.has_variant(SEED, -1)
    assert asked == [1]


@pytest.fixture(scope="module")
def first_task() -> tuple[Task, Snapshot]:
    family = get_family(FAMILY)
    snapshot = ensure_snapshot(REPLICA, SEED)
    # build() checks the variant exists on the funnel's prefix only (see the test above)
    return family.build(snapshot, SEED, 0), snapshot


def test_task_states_the_symptom_not_the_bug(first_task: tuple[Task, Snapshot]) -> None:
    task, _ = first_task
    (path,) = task.sandbox_patch
    mart = task.verifier.dbt_models[0]
    assert task.id == f"{FAMILY}.s{SEED}.0"
    assert path not in task.instruction
    assert task.verifier.hidden_data and mart in task.instruction
    restored = task.oracle[0]
    assert restored.name == "write_file" and restored.arguments["path"] == path
    assert _jinja(task.sandbox_patch[path]) == _jinja(restored.arguments["content"])
    assert task.sandbox_patch[path] != restored.arguments["content"]


@pytest.mark.slow
def test_oracle_scores_one_and_untouched_sandbox_zero(first_task: tuple[Task, Snapshot]) -> None:
    task, snapshot = first_task
    reward, verdict = run_episode(task, snapshot, [submit("")])
    assert reward == 0.0, verdict
    reward, verdict = run_episode(task, snapshot, task.oracle)
    assert reward == 1.0, verdict


def test_cli_writes_suite_and_funnel(tmp_path: Path) -> None:
    out = tmp_path / "factory"
    result = CliRunner().invoke(
        build_app(("factory",)),
        [
            "factory",
            REPLICA,
            "--seeds",
            str(SEED),
            "--max-candidates",
            str(FIRST),
            "--family-version",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    funnel = json.loads((out / "funnel.json").read_text())
    ids = (out / "suite.txt").read_text().split()
    assert funnel["candidates"] == FIRST
    assert [funnel[s] for s in STAGES] == sorted((funnel[s] for s in STAGES), reverse=True)
    assert len(ids) == funnel["usable"] >= 1
    assert ids[0] == f"{FAMILY}.s{SEED}.0"
    for stage in STAGES:
        assert sum(op[stage] for op in funnel["per_operator"].values()) == funnel[stage]
    table = (out / "funnel.md").read_text()
    assert "| **total** |" in table and f"**{funnel['usable']}**" in table
    # the audit takes the written list as its suite
    assert select_task_ids(str(out / "suite.txt"), None) == ids
    with pytest.raises(ValueError, match="cannot read"):
        select_task_ids(str(tmp_path / "missing.txt"), None)


@pytest.mark.parametrize(
    "args",
    [
        ["nope"],
        [REPLICA, "--seeds", "3-1"],
        [REPLICA, "--seeds", "x"],
        [REPLICA, "--operators", "join_type,no_such_operator"],
        [REPLICA, "--max-per-model", "0"],
        ["credit_cards"],
        [REPLICA, "--family-version", "3"],
    ],
    ids=[
        "replica",
        "seed-range",
        "seed-text",
        "operator",
        "max-per-model",
        "no-family",
        "family-version",
    ],
)
def test_cli_bad_input_exits_2_and_writes_nothing(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(build_app(("factory",)), ["factory", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert not out.exists()
