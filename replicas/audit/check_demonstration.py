"""Check — the oracle is a demonstration a reader could have written.

The oracle's episode is exported as supervised fine-tuning data: every call in it teaches a
model what to do with what it has seen. An oracle that queries ``where card_id = 'CC-0016'``
when the question only named the card teaches producing ids from nowhere. So every *literal id*
in the oracle's arguments must already have appeared in the conversation — in the instruction
or in the observation of an earlier step of the same episode:

- id codes anywhere (``CC-0016``: letters, a dash, digits);
- literals compared with an id column (``customer_id = 592``, ``payment_id in (12, 57)``);
- the items of a submitted set or list answer (customer ids, payment ids, card ids …).

A literal the conversation never showed makes the task ``broken``: its demonstration is not a
solution anybody reading the same conversation could produce.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from replicas.audit._context import AuditContext
from replicas.audit._model import CheckResult
from replicas.audit._registry import Check, failed, passed, register_check

NAME = "demonstration"
_ID_CODE = re.compile(r"(?<![\w-])[A-Z]{2,6}-\d{2,}(?![\w-])")
_LITERAL = r"(?:'(?:[^']|'')*'|-?\d+(?:\.\d+)?)"
_ID_COMPARISON = re.compile(
    rf"(?i)\b(?:\w+_id|id)\s*(?:=|==|<>|!=)\s*({_LITERAL})"
    rf"|\b(?:\w+_id|id)\s+(?:not\s+)?in\s*\(\s*({_LITERAL}(?:\s*,\s*{_LITERAL})*)\s*\)"
)
_ITEM = re.compile(_LITERAL)


def _unquote(literal: str) -> str:
    literal = literal.strip()
    if literal.startswith("'") and literal.endswith("'"):
        return literal[1:-1].replace("''", "'")
    return literal


def literal_ids(tool: str, arguments: Any, answer_kind: str) -> list[str]:
    """The literal ids one call uses (see the module docstring), in order, without repeats."""
    if not isinstance(arguments, dict):
        return []
    texts = [str(v) for k, v in arguments.items() if k in ("query", "content", "command")]
    found: list[str] = []
    for text in texts:
        found += _ID_CODE.findall(text)
        for match in _ID_COMPARISON.finditer(text):
            group = match.group(1) or match.group(2) or ""
            found += [_unquote(m) for m in _ITEM.findall(group)]
    if tool == "submit":
        answer = str(arguments.get("answer", ""))
        found += _ID_CODE.findall(answer)
        if answer_kind in ("set", "ordered_list"):
            found += [str(item) for item in _items(answer)]
    return list(dict.fromkeys(f for f in found if f))


def _items(answer: str) -> Iterable[Any]:
    try:
        data = json.loads(answer)
    except ValueError:
        return []
    return [v for v in data if isinstance(v, (str, int))] if isinstance(data, list) else []


def revealed(literal: str, text: str) -> bool:
    """Whether ``literal`` is written in ``text`` as a whole token (case-insensitive)."""
    pattern = rf"(?<![\w.-]){re.escape(literal)}(?![\w-]|\.\d)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def unrevealed(instruction: str, calls: Iterable[tuple[str, Any, str]], kind: str) -> list[str]:
    """``step N (tool): literal`` for every literal id used before the conversation showed it."""
    seen = [instruction]
    out: list[str] = []
    for index, (tool, arguments, observation) in enumerate(calls):
        context = "\n".join(seen)
        for literal in literal_ids(tool, arguments, kind):
            if not revealed(literal, context):
                out.append(f"step {index} ({tool}) uses {literal!r}")
        seen.append(observation)
    return out


def run(ctx: AuditContext) -> CheckResult:
    episode = ctx.oracle()
    task = ctx.task
    missing = unrevealed(task.instruction, episode.calls, task.answer_kind)
    data = {"steps": len(episode.calls), "unrevealed": missing[:20]}
    if missing:
        evidence = [
            f"the oracle {m}, which neither the instruction nor an earlier observation revealed"
            for m in missing[:10]
        ]
        return failed(NAME, "broken", evidence, data)
    return passed(
        NAME, [f"every literal id of the oracle's {len(episode.calls)} calls was revealed"], data
    )


CHECK = register_check(
    Check(
        name=NAME,
        status="broken",
        title="the oracle uses only ids the instruction or an earlier observation revealed",
        fix_hint=(
            "Write the oracle as a reader would: find what the question names by its name (a "
            "card by card_name, a customer by the id the question gives), read the ids from "
            "that observation, and only then use them; never put a hidden id (the task's own "
            "metadata) into a query or file the conversation has not shown."
        ),
        run=run,
    )
)
