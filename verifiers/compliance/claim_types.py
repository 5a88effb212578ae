"""Typing a figure: which term (APR, intro offer, fee, and of what) the words around it name."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from replicas.verifiers.compliance import cue_words
from replicas.verifiers.compliance import negation as neg
from replicas.verifiers.compliance.values import NONE, PCT, USD, Value
from replicas.verifiers.compliance.windows import Window

Draft = dict[str, Any]  # a claim's fields before attribution
# Claim families and kinds.
APR_CLAIM = "apr"  # kinds: purchase, cash_advance, penalty
INTRO_CLAIM = "intro"  # kinds: purchase, bt, any
FEE_CLAIM = "fee"  # kinds: annual, bt, cash_advance, foreign, late, min_interest, any

_NONE_KINDS = {
    neg.NONE_ANNUAL: (FEE_CLAIM, "annual"),
    neg.NONE_FIRST_YEAR: (FEE_CLAIM, "annual_first_year"),
    neg.NONE_FOREIGN: (FEE_CLAIM, "foreign"),
    neg.NONE_BT: (FEE_CLAIM, "bt"),
    neg.NONE_CASH: (FEE_CLAIM, "cash_advance"),
    neg.NONE_LATE: (FEE_CLAIM, "late"),
    neg.NONE_PENALTY: (APR_CLAIM, "penalty"),
    neg.NONE_INTRO: (INTRO_CLAIM, "any"),
    neg.NONE_INTRO_PURCHASE: (INTRO_CLAIM, "purchase"),
    neg.NONE_INTRO_BT: (INTRO_CLAIM, "bt"),
}


# -- typing values -----------------------------------------------------------------------------


def _draft(family: str, kind: str, start: int, end: int, unit: str, *args: Any, **kw: Any) -> Draft:
    """The fields of a claim before it is attributed (built into a ``Claim`` exactly once)."""
    draft = {"family": family, "kind": kind, "start": start, "end": end, "unit": unit}
    if args:
        draft.update(zip(("low", "high", "min_usd"), args, strict=False))
    if kw:
        draft.update(kw)
    return draft


_FEE_TYPES = frozenset(
    {
        cue_words.FOREIGN,
        cue_words.BT,
        cue_words.CASH,
        cue_words.LATE,
        cue_words.ANNUAL,
        cue_words.MIN_INTEREST,
        cue_words.OTHER_FEE,
    }
)
_APR_SCOPES = frozenset(
    {cue_words.CASH, cue_words.PENALTY, cue_words.PURCHASE, cue_words.BT, cue_words.LATE}
)


def _distance(cue: tuple[str, int] | None, pos: int) -> int:
    return abs(cue[1] - pos) if cue is not None else 1 << 30


_TYPING_CUES = frozenset(
    {
        cue_words.FEE,
        cue_words.APR,
        cue_words.INTRO,
        cue_words.FOREIGN,
        cue_words.VARIABLE,
        cue_words.FIXED,
        cue_words.ANNUAL,
        cue_words.LATE,
        cue_words.MIN_INTEREST,
        cue_words.AFTER,
        cue_words.REGULAR,
        cue_words.COST,
    }
)


class _Nearest:
    """The cue of each kind nearest to one position, from one pass over a window's cues.

    ``of(kinds)`` is the nearest cue of any of ``kinds`` - the first in cue order among equally
    near ones - exactly what scanning the cues for those kinds would return.
    """

    __slots__ = ("_best", "kinds")

    def __init__(self, cues: Sequence[tuple[str, int]], pos: int) -> None:
        best: dict[str, tuple[int, int, tuple[str, int]]] = {}
        get = best.get
        for index, cue in enumerate(cues):
            distance = cue[1] - pos
            if distance < 0:
                distance = -distance
            kind = cue[0]
            held = get(kind)
            if held is None or distance < held[0]:
                best[kind] = (distance, index, cue)
        self._best = best
        self.kinds = best.keys()

    def of(self, kinds: Sequence[str]) -> tuple[str, int] | None:
        found: tuple[int, int, tuple[str, int]] | None = None
        for kind in kinds:
            held = self._best.get(kind)
            if held is not None and (found is None or held[:2] < found[:2]):
                found = held
        return None if found is None else found[2]


_FEE_SCOPES = (cue_words.FOREIGN, cue_words.BT, cue_words.CASH, cue_words.OTHER_FEE)
# Scopes that type a percentage on their own ("cash withdrawals are 29.99%"): the words of
# neighbouring clauses are not needed, and would only mislead.
_OWN_SCOPES = frozenset({cue_words.CASH, cue_words.PENALTY})
# What a lead-in ("Annual fee: $95 ($0 in year one)") lends the figures after it.
_LEAD_KINDS = frozenset(
    {
        cue_words.APR,
        cue_words.FEE,
        cue_words.ANNUAL,
        cue_words.LATE,
        cue_words.FOREIGN,
        cue_words.PENALTY,
    }
)
_IMPLIED_RATE = (cue_words.VARIABLE, cue_words.FIXED, cue_words.AFTER, cue_words.REGULAR)
_USD_SCOPES = tuple(sorted(_FEE_TYPES - {cue_words.MIN_INTEREST}))
_APR_SCOPE_KINDS = tuple(sorted(_APR_SCOPES))


PCT_FEE_KINDS = frozenset({"foreign", "bt", "cash_advance"})
USD_FEE_KINDS = frozenset(
    {"annual", "annual_first_year", "late", "min_interest", "bt", "cash_advance"}
)
APR_KINDS = frozenset({"purchase", "cash_advance", "penalty"})
_SCOPE_OF_CUE = {cue_words.FOREIGN: "foreign", cue_words.BT: "bt", cue_words.CASH: "cash_advance"}
_USD_SCOPE_OF_CUE = {
    cue_words.ANNUAL: "annual",
    cue_words.LATE: "late",
    cue_words.BT: "bt",
    cue_words.CASH: "cash_advance",
    cue_words.MIN_INTEREST: "min_interest",
}


def type_value(value: Value, window: Window) -> Draft | None:
    """The claim a value makes given the cue words of its window (None: not a claim).

    Besides its best reading (``kind``) a claim carries the terms it may be about (``kinds``):
    one when the words around the figure name one, all of its family when they name none or
    several - the rules then only call the figure wrong if it is none of them.
    """
    draft = _type_value(value, window)
    if draft is not None and value.intro_only and draft["family"] != INTRO_CLAIM:
        return None  # "pay in full without interest": the grace period, not a rate
    if draft is None or draft.get("split"):
        return draft
    if draft.get("is_none"):
        pass
    elif value.unit == PCT and value.low != value.high and draft["family"] != APR_CLAIM:
        # A range of percentages is a purchase APR ("19.99% - 29.99%"): no fee or intro offer
        # is a range.
        draft = _as_purchase_apr(draft)
    elif (
        draft["family"] == INTRO_CLAIM and value.low is not None and value.low >= INTRO_RATE_CEILING
    ):
        # "... lasting 18 months, after which the 19.74% APR applies": a rate this high is the
        # one an offer rolls into, not a promotional rate.
        draft = _as_purchase_apr(draft)
    elif (
        draft["family"] == FEE_CLAIM
        and value.unit == PCT
        and value.low is not None
        and value.low >= INTRO_RATE_CEILING
    ):
        # "cash advances cost 29.99%": no fee is ten percent or more of the amount - it is a rate
        kind = "cash_advance" if draft["kind"] == "cash_advance" else "purchase"
        draft = {**_as_purchase_apr(draft), "kind": kind}
    if draft.get("is_none"):
        pass
    elif draft["family"] == FEE_CLAIM:
        draft["kinds"] = _fee_kinds(draft, value, window)
        draft.pop("tight", None)
    elif draft["family"] == APR_CLAIM:
        named = {c[0] for c in window.cues} & {
            cue_words.CASH,
            cue_words.PENALTY,
            cue_words.PURCHASE,
        }
        certain = (
            draft["kind"] == "purchase"
            and (value.low != value.high or named <= {cue_words.PURCHASE})
        ) or named == {
            {"cash_advance": cue_words.CASH, "penalty": cue_words.PENALTY}.get(draft["kind"], "")
        }
        draft["kinds"] = frozenset({draft["kind"]}) if certain else APR_KINDS
    if (
        draft is not None
        and draft.get("is_none")
        and draft["family"] == INTRO_CLAIM
        and draft["kind"] == "any"
    ):
        # "no intro offer" in a table column or under a lead-in about purchases / transfers
        kinds = {c[0] for c in window.cues}
        if (cue_words.PURCHASE in kinds) != (cue_words.BT in kinds):
            kind = "purchase" if cue_words.PURCHASE in kinds else "bt"
            draft = {**draft, "kind": kind, "scopes": frozenset({kind})}
    return draft


# Promotional rates are low (0% to a few percent); a rate at or above this is an ongoing APR.
INTRO_RATE_CEILING = 10.0


def _as_purchase_apr(draft: Draft) -> Draft:
    out = {
        k: v
        for k, v in draft.items()
        if k not in ("months", "scopes", "min_usd", "kinds", "tight", "variability")
    }
    out.update(family=APR_CLAIM, kind="purchase")
    return out


def _fee_kinds(draft: Draft, value: Value, window: Window) -> frozenset[str]:
    """The fees a fee figure may be: the one its window names, else all of its unit's."""
    kind = draft["kind"]
    if value.unit == PCT:
        named = {_SCOPE_OF_CUE[c[0]] for c in window.cues if c[0] in _SCOPE_OF_CUE}
        if kind != "any" and named <= {kind}:
            return frozenset({kind})
        return PCT_FEE_KINDS
    if kind == "any":
        return USD_FEE_KINDS
    named = {_USD_SCOPE_OF_CUE[c[0]] for c in window.cues if c[0] in _USD_SCOPE_OF_CUE}
    if kind == "annual_first_year":
        return frozenset({kind}) if draft.get("tight") else frozenset({kind, "annual"})
    if kind == "annual" and cue_words.FIRST_YEAR in {c[0] for c in window.cues}:
        named.add("annual_first_year")
    named.add(kind)
    return frozenset(named)


def _type_value(value: Value, window: Window) -> Draft | None:
    if value.unit == NONE:
        family, kind = _NONE_KINDS[value.none_kind or ""]
        scopes = frozenset({kind}) if family == INTRO_CLAIM and kind != "any" else frozenset()
        return _draft(family, kind, value.start, value.end, NONE, is_none=True, scopes=scopes)
    pos = value.start
    cues, months = window.cues, window.months
    near = _Nearest(cues, pos)
    if not months and _TYPING_CUES.isdisjoint(near.kinds) and _OWN_SCOPES.isdisjoint(near.kinds):
        if cue_words.REWARD in near.kinds or (
            value.unit == USD
            and (cue_words.BALANCE in near.kinds or cue_words.ESTIMATE in near.kinds)
        ):
            # "1.5% cash back" next to an APR, "if you transferred $5,000": a reward or an
            # amount, not a term
            return None

        cues, months = window.wide_cues, window.wide_months
        if not months and not any(c[0] in _TYPING_CUES for c in cues):
            # "APRs: purchases 19.99%, cash advances 29.99%": the unit's lead-in types its list.
            cues = cues + tuple(c for c in window.lead_cues if c[0] in _LEAD_KINDS)
        near = _Nearest(cues, pos)
    kinds = near.kinds
    reward = near.of((cue_words.REWARD,))
    if value.unit == USD:
        return _type_usd(value, near, reward, pos, window.unit_has_reward)
    fee = near.of((cue_words.FEE,))
    apr = near.of((cue_words.APR, cue_words.INTRO))
    if value.min_usd is not None and fee is None:
        fee = (cue_words.FEE, value.end)  # a dollar minimum only ever belongs to a fee
    if fee is None and apr is None and near.of(_FEE_SCOPES) is not None and not months:
        cost = near.of((cue_words.COST,))
        if cost is not None:
            # "balance transfers cost 3%": a price of a transfer is its fee ("transfers are
            # charged 0% for 21 months" - a rate for some months - is an intro offer)
            fee = cost
    if fee is None and apr is None:
        if cue_words.FOREIGN in kinds and reward is None:
            return _draft(FEE_CLAIM, "foreign", value.start, value.end, PCT, value.low, value.high)
        # "0% for the first 15 months on purchases", "19.99% to 29.99% variable", "then 19.99%":
        # a rate without the word APR.
        implied = near.of(_IMPLIED_RATE)
        if (
            implied is None
            and months
            and (
                cue_words.PURCHASE in kinds
                or cue_words.BT in kinds
                or (value.low is not None and value.low < INTRO_RATE_CEILING)
            )
        ):
            # "0% for 12 months": a low rate for a number of months is an intro offer
            implied = (cue_words.INTRO, months[0][0])
        if implied is None and reward is None and value.low is not None:
            scope = near.of((cue_words.CASH, cue_words.PENALTY))
            if scope is not None and value.low == value.high:
                # "cash withdrawals are 29.99%" / "cash advances 3% (at least $10)": no fee is
                # ten percent or more, no APR on cash is a few percent.
                if value.low >= INTRO_RATE_CEILING:
                    implied = scope
                elif scope[0] == cue_words.CASH:
                    fee = scope
        if implied is None and reward is None and value.low != value.high:
            implied = (cue_words.APR, pos)  # a range of percentages is a purchase APR
        if fee is None and (implied is None or reward is not None):
            return None
        if fee is None:
            apr = implied
    if reward is not None and _distance(reward, pos) < min(
        _distance(fee, pos), _distance(apr, pos)
    ):
        return None
    if fee is not None and _distance(fee, pos) <= _distance(apr, pos):
        scope = near.of(_FEE_SCOPES)
        if scope is not None and scope[0] == cue_words.OTHER_FEE:
            return None
        kind = {
            cue_words.FOREIGN: "foreign",
            cue_words.BT: "bt",
            cue_words.CASH: "cash_advance",
        }.get(scope[0] if scope else "", "any")
        return _draft(
            FEE_CLAIM, kind, value.start, value.end, PCT, value.low, value.high, value.min_usd
        )
    variability = None
    if cue_words.VARIABLE in kinds:
        variability = "variable"
    elif cue_words.FIXED in kinds:
        variability = "fixed"
    # "then 19.99%" / "19.99% after the intro period" is the rate after an offer; "0% intro APR
    # for 15 months, then the standard APR" is the offer itself: the nearer cue decides.
    after = near.of((cue_words.AFTER, cue_words.REGULAR))
    intro = near.of((cue_words.INTRO,))
    if intro is None and months:
        intro = (cue_words.INTRO, months[0][0])
    is_after = after is not None and _distance(after, pos) < _distance(intro, pos)
    is_intro = not is_after and intro is not None
    if is_intro and value.low == value.high:
        scopes = frozenset(
            {
                "purchase" if k == cue_words.PURCHASE else "bt"
                for k in kinds
                if k in (cue_words.PURCHASE, cue_words.BT)
            }
        )
        if len(scopes) == 2:
            split = _split_scopes(cues, months, value)
            if split is not None:
                return split
        return _draft(
            INTRO_CLAIM,
            "any" if not scopes else "+".join(sorted(scopes)),
            value.start,
            value.end,
            PCT,
            value.low,
            value.high,
            months=_months_after(months, value),
            scopes=scopes,
        )
    scope = near.of(_APR_SCOPE_KINDS)
    if scope is None:
        # "cash advances carry a 5% fee and a 29.99% APR": the clause's subject scopes both
        scope = _Nearest(window.lead_cues, pos).of((cue_words.CASH, cue_words.PENALTY))
    kind = {
        cue_words.CASH: "cash_advance",
        cue_words.PENALTY: "penalty",
        cue_words.LATE: "penalty",
    }.get(scope[0] if scope else "", "purchase")
    if cue_words.PENALTY in kinds and kind == "purchase" and cue_words.PURCHASE not in kinds:
        kind = "penalty"
    return _draft(
        APR_CLAIM,
        kind,
        value.start,
        value.end,
        PCT,
        value.low,
        value.high,
        variability=variability if kind == "purchase" else None,
    )


def _split_scopes(
    cues: Sequence[tuple[str, int]], durations: Sequence[tuple[int, int, int]], value: Value
) -> Draft | None:
    """ "0% intro APR on purchases for 15 months and on balance transfers for 21 months": one rate,
    two offers. Each duration goes with the nearest scope word; returned as a two-claim draft."""
    months = [m for m in durations if m[0] >= value.end]
    scope_cues = [
        c for c in cues if c[0] in (cue_words.PURCHASE, cue_words.BT) and c[1] >= value.start
    ]
    if len(months) < 2 or not scope_cues:
        return None
    per_scope: dict[str, int] = {}
    for start, _end, count in months[:2]:
        kind, _ = min(scope_cues, key=lambda c: abs(c[1] - start))
        per_scope.setdefault("purchase" if kind == cue_words.PURCHASE else "bt", count)
    if len(per_scope) != 2:
        return None
    return {
        "split": [
            _draft(
                INTRO_CLAIM,
                kind,
                value.start,
                value.end,
                PCT,
                value.low,
                value.high,
                months=count,
                scopes=frozenset({kind}),
            )
            for kind, count in per_scope.items()
        ]
    }


def _months_after(durations: Sequence[tuple[int, int, int]], value: Value) -> int | None:
    for start, _end, months in durations:
        if start >= value.end:
            return months
    return durations[0][2] if durations else None


def _type_usd(
    value: Value,
    near: _Nearest,
    reward: tuple[str, int] | None,
    pos: int,
    unit_has_reward: bool = False,
) -> Draft | None:
    kinds: AbstractSet[str] = near.kinds
    if cue_words.MIN_INTEREST in kinds:
        return _draft(FEE_CLAIM, "min_interest", value.start, value.end, USD, value.low, value.high)
    fee = near.of((cue_words.FEE,))
    # An amount owed ("carry a balance of $2,000") or an estimate ("roughly $507 a year in
    # value", "worth about $69 a year to you after the fee") is no fee, whatever fee word is
    # further away.
    reward = near.of((cue_words.REWARD, cue_words.BALANCE, cue_words.ESTIMATE)) or reward
    if fee is None and reward is not None:
        return None
    if reward is not None and fee is not None and _distance(reward, pos) < _distance(fee, pos):
        return None
    first_year = near.of((cue_words.FIRST_YEAR,))
    after = near.of((cue_words.AFTER,))
    if first_year is not None and after is not None and first_year[1] < after[1] <= pos:
        # "free the first year, then $95 a year": the figure after "then" is the ongoing fee
        first_year = None
        kinds = kinds - {cue_words.FIRST_YEAR}
    if fee is None and first_year is not None and 0 <= first_year[1] - value.end <= 16:
        # "$0.00 the first year then $95.00 after": only an annual fee is priced by year
        return _draft(
            FEE_CLAIM,
            "annual_first_year",
            value.start,
            value.end,
            USD,
            value.low,
            value.high,
            tight=True,
        )
    scope = near.of(_USD_SCOPES)
    if scope is not None and scope[0] == cue_words.OTHER_FEE:
        return None  # a fee the catalog does not state (returned payment, replacement card)
    if cue_words.FIRST_YEAR in kinds and (
        (scope is not None and scope[0] == cue_words.ANNUAL)
        or (fee is None and cue_words.COST in kinds)
    ):
        # "$0 intro annual fee for the first year", "costs $0 in the first year"
        return _draft(
            FEE_CLAIM, "annual_first_year", value.start, value.end, USD, value.low, value.high
        )
    if scope is None:
        if fee is None:
            return None
        return _draft(FEE_CLAIM, "any", value.start, value.end, USD, value.low, value.high)
    if (
        fee is None
        and scope[0] not in (cue_words.ANNUAL, cue_words.LATE)
        and cue_words.MINIMUM not in kinds
    ):
        return None
    if (
        fee is None
        and scope[0] == cue_words.ANNUAL
        and (
            (unit_has_reward and cue_words.COST not in kinds)
            or cue_words.ESTIMATE in kinds
            or not 0 <= scope[1] - value.end <= 12
        )
    ):
        # "$95 a year" is a fee; "$1,000 ... for a year" and "(up to $6,000/year)" in a sentence
        # about rewards are not.
        return None
    kind = {
        cue_words.ANNUAL: "annual",
        cue_words.LATE: "late",
        cue_words.BT: "bt",
        cue_words.CASH: "cash_advance",
        cue_words.FOREIGN: "foreign",
    }[scope[0]]
    if kind in ("bt", "cash_advance"):
        # A dollar amount on a percentage fee is its minimum ("$5 minimum balance transfer fee")
        # - only when the text says so: "a $150 transfer charge on $5,000" is a worked example.
        if cue_words.MINIMUM not in kinds:
            return None
        return _draft(FEE_CLAIM, kind, value.start, value.end, USD, None, None, value.low)
    if kind == "foreign":
        return None  # foreign transaction fees are percentages; a dollar figure is an example
    return _draft(FEE_CLAIM, kind, value.start, value.end, USD, value.low, value.high)
