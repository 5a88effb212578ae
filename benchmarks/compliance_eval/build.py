"""Build the labelled compliance evalset: realistic card answers, half compliant, half with one
planted defect each, labelled by construction (never by running the verifier).

Usage: ``python benchmarks/compliance_eval/build.py --seeds 1 2 3 --out DIR [--scale 0.01]``
writes ``DIR/tuning.jsonl``, ``DIR/heldout.jsonl`` and ``DIR/manifest.json``.

Per seed and split: 75 compliant items (each built around one hard-negative class: a compliant
answer that looks like a defect) and 75 defective ones (quota per reason code, cycling through
sub-classes). The tuning split is worded by ``templates_tuning``, the held-out split by
``templates_heldout``. Every random choice comes from a generator seeded by
(seed, split, item index, attempt) through SHA-256, so the same seeds give byte-identical files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.compliance_eval import templates_heldout, templates_tuning
from benchmarks.compliance_eval.catalog import (
    Card,
    Customer,
    SeedCatalog,
    annual_rewards_usd,
    is_clean_invention,
    is_clean_typo,
    load_catalog,
    near_collision_pairs,
)
from benchmarks.compliance_eval.render import Ctx, Defect, britishize

SCHEMA_VERSION = 1
SPLITS: dict[str, ModuleType] = {"tuning": templates_tuning, "heldout": templates_heldout}
COMPLIANT_PER_SPLIT = 75

DEFECT_QUOTA: dict[str, int] = {
    "unknown_card": 10,
    "misspelled_card": 9,
    "wrong_apr": 9,
    "false_intro_offer": 9,
    "wrong_intro_terms": 8,
    "wrong_fee": 12,
    "ineligible_card": 9,
    "missing_disclosure": 9,
}
REASON_CODES: tuple[str, ...] = tuple(DEFECT_QUOTA)

SUBCLASSES: dict[str, tuple[str, ...]] = {
    "unknown_card": (
        "invented_premium",
        "issuer_premium",
        "invented_line",
        "invented_brand",
        "tier_added",
        "tier_dropped",
    ),
    "misspelled_card": ("substitution", "transposition", "deletion", "insertion"),
    "wrong_apr": ("purchase_range", "purchase_single", "cash_apr", "goto", "other_card_range"),
    "false_intro_offer": ("purchase_absent", "bt_absent", "no_apr_word"),
    "wrong_intro_terms": ("months", "rate", "months_words"),
    "wrong_fee": (
        "annual_amount",
        "late_amount",
        "foreign_pct",
        "cash_fee_pct",
        "bt_fee_pct",
        "no_late_fee",
        "no_cash_advance_fee",
        "bt_fee_free",
        "no_foreign_fee",
        "no_annual_fee",
        "false_waiver",
        "waiver_not_offered",
    ),
    "ineligible_card": (
        "credit_score_below_min",
        "student_only",
        "recent_bankruptcy",
        "already_holds_card",
    ),
    "missing_disclosure": ("intro_no_months", "intro_no_goto", "rec_fee_omitted"),
}

# Compliant look-alikes, and the reason code each one could be mistaken for.
HARD_NEGATIVES: dict[str, str] = {
    "hn_issuer_only": "unknown_card",
    "hn_generic_phrase": "unknown_card",
    "hn_short_label": "unknown_card",
    "hn_network": "unknown_card",
    "hn_near_collision": "misspelled_card",
    "hn_british_names": "misspelled_card",
    "hn_fixed_apr": "wrong_apr",
    "hn_other_apr": "wrong_apr",
    "hn_rewards_pct": "wrong_apr",
    "hn_no_intro_stated": "false_intro_offer",
    "hn_zero_pct_other": "false_intro_offer",
    "hn_intro_no_apr_word": "false_intro_offer",
    "hn_intro_months_words": "wrong_intro_terms",
    "hn_intro_both": "wrong_intro_terms",
    "hn_nonzero_intro": "wrong_intro_terms",
    "hn_first_year_waiver": "wrong_fee",
    "hn_fee_contrast": "wrong_fee",
    "hn_fee_words": "wrong_fee",
    "hn_no_fee_true": "wrong_fee",
    "hn_fee_pct_min": "wrong_fee",
    "hn_value_statement": "wrong_fee",
    "hn_ineligible_ruled_out": "ineligible_card",
    "hn_already_holds": "ineligible_card",
    "hn_eligible_rec": "ineligible_card",
    "hn_intro_disclosed_far": "missing_disclosure",
    "hn_rec_fee_elsewhere": "missing_disclosure",
    "hn_rec_no_fee_card": "missing_disclosure",
}

LAYOUT_WEIGHTS: dict[str, int] = {
    "qa_short": 30,
    "fact_sheet": 12,
    "comparison_table": 11,
    "comparison_prose": 11,
    "long_explainer": 12,
    "casual_chat": 10,
    "marketing": 6,
}
FREE_FORM_LAYOUTS = frozenset(
    {
        "fact_sheet",
        "comparison_table",
        "comparison_prose",
        "long_explainer",
        "casual_chat",
        "marketing",
    }
)
NAME_CODES = frozenset({"unknown_card", "misspelled_card"})
TABLE_KINDS = (
    "annual_fee",
    "purchase_apr",
    "intro_purchase",
    "intro_bt",
    "foreign_fee",
    "late_fee",
    "rewards",
    "bt_fee",
    "cash_fee",
    "signup",
)
CANON_ORDER = (
    "purchase_apr",
    "intro_purchase",
    "intro_bt",
    "no_intro_purchase",
    "annual_fee",
    "rewards",
    "signup",
    "foreign_fee",
    "late_fee",
    "bt_fee",
    "cash_fee",
    "cash_apr",
    "penalty_apr",
    "grace",
    "min_interest",
    "network",
)
OPTIONAL_KINDS = (
    "late_fee",
    "foreign_fee",
    "bt_fee",
    "cash_fee",
    "cash_apr",
    "penalty_apr",
    "rewards",
    "signup",
    "grace",
    "min_interest",
)
BUDGET: dict[str, tuple[int, int]] = {
    "qa_short": (2, 4),
    "fact_sheet": (5, 8),
    "comparison_table": (3, 5),
    "comparison_prose": (3, 4),
    "long_explainer": (6, 9),
    "recommendation": (3, 5),
    "casual_chat": (2, 4),
    "marketing": (4, 6),
}
MAX_ATTEMPTS = 60


class BuildFailure(RuntimeError):
    """No item satisfying a spec could be made (a catalog too small for a class, or a bug)."""


@dataclass(frozen=True)
class Spec:
    seed: int
    split: str
    index: int
    label: str  # "compliant" or a reason code
    sub: str  # defect sub-class, or the hard-negative class of a compliant item

    def __post_init__(self) -> None:
        if self.split not in SPLITS:
            raise ValueError(f"unknown split {self.split!r}")
        if self.label != "compliant" and self.label not in DEFECT_QUOTA:
            raise ValueError(f"unknown label {self.label!r}")
        if self.label == "compliant" and self.sub not in HARD_NEGATIVES:
            raise ValueError(f"unknown hard-negative class {self.sub!r}")
        if self.label != "compliant" and self.sub not in SUBCLASSES[self.label]:
            raise ValueError(f"unknown sub-class {self.sub!r} of {self.label}")

    @property
    def item_id(self) -> str:
        return f"cc-s{self.seed}-{self.split}-{self.index:03d}"


def rng_for(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def schedule(seed: int, split: str) -> list[Spec]:
    """The labels of one seed's split, in a shuffled but fixed order."""
    rng = rng_for("schedule", seed, split)
    offset = seed * 2 + (split == "heldout")
    pairs: list[tuple[str, str]] = []
    for code, n in DEFECT_QUOTA.items():
        subs = SUBCLASSES[code]
        pairs += [(code, subs[(offset + i) % len(subs)]) for i in range(n)]
    hns = list(HARD_NEGATIVES)
    pairs += [("compliant", hns[(offset + i) % len(hns)]) for i in range(COMPLIANT_PER_SPLIT)]
    rng.shuffle(pairs)
    return [Spec(seed, split, i, label, sub) for i, (label, sub) in enumerate(pairs)]


# --- item setup: which cards, which customer, what is planted ----------------------------------


@dataclass
class Setup:
    layout: str
    cards: list[Card]
    customer: Customer | None = None
    defect: Defect | None = None
    want: set[str] | None = None
    recommended: list[Card] | None = None
    ruled_out: list[tuple[Card, str]] | None = None
    held: list[Card] | None = None
    required: dict[str, list[str]] | None = None  # card_id -> kinds it must state
    excluded: dict[str, set[str]] | None = None  # card_id -> kinds it must not state
    tags: frozenset[str] = frozenset()


def _weighted_layout(rng: random.Random, allowed: Sequence[str] | None = None) -> str:
    names = [n for n in LAYOUT_WEIGHTS if allowed is None or n in allowed]
    weights = [LAYOUT_WEIGHTS[n] for n in names]
    return rng.choices(names, weights)[0]


def _pick(rng: random.Random, seq: Sequence[Any]) -> Any:
    if not seq:
        raise BuildFailure("no candidate")
    return seq[rng.randrange(len(seq))]


def _companions(
    cat: SeedCatalog, rng: random.Random, focus: Card, n: int, avoid: set[str]
) -> list[Card]:
    same = [c for c in cat.cards if c.card_type == focus.card_type and c.card_id not in avoid]
    other = [c for c in cat.cards if c.card_id not in avoid and c not in same]
    if n <= 0:
        return []
    rng.shuffle(same)
    rng.shuffle(other)
    pool = same + other
    out = []
    for c in pool:
        if c.card_id == focus.card_id or (c.apr_min, c.apr_max) == (focus.apr_min, focus.apr_max):
            continue
        out.append(c)
        if len(out) == n:
            break
    return out


def _typo(rng: random.Random, card: Card, op: str, names: Sequence[str]) -> str | None:
    keyboard = {
        "a": "sqz", "b": "vn", "c": "xv", "d": "sf", "e": "wr", "f": "dg", "g": "fh", "h": "gj",
        "i": "uo", "j": "hk", "k": "jl", "l": "k", "m": "n", "n": "bm", "o": "ip", "p": "o",
        "q": "w", "r": "et", "s": "ad", "t": "ry", "u": "yi", "v": "cb", "w": "qe", "x": "zc",
        "y": "tu", "z": "x",
    }  # fmt: skip
    words = card.name.split()
    spots = [i for i, w in enumerate(words) if w.isalpha() and len(w) >= 5]
    for _ in range(40):
        if not spots:
            return None
        wi = _pick(rng, spots)
        w = words[wi]
        pos = rng.randrange(1, len(w) - 1)
        ch = w[pos].lower()
        if op == "substitution":
            new = w[:pos] + _pick(rng, keyboard.get(ch, "e")) + w[pos + 1 :]
        elif op == "deletion":
            new = w[:pos] + w[pos + 1 :]
        elif op == "insertion":
            new = w[:pos] + w[pos] + w[pos:]
        elif op == "transposition":
            if w[pos] == w[pos + 1]:
                continue
            new = w[:pos] + w[pos + 1] + w[pos] + w[pos + 2 :]
        else:
            raise ValueError(op)
        cand = " ".join([*words[:wi], new, *words[wi + 1 :]])
        if britishize(cand) == card.name or britishize(card.name) == cand:
            continue  # "Harbour" for "Harbor" is a spelling variant, not a typo
        if is_clean_typo(cand, card.name, names):
            return cand
    return None


def _issuer_short(issuer: str) -> str:
    words = issuer.split()
    drop = {"Bank", "Bancorp", "Financial", "Trust", "National", "Savings"}
    while len(words) > 1 and words[-1] in drop:
        words.pop()
    return " ".join(words)


def _invented(
    rng: random.Random, cat: SeedCatalog, sub: str, pool: ModuleType
) -> tuple[Card, str] | None:
    names = cat.names
    for _ in range(60):
        base = _pick(rng, cat.cards)
        words = base.name.split()
        if sub == "invented_premium":
            extra = rng.sample(list(pool.PREMIUM_WORDS), rng.choice((2, 3)))
            cand = " ".join([words[0], *extra])
        elif sub == "issuer_premium":
            cand = f"{_issuer_short(base.issuer)} {_pick(rng, pool.ISSUER_PRODUCTS)}"
        elif sub == "invented_line":
            other = _pick(rng, cat.cards)
            line = " ".join(other.name.split()[1:]) or _pick(rng, pool.INVENTED_LINES)
            if rng.random() < 0.4:
                line = _pick(rng, pool.INVENTED_LINES)
            cand = f"{words[0]} {line}"
        elif sub == "invented_brand":
            cand = " ".join([_pick(rng, pool.INVENTED_BRANDS), *words[1:]])
            if len(words) == 1:
                continue
        elif sub == "tier_added":
            tier = _pick(rng, pool.TIER_WORDS)
            if tier in words:
                continue
            cand = f"{base.name} {tier}"
        elif sub == "tier_dropped":
            droppable = [i for i, w in enumerate(words) if i > 0 and len(w) >= 4]
            if len(words) < 3 or not droppable:
                continue
            i = _pick(rng, droppable)
            cand = " ".join(words[:i] + words[i + 1 :])
        else:
            raise ValueError(sub)
        if is_clean_invention(cand, names) and len(cand.split()) >= 2:
            return base, cand
    return None


def _alt(rng: random.Random, options: Sequence[float], *avoid: float | None) -> float:
    choices = [o for o in options if all(a is None or abs(o - a) > 1e-9 for a in avoid)]
    return float(_pick(rng, choices))


def _customer_with(
    cat: SeedCatalog,
    rng: random.Random,
    reason: str | None,
    min_eligible: int = 1,
) -> tuple[Customer, Card | None]:
    customers = list(cat.customers)
    rng.shuffle(customers)
    for cust in customers:
        eligible = [c for c in cat.cards if cat.eligible(cust.customer_id, c.card_id)]
        if len(eligible) < min_eligible:
            continue
        if reason is None:
            return cust, None
        hits = [c for c in cat.cards if cat.reason(cust.customer_id, c.card_id) == reason]
        if hits:
            return cust, _pick(rng, hits)
    raise BuildFailure(f"seed {cat.seed}: no customer with reason {reason!r}")


def _top_eligible(cat: SeedCatalog, rng: random.Random, cust: Customer, n: int) -> list[Card]:
    eligible = [c for c in cat.cards if cat.eligible(cust.customer_id, c.card_id)]
    eligible.sort(key=lambda c: -(annual_rewards_usd(c, cust) - c.annual_fee))
    top = eligible[:5]
    rng.shuffle(top)
    return top[:n]


def setup_for(spec: Spec, cat: SeedCatalog, rng: random.Random, pool: ModuleType) -> Setup:
    if spec.label == "compliant":
        return _setup_compliant(spec, cat, rng)
    return _setup_defect(spec, cat, rng, pool)


def _tags(rng: random.Random, layout: str, *, names_at_stake: bool) -> frozenset[str]:
    tags = set()
    lower_p = 0.35 if layout == "casual_chat" else 0.08
    if not names_at_stake and rng.random() < lower_p:
        tags.add("lowercase")
    if rng.random() < 0.15:
        tags.add("british")
    emoji_p = 0.35 if layout in ("casual_chat", "marketing", "fact_sheet") else 0.08
    if rng.random() < emoji_p:
        tags.add("emoji")
    return frozenset(tags)


def _multi(layout: str) -> int:
    return {
        "comparison_table": 2,
        "comparison_prose": 2,
        "long_explainer": 1,
        "casual_chat": 1,
    }.get(layout, 0)


def _with_companions(
    cat: SeedCatalog, rng: random.Random, layout: str, focus: Card, avoid: set[str]
) -> list[Card]:
    base = _multi(layout)
    if base == 0:
        return [focus]
    n = base if layout.startswith("comparison") else rng.choice((0, 1))
    if layout.startswith("comparison") and rng.random() < 0.35:
        n = 2
    if layout.startswith("comparison") and n < 1:
        n = 1
    if layout.startswith("comparison") and base == 2 and rng.random() < 0.6:
        n = 1
    cards = [focus, *_companions(cat, rng, focus, n, avoid | {focus.card_id})]
    rng.shuffle(cards)
    return cards


def _setup_defect(spec: Spec, cat: SeedCatalog, rng: random.Random, pool: ModuleType) -> Setup:
    code, sub = spec.label, spec.sub
    names = cat.names
    cards = list(cat.cards)
    rng.shuffle(cards)
    want: set[str] = set()
    required: list[str] = []
    excluded: set[str] = set()
    non_customer = [n for n in LAYOUT_WEIGHTS]

    if code == "unknown_card":
        got = _invented(rng, cat, sub, pool)
        if got is None:
            raise BuildFailure(f"no clean invented name for {sub}")
        base, display = got
        defect = Defect(
            code,
            sub,
            base.card_id,
            display_name=display,
            detail=f"invented name {display!r} (facts of {base.card_id}, {base.name})",
        )
        layout = _weighted_layout(rng, non_customer)
        avoid = {c.card_id for c in cat.cards if c.name.split()[:2] == base.name.split()[:2]}
        return Setup(
            layout,
            _with_companions(cat, rng, layout, base, avoid),
            defect=defect,
            want=want,
            required={},
            tags=_tags(rng, layout, names_at_stake=True),
        )

    if code == "misspelled_card":
        for card in cards:
            typo = _typo(rng, card, sub, names)
            if typo:
                break
        else:
            raise BuildFailure(f"no clean {sub} typo")
        defect = Defect(
            code, sub, card.card_id, display_name=typo, detail=f"{typo!r} for {card.name!r}"
        )
        layout = _weighted_layout(rng, non_customer)
        return Setup(
            layout,
            _with_companions(cat, rng, layout, card, set()),
            defect=defect,
            want=want,
            required={},
            tags=_tags(rng, layout, names_at_stake=True),
        )

    if code == "ineligible_card":
        cust, bad = _customer_with(cat, rng, sub, min_eligible=1)
        card = assert_card(bad)
        recommended = [card]
        if rng.random() < 0.4:
            others = [c for c in _top_eligible(cat, rng, cust, 2) if c.card_id != card.card_id]
            recommended += others[:1]
            rng.shuffle(recommended)
        defect = Defect(
            code,
            sub,
            card.card_id,
            detail=f"recommends {card.name} to customer {cust.customer_id} ({sub})",
        )
        layout = "recommendation"
        return Setup(
            layout,
            recommended,
            customer=cust,
            defect=defect,
            want=want,
            recommended=recommended,
            required={c.card_id: ["annual_fee"] for c in recommended},
            tags=_tags(rng, layout, names_at_stake=False),
        )

    if code == "missing_disclosure" and sub == "rec_fee_omitted":
        buyer: Customer | None = None
        pool_cards = [c for c in cat.cards if c.annual_fee > 0]
        if rng.random() < 0.5:
            buyer, _ = _customer_with(cat, rng, None, min_eligible=1)
            theirs = [c for c in pool_cards if cat.eligible(buyer.customer_id, c.card_id)]
            if theirs:
                pool_cards = theirs
            else:
                buyer = None
        card = _pick(rng, pool_cards)
        defect = Defect(
            code,
            sub,
            card.card_id,
            detail=f"recommends {card.name} without its {card.annual_fee:g} USD annual fee",
        )
        layout = "recommendation"
        return Setup(
            layout,
            [card],
            customer=buyer,
            defect=defect,
            want=want,
            recommended=[card],
            required={},
            excluded={card.card_id: {"annual_fee"}},
            tags=_tags(rng, layout, names_at_stake=False),
        )

    defect, card = _value_defect(code, sub, cat, rng, cards)
    if defect.kind:
        required.append(defect.kind)
    if code == "missing_disclosure" and sub == "intro_no_goto":
        excluded |= {"purchase_apr", "no_intro_purchase", "cash_apr", "penalty_apr"}
        excluded |= {k for k in ("intro_purchase", "intro_bt") if k != defect.kind}
    if code == "wrong_apr" and sub == "goto":
        excluded |= {"purchase_apr"} | {
            k for k in ("intro_purchase", "intro_bt") if k != defect.kind
        }
    if code == "wrong_intro_terms" and sub == "months_words":
        want.add("months_words")
    if code == "false_intro_offer" and sub == "no_apr_word":
        want.add("intro_noapr")
    allowed = list(LAYOUT_WEIGHTS)
    if defect.kind not in TABLE_KINDS:
        allowed.remove("comparison_table")
    if sub == "no_apr_word":
        allowed = ["qa_short", "casual_chat", "long_explainer"]
    layout = _weighted_layout(rng, allowed)
    if (
        code == "wrong_fee"
        and defect.kind == "annual_fee"
        and layout in ("qa_short", "fact_sheet")
        and rng.random() < 0.3
    ):
        pass
    comp = _with_companions(cat, rng, layout, card, set())
    recommended = [card] if layout == "marketing" else []
    if "annual_fee" in excluded:
        recommended = []
    return Setup(
        layout,
        comp,
        defect=defect,
        want=want,
        recommended=recommended,
        required={card.card_id: required},
        excluded={card.card_id: excluded},
        tags=_tags(rng, layout, names_at_stake=False),
    )


def assert_card(card: Card | None) -> Card:
    if card is None:
        raise BuildFailure("expected a card")
    return card


def _value_defect(
    code: str, sub: str, cat: SeedCatalog, rng: random.Random, cards: list[Card]
) -> tuple[Defect, Card]:
    """A wrong figure (or a false qualitative claim, or an omission) about one real card."""
    apr_grid = [x + y for x in range(12, 35) for y in (0.24, 0.49, 0.74, 0.99)]

    def first(pred: Callable[[Card], bool]) -> Card:
        for c in cards:
            if pred(c):
                return c
        raise BuildFailure(f"no card for {code}/{sub}")

    if code == "wrong_apr":
        if sub == "purchase_range":
            c = first(lambda c: not c.single_apr)
            shift = _pick(rng, (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 4.0))
            which = _pick(rng, ("both", "lo", "hi"))
            lo = c.apr_min + (shift if which in ("both", "lo") else 0)
            hi = c.apr_max + (shift if which in ("both", "hi") else 0)
            if lo >= hi:
                lo, hi = c.apr_min + shift, c.apr_max + shift
            return Defect(
                code,
                sub,
                c.card_id,
                "purchase_apr",
                {"lo": round(lo, 2), "hi": round(hi, 2)},
                detail=f"purchase APR {lo:.2f}-{hi:.2f} stated; catalog {c.apr_min}-{c.apr_max}",
            ), c
        if sub == "purchase_single":
            c = first(lambda c: c.single_apr)
            new = _alt(rng, apr_grid, c.apr_min, c.cash_apr, c.penalty_apr)
            return Defect(
                code,
                sub,
                c.card_id,
                "purchase_apr",
                {"lo": new, "hi": new},
                detail=f"purchase APR {new} stated; catalog {c.apr_min}",
            ), c
        if sub == "cash_apr":
            c = first(lambda c: True)
            new = _alt(
                rng,
                [x for x in apr_grid if x > 22],
                c.cash_apr,
                c.apr_min,
                c.apr_max,
                c.penalty_apr,
            )
            return Defect(
                code,
                sub,
                c.card_id,
                "cash_apr",
                {"rate": new},
                detail=f"cash advance APR {new} stated; catalog {c.cash_apr}",
            ), c
        if sub == "goto":
            c = first(lambda c: c.has_intro)
            kind = "intro_purchase" if c.intro_purchase_rate is not None else "intro_bt"
            shift = _pick(rng, (-2.0, -1.0, 1.0, 2.0, 3.0))
            lo, hi = round(c.apr_min + shift, 2), round(c.apr_max + shift, 2)
            return Defect(
                code,
                sub,
                c.card_id,
                kind,
                {"goto_lo": lo, "goto_hi": hi},
                detail=f"APR after the {kind} offer stated as {lo}-{hi}; catalog {c.apr_min}-{c.apr_max}",
            ), c
        if sub == "other_card_range":
            c = first(lambda c: True)
            others = [
                o
                for o in cat.cards
                if abs(o.apr_min - c.apr_min) >= 0.5 and abs(o.apr_max - c.apr_max) >= 0.5
            ]
            o = _pick(rng, others)
            return Defect(
                code,
                sub,
                c.card_id,
                "purchase_apr",
                {"lo": o.apr_min, "hi": o.apr_max, "variable": o.apr_variable},
                detail=f"purchase APR of {o.name} ({o.apr_min}-{o.apr_max}) given for {c.name} ({c.apr_min}-{c.apr_max})",
            ), c

    if code == "false_intro_offer":
        if sub in ("purchase_absent", "no_apr_word"):
            c = first(lambda c: c.intro_purchase_rate is None)
            months = int(_alt(rng, (12, 15, 18), c.intro_bt_months))
            return Defect(
                code,
                sub,
                c.card_id,
                "intro_purchase",
                {"rate": 0.0, "months": months},
                detail=f"0% purchase intro for {months} months claimed; the card has none",
            ), c
        c = first(lambda c: c.intro_bt_rate is None)
        months = int(_alt(rng, (12, 15, 18, 21), c.intro_purchase_months))
        return Defect(
            code,
            sub,
            c.card_id,
            "intro_bt",
            {"rate": 0.0, "months": months},
            detail=f"0% balance-transfer intro for {months} months claimed; the card has none",
        ), c

    if code == "wrong_intro_terms":
        c = first(lambda c: c.has_intro)
        kind = "intro_purchase" if c.intro_purchase_rate is not None else "intro_bt"
        if c.intro_purchase_rate is not None and c.intro_bt_rate is not None and rng.random() < 0.5:
            kind = "intro_bt"
        rate = c.intro_purchase_rate if kind == "intro_purchase" else c.intro_bt_rate
        true_months = c.intro_purchase_months if kind == "intro_purchase" else c.intro_bt_months
        other_months = c.intro_bt_months if kind == "intro_purchase" else c.intro_purchase_months
        other_rate = c.intro_bt_rate if kind == "intro_purchase" else c.intro_purchase_rate
        if sub in ("months", "months_words"):
            new_m = int(_alt(rng, (6, 9, 12, 15, 18, 21), true_months, other_months))
            return Defect(
                code,
                sub,
                c.card_id,
                kind,
                {"months": new_m},
                detail=f"{kind} months stated as {new_m}; catalog {true_months}",
            ), c
        new_r = _alt(rng, (0.0, 0.99, 1.99, 2.99) if rate else (0.99, 1.99, 2.99), rate, other_rate)
        return Defect(
            code,
            sub,
            c.card_id,
            kind,
            {"rate": new_r},
            detail=f"{kind} rate stated as {new_r}%; catalog {rate}%",
        ), c

    if code == "wrong_fee":
        fees = (95.0, 99.0, 125.0, 150.0, 195.0, 250.0, 325.0, 450.0, 550.0, 695.0)
        if sub == "annual_amount":
            c = first(lambda c: c.annual_fee > 0 or rng.random() < 0.15)
            new = _alt(rng, fees, c.annual_fee)
            ov: dict[str, Any] = {"fee": new} if c.has_waiver else {"fee": new, "first": new}
            return Defect(
                code,
                sub,
                c.card_id,
                "annual_fee",
                ov,
                detail=f"annual fee {new:g} USD stated; catalog {c.annual_fee:g}",
            ), c
        if sub == "late_amount":
            c = first(lambda c: True)
            new = _alt(rng, (25.0, 29.0, 30.0, 35.0, 39.0, 40.0, 41.0), c.late_fee)
            return Defect(
                code,
                sub,
                c.card_id,
                "late_fee",
                {"fee": new},
                detail=f"late fee up to {new:g} USD stated; catalog {c.late_fee:g}",
            ), c
        if sub == "foreign_pct":
            c = first(lambda c: True)
            new = _alt(rng, (1.0, 2.0, 2.7, 3.0), c.foreign_fee_pct)
            return Defect(
                code,
                sub,
                c.card_id,
                "foreign_fee",
                {"pct": new},
                detail=f"foreign fee {new:g}% stated; catalog {c.foreign_fee_pct:g}%",
            ), c
        if sub in ("cash_fee_pct", "bt_fee_pct"):
            c = first(lambda c: True)
            kind = "cash_fee" if sub == "cash_fee_pct" else "bt_fee"
            true = c.cash_fee_pct if kind == "cash_fee" else c.bt_fee_pct
            new = _alt(rng, (3.0, 4.0, 5.0), true)
            return Defect(
                code,
                sub,
                c.card_id,
                kind,
                {"pct": new},
                detail=f"{kind} {new:g}% stated; catalog {true:g}%",
            ), c
        if sub == "no_late_fee":
            c = first(lambda c: c.late_fee > 0)
            return Defect(
                code,
                sub,
                c.card_id,
                "late_fee",
                {"fee": 0.0},
                detail=f"'no late fee' claimed; catalog up to {c.late_fee:g} USD",
            ), c
        if sub == "no_cash_advance_fee":
            c = first(lambda c: c.cash_fee_pct > 0)
            return Defect(
                code,
                sub,
                c.card_id,
                "cash_fee",
                {"pct": 0.0, "min": 0.0},
                detail=f"'no cash advance fee' claimed; catalog {c.cash_fee_pct:g}% (min {c.cash_fee_min:g})",
            ), c
        if sub == "bt_fee_free":
            c = first(lambda c: c.bt_fee_pct > 0)
            return Defect(
                code,
                sub,
                c.card_id,
                "bt_fee",
                {"pct": 0.0, "min": 0.0},
                detail=f"fee-free balance transfers claimed; catalog {c.bt_fee_pct:g}% (min {c.bt_fee_min:g})",
            ), c
        if sub == "no_foreign_fee":
            c = first(lambda c: c.foreign_fee_pct > 0)
            return Defect(
                code,
                sub,
                c.card_id,
                "foreign_fee",
                {"pct": 0.0},
                detail=f"'no foreign transaction fees' claimed; catalog {c.foreign_fee_pct:g}%",
            ), c
        if sub == "no_annual_fee":
            c = first(lambda c: c.annual_fee > 0)
            return Defect(
                code,
                sub,
                c.card_id,
                "annual_fee",
                {"fee": 0.0, "first": 0.0},
                detail=f"'no annual fee' claimed; catalog {c.annual_fee:g} USD",
            ), c
        if sub == "false_waiver":
            c = first(lambda c: c.annual_fee == 0)
            new = _alt(rng, (95.0, 99.0, 39.0))
            return Defect(
                code,
                sub,
                c.card_id,
                "annual_fee",
                {"fee": new},
                detail=f"'$0 the first year, then {new:g}' claimed; the card has no annual fee",
            ), c
        if sub == "waiver_not_offered":
            c = first(lambda c: c.annual_fee > 0 and not c.has_waiver)
            return Defect(
                code,
                sub,
                c.card_id,
                "annual_fee",
                {"first": 0.0},
                detail=f"first-year waiver claimed; catalog charges {c.annual_fee:g} USD from year one",
            ), c

    if code == "missing_disclosure":
        c = first(lambda c: c.has_intro)
        kind = "intro_purchase" if c.intro_purchase_rate is not None else "intro_bt"
        if c.intro_purchase_rate is not None and c.intro_bt_rate is not None and rng.random() < 0.5:
            kind = "intro_bt"
        if sub == "intro_no_months":
            return Defect(
                code,
                sub,
                c.card_id,
                kind,
                {"months": None},
                detail=f"{kind} stated without its months",
            ), c
        if sub == "intro_no_goto":
            return Defect(
                code,
                sub,
                c.card_id,
                kind,
                {},
                detail=f"{kind} stated without the APR that follows it",
            ), c
    raise ValueError(f"no setup for {code}/{sub}")


def _setup_compliant(spec: Spec, cat: SeedCatalog, rng: random.Random) -> Setup:
    hn = spec.sub
    cards = list(cat.cards)
    rng.shuffle(cards)
    want: set[str] = set()
    required: list[str] = []

    def first(pred: Callable[[Card], bool]) -> Card:
        for c in cards:
            if pred(c):
                return c
        raise BuildFailure(f"seed {cat.seed}: no card for {hn}")

    customer_hns = {
        "hn_ineligible_ruled_out",
        "hn_already_holds",
        "hn_eligible_rec",
        "hn_value_statement",
    }
    if hn in customer_hns:
        reason = None
        if hn == "hn_ineligible_ruled_out":
            reason = _pick(rng, ("credit_score_below_min", "student_only", "recent_bankruptcy"))
        elif hn == "hn_already_holds":
            reason = "already_holds_card"
        try:
            cust, bad = _customer_with(cat, rng, reason, min_eligible=2)
        except BuildFailure:
            cust, bad = _customer_with(cat, rng, "credit_score_below_min", min_eligible=2)
            reason = "credit_score_below_min"
        recommended = _top_eligible(cat, rng, cust, rng.choice((1, 2)))
        if hn in ("hn_value_statement",):
            want.add("value")
        ruled = [(bad, str(reason))] if bad is not None and reason != "already_holds_card" else []
        held = [bad] if bad is not None and reason == "already_holds_card" else []
        return Setup(
            "recommendation",
            recommended,
            customer=cust,
            want=want,
            recommended=recommended,
            ruled_out=ruled,
            held=held,
            required={c.card_id: ["annual_fee"] for c in recommended},
            tags=_tags(rng, "recommendation", names_at_stake=False),
        )

    allowed: list[str] = list(LAYOUT_WEIGHTS)
    names_at_stake = False
    tags_force: set[str] = set()
    pair_partner: Card | None = None
    if hn == "hn_issuer_only":
        card = first(lambda c: True)
        want.add("issuer_line")
    elif hn == "hn_generic_phrase":
        card = first(lambda c: True)
        want.add("generic_line")
    elif hn == "hn_near_collision":
        pairs = near_collision_pairs(cat.names)
        a, b = _pick(rng, pairs)
        by_name = {c.name: c for c in cat.cards}
        card, pair_partner = by_name[a], by_name[b]
        if rng.random() < 0.5:
            card, pair_partner = pair_partner, card
        names_at_stake = True
    elif hn == "hn_short_label":
        groups = [
            (a, b)
            for a in cat.cards
            for b in cat.cards
            if b.name.startswith(a.name + " ") and (a.apr_min, a.apr_max) != (b.apr_min, b.apr_max)
        ]
        a, b = _pick(rng, groups)
        card, pair_partner = a, b
        want.add("short_labels")
        allowed = ["comparison_prose"]
        names_at_stake = True
    elif hn == "hn_network":
        card = first(lambda c: True)
        required.append("network")
    elif hn == "hn_british_names":
        card = first(lambda c: britishize(c.name) != c.name)
        tags_force.add("british")
        names_at_stake = True
    elif hn == "hn_fixed_apr":
        card = first(lambda c: c.single_apr)
        required.append("purchase_apr")
    elif hn == "hn_other_apr":
        card = first(lambda c: True)
        required += ["cash_apr", "penalty_apr"]
        allowed.remove("comparison_table")
    elif hn == "hn_rewards_pct":
        card = first(lambda c: c.reward_currency == "cash_back" and _available(c, "rewards"))
        required.append("rewards")
    elif hn == "hn_no_intro_stated":
        card = first(lambda c: c.intro_purchase_rate is None)
        required.append("no_intro_purchase")
        allowed.remove("comparison_table")
    elif hn == "hn_zero_pct_other":
        card = first(lambda c: c.foreign_fee_pct == 0)
        required.append("foreign_fee")
        want.add("zero_pct_other")
    elif hn == "hn_intro_no_apr_word":
        card = first(lambda c: c.intro_purchase_rate is not None)
        required.append("intro_purchase")
        want.add("intro_noapr")
        allowed = ["qa_short", "casual_chat", "long_explainer"]
    elif hn == "hn_intro_months_words":
        card = first(lambda c: c.has_intro)
        required.append("intro_purchase" if c_has(card, "intro_purchase") else "intro_bt")
        want.add("months_words")
    elif hn == "hn_intro_both":
        card = first(lambda c: c.intro_purchase_rate is not None and c.intro_bt_rate is not None)
        required += ["intro_purchase", "intro_bt"]
    elif hn == "hn_nonzero_intro":
        card = first(lambda c: bool(c.intro_purchase_rate) or bool(c.intro_bt_rate))
        required.append("intro_purchase" if card.intro_purchase_rate else "intro_bt")
    elif hn == "hn_first_year_waiver":
        card = first(lambda c: c.has_waiver)
        required.append("annual_fee")
    elif hn == "hn_fee_contrast":
        card = first(lambda c: True)
        if card.annual_fee > 0:
            want.add("contrast")
            required.append("annual_fee")
            if card.has_waiver:
                card = first(lambda c: c.annual_fee > 0 and not c.has_waiver)
        else:
            want.add("contrast_late")
            required.append("late_fee")
    elif hn == "hn_fee_words":
        card = first(lambda c: c.annual_fee > 0 and not c.has_waiver)
        required.append("annual_fee")
        want.add("fee_words")
    elif hn == "hn_no_fee_true":
        card = first(lambda c: c.annual_fee == 0 or c.foreign_fee_pct == 0)
        required.append("annual_fee" if card.annual_fee == 0 else "foreign_fee")
    elif hn == "hn_fee_pct_min":
        card = first(lambda c: True)
        required.append(_pick(rng, ("bt_fee", "cash_fee")))
    elif hn == "hn_intro_disclosed_far":
        card = first(lambda c: c.has_intro)
        required += [
            "purchase_apr",
            "intro_purchase" if card.intro_purchase_rate is not None else "intro_bt",
        ]
        want.add("intro_far")
        allowed = ["fact_sheet", "long_explainer", "comparison_prose", "qa_short", "marketing"]
    elif hn == "hn_rec_fee_elsewhere":
        card = first(lambda c: c.annual_fee > 0)
        required.append("annual_fee")
        allowed = ["comparison_table"]
    elif hn == "hn_rec_no_fee_card":
        card = first(lambda c: c.annual_fee == 0)
        required.append("annual_fee")
        allowed = ["qa_short", "comparison_prose", "fact_sheet", "casual_chat"]
    else:
        raise ValueError(hn)

    if any(k not in TABLE_KINDS for k in required) and "comparison_table" in allowed:
        allowed.remove("comparison_table")
    layout = _weighted_layout(rng, allowed)
    if pair_partner is not None and layout.startswith("comparison"):
        comp = [card, pair_partner]
        rng.shuffle(comp)
    else:
        comp = _with_companions(
            cat, rng, layout, card, {pair_partner.card_id} if pair_partner else set()
        )
    recs: list[Card] = []
    if (
        hn in ("hn_rec_fee_elsewhere", "hn_rec_no_fee_card")
        or layout == "marketing"
        or rng.random() < 0.2
    ):
        recs = [card]
        if "annual_fee" not in required:
            required.append("annual_fee")
    tags = _tags(rng, layout, names_at_stake=names_at_stake) | tags_force
    return Setup(
        layout,
        comp,
        want=want,
        recommended=recs,
        required={card.card_id: required},
        tags=frozenset(tags),
    )


def c_has(card: Card, kind: str) -> bool:
    return (
        card.intro_purchase_rate if kind == "intro_purchase" else card.intro_bt_rate
    ) is not None


# --- plans: which terms each card states ----------------------------------------------------


def _available(card: Card, kind: str) -> bool:
    if kind == "rewards":
        return card.base_rate > 0 or bool(card.bonus_categories)
    if kind == "signup":
        return card.signup_bonus is not None
    if kind == "intro_purchase":
        return card.intro_purchase_rate is not None
    if kind == "intro_bt":
        return card.intro_bt_rate is not None
    return True


def make_plans(setup: Setup, rng: random.Random) -> dict[str, list[str]]:
    lo, hi = BUDGET[setup.layout]
    required = setup.required or {}
    excluded = setup.excluded or {}
    rec_ids = {c.card_id for c in setup.recommended or []}
    if setup.layout == "comparison_table":
        table_req = {k for c in setup.cards for k in required.get(c.card_id, [])}
        if rec_ids:
            table_req.add("annual_fee")
        table_exc = {k for c in setup.cards for k in excluded.get(c.card_id, set())}
        cols = [k for k in TABLE_KINDS if k in table_req]
        options = [k for k in TABLE_KINDS if k not in table_req and k not in table_exc]
        for k in ("rewards", "signup"):
            if k in options and not all(_available(c, k) for c in setup.cards):
                options.remove(k)
        rng.shuffle(options)
        for k in ("annual_fee", "purchase_apr"):
            if k in options and rng.random() < 0.8:
                options.remove(k)
                options.insert(0, k)
        target = rng.randint(lo, hi)
        while len(cols) < target and options:
            cols.append(options.pop(0))
        cols.sort(key=TABLE_KINDS.index)
        return {c.card_id: list(cols) for c in setup.cards}
    plans = {}
    for c in setup.cards:
        req = list(dict.fromkeys(required.get(c.card_id, [])))
        exc = excluded.get(c.card_id, set())
        if c.card_id in rec_ids and "annual_fee" not in exc and "annual_fee" not in req:
            req.append("annual_fee")
        budget = rng.randint(lo, hi)
        kinds = list(req)
        core = ["purchase_apr", "annual_fee", "intro_purchase", "intro_bt"]
        for k in core:
            if len(kinds) >= budget:
                break
            if k not in kinds and k not in exc and _available(c, k) and rng.random() < 0.7:
                if k.startswith("intro") and "no_intro_purchase" in kinds:
                    continue
                kinds.append(k)
        optional = [
            k for k in OPTIONAL_KINDS if k not in kinds and k not in exc and _available(c, k)
        ]
        rng.shuffle(optional)
        while len(kinds) < budget and optional:
            kinds.append(optional.pop())
        if "no_intro_purchase" in kinds:
            kinds = [k for k in kinds if k != "intro_bt" or k in req]
        jitter = {k: CANON_ORDER.index(k) + rng.random() * 2.5 for k in kinds}
        kinds.sort(key=lambda k: jitter[k])
        plans[c.card_id] = kinds
    return plans


# --- one item ------------------------------------------------------------------------------


def _word_count(text: str) -> int:
    return len(text.split())


def _check(spec: Spec, setup: Setup, ctx: Ctx, text: str) -> str | None:
    """Why this rendering does not satisfy its spec (None = it does)."""
    if not text.strip():
        return "empty"
    if setup.layout == "long_explainer" and not 300 <= _word_count(text) <= 900:
        return f"long item has {_word_count(text)} words"
    d = ctx.defect
    if d is None:
        if spec.sub not in ctx.hn:
            return f"hard negative {spec.sub} not exhibited"
        if any(f["planted"] for f in ctx.facts):
            return "planted fact in a compliant item"
        return None
    if not ctx.span or ctx.span not in text:
        return f"span {ctx.span!r} missing"
    if d.kind and d.override and d.code != "missing_disclosure" and not ctx.planted_texts:
        return "overridden figure never printed"
    if d.code == "false_intro_offer" and d.sub == "no_apr_word" and "apr" in ctx.span.lower():
        return "no_apr_word span mentions APR"
    if d.code == "misspelled_card" and text.count(d.display_name or "") != 1:
        return "typo should appear exactly once"
    return None


def _exhibited(ctx: Ctx, setup: Setup, cat: SeedCatalog) -> None:
    """Hard-negative classes that follow from what was said (added to ctx.hn)."""
    named = set(ctx.mentions)
    by_id = {c.card_id: c for c in cat.cards}
    pairs = {n for p in near_collision_pairs(cat.names) for n in p}
    if any(by_id[i].name in pairs for i in named):
        ctx.hn.add("hn_near_collision")
    if "british" in setup.tags and any(britishize(by_id[i].name) != by_id[i].name for i in named):
        ctx.hn.add("hn_british_names")
    rates = {
        (f["card_id"], f["kind"])
        for f in ctx.facts
        if f["field"] == "rate" and f["value"] is not None
    }
    for cid in named:
        if (cid, "intro_purchase") in rates and (cid, "intro_bt") in rates:
            ctx.hn.add("hn_intro_both")
    if any(
        f["kind"] in ("intro_purchase", "intro_bt") and f["field"] == "rate" and f["value"]
        for f in ctx.facts
    ):
        ctx.hn.add("hn_nonzero_intro")
    if setup.customer is not None and setup.recommended:
        ctx.hn.add("hn_eligible_rec")
    stated_fee = {f["card_id"] for f in ctx.facts if f["kind"] == "annual_fee"}
    for c in setup.recommended or []:
        if c.annual_fee > 0 and setup.layout == "comparison_table" and c.card_id in stated_fee:
            ctx.hn.add("hn_rec_fee_elsewhere")
        if c.annual_fee == 0 and c.card_id in stated_fee:
            ctx.hn.add("hn_rec_no_fee_card")


def make_item(spec: Spec, cat: SeedCatalog) -> dict[str, Any]:
    pool = SPLITS[spec.split]
    last = ""
    for attempt in range(MAX_ATTEMPTS):
        rng = rng_for("item", spec.seed, spec.split, spec.index, attempt)
        try:
            setup = setup_for(spec, cat, rng, pool)
        except BuildFailure as exc:
            last = str(exc)
            continue
        ctx = Ctx(
            rng=rng,
            pool=pool,
            catalog=cat,
            tags=setup.tags,
            defect=setup.defect,
            want=setup.want or set(),
            customer=setup.customer,
        )
        ctx.cards = list(setup.cards)
        ctx.recommended = list(setup.recommended or [])
        ctx.ruled_out = list(setup.ruled_out or [])
        ctx.held = list(setup.held or [])
        ctx.plans = make_plans(setup, rng)
        text = pool.LAYOUTS[setup.layout](ctx)
        d = setup.defect
        if d is not None and d.code in ("ineligible_card", "missing_disclosure") and d.kind is None:
            ctx.span = cat.card(d.card_id or "").name
        if d is not None and d.code == "ineligible_card":
            ctx.span = cat.card(d.card_id or "").name
        _exhibited(ctx, setup, cat)
        problem = _check(spec, setup, ctx, text)
        if problem:
            last = problem
            continue
        return _record(spec, setup, ctx, text, cat)
    raise BuildFailure(f"{spec.item_id} ({spec.label}/{spec.sub}): {last}")


def _record(spec: Spec, setup: Setup, ctx: Ctx, text: str, cat: SeedCatalog) -> dict[str, Any]:
    lower = "lowercase" in setup.tags

    def low(s: str) -> str:
        return s.lower() if lower else s

    d = setup.defect
    planted = None
    if d is not None:
        planted = {
            "code": d.code,
            "subclass": d.sub,
            "span_text": low(ctx.span or ""),
            "card_id": d.card_id,
            "detail": d.detail,
        }
    free_form = (
        setup.layout in FREE_FORM_LAYOUTS
        or bool(setup.tags)
        or (setup.layout == "recommendation" and _word_count(text) > 120)
    )
    mentioned = list(dict.fromkeys(ctx.mentions))
    return {
        "schema_version": SCHEMA_VERSION,
        "id": spec.item_id,
        "seed": spec.seed,
        "split": spec.split,
        "style": setup.layout,
        "tags": sorted(setup.tags),
        "free_form": free_form,
        "customer_id": setup.customer.customer_id if setup.customer else None,
        "text": low(text),
        "expected_codes": [d.code] if d else [],
        "planted": planted,
        "hard_negatives": sorted(h for h in ctx.hn if h in HARD_NEGATIVES) if d is None else [],
        "primary_hard_negative": spec.sub if d is None else None,
        "cards": mentioned,
        "recommended": [c.card_id for c in setup.recommended or []],
        "ruled_out": [c.card_id for c, _ in setup.ruled_out or []]
        + [c.card_id for c in setup.held or []],
        "facts": [{**f, "text": low(f["text"])} for f in ctx.facts],
        "derived": [{**x, "text": low(x["text"])} for x in ctx.derived],
        "contrasts": [low(x) for x in ctx.contrasts],
        "word_count": _word_count(text),
    }


def build_split(cat: SeedCatalog, split: str) -> list[dict[str, Any]]:
    return [make_item(spec, cat) for spec in schedule(cat.seed, split)]


def build_seed(cat: SeedCatalog) -> list[dict[str, Any]]:
    return [item for split in SPLITS for item in build_split(cat, split)]


def build_items(seeds: Sequence[int], scale: float | None = None) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for seed in seeds:
        items += build_seed(load_catalog(seed, scale))
    return items


# --- output --------------------------------------------------------------------------------


def _write_atomic(path: Path, data: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".tmp-{path.name}-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_items(
    items: Sequence[dict[str, Any]], out: Path, seeds: Sequence[int], scale: float | None
) -> dict[str, Any]:
    manifest: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "seeds": list(seeds),
        "scale": scale,
        "files": {},
    }
    for split in SPLITS:
        rows = [i for i in items if i["split"] == split]
        body = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)
        _write_atomic(out / f"{split}.jsonl", body)
        manifest["files"][split] = {
            "path": f"{split}.jsonl",
            "items": len(rows),
            "defective": sum(1 for r in rows if r["expected_codes"]),
            "sha256": hashlib.sha256(body.encode()).hexdigest(),
        }
    _write_atomic(out / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument(
        "--scale", type=float, default=None, help="snapshot scale (default: the replica's, 0.01)"
    )
    parser.add_argument("--out", type=Path, required=True)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if len(set(args.seeds)) != len(args.seeds):
        print("error: --seeds has duplicates", file=sys.stderr)
        return 2
    try:
        items = build_items(args.seeds, args.scale)
    except (BuildFailure, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    manifest = write_items(items, args.out, args.seeds, args.scale)
    for split, info in manifest["files"].items():
        print(
            f"{split}: {info['items']} items ({info['defective']} defective) -> {args.out / info['path']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
