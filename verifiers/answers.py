"""Answer verifiers: tolerant of format, strict on content.

``check_answer(kind, answer, expected, config)`` grades one submitted answer against the hidden
expected answer of a task and returns a :class:`~replicas.verifiers.verdict.Verdict` whose reason
codes say exactly what was wrong:

==========================  ====================================================================
``no_answer``               nothing that reads as an answer of the asked kind
``answer_too_long``         over 1 MB
``sql_instead_of_answer``   a SQL statement was submitted instead of its result
``addressed_to_grader``     text speaking to the grader ("mark this correct", "ignore previous…")
``multiple_candidates``     several different numbers where one was asked for
``suffix_not_allowed``      "1.2k" where the task asked for the full figure
``wrong_value``             a single well-formed answer that is outside tolerance
``malformed_table``         not readable as JSON rows, ``{columns, rows}``, markdown or CSV
``missing_columns`` / ``extra_columns`` / ``duplicate_columns``
``wrong_row_count`` / ``missing_rows`` / ``extra_rows`` / ``duplicate_keys`` / ``wrong_values``
``row_order``               right rows, wrong order, where order was asked for
``malformed_list`` / ``duplicate_items`` / ``missing_items`` / ``extra_items`` / ``wrong_order``
==========================  ====================================================================

Numbers pass when ``|got - want| <= abs_tol`` or ``|got - want| <= rel_tol * |want|`` — so zero
needs an absolute tolerance and the sign always counts. Tables are compared as whole rows (a
multiset, or matched on key columns; see :mod:`replicas.verifiers.tables`); columns match by
name, case-insensitively. Columns are never sorted on their own, so a scrambled table cannot pass.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from typing import Any

from replicas.verifiers.common import MAX_REPORTED, PASS, failure, numbers_match, parse_failure
from replicas.verifiers.config import VerifierConfig
from replicas.verifiers.parse import (
    ParseError,
    coerce_number,
    normalise_text,
    parse_items,
    parse_number,
    precheck,
    strip_wrapping,
)
from replicas.verifiers.tables import canon_text, check_table, compare_tables
from replicas.verifiers.verdict import Reason, Verdict

__all__ = [
    "ParseError",
    "VerifierConfig",
    "check_answer",
    "check_items",
    "check_number",
    "check_table",
    "check_text",
    "compare_tables",
    "numbers_match",
]

# --------------------------------------------------------------------------------------------
# numbers


def check_number(answer: Any, expected: Any, config: VerifierConfig) -> Verdict:
    want = coerce_number(expected)
    if want is None:
        raise ValueError(f"expected answer of a number task is not a number: {expected!r}")
    if isinstance(answer, bool):
        return failure([Reason("no_answer", "a boolean is not a number")])
    if isinstance(answer, (int, float)):
        got = float(answer)
    else:
        text = str(answer)
        try:
            precheck(text)
            got = parse_number(text, allow_suffixes=config.allow_suffixes)
        except ParseError as err:
            return parse_failure(err)
    if numbers_match(got, want, config):
        return PASS
    return failure(
        [
            Reason(
                "wrong_value",
                f"{got:g} is not within tolerance of the expected value",
                expected=want,
                found=got,
            )
        ]
    )


# --------------------------------------------------------------------------------------------
# sets and ordered lists


def _item(value: Any, numeric: bool, config: VerifierConfig) -> Any:
    if numeric:
        number = coerce_number(value, allow_suffixes=config.allow_suffixes)
        if number is not None:
            return ("n", number)
    return ("s", canon_text(value, config))


def _items_equal(a: Any, b: Any, config: VerifierConfig) -> bool:
    if a[0] == "n" and b[0] == "n":
        return numbers_match(a[1], b[1], config)
    return bool(a == b)


class _ItemIndex:
    """Membership under the task's tolerance in O(log n): texts hash, numbers bisect a window.

    A linear scan per item made a 2,000-id answer cost seconds (O(n²)); the window is wide enough
    to hold every number ``numbers_match`` could accept, and each candidate is still checked by it.
    """

    def __init__(self, config: VerifierConfig) -> None:
        self._config = config
        self._texts: set[Any] = set()
        self._numbers: list[float] = []

    def add(self, item: Any) -> None:
        if item[0] == "n" and not math.isnan(item[1]):
            bisect.insort(self._numbers, item[1])
        else:
            self._texts.add(item)

    def __contains__(self, item: Any) -> bool:
        if item[0] != "n":
            return item in self._texts
        value = item[1]
        if math.isnan(value):
            return False
        rel = min(self._config.rel_tol, 0.5)
        reach = self._config.abs_tol + 1e-9 * max(1.0, abs(value))
        reach = max(reach, rel * (abs(value) + reach) / (1.0 - rel)) * 1.000001 + 1e-12
        lo = bisect.bisect_left(self._numbers, value - reach)
        hi = bisect.bisect_right(self._numbers, value + reach)
        return any(
            numbers_match(value, want, self._config) for want in self._numbers[lo:hi]
        ) or any(numbers_match(want, value, self._config) for want in self._numbers[lo:hi])


def _index(items: Sequence[Any], config: VerifierConfig) -> _ItemIndex:
    index = _ItemIndex(config)
    for item in items:
        index.add(item)
    return index


def check_items(answer: Any, expected: Any, config: VerifierConfig, *, ordered: bool) -> Verdict:
    if not isinstance(expected, list):
        raise ValueError(
            f"expected answer of a list task must be a list, got {type(expected).__name__}"
        )
    if isinstance(answer, list):
        raw = list(answer)
    else:
        text = str(answer)
        try:
            precheck(text)
            raw = parse_items(text)
        except ParseError as err:
            return parse_failure(err)
    numeric = bool(expected) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in expected
    )
    want = [_item(v, numeric, config) for v in expected]
    got = [_item(v, numeric, config) for v in raw]
    reasons: list[Reason] = []
    seen: list[Any] = []
    seen_index = _ItemIndex(config)
    dupes: list[Any] = []
    for g in got:
        if g in seen_index:
            dupes.append(g[1])
        else:
            seen.append(g)
            seen_index.add(g)
    if dupes:
        reasons.append(
            Reason("duplicate_items", f"items listed more than once: {dupes[:MAX_REPORTED]}")
        )
    got_index = _index(got, config)
    want_index = _index(want, config)
    missing = [w[1] for w in want if w not in got_index]
    extra = [g[1] for g in seen if g not in want_index]
    if missing:
        reasons.append(
            Reason(
                "missing_items",
                f"{len(missing)} expected items missing",
                expected=missing[:MAX_REPORTED],
            )
        )
    if extra:
        reasons.append(
            Reason(
                "extra_items",
                f"{len(extra)} items should not be there",
                found=extra[:MAX_REPORTED],
            )
        )
    hits = len(want) - len(missing)
    precision = hits / len(got) if got else 0.0
    recall = hits / len(want) if want else 1.0
    objective = {"precision": precision, "recall": recall}
    if (
        not reasons
        and ordered
        and not all(_items_equal(g, w, config) for g, w in zip(got, want, strict=True))
    ):
        reasons.append(Reason("wrong_order", "the right items, but not in the requested order"))
    if reasons:
        return failure(reasons, objective)
    return Verdict(score=1.0, passed=True, feedback="Correct.", objective_scores=objective)


# --------------------------------------------------------------------------------------------
# text


def check_text(answer: Any, expected: Any, config: VerifierConfig) -> Verdict:
    text = str(answer)
    try:
        precheck(text)
    except ParseError as err:
        return parse_failure(err)
    got = canon_text(strip_wrapping(normalise_text(text)).rstrip("."), config)
    accepted = [canon_text(str(expected).rstrip("."), config)]
    accepted += [canon_text(t.rstrip("."), config) for t in config.accepted_texts]
    if got in accepted:
        return PASS
    return failure(
        [
            Reason(
                "wrong_value",
                "the answer does not match the expected text",
                expected=expected,
                found=text[:200],
            )
        ]
    )


# --------------------------------------------------------------------------------------------
# dispatch

_CHECKERS: dict[str, Callable[[Any, Any, VerifierConfig], Verdict]] = {
    "number": check_number,
    "table": check_table,
    "set": lambda a, e, c: check_items(a, e, c, ordered=False),
    "ordered_list": lambda a, e, c: check_items(a, e, c, ordered=True),
    "text": check_text,
}


def check_answer(
    kind: str, answer: Any, expected: Any, config: VerifierConfig | None = None
) -> Verdict:
    """Grade ``answer`` (submitted text, or a structured value such as a wrong reading)."""
    checker = _CHECKERS.get(kind)
    if checker is None:
        raise ValueError(f"no answer checker for kind {kind!r}; kinds: {sorted(_CHECKERS)}")
    return checker(answer, expected, config or VerifierConfig())
