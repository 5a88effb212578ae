"""Task model, family registry, task ids and the task caches — on the toy replica.

The toy families live in ``tests/toy_families.py`` (the env and security tests use them too).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replicas.protocols import SnapshotLike
from replicas.tasks import (
    BuildContext,
    Task,
    TaskBuildError,
    TaskFamily,
    TaskId,
    ToolCall,
    VerifierConfig,
    build_task,
    format_task_id,
    get_family,
    register_family,
    submit,
)
from replicas.tasks.loader import _cache_path, clear_memory_cache, load_snapshot
from tests.toy_families import TOY_MODEL, ToyTotal, register_toy


@pytest.fixture(scope="module", autouse=True)
def _toy(module_registries: None) -> None:
    register_toy()


# --------------------------------------------------------------------------------------------
# ids


@pytest.mark.parametrize(
    ("family", "seed", "variant", "scale", "text"),
    [
        ("ecommerce.revenue_period-v1", 7, 3, 0.01, "ecommerce.revenue_period-v1.s7.3"),
        ("ecommerce.revenue_period-v1", 0, 0, 0.1, "ecommerce.revenue_period-v1.s0.0.x0.1"),
        ("credit_cards.card_terms-v12", 12, 40, 1.0, "credit_cards.card_terms-v12.s12.40.x1"),
    ],
)
def test_task_id_roundtrip(family: str, seed: int, variant: int, scale: float, text: str) -> None:
    assert format_task_id(family, seed, variant, scale) == text
    parsed = TaskId.parse(text)
    assert (parsed.family, parsed.seed, parsed.variant, parsed.scale) == (
        family,
        seed,
        variant,
        scale,
    )
    assert str(parsed) == text
    assert all(c.isalnum() or c in "._-" for c in text)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "revenue_period-v1.s7.3",
        "ecommerce.revenue_period.s7.3",
        "ecommerce.revenue_period-v0.s7.3",
        "ecommerce.revenue_period-v1.s07.3",
        "ecommerce.revenue_period-v1.s7",
        "ecommerce.revenue_period-v1.s7.3.x0",
        "../etc/passwd",
        "ecommerce.Revenue-v1.s1.0",
    ],
)
def test_malformed_task_ids(bad: str) -> None:
    with pytest.raises(ValueError):
        TaskId.parse(bad)


# --------------------------------------------------------------------------------------------
# task validation


def _task(**overrides: object) -> Task:
    fields: dict[str, object] = dict(
        id="toy.total-v1.s1.0",
        replica="toy",
        family="toy.total-v1",
        seed=1,
        scale=0.01,
        variant=0,
        difficulty="easy",
        instruction="How many?",
        tools=("sql", "submit"),
        answer_kind="number",
        expected=3.0,
        oracle=(submit("3"),),
    )
    fields.update(overrides)
    return Task(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "overrides",
    [
        {"id": "toy.total-v1.s2.0"},
        {"replica": "ecommerce"},
        {"difficulty": "trivial"},
        {"answer_kind": "essay"},
        {"instruction": "  "},
        {"tools": ("sql",)},
        {"tools": ("sql", "shell", "submit")},
        {"oracle": ()},
        {"oracle": (ToolCall("sql", {"query": "select 1"}),)},
        {"oracle": (ToolCall("dbt", {"command": "build"}), submit("3"))},
        {"expected": None},
        {"expected": {1, 2}},
        {"answer_kind": "dbt", "expected": None, "writes_warehouse": True},
        {"sandbox_patch": {"../outside.sql": "x"}},
        {"sandbox_patch": {"/abs.sql": "x"}},
        {"tools": ("sql", "dbt", "submit")},
    ],
)
def test_task_validation(overrides: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _task(**overrides)


def test_task_hides_expected_and_roundtrips() -> None:
    task = _task(expected=123456.78, wrong_readings={"gross": 130000.0})
    assert "123456.78" not in repr(task)
    assert "130000" not in repr(task)
    public = task.to_dict(include_hidden=False)
    assert "expected" not in public and "oracle" not in public and "wrong_readings" not in public
    assert Task.from_dict(json.loads(json.dumps(task.to_dict()))) == task


def test_tool_call_rejects_unknown_tools_and_freezes_arguments() -> None:
    with pytest.raises(ValueError):
        ToolCall("shell", {"cmd": "ls"})
    call = ToolCall("sql", {"query": "select 1"})
    with pytest.raises(TypeError):
        call.arguments["query"] = "drop table x"  # type: ignore[index]
    assert call.to_action() == {"name": "sql", "arguments": {"query": "select 1"}}


# --------------------------------------------------------------------------------------------
# registry


def test_registry_lookup_and_close_matches() -> None:
    assert get_family("toy.total-v1").name == "toy.total-v1"
    with pytest.raises(ValueError, match=r"toy\.total-v1"):
        get_family("toy.totl-v1")


@pytest.mark.usefixtures("registries")
def test_registry_rejects_bad_families() -> None:
    class NoMake(TaskFamily):
        name = "toy.nomake-v1"
        replica = "toy"

    class BadName(ToyTotal):
        name = "toy.bad name"

    class Clash(ToyTotal):
        name = "toy.total-v1"

    class WrongReplica(ToyTotal):
        name = "ecommerce.toy_total-v1"

    for cls in (NoMake, BadName, Clash, WrongReplica):
        with pytest.raises(ValueError):
            register_family(cls)


# --------------------------------------------------------------------------------------------
# building


@pytest.fixture(scope="module")
def toy_snapshot() -> SnapshotLike:
    register_toy()
    return load_snapshot("toy", 1, 0.01)


def test_build_is_deterministic_and_computes_ground_truth(toy_snapshot: SnapshotLike) -> None:
    family = get_family("toy.total-v1")
    a = family.build(toy_snapshot, 1, 2)
    b = family.build(toy_snapshot, 1, 2)
    assert a == b and a.expected == b.expected
    from replicas.db import readonly_connection

    row = (
        readonly_connection(toy_snapshot.warehouse)
        .execute("select round(sum(value), 2) from raw.things where kind = 'c'")
        .fetchone()
    )
    assert row is not None and a.expected == row[0]
    assert a.id == "toy.total-v1.s1.2"
    with pytest.raises(ValueError):
        family.build(toy_snapshot, 1, 3)  # only variants 0..2
    with pytest.raises(ValueError):
        family.build(toy_snapshot, 2, 0)  # snapshot of another seed


class _Undiscriminating(TaskFamily):
    """Its wrong reading equals the answer on the first attempts, then differs."""

    name = "toy.retry-v1"
    replica = "toy"
    attempts_seen: list[int] = []  # noqa: RUF012 - test probe

    def make(self, ctx: BuildContext) -> Task:
        self.attempts_seen.append(ctx.attempt)
        wrong = 10.0 if ctx.attempt < 2 else 11.0
        return ctx.task(
            instruction="Say ten.",
            answer_kind="number",
            expected=10.0,
            oracle=(submit("10"),),
            wrong_readings={"eleven": wrong},
            verifier=VerifierConfig(abs_tol=0.5),
        )


class _NeverDiscriminating(_Undiscriminating):
    name = "toy.never-v1"
    max_attempts = 3

    def make(self, ctx: BuildContext) -> Task:
        return ctx.task(
            instruction="Say ten.",
            answer_kind="number",
            expected=10.0,
            oracle=(submit("10"),),
            wrong_readings={"ten_point_one": 10.1},
            verifier=VerifierConfig(abs_tol=0.5),
        )


def test_build_retries_until_wrong_readings_fail(toy_snapshot: SnapshotLike) -> None:
    family = _Undiscriminating()
    task = family.build(toy_snapshot, 1, 0)
    assert family.attempts_seen == [0, 1, 2]
    assert task.wrong_readings["eleven"] == 11.0
    with pytest.raises(TaskBuildError):
        _NeverDiscriminating().build(toy_snapshot, 1, 0)


def test_ctx_rng_depends_on_seed_variant_attempt_only(toy_snapshot: SnapshotLike) -> None:
    family = get_family("toy.total-v1")
    draw = lambda **kw: BuildContext(family, toy_snapshot, **kw).rng("x").integers(0, 2**62)  # noqa: E731
    assert draw(seed=1, variant=0) == draw(seed=1, variant=0)
    assert draw(seed=1, variant=0) != draw(seed=1, variant=1)
    assert draw(seed=1, variant=0, attempt=0) != draw(seed=1, variant=0, attempt=1)


def test_project_file_is_confined(toy_snapshot: SnapshotLike) -> None:
    ctx = BuildContext(get_family("toy.total-v1"), toy_snapshot, 1, 0)
    assert "source('raw', 'things')" in ctx.project_file(TOY_MODEL)
    with pytest.raises(ValueError):
        ctx.project_file("../manifest.json")


def test_task_cache_on_disk(toy_snapshot: SnapshotLike, replicas_home: Path) -> None:
    clear_memory_cache()
    task = build_task("toy.total-v1.s1.1")
    path = _cache_path(task.id)
    assert path.is_file() and replicas_home in path.parents
    stored = json.loads(path.read_text())
    assert stored["task"]["expected"] == task.expected
    # A cached file is used as is: doctor it and the (memory-cleared) loader returns the doctored task.
    stored["task"]["instruction"] = "doctored instruction"
    path.write_text(json.dumps(stored))
    clear_memory_cache()
    assert build_task(task.id).instruction == "doctored instruction"
    # A stale key (other kit/family/snapshot) is ignored and rebuilt.
    stored["key"] = "stale"
    path.write_text(json.dumps(stored))
    clear_memory_cache()
    assert build_task(task.id).instruction == task.instruction
    clear_memory_cache()
