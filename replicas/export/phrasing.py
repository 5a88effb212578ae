"""The natural-language final answer that rides on the exported ``submit`` call.

A demonstration should end the way a good assistant ends: one sentence (or a small table) that
says the answer, then the ``submit`` call with the answer in the format the task asks for. The
sentence is derived ONLY from the submitted answer and the task's public metadata, so it can
never state something the graded answer does not:

    ecommerce.revenue_period   "Net revenue for October 2025 was 20,844.02 USD."
    table answers              a markdown table of the submitted rows
    credit_cards text answers  the answer's own explanation lines, which must then pass the
                               compliance verifier (``grounding_problem``) before export

Phrasers are a registry keyed by family name without its version (``ecommerce.revenue_period``),
with a fallback per answer kind, so a new family gets a sensible sentence without code here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from replicas.families.credit_cards.common import catalog_for
from replicas.tasks.loader import load_snapshot
from replicas.verifiers.compliance import verify_response

if TYPE_CHECKING:
    from replicas.tasks import Task

Phraser = Callable[["Task", str], str]

_MAX_TABLE_ROWS = 25
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def _family_base(family: str) -> str:
    return family.rsplit("-v", 1)[0]


def _json(answer: str) -> Any:
    try:
        return json.loads(answer)
    except ValueError:
        return None


def format_number(text: str) -> str:
    """'20844.02' -> '20,844.02' (decimals kept as submitted); other text unchanged."""
    stripped = text.strip()
    if not _NUMBER.match(stripped):
        return stripped
    decimals = len(stripped.split(".", 1)[1]) if "." in stripped else 0
    return f"{float(stripped):,.{decimals}f}"


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(table: Mapping[str, Any]) -> str:
    columns = [str(c) for c in table.get("columns", [])]
    rows = list(table.get("rows", []))
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows[:_MAX_TABLE_ROWS]]
    if len(rows) > _MAX_TABLE_ROWS:
        lines.append(f"(and {len(rows) - _MAX_TABLE_ROWS} more rows)")
    return "\n".join(lines)


def _items(values: list[Any]) -> str:
    shown = [str(v) for v in values]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


# ---- fallbacks by answer kind ------------------------------------------------------------------


def _number(task: Task, answer: str) -> str:
    return f"The answer is {format_number(answer)}."


def _table(task: Task, answer: str) -> str:
    value = _json(answer)
    if isinstance(value, dict) and isinstance(value.get("columns"), list):
        rows = value.get("rows") or []
        return f"Here is the result ({len(rows)} rows):\n\n{markdown_table(value)}"
    if isinstance(value, dict):
        parts = [f"{k}: {v}" for k, v in value.items()]
        return "My answer: " + "; ".join(parts) + "."
    return f"My answer: {answer}"


def _set(task: Task, answer: str) -> str:
    value = _json(answer)
    if isinstance(value, list):
        if not value:
            return "None qualify: the answer is the empty set."
        return f"The answer is {_items(sorted(value, key=str))} ({len(value)} in total)."
    return f"My answer: {answer}"


def _ordered_list(task: Task, answer: str) -> str:
    value = _json(answer)
    if isinstance(value, list):
        ranked = ", ".join(f"{i}. {v}" for i, v in enumerate(value, start=1))
        return f"In order: {ranked}."
    return f"My answer: {answer}"


def _text(task: Task, answer: str) -> str:
    return answer


def _dbt(task: Task, answer: str) -> str:
    edited = [str(c.arguments.get("path")) for c in task.oracle if c.name == "write_file"]
    runs = [str(c.arguments.get("command")) for c in task.oracle if c.name == "dbt"]
    said = []
    if edited:
        said.append(f"I edited {_items(edited)}")
    if runs:
        said.append("rebuilt with " + _items([f"`dbt {r}`" for r in runs]))
    lead = (" and ".join(said) + ". ") if said else ""
    return f"{lead}{answer}".strip()


BY_KIND: dict[str, Phraser] = {
    "number": _number,
    "table": _table,
    "set": _set,
    "ordered_list": _ordered_list,
    "text": _text,
    "dbt": _dbt,
}


# ---- family phrasers (only where the metadata allows a better sentence) ------------------------


def _revenue_period(task: Task, answer: str) -> str:
    period = task.metadata.get("period_label")
    if not period:
        return _number(task, answer)
    return f"Net revenue for {period} was {format_number(answer)} USD."


def _top_n(task: Task, answer: str) -> str:
    value = _json(answer)
    meta = task.metadata
    if not isinstance(value, list) or not meta.get("entity"):
        return _ordered_list(task, answer)
    metric = str(meta.get("metric", "the metric")).replace("_", " ")
    period = f" for {meta['period']}" if meta.get("period") else ""
    ranked = ", ".join(f"{i}. {v}" for i, v in enumerate(value, start=1))
    return f"The top {len(value)} {meta['entity']}s by {metric}{period}, in order: {ranked}."


def _eligibility(task: Task, answer: str) -> str:
    value = _json(answer)
    customer = task.metadata.get("customer_id")
    if not isinstance(value, list) or customer is None:
        return _set(task, answer)
    if not value:
        return f"Customer {customer} is not eligible for any of the cards asked about."
    return f"Customer {customer} is eligible for {len(value)} of them: {_items(sorted(value))}."


def _offer_audit(task: Task, answer: str) -> str:
    value = _json(answer)
    if not isinstance(value, list):
        return _set(task, answer)
    if not value:
        return "The draft is compliant: I found no violation."
    return f"The draft has these violations: {_items(sorted(value))}."


def _explained(template: str) -> Phraser:
    """Credit-card text answers: the value of the labelled first line put in ``template``
    (``{value}``, ``{body}``), with the explanation lines after it as ``body``."""

    def phrase(task: Task, answer: str) -> str:
        lines = [line.strip() for line in answer.splitlines() if line.strip()]
        if not lines:
            return answer
        _label, sep, value = lines[0].partition(":")
        if not sep or not value.strip():
            return answer
        return template.format(value=value.strip(), body=" ".join(lines[1:])).strip()

    return phrase


BY_FAMILY: dict[str, Phraser] = {
    "ecommerce.revenue_period": _revenue_period,
    "ecommerce.top_n": _top_n,
    "credit_cards.eligibility": _eligibility,
    "credit_cards.offer_audit": _offer_audit,
    "credit_cards.card_terms_qa": _explained(
        "According to the card catalog (card_terms): {body} So the answer is {value}."
    ),
    "credit_cards.recommend_card": _explained("I recommend the {value}. {body}"),
}


def final_answer_text(task: Task, answer: str) -> str:
    """The natural-language sentence for ``answer`` (registry by family, then by kind)."""
    phraser = BY_FAMILY.get(_family_base(task.family)) or BY_KIND.get(task.answer_kind, _text)
    return phraser(task, answer).strip()


# ---- grounding ---------------------------------------------------------------------------------


def _credit_cards_grounding(task: Task, text: str) -> str | None:
    """Every card claim in ``text`` must match card_terms (the compliance verifier)."""

    catalog = catalog_for(load_snapshot(task.replica, task.seed, task.scale))
    customer = task.metadata.get("customer_id")
    try:
        verdict = verify_response(text, catalog, customer_id=customer)
    except ValueError:
        verdict = verify_response(text, catalog)
    if verdict.passed:
        return None
    codes = ", ".join(r.code for r in verdict.reasons) or "not compliant"
    return f"compliance: {codes}"


#: Replica -> check that the exported prose states nothing its replica's verifier rejects.
GROUNDING: dict[str, Callable[[Task, str], str | None]] = {
    "credit_cards": _credit_cards_grounding,
}


def grounding_problem(task: Task, text: str) -> str | None:
    """Why ``text`` may not be exported for ``task`` (None when it is grounded)."""
    check = GROUNDING.get(task.replica)
    return check(task, text) if check is not None else None
