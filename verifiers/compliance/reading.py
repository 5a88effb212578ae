"""Reading one unit (a sentence, list item or table cell): its figures and the claims they make.

Every figure gets a *window* (see ``windows``) whose cue words type it (see ``claim_types``);
coordinated figures ("$95 and $150") share a type, the figure after a first-year fee is the
ongoing annual fee, and a figure the unit quotes only to reject it ("the draft says \"$50 annual
fee\", which is wrong") is no claim. Card names are blanked out first (``mask_names``): their
words say nothing about the figures next to them. A reading depends on the unit's text alone, so
it is cached across responses.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.claim_types import (
    APR_CLAIM,
    FEE_CLAIM,
    INTRO_CLAIM,
    INTRO_RATE_CEILING,
    Draft,
    type_value,
)
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.units import CueIndex, Unit
from replicas.verifiers.compliance.values import (
    NONE,
    PCT,
    USD,
    Durations,
    Value,
    cell_none,
    find_values,
    may_hold_values,
)
from replicas.verifiers.compliance.windows import windows_of


def mask_names(lower: str, mentions: Sequence[NameMention]) -> str:
    """``lower`` with every card reference blanked out ("#"), same length.

    Card names are full of term words - "Cascade Low Rate", "Willow Balance Transfer", "Horizon
    Cash Rewards 360" - that say nothing about the figures next to them; cue words, negation
    scopes, durations and figures are all read from this masked copy.
    """
    if not mentions:
        return lower
    parts: list[str] = []
    pos = 0
    for mention in mentions:
        if mention.end <= pos:
            continue
        start = max(pos, mention.start)
        parts.append(lower[pos:start])
        parts.append("#" * (mention.end - start))
        pos = mention.end
    parts.append(lower[pos:])
    return "".join(parts)


# "Annual fee - $95", "1) Ongoing APR = 19.99%", "| Plus - $95": a short label opening a line,
# list item or segment, then a dash or equals sign - the separator of a label and its value, which
# reads like the colon of "Annual fee: $95" (a dash elsewhere separates clauses).
_LABEL_SEPARATOR = re.compile(
    r"[ \t]*(?:(?:[-*+>\u2022]|\d{1,2}[.)])[ \t]+)?(?:\*\*|__)?"
    r"(?:[^\n|:;=$%\d.!?\s-]|-(?=\S))+(?:[ \t]+(?:[^\n|:;=$%\d.!?\s-]|-(?=\S))+){0,5}"
    r"(?:\*\*|__)?[ \t]([-=]|\.{2,4})[ \t]"
)


def _segment_starts(text: str, separators: tuple[str, ...]) -> list[int]:
    """Where a label ending in one of ``separators`` may open: the start of the line (or of
    the table cell, after a "|") holding an occurrence of one."""
    starts: set[int] = set()
    for separator in separators:
        pos = text.find(separator)
        while pos >= 0:
            starts.add(max(text.rfind("\n", 0, pos), text.rfind("|", 0, pos)) + 1)
            pos = text.find(separator, pos + 1)
    return sorted(starts)


def label_separators(masked: str) -> str:
    """``masked`` with label dashes ("Annual fee - $95", "Late fee ... none") turned into
    colons (and blanks), same length."""
    if " - " not in masked and " = " not in masked and ".. " not in masked:
        return masked
    spans = []
    for pos in _segment_starts(masked, (" - ", " = ", ".. ")):
        match = _LABEL_SEPARATOR.match(masked, pos)
        if match is not None:
            spans.append(match.span(1))
    if not spans:
        return masked
    parts: list[str] = []
    pos = 0
    for start, end in spans:
        parts += (masked[pos:start], ":", " " * (end - start - 1))
        pos = end
    parts.append(masked[pos:])
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class UnitReading:
    """What one unit says, read from its own masked text alone (positions within the unit).

    A pure function of the unit's text and the cue words its table header or question lends it,
    so it is cached across responses: answers repeat their phrasing, and a unit read once is not
    read again. Drafts are shared between readers and never mutated.
    """

    values: tuple[Value, ...]
    drafts: tuple[Draft | None, ...]
    months: tuple[int, ...]
    amounts: tuple[float, ...] = ()  # every dollar figure
    ranges: tuple[tuple[float, float], ...] = ()  # every percentage range


_EMPTY_READING = UnitReading((), (), ())


def _reading(
    values: Sequence[Value], drafts: Sequence[Draft | None], months: tuple[int, ...]
) -> UnitReading:
    return UnitReading(
        tuple(values),
        tuple(drafts),
        months,
        tuple(v.low for v in values if v.unit == USD and v.low is not None),
        tuple(
            (v.low, v.high)
            for v in values
            if v.unit == PCT and v.low is not None and v.high is not None and v.low < v.high
        ),
    )


# Readings of ruleset 3 (the frozen one) and of rulesets whose reading differs, each its own cache.
READINGS: dict[tuple[str, tuple[tuple[str, int], ...]], UnitReading] = {}
READINGS_MORE_NEGATIONS: dict[tuple[str, tuple[tuple[str, int], ...]], UnitReading] = {}
READINGS_5: dict[tuple[str, tuple[tuple[str, int], ...]], UnitReading] = {}
READINGS_6: dict[tuple[str, tuple[tuple[str, int], ...]], UnitReading] = {}
_READINGS_LIMIT = 100_000
_CACHEABLE_UNIT = 2_000  # longer units (a 1 MB run-on sentence) are read, never kept


def read_unit(
    unit_text: str,
    context: tuple[tuple[str, int], ...] = (),
    is_cell: bool = False,
    more_negations: bool = False,
    fee_forms_5: bool = False,
    on_time_6: bool = False,
) -> UnitReading:
    """The figures of one unit and the claims they make (``unit_text`` masked and lower-cased;
    ``context``: the cue words a header or a question lends it, at negative positions;
    ``more_negations``: ruleset 4's further "no fee" forms; ``fee_forms_5``: ruleset 5's;
    ``on_time_6``: ruleset 6's pay-on-time conditions)."""
    cache = readings_cache(more_negations, fee_forms_5, on_time_6)
    key = (unit_text, context)
    reading = cache.get(key)
    if reading is not None:
        return reading
    reading = _read_unit(unit_text, context, is_cell, more_negations, fee_forms_5, on_time_6)
    if len(unit_text) <= _CACHEABLE_UNIT:
        if len(cache) >= _READINGS_LIMIT:
            cache.clear()  # the simplest bound; a verdict never depends on the cache
        cache[key] = reading
    return reading


def readings_cache(
    more_negations: bool, fee_forms_5: bool, on_time_6: bool = False
) -> dict[tuple[str, tuple[tuple[str, int], ...]], UnitReading]:
    """The cache of the readings of rulesets that read units alike."""
    if on_time_6:
        return READINGS_6
    return READINGS_5 if fee_forms_5 else READINGS_MORE_NEGATIONS if more_negations else READINGS


def _read_unit(
    text: str,
    context: tuple[tuple[str, int], ...],
    is_cell: bool,
    more_negations: bool = False,
    fee_forms_5: bool = False,
    on_time_6: bool = False,
) -> UnitReading:
    if not is_cell and not may_hold_values(text):
        return _EMPTY_READING  # what ``find_values`` would come to, without its ~80 look-ups
    unit = Unit(0, len(text), context, None, is_cell)
    values = find_values(
        text, more_negations=more_negations, fee_forms_5=fee_forms_5, on_time_6=on_time_6
    )
    if not values and is_cell:
        values = cell_none(text, unit)
    if not values:
        return _EMPTY_READING
    cue_index = CueIndex(text, ())
    months = Durations(text).within(0, len(text))
    if (
        not months
        and not context
        and not any(v.unit == NONE for v in values)
        and not cue_index.within(0, len(text))
    ):
        # numbers with no word around them that could make them a claim (still figures of the
        # response: a recommended card's fee may be stated so)
        return _reading(values, (None,) * len(values), ())
    values = _drop_disavowed(text, unit, values, text)
    if not values:
        return _EMPTY_READING
    windows = windows_of(text, cue_index, unit, values, months)
    drafts = [type_value(v, w) for v, w in zip(values, windows, strict=True)]
    _share_coordinated(text, values, drafts)
    if fee_forms_5:
        _first_year_label_before(text, values, drafts)
        _first_year_label_after(text, values, drafts)
        _intro_year_fee(text, values, drafts)
        _low_rate_then(text, values, drafts)
        _apr_ranges(text, values, drafts)
    _after_first_year(text, values, drafts, len(text))
    return _reading(values, drafts, tuple(m[2] for m in months))


def _drop_disavowed(masked: str, unit: Unit, values: list[Value], unit_text: str) -> list[Value]:
    """Figures the response quotes only to reject them are not its claims.

    "the headline \"0% APR for 24 months!\" is inaccurate" (a quoted figure in a sentence that
    reports or corrects it); "$95 - not the $99 you may have seen", "up to $40; ignore the $50
    figure on old forum posts", "$325 (older listings say $295)": a figure in a clause that
    disowns it, next to another figure of the same unit that the clause does not disown.
    """
    if '"' in unit_text and lex.REPORTING.search(unit_text):
        quoted = [
            (m.start() + unit.start, m.end() + unit.start) for m in lex.QUOTED.finditer(unit_text)
        ]
        values = [v for v in values if not any(a <= v.start < b for a, b in quoted)]
    if len(values) < 2 or not lex.DISAVOWAL.search(unit_text):
        return values
    cuts = [unit.start]
    cuts += [m.end() + unit.start for m in lex.DISAVOWAL_CLAUSE.finditer(unit_text)]
    cuts.append(unit.end)
    keep: list[Value] = []
    dropped: list[Value] = []
    for value in values:
        k = bisect_right(cuts, value.start) - 1
        lo, hi = cuts[max(k, 0)], cuts[min(k + 1, len(cuts) - 1)]
        clause = masked[lo:hi]
        if value.unit != NONE and lex.DISAVOWAL.search(clause):
            dropped.append(value)
        else:
            keep.append(value)
    if not dropped or not any(v.unit != NONE for v in keep):
        return values  # nothing left standing: the words disown something else
    return keep


_COORDINATOR = re.compile(r"[ \t]{0,3}(?:,|and|or|/|&|vs\.?|versus|,[ \t]{0,3}and)[ \t]{0,3}")


def _share_coordinated(lower: str, values: Sequence[Value], drafts: list[Draft | None]) -> None:
    """Coordinated figures share their type: "18.24%-27.24% and 19.99%-29.99% variable APR"
    (the later one types the earlier), "annual fees of $95 and $150" (the earlier one types the
    later, which alone would only read as some fee)."""

    def coordinated(i: int, j: int) -> bool:
        a, b = values[i], values[j]
        return (
            a.unit == b.unit
            and a.unit != NONE
            and bool(_COORDINATOR.fullmatch(lower, a.end, b.start))
        )

    def copy(model: Draft, value: Value) -> Draft:
        return {
            **model,
            "start": value.start,
            "end": value.end,
            "low": value.low,
            "high": value.high,
            "min_usd": value.min_usd,
        }

    for i in range(len(values) - 2, -1, -1):
        model = drafts[i + 1]
        if (
            drafts[i] is None
            and model is not None
            and "split" not in model
            and coordinated(i, i + 1)
        ):
            drafts[i] = copy(model, values[i])
    for i in range(1, len(values)):
        model, current = drafts[i - 1], drafts[i]
        if model is None or "split" in model or not coordinated(i - 1, i):
            continue
        weaker = current is None or (
            current.get("kind") == "any"
            and current.get("family") == model["family"]
            and model["kind"] != "any"
        )
        if weaker:
            drafts[i] = copy(model, values[i])


# "$0 intro", "$0 introductory", "$0 in year one", "$0 for the first year": the dollar figure is
# the first year's annual fee (ruleset 5)
_FIRST_YEAR_AFTER = re.compile(
    r"[ \t]{0,2}(?:\(|,)?[ \t]{0,2}(?:intro(?:ductory)?\b|promo(?:tional)?\b|(?:in|for|during)?"
    r"[ \t]{0,3}(?:the[ \t]{1,3})?(?:first|1st|opening)[ \t-]{1,3}(?:year|yr)\b|(?:in[ \t]{1,3})?year"
    r"[ \t]{1,3}(?:one|1)\b)"
    # ... and the qualifier is the figure's own, not the label of another one ("$89 (first year
    # $0)": the $0 is the first year's)
    r"(?![ \t:=-]{0,3}(?:is[ \t]{1,3}|costs?[ \t]{1,3}|of[ \t]{1,3})?(?:\$|free\b|nothing\b|zero\b|waived\b|none\b|no[ \t]))"
)


# "$95, first year: free", "$95 (first year $0)": first-year words after a figure that label
# what follows them
_FIRST_YEAR_LABEL_AFTER = re.compile(
    r"[ \t]{0,2}[,;(][ \t]{0,2}(?:the[ \t]{1,3}|your[ \t]{1,3})?(?:first|1st|opening)[ \t-]{1,3}"
    r"(?:year|yr)(?:'s)?[ \t:=-]{0,3}(?:is[ \t]{1,3}|costs?[ \t]{1,3})?"
    r"(?:\$|free\b|nothing\b|zero\b|waived\b|none\b|no[ \t]|on[ \t]us\b)"
)


def _first_year_label_after(
    lower: str, values: Sequence[Value], drafts: list[Draft | None]
) -> None:
    """ "Plus: $95, first year: free": a figure typed as the first-year fee only because
    first-year words follow it - words that label the next value - is the annual fee
    (ruleset 5)."""
    for i, value in enumerate(values):
        draft = drafts[i]
        if value.unit != USD or draft is None or draft.get("kind") != "annual_first_year":
            continue
        if _FIRST_YEAR_LABEL_AFTER.match(lower, value.end) is None:
            continue
        if _FIRST_YEAR_BEFORE.search(lower, max(0, value.start - 24), value.start):
            continue  # "first year $0, then $95" reads the other way
        drafts[i] = {**draft, "kind": "annual", "kinds": frozenset({"annual"})}


_FIRST_YEAR_BEFORE = re.compile(r"\b(?:first|1st|opening)[ \t-]{1,3}(?:year|yr)\b[^$]{0,12}$")


# "first year $0", "year one: $0": the figure a first-year label introduces
_FIRST_YEAR_LABEL_BEFORE = re.compile(
    r"\b(?:(?:first|1st|opening)[ \t-]{1,3}(?:year|yr)|year[ \t]{1,3}(?:one|1))[ \t]{0,2}[:=-]?[ \t]{0,2}$"
)
_REWARD_WORDS = re.compile(
    r"\b(?:back|rewards?|bonus|earn|earns|earning|worth|value|save|saves|saving|credits?|points|"
    r"miles|spend|spending|statement)\b"
)


def _first_year_label_before(
    lower: str, values: Sequence[Value], drafts: list[Draft | None]
) -> None:
    """ "Preferred: first year $0, then $150": a dollar figure that a first-year label opens is
    the first-year fee, when the unit speaks of no reward or spending (ruleset 5)."""
    rewards: bool | None = None  # whether the unit speaks of rewards: searched once, if asked
    for i, value in enumerate(values):
        draft = drafts[i]
        if value.unit != USD or (draft is not None and draft.get("kind") != "any"):
            continue
        if _FIRST_YEAR_LABEL_BEFORE.search(lower, max(0, value.start - 16), value.start) is None:
            continue
        if rewards is None:
            rewards = _REWARD_WORDS.search(lower) is not None
        if rewards:
            continue
        drafts[i] = {
            "family": FEE_CLAIM,
            "kind": "annual_first_year",
            "start": value.start,
            "end": value.end,
            "unit": USD,
            "low": value.low,
            "high": value.high,
            "kinds": frozenset({"annual_first_year"}),
        }


def _intro_year_fee(lower: str, values: Sequence[Value], drafts: list[Draft | None]) -> None:
    """ "Annual fee: $0 intro, then $95": a dollar figure typed as the annual fee (or left as any
    fee) and qualified right after by "intro" or "the first year" is the first-year fee."""
    for i, value in enumerate(values):
        draft = drafts[i]
        if value.unit != USD or draft is None or draft.get("family") != FEE_CLAIM:
            continue
        if draft.get("kind") not in ("annual", "any"):
            continue
        if _FIRST_YEAR_AFTER.match(lower, value.end) is None:
            continue
        kinds = draft.get("kinds")
        if draft.get("kind") == "any" and kinds and "annual" not in kinds:
            continue
        drafts[i] = {**draft, "kind": "annual_first_year", "kinds": frozenset()}


_NOT_A_RATE_AFTER = re.compile(
    r"[ \t]{0,3}(?:of\b|back\b|cash\b|in[ \t]rewards|rewards?\b|points?\b|off\b|down\b|"
    r"utili[sz]|discount)"
)


def _apr_ranges(lower: str, values: Sequence[Value], drafts: list[Draft | None]) -> None:
    """ "18.24%-27.99%, and earns bonus points": a range of percentages from 10% up is a purchase
    APR even when a reward word follows in the next clause (ruleset 5) - reward ranges ("1%-5%
    back") stay below 10%, and ruleset 3 dropped any range next to a reward word. A range that is
    a share of something ("10%-30% of your limit", "keep utilization at 10%-30%") stays none."""
    if "utili" in lower:
        return
    for i, value in enumerate(values):
        if (
            drafts[i] is None
            and _NOT_A_RATE_AFTER.match(lower, value.end) is None
            and value.unit == PCT
            and value.low is not None
            and value.high is not None
            and INTRO_RATE_CEILING <= value.low < value.high <= 100
        ):
            drafts[i] = {
                "family": APR_CLAIM,
                "kind": "purchase",
                "start": value.start,
                "end": value.end,
                "unit": PCT,
                "low": value.low,
                "high": value.high,
                "kinds": frozenset({"purchase"}),
            }


_BT_SCOPE = re.compile(r"\b(?:balance[ \t-]{1,3})?transfers?\b|\bbts?\b")
_PURCHASE_SCOPE = re.compile(r"\b(?:purchases?|spending|buys?|buying|bought)\b")


def _low_rate_then(lower: str, values: Sequence[Value], drafts: list[Draft | None]) -> None:
    """ "0% on balance transfers, then 19.24%-27.24% variable": a promotional rate (below 10%)
    read as an APR, followed in its unit by "then" and an ongoing rate, is an intro offer - the
    "then" says the rate ends - even without the word "intro" or its months (ruleset 5)."""
    for i in range(len(values) - 1):
        value, following, draft = values[i], values[i + 1], drafts[i]
        if (
            draft is None
            or draft.get("family") != APR_CLAIM
            or value.unit != PCT
            or value.low is None
            or value.low != value.high
            or value.low >= INTRO_RATE_CEILING
            or following.unit != PCT
            or following.high is None
            or following.high < INTRO_RATE_CEILING
        ):
            continue
        between = lower[value.end : following.start]
        if len(between) > 80 or not _ONGOING.search(between):
            continue
        # the scope words of the rate's own clause: after the previous figure and the last
        # comma, semicolon or colon before the rate, up to the rate it turns into
        lo = values[i - 1].end if i else 0
        cut = max(lower.rfind(",", lo, value.start), lower.rfind(";", lo, value.start))
        cut = max(cut, lower.rfind(":", lo, value.start))
        lead = lower[max(lo, cut + 1) : following.start]
        scopes = set()
        if _BT_SCOPE.search(lead):
            scopes.add("bt")
        if _PURCHASE_SCOPE.search(lead):
            scopes.add("purchase")
        drafts[i] = {
            "family": INTRO_CLAIM,
            "kind": "+".join(sorted(scopes)) if scopes else "any",
            "start": value.start,
            "end": value.end,
            "unit": PCT,
            "low": value.low,
            "high": value.high,
            "months": None,
            "scopes": frozenset(scopes),
        }


_ONGOING = re.compile(
    r"\b(?:then|thereafter|after[ \t]{1,3}that|afterwards?|after[ \t]{1,3}(?:the[ \t]{1,3})?"
    r"(?:first[ \t]{1,3}year|year[ \t]{1,3}one)|from[ \t]{1,3}(?:the[ \t]{1,3})?(?:second|2nd)[ \t]"
    r"{1,3}year(?:[ \t]{1,3}on)?|(?:every|each)[ \t]{1,3}year[ \t]{1,3}after|ongoing|going[ \t]forward"
    r"|(?:second|2nd|following|subsequent|later)[ \t]{1,3}years?|years?[ \t]{1,3}(?:two|2)"
    r"|from[ \t]{1,3}then[ \t]{1,3}on|later|after(?=[ \t]{0,2}(?:[.,;)\n]|$)))\b"
)


def _after_first_year(
    lower: str, values: Sequence[Value], drafts: list[Draft | None], unit_end: int
) -> None:
    """ "No annual fee the first year, then $95" / "$0 in the first year and $95 after that":
    the dollar figure after a first-year fee is the ongoing annual fee."""
    for i in range(1, len(values)):
        model, value = drafts[i - 1], values[i]
        if model is None or model.get("kind") != "annual_first_year" or value.unit != USD:
            continue
        current = drafts[i]
        if current is not None and current.get("kind") not in ("any", "annual_first_year"):
            continue
        around = lower[values[i - 1].end : min(unit_end, value.end + 24)]
        if _ONGOING.search(around):
            drafts[i] = _draft_fee_annual(value)


def _draft_fee_annual(value: Value) -> Draft:
    return {
        "family": FEE_CLAIM,
        "kind": "annual",
        "start": value.start,
        "end": value.end,
        "unit": USD,
        "low": value.low,
        "high": value.high,
    }
