"""SFT export building blocks on hand-made conversations (no snapshot needed).

Formats (render → strict validation → calls read back → Parquet round trip through the real
``datasets`` library), duplicate removal, the group split and decontamination rules, and the
natural-language phrasing of answers.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
from pathlib import Path
from typing import Any, cast

import pytest

from replicas.export.conversation import Conversation, ToolTurn
from replicas.export.decontam import Decontaminator, conversations_reference
from replicas.export.dedup import deduplicate
from replicas.export.formats import FORMATS, get_format
from replicas.export.layout import parquet_name, write_parquet
from replicas.export.phrasing import final_answer_text, format_number, markdown_table
from replicas.export.skips import SkipLog
from replicas.export.split import split
from replicas.tasks import DBT_TOOLS, READ_ONLY_TOOLS, Task, ToolCall, VerifierConfig
from replicas.tools import tool_schemas

# offline before any test imports ``datasets`` (it reads these at import time)
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

SYSTEM = "You are a careful data engineer."
TEMPLATE = (
    "Count only orders with status placed, shipped, completed or returned; cancelled orders "
    "never count and internal test accounts are excluded from every figure you report."
)


def make_conv(
    family: str = "ecommerce.revenue_period-v1",
    seed: int = 100,
    variant: int = 0,
    *,
    question: str = "What was net revenue for March 2025?",
    observation: str = "net_revenue_usd\n20844.02\n(1 row)",
    answer: str = "20844.02",
    source: str = "oracle",
    agent: str = "oracle",
    dbt: bool = False,
) -> Conversation:
    tools = DBT_TOOLS if dbt else READ_ONLY_TOOLS
    turns = [ToolTurn("call_0", "sql", {"query": f"select {seed}, {variant}"}, observation)]
    if dbt:
        turns.append(
            ToolTurn("call_1", "write_file", {"path": "models/x.sql", "content": "select 1"}, "ok")
        )
        turns.append(ToolTurn("call_2", "dbt", {"command": "build --select x"}, "PASS=1"))
    turns.append(
        ToolTurn(f"call_{len(turns)}", "submit", {"answer": answer}, None, f"It is {answer}.")
    )
    return Conversation(
        task_id=f"{family}.s{seed}.{variant}",
        replica=family.split(".", 1)[0],
        family=family,
        seed=seed,
        variant=variant,
        scale=0.01,
        difficulty="medium",
        answer_kind="number",
        source=source,  # type: ignore[arg-type]
        agent=agent,
        score=1.0,
        system=SYSTEM,
        instruction=f"{question}\n{TEMPLATE}",
        tools=tuple(tool_schemas(tools)),
        turns=tuple(turns),
    )


def roles(fmt_name: str, record: dict[str, Any]) -> list[str]:
    if fmt_name == "sharegpt":
        return [t["from"] for t in record["conversations"]]
    return [m["role"] for m in record["messages"]]


# --------------------------------------------------------------------------------------------
# formats


@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_rendered_records_validate_alternate_and_read_back(fmt_name: str) -> None:
    fmt = get_format(fmt_name)
    for conv in (make_conv(), make_conv(dbt=True, seed=101)):
        record = fmt.render(conv)
        assert fmt.validate(record) == []
        assert list(record) == list(fmt.record_keys())
        assert fmt.calls(record) == [(t.name, dict(t.arguments)) for t in conv.turns]
        got = roles(fmt_name, record)
        n_calls = len(conv.turns)
        if fmt_name == "sharegpt":
            want = ["human"] + ["function_call", "observation"] * (n_calls - 1) + ["function_call"]
        else:
            prose = ["assistant"] if fmt.prose_turn else []  # trl: prose before submit
            want = ["system", "user"] + ["assistant", "tool"] * (n_calls - 1)
            want += [*prose, "assistant"]
        assert got == want
        json.dumps(record, allow_nan=False)  # strict JSON


def test_format_specific_shapes() -> None:
    conv = make_conv()
    openai = get_format("openai").render(conv)
    call = openai["messages"][2]["tool_calls"][0]
    assert isinstance(call["function"]["arguments"], str)  # OpenAI: arguments are JSON text
    assert "content" not in openai["messages"][2]
    assert openai["messages"][3] == {
        "role": "tool",
        "tool_call_id": call["id"],
        "content": conv.turns[0].observation,
    }
    assert openai["messages"][-1]["content"] == "It is 20844.02."
    trl = get_format("trl").render(conv)
    assert trl["messages"][2]["tool_calls"][0]["function"]["arguments"] == {
        "query": "select 100, 0"
    }
    assert trl["messages"][2]["content"] == ""
    assert trl["messages"][3]["name"] == "sql"
    # trl: the final prose is its own turn (Llama-3.1 templates drop content beside tool_calls)
    assert trl["messages"][-2] == {"role": "assistant", "content": "It is 20844.02."}
    assert trl["messages"][-1]["content"] == ""
    assert trl["messages"][-1]["tool_calls"][0]["function"]["name"] == "submit"
    merged = get_format("trl").configured(prose_turn=False).render(conv)
    assert merged["messages"][-1]["content"] == "It is 20844.02."
    assert len(merged["messages"]) == len(trl["messages"]) - 1
    assert get_format("trl").configured(prose_turn=False).validate(merged) == []
    split_openai = get_format("openai").configured(prose_turn=True).render(conv)
    assert get_format("openai").configured(prose_turn=True).validate(split_openai) == []
    with pytest.raises(ValueError, match="cannot emit"):
        get_format("sharegpt").configured(prose_turn=True)
    share = get_format("sharegpt").render(conv)
    assert isinstance(share["tools"], str)
    assert {t["name"] for t in json.loads(share["tools"])} == set(READ_ONLY_TOOLS)
    assert share["system"] == SYSTEM
    info = get_format("sharegpt").extra_files({"train": "train.jsonl"})["dataset_info.json"]
    entry = info["replicas_sft_train"]
    assert entry["formatting"] == "sharegpt" and entry["file_name"] == "train.jsonl"
    assert entry["columns"] == {"messages": "conversations", "system": "system", "tools": "tools"}


def _mutations() -> list[tuple[str, str, Any]]:
    """(format, description, mutate(record)) — each must make the record invalid."""

    def setter(path: list[Any], value: Any) -> Any:
        def mutate(record: dict[str, Any]) -> None:
            target = record
            for key in path[:-1]:
                target = target[key]
            if path[-1] == 99:  # append a text-only assistant turn at the end
                cast(list[Any], target).append({"role": "assistant", "content": "And that is all."})
            else:
                target[path[-1]] = value

        return mutate

    def delete(path: list[Any]) -> Any:
        def mutate(record: dict[str, Any]) -> None:
            target = record
            for key in path[:-1]:
                target = target[key]
            del target[path[-1]]

        return mutate

    def swap(i: int, j: int, key: str) -> Any:
        def mutate(record: dict[str, Any]) -> None:
            items = record[key]
            items[i], items[j] = items[j], items[i]

        return mutate

    fn = ["messages", 2, "tool_calls", 0, "function"]
    return [
        ("openai", "arguments as an object", setter([*fn, "arguments"], {"query": "x"})),
        ("openai", "arguments not JSON", setter([*fn, "arguments"], "{not json")),
        ("openai", "unknown tool", setter([*fn, "name"], "shell")),
        ("openai", "tool answer with wrong id", setter(["messages", 3, "tool_call_id"], "c9")),
        ("openai", "tool message without id", delete(["messages", 3, "tool_call_id"])),
        ("openai", "user before system", swap(0, 1, "messages")),
        ("openai", "tool before its call", swap(2, 3, "messages")),
        ("openai", "extra top-level key", setter(["extra"], 1)),
        ("openai", "empty tools", setter(["tools"], [])),
        ("openai", "ends with a tool message", delete(["messages", 4])),
        ("trl", "arguments as JSON text", setter([*fn, "arguments"], '{"query": "x"}')),
        ("trl", "tool message names another tool", setter(["messages", 3, "name"], "submit")),
        ("trl", "text-only turn after submit", setter(["messages", 99], None)),
        ("trl", "empty prose turn", setter(["messages", -2, "content"], " ")),
        ("sharegpt", "odd number of turns", delete(["conversations", 3])),
        ("sharegpt", "observation first", swap(0, 2, "conversations")),
        ("sharegpt", "gpt where a human turn belongs", setter(["conversations", 0, "from"], "gpt")),
        ("sharegpt", "call to an unknown tool",
         setter(["conversations", 1, "value"], '{"name": "rm", "arguments": {}}')),
        ("sharegpt", "tools not JSON text", setter(["tools"], [{"name": "sql"}])),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("fmt_name", "what", "mutate"),
    # ids from the format and description only: a function's repr holds its address, which
    # differs between pytest-xdist workers and breaks distributed collection
    [pytest.param(*m, id=f"{m[0]}-{m[1]}") for m in _mutations()],
)
def test_validators_reject_broken_records(fmt_name: str, what: str, mutate: Any) -> None:
    fmt = get_format(fmt_name)
    record = copy.deepcopy(fmt.render(make_conv()))
    mutate(record)
    assert fmt.validate(record), what


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="did you mean openai"):
        get_format("opnai")


@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
def test_parquet_rows_load_back_as_the_jsonl_records(fmt_name: str, tmp_path: Path) -> None:
    """Rows with different tools (sql vs write_file/dbt arguments) share one file without their
    arguments being widened with each other's keys, and load back equal to the JSONL record."""
    import datasets

    assert datasets.config.HF_HUB_OFFLINE

    fmt = get_format(fmt_name)
    convs = [make_conv(), make_conv(dbt=True, seed=101), make_conv(seed=102, observation="")]
    rows = [(c, fmt.render(c)) for c in convs]
    write_parquet(tmp_path / parquet_name("train"), fmt, rows)
    ds = datasets.load_dataset(
        "parquet", data_dir=str(tmp_path / "data"), cache_dir=str(tmp_path / "cache")
    )["train"]
    assert len(ds) == len(convs)
    for loaded, (conv, record) in zip(ds, rows, strict=True):
        assert fmt.from_arrow_row(loaded) == record
        if fmt_name != "sharegpt":  # rows as loaded: no message padded with None-valued keys
            assert loaded["messages"] == record["messages"]
            assert all(None not in m.values() for m in loaded["messages"])
        assert loaded["task_id"] == conv.task_id and loaded["source"] == "oracle"
        assert loaded["id"] == conv.record_id


# --------------------------------------------------------------------------------------------
# dedup


def test_exact_duplicates_ignore_provenance_and_keep_the_first() -> None:
    a = make_conv(source="oracle", agent="oracle")
    b = make_conv(source="run", agent="openai:gpt")  # same content, other provenance
    c = make_conv(seed=101)
    result = deduplicate([a, b, c], near_threshold=0.9)
    assert result.exact == 1 and result.near == 0
    assert result.kept == [a, c]


def test_near_duplicates_are_dropped_but_distinct_tasks_kept() -> None:
    rows = "\n".join(f"row {i} | customer {i * 7} | {i * 13.25:.2f}" for i in range(60))
    base = make_conv(observation=rows)
    tweaked = make_conv(observation=rows.replace("row 31 |", "row 31 (dup) |"), answer="20844.02")
    other_rows = "\n".join(f"row {i} | customer {i * 11} | {i * 3.5:.2f}" for i in range(60))
    distinct = make_conv(seed=101, observation=other_rows, answer="1.5")
    result = deduplicate([base, tweaked, distinct], near_threshold=0.9)
    assert result.exact == 0
    assert result.near == 1
    assert result.kept == [base, distinct]
    dropped, kept, similarity = result.near_examples[0]
    assert dropped == tweaked.record_id and kept == base.record_id and similarity >= 0.9
    # a stricter threshold keeps the tweaked copy
    assert deduplicate([base, tweaked], near_threshold=1.0).near == 0


# --------------------------------------------------------------------------------------------
# split


def _pool() -> list[Conversation]:
    families = ["ecommerce.revenue_period-v1", "ecommerce.top_n-v1", "credit_cards.eligibility-v1"]
    return [
        make_conv(f, seed, v, question=f"Question {f} {seed} {v}?", answer=str(seed * 10 + v))
        for f in families
        for seed in (100, 101, 102, 103, 104, 105)
        for v in (0, 1)
    ]


@pytest.mark.parametrize("by", ["family", "seed", "task"])
def test_no_group_straddles_and_the_split_is_deterministic(by: str) -> None:
    pool = _pool()
    result = split(pool, by, 0.3)
    key = {"family": lambda c: c.family, "seed": lambda c: c.seed, "task": lambda c: c.task_id}[by]
    train_keys = {key(c) for c in result.train}
    test_keys = {key(c) for c in result.test}
    assert result.train and result.test
    assert not train_keys & test_keys
    assert len(result.train) + len(result.test) == len(pool)
    shuffled = list(pool)
    random.Random(7).shuffle(shuffled)
    again = split(shuffled, by, 0.3)
    assert {c.task_id for c in again.test} == {c.task_id for c in result.test}
    # a group's side depends on its own key only: dropping other groups never moves it
    some_test = next(iter(test_keys))
    subset = [c for c in pool if key(c) == some_test or key(c) in list(train_keys)[:1]]
    assert some_test in {key(c) for c in split(subset, by, 0.3).test}


def test_split_guarantees_both_sides_and_reports_it() -> None:
    pool = [make_conv(seed=s, question=f"q{s}") for s in (100, 101)]
    tiny = split(pool, "seed", 0.001)
    assert len(tiny.test) == 1 and len(tiny.train) == 1 and tiny.notes
    none = split(pool, "seed", 0.0)
    assert not none.test and len(none.train) == 2
    with pytest.raises(ValueError, match=r"only one seed group.*--seeds 2"):
        split(pool[:1], "seed", 0.5)
    assert split(pool[:1], "seed", 0.0).train == pool[:1]  # no test split asked for
    with pytest.raises(ValueError):
        split(pool, "seed", 1.0)
    with pytest.raises(ValueError):
        split(pool, "colour", 0.1)


# --------------------------------------------------------------------------------------------
# decontamination

SPECIFIC = (
    "the only customer who bought seventeen violet teapots on a rainy tuesday in lisbon "
    "was customer 8812"
)


def test_decontamination_rules() -> None:
    eval_conv = make_conv("ecommerce.top_n-v1", 100, 0, question=f"Who? {SPECIFIC}", answer="8812")
    same_task = make_conv("ecommerce.top_n-v1", 100, 0, question="Other wording", answer="1")
    same_instance = make_conv("ecommerce.top_n-v1", 100, 1, question="Variant", answer="2")
    leaks = make_conv(
        "ecommerce.revenue_period-v1", 101, 0, observation=f"note: {SPECIFIC}", answer="3"
    )
    clean = [
        make_conv(
            "ecommerce.revenue_period-v1", s, 0, question=f"Net revenue of {s}?", answer=str(s)
        )
        for s in (102, 103, 104)
    ]
    train = [same_task, same_instance, leaks, *clean]
    decon = Decontaminator()
    decon.index_all([*train, eval_conv], [])
    skips = SkipLog()
    kept = decon.drop_overlapping(train, conversations_reference("test", [eval_conv]), skips)
    assert kept == clean  # they share the long TEMPLATE sentence with eval: boilerplate
    assert skips.counts == {
        "contaminated_task_id:test": 1,
        "contaminated_instance:test": 1,
        "contaminated_ngram:test": 1,
    }
    assert skips.examples["contaminated_ngram:test"] == [leaks.record_id]


def test_a_shared_sentence_of_only_two_tasks_is_not_boilerplate() -> None:
    """The eval question's own wording reused by one train task on another snapshot leaks;
    the same wording spread over three or more tasks is template text."""
    question = "Which five products had the highest net revenue in the second half of 2025?"
    eval_conv = make_conv("ecommerce.top_n-v1", 100, 0, question=question, answer="a")
    twin = make_conv("ecommerce.top_n-v1", 101, 0, question=question, answer="b")
    decon = Decontaminator()
    decon.index_all([twin, eval_conv], [])
    skips = SkipLog()
    assert decon.drop_overlapping([twin], conversations_reference("t", [eval_conv]), skips) == []
    triplet = make_conv("ecommerce.top_n-v1", 102, 0, question=question, answer="c")
    decon = Decontaminator()
    decon.index_all([twin, triplet, eval_conv], [])
    ref = conversations_reference("t", [eval_conv])
    assert decon.drop_overlapping([twin, triplet], ref, SkipLog()) == [twin, triplet]


def test_task_ids_match_across_scales() -> None:
    small = make_conv()
    big = dataclasses.replace(small, task_id=small.task_id + ".x0.1", scale=0.1)
    assert big.canonical_task_id == small.task_id
    decon = Decontaminator()
    decon.index_all([big, small], [])
    skips = SkipLog()
    assert decon.drop_overlapping([big], conversations_reference("t", [small]), skips) == []
    assert skips.counts == {"contaminated_task_id:t": 1}


# --------------------------------------------------------------------------------------------
# conversations and phrasing


def test_conversation_rejects_malformed_episodes() -> None:
    good = make_conv()
    with pytest.raises(ValueError, match="end with a submit"):
        dataclasses.replace(good, turns=good.turns[:1])
    with pytest.raises(ValueError, match="not offered"):
        dataclasses.replace(good, tools=tuple(tool_schemas(["submit"])))
    with pytest.raises(ValueError, match="unique"):
        turns = (good.turns[0], ToolTurn("call_0", "submit", {"answer": "1"}, None))
        dataclasses.replace(good, turns=turns)
    with pytest.raises(ValueError, match="score"):
        dataclasses.replace(good, score=1.5)
    with pytest.raises(ValueError, match="only the final submit"):
        turns = (ToolTurn("call_0", "sql", {"query": "x"}, None), good.turns[-1])
        dataclasses.replace(good, turns=turns)


def _task(family: str, kind: str, answer: Any, metadata: dict[str, Any] | None = None) -> Task:
    return Task(
        id=f"{family}.s5.0",
        replica=family.split(".", 1)[0],
        family=family,
        seed=5,
        scale=0.01,
        variant=0,
        difficulty="easy",
        instruction="q",
        tools=READ_ONLY_TOOLS,
        answer_kind=kind,  # type: ignore[arg-type]
        verifier=VerifierConfig(),
        expected=answer,
        oracle=(ToolCall("submit", {"answer": json.dumps(answer)}),),
        metadata=metadata or {},
    )


def test_phrasing_states_only_the_submitted_answer() -> None:
    assert format_number("20844.02") == "20,844.02"
    assert format_number("-3.5") == "-3.5" and format_number("n/a") == "n/a"
    period = _task("ecommerce.revenue_period-v1", "number", 20844.02, {"period_label": "May 2025"})
    assert final_answer_text(period, "20844.02") == "Net revenue for May 2025 was 20,844.02 USD."
    generic = _task("ecommerce.some_new_family-v1", "number", 3.75)
    assert final_answer_text(generic, "3.75") == "The answer is 3.75."
    table = {"columns": ["month", "aov"], "rows": [["2025-04", 129.85], ["2025-05", None]]}
    text = final_answer_text(_task("ecommerce.x-v1", "table", table), json.dumps(table))
    assert text.endswith(markdown_table(table)) and "| 2025-05 | NULL |" in text
    ranked = _task("ecommerce.y-v1", "ordered_list", [458, 2005])
    assert final_answer_text(ranked, "[458, 2005]") == "In order: 1. 458, 2. 2005."
    empty = _task("credit_cards.offer_audit-v1", "set", ["wrong_apr"])
    assert final_answer_text(empty, "[]") == "The draft is compliant: I found no violation."
    assert "wrong_apr and wrong_fee" in final_answer_text(empty, '["wrong_fee", "wrong_apr"]')
