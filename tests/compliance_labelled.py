"""The old (v1) labelled compliance set: one deliberate defect per violating response,
compliant responses around them, and precision/recall scoring.

It was written alongside the v1 verifier, so its scores are an upper bound; it stays as a
regression corpus. The independent evalset lives in ``benchmarks/compliance_eval/``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz.distance import Levenshtein

from replicas.seeding import table_rng
from replicas.verifiers.compliance import REASON_CODES, CardTerms, Catalog, verify_response
from tests.compliance_support import _TERMS, Spec, _plain_spec, _render
from tests.compliance_writer import View, Writer

COMPLIANT = "compliant"
RECALL_TARGET = 0.98
FALSE_POSITIVE_TARGET = 0.01
COMPLIANT_PER_CODE = 4  # compliant responses per violating response of one code


@dataclass(frozen=True)
class LabelledResponse:
    """One evaluation item: the response, who it is for, and the codes it must trigger."""

    text: str
    customer_id: str | None
    expected_codes: frozenset[str]
    catalog: Catalog = field(repr=False, compare=False)
    kind: str = ""

    def __post_init__(self) -> None:
        unknown = set(self.expected_codes) - set(REASON_CODES)
        if unknown:
            raise ValueError(f"unknown reason codes {sorted(unknown)}")
        if not isinstance(self.text, str):
            raise ValueError("text must be a string")
        object.__setattr__(self, "expected_codes", frozenset(self.expected_codes))


# -- mutations ------------------------------------------------------------------------------

_TIER_WORDS = (
    "Plus",
    "Premier",
    "Platinum",
    "Elite",
    "Select",
    "Gold",
    "Preferred",
    "Reserve",
    "Max",
)
_KEYBOARD = {
    c: n for c, n in zip("abcdefghijklmnopqrstuvwxyz", "sqxsrdfgjhkklbpolwadyvbzuz", strict=True)
}


def _lev(a: str, b: str) -> int:
    """Plain Levenshtein distance (the evalset's own; never the verifier's matcher)."""
    return int(Levenshtein.distance(a, b))


def _typo(w: Writer, name: str, names: Sequence[str]) -> str | None:
    """A one-edit misspelling that is nearer to ``name`` than to any other catalog name."""
    words = name.split()
    lowered = {n.lower() for n in names}
    for _ in range(30):
        i = int(w.rng.integers(0, len(words)))
        word = words[i]
        if len(word) < 5 or not word.isalpha():
            if (
                len(words) >= 2
                and w.chance(0.2)
                and i + 1 < len(words)
                and words[i + 1].isalpha()
                and word.isalpha()
            ):
                candidate = " ".join([*words[:i], word + words[i + 1], *words[i + 2 :]])
            else:
                continue
        else:
            j = int(w.rng.integers(1, len(word) - 1))
            edit = w.pick(["drop", "double", "swap", "key"])
            if edit == "drop":
                new = word[:j] + word[j + 1 :]
            elif edit == "double":
                new = word[:j] + word[j] + word[j:]
            elif edit == "swap" and word[j] != word[j + 1 if j + 1 < len(word) else j]:
                new = (
                    word[:j] + word[j + 1] + word[j] + word[j + 2 :] if j + 1 < len(word) else word
                )
            else:
                c = word[j].lower()
                new = word[:j] + _KEYBOARD.get(c, c) + word[j + 1 :]
            if new == word:
                continue
            candidate = " ".join([*words[:i], new, *words[i + 1 :]])
        if candidate.lower() in lowered:
            continue
        own = _lev(candidate.lower(), name.lower())
        others = min((_lev(candidate.lower(), n) for n in lowered if n != name.lower()), default=99)
        if own <= 2 and others > own + 1:
            return candidate
    return None


def _invented_name(w: Writer, card: CardTerms, catalog: Catalog) -> str | None:
    """A product-like name that is not in the catalog (and not a typo of one)."""
    names = [c.card_name for c in catalog.cards]
    lowered = {n.lower() for n in names}
    words = card.card_name.split()
    # Brands are the first word of multi-word names, except function words ("Every Day ...").
    brands = sorted(
        {c.card_name.split()[0] for c in catalog.cards if len(c.card_name.split()) > 1}
        - {"Every", "The", "My", "All", "Each", "First", "One"}
    )
    options: list[str] = []
    if len(words) >= 3 and " ".join(words[:-1]).lower() not in lowered:
        options.append(" ".join(words[:-1]))  # dropped tier word
    options.append(" ".join([*words, w.pick(_TIER_WORDS)]))  # invented tier
    if len(words) >= 3:
        options.append(" ".join([*words[:-1], w.pick(_TIER_WORDS)]))  # swapped tier
    other = w.pick([b for b in brands if b != words[0]] or [words[0]])
    options.append(" ".join([other, *words[1:]]))  # another catalog brand on this product line
    w.rng.shuffle(options)
    for candidate in options:
        low = candidate.lower()
        if low in lowered:
            continue
        if min(_lev(low, n) for n in lowered) <= 2:
            continue  # too close to a real name: that would be a misspelling
        if low.split()[-1] in {"one"}:
            continue
        return candidate
    return None


def _bump_apr(w: Writer, value: float) -> float:
    """A one-digit typo of a rate (19.99 -> 18.99 / 19.49 / 17.99 ...)."""
    for _ in range(20):
        delta = w.pick([-2.0, -1.0, 1.0, 2.0, -0.5, 0.5, 10.0, -10.0])
        new = round(value + delta, 2)
        if 5.0 < new < 40.0:
            return new
    return round(value + 1.0, 2)


@dataclass(frozen=True)
class Mutation:
    """A way to break one document for one reason code."""

    code: str
    apply: Callable[[Writer, Catalog, CardTerms, Spec], Spec | None]


def _m_wrong_purchase_apr(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    v = spec.view
    low, high = v.apr
    if w.chance(0.5) or low == high:
        new_low = _bump_apr(w, low)
        new = (new_low, high if low != high else new_low)
    else:
        new_high = _bump_apr(w, high)
        new = (low, new_high)
    if new[0] > new[1]:
        new = (new[1], new[0])
    if abs(new[0] - low) < 0.01 and abs(new[1] - high) < 0.01:
        return None
    if new[0] == new[1] and (abs(new[0] - low) < 0.01 or abs(new[0] - high) < 0.01):
        return None  # a single rate equal to either end of the true range is correct
    return replace(spec, view=replace(v, apr=new), terms=_ensure(spec.terms, "purchase"))


def _m_wrong_other_apr(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    v = spec.view
    if v.penalty is not None and w.chance(0.5):
        return replace(
            spec,
            view=replace(v, penalty=_bump_apr(w, v.penalty)),
            terms=_ensure(spec.terms, "penalty"),
        )
    return replace(
        spec, view=replace(v, ca_apr=_bump_apr(w, v.ca_apr)), terms=_ensure(spec.terms, "cash")
    )


def _m_wrong_fee(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    v = spec.view
    choice = w.pick(["annual", "annual", "foreign", "bt_pct", "bt_min", "late", "cash_fee"])
    if choice == "annual":
        new = (
            w.pick([0.0, 95.0, 89.0, 99.0, 250.0])
            if v.annual == 0
            else w.pick([max(v.annual - 10, 0.0), v.annual + 10, 0.0, v.annual + 100])
        )
        if new == v.annual:
            return None
        return replace(spec, view=replace(v, annual=new), terms=_ensure(spec.terms, "annual"))
    if choice == "foreign":
        new = 3.0 if v.foreign == 0 else w.pick([0.0, 1.0, round(v.foreign + 1, 2)])
        return replace(spec, view=replace(v, foreign=new), terms=_ensure(spec.terms, "foreign"))
    if choice == "bt_pct":
        new = w.pick([p for p in (3.0, 4.0, 5.0) if p != v.bt_fee[0]])
        return replace(
            spec, view=replace(v, bt_fee=(new, v.bt_fee[1])), terms=_ensure(spec.terms, "bt_fee")
        )
    if choice == "bt_min":
        new = 10.0 if v.bt_fee[1] != 10.0 else 5.0
        return replace(
            spec, view=replace(v, bt_fee=(v.bt_fee[0], new)), terms=_ensure(spec.terms, "bt_fee")
        )
    if choice == "cash_fee":
        new = w.pick([p for p in (3.0, 4.0, 5.0) if p != v.ca_fee[0]])
        return replace(
            spec, view=replace(v, ca_fee=(new, v.ca_fee[1])), terms=_ensure(spec.terms, "cash_fee")
        )
    new = v.late + w.pick([-2.0, -1.0, 1.0, 5.0])
    return replace(spec, view=replace(v, late=new), terms=_ensure(spec.terms, "late"))


def _m_false_intro(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    v = spec.view
    missing = [
        k
        for k in ("purchase", "bt")
        if (v.intro_purchase if k == "purchase" else v.intro_bt) is None
    ]
    if not missing:
        return None
    kind = w.pick(missing)
    offer = (0.0, int(w.pick([6, 9, 12, 15, 18, 21])))
    view = replace(v, intro_purchase=offer) if kind == "purchase" else replace(v, intro_bt=offer)
    terms = _ensure(spec.terms, f"intro_{kind}")
    return replace(
        spec, view=view, terms=_ensure(terms, "purchase"), intro_months=True, intro_goto=True
    )


def _m_wrong_intro(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    v = spec.view
    present = [
        k
        for k in ("purchase", "bt")
        if (v.intro_purchase if k == "purchase" else v.intro_bt) is not None
    ]
    if not present:
        return None
    kind = w.pick(present)
    rate, months = v.intro_purchase if kind == "purchase" else v.intro_bt  # type: ignore[misc]
    if w.chance(0.7):
        new = (rate, int(w.pick([m for m in (6, 9, 12, 15, 18, 21, 24) if m != months])))
    else:
        new = (w.pick([r for r in (0.0, 1.99, 2.99) if r != rate]), months)
    other = v.intro_bt if kind == "purchase" else v.intro_purchase
    if other is not None and abs(other[0] - new[0]) < 0.01 and other[1] == new[1]:
        return None  # would coincide with the card's other offer
    view = replace(v, intro_purchase=new) if kind == "purchase" else replace(v, intro_bt=new)
    terms = _ensure(_ensure(spec.terms, f"intro_{kind}"), "purchase")
    return replace(spec, view=view, terms=terms, intro_months=True, intro_goto=True)


def _m_missing_intro_disclosure(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    v = spec.view
    present = [
        k
        for k in ("purchase", "bt")
        if (v.intro_purchase if k == "purchase" else v.intro_bt) is not None
    ]
    if not present:
        return None
    kind = w.pick(present)
    terms = [t for t in spec.terms if not t.startswith("intro")] + [f"intro_{kind}"]
    if w.chance(0.5):
        # months stated, but no APR after the offer anywhere
        terms = [t for t in terms if t != "purchase"]
        return replace(
            spec, terms=[t for t in _TERMS if t in terms], intro_months=True, intro_goto=False
        )
    terms = _ensure(terms, "purchase")
    return replace(
        spec, terms=[t for t in _TERMS if t in terms], intro_months=False, intro_goto=True
    )


def _m_missing_fee_disclosure(w: Writer, _c: Catalog, card: CardTerms, spec: Spec) -> Spec | None:
    if spec.view.annual == 0:
        return None
    terms = [t for t in spec.terms if t != "annual"] or ["purchase"]
    return replace(spec, terms=terms, recommended=True)


def _ensure(terms: Sequence[str], term: str) -> list[str]:
    out = list(terms) if term in terms else [*terms, term]
    return [t for t in _TERMS if t in out]


# -- building the set -------------------------------------------------------------------------


def _siblings(catalog: Catalog, card: CardTerms) -> list[CardTerms]:
    head = card.card_name.split()[:2]
    return [
        c for c in catalog.cards if c.card_id != card.card_id and c.card_name.split()[:2] == head
    ]


def _item(
    text: str, catalog: Catalog, codes: Sequence[str], kind: str, customer: str | None = None
) -> LabelledResponse:
    return LabelledResponse(text, customer, frozenset(codes), catalog, kind)


def _companions(w: Writer, catalog: Catalog, card: CardTerms, k: int) -> list[CardTerms]:
    others = [c for c in catalog.cards if c.card_id != card.card_id]
    idx = w.rng.choice(len(others), size=min(k, len(others)), replace=False)
    return [others[int(i)] for i in idx]


def _compliant(w: Writer, catalog: Catalog) -> LabelledResponse:
    style = w.pick(["single", "single", "multi", "recommend", "recommend_customer", "swap_name_ok"])
    cards = list(catalog.cards)
    card = cards[int(w.rng.integers(0, len(cards)))]
    if style == "recommend_customer" and catalog.customer_ids:
        customer = w.pick(catalog.customer_ids)
        rows = catalog.eligibility_of(customer)
        eligible = [
            c for c in cards if rows.get(c.card_id) is not None and rows[c.card_id].eligible
        ]
        ineligible = [
            c for c in cards if rows.get(c.card_id) is not None and not rows[c.card_id].eligible
        ]
        if eligible:
            card = w.pick(eligible)
            text = _render(w, [_plain_spec(w, card, recommended=True)])
            if ineligible and w.chance(0.5):
                other = w.pick(ineligible)
                text += "\n\n" + w.pick(
                    [
                        f"You don't currently qualify for the {other.card_name}, so I left it out.",
                        f"Note: the {other.card_name} isn't an option for you right now.",
                        f"I would avoid the {other.card_name} for now, since you are not eligible for it.",
                    ]
                )
            return _item(text, catalog, [], "compliant/recommend_customer", customer)
    if style == "multi":
        group = [card, *_companions(w, catalog, card, int(w.rng.integers(1, 3)))]
        return _item(_render(w, [_plain_spec(w, c) for c in group]), catalog, [], "compliant/multi")
    if style == "recommend":
        return _item(
            _render(w, [_plain_spec(w, card, recommended=True)]), catalog, [], "compliant/recommend"
        )
    if style == "swap_name_ok":
        # A near-collision sibling discussed with its own terms: must not be confused.
        sibs = _siblings(catalog, card)
        group = [card, *sibs[:1]] if sibs else [card]
        return _item(
            _render(w, [_plain_spec(w, c) for c in group]), catalog, [], "compliant/siblings"
        )
    return _item(_render(w, [_plain_spec(w, card)]), catalog, [], "compliant/single")


_VALUE_MUTATIONS: dict[str, list[Callable[[Writer, Catalog, CardTerms, Spec], Spec | None]]] = {
    "wrong_apr": [_m_wrong_purchase_apr, _m_wrong_purchase_apr, _m_wrong_other_apr],
    "wrong_fee": [_m_wrong_fee],
    "false_intro_offer": [_m_false_intro],
    "wrong_intro_terms": [_m_wrong_intro],
    "missing_disclosure": [_m_missing_intro_disclosure, _m_missing_fee_disclosure],
}


def _violation(w: Writer, catalog: Catalog, code: str) -> LabelledResponse | None:
    cards = list(catalog.cards)
    card = cards[int(w.rng.integers(0, len(cards)))]
    names = [c.card_name for c in cards]
    if code == "misspelled_card":
        typo = _typo(w, card.card_name, names)
        if typo is None:
            return None
        spec = _plain_spec(w, card)
        spec = replace(spec, view=replace(spec.view, name=typo))
        return _item(_render(w, [spec]), catalog, [code], "misspelled")
    if code == "unknown_card":
        invented = _invented_name(w, card, catalog)
        if invented is None:
            return None
        spec = _plain_spec(w, card)
        spec = replace(spec, view=replace(spec.view, name=invented))
        return _item(_render(w, [spec]), catalog, [code], "unknown")
    if code == "ineligible_card":
        if not catalog.customer_ids:
            return None
        customer = w.pick(catalog.customer_ids)
        rows = catalog.eligibility_of(customer)
        ineligible = [
            c for c in cards if rows.get(c.card_id) is not None and not rows[c.card_id].eligible
        ]
        if not ineligible:
            return None
        card = w.pick(ineligible)
        text = _render(w, [_plain_spec(w, card, recommended=True)])
        return _item(text, catalog, [code], "ineligible", customer)
    if code == "wrong_apr" and w.chance(0.25):
        swapped = _sibling_swap(w, catalog, card)
        if swapped is not None:
            return swapped
    mutate = w.pick(_VALUE_MUTATIONS[code])
    base = _plain_spec(w, card)
    spec = mutate(w, catalog, card, base)
    if spec is None:
        return None
    detail = f"{code}/{mutate.__name__.lstrip('_')}"
    if w.chance(0.35):
        # The defect sits on the second card of a comparison: attribution must find it.
        first = _plain_spec(w, _companions(w, catalog, card, 1)[0])
        return _item(_render(w, [first, spec]), catalog, [code], f"{detail}/second_card")
    return _item(_render(w, [spec]), catalog, [code], detail)


def _sibling_swap(w: Writer, catalog: Catalog, card: CardTerms) -> LabelledResponse | None:
    """The name of one card with the purchase APR of its near-collision sibling."""
    for sib in _siblings(catalog, card):
        if (sib.purchase_apr_min_pct, sib.purchase_apr_max_pct) == (
            card.purchase_apr_min_pct,
            card.purchase_apr_max_pct,
        ):
            continue
        sv = View.of(sib)
        view = replace(View.of(card), apr=sv.apr, variable=sv.variable)
        terms = ["purchase"]
        if View.of(card).variable != sv.variable:
            view = replace(view, variable=View.of(card).variable)
        spec = Spec(view, terms)
        return _item(_render(w, [spec]), catalog, ["wrong_apr"], "wrong_apr/sibling_terms")
    return None


def build_evalset(
    catalogs: Sequence[Catalog], n_per_code: int, seed: int
) -> list[LabelledResponse]:
    """``n_per_code`` violating responses per reason code and catalog, plus
    ``COMPLIANT_PER_CODE * n_per_code`` compliant ones per catalog; deterministic in ``seed``."""
    if n_per_code < 1:
        raise ValueError(f"n_per_code must be >= 1, got {n_per_code}")
    if not catalogs:
        raise ValueError("build_evalset needs at least one catalog")
    items: list[LabelledResponse] = []
    for index, catalog in enumerate(catalogs):
        for code in REASON_CODES:
            made = 0
            for attempt in range(n_per_code * 40):
                if made >= n_per_code:
                    break
                w = Writer(table_rng(seed, "compliance_evalset", index, code, attempt))
                item = _violation(w, catalog, code)
                if item is not None:
                    items.append(item)
                    made += 1
        for k in range(COMPLIANT_PER_CODE * n_per_code):
            w = Writer(table_rng(seed, "compliance_evalset", index, COMPLIANT, k))
            items.append(_compliant(w, catalog))
    return items


# -- scoring ----------------------------------------------------------------------------------


def evaluate(items: Sequence[LabelledResponse]) -> dict[str, Any]:
    """Per-code precision / recall / support, plus the false-positive rate on compliant items.

    An item counts as a true positive for a code when it expects the code and the verdict has
    it; a false positive when the verdict has a code the item does not expect.
    """
    stats = {code: {"tp": 0, "fp": 0, "fn": 0, "support": 0} for code in REASON_CODES}
    compliant = compliant_failed = 0
    misses: list[dict[str, Any]] = []
    for item in items:
        verdict = verify_response(item.text, item.catalog, item.customer_id)
        found = set(verdict.codes)
        for code in REASON_CODES:
            expected = code in item.expected_codes
            got = code in found
            stats[code]["support"] += int(expected)
            stats[code]["tp"] += int(expected and got)
            stats[code]["fp"] += int(got and not expected)
            stats[code]["fn"] += int(expected and not got)
        if not item.expected_codes:
            compliant += 1
            compliant_failed += int(not verdict.passed)
        if found != set(item.expected_codes):
            misses.append(
                {
                    "kind": item.kind,
                    "expected": sorted(item.expected_codes),
                    "found": sorted(found),
                    "text": item.text,
                }
            )
    per_code = {}
    for code, s in stats.items():
        predicted = s["tp"] + s["fp"]
        per_code[code] = {
            "precision": round(s["tp"] / predicted, 4) if predicted else 1.0,
            "recall": round(s["tp"] / s["support"], 4) if s["support"] else 1.0,
            "support": s["support"],
        }
    return {
        "per_code": per_code,
        "n_items": len(items),
        "n_compliant": compliant,
        "false_positive_rate": round(compliant_failed / compliant, 4) if compliant else 0.0,
        "exact_match_rate": round(1 - len(misses) / len(items), 4) if items else 1.0,
        "mismatches": misses,
    }


def meets_targets(report: dict[str, Any]) -> bool:
    return all(v["recall"] >= RECALL_TARGET for v in report["per_code"].values()) and (
        report["false_positive_rate"] < FALSE_POSITIVE_TARGET
    )
