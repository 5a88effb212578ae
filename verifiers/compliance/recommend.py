"""Which cards a response recommends and which it rules out (for the eligibility and
disclosure rules).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.claims import Extraction
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.recommend_more import lead_more, name_led

_LIST_ITEM = re.compile(r"(?:[-*•+]|\d{1,2}[.)])\s")
_LIST_ITEM_AT = re.compile(r"\s*(?:[-*•+]|\d{1,2}[.)])\s")  # after the unit's leading blanks


@dataclass(frozen=True)
class Recommendations:
    """Cards the response puts forward as suitable, and cards it explicitly rules out."""

    positive: dict[str, NameMention]
    negated: frozenset[str]


def find_recommendations(
    lower: str, extraction: Extraction, more: bool | int = False
) -> Recommendations:
    """Recommended and ruled-out cards, read clause by clause in the units that name a card.

    A mention is ruled out when its clause negates ("you don't qualify for X") or a contrast
    word precedes it in the clause ("X over Y"), else recommended when its clause recommends or
    it is a list item under a recommending lead-in ("Top picks for you:" - the nearest non-empty
    unit before it that is not itself a list item). Only units with a card mention are read, and
    a clause is searched only for what its mentions need, once. ``more``: ruleset 4's further
    recommending phrases (``lex.RECOMMEND_MORE``, ``lex.IMPERATIVE_RECOMMEND``); ``more=2``:
    ruleset 5's as well (an imperative after a sentence adverb: "honestly, just get the X");
    ``more=3``: ruleset 7's as well (``lex.RECOMMEND_7``; "why not try X?" rules nothing out).
    """
    positive: dict[str, NameMention] = {}
    negated: set[str] = set()
    mentions = [m for m in extraction.mentions if m.card_id is not None]
    if not mentions:
        return Recommendations(positive, frozenset(negated))
    units = extraction.units
    unit_starts = [u[0] for u in units]
    by_unit: dict[int, list[NameMention]] = {}
    for mention in mentions:
        k = bisect_right(unit_starts, mention.start) - 1
        if k >= 0 and mention.start < units[k][1]:
            by_unit.setdefault(k, []).append(mention)
    leads: dict[int, bool] = {}
    led = (
        {k for k, ms in by_unit.items() if name_led(lower, units[k][0], ms[0].start)}
        if more
        else set()
    )
    named = set(by_unit)
    # the card names blanked out: "Summit Best Rewards" recommends nothing by its name
    text = extraction.masked or lower
    for k, unit_mentions in by_unit.items():
        unit_start, unit_end = units[k]
        unit_text = text[unit_start:unit_end]
        verdicts = unit_verdicts(
            unit_text, tuple(m.start - unit_start for m in unit_mentions), more
        )
        if more:
            # ruleset 4: items led by a card name, leads without a colon, questions (looked for
            # only when a mention's own clause leaves it open)
            is_item = NEITHER in verdicts and (
                k in led or _LIST_ITEM_AT.match(text, unit_start, unit_end) is not None
            )
            list_lead = is_item and lead_more(text, units, k, leads, led, named)
        else:
            is_item = _LIST_ITEM_AT.match(text, unit_start, unit_end) is not None
            list_lead = is_item and _list_lead(lower, units, k, leads)
        for mention, verdict in zip(unit_mentions, verdicts, strict=True):
            assert mention.card_id is not None
            if verdict == RULED_OUT:
                negated.add(mention.card_id)
            elif verdict == RECOMMENDED or list_lead:
                positive.setdefault(mention.card_id, mention)
    return Recommendations(positive, frozenset(negated))


# Ruleset 5: the imperative after a sentence adverb or two ("honestly, just get the X", "tbh
# go for the X", "so really, grab the X")
_IMPERATIVE_5 = re.compile(
    r"[\s,;:*>#\-.!]*(?:(?:honestly|seriously|really|personally|frankly|tbh|imo|in[ \t]short"
    r"|ok(?:ay)?|well|so|then)[ \t,]{1,3}){1,2}" + lex.IMPERATIVE_RECOMMEND.pattern
)
RULED_OUT, RECOMMENDED, NEITHER = 1, 2, 0
_VERDICTS: dict[tuple[str, tuple[int, ...], bool | int], tuple[int, ...]] = {}
_VERDICTS_LIMIT = 50_000
# how far before a mention its clause is searched for a contrast word ("but", "instead of"): a
# clause of real prose is far shorter; a text that repeats a name in one endless clause was
# searched again from the clause's start per mention (quadratic: 1.7 s per 100 KB)
_CONTRAST_REACH = 2_000


def unit_verdicts(
    unit_text: str, starts: tuple[int, ...], more: bool | int = False
) -> tuple[int, ...]:
    """What the clause of each mention (at ``starts`` in ``unit_text``) says of its card:
    ``RULED_OUT``, ``RECOMMENDED`` or ``NEITHER``. A function of the unit's text alone, cached
    (phrasing repeats across responses)."""
    key = (unit_text, starts, more)
    found = _VERDICTS.get(key)
    if found is None:
        clauses = _ClauseScan(unit_text, 0, len(unit_text), more)
        out = []
        for start in starts:
            c_start, c_end = clauses.around(start)
            if clauses.negates(c_start, c_end) or clauses.contrasts(
                max(c_start, start - _CONTRAST_REACH), start
            ):
                out.append(RULED_OUT)
            elif clauses.recommends(c_start, c_end):
                out.append(RECOMMENDED)
            else:
                out.append(NEITHER)
        found = tuple(out)
        if len(unit_text) <= 2_000:
            if len(_VERDICTS) >= _VERDICTS_LIMIT:
                _VERDICTS.clear()
            _VERDICTS[key] = found
    return found


class _ClauseScan:
    """One unit cut into clauses at ``lex.CLAUSE_BOUNDARY``; each clause is searched for a
    negation or a recommendation only when a mention in it asks, and at most once."""

    __slots__ = ("_cuts", "_end", "_lower", "_memo", "_more", "_start")

    def __init__(self, lower: str, start: int, end: int, more: bool | int = False) -> None:
        self._lower = lower
        self._more = more
        self._start, self._end = start, end
        self._cuts = [m.start() for m in lex.CLAUSE_BOUNDARY.finditer(lower, start, end)]
        self._memo: dict[tuple[int, int, int], bool] = {}

    def around(self, pos: int) -> tuple[int, int]:
        """The clause ``[start, end)`` holding ``pos``."""
        i = bisect_right(self._cuts, pos)
        start = self._cuts[i - 1] if i else self._start
        end = self._cuts[i] if i < len(self._cuts) else self._end
        return start, end

    def _search(self, which: int, pattern: re.Pattern[str], start: int, end: int) -> bool:
        key = (which, start, end)
        found = self._memo.get(key)
        if found is None:
            # search(string, pos, endpos) sees the clause as the whole string would, except
            # that "\b" and lookbehinds may look one character past its edges - harmless here:
            # the clause edges are punctuation, blanks or clause words
            found = self._memo[key] = pattern.search(self._lower, start, end) is not None
        return found

    def negates(self, start: int, end: int) -> bool:
        if not self._more:
            return self._search(0, lex.NEGATION, start, end)
        key = (0, start, end)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._rules_out(start, end)
        return found

    def _rules_out(self, start: int, end: int) -> bool:
        """Ruleset 4: a negation of the clause that is not a double negative, a hedge or a
        negated term ("it doesn't charge an annual fee")."""
        lower = self._lower
        negations = list(lex.NEGATION.finditer(lower, start, end))
        if not negations:
            return False
        kept = [
            (m.start(), m.end()) for m in lex.NEGATION_NOT_RULING_OUT.finditer(lower, start, end)
        ]
        if self._more >= 3:
            kept += [(m.start(), m.end()) for m in lex.NOT_RULING_OUT_7.finditer(lower, start, end)]
        return any(not any(a <= m.start() < b for a, b in kept) for m in negations)

    def recommends(self, start: int, end: int) -> bool:
        if not self._more:
            return self._search(1, lex.RECOMMEND, start, end)
        if self._search(1, lex.RECOMMEND_MORE, start, end):
            return True
        if (
            self._more >= 3
            and "?" not in self._lower[start : self._end]
            and self._search(4, lex.RECOMMEND_7, start, end)
        ):
            return True  # (ruleset 7's words in a question ask: "Is the X right for you?")
        key = (3, start, end)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = lex.IMPERATIVE_RECOMMEND.match(
                self._lower, start, end
            ) is not None or (
                self._more >= 2 and _IMPERATIVE_5.match(self._lower, start, end) is not None
            )
        return found

    def contrasts(self, start: int, end: int) -> bool:
        return self._search(2, lex.CONTRAST_MORE if self._more else lex.CONTRAST, start, end)


def _list_lead(lower: str, units: Sequence[tuple[int, int]], k: int, memo: dict[int, bool]) -> bool:
    """Whether the list item ``units[k]`` sits under a recommending lead-in ("Top picks:").

    ``memo[j]`` is the answer of the walk back that starts at unit ``j``; every unit a walk
    passes is memoised, so a long list costs one walk in all.
    """
    passed: list[int] = []
    lead = False
    j = k - 1
    while j >= 0:
        if j in memo:
            lead = memo[j]
            break
        passed.append(j)
        unit_text = lower[units[j][0] : units[j][1]].strip()
        if unit_text and not _LIST_ITEM.match(unit_text):
            lead = (
                (unit_text.endswith(":") or unit_text.startswith("#"))
                and bool(lex.RECOMMEND.search(unit_text))
                and not lex.NEGATION.search(unit_text)
            )
            break
        j -= 1
    for j in passed:
        memo[j] = lead
    return lead
