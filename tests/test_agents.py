"""The agent registry, price table, and the pure parts of the scripted agents."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from replicas.agents import AgentOptions, agent_kinds, get_agent, parse_agent_spec
from replicas.agents._observe import column, parse_table
from replicas.agents.adversary import STRATEGIES
from replicas.agents.adversary._scramble import reordered_list, scrambled_table
from replicas.agents.prices import DEFAULT_PRICES, Price, load_prices, parse_prices, price_for
from replicas.tasks import Task, ToolCall


def test_registry_lists_every_builtin_agent() -> None:
    kinds = {k.kind for k in agent_kinds()}
    assert {"oracle", "null", "random-sql", "adversary", "openai", "cmd"} <= kinds
    assert get_agent("oracle").name == "oracle"
    assert get_agent("openai:m", AgentOptions(base_url="http://127.0.0.1:9/v1")).name == "openai:m"
    assert get_agent("cmd:python x.py --a 'b c'").name == "cmd:python x.py --a 'b c'"


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("orcale", "did you mean oracle"),
        ("", "non-empty"),
        ("openai", "needs an argument"),
        ("openai:", "needs an argument"),
        ("null:x", "takes no argument"),
        ("cmd:'unterminated", "cannot parse agent command"),
    ],
)
def test_bad_agent_specs_are_clear_errors(spec: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        get_agent(spec)


def test_openai_agent_needs_a_key_only_for_the_openai_api(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "REPLICAS_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        get_agent("openai:gpt-4o")
    monkeypatch.setenv("REPLICAS_API_KEY", "sk-test")
    assert get_agent("openai:gpt-4o").api_key == "sk-test"  # type: ignore[attr-defined]
    kind, arg = parse_agent_spec("openai:org/model-x")
    assert kind.kind == "openai" and arg == "org/model-x"


def test_price_lookup_exact_prefix_provider_and_unknown() -> None:
    table = dict(DEFAULT_PRICES)
    assert price_for("gpt-4o-mini-2024-07-18", table) == DEFAULT_PRICES["gpt-4o-mini"]
    assert price_for("openai/gpt-4o", table) == DEFAULT_PRICES["gpt-4o"]
    assert price_for("gpt-4o-2024-08-06", table) == DEFAULT_PRICES["gpt-4o"]
    assert price_for("llama-3-8b", table) is None
    price = Price(2.0, 8.0)
    assert price.cost(1_000_000, 500_000) == pytest.approx(6.0)


def test_price_overrides_from_env_and_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPLICAS_PRICES", json.dumps({"local-model": [1, 2]}))
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"gpt-4o": {"input_per_mtok": 9, "output_per_mtok": 9}}))
    table = load_prices(path)
    assert table["local-model"] == Price(1, 2)
    assert table["gpt-4o"] == Price(9, 9)
    assert table["gpt-4o-mini"] == DEFAULT_PRICES["gpt-4o-mini"]
    with pytest.raises(ValueError, match="input_per_mtok"):
        parse_prices({"m": {"input": 1}})
    with pytest.raises(ValueError, match=">= 0"):
        parse_prices({"m": [-1, 2]})
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_prices(path)


def test_options_validate_and_hide_the_key() -> None:
    with pytest.raises(ValueError, match="http"):
        AgentOptions(base_url="ftp://x")
    with pytest.raises(ValueError, match="max_retries"):
        AgentOptions(max_retries=-1)
    public = AgentOptions(api_key="sk-secret").to_public_dict()
    assert "sk-secret" not in json.dumps(public)


def test_sql_observation_parsing() -> None:
    text = "name | n\n-----+--\nPlatinum Plus | 3\nGold | NULL\n(2 rows)"
    assert parse_table(text) == (["name", "n"], [["Platinum Plus", "3"], ["Gold", "NULL"]])
    assert column(text, "N") == ["3", "NULL"]
    assert parse_table("ERROR: nope") == ([], [])


def _task(kind: str, answer: object) -> Task:
    return Task(
        id="ecommerce.fake-v1.s1.0",
        replica="ecommerce",
        family="ecommerce.fake-v1",
        seed=1,
        scale=0.01,
        variant=0,
        difficulty="easy",
        instruction="x",
        tools=("sql", "submit"),
        answer_kind=kind,  # type: ignore[arg-type]
        expected=answer,
        oracle=(ToolCall("submit", {"answer": json.dumps(answer)}),),
    )


def test_scramble_keeps_each_column_but_breaks_rows() -> None:
    rows: list[list[object]] = [["a", 1], ["b", 2], ["c", 3], ["d", 4]]
    table = {"columns": ["k", "v"], "rows": rows}
    scrambled = scrambled_table(_task("table", table))
    assert scrambled is not None
    for i in range(2):
        assert Counter(r[i] for r in scrambled["rows"]) == Counter(r[i] for r in rows)
    assert Counter(map(tuple, scrambled["rows"])) != Counter(map(tuple, rows))
    assert scrambled == scrambled_table(_task("table", table))  # seeded by the task id


def test_scramble_and_reorder_skip_when_they_cannot_differ() -> None:
    assert scrambled_table(_task("table", {"columns": ["k"], "rows": [["a"]]})) is None
    assert scrambled_table(_task("number", 3.0)) is None
    assert reordered_list(_task("ordered_list", ["x", "x"])) is None
    order = reordered_list(_task("ordered_list", ["a", "b", "c"]))
    assert order is not None and sorted(order) == ["a", "b", "c"] and order != ["a", "b", "c"]


def test_adversary_plans_only_applicable_strategies() -> None:
    adversary = get_agent("adversary")
    number = adversary.plan(_task("number", 3.0))
    table = adversary.plan(_task("table", {"columns": ["k", "v"], "rows": [["a", 1], ["b", 2]]}))
    assert "candidate_numbers" in number and "scramble_rows" not in number
    assert "scramble_rows" in table and "candidate_numbers" not in table
    assert not {"delete_schema_tests", "edit_dbt_project"} & set(number)
    assert set(number) <= set(STRATEGIES) and None not in number


def test_answer_prefix_is_read_from_the_instruction() -> None:
    from dataclasses import replace

    from replicas.agents.adversary._answers import answer_prefix

    text = _task("text", "Answer: 2.7%")
    asked = replace(text, instruction="The FIRST line must be 'Answer: <value>' and nothing else.")
    card = replace(text, instruction="FIRST line is exactly 'Recommendation: <card name>'.")
    assert answer_prefix(asked) == "Answer: "
    assert answer_prefix(card) == "Recommendation: "
    assert answer_prefix(text) == ""  # the instruction asks for no header
    assert answer_prefix(replace(asked, answer_kind="number", expected=1.0)) == ""


@pytest.mark.slow
def test_random_sql_is_reproducible_per_task() -> None:
    from replicas.env import make

    def calls(task_id: str) -> list[tuple[str, str]]:
        with make(task_id, agent_name="random-sql") as env:
            get_agent("random-sql").run_episode(env)
            steps = env.trajectory()["steps"]
        return [(s["tool"], json.dumps(s["arguments"], sort_keys=True)) for s in steps]

    first = calls("credit_cards.eligibility-v1.s1.0")
    assert first == calls("credit_cards.eligibility-v1.s1.0")
    assert first[0] == ("sql", json.dumps({"dialect": "duckdb", "query": "SHOW TABLES"}))
    assert first[-1][0] == "submit" and len(first) >= 4


def test_delete_schema_tests_keeps_sources_and_drops_every_test() -> None:
    import yaml

    from replicas.agents.adversary._dbt import without_tests

    text = """
version: 2
sources:
  - name: raw
    tables:
      - name: orders
        columns:
          - name: order_id
            data_tests: [unique, not_null]
models:
  - name: fct_orders
    columns:
      - name: order_id
        tests: [unique]
      - name: status
        data_tests:
          - accepted_values: {values: [placed]}
"""
    stripped = yaml.safe_load(without_tests(text) or "")
    assert stripped["sources"][0]["tables"][0]["name"] == "orders"
    assert "tests" not in json.dumps(stripped) and "data_tests" not in json.dumps(stripped)
    assert without_tests("version: 2\nmodels: []\n") is None  # nothing to strip
    assert without_tests("key: [unclosed") is None
