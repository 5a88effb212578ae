"""Attribution: which card(s) each figure of a response is about, and how sure the text makes it.

The nearest card named before the figure in its clause (or all cards of an "X and Y" subject),
else one named in its clause, else - for "both cards" / "all three cards" - the last two / three
cards named, else the card of its unit, else the card the text was last talking about, else the
only card the response names. Sentences about cards in general ("most cards charge ...")
attribute to nothing. The binding says how the cards were found (see ``Claim.binding``).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention
from replicas.verifiers.compliance.units import MentionIndex, Unit

UNION = "union"
BINDINGS = frozenset(
    {"", "cell", "clause", "unit", "context", "collective", "respectively", "only", UNION}
)


def _group_of(lower: str, unit_mentions: Sequence[NameMention], index: int) -> list[NameMention]:
    """The mention at ``index`` plus any joined to it by "and"/","/"or" ("X and Y both ...")."""
    group = [unit_mentions[index]]
    i = index
    while i > 0:
        gap = lower[unit_mentions[i - 1].end : unit_mentions[i].start]
        # The link next to the figure's card needs a conjunction ("X and Y"); "Unlike X, the Y"
        # names Y alone. Links further back may be commas ("X, Y and Z").
        if not lex.NAME_JOINER.match(gap) or (i == index and not _CONJUNCTION.search(gap)):
            break
        group.insert(0, unit_mentions[i - 1])
        i -= 1
    return group


_CONJUNCTION = re.compile(r"\b(?:and|or|as[ \t]well[ \t]as)\b|&")


def cards_of(mentions: Sequence[NameMention]) -> tuple[str, ...]:
    """Card ids of mentions; an unknown product contributes nothing (its claims are unverifiable)."""
    seen: list[str] = []
    for mention in mentions:
        if mention.card_id is not None and mention.card_id not in seen:
            seen.append(mention.card_id)
    return tuple(seen)


class Context:
    """The cards the text was talking about before a unit: those named by the last unit (or
    table) that names any."""

    __slots__ = ("_cells", "_index", "_memo", "_spans", "_starts")

    def __init__(
        self,
        spans: Sequence[tuple[int, int]],
        cells: dict[int, Unit],
        starts: Sequence[int],
        index: MentionIndex,
    ) -> None:
        self._spans = spans
        self._cells = cells
        self._starts = starts
        self._index = index
        self._memo: dict[int, tuple[str, ...]] = {}

    def before(self, pos: int) -> tuple[str, ...]:
        """Distinct cards of the last unit before ``pos`` that names a card (an unknown
        product names none: what follows it is about no catalog card)."""
        upto = bisect_left(self._index.starts, pos)
        if upto == 0:
            return ()
        last = self._index.all[upto - 1]
        k = bisect_right(self._starts, last.start) - 1
        if k < 0:
            return ()
        cached = self._memo.get(k)
        if cached is not None:
            return cached
        cell = self._cells.get(k)
        lo, hi = cell.block if cell is not None and cell.block is not None else self._spans[k]
        found = cards_of(self._index.within(lo, min(hi, pos)))
        if any(m.kind == UNKNOWN for m in self._index.within(lo, min(hi, pos))) and not found:
            found = ()
        self._memo[k] = found
        return found


# A figure followed by the card it is about: "$150 for the Summit Cash Preferred".
_ATTACHED_AFTER = re.compile(
    r"[ \t]{0,3}(?:(?:a|per|each|every)[ \t]{1,3}year|annually|yearly|/yr|/year)?[ \t,]{0,3}"
    r"(?:for|on|with|from|at|of)[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*)?#"
)


class Binder:
    """Which card(s) each figure of one unit is about, and how sure the text makes that."""

    __slots__ = (
        "_clauses",
        "_context",
        "_ends",
        "_index",
        "_joint",
        "_masked",
        "_mentions",
        "_neither",
        "_only",
        "_plain",
        "_starts",
        "_unit",
        "_unit_cards",
    )

    def __init__(
        self,
        masked: str,
        unit: Unit,
        unit_mentions: Sequence[NameMention],
        index: MentionIndex,
        context: Context,
        only: tuple[str, ...],
        joint_subjects: bool = False,
        neither_nor: bool = False,
    ) -> None:
        self._masked = masked
        # ruleset 5: "Neither X nor Y has ..." - the negator before both names - is about each
        self._neither = neither_nor
        # ruleset 4: "both X and Y", "neither X nor Y" make a figure a claim about each
        self._joint = joint_subjects
        self._unit = unit
        self._mentions = unit_mentions
        self._index = index
        self._context = context
        self._only = only
        self._clauses: list[int] | None = None
        self._ends: list[int] | None = None
        self._starts: list[int] = []
        self._unit_cards: tuple[str, ...] | None = None
        # the binding of every figure of a unit naming no card (the same for all of them)
        self._plain: tuple[tuple[str, ...], str] | None = None

    def _cut_ends(self) -> list[int]:
        if self._clauses is None:
            unit = self._unit
            self._clauses = [
                m.end() for m in lex.CONTRAST_CUT.finditer(self._masked, unit.start, unit.end)
            ]
        return self._clauses

    def _cuts_before(self, pos: int) -> int | None:
        """The end of the last contrast cut of the unit's text up to ``pos``: what the last
        match of ``CONTRAST_CUT.finditer(masked, unit.start, pos)`` gives, without scanning the
        unit from its start for every figure. The unit's cuts ending before ``pos`` are the same
        in both scans (no alternative of the pattern holds another at a later word of it); one
        ending at ``pos`` exactly (its word boundary read at the end of the shortened text) is
        found by scanning the last few characters, a cut being at most 20 long."""
        cuts = self._cut_ends()
        k = bisect_left(cuts, pos)
        last = cuts[k - 1] if k else None
        tail = max(self._unit.start, last if last is not None else 0, pos - _LONGEST_CUT)
        for m in lex.CONTRAST_CUT.finditer(self._masked, tail, pos):
            if m.end() == pos:
                return pos
        return last

    def _clause(self, pos: int) -> tuple[int, int]:
        cuts = self._cut_ends()
        i = bisect_right(cuts, pos)
        lo = cuts[i - 1] if i else self._unit.start
        hi = cuts[i] if i < len(cuts) else self._unit.end
        return lo, hi

    def bind(self, start: int, end: int) -> tuple[tuple[str, ...], str]:
        unit = self._unit
        if unit.cards is not None:
            return unit.cards, "cell" if len(unit.cards) <= 1 else UNION
        mentions = self._mentions
        if not mentions:
            if self._plain is None:
                self._plain = self._bind_plain(start)
            return self._plain
        masked = self._masked
        lo, hi = self._clause(start)
        attached = _ATTACHED_AFTER.match(masked, end, min(hi, end + 40))
        if attached is not None:
            hit = self._index.within(attached.end() - 1, attached.end())
            if hit and hit[0].card_id is not None:
                return (hit[0].card_id,), "clause"
        # the last mention before the figure in its clause, among those before the first one
        # that ends past it (bisected: a long unit names cards thousands of times)
        if self._ends is None:
            self._ends = list(itertools.accumulate((m.end for m in mentions), max))
            self._starts = [m.start for m in mentions]
        cut = bisect_right(self._ends, start)
        last = cut - 1 if cut and lo <= mentions[cut - 1].start else -1
        if last >= 0:
            group = _group_of(masked, mentions, last)
            cards = cards_of(group)
            if len(cards) <= 1:
                return cards, "clause"
            both = _collective(masked[lo:hi])
            if both is None and self._joint and _JOINT.search(masked, lo, start):
                both = 0
            return cards, "collective" if both is not None else UNION
        starts = self._starts
        in_clause = mentions[bisect_left(starts, lo) : bisect_left(starts, hi)]
        if in_clause:
            cards = cards_of(in_clause)
            if len(cards) > 1 and self._neither and _neither_nor(masked, start, in_clause):
                return cards, "collective"
            return cards, "clause" if len(cards) == 1 else UNION
        if _generic(masked[lo:hi]):
            return (), ""
        subject = _clause_collective(
            masked, start, unit, mentions, self._index, self._cuts_before(start), starts
        )
        if subject is not None:
            return subject, "collective"
        if self._unit_cards is None:
            self._unit_cards = cards_of(mentions)
        cards = self._unit_cards
        return cards, "unit" if len(cards) <= 1 else UNION

    def _bind_plain(self, start: int) -> tuple[tuple[str, ...], str]:
        """A unit naming no card: generic, a collective subject, the card(s) the text was
        talking about, or the one card the response names."""
        unit = self._unit
        unit_text = self._masked[unit.start : unit.end]
        if _generic(unit_text):
            return (), ""
        count = _collective(unit_text)
        if count is not None:
            upto = bisect_right(self._index.starts, start)
            named = cards_of([m for m in reversed(self._index.all[:upto]) if m.kind != UNKNOWN])
            return (named[:count] if count else named), "collective"
        cards = self._context.before(unit.start)
        if cards:
            return cards, "context" if len(cards) == 1 else UNION
        if self._only and not self._index.all[: bisect_left(self._index.starts, unit.start)]:
            return self._only, "only"
        return (), ""


# "neither (the) X nor (the) Y", "not X or Y either": a negated subject naming several cards
_NEITHER_HEAD = re.compile(r"\bneither[ \t]{1,3}(?:the[ \t]{1,3}|of[ \t]{1,3})?(?:\*\*)?$")
_NOR_JOIN = re.compile(
    r"[ \t]{0,3}(?:\*\*)?[ \t]{0,3},?[ \t]{0,3}nor[ \t]{1,3}(?:the[ \t]{1,3})?(?:\*\*)?$"
)


def _neither_nor(masked: str, start: int, named: Sequence[NameMention]) -> bool:
    """The figure at ``start`` (a "no fee" read from "Neither") has the joined cards after it
    as its subject: "Neither the X nor the Y has an annual fee" (ruleset 5)."""
    first = named[0]
    if not _NEITHER_HEAD.search(masked, max(0, start), first.start):
        return False
    return all(
        _NOR_JOIN.match(masked, a.end, b.start) is not None
        for a, b in itertools.pairwise(named)
        if a.card_id != b.card_id
    )


def _generic(text: str) -> bool:
    """A sentence about cards in general ("most cards charge ...") is about no card."""
    return "card" in text and bool(lex.GENERIC_SUBJECT.search(text))


# "both the X and the Y", "neither X nor Y", "X and Y both/each": the joined cards each
# (ruleset 4).
_JOINT = re.compile(r"\b(?:both|neither|each)\b")

# the longest text CONTRAST_CUT matches ("as   opposed   to")
_LONGEST_CUT = 24

# "both" opening a clause is its subject ("...; both then go to 19.99%").
_BOTH_FIRST = re.compile(r"[ \t]{0,3}(?:and[ \t]{1,3})?both\b")


def _clause_collective(
    lower: str,
    pos: int,
    unit: Unit,
    unit_mentions: Sequence[NameMention],
    mentions: MentionIndex,
    clause_start: int | None,
    unit_starts: Sequence[int],
) -> tuple[str, ...] | None:
    """ "...; both then go to 19.99%": a collective subject in the figure's own clause (after the
    last contrast before it, ending at ``clause_start``; ``unit_starts``: the unit mentions'
    starts) that names no card covers the cards named before it."""
    if not unit_mentions:
        return None  # the unit-level rule covers a unit naming no card
    if clause_start is None:
        return None
    if bisect_left(unit_starts, clause_start) < bisect_left(unit_starts, pos):
        return None  # a card named in the clause before the figure
    clause = lower[clause_start:pos]
    count = 2 if _BOTH_FIRST.match(clause) else _collective(clause)
    if count is None:
        return None
    # an unknown product names no card, so it adds nothing here
    named = mentions.recent_cards(bisect_right(mentions.starts, pos))
    return named[:count] if count else named


# Every quantifier ``lex.COLLECTIVE_SUBJECT`` starts with contains one of these ("neither" holds
# "either"); a unit without them needs no search.
_COLLECTIVE_WORDS = ("all", "both", "each", "every", "either")


def _collective(unit_text: str) -> int | None:
    """ "all three cards", "both cards": the last N cards named (0: every card so far; None: the
    unit has no collective subject)."""
    if not any(word in unit_text for word in _COLLECTIVE_WORDS):
        return None
    subject = lex.COLLECTIVE_SUBJECT.search(unit_text)
    return (lex.collective_count(subject) or 0) if subject and _is_collective(subject) else None


def _is_collective(match: re.Match[str]) -> bool:
    """A quantifier with a noun ("both cards", "all three") rather than "both" alone."""
    text = match.group(0)
    return bool(match.group("n")) or text.rstrip().endswith(
        ("card", "cards", "options", "products", "them")
    )
