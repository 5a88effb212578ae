"""Ruleset 4's further "no fee" forms (flag ``more_fee_negations``), read after ``negation``'s.

* an adjective before the attribute: "free balance transfers", "fee-free foreign transactions";
* a verb with its object after it: "charges nothing for balance transfers", "waives the
  balance transfer fee";
* a free first year: "first year free", "on the house in year one", "waived (for) the first
  year", "first-year fee waiver", "we'll waive it for your first year" - when the sentence is
  about the annual fee and no other fee sits just before the waiver;
* a label's "none" followed by an exclamation, an emoji or a remark ("Annual fee: none!",
  "Late fee: nada", "Annual fee: free").

Figures overlapping one of ruleset 3's negations are left to it (``more_none_values`` takes the
spans it already found).
"""

from __future__ import annotations

import re

from replicas.verifiers.compliance.negation import (
    _BT_WORD,
    _CONDITION,
    _FEE_KINDS,
    _FEE_WORD,
    _FIRST_YEAR,
    _LABEL_BACK,
    _SCOPE_CHARS,
    NONE_ANNUAL,
    NONE_BT,
    NONE_FIRST_YEAR,
    NONE_FOREIGN,
    NONE_LATE,
    SentenceTest,
    _kind_in,
    _sentence_of,
    drop_overlapping,
)

# "free balance transfers", "fee-free transfers", "no-fee balance transfers": the attribute
# follows the adjective.
_FREE_BEFORE = re.compile(
    r"\b(?:(?:fee|charge|cost)[ \t-]{0,2}free|free|no-fee|zero-fee|\$0[ \t-]fee)[ \t]{1,3}"
    r"(?P<what>(?:balance[ \t]{1,3})?transfers?|bt|cash[ \t-]{1,3}advances?|foreign[ \t]{1,3}"
    r"(?:transactions?|purchases?|spending)|overseas[ \t]{1,3}(?:transactions?|purchases?|spending)"
    r"|late[ \t]{1,3}payments?)\b"
)
# "charges nothing for balance transfers", "costs nothing to transfer a balance", "waives the
# balance transfer fee", "won't add a fee on foreign purchases"
_VERB_FOR = re.compile(
    r"\b(?:charges?|costs?)[ \t]{1,3}(?:you[ \t]{1,3})?(?:nothing|zero|\$0)[ \t]{1,3}(?:for|on|to)"
    r"[ \t]{1,3}(?P<what>[^.;:,()|\n!?]{1,40})"
    r"|\bwaives?[ \t]{1,3}(?:the|its|any|all)[ \t]{1,3}(?P<what2>[^.;:,()|\n!?]{1,40}?(?:fees?|charges?))"
)
# "(first year free)", "first year's fee is free", "free for the first year", "year one is free"
_FIRST_YEAR_FREE = re.compile(
    r"\b(?:first|1st|opening)[ \t-]{1,3}(?:year|yr)(?:'s)?[ \t]{1,3}(?:(?:annual[ \t]{1,3})?fee[ \t]{1,3})?"
    r"(?:(?:is|are)[ \t]{1,3})?(?:free|on[ \t]{1,3}(?:us|the[ \t]{1,3}house))\b"
    r"|\byear[ \t]{1,3}(?:one|1)[ \t]{1,3}(?:is[ \t]{1,3})?(?:free|on[ \t]{1,3}(?:us|the[ \t]{1,3}house))\b"
    r"|\bfree[ \t]{1,3}(?:for|in|during)[ \t]{1,3}(?:the[ \t]{1,3})?(?:first[ \t]{1,3}(?:year|12[ \t]{1,3}months)"
    r"|year[ \t]{1,3}(?:one|1)|1st[ \t]{1,3}year)\b"
)


_FY = r"(?:(?:the|your|its)[ \t]{1,3})?(?:(?:first|1st|opening|initial)[ \t-]{1,3}(?:year|yr|12[ \t]{1,3}months)|(?:year|yr)[ \t]{1,3}(?:one|1))\b"
# "waived (for) the first year", "we'll waive it for your first year", "first-year (fee) waiver",
# "not in your first year", "you won't pay it in year one", "pay nothing ... for year one"
_WAIVED_FIRST_YEAR = re.compile(
    r"\bwaiv(?:e[ds]?|ing|er)\b(?:[ \t]{1,3}(?:it|this|that))?[ \t]{1,3}(?:(?:for|in|during|over)[ \t]{1,3})?"
    + _FY
    + r"|\b(?:first|1st)[ \t-]{1,3}(?:year|yr)[ \t-]{1,3}(?:annual[ \t]{1,3})?(?:fee[ \t]{1,3})?waiver\b"
    r"|\bnot[ \t]{1,3}(?:in|for|during)[ \t]{1,3}"
    + _FY
    + r"|\b(?:won't|will[ \t]not|don't|do[ \t]not)[ \t]{1,3}pay[ \t]{1,3}(?:it|anything|a[ \t]{1,3}cent)[ \t]{1,3}(?:in|for|during)[ \t]{1,3}"
    + _FY
    + r"|\bpay[ \t]{1,3}nothing[ \t]{1,3}(?:in[ \t]{1,3}annual[ \t]{1,3}fees?[ \t]{1,3})?(?:in|for|during)[ \t]{1,3}"
    + _FY
)
_ANNUAL_CONTEXT = re.compile(
    r"\b(?:annual|yearly|annually|membership|af)\b|/[ \t]?(?:yr|year)\b|\ba[ \t]year\b|\bper[ \t]year\b"
)
_OTHER_FEE_NEAR = re.compile(
    r"\b(?:foreign|international|overseas|late|transfers?|advances?|atm|returned)\b"
)


# "Annual fee: none!", "Late fee: none (yay)", "Annual fee: free", "Annual fee? Nope!": a label's
# "none" value followed by an exclamation, an emoji or a remark (ruleset 3 wants punctuation or the
# end of the line right after it)
_LABEL_NONE_MORE = re.compile(
    r"(?:(?<=[:=|?>\u2192][ \t])|(?<=\.\.[ \t]))[ \t]{0,2}(?:\*\*)?[ \t]{0,2}"
    r"(?:none|nil|nada|zilch|nothing(?:[ \t]{1,3}to[ \t]{1,3}pay)?|zero|free|waived|nope"
    r"|not[ \t]{1,3}(?:charged|applicable)|n/a|no[ \t]{1,3}(?:fee|charge))\b"
    r"(?![ \t]{0,3}(?:for|in|during|after|if|when|until|on|with|of)\b)"
)
# label words ruleset 3's attribute list lacks
_LATE_LABEL = re.compile(r"\bmissed[ \t-]{1,3}payments?\b")
_FOREIGN_LABEL = re.compile(r"\bnon-(?:sterling|dollar|us|usd)\b")


def _label_nones(lower: str) -> list[tuple[int, int, str]]:
    out = []
    for match in _LABEL_NONE_MORE.finditer(lower):
        back = lower[max(0, match.start() - _SCOPE_CHARS) : match.start()]
        stem = back.rstrip(" \t.:=|?>\u2192-")
        cuts = [m.end() for m in _LABEL_BACK.finditer(stem)]
        label = stem[cuts[-1] :] if cuts else stem
        if not _FEE_WORD.search(label):
            continue
        found = _kind_in(label, postfix=True)
        kind = found[0] if found is not None else None
        if kind is None and _LATE_LABEL.search(label):
            kind = NONE_LATE
        elif kind is None and _FOREIGN_LABEL.search(label):
            kind = NONE_FOREIGN
        if kind is not None:
            out.append((match.start(), match.end(), kind))
    return out


def _first_year_waivers(lower: str) -> list[tuple[int, int, str]]:
    """A first-year waiver stated of the annual fee (the sentence names it, and no other fee
    sits just before the waiver)."""
    out = []
    annual_context = SentenceTest(lower, _ANNUAL_CONTEXT)
    for match in _WAIVED_FIRST_YEAR.finditer(lower):
        lo, hi = _sentence_of(lower, match.start())
        if not annual_context(lo, hi):
            continue
        if _OTHER_FEE_NEAR.search(lower, max(lo, match.start() - 40), match.start()):
            continue
        out.append((match.start(), match.end(), NONE_FIRST_YEAR))
    return out


# marketing copy: "say goodbye to annual fees", "forget late fees", "skip the annual fee", "late
# fees are a thing of the past"
_GOODBYE = re.compile(
    r"\b(?:say[ \t]{1,3}goodbye[ \t]{1,3}to|wave[ \t]{1,3}goodbye[ \t]{1,3}to|forget(?:[ \t]{1,3}about)?"
    r"|skip|ditch|no[ \t]{1,3}more)[ \t]{1,3}(?:the[ \t]{1,3}|those[ \t]{1,3}|any[ \t]{1,3}|pesky[ \t]{1,3})?"
    r"(?P<what>(?:[a-z-]{1,14}[ \t]{1,3}){0,2}(?:fees?|charges?))\b"
    r"|\b(?P<what2>(?:[a-z-]{1,14}[ \t]{1,3}){1,2}fees?)[ \t]{1,3}(?:are|is)[ \t]{1,3}a[ \t]{1,3}thing[ \t]{1,3}of"
    r"[ \t]{1,3}the[ \t]{1,3}past\b"
)


def _attribute(what: str) -> str | None:
    """The fee kind ``what`` names (the first fee attribute in it), or None."""
    found: tuple[int, str] | None = None
    for kind, pattern in _FEE_KINDS:
        match = pattern.search(what)
        if match is not None and (found is None or match.start() < found[0]):
            found = (match.start(), kind)
    if found is None and _BT_WORD.search(what):
        return NONE_BT
    return found[1] if found else None


MORE_TRIGGERS = _MORE_TRIGGERS = (
    "goodbye",
    "forget",
    "skip",
    "ditch",
    "no more",
    "thing of the past",
    "free",
    "nothing",
    "waiv",
    "$0",
    "zero",
    "house",
    "on us",
    "year",
    "yr",
    "none",
    "nil",
    "nada",
    "zilch",
    "nope",
    "n/a",
    "not charged",
    "not applicable",
    "no charge",
    "no fee",
)


def more_none_values(
    lower: str, taken: list[tuple[int, int, str]] | None = None
) -> list[tuple[int, int, str]]:
    """Ruleset 4's "no fee" claims that ruleset 3 does not read: an adjective before the
    attribute ("free balance transfers"), a verb with its object after it ("charges nothing for
    balance transfers", "waives the transfer fee") and a free first year ("first year free")."""
    if not any(word in lower for word in _MORE_TRIGGERS):
        return []
    out: list[tuple[int, int, str]] = []
    conditional = SentenceTest(lower, _CONDITION, sliced=True)
    for match in _FREE_BEFORE.finditer(lower):
        kind = _attribute(match.group("what"))
        if kind is not None and not _conditional(lower, match.start(), conditional):
            out.append((match.start(), match.end(), kind))
    for match in _VERB_FOR.finditer(lower):
        what = match.group("what") or match.group("what2") or ""
        kind = _attribute(what)
        if kind is None or (kind == NONE_ANNUAL and _FIRST_YEAR.search(what)):
            continue
        if _conditional(lower, match.start(), conditional):
            continue
        out.append((match.start(), match.end(), kind))
    for match in _GOODBYE.finditer(lower):
        kind = _attribute(match.group("what") or match.group("what2") or "")
        if kind is not None and not _conditional(lower, match.start(), conditional):
            out.append((match.start(), match.end(), kind))
    for match in _FIRST_YEAR_FREE.finditer(lower):
        out.append((match.start(), match.end(), NONE_FIRST_YEAR))
    if "waiv" in lower or "year" in lower or "yr" in lower:
        out.extend(_first_year_waivers(lower))
    if ": " in lower or "? " in lower or "= " in lower or "| " in lower:
        out.extend(_label_nones(lower))
    return drop_overlapping(out, [(s, e) for s, e, _ in taken or ()])


_CONDITION_AHEAD = re.compile(r"\b(?:if|unless|provided|as[ \t]long[ \t]as)\b")


def _conditional(lower: str, pos: int, sentence_test: SentenceTest | None = None) -> bool:
    """A "no fee" inside a condition ("free transfers if you ...") is no term
    (``sentence_test``: the sentence's ``_CONDITION`` test, shared by one text's calls)."""
    test = sentence_test or SentenceTest(lower, _CONDITION, sliced=True)
    return test(*_sentence_of(lower, pos)) and bool(_CONDITION_AHEAD.search(lower[pos : pos + 80]))


__all__ = ["MORE_TRIGGERS", "more_none_values"]
