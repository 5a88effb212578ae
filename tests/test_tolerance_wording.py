"""Every family's instruction states its grading tolerance in the grader's own words.

For each family of core-v2 (one task each): the instruction contains the sentence
``tolerance_sentence`` renders from the task's ``VerifierConfig`` — the config the grader uses —
and the grader really holds to it: an answer just inside the stated tolerance passes, one just
outside fails (exact answers: any change fails).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from replicas.families.credit_cards.recommend_card import CardValue, accepted_cards
from replicas.suite import get_suite
from replicas.tasks import GradeContext, Task, TaskId, build_task, get_family
from replicas.tasks.loader import load_snapshot
from replicas.verifiers.answers import compare_tables
from replicas.verifiers.config import VerifierConfig, tolerance_phrase, tolerance_sentence

SUITE = "core-v2"
FIRST_TASKS = list(
    {TaskId.parse(t).family: t for t in reversed(get_suite(SUITE).task_ids)}.values()
)


def _grade(task: Task, answer: str, tmp_path: Path) -> bool:
    snapshot = load_snapshot(task.replica, task.seed, task.scale)
    ctx = GradeContext(snapshot=snapshot, sandbox_root=tmp_path, project_dir=tmp_path)
    try:
        return get_family(task.family).grade(task, answer, ctx).passed
    finally:
        ctx.close()


def _inside_outside(tol: float) -> tuple[float, float]:
    """A shift just inside and one just outside an absolute tolerance (exact: 0 and 1)."""
    return (0.9 * tol, 1.1 * tol) if tol > 0 else (0.0, 1.0)


def _perturbed_table(table: dict[str, Any], config: VerifierConfig, inside: bool) -> dict[str, Any]:
    """``table`` with its first numeric non-key cell shifted just inside / outside tolerance."""
    out = copy.deepcopy(table)
    keys = {k.lower() for k in config.key_columns}
    for j, name in enumerate(out["columns"]):
        if name.lower() in keys:
            continue
        for row in out["rows"]:
            if isinstance(row[j], (int, float)) and not isinstance(row[j], bool):
                shift = _inside_outside(config.tolerance_for(name))[0 if inside else 1]
                row[j] = row[j] + shift
                return out
    raise AssertionError("the table has no numeric cell to perturb")


@pytest.mark.parametrize("task_id", FIRST_TASKS)
def test_instruction_states_the_graders_tolerance(task_id: str) -> None:
    task = build_task(task_id)
    assert tolerance_sentence(task.answer_kind, task.verifier) in task.instruction, task_id
    # and no leftover wording of a looser tolerance
    assert "0.001 %" not in task.instruction and "within 0.005." not in task.instruction


@pytest.mark.parametrize("task_id", FIRST_TASKS)
def test_grader_holds_to_the_stated_tolerance(task_id: str, tmp_path: Path) -> None:
    task = build_task(task_id)
    kind, config, expected = task.answer_kind, task.verifier, task.expected
    family = task.family.split("-v")[0]
    if family == "ecommerce.metric_reconciliation":
        cause, corrected = expected["rows"][0]
        inside, outside = _inside_outside(config.abs_tol)
        for shift, passes in ((inside, True), (outside, False)):
            answer = json.dumps({"cause": cause, "corrected": corrected + shift})
            assert _grade(task, answer, tmp_path) is passes, (shift, task_id)
    elif kind == "number":
        inside, outside = _inside_outside(config.abs_tol)
        assert config.rel_tol <= 1e-9, "a relative allowance the words would have to state"
        for shift, passes in ((inside, True), (-inside, True), (outside, False)):
            assert _grade(task, repr(float(expected) + shift), tmp_path) is passes, shift
    elif kind == "table":
        for inside in (True, False):
            answer = json.dumps(_perturbed_table(expected, config, inside))
            assert _grade(task, answer, tmp_path) is inside, (inside, task_id)
    elif kind in ("set", "ordered_list"):
        assert _grade(task, json.dumps(expected), tmp_path)
        if expected:
            assert not _grade(task, json.dumps(expected[:-1]), tmp_path)
        if kind == "ordered_list" and len(expected) > 1:
            assert not _grade(task, json.dumps(list(reversed(expected))), tmp_path)
    elif kind == "text" and family == "credit_cards.card_terms_qa":
        _check_terms_value(task, tmp_path)
    elif kind == "text" and family == "credit_cards.recommend_card":
        _check_value_tolerance(config)
    elif kind == "dbt":
        _check_dbt_tolerance(task)
    else:
        raise AssertionError(f"no tolerance test for {task_id} ({kind})")


def _check_terms_value(task: Task, tmp_path: Path) -> None:
    oracle = str(task.oracle[-1].arguments["answer"])
    first, _, rest = oracle.partition("\n")
    value = first.split(":", 1)[1].strip()
    if value == "none":
        return  # no figure to shift: a 'none' term is exact by nature
    number = float(value.replace("$", "").replace("%", "").replace(" months", ""))
    inside, outside = _inside_outside(task.verifier.abs_tol)

    def shown(x: float) -> str:
        if value.startswith("$"):
            return f"${x:g}"
        return f"{x:g}%" if value.endswith("%") else f"{x:g} months"

    for shift, passes in ((0.0, True), (inside, True), (outside, False)):
        answer = f"Answer: {shown(number + shift)}\n{rest}"
        assert _grade(task, answer, tmp_path) is passes, (shown(number + shift), task.id)


def _check_value_tolerance(config: VerifierConfig) -> None:
    """The recommendation accepts eligible cards within abs_tol of the best ongoing value."""
    inside, outside = _inside_outside(config.abs_tol)
    values = [
        CardValue("CC-0001", 500.0, 400.0, 400.0, True),
        CardValue("CC-0002", 500.0, 400.0 - inside, 0.0, True),
        CardValue("CC-0003", 500.0, 400.0 - outside, 0.0, True),
    ]
    _, accepted = accepted_cards(values, config.abs_tol)
    assert accepted == {"CC-0001", "CC-0002"}
    assert f"±${config.abs_tol:g}" in tolerance_phrase(config)


def _check_dbt_tolerance(task: Task) -> None:
    """Grading compares the rebuilt model with ``compare_tables(…, task.verifier)``: the same
    shift just inside passes and just outside fails on the visible reference."""
    snapshot = load_snapshot(task.replica, task.seed, task.scale)
    model = task.verifier.dbt_models[0]
    ctx = GradeContext(snapshot=snapshot, sandbox_root=Path("."), project_dir=Path("."))
    sql = task.verifier.reference_sql.get(model, f'select * from main."{model}"')
    reference = ctx.pristine_table(sql)
    for inside in (True, False):
        got = _perturbed_table(reference, task.verifier, inside)
        assert compare_tables(got, reference, task.verifier).passed is inside


def test_tolerance_words_render_the_config() -> None:
    money = VerifierConfig(abs_tol=0.005, rel_tol=0.0, unit="usd")
    assert tolerance_sentence("number", money) == "Tolerance: ±$0.005 (to the cent)."
    points = VerifierConfig(abs_tol=0.005, rel_tol=0.0, unit="percentage_points")
    assert tolerance_phrase(points) == "±0.005 percentage points (to 2 decimals)"
    loose = VerifierConfig(abs_tol=0.01, rel_tol=1e-5, unit="usd")
    assert "0.001 % of the exact value" in tolerance_phrase(loose)
    assert tolerance_phrase(VerifierConfig(abs_tol=0.0, rel_tol=0.0)).startswith("exact")
    assert "each once, in any order" in tolerance_sentence("set", VerifierConfig())
    table = VerifierConfig(column_tolerances={"pct": 0.005}, unit="percentage_points")
    assert "column pct within ±0.005 percentage points" in tolerance_sentence("table", table)
    with pytest.raises(ValueError, match="unit"):
        VerifierConfig(unit="furlongs")
