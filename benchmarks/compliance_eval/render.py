"""Rendering machinery shared by both phrasing pools: number formatting and the item context.

A template module (``templates_tuning`` / ``templates_heldout``) decides *how* things are said;
this module decides nothing about wording. It formats figures in the style the template asks for
and records every figure it prints (card, term, value, surface text), so the item's labels come
from how it was made: a figure printed from an overridden value is the planted defect, and its
surface text is the planted span.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benchmarks.compliance_eval.catalog import Card, Customer, SeedCatalog

T = TypeVar("T")

# --- numbers in words ----------------------------------------------------------------------

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def int_words(n: int, *, british: bool = False) -> str:
    """0..9999 in words: 95 -> 'ninety-five', 695 -> 'six hundred ninety-five'."""
    if not 0 <= n <= 9999:
        raise ValueError(f"{n} out of range for words")
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = f"{_ONES[hundreds]} hundred"
        if not rest:
            return head
        return f"{head} {'and ' if british else ''}{int_words(rest)}"
    thousands, rest = divmod(n, 1000)
    head = f"{int_words(thousands)} thousand"
    if not rest:
        return head
    joiner = " and " if british and rest < 100 else " "
    return f"{head}{joiner}{int_words(rest, british=british)}"


def num(x: float) -> str:
    """19.99 -> '19.99', 3.0 -> '3', 2.7 -> '2.7', 0.5 -> '0.5'."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def pct_text(x: float, style: str) -> str:
    v = num(x)
    if style == "sym":
        return f"{v}%"
    if style == "space":
        return f"{v} %"
    if style == "word":
        return f"{v} percent"
    if style == "percent_uk":
        return f"{v} per cent"
    raise ValueError(f"unknown percent style {style!r}")


def money_text(x: float, style: str, *, british: bool = False) -> str:
    if not float(x).is_integer():
        return f"${x:,.2f}"
    n = int(x)
    if n == 0:
        return "$0.00" if style == "cents" else "$0"
    if style == "sym":
        return f"${n:,}"
    if style == "cents":
        return f"${n:,}.00"
    if style == "dollars":
        return f"{n:,} dollars"
    if style == "usd":
        return f"US${n:,}"
    if style == "words":
        if n > 9999:
            return f"${n:,}"
        return f"{int_words(n, british=british)} dollars"
    raise ValueError(f"unknown money style {style!r}")


_MONTH_IDIOMS: dict[int, tuple[str, ...]] = {
    6: ("six months", "half a year"),
    12: ("a full year", "twelve months", "a year", "one year"),
    18: ("a year and a half", "eighteen months"),
}


def months_text(n: int, style: str, rng: random.Random) -> str:
    if style == "num":
        return f"{n} months"
    if style == "word":
        return f"{int_words(n)} months"
    if style == "idiom":
        if n in _MONTH_IDIOMS:
            return rng.choice(_MONTH_IDIOMS[n])
        return f"{int_words(n)} months"
    if style == "mo":
        return f"{n} mo."
    if style == "cycles":
        return f"{n} billing cycles"
    if style == "hyphen":  # adjective: "a 15-month intro period"
        return f"{n}-month"
    raise ValueError(f"unknown months style {style!r}")


# --- British spelling of template text (never of card names or figures) --------------------

_BRITISH: tuple[tuple[str, str], ...] = (
    ("favorite", "favourite"),
    ("favor", "favour"),
    ("color", "colour"),
    ("behavior", "behaviour"),
    ("organization", "organisation"),
    ("organize", "organise"),
    ("realize", "realise"),
    ("recognize", "recognise"),
    ("prioritize", "prioritise"),
    ("maximize", "maximise"),
    ("minimize", "minimise"),
    ("optimize", "optimise"),
    ("utilization", "utilisation"),
    ("analyze", "analyse"),
    ("center", "centre"),
    ("traveler", "traveller"),
    ("traveling", "travelling"),
    ("program", "programme"),
    ("fulfill", "fulfil"),
    ("labor", "labour"),
    ("honor", "honour"),
    ("neighbor", "neighbour"),
    ("percent", "per cent"),
    ("check", "cheque"),  # only the payment sense is ever written as "paper check" in templates
)
_BRIT_RE = [(re.compile(rf"\b{a}", re.IGNORECASE), b) for a, b in _BRITISH]


def britishize(text: str) -> str:
    def keep_case(repl: str) -> Callable[[re.Match[str]], str]:
        def sub(m: re.Match[str]) -> str:
            return repl[0].upper() + repl[1:] if m.group(0)[0].isupper() else repl

        return sub

    for rx, repl in _BRIT_RE:
        if rx.pattern == r"\bcheck":
            text = re.sub(r"\bpaper check", "paper cheque", text)
            continue
        text = rx.sub(keep_case(repl), text)
    return text


# --- the item context ------------------------------------------------------------------------


@dataclass
class Defect:
    """The one thing planted in a defective item (None for a compliant one)."""

    code: str
    sub: str
    card_id: str | None
    kind: str | None = None
    override: dict[str, Any] = field(default_factory=dict)
    display_name: str | None = None
    detail: str = ""

    def __post_init__(self) -> None:
        if not self.code:
            raise ValueError("a defect needs a reason code")


# Which template key a claim uses, from its (possibly overridden) values; the layouts never pick.
FEE_KINDS = ("annual_fee", "late_fee", "foreign_fee", "cash_fee", "bt_fee")
INTRO_KINDS = ("intro_purchase", "intro_bt")


class Ctx:
    """Everything one item's rendering needs, and the record of what it said."""

    def __init__(
        self,
        *,
        rng: random.Random,
        pool: Any,
        catalog: SeedCatalog,
        tags: frozenset[str],
        defect: Defect | None,
        want: set[str],
        customer: Customer | None,
    ) -> None:
        self.rng = rng
        self.pool = pool
        self.catalog = catalog
        self.tags = tags
        self.defect = defect
        self.want = set(want)
        self.customer = customer
        self.cards: list[Card] = []
        self.recommended: list[Card] = []
        self.ruled_out: list[tuple[Card, str]] = []
        self.held: list[Card] = []
        self.plans: dict[str, list[str]] = {}
        self.facts: list[dict[str, Any]] = []
        self.derived: list[dict[str, Any]] = []
        self.contrasts: list[str] = []
        self.hn: set[str] = set()
        self.planted_texts: list[str] = []
        self.span: str | None = None
        self.mentions: list[str] = []
        self._cur: tuple[Card, str] | None = None
        self._cur_planted: list[str] = []
        self.style = {
            "pct": rng.choice(list(pool.FORMATS["pct"])),
            "money": rng.choice(list(pool.FORMATS["money"])),
            "months": rng.choice(list(pool.FORMATS["months"])),
        }
        if "british" in tags and rng.random() < 0.3:
            self.style["pct"] = "percent_uk"
        if "fee_words" in want:
            self.style["money"] = "words"
        if "months_words" in want:
            self.style["months"] = rng.choice(["word", "idiom"])

    # -- small helpers --
    def pick(self, seq: Sequence[T]) -> T:
        if not seq:
            raise ValueError("pick from an empty sequence")
        return seq[self.rng.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    @property
    def british(self) -> bool:
        return "british" in self.tags

    def emoji(self, key: str) -> str:
        if "emoji" not in self.tags:
            return ""
        return self.pick(self.pool.EMOJI[key]) + " "

    def fill(self, template: str, **fields: Any) -> str:
        """Format ``template``; callables are evaluated only for fields the template uses."""
        if self.british:
            template = britishize(template)
        out = []
        for literal, fname, spec, conv in string.Formatter().parse(template):
            out.append(literal)
            if fname is None:
                continue
            if fname not in fields:
                raise KeyError(f"template field {fname!r} missing: {template!r}")
            value = fields[fname]
            if callable(value):
                value = value()
            out.append(format(value, spec or ""))
            del conv
        return _articles("".join(out))

    # -- names --
    def name(self, card: Card) -> str:
        d = self.defect
        self.mentions.append(card.card_id)
        if d is not None and d.display_name and d.card_id == card.card_id:
            if d.code == "misspelled_card":
                # A typo happens once; later mentions are spelled right.
                if self.span is None:
                    self.span = d.display_name
                    return d.display_name
                return card.name
            self.span = self.span or d.display_name
            return d.display_name
        return card.name

    # -- figures (each one is recorded) --
    def _record(self, fname: str, value: Any, text: str) -> None:
        if self._cur is None:
            raise RuntimeError("a catalog figure printed outside a claim")
        card, kind = self._cur
        planted = self._is_planted(card, kind, fname)
        if planted:
            self._cur_planted.append(text)
        self.facts.append(
            {
                "card_id": card.card_id,
                "kind": kind,
                "field": fname,
                "value": value,
                "text": text,
                "planted": planted,
            }
        )

    def _is_planted(self, card: Card, kind: str, fname: str) -> bool:
        d = self.defect
        if d is None or d.card_id != card.card_id:
            return False
        if d.kind == "purchase_apr" and fname.startswith("goto_"):
            # a wrong purchase APR is also wrong where an intro offer says what follows it
            return fname[len("goto_") :] in d.override
        return d.kind == kind and fname in d.override

    def pct(self, x: float, fname: str, style: str | None = None) -> str:
        text = pct_text(x, style or self.style["pct"])
        self._record(fname, x, text)
        return text

    def money(self, x: float, fname: str, style: str | None = None) -> str:
        text = money_text(x, style or self.style["money"], british=self.british)
        self._record(fname, x, text)
        return text

    def months(self, n: int, fname: str, style: str | None = None) -> str:
        st = style or self.style["months"]
        text = months_text(n, st, self.rng)
        if st in ("word", "idiom") and self._cur is not None and self._cur[1] in INTRO_KINDS:
            self.hn.add("hn_intro_months_words")
        self._record(fname, n, text)
        return text

    def number(self, x: float, fname: str, suffix: str = "") -> str:
        """A bare catalog number ("3x", "1.25"), e.g. a points-per-dollar rate."""
        text = f"{num(x)}{suffix}"
        self._record(fname, x, text)
        return text

    def qual(self, text: str, fname: str, value: float = 0.0) -> str:
        """A figure stated in words only ("no late fee", "fee-free")."""
        self._record(fname, value, text)
        return text

    def derived_money(self, x: float, formula: str, **inputs: Any) -> str:
        text = money_text(round(x), "sym")
        self.derived.append({"formula": formula, "value": round(x), "text": text, **inputs})
        return text

    def example_money(self, x: float) -> str:
        text = money_text(x, "sym")
        self.derived.append({"formula": "example", "value": x, "text": text})
        return text

    def contrast_money(self, x: float) -> str:
        text = money_text(x, "sym")
        self.contrasts.append(text)
        return text

    # -- claims --
    def vals(self, card: Card, kind: str) -> dict[str, Any]:
        v = true_values(card, kind)
        if kind in INTRO_KINDS or kind == "no_intro_purchase":
            # the rate the intro rolls into is the purchase APR (overridden with it, if planted)
            v.update({f"goto_{k}": x for k, x in self.vals(card, "purchase_apr").items()})
        d = self.defect
        if d is not None and d.card_id == card.card_id and d.kind == kind:
            v.update(d.override)
        return v

    def is_target(self, card: Card, kind: str) -> bool:
        d = self.defect
        return d is not None and d.card_id == card.card_id and d.kind == kind

    def claim(self, card: Card, kind: str, form: str) -> str:
        """One statement of one term of one card, in one of: sentence, bullet, cell, clause."""
        if self._cur is not None:
            raise RuntimeError("nested claim")
        self._cur = (card, kind)
        self._cur_planted = []
        try:
            v = self.vals(card, kind)
            key = self.claim_key(card, kind, form, v)
            text = self.fill(self.pick(self._templates(form, key)), **self._fields(card, kind, v))
            if key.endswith(("_zero", "_none", "_any")):
                self._record_qualitative(kind, key, v, text)
        finally:
            self._cur = None
        if self.is_target(card, kind):
            self.span = self.span or _cover(text, self._cur_planted) or text.strip()
            self.planted_texts.extend(self._cur_planted)
        return text

    # -- which template, and the fields it may use --
    def claim_key(self, card: Card, kind: str, form: str, v: Mapping[str, Any]) -> str:
        if kind == "penalty_apr":
            return "penalty_apr_none" if v["rate"] is None else kind
        if kind in INTRO_KINDS:
            if v["rate"] is None:
                return f"{kind}_none"
            if v["months"] is None:
                return f"{kind}_nomonths"
            # the "0% on purchases for a year" wording: a true offer, or the planted false one
            planted_noapr = self.defect is not None and self.defect.sub == "no_apr_word"
            noapr_ok = not self.is_target(card, kind) or planted_noapr
            if "intro_noapr" in self.want and form in ("sentence", "clause") and noapr_ok:
                self.hn.add("hn_intro_no_apr_word")
                return f"{kind}_noapr"
            if self._goto_separate(card, kind):
                return f"{kind}_sep"
            return kind
        if kind == "no_intro_purchase":
            self.hn.add("hn_no_intro_stated")
            return "no_intro_any" if v["bt_rate"] is None else "no_intro_purchase_but_bt"
        if kind == "annual_fee":
            if v["fee"] == 0 and v["first"] == 0:
                if not self.is_target(card, kind):
                    self.hn.add("hn_no_fee_true")
                return "annual_fee_zero"
            if v["first"] < v["fee"]:
                if not self.is_target(card, kind):
                    self.hn.add("hn_first_year_waiver")
                return "annual_fee_waiver"
            if "contrast" in self.want and not self.is_target(card, kind):
                self.hn.add("hn_fee_contrast")
                return "annual_fee_contrast"
            if self.style["money"] == "words" and not self.is_target(card, kind):
                self.hn.add("hn_fee_words")
            return kind
        if kind == "late_fee":
            if v["fee"] == 0:
                return "late_fee_zero"
            if "contrast_late" in self.want and not self.is_target(card, kind):
                self.hn.add("hn_fee_contrast")
                return "late_fee_contrast"
            return kind
        if kind == "foreign_fee":
            if v["pct"] == 0:
                if not self.is_target(card, kind):
                    if "zero_pct_other" in self.want:
                        self.hn.add("hn_zero_pct_other")
                        return "foreign_fee_zeropct"
                    self.hn.add("hn_no_fee_true")
                return "foreign_fee_zero"
            return kind
        if kind in ("cash_fee", "bt_fee"):
            if v["pct"] == 0:
                return f"{kind}_zero"
            if not self.is_target(card, kind):
                self.hn.add("hn_fee_pct_min")
            return kind
        if kind in ("cash_apr",):
            self.hn.add("hn_other_apr")
        if kind == "rewards" and card.reward_currency == "cash_back":
            self.hn.add("hn_rewards_pct")
        if kind == "network":
            self.hn.add("hn_network")
        return kind

    def _goto_separate(self, card: Card, kind: str) -> bool:
        d = self.defect
        if d is not None and d.card_id == card.card_id and d.sub == "intro_no_goto":
            return d.kind == kind
        if "purchase_apr" not in self.plan(card):
            return False
        if "intro_far" in self.want:
            self.hn.add("hn_intro_disclosed_far")
            return True
        if self.chance(0.3):
            self.hn.add("hn_intro_disclosed_far")
            return True
        return False

    def _templates(self, form: str, key: str) -> Sequence[str]:
        table = {
            "sentence": self.pool.SENT,
            "bullet": self.pool.BULLET,
            "cell": self.pool.CELL,
            "clause": self.pool.CLAUSE,
        }[form]
        if key in table:
            return table[key]
        if key in self.pool.SENT and form == "clause":
            return self.pool.SENT[key]
        raise KeyError(f"pool {self.pool.NAME}: no {form} template for {key!r}")

    def _fields(self, card: Card, kind: str, v: Mapping[str, Any]) -> dict[str, Any]:
        f: dict[str, Any] = {
            "name": lambda: self.name(card),
            "issuer": card.issuer,
            "network": lambda: self._network(card),
        }
        if kind == "purchase_apr":
            f["apr"] = lambda: self.apr_phrase(v, "", "np")
            f["apr_val"] = lambda: self.apr_phrase(v, "", "val")
        if "goto_lo" in v:
            f["goto"] = lambda: self.apr_phrase(v, "goto_", "np")
            f["goto_val"] = lambda: self.apr_phrase(v, "goto_", "val")
        if kind in INTRO_KINDS:
            f["rate"] = lambda: self.pct(v["rate"], "rate")
            f["months"] = lambda: self.months(v["months"], "months")
            f["months_adj"] = lambda: self._months_adj(v["months"], "months")
        if kind == "no_intro_purchase" and v["bt_rate"] is not None:
            f["rate"] = lambda: self.pct(v["bt_rate"], "bt_rate")
            f["months"] = lambda: self.months(v["bt_months"], "bt_months")
            f["months_adj"] = lambda: self._months_adj(v["bt_months"], "bt_months")
        if kind in ("cash_apr", "penalty_apr") and v["rate"] is not None:
            f["rate"] = lambda: self.pct(v["rate"], "rate")
        if kind in ("annual_fee", "late_fee"):
            f["fee"] = lambda: self.money(v["fee"], "fee")
        if kind == "annual_fee":
            f["first"] = lambda: self.money(v["first"], "first")
            f["other"] = lambda: self.contrast_money(_contrast_value(v["fee"]))
        if kind == "late_fee":
            f["other"] = lambda: self.contrast_money(_contrast_value(v["fee"]))
        if kind in ("foreign_fee", "cash_fee", "bt_fee"):
            f["pct"] = lambda: self.pct(v["pct"], "pct")
        if kind in ("cash_fee", "bt_fee"):
            f["min"] = lambda: self.money(v["min"], "min", "sym")
        if kind == "signup":
            f["bonus"] = lambda: self.money(v["bonus"], "bonus", "sym")
            f["spend"] = lambda: self.money(v["spend"], "spend", "sym")
            f["months"] = lambda: self.months(v["months"], "signup_months", "num")
        if kind == "grace":
            f["days"] = lambda: self._days(v["days"])
        if kind == "min_interest":
            f["amount"] = lambda: self.money(v["amount"], "amount", "sym")
        if kind == "rewards":
            f["rewards"] = lambda: self.pool.rewards_phrase(self, card)
        return f

    def _network(self, card: Card) -> str:
        self.hn.add("hn_network")
        return card.network

    def _days(self, n: int) -> str:
        text = f"{n} days"
        self._record("days", n, text)
        return text

    def _months_adj(self, n: int, fname: str) -> str:
        st = self.style["months"]
        text = f"{int_words(n)}-month" if st in ("word", "idiom") else f"{n}-month"
        if st in ("word", "idiom"):
            self.hn.add("hn_intro_months_words")
        self._record(fname, n, text)
        return text

    def _record_qualitative(self, kind: str, key: str, v: Mapping[str, Any], text: str) -> None:
        fields = {
            "annual_fee": ("fee", "first"),
            "late_fee": ("fee",),
            "foreign_fee": ("pct",),
            "cash_fee": ("pct",),
            "bt_fee": ("pct",),
            "intro_purchase": ("rate",),
            "intro_bt": ("rate",),
            "penalty_apr": ("rate",),
            "no_intro_purchase": ("intro_purchase_rate",),
        }[kind]
        for fname in fields:
            value = v.get(fname) if fname != "intro_purchase_rate" else None
            self._record(fname, value, text.strip())

    def reward_pct(self, x: float, fname: str) -> str:
        return self.pct(x, fname, "sym" if self.style["pct"] == "word" else None)

    def apr_phrase(self, v: Mapping[str, Any], prefix: str = "", role: str = "np") -> str:
        """The purchase APR (or what an intro rolls into) as the pool words it."""
        lo, hi, var = v[f"{prefix}lo"], v[f"{prefix}hi"], v[f"{prefix}variable"]
        shape = "range" if lo != hi else ("single_var" if var else "fixed")
        if shape != "range" and self._cur is not None and not self.is_target(*self._cur):
            self.hn.add("hn_fixed_apr")
        tmpl = self.pick(self.pool.APR[f"{role}_{shape}"])
        style = self.style["pct"]
        return self.fill(
            tmpl,
            lo=lambda: self.pct(lo, f"{prefix}lo", style),
            hi=lambda: self.pct(hi, f"{prefix}hi", style),
            rate=lambda: self.pct(lo, f"{prefix}lo", style),
        )

    def plan(self, card: Card) -> list[str]:
        return self.plans.get(card.card_id, [])


_AN = re.compile(r"\b([Aa]) (?=\$?(?:8\d*|11|18)(?!\d)|eight|eleven)")


def _articles(text: str) -> str:
    """'a 18.74% APR' -> 'an 18.74% APR' (figures are filled in after the template is written)."""
    return _AN.sub(lambda m: m.group(1) + "n ", text)


def _contrast_value(fee: float) -> float:
    """A plausible figure someone may have seen elsewhere, for "$99 - not the $95 ..." lines."""
    for a, b in ((95, 99), (99, 95), (250, 295), (495, 550), (550, 495), (695, 595), (325, 395)):
        if fee == a:
            return b
    return fee + 10 if fee < 100 else fee + 50


def _cover(text: str, parts: Sequence[str]) -> str | None:
    """The shortest substring of ``text`` from the first planted figure to the last."""
    spots = [(text.find(p), p) for p in parts if p and text.find(p) >= 0]
    if not spots:
        return None
    start = min(s for s, _ in spots)
    end = max(s + len(p) for s, p in spots)
    return text[start:end]


def true_values(card: Card, kind: str) -> dict[str, Any]:
    if kind == "purchase_apr":
        return {"lo": card.apr_min, "hi": card.apr_max, "variable": card.apr_variable}
    if kind == "cash_apr":
        return {"rate": card.cash_apr}
    if kind == "penalty_apr":
        return {"rate": card.penalty_apr}
    if kind == "intro_purchase":
        return {"rate": card.intro_purchase_rate, "months": card.intro_purchase_months}
    if kind == "intro_bt":
        return {"rate": card.intro_bt_rate, "months": card.intro_bt_months}
    if kind == "no_intro_purchase":
        return {"bt_rate": card.intro_bt_rate, "bt_months": card.intro_bt_months}
    if kind == "annual_fee":
        return {"fee": card.annual_fee, "first": card.first_year_fee}
    if kind == "late_fee":
        return {"fee": card.late_fee}
    if kind == "foreign_fee":
        return {"pct": card.foreign_fee_pct}
    if kind == "cash_fee":
        return {"pct": card.cash_fee_pct, "min": card.cash_fee_min}
    if kind == "bt_fee":
        return {"pct": card.bt_fee_pct, "min": card.bt_fee_min}
    if kind == "signup":
        return {
            "bonus": card.signup_bonus,
            "spend": card.signup_spend,
            "months": card.signup_months,
        }
    if kind == "grace":
        return {"days": card.grace_days}
    if kind == "min_interest":
        return {"amount": card.min_interest}
    if kind in ("rewards", "network"):
        return {}
    raise ValueError(f"unknown claim kind {kind!r}")
