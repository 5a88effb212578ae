"""Inspect AI: ``suite_task`` run by ``inspect_ai.eval`` with a scripted model registered through
Inspect's public model-provider extension (``@modelapi``), offline.

(``mockllm`` is not usable offline: it counts tokens with tiktoken's ``o200k_base``, which
tiktoken downloads at run time. The scripted model below never needs a tokenizer.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from replicas.integrations.inspect import suite_task
from replicas.suite import get_suite
from replicas.tasks import task_from_id

SQL = "ecommerce.revenue_period-v1.s1.0"
CARDS = "credit_cards.card_terms_qa-v1.s1.0"


@modelapi(name="replicas-scripted")
class ScriptedModel(ModelAPI):
    """Replays a script chosen by the model name: ``oracle`` calls the task's oracle tool calls
    (found from the instruction), ``null`` submits an empty answer, ``silent`` never calls a
    tool and just says it does not know."""

    def __init__(self, model_name: str, **kwargs: Any) -> None:
        super().__init__(model_name=model_name, config=GenerateConfig())
        self._oracles: dict[str, list[dict[str, Any]]] = {}

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        instruction = next(m.text for m in input if isinstance(m, ChatMessageUser))
        turn = sum(1 for m in input if m.role == "assistant")
        if self.model_name == "silent":
            return ModelOutput.from_content(self.model_name, "I do not know.")
        script: list[dict[str, Any]]
        if self.model_name == "null":
            script = [{"name": "submit", "arguments": {"answer": ""}}]
        else:
            script = self._oracle(instruction)
        if turn >= len(script):
            return ModelOutput.from_content(self.model_name, "Done.")
        call = script[turn]
        assert call["name"] in {t.name for t in tools}  # the episode's tools were offered
        return ModelOutput.for_tool_call(self.model_name, call["name"], call["arguments"])

    def _oracle(self, instruction: str) -> list[dict[str, Any]]:
        if not self._oracles:
            for task_id in (SQL, CARDS):
                built = task_from_id(task_id)
                self._oracles[built.instruction] = [c.to_action() for c in built.oracle]
        return self._oracles[instruction]

    async def count_text_tokens(self, text: str) -> int:
        return len(text) // 4 + 1  # never tiktoken: it would download its encoding


def _run(task: Task, model: str, log_dir: Path) -> list[Any]:
    logs = eval(
        task,
        model=get_model(f"replicas-scripted/{model}"),
        log_dir=str(log_dir),
        display="none",
        max_samples=1,
    )
    assert len(logs) == 1 and logs[0].status == "success", logs[0].error
    assert logs[0].samples is not None
    return list(logs[0].samples)


@pytest.mark.slow  # builds every task of a suite
def test_suite_task_shape() -> None:
    task = suite_task("core-v1")
    suite = get_suite("core-v1")
    assert [s.id for s in task.dataset] == list(suite.task_ids)
    first = next(iter(task.dataset))
    assert first.input == task_from_id(suite.task_ids[0]).instruction
    assert first.target == ""  # the expected answer never enters the log


def test_oracle_scores_one_and_null_scores_zero(tmp_path: Path) -> None:
    task = suite_task("core-v1", task_ids=[SQL, CARDS])
    oracle = _run(task, "oracle", tmp_path / "oracle")
    assert sorted(str(s.id) for s in oracle) == sorted([SQL, CARDS])
    for sample in oracle:
        score = sample.scores["verdict_scorer"]
        assert score.value == 1.0 and score.metadata["passed"] is True
        assert score.metadata["task_id"] == sample.id and score.metadata["outcome"] == "submitted"
        built = task_from_id(str(sample.id))
        tool_calls = [m for m in sample.messages if m.role == "tool"]
        assert [m.function for m in tool_calls] == [c.name for c in built.oracle]
        assert score.answer == built.oracle[-1].arguments["answer"]

    null = _run(suite_task("core-v1", task_ids=[SQL, CARDS]), "null", tmp_path / "null")
    for sample in null:
        score = sample.scores["verdict_scorer"]
        assert score.value == 0.0 and score.metadata["passed"] is False
        assert "no_answer" in [r["code"] for r in score.metadata["reasons"]]


def test_a_model_that_never_submits_is_graded_on_its_final_message(tmp_path: Path) -> None:
    samples = _run(suite_task("core-v1", task_ids=[CARDS]), "silent", tmp_path)
    score = samples[0].scores["verdict_scorer"]
    assert score.value == 0.0 and score.answer == "I do not know."
    assert score.metadata["reasons"] and score.explanation
