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
    _CONDITION,
    _FEE_WORD,
    _LABEL_BACK,
    _SCOPE_CHARS,
    NONE_ANNUAL,
    NONE_FIRST_YEAR,
    NONE_LATE,
    _kind_in,
    _sentence_of,
)
from replicas.verifiers.compliance.negation_more import (
    _ANNUAL_CONTEXT,
    _FY,
    _OTHER_FEE_NEAR,
    _label_nones,
)

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


# The price of holding the card is its annual fee: "free to hold", "costs nothing to own", "pay
# nothing to keep the card", "a fee-free card", "no fee for having the card"
_HOLDING_FREE = re.compile(
    r"\b(?:(?:is|it's|stays?|remains?)[ \t]{1,3}(?:completely[ \t]{1,3}|totally[ \t]{1,3})?free"
    r"|costs?[ \t]{1,3}(?:you[ \t]{1,3})?nothing|pay[ \t]{1,3}nothing|nothing)[ \t]{1,3}to[ \t]{1,3}"
    r"(?:hold|own|keep|carry|have)\b"
    r"|\b(?:an?[ \t]{1,3})?(?:fee[ \t-]free|no[ \t-]fee|zero[ \t-]fee|free)[ \t]{1,3}(?:credit[ \t]{1,3})?card\b"
    r"|\bno[ \t]{1,3}(?:fee|charge)[ \t]{1,3}(?:for|to)[ \t]{1,3}(?:having|holding|owning|keeping|carrying)"
    r"[ \t]{1,3}(?:the|this|your|it)\b"
)
# "Annual fee? There isn't one.", "Late fee: there is none"
_THERE_IS_NONE = re.compile(
    r"(?<=[:=?][ \t])[ \t]{0,2}(?:there[ \t]{1,3}isn't[ \t]{1,3}(?:one|any)|there's[ \t]{1,3}none"
    r"|there[ \t]{1,3}is[ \t]{1,3}(?:none|no[ \t]{1,3}(?:fee|charge))|not[ \t]{1,3}a[ \t]{1,3}(?:thing|penny|cent))\b"
)
# "no penalty for paying late", "no fee if you pay late", "paying late is free"
_LATE_FREE = re.compile(
    r"\bno[ \t]{1,3}(?:fee|charge|penalty)[ \t]{1,3}(?:for[ \t]{1,3}(?:paying|being)[ \t]{1,3}late"
    r"|for[ \t]{1,3}(?:a[ \t]{1,3})?late[ \t]{1,3}payments?|(?:if|when)[ \t]{1,3}you[ \t]{1,3}(?:pay|are)"
    r"[ \t]{1,3}late)\b"
    r"|\bpaying[ \t]{1,3}late[ \t]{1,3}(?:is|costs?)[ \t]{1,3}(?:free|nothing)\b"
)
# "free for 12 months, then $150", "no fee until year two", "the fee starts in the second year",
# "waives its $150 fee for the first year", "the fee is waived in year one"
_FIRST_YEAR_MORE = re.compile(
    r"\bfree[ \t]{1,3}for[ \t]{1,3}(?:the[ \t]{1,3}first[ \t]{1,3})?(?:12|twelve)[ \t]{1,3}months\b"
    r"|\bfree[ \t]{1,3}for[ \t]{1,3}(?:a|one|the[ \t]{1,3}first)[ \t]{1,3}year\b"
    r"|\bno[ \t]{1,3}(?:annual[ \t]{1,3})?fee[ \t]{1,3}until[ \t]{1,3}(?:year[ \t]{1,3}(?:two|2)|(?:the|your)"
    r"[ \t]{1,3}(?:second|2nd)[ \t]{1,3}year)\b"
    r"|\bfee[ \t]{1,3}(?:starts|kicks[ \t]{1,3}in|begins|applies)[ \t]{1,3}(?:only[ \t]{1,3})?(?:in|from)"
    r"[ \t]{1,3}(?:year[ \t]{1,3}(?:two|2)|(?:the|your)[ \t]{1,3}(?:second|2nd)[ \t]{1,3}year)\b"
    r"|\bwaiv(?:e[sd]?|ing)[ \t]{1,3}(?:its|the|their|your)[ \t]{1,3}(?:\$[\d,.]{1,9}[ \t]{1,3})?"
    r"(?:annual[ \t]{1,3})?fee[ \t]{1,3}(?:for|in|during)[ \t]{1,3}"
    + _FY
    + r"|\bfee[ \t]{1,3}(?:is|gets)[ \t]{1,3}waived[ \t]{1,3}(?:for|in|during)[ \t]{1,3}"
    + _FY
)
_MORE_5_TRIGGERS = ("free", "nothing", "there", "late", "until", "second year", "year two", "waiv")


def more_none_values_5(lower: str, taken: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Ruleset 5's "no fee" claims that rulesets 3 and 4 do not read (overlaps with ``taken``
    dropped)."""
    out: list[tuple[int, int, str]] = []
    if ("> " in lower or "\u2192" in lower) and not (
        ": " in lower or "? " in lower or "= " in lower or "| " in lower
    ):
        out.extend(_label_nones(lower))
    if "first" in lower or "1st" in lower or "opening" in lower:
        for match in _FREE_FIRST_YEAR.finditer(lower):
            lo, hi = _sentence_of(lower, match.start())
            if _ANNUAL_CONTEXT.search(lower, lo, hi) or "$" in lower[lo:hi]:
                out.append((match.start(), match.end(), NONE_FIRST_YEAR))
    if any(word in lower for word in _MORE_5_TRIGGERS):
        out.extend(_more_5(lower))
    spans = [(s, e) for s, e, _ in taken]
    return [v for v in out if not any(v[0] < e and s < v[1] for s, e in spans)]


def _unconditional(lower: str, pos: int) -> bool:
    sentence = lower[slice(*_sentence_of(lower, pos))]
    return not (
        _CONDITION.search(sentence) and re.search(r"\b(?:if|unless)\b", lower[pos : pos + 60])
    )


def _more_5(lower: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for match in _HOLDING_FREE.finditer(lower):
        lo, hi = _sentence_of(lower, match.start())
        if _OTHER_FEE_NEAR.search(lower, lo, hi) or not _unconditional(lower, match.start()):
            continue  # "a fee-free card for balance transfers", "free to hold if you spend ..."
        out.append((match.start(), match.end(), NONE_ANNUAL))
    if "?" in lower or ":" in lower or "=" in lower:
        out.extend((m.start(), m.end(), kind) for m, kind in _label_nones_of(lower, _THERE_IS_NONE))
    for match in _LATE_FREE.finditer(lower):
        out.append((match.start(), match.end(), NONE_LATE))
    for match in _FIRST_YEAR_MORE.finditer(lower):
        lo, hi = _sentence_of(lower, match.start())
        about_fee = "fee" in lower[lo:hi] or "$" in lower[lo:hi]
        if (about_fee or _ANNUAL_CONTEXT.search(lower, lo, hi)) and not _OTHER_FEE_NEAR.search(
            lower, max(lo, match.start() - 40), match.start()
        ):
            out.append((match.start(), match.end(), NONE_FIRST_YEAR))
    return out


def _label_nones_of(lower: str, pattern: re.Pattern[str]) -> list[tuple[re.Match[str], str]]:
    """The matches of ``pattern`` standing as the value of a fee label ("Annual fee? There isn't
    one."), with the fee the label names."""

    found = []
    for match in pattern.finditer(lower):
        back = lower[max(0, match.start() - _SCOPE_CHARS) : match.start()]
        stem = back.rstrip(" \t.:=|?>-")
        cuts = [m.end() for m in _LABEL_BACK.finditer(stem)]
        label = stem[cuts[-1] :] if cuts else stem
        if not _FEE_WORD.search(label):
            continue
        kind = _kind_in(label, postfix=True)
        if kind is not None:
            found.append((match, kind[0]))
    return found


_WAIVER_AFTER = re.compile(r"[ \t]{0,2}(?:fees?[ \t]{1,3})?waivers?\b")


def drop_negated_waivers(
    lower: str, nones: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """``nones`` without the first-year waivers the text denies ("no first-year waiver")."""
    if "waiv" not in lower:
        return nones
    kept = []
    for start, end, kind in nones:
        if _WAIVER_AFTER.match(lower, end):
            continue  # "no late fee waiver": the waiver is denied, not the fee
        if kind == NONE_FIRST_YEAR and "waiv" in lower[start:end]:
            before = lower[max(0, start - 24) : start]
            if _NEGATED_WAIVER_BEFORE.search(before) or _NEGATED_WAIVER_BEFORE.search(
                lower[max(0, start - 24) : lower.find("waiv", start)]
            ):
                continue
        kept.append((start, end, kind))
    return kept


__all__ = ["drop_negated_waivers", "more_none_values_5"]
