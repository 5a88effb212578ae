"""Deterministic claim extraction: which card a response says has which term.

A *claim* is a number with ``%`` near an APR word, a dollar amount near a fee word, or a "no
annual fee" style statement, typed by the cue words around it and attributed to a card.

Inside a unit (a sentence, list item or table cell, see ``units``) every figure gets a
*window*: the text from the previous figure to the next, split at the last clause boundary
between them (a comma, "and", "then", ...). The window's cue words type the figure -
"19.99%-29.99% variable APR on purchases" is a purchase APR, "0% intro APR on balance transfers
for 18 months" an intro offer with its months, "then 19.99%" the rate after it, "3% of each
transfer (min $5)" a balance transfer fee with its dollar minimum. A window that names no term
falls back to the whole stretch between the neighbouring figures, then to the unit's lead-in
("APRs: purchases 19.99%, cash advances 29.99%"); coordinated figures ("$95 and $150") share a
type.

Attribution: the nearest card named before the figure in its unit (or all cards of an "X and Y"
subject), else the first named after it in the unit, else - for "both cards" / "all three
cards" - the last two / three cards named, else the card the text was last talking about, else
the only card the response names. "..., respectively" pairs figures with cards in order.
Sentences about cards in general ("most cards charge ...") attribute to nothing, and a quoted
figure in a sentence that reports or corrects it ("the draft says \"$50 annual fee\", which is
wrong") is not the response's own claim.

Here: the ``Claim`` and ``Extraction`` types and ``extract``, which reads each unit
(``reading``: windows, typing, coordination) and binds its figures to cards (``attribution``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any

from replicas.verifiers.compliance import cue_words
from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.attribution import (
    BINDINGS,
    UNION,
    Binder,
    Context,
    cards_of,
)
from replicas.verifiers.compliance.claim_types import (
    APR_CLAIM,
    FEE_CLAIM,
    INTRO_CLAIM,
    Draft,
)
from replicas.verifiers.compliance.mentions import UNKNOWN, NameMention
from replicas.verifiers.compliance.reading import (
    label_separators,
    mask_names,
    read_unit,
    readings_cache,
)
from replicas.verifiers.compliance.ruleset import RULESETS, Ruleset
from replicas.verifiers.compliance.ruleset8 import positional_subject
from replicas.verifiers.compliance.ruleset28 import fee_phrases_28
from replicas.verifiers.compliance.units import CueIndex, MentionIndex, Unit, ranked, unit_spans
from replicas.verifiers.compliance.values import Durations

__all__ = ["Claim", "Extraction", "extract", "unbind_claims"]


@dataclass(frozen=True)
class Claim:
    """A typed, attributed statement about one or more cards' terms."""

    family: str
    kind: str
    start: int
    end: int
    unit: str
    low: float | None = None
    high: float | None = None
    min_usd: float | None = None
    months: int | None = None
    scopes: frozenset[str] = frozenset()
    variability: str | None = None  # "variable" | "fixed" when the text says so
    is_none: bool = False
    cards: tuple[str, ...] = ()
    text: str = ""
    # The terms the figure may be about: the words around it named one ({kind}) or left several
    # open (a fee figure with no fee word next to it may be any fee of the card). Empty: {kind}.
    kinds: frozenset[str] = frozenset()
    # How ``cards`` were found: "cell" (a table row or column), "clause" (a card named in the
    # figure's own clause), "unit" (its sentence or list item names one card), "context" (the card
    # the text was last talking about), "collective" ("both cards"), "respectively", "only" (the
    # one card the response names) - or "union": several cards could be meant and the figure
    # only has to be right for one of them.
    binding: str = ""

    def __post_init__(self) -> None:
        if self.family not in (APR_CLAIM, INTRO_CLAIM, FEE_CLAIM):
            raise ValueError(f"unknown claim family {self.family!r}")
        if self.binding not in BINDINGS:
            raise ValueError(f"unknown claim binding {self.binding!r}")

    @property
    def any_card(self) -> bool:
        """The figure is right when it is right for any one of its cards (binding ambiguous)."""
        return self.binding == UNION

    @property
    def certain(self) -> bool:
        """Bound to exactly one card by the text's own structure (disclosure rules need this)."""
        return len(self.cards) == 1 and self.binding in _CERTAIN_BINDINGS

    @property
    def admissible(self) -> frozenset[str]:
        return self.kinds or frozenset((self.kind,))


_CERTAIN_BINDINGS = frozenset({"cell", "clause", "unit", "context", "respectively", "only"})


# Every field in declaration order (required ones as placeholders every draft overwrites), so a
# claim's ``__dict__`` reads as if built by its ``__init__``.
_CLAIM_TEMPLATE: dict[str, Any] = {
    f.name: None if f.default is MISSING else f.default for f in fields(Claim)
}


def _claim(draft: Draft, cards: tuple[str, ...], text: str) -> Claim:
    """``Claim(**draft, cards=cards, text=text)`` at a third of the cost.

    A frozen dataclass sets each of its fourteen fields through ``object.__setattr__``; a
    response makes dozens of claims, so the extractor fills the instance dictionary in one step
    instead. The result is the same object (fields, equality, hash, repr) and is still validated.
    """
    values = _CLAIM_TEMPLATE.copy()
    values.update(draft)
    values["cards"] = cards
    values["text"] = text
    claim = object.__new__(Claim)
    object.__setattr__(claim, "__dict__", values)
    claim.__post_init__()
    return claim


@dataclass(frozen=True)
class Extraction:
    claims: tuple[Claim, ...]
    mentions: tuple[NameMention, ...]
    units: tuple[tuple[int, int], ...]
    # every dollar amount and percentage range of the text, and the durations of each unit that
    # holds a figure (start of the unit -> months), whatever they were typed as
    amounts: tuple[float, ...] = ()
    ranges: tuple[tuple[float, float], ...] = ()
    unit_months: dict[int, tuple[int, ...]] = field(default_factory=dict)
    masked: str = ""  # the lower-cased text with card names blanked out

    def months_in_unit(self, pos: int) -> tuple[int, ...]:
        k = bisect_right(self.units, (pos, 1 << 62)) - 1
        if k < 0:
            return ()
        return self.unit_months.get(self.units[k][0], ())

    def states_range(self, low: float | None, high: float | None) -> bool:
        """Whether the text states this percentage range anywhere (a purchase APR is the only
        range a card has, so a range is that APR whatever the words around it)."""
        if low is None or high is None or low == high:
            return False
        return any(abs(a - low) <= 0.005 and abs(b - high) <= 0.005 for a, b in self.ranges)


# -- attribution -----------------------------------------------------------------------------


def extract(
    text: str, lower: str, mentions: Sequence[NameMention], rules: Ruleset = RULESETS[3]
) -> Extraction:
    """Every claim of the response, typed and attributed.

    Each unit (sentence, list item, table cell) is read on its own (``read_unit``); figures are
    then bound to cards, which needs the whole response. ``rules`` switches on later rulesets'
    readings (the default is the frozen ruleset 3).
    """
    masked = label_separators(mask_names(lower, mentions))
    index = MentionIndex(mentions)
    cue_index = CueIndex(masked, ())
    # "Late fee ... none": the label's dots are no sentence end either
    spans, cells = unit_spans(label_separators(text), cue_index, index)
    unit_starts = [start for start, _ in spans]
    named = [m for m in mentions if m.kind != UNKNOWN]
    distinct_cards = cards_of(named)
    only = distinct_cards if len(distinct_cards) == 1 and len(named) == len(mentions) else ()
    context = Context(spans, cells, unit_starts, index)
    claims: list[Claim] = []
    months_of: dict[int, tuple[int, ...]] = {}
    amounts: list[float] = []
    ranges: list[tuple[float, float]] = []
    answers = "?" in masked
    more = rules.more_fee_negations
    r5 = rules.fee_forms_5
    r6 = rules.on_time_condition
    readings = readings_cache(more, r5, r6)
    for k, (unit_start, unit_end) in enumerate(spans):
        unit_text = masked[unit_start:unit_end]
        cell = cells.get(k) if cells else None
        if cell is not None:
            lent_key = tuple(cell.context_cues)
            reading = readings.get((unit_text, lent_key)) or read_unit(
                unit_text, lent_key, True, more, r5, r6
            )
        elif answers and k and _ANSWER.match(unit_text):
            q_start, q_end = spans[k - 1]
            lent_key = ()
            if masked[q_start:q_end].rstrip().endswith("?"):
                # "Is there a promo on purchases? Yes: 1.99% APR ...": the question types the
                # answer
                lent_key = ranked(cue_index.within(q_start, q_end))
            reading = readings.get((unit_text, lent_key)) or read_unit(
                unit_text, lent_key, False, more, r5, r6
            )
        else:
            reading = readings.get((unit_text, ())) or read_unit(unit_text, (), False, more, r5, r6)
        if not reading.values:
            continue
        amounts += reading.amounts
        ranges += reading.ranges
        drafts = reading.drafts
        if (
            rules.fee_phrases_28
            and None in drafts
            and ("fee" in unit_text or "charge" in unit_text)
        ):
            drafts = fee_phrases_28(unit_text, reading.values, drafts)
        if not any(drafts):
            continue
        unit = cell or Unit(unit_start, unit_end)
        unit_mentions = index.within(unit_start, unit_end)
        binder = Binder(
            masked,
            unit,
            unit_mentions,
            index,
            context,
            only,
            rules.joint_subjects,
            rules.neither_nor,
        )
        unit_claims: list[Claim] = []
        subject = (
            positional_subject(masked, unit_start, unit_end, mentions)
            if rules.positional_subjects_8 and not unit_mentions and cell is None
            else None
        )
        for value, draft in zip(reading.values, drafts, strict=True):
            if draft is None:
                continue
            if subject is not None:
                cards, binding = subject, "unit"
            else:
                cards, binding = binder.bind(value.start + unit_start, value.end + unit_start)
            for part in draft.get("split", [draft]):
                start, end = part["start"] + unit_start, part["end"] + unit_start
                unit_claims.append(
                    _claim(
                        {**part, "start": start, "end": end, "binding": binding},
                        cards,
                        text[start:end],
                    )
                )
        if rules.topic_scopes_7 and cell is None and unit_claims:
            if any(_unscoped_intro(c) for c in unit_claims):
                asked: Sequence[tuple[str, int]] = ()
                if k and masked[spans[k - 1][0] : spans[k - 1][1]].rstrip().endswith("?"):
                    asked = cue_index.within(*spans[k - 1])
                cues = cue_index.within(unit_start, unit_end)
                unit_claims = _topic_scopes(unit_claims, cues, asked)
            if sum(c.family == INTRO_CLAIM and c.months is not None for c in unit_claims) > 1:
                unit_claims = _own_months(unit_claims, unit_text, unit_start, rules.own_months_8)
        if unit_claims and "respectively" in unit_text and lex.RESPECTIVELY.search(unit_text):
            unit_claims = _respectively(
                unit_claims, unit_mentions, index, unit_start, rules.respectively_18
            )
        claims.extend(unit_claims)
        if reading.months and len(cards_of(unit_mentions)) <= 1:
            months_of[unit_start] = reading.months
    return Extraction(
        tuple(claims),
        tuple(mentions),
        tuple(spans),
        tuple(amounts),
        tuple(ranges),
        months_of,
        masked,
    )


_TOPIC_SCOPES = {cue_words.BT: "bt", cue_words.PURCHASE: "purchase"}


def _unscoped_intro(claim: Claim) -> bool:
    """An intro rate its own clause does not scope: the only claim ``_topic_scopes`` changes
    (a unit without one needs no cue words read)."""
    return claim.family == INTRO_CLAIM and claim.kind == "any" and not claim.is_none


def _topic_scopes(
    claims: list[Claim], cues: Sequence[tuple[str, int]], asked: Sequence[tuple[str, int]] = ()
) -> list[Claim]:
    """Ruleset 7: an intro rate its own clause does not scope takes the one kind of balance its
    sentence named before it ("For balance transfers, though, the X wins: 0% for 12 months";
    "Both have transfer offers: the X at 0% for 18 months, the Y at 0% for 12 months") or, when
    its sentence named none before it, the question right before the sentence ("Got a balance to
    move? You'd pay 0% on it for 18 months"). Both kinds named scope nothing."""
    out = []
    # where each kind of balance is first named: the kinds named before a figure, in time
    # bounded by the kinds (a long unit holds thousands of cues and figures)
    first: dict[str, int] = {}
    for c, pos in cues:
        if c in _TOPIC_SCOPES:
            kind = _TOPIC_SCOPES[c]
            first[kind] = min(pos, first.get(kind, pos))
    for claim in claims:
        if _unscoped_intro(claim):
            kinds = {kind for kind, pos in first.items() if pos < claim.start}
            if not kinds:
                kinds = {_TOPIC_SCOPES[c] for c, _ in asked if c in _TOPIC_SCOPES}
            if len(kinds) == 1:
                (kind,) = kinds
                claim = replace(claim, kind=kind, scopes=frozenset(kinds))
        out.append(claim)
    return out


def _own_months(
    claims: list[Claim], unit_text: str, unit_start: int, own_8: bool = False
) -> list[Claim]:
    """Ruleset 7: a duration belongs to the intro rate it follows. "0% on purchases for 12
    months and 1.99% on balance transfers, then ..." states the transfer offer without its
    months; ruleset 3 lent it the purchase offer's 12 (and reported wrong terms). A rate with no
    duration after it keeps a duration before it only if no rate of another offer stands between
    ("For 15 months, purchases are 0% and transfers 1.99%" shares its months). ``own_8``
    (ruleset 8): a duration before the rate that follows another duration after the owner's
    rate is this rate's ("0% on purchases for 15 months, and transfers run 12 months at 0%"):
    the owner has its own."""
    durations = [
        (a + unit_start, b + unit_start, n)
        for a, b, n in Durations(unit_text).within(0, len(unit_text))
    ]
    intros = [c for c in claims if c.family == INTRO_CLAIM and not c.is_none]
    # "a duration starts at or after the claim's end" is "the last-starting one does": read once,
    # not per claim (one run-on sentence of offers was quadratic: 14 s of 18 s for 500 KB)
    last_start = max((d[0] for d in durations), default=-1)
    out = []
    for claim in claims:
        if (
            claim.family == INTRO_CLAIM
            and not claim.is_none
            and claim.months is not None
            and claim.scopes
            and not last_start >= claim.end
        ):
            before = [d for d in durations if d[1] <= claim.start]
            if before and before[-1][2] == claim.months:
                owners = [o for o in intros if o.end <= before[-1][0]]
                owner = owners[-1].scopes if owners else frozenset()
                if own_8 and owners:
                    owner_end = owners[-1].end
                    if any(owner_end <= d[0] and d[1] <= before[-1][0] for d in durations):
                        owner = frozenset()  # the owner's own duration lies between
                if owner and owner != claim.scopes:
                    # the owner's kind word lies in the owner's clause, not this rate's
                    own = claim.scopes - owner if claim.scopes > owner else claim.scopes
                    claim = replace(claim, months=None, scopes=own, kind="+".join(sorted(own)))
        out.append(claim)
    return out


_ANSWER = re.compile(r"[ \t>*-]{0,4}(?:yes|yep|yeah|sure|absolutely|indeed|no|nope)\b")


def _respectively(
    claims: list[Claim],
    unit_mentions: Sequence[NameMention],
    index: MentionIndex,
    start: int,
    after_18: bool = False,
) -> list[Claim]:
    """ "... APRs are 19.99% and 14.24%, respectively": the n-th figure of a kind goes to the n-th
    card named (in the sentence, else the last cards named before it, in text order).
    ``after_18`` (ruleset 18): with no card named before the first figure, the cards named after
    the last one ("24.74% and 24.24% for the A and B respectively"), when there are n."""
    by_kind: dict[tuple[str, str], list[int]] = {}
    for i, claim in enumerate(claims):
        by_kind.setdefault((claim.family, claim.kind), []).append(i)
    out = list(claims)
    for positions in by_kind.values():
        n = len(positions)
        if n < 2:
            continue
        cards = list(cards_of([m for m in unit_mentions if m.end <= claims[positions[0]].start]))
        if after_18 and not cards:
            last = claims[positions[-1]].end
            cards = list(cards_of([m for m in unit_mentions if m.start >= last]))
        if len(cards) != n:
            before = index.all[: bisect_left(index.starts, start)]
            recent = list(cards_of([m for m in reversed(before) if m.kind != UNKNOWN]))[:n]
            cards = recent[::-1]
        if len(cards) != n:
            continue
        for position, card_id in zip(positions, cards, strict=True):
            out[position] = replace(claims[position], cards=(card_id,), binding="respectively")
    return out


def unbind_claims(
    extraction: Extraction, readings: Sequence[Callable[[Claim, str], bool]]
) -> Extraction:
    """The extraction with every bound claim that one of ``readings`` (tried in order, each
    given the claim and the masked text) says is no card's claim unbound: unverified, as a
    figure the grammar cannot tie to a card."""
    if not readings:
        return extraction
    masked = extraction.masked
    out = list(extraction.claims)
    changed = False
    for i, claim in enumerate(out):
        if not claim.cards:
            continue
        for reading in readings:
            if reading(claim, masked):
                out[i] = replace(claim, cards=())
                changed = True
                break
    if not changed:
        return extraction
    return replace(extraction, claims=tuple(out))
