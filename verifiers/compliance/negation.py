"""Negated and qualitative claims: "no late fee", "fee-free balance transfers", "no intro offer".

A negation has a scope: the noun phrase after the negator ("no", "without", "doesn't charge",
"won't pay", "free of"), up to the next clause or phrase boundary - or, for a predicate that comes
after its subject ("balance transfers are fee-free", "the annual fee is waived the first year"),
the phrase before it in the same clause. The attribute named inside the scope makes the claim:

* a fee (annual, foreign transaction, late, balance transfer, cash advance) -> the card has no such
  fee; an annual fee qualified by the first year ("no annual fee the first year", "waived the
  first year") -> the first-year fee is $0, which says nothing about the fee after it;
* a penalty APR -> the card has none; an intro APR / offer / promotional rate (on purchases or
  balance transfers when the scope says so) -> the card has no such offer;
* interest with no other attribute ("pay no interest on purchases", "interest-free") -> a 0 %
  rate, which the typing step reads as an intro offer when a duration goes with it.

Negations inside a condition ("if you pay on time you won't pay a late fee") describe a behaviour,
not a term, and make no claim. A value preceded by "not" ("not the $95 you may have seen") is
withdrawn, not claimed.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left

from replicas.verifiers.compliance.matchers import at_word_start

# kinds of the "no ..." values
NONE_ANNUAL = "none_annual"
NONE_FIRST_YEAR = "none_first_year"
NONE_FOREIGN = "none_foreign"
NONE_BT = "none_bt"
NONE_CASH = "none_cash"
NONE_LATE = "none_late"
NONE_PENALTY = "none_penalty"
NONE_INTRO = "none_intro"
NONE_INTRO_PURCHASE = "none_intro_purchase"
NONE_INTRO_BT = "none_intro_bt"
NONE_KINDS = (
    NONE_ANNUAL,
    NONE_FIRST_YEAR,
    NONE_FOREIGN,
    NONE_BT,
    NONE_CASH,
    NONE_LATE,
    NONE_PENALTY,
    NONE_INTRO,
    NONE_INTRO_PURCHASE,
    NONE_INTRO_BT,
)

# A negator whose scope follows it. "no" is not one in "no less than", "no later than", "no
# longer", "no matter"; "not" only as a verb negation ("does not", "is not").
_NEGATOR = re.compile(
    at_word_start(
        [
            r"no\b(?![ \t]{1,3}(?:less|later|longer|matter|more[ \t]{1,3}than|sooner|one)\b)",
            r"zero\b(?![ \t-]{1,3}(?:percent|%))",
            r"without\b",
            r"never\b",
            r"free[ \t]{1,3}of\b",
            r"nor\b",
            r"neither\b",
            r"not\b",
        ]
    )
    + r"|n't\b"
)
# A predicate negation after its subject: "transfers are fee-free", "the fee is waived".
_POSTFIX = re.compile(
    r"(?<=[:*\-=|][ \t])[ \t]{0,2}(?:\*\*)?[ \t]{0,2}(?:none|n/a|no|nil|nothing|zero|not[ \t]{1,3}"
    r"(?:charged|offered))\b(?=[ \t]*(?:\*\*)?[ \t]*(?:[.;,\n|]|$))"
    r"|(?:fee|charge)[ \t-]{0,2}free\b|\bfree[ \t]{1,3}of[ \t]{1,3}(?:any[ \t]{1,3})?(?:fees?|charges?)\b"
    r"|\b(?:is|are|be|gets?|get)[ \t]{1,3}(?:completely[ \t]{1,3}|totally[ \t]{1,3})?free\b"
    r"|\bwaive[sd]?\b|\bwaiving\b"
    r"|\b(?:costs?|charges?)[ \t]{1,3}(?:you[ \t]{1,3})?nothing\b"
)
# Where a scope ends: punctuation, a clause word or the next negator.
_SCOPE_END = re.compile(
    r"[.;:,()|\n!?\"]| [-/] |\b(?:but|while|whereas|however|though|although|then|which|so|because|"
    r"plus|unlike|except|and[ \t]{1,3}(?:it|its|the|a|an|you|has|charges|offers|no|zero)|or[ \t]{1,3}no"
    r"|after|once|afterwards?|thereafter|later|from[ \t]{1,3}then)\b"
)
_SCOPE_END_LIST = re.compile(_SCOPE_END.pattern.replace("[.;:,()", "[.;:()", 1))
_POSTFIX_BACK = re.compile(
    r"[.;:()|\n!?\"]| [-/] |\b(?:but|while|whereas|however|though|although)\b"
)
_CONDITIONAL_WAIVER = re.compile(
    r"[ \t]{0,3}(?:for|if|when|until|once|on|with|as[ \t]long|during|in|after|the)\b"
)
_LABEL_NONE_WORDS = ("none", "n/a", "no", "nil", "nothing", "zero", "not")
_LABEL_BACK = re.compile(r"[.;|\n!?\"]")  # "Late fee: none": the label before the colon
_SENTENCE_BACK = re.compile(r"[.;:|\n!?\"]")
_CONDITION = re.compile(
    r"\b(?:if|unless|as[ \t]long[ \t]as|provided|when[ \t]you|so[ \t]long[ \t]as)\b"
)
_PAY_VERB = re.compile(r"\b(?:pay|paying|incur|be[ \t]charged|get[ \t]charged|owe|trigger)\b")

_FEE_WORD = re.compile(r"\b(?:fees?|charges?|charged|costs?)\b")
_INTRO_WORD = re.compile(
    r"\b(?:intro|introductory|promo|promotional|teaser|special[ \t]{1,3}(?:rate|apr|financing))\b"
    r"|0[ \t]?%[ \t]{0,2}(?:intro|apr|period|offer|deal|rate|promo|financing)|\bzero[ \t-]percent\b"
)
_PENALTY_WORD = re.compile(r"\bpenalty\b|\bdefault[ \t]{1,3}(?:apr|rate)\b")
_INTEREST_WORD = re.compile(r"\binterest\b|\bapr\b")
_PURCHASE_WORD = re.compile(r"\bpurchases?\b|\bspending\b|\bbuys?\b|\bbought\b|\bbuying\b")
_BT_WORD = re.compile(
    r"\b(?:balance[ \t-]{1,3})?transfers?\b|\bbt\b|\b(?:moved|transferred)[ \t]{1,3}balances?\b"
)
_FIRST_YEAR = re.compile(
    r"\b(?:first|1st|opening|initial|intro(?:ductory)?)[ \t-]{1,3}year\b|\byear[ \t]{1,3}(?:one|1)\b"
    r"|\bfirst[ \t]{1,3}12[ \t]{1,3}months\b"
)
# Attribute words of fees, in the order they are tried (the first found names the fee).
_FEE_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (NONE_ANNUAL, re.compile(r"\b(?:annual|yearly|membership|annually)\b")),
    (
        NONE_FOREIGN,
        re.compile(
            r"\b(?:foreign|international|overseas|abroad|fx|currency)\b"
            r"(?:[ \t-]{1,3}(?:transactions?|exchange|conversion|purchases?))?"
        ),
    ),
    (NONE_LATE, re.compile(r"\b(?:late|past[ \t-]due)\b")),
    (NONE_CASH, re.compile(r"\b(?:cash[ \t-]{1,3}advances?|advances?|atm)\b")),
    (NONE_BT, re.compile(r"\b(?:balance[ \t-]{1,3})?transfers?\b")),
)
# After "not": a withdrawn value ("not the $95", "instead of 3%").
WITHDRAWN = re.compile(
    r"(?:\bnot|\binstead[ \t]of|\brather[ \t]than)[ \t]{1,3}(?:the[ \t]{1,3}|an?[ \t]{1,3}|just[ \t]{1,3})?$"
)
_SCOPE_CHARS = 70
_ELLIPSIS = re.compile(
    r"[ \t]{0,3}(?:either|too|as[ \t]well)\b|[ \t]{0,3}(?:does|do|is|has)[ \t]{1,3}(?:the[ \t]{1,3})?"
)


def _scope_end(lower: str, start: int, limit: int, *, commas: bool = True) -> int:
    end = min(limit, start + _SCOPE_CHARS)
    stop = (_SCOPE_END if commas else _SCOPE_END_LIST).search(lower, start, end)
    return stop.start() if stop else end


def _sentence_of(lower: str, pos: int) -> tuple[int, int]:
    lo = max(lower.rfind(".", 0, pos), lower.rfind("\n", 0, pos), lower.rfind("!", 0, pos)) + 1
    hi_candidates = [i for i in (lower.find(".", pos), lower.find("\n", pos)) if i >= 0]
    return lo, min(hi_candidates) if hi_candidates else len(lower)


class SentenceTest:
    """``pattern.search`` over the sentence around a position, answered once per sentence.

    Checks made for every match of a form ("is the annual fee named in this sentence?") cost
    the length of the sentence each; on one long sentence repeating the form (an agent's
    100,000-character answer with no full stop) that was quadratic - minutes per answer. The
    answer is the same as searching every time.
    """

    def __init__(self, lower: str, pattern: re.Pattern[str], *, sliced: bool = False) -> None:
        # sliced: search ``lower[lo:hi]`` (what a caller that sliced the sentence did), else
        # ``pattern.search(lower, lo, hi)`` (lookbehinds see before ``lo``): kept apart, so
        # each caller's reading is exactly what it was
        self.lower = lower
        self.pattern = pattern
        self.sliced = sliced
        self._seen: dict[tuple[int, int], bool] = {}

    def __call__(self, lo: int, hi: int) -> bool:
        key = (lo, hi)
        found = self._seen.get(key)
        if found is None:
            hit = (
                self.pattern.search(self.lower[lo:hi])
                if self.sliced
                else self.pattern.search(self.lower, lo, hi)
            )
            found = self._seen[key] = hit is not None
        return found


def drop_overlapping(
    values: list[tuple[int, int, str]], spans: list[tuple[int, int]]
) -> list[tuple[int, int, str]]:
    """``values`` without those overlapping any of ``spans`` (``v[0] < e and s < v[1]``), in
    O(log n) per value: spans sorted by start, with the running maximum of their ends."""
    if not spans or not values:
        return list(values)
    ordered = sorted(spans)
    starts = [a for a, _ in ordered]
    reach: list[int] = []
    for _, b in ordered:
        reach.append(max(b, reach[-1]) if reach else b)
    kept = []
    for v in values:
        before = bisect_left(starts, v[1])  # spans starting before v ends
        if not (before and reach[before - 1] > v[0]):
            kept.append(v)
    return kept


def _kind_in(scope: str, *, postfix: bool) -> tuple[str, int] | None:
    """The negated attribute named in ``scope`` and where its name ends (None: no attribute)."""
    intro = _INTRO_WORD.search(scope)
    if intro is not None:
        purchase = _PURCHASE_WORD.search(scope)
        transfer = _BT_WORD.search(scope)
        if purchase and not transfer:
            return NONE_INTRO_PURCHASE, max(intro.end(), purchase.end())
        if transfer and not purchase:
            return NONE_INTRO_BT, max(intro.end(), transfer.end())
        return NONE_INTRO, intro.end()
    penalty = _PENALTY_WORD.search(scope)
    if penalty is not None and (_INTEREST_WORD.search(scope) or "rate" in scope):
        return NONE_PENALTY, penalty.end()
    fee = _FEE_WORD.search(scope)
    if fee is None and not postfix:
        return None
    if fee is not None and not postfix:
        first_year = _FIRST_YEAR.search(scope)
        if first_year is not None and not any(p.search(scope) for _, p in _FEE_KINDS[1:]):
            # "no charge for the first year": the first year of the annual fee
            return NONE_FIRST_YEAR, max(fee.end(), first_year.end())
    # The attribute nearest the negation: the first after "no", the last before "is free".
    found: tuple[int, str, int] | None = None
    for kind, pattern in _FEE_KINDS:
        match = pattern.search(scope) if not postfix else _last(pattern, scope)
        if match is None:
            continue
        if found is None or (match.start() > found[0] if postfix else match.start() < found[0]):
            found = (match.start(), kind, match.end())
    if found is None:
        return None
    _, kind, end = found
    return kind, max(end, fee.end() if fee else end)


_INTRO_KINDS = frozenset({NONE_INTRO, NONE_INTRO_PURCHASE, NONE_INTRO_BT})
_COORDINATION = re.compile(
    r"[ \t]{0,2}(?:,|or|and|&|/)[ \t]{0,3}(?:,?[ \t]{0,2}(?:or|and)[ \t]{1,3})?"
)


def _coordinated(lower: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Further fees named after the first one, joined by "or"/"and"/",", before the fee word."""
    scope = lower[start:end]
    hits = sorted(
        (m.start(), m.end(), kind)
        for kind, pattern in _FEE_KINDS
        for m in [pattern.search(scope)]
        if m is not None
    )
    out: list[tuple[int, int, str]] = []
    for (_, prev_end, _), (lo, hi, kind) in itertools.pairwise(hits):
        if not _COORDINATION.fullmatch(scope, prev_end, lo):
            break
        out.append((start + lo, start + hi, kind))
    return out


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    last = None
    for last in pattern.finditer(text):  # noqa: B007 - the last match is the one wanted
        pass
    return last


def none_values(lower: str, *, whole_text: bool = False) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of every negated attribute claim, in text order.

    Negators are searched only near the words an attribute contains (``whole_text`` searches
    everywhere: the plain form the tests compare the fast one with).
    """
    out: list[tuple[int, int, str]] = []
    size = len(lower)
    conditional_sentence = SentenceTest(lower, _CONDITION, sliced=True)
    negators = (
        list(_NEGATOR.finditer(lower))
        if whole_text
        else _in_windows(_NEGATOR, lower, _ATTRIBUTE_ANCHORS, 80, 4)
    )
    for match in negators:
        start = match.start()
        scope_end = _scope_end(lower, match.end(), size)
        scope = lower[match.end() : scope_end]
        found = _kind_in(scope, postfix=False)
        if (
            found is None
            and lower.startswith(",", scope_end)
            and any(pattern.search(scope) for _, pattern in _FEE_KINDS)
        ):
            # "no annual, foreign transaction or late fees": a list inside the negation
            scope = lower[match.end() : _scope_end(lower, match.end(), size, commas=False)]
            found = _kind_in(scope, postfix=False)
        if found is None and _FEE_WORD.search(scope):
            # "Cash advances don't carry a fee": the fee's subject precedes the negation.
            back = lower[max(0, start - 40) : start]
            cuts = [m.end() for m in _POSTFIX_BACK.finditer(back)]
            subject = _kind_in(back[cuts[-1] :] if cuts else back, postfix=True)
            if subject is not None and subject[0] not in _INTRO_KINDS:
                fee = _FEE_WORD.search(scope)
                found = (subject[0], fee.end() if fee else len(scope))
        if found is None:
            # "X has no intro APR; Y does not either": the negation repeats the last one.
            if out and start - out[-1][1] < 150 and _ELLIPSIS.match(scope):
                out.append((start, match.end(), out[-1][2]))
            continue
        kind, end = found
        if (
            (match.group(0) in ("n't", "not", "never") or kind == NONE_LATE)
            and conditional_sentence(*_sentence_of(lower, start))
            and _PAY_VERB.search(scope)
        ):
            continue  # "if you pay on time, you won't pay a late fee": behaviour, not a term
        end = match.end() + end
        if kind == NONE_ANNUAL and _FIRST_YEAR.search(lower, end, min(size, end + 30)):
            kind = NONE_FIRST_YEAR
        others = _coordinated(lower, match.end(), end) if kind not in _INTRO_KINDS else []
        if others:
            # "no annual or foreign transaction fees": one negation, several fees.
            out.append((start, others[0][0], kind))
            out.extend(others)
        else:
            out.append((start, end, kind))
    postfixes = (
        list(_POSTFIX.finditer(lower))
        if whole_text
        else _in_windows(_POSTFIX, lower, POSTFIX_ANCHORS, 20, 16)
    )
    for match in postfixes:
        back = lower[max(0, match.start() - _SCOPE_CHARS) : match.start()]
        waived = match.group(0).startswith("waiv")
        # "a $95 annual fee, but it's waived the first year": "it" is the fee, so a waiver's
        # subject may sit before a contrast; other predicates stay in their clause.
        is_none_word = match.group(0).strip(" \t*").startswith(_LABEL_NONE_WORDS)
        back_cut = _LABEL_BACK if is_none_word else _SENTENCE_BACK if waived else _POSTFIX_BACK
        cuts = [m.end() for m in back_cut.finditer(back)]
        scope = back[cuts[-1] :] if cuts else back
        after = lower[match.end() : min(size, match.end() + 30)]
        found = _kind_in(scope, postfix=True)
        if found is None and waived:
            found = _kind_in(
                lower[match.end() : _scope_end(lower, match.end(), size)], postfix=True
            )
        if found is None:
            continue
        kind = found[0]
        if waived:
            if kind == NONE_ANNUAL and _FIRST_YEAR.search(after + " " + scope):
                kind = NONE_FIRST_YEAR
            elif _CONDITIONAL_WAIVER.match(after):
                continue  # "waived for students", "waived if you spend": a condition, not a term
        elif kind == NONE_ANNUAL and _FIRST_YEAR.search(after):
            kind = NONE_FIRST_YEAR
        out.append((match.start(), match.end(), kind))
    out.sort()
    return out


# Every postfix "none" form ("Annual fee: none", "fee-free", "waived") holds one of these.
POSTFIX_ANCHORS = ("free", "waiv", "none", "n/a", "nothing", "nil", "zero", "not ")
# Every scope that makes a claim names one of these; negators are looked for only before them.
ATTRIBUTE_ANCHORS = _ATTRIBUTE_ANCHORS = (
    "fee",
    "charge",
    "cost",
    "intro",
    "promo",
    "teaser",
    "penalty",
    "special",
    "0%",
    "0 %",
    "zero",
    "default",
    "either",
    "too",
    "as well",
)


def _in_windows(
    pattern: re.Pattern[str], lower: str, anchors: tuple[str, ...], before: int, after: int
) -> list[re.Match[str]]:
    """``pattern``'s matches that start within ``before`` characters before (or ``after`` after)
    an occurrence of one of ``anchors`` - found with ``str.find`` so the regex engine only runs
    on the few stretches of text that can hold a claim."""
    spans: list[tuple[int, int]] = []
    size = len(lower)
    for anchor in anchors:
        pos = lower.find(anchor)
        while pos >= 0:
            spans.append((max(0, pos - before), min(size, pos + len(anchor) + after)))
            pos = lower.find(anchor, pos + 1)
    if not spans:
        return []
    spans.sort()
    merged = [spans[0]]
    for lo, hi in spans[1:]:
        if lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    found: list[re.Match[str]] = []
    cursor = 0
    for lo, hi in merged:
        # a match may run past its window's end; search the whole text from the window start
        for match in pattern.finditer(lower, max(lo, cursor), hi):
            found.append(match)
            cursor = match.end()
    return found


def zero_interest_values(lower: str) -> list[tuple[int, int]]:
    """Spans of "no interest" / "interest-free" / "zero interest": a 0 % rate in words."""
    return [m.span() for m in _in_windows(_ZERO_INTEREST, lower, ("interest",), 10, 8)]


_ZERO_INTEREST = re.compile(
    r"\binterest[ \t-]{1,2}free\b|\b(?:no|zero|without|0)[ \t]{1,3}(?:%[ \t]{0,2})?interest\b"
    r"|\bfree[ \t]{1,3}of[ \t]{1,3}interest\b"
)
