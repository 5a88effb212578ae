"""Phrase templates of the old (v1) labelled compliance set: the terms a response states
for one card (``View``) and the seeded phrase choices (``Writer``).

Moved out of the shipped package; used by the compliance tests as a regression corpus (phrasings
the verifier has always handled) and never by the verifier itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from replicas.verifiers.compliance import CardTerms

# -- rendering values (independent of the verifier's own formatting) ----------------------------


def _p(value: float) -> str:
    text = f"{value:.2f}"
    return text[:-3] if text.endswith(".00") else text


def _money(value: float) -> str:
    return f"${int(value)}" if value == int(value) else f"${value:.2f}"


@dataclass(frozen=True)
class View:
    """The terms a response states for one card (the truth, or a deliberately wrong copy)."""

    name: str
    apr: tuple[float, float]
    variable: bool
    intro_purchase: tuple[float, int] | None
    intro_bt: tuple[float, int] | None
    bt_fee: tuple[float, float]
    ca_apr: float
    ca_fee: tuple[float, float]
    penalty: float | None
    annual: float
    foreign: float
    late: float

    @classmethod
    def of(cls, card: CardTerms) -> View:
        def need(value: float | None) -> float:
            return 0.0 if value is None else float(value)

        def offer(rate: float | None, months: int | None) -> tuple[float, int] | None:
            return None if rate is None or months is None else (float(rate), int(months))

        return cls(
            name=card.card_name,
            apr=(need(card.purchase_apr_min_pct), need(card.purchase_apr_max_pct)),
            variable=bool(card.apr_is_variable) if card.apr_is_variable is not None else True,
            intro_purchase=offer(card.intro_purchase_apr_pct, card.intro_purchase_months),
            intro_bt=offer(card.intro_bt_apr_pct, card.intro_bt_months),
            bt_fee=(need(card.bt_fee_pct), need(card.bt_fee_min_usd)),
            ca_apr=need(card.cash_advance_apr_pct),
            ca_fee=(need(card.cash_advance_fee_pct), need(card.cash_advance_fee_min_usd)),
            penalty=card.penalty_apr_pct,
            annual=need(card.annual_fee_usd),
            foreign=need(card.foreign_txn_fee_pct),
            late=need(card.late_fee_usd),
        )


class Writer:
    """Phrase templates; every choice comes from the item's own random stream."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def pick(self, options: Sequence[Any]) -> Any:
        return options[int(self.rng.integers(0, len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    # -- values -----------------------------------------------------------------------------

    def apr_range(self, v: View) -> str:
        low, high = v.apr
        if low == high:
            return f"{_p(low)}%"
        return self.pick(
            [
                f"{_p(low)}%–{_p(high)}%",
                f"{_p(low)}% - {_p(high)}%",
                f"{_p(low)}% to {_p(high)}%",
                f"{_p(low)} to {_p(high)} percent",
                f"{_p(low)}%—{_p(high)}%",
                f"{_p(low)}%-{_p(high)}%",
            ]
        )

    def kind_word(self, v: View) -> str:
        return "variable" if v.variable else "fixed"

    # -- prose clauses ----------------------------------------------------------------------

    def purchase_clause(self, v: View) -> str:
        r, k = self.apr_range(v), self.kind_word(v)
        if v.apr[0] != v.apr[1] and self.chance(0.15):
            return f"a {k} purchase APR between {_p(v.apr[0])}% and {_p(v.apr[1])}%"
        return self.pick(
            [
                f"a {r} {k} APR on purchases",
                f"a {k} purchase APR of {r}",
                f"a purchase APR of {r} ({k})",
                f"a standard {k} APR of {r}",
                f"an ongoing purchase APR of {r}, {k}",
            ]
        )

    def annual_clause(self, v: View) -> str:
        if v.annual == 0:
            return self.pick(["no annual fee", "a $0 annual fee", "an annual fee of $0"])
        m = _money(v.annual)
        return self.pick(
            [
                f"a {m} annual fee",
                f"an annual fee of {m}",
                f"an annual fee of {int(v.annual)} dollars"
                if v.annual == int(v.annual)
                else f"a {m} annual fee",
                f"a {m} yearly fee",
            ]
        )

    def foreign_clause(self, v: View) -> str:
        if v.foreign == 0:
            return self.pick(
                [
                    "no foreign transaction fees",
                    "no foreign transaction fee",
                    "a 0% foreign transaction fee",
                ]
            )
        f = f"{_p(v.foreign)}%"
        return self.pick(
            [
                f"a {f} foreign transaction fee",
                f"foreign transaction fees of {f}",
                f"a foreign transaction fee of {f} of each transaction in U.S. dollars",
            ]
        )

    def late_clause(self, v: View) -> str:
        m = _money(v.late)
        return self.pick(
            [f"a late fee of up to {m}", f"late payment fees of up to {m}", f"a {m} late fee"]
        )

    def bt_fee_clause(self, v: View) -> str:
        pct, minimum = f"{_p(v.bt_fee[0])}%", _money(v.bt_fee[1])
        return self.pick(
            [
                f"a balance transfer fee of {pct} of each transfer (minimum {minimum})",
                f"a {pct} balance transfer fee with a {minimum} minimum",
                f"a balance transfer fee of either {minimum} or {pct} of the amount of each transfer, whichever is greater",
                f"a balance transfer fee of {pct} (min {minimum})",
            ]
        )

    def cash_clause(self, v: View) -> str:
        apr = f"{_p(v.ca_apr)}%"
        return self.pick([f"a cash advance APR of {apr}", f"a {apr} APR on cash advances"])

    def cash_fee_clause(self, v: View) -> str:
        pct, minimum = f"{_p(v.ca_fee[0])}%", _money(v.ca_fee[1])
        return self.pick(
            [
                f"a cash advance fee of {pct} (minimum {minimum})",
                f"a cash advance fee of {minimum} or {pct} of each advance, whichever is greater",
                f"a {pct} cash advance fee with a {minimum} minimum",
            ]
        )

    def penalty_clause(self, v: View) -> str:
        if v.penalty is None:
            return ""
        p = f"{_p(v.penalty)}%"
        return self.pick([f"a penalty APR of up to {p}", f"a penalty APR of {p} if you pay late"])

    def intro_clause(self, v: View, kind: str, *, months: bool = True, goto: bool = True) -> str:
        offer = v.intro_purchase if kind == "purchase" else v.intro_bt
        if offer is None:
            raise ValueError("no offer to describe")
        rate, n = offer
        target = "purchases" if kind == "purchase" else "balance transfers"
        r = f"{_p(rate)}%"
        if months:
            core = self.pick(
                [
                    f"{r} intro APR on {target} for {n} months",
                    f"an introductory {r} APR on {target} for the first {n} months",
                    f"a {n}-month {r} intro APR on {target}",
                    f"{r} intro APR for {n} billing cycles on {target}",
                    f"a {r} promotional APR on {target} for {n} months",
                ]
            )
        else:
            core = self.pick([f"{r} intro APR on {target}", f"an introductory {r} APR on {target}"])
        if not goto:
            return core
        after = self.apr_range(v)
        k = self.kind_word(v)
        return core + self.pick(
            [
                f", then {after} {k} APR",
                f" (after that, {after} {k})",
                f", followed by a {k} APR of {after}",
                f"; after the intro period the APR is {after} {k}",
            ]
        )

    # -- label/value pairs for lists and tables ---------------------------------------------

    def purchase_pair(self, v: View) -> tuple[str, str]:
        return self.pick(
            ["Purchase APR", "Regular APR", "APR for purchases"]
        ), f"{self.apr_range(v)} {self.kind_word(v)}"

    def annual_pair(self, v: View) -> tuple[str, str]:
        value = self.pick(["None", "$0"]) if v.annual == 0 else _money(v.annual)
        return self.pick(["Annual fee", "Annual Fee"]), value

    def foreign_pair(self, v: View) -> tuple[str, str]:
        value = self.pick(["None", "0%"]) if v.foreign == 0 else f"{_p(v.foreign)}%"
        return self.pick(["Foreign transaction fee", "Foreign transaction fees"]), value

    def bt_fee_pair(self, v: View) -> tuple[str, str]:
        pct, minimum = f"{_p(v.bt_fee[0])}%", _money(v.bt_fee[1])
        return "Balance transfer fee", self.pick(
            [
                f"{pct} (min {minimum})",
                f"{pct} of each transfer, minimum {minimum}",
                f"{minimum} or {pct}, whichever is greater",
            ]
        )

    def late_pair(self, v: View) -> tuple[str, str]:
        return self.pick(["Late fee", "Late payment fee"]), f"Up to {_money(v.late)}"

    def cash_pair(self, v: View) -> tuple[str, str]:
        return "Cash advance APR", f"{_p(v.ca_apr)}%"

    def cash_fee_pair(self, v: View) -> tuple[str, str]:
        pct, minimum = f"{_p(v.ca_fee[0])}%", _money(v.ca_fee[1])
        return "Cash advance fee", self.pick(
            [f"{pct} (min {minimum})", f"{minimum} or {pct}, whichever is greater"]
        )

    def penalty_pair(self, v: View) -> tuple[str, str]:
        return "Penalty APR", f"Up to {_p(v.penalty or 0)}%"

    def intro_pair(
        self, v: View, kind: str, *, months: bool = True, scoped_label: bool = False
    ) -> tuple[str, str]:
        offer = v.intro_purchase if kind == "purchase" else v.intro_bt
        if offer is None:
            raise ValueError("no offer to describe")
        rate, n = offer
        target = "purchases" if kind == "purchase" else "balance transfers"
        scoped = [
            f"Intro APR ({target})",
            "Intro purchase APR" if kind == "purchase" else "Intro balance transfer APR",
        ]
        label = self.pick(scoped if scoped_label else [*scoped, "Intro APR"])
        if label == "Intro APR":
            return label, f"{_p(rate)}% on {target}" + (f" for {n} months" if months else "")
        return label, f"{_p(rate)}%" + (f" for {n} months" if months else "")
