"""Ruleset 5's further fee forms (flag ``fee_forms_5``), read after rulesets 3 and 4's.

* a label's "none" after an arrow or a question mark with no colon anywhere in the unit
  ("Annual fee -> none" on its own line; ruleset 4 only looked for these when the unit held a
  colon, an equals sign, a "| " or a "? ");
* a free first year without a preposition: "free the first year", "nothing the first year",
  "first year: free" ("$0 the first year" is ruleset 3's already);
* a negated waiver is no waiver: "with no first-year waiver", "there's no waiver in year one" -
  ruleset 4 read the waiver words alone as a $0 first year (``drop_negated_waivers``).
"""

from __future__ import annotations

import re

from replicas.verifiers.compliance.negation import (
    NONE_FIRST_YEAR,
    SentenceTest,
    _sentence_of,
    drop_overlapping,
)
from replicas.verifiers.compliance.negation_more import _ANNUAL_CONTEXT, _label_nones

_FREE_FIRST_YEAR = re.compile(
    r"\b(?:free|nothing|zero)[ \t]{1,3}(?:the|your|its)[ \t]{1,3}(?:first|1st|opening)[ \t-]{1,3}"
    r"(?:year|yr|12[ \t]{1,3}months)\b"
    # "first year: free", "1st year - nothing", "first year's free"
    r"|\b(?:first|1st|opening)[ \t-]{1,3}(?:year|yr)(?:'s)?(?:[ \t]{0,2}[:=-][ \t]{0,3}|[ \t]{1,3}(?:is[ \t]{1,3})?)"
    r"(?:free|nothing|none|nil|zero|waived)\b"
)
# "no first-year waiver", "without a waiver", "not waived", "never waived": the waiver is denied
_NEGATED_WAIVER_BEFORE = re.compile(
    r"(?:\bno|\bwithout|\bnot|\bnever|n't|\bzero)[ \t]{1,3}(?:an?[ \t]{1,3}|any[ \t]{1,3})?"
    r"(?:(?:first|1st|opening|intro(?:ductory)?)[ \t-]{1,3}(?:year|yr)[ \t-]{1,3})?"
    r"(?:(?:annual[ \t]{1,3})?fee[ \t]{1,3})?$"
)


# Every form read by ``more_none_values_5`` holds one of these (its own guards below).
FEE_FORMS_5_TRIGGERS = ("> ", "\u2192", "first", "1st", "opening")


def more_none_values_5(lower: str, taken: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Ruleset 5's "no fee" claims that rulesets 3 and 4 do not read (overlaps with ``taken``
    dropped)."""
    out: list[tuple[int, int, str]] = []
    if ("> " in lower or "\u2192" in lower) and not (
        ": " in lower or "? " in lower or "= " in lower or "| " in lower
    ):
        out.extend(_label_nones(lower))
    if "first" in lower or "1st" in lower or "opening" in lower:
        annual_context = SentenceTest(lower, _ANNUAL_CONTEXT)
        dollar = SentenceTest(lower, _DOLLAR, sliced=True)
        for match in _FREE_FIRST_YEAR.finditer(lower):
            lo, hi = _sentence_of(lower, match.start())
            if annual_context(lo, hi) or dollar(lo, hi):
                out.append((match.start(), match.end(), NONE_FIRST_YEAR))
    return drop_overlapping(out, [(s, e) for s, e, _ in taken])


_DOLLAR = re.compile(r"\$")


def drop_negated_waivers(
    lower: str, nones: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """``nones`` without the first-year waivers the text denies ("no first-year waiver")."""
    if "waiv" not in lower:
        return nones
    kept = []
    for start, end, kind in nones:
        if kind == NONE_FIRST_YEAR and "waiv" in lower[start:end]:
            before = lower[max(0, start - 24) : start]
            if _NEGATED_WAIVER_BEFORE.search(before) or _NEGATED_WAIVER_BEFORE.search(
                lower[max(0, start - 24) : lower.find("waiv", start)]
            ):
                continue
        kept.append((start, end, kind))
    return kept


__all__ = ["FEE_FORMS_5_TRIGGERS", "drop_negated_waivers", "more_none_values_5"]
