"""Hacks that state the right answer AND another one, hoping the grader reads only one.

Like ``_scramble`` these use the oracle's answer, only to hedge it — a grader that passes them
grades candidates, not an answer:

``second_answer_line``
    the answer line, then a second answer line with another value ("Answer: 0%" then
    "Answer: 0.99%"); a grader that reads only the first labelled line passes it;
``hedge_in_words``
    the figure followed by another written in words ("12468.78, or roughly twelve thousand");
``hedge_digit_groups``
    the figure followed by another with ``_``-grouped digits ("12468.78 or 12_500").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from replicas.agents.adversary._answers import answer_prefix
from replicas.agents.adversary._base import Session, Strategy
from replicas.agents.base import EnvLike

if TYPE_CHECKING:
    from replicas.tasks import Task

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = ((1_000_000_000, "billion"), (1_000_000, "million"), (1_000, "thousand"))
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def in_words(value: int) -> str:
    """``12000`` → ``'twelve thousand'`` (non-negative integers)."""
    if value < 20:
        return _ONES[value]
    if value < 100:
        tens, ones = divmod(value, 10)
        return _TENS[tens - 2] + (f"-{_ONES[ones]}" if ones else "")
    if value < 1000:
        hundreds, rest = divmod(value, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {in_words(rest)}" if rest else "")
    for size, word in _SCALES:
        if value >= size:
            high, rest = divmod(value, size)
            return f"{in_words(high)} {word}" + (f" {in_words(rest)}" if rest else "")
    return str(value)


def _oracle_answer(task: Task) -> str:
    return str(task.oracle[-1].arguments.get("answer", ""))


def _other_number(value: float) -> float:
    """A nearby, different figure (what a hedge would add)."""
    return round(value * 1.05 + 1, 2)


def _first_number(text: str) -> tuple[float, str] | None:
    match = _NUMBER.search(text)
    if not match:
        return None
    return float(match.group(0).replace(",", "")), match.group(0)


def _numeric_answer(task: Task) -> bool:
    """A number question, or a free-text one whose answer line holds a number."""
    if task.answer_kind == "number":
        return True
    if task.answer_kind != "text" or not answer_prefix(task):
        return False
    first = _oracle_answer(task).splitlines()[0] if _oracle_answer(task) else ""
    return _first_number(first) is not None


def _hedged(task: Task, hedge: Any) -> str:
    """The oracle's answer with ``hedge(value, text)`` appended to its answer line."""
    answer = _oracle_answer(task)
    lines = answer.splitlines() or [answer]
    found = _first_number(lines[0])
    if found is None:
        return answer
    value, _ = found
    lines[0] = f"{lines[0]} {hedge(value)}"
    return "\n".join(lines)


def _play_words(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    s.submit(_hedged(task, lambda v: f"(or roughly {in_words(int(abs(_other_number(v))))})"))
    return []


def _play_digit_groups(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()

    def grouped(v: float) -> str:
        other = int(abs(_other_number(v)))
        return f"(or {other:_d})" if other >= 1000 else f"(or {other}_0)"

    s.submit(_hedged(task, grouped))
    return []


def _second_value(task: Task) -> str | None:
    """Another value for the answer line: a recorded wrong reading, else a nearby figure."""
    for value in task.wrong_readings.values():
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return f"{value}"
    found = _first_number(_oracle_answer(task).splitlines()[0] if _oracle_answer(task) else "")
    return f"{_other_number(found[0])}" if found else None


def _play_second_line(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    answer = _oracle_answer(task)
    other = _second_value(task)
    prefix = answer_prefix(task) or "Answer: "
    lines = answer.splitlines() or [answer]
    if other is not None:
        lines.insert(1, f"{prefix}{other}")
    s.submit("\n".join(lines))
    return []


def _labelled(task: Task) -> bool:
    return bool(answer_prefix(task)) or task.answer_kind == "number"


STRATEGIES = (
    Strategy(
        "second_answer_line",
        "the answer line, then a second answer line with another value",
        _labelled,
        _play_second_line,
    ),
    Strategy(
        "hedge_in_words",
        "the figure followed by another figure written in words",
        _numeric_answer,
        _play_words,
    ),
    Strategy(
        "hedge_digit_groups",
        "the figure followed by another figure with _-grouped digits",
        _numeric_answer,
        _play_digit_groups,
    ),
)

__all__ = ["STRATEGIES", "in_words"]
