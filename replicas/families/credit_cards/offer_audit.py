"""``credit_cards.offer_audit-v1``: review a marketing draft and name its compliance violations.

``-v2`` (core-v2): the same drafts, the instruction stating the (exact-set) tolerance in the
grader's words. Both versions' oracles look the cards up by the names the draft gives.

``-v3`` (core-v3): ``-v2`` with the drafts selected and validated under compliance ruleset 10
(the verifier's current detections) instead of the frozen ruleset 3; see ``OfferAuditV3``.

``-v4`` (core-v5): ``-v3`` with its drafts validated under compliance ruleset 16; see
``OfferAuditV4``.
``-v5`` (core-v6): ``-v4`` with its drafts validated under compliance ruleset 17; see
``OfferAuditV5``.
``-v6`` (core-v7): ``-v5`` with its drafts validated under compliance ruleset 19; see
``OfferAuditV6``.
``-v7`` (core-v8): ``-v6`` with its drafts validated under compliance ruleset 20; see
``OfferAuditV7``.
``-v8`` (core-v9): ``-v7`` with its drafts validated under compliance ruleset 21; see
``OfferAuditV8`` in ``replicas.families.credit_cards.v8_families``.
``-v9`` (core-v10): ``-v8`` with its drafts validated under compliance ruleset 23; see
``OfferAuditV9`` in ``replicas.families.credit_cards.v9_families``.
``-v10`` (core-v11): ``-v9`` with its drafts validated under compliance ruleset 24; see
``OfferAuditV10`` in ``replicas.families.credit_cards.v10_families``.
``-v11`` (core-v12): ``-v10`` with its drafts validated under compliance ruleset 25; see
``OfferAuditV11`` in ``replicas.families.credit_cards.v11_families``.
``-v12`` (core-v13): ``-v11`` with its drafts validated under compliance ruleset 26; see
``OfferAuditV12`` in ``replicas.families.credit_cards.v12_families``.
``-v13`` (core-v14): ``-v12`` with its drafts validated under compliance ruleset 27; see
``OfferAuditV13`` in ``replicas.families.credit_cards.v13_families``.
``-v14`` (core-v15): ``-v13`` with its drafts validated under compliance ruleset 28; see
``OfferAuditV14`` in ``replicas.families.credit_cards.v14_families``.
``-v15`` (core-v16): ``-v14`` with its drafts validated under compliance ruleset 29; see
``OfferAuditV15`` in ``replicas.families.credit_cards.v15_families``.
``-v16`` (core-v17): ``-v15`` with its drafts validated under compliance ruleset 30; see
``OfferAuditV16`` in ``replicas.families.credit_cards.v16_families``.
``-v17`` (core-v18): ``-v16`` with its drafts validated under compliance ruleset 31; see
``OfferAuditV17`` in ``replicas.families.credit_cards.v17_families``.
``-v18`` (core-v19): ``-v17`` with its drafts validated under compliance ruleset 32; see
``OfferAuditV18`` in ``replicas.families.credit_cards.v18_families``.
``-v19`` (core-v20): ``-v18`` with its drafts validated under compliance ruleset 33; see
``OfferAuditV19`` in ``replicas.families.credit_cards.v19_families``.
``-v20`` (core-v21): ``-v19`` with its drafts validated under compliance ruleset 34; see
``OfferAuditV20`` in ``replicas.families.credit_cards.v20_families``.
``-v21`` (core-v22): ``-v20`` with its drafts validated under compliance ruleset 35; see
``OfferAuditV21`` in ``replicas.families.credit_cards.v21_families``.

The family writes a short marketing draft about one card (sometimes with its near-collision
sibling as an alternative), grounded in the catalog, then injects 1-3 violations of different
kinds: a wrong purchase APR, a 0 % intro offer the card does not have, wrong intro months, a
wrong fee, a misspelled card name, an intro APR without its length and the APR after it. The
draft is shown in the instruction; the injected violations are not.

The answer is the set of reason codes. The expected set is what was injected, and the build
asserts that the compliance verifier reports exactly that set on the draft (otherwise the draft
is redrawn), so the task, the verifier and the instruction's definitions agree.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np

from replicas.families.credit_cards.common import (
    NEAR_COLLISION_RATIO,
    V3_COMPLIANCE_RULESET,
    V4_COMPLIANCE_RULESET,
    V5_COMPLIANCE_RULESET,
    V6_COMPLIANCE_RULESET,
    V7_COMPLIANCE_RULESET,
    apr_range,
    catalog_for,
    fmt_pct,
    fmt_usd,
    load_cards,
    nearest_siblings,
    pick,
    variant_order,
)
from replicas.tasks import (
    BuildContext,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)
from replicas.verifiers.compliance import verify_response

#: The compliance ruleset this family's published tasks are graded with (ruleset 3 is frozen;
#: later rulesets detect more and would change published grades - a new family version opts in).
COMPLIANCE_RULESET = 3

#: The codes an audit may answer with, and their definitions as the instruction states them.
CODE_DEFINITIONS: dict[str, str] = {
    "unknown_card": "a card name that matches no card in the catalog at all",
    "misspelled_card": (
        "a card name written close to, but not exactly as, a catalog card's name (a typo, a "
        "changed or dropped letter)"
    ),
    "wrong_apr": "a purchase, cash-advance or penalty APR that differs from the catalog",
    "false_intro_offer": (
        "an introductory APR offer claimed for a card that has no intro offer of that kind "
        "(on purchases, or on balance transfers)"
    ),
    "wrong_intro_terms": "an intro offer the card does have, but with a wrong rate or length",
    "wrong_fee": (
        "a fee (annual, balance transfer, cash advance, foreign transaction, late) that differs "
        "from the catalog"
    ),
    "missing_disclosure": (
        "an intro APR mentioned without its length in months and the APR that applies after it"
    ),
}
#: The code a careless reviewer confuses each code with (a wrong reading).
CONFUSED_WITH: dict[str, str] = {
    "wrong_apr": "wrong_intro_terms",
    "false_intro_offer": "wrong_intro_terms",
    "wrong_intro_terms": "false_intro_offer",
    "wrong_fee": "wrong_apr",
    "misspelled_card": "unknown_card",
    "missing_disclosure": "wrong_intro_terms",
}
MAX_DRAWS = 40
LATE_FEES = (25.0, 29.0, 30.0, 32.0, 35.0, 39.0, 40.0, 41.0)


@dataclass(frozen=True)
class Segment:
    """One sentence of the draft, about one card; ``kind`` says which claim it carries."""

    card_id: str
    kind: str
    text: str


Draft = list[Segment]
#: (draft, card, rng, every catalog name lower-cased) -> the falsified draft, or None.
Injector = Callable[[Draft, Mapping[str, Any], np.random.Generator, frozenset[str]], Draft | None]


def _sentences(card: Mapping[str, Any], featured: bool) -> Draft:
    """A compliant description of ``card``: the claims every injector can then falsify."""
    cid, name = card["card_id"], card["card_name"]
    out = []
    if featured:
        out.append(Segment(cid, "headline", f"Meet the {name} from {card['issuer_name']}."))
    else:
        out.append(Segment(cid, "headline", f"Prefer something different? Look at the {name}."))
    out.append(Segment(cid, "apr", f"The {name} has a purchase APR of {apr_range(card)}."))
    if card["intro_purchase_apr_pct"] is not None:
        out.append(Segment(cid, "intro_purchase", _intro(card, "purchase")))
    if featured and card["intro_bt_apr_pct"] is not None:
        out.append(Segment(cid, "intro_bt", _intro(card, "bt")))
    fee = float(card["annual_fee_usd"])
    out.append(
        Segment(
            cid,
            "annual_fee",
            f"The {name} has an annual fee of {fmt_usd(fee)}."
            if fee
            else f"The {name} has no annual fee.",
        )
    )
    if featured:
        out.append(
            Segment(
                cid, "late_fee", f"The {name} has a late fee of {fmt_usd(card['late_fee_usd'])}."
            )
        )
    return out


def _intro(
    card: Mapping[str, Any], kind: str, *, apr: float | None = None, months: int | None = None
) -> str:
    what = "purchases" if kind == "purchase" else "balance transfers"
    rate = card[f"intro_{kind}_apr_pct"] if apr is None else apr
    length = card[f"intro_{kind}_months"] if months is None else months
    return (
        f"The {card['card_name']} offers a {fmt_pct(rate)} intro APR on {what} for {length} "
        f"months, then {apr_range(card)} APR."
    )


# --------------------------------------------------------------------------------------------
# injectors: each falsifies one claim of one card, or returns None when it cannot apply


def _replace(draft: Draft, card_id: str, kind: str, text: str) -> Draft | None:
    hits = [i for i, s in enumerate(draft) if s.card_id == card_id and s.kind == kind]
    if not hits:
        return None
    out = list(draft)
    out[hits[0]] = replace(out[hits[0]], text=text, kind=f"{kind}:injected")
    return out


def _wrong_apr(
    draft: Draft, card: Mapping[str, Any], rng: np.random.Generator, names: frozenset[str]
) -> Draft | None:
    lo, hi = float(card["purchase_apr_min_pct"]), float(card["purchase_apr_max_pct"])
    shift = float(pick(rng, (-3.0, -2.0, 2.0, 3.0)))
    new_lo, new_hi = round(lo + shift, 2), round(hi + shift, 2)
    if new_lo <= 5 or {new_lo, new_hi} & {lo, hi}:
        return None
    kind = "variable" if card["apr_is_variable"] else "fixed"
    shown = (
        f"{fmt_pct(new_lo)} {kind}" if lo == hi else f"{fmt_pct(new_lo)}-{fmt_pct(new_hi)} {kind}"
    )
    return _replace(
        draft, card["card_id"], "apr", f"The {card['card_name']} has a purchase APR of {shown}."
    )


def _false_intro(
    draft: Draft, card: Mapping[str, Any], rng: np.random.Generator, names: frozenset[str]
) -> Draft | None:
    if card["intro_purchase_apr_pct"] is not None:
        return None
    months = int(pick(rng, (12, 15, 18, 21)))
    text = _intro(card, "purchase", apr=0.0, months=months)
    index = (
        next(
            i
            for i, s in enumerate(draft)
            if s.card_id == card["card_id"] and s.kind.startswith("apr")
        )
        + 1
    )
    return [
        *draft[:index],
        Segment(card["card_id"], "intro_purchase:injected", text),
        *draft[index:],
    ]


def _wrong_intro_months(
    draft: Draft, card: Mapping[str, Any], rng: np.random.Generator, names: frozenset[str]
) -> Draft | None:
    months = card["intro_purchase_months"]
    if months is None:
        return None
    new = int(months) + int(pick(rng, (-6, -3, 3, 6)))
    if not 3 <= new <= 24:
        return None
    return _replace(draft, card["card_id"], "intro_purchase", _intro(card, "purchase", months=new))


def _wrong_fee(
    draft: Draft, card: Mapping[str, Any], rng: np.random.Generator, names: frozenset[str]
) -> Draft | None:
    if draft and draft[0].card_id != card["card_id"]:
        return None  # only the featured card states its late fee
    fee = float(pick(rng, [f for f in LATE_FEES if f != float(card["late_fee_usd"])]))
    return _replace(
        draft,
        card["card_id"],
        "late_fee",
        f"The {card['card_name']} has a late fee of {fmt_usd(fee)}.",
    )


def _missing_disclosure(
    draft: Draft, card: Mapping[str, Any], rng: np.random.Generator, names: frozenset[str]
) -> Draft | None:
    if card["intro_purchase_apr_pct"] is None:
        return None
    text = (
        f"The {card['card_name']} offers a {fmt_pct(card['intro_purchase_apr_pct'])} intro APR "
        "on purchases."
    )
    return _replace(draft, card["card_id"], "intro_purchase", text)


def misspell(name: str, rng: np.random.Generator, taken: set[str]) -> str | None:
    """``name`` with one typo (swap, drop or double a letter) in its longest word, if unused."""
    words = name.split(" ")
    index = max(range(len(words)), key=lambda i: (len(words[i]), -i))
    word = words[index]
    if len(word) < 4 or not word.isalpha():
        return None
    ops = ["swap", "drop", "double"]
    for op_index in rng.permutation(len(ops)):
        i = int(rng.integers(1, len(word) - 2))
        op = ops[int(op_index)]
        if op == "swap":
            typo = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        elif op == "drop":
            typo = word[:i] + word[i + 1 :]
        else:
            typo = word[: i + 1] + word[i] + word[i + 1 :]
        candidate = " ".join([*words[:index], typo, *words[index + 1 :]])
        if typo.lower() != word.lower() and candidate.lower() not in taken:
            return candidate
    return None


def _misspelled(
    draft: Draft, card: Mapping[str, Any], rng: np.random.Generator, names: frozenset[str]
) -> Draft | None:
    wrong = misspell(card["card_name"], rng, set(names))
    hits = [i for i, s in enumerate(draft) if s.card_id == card["card_id"] and s.kind == "headline"]
    if wrong is None or not hits:
        return None
    out = list(draft)
    seg = out[hits[0]]
    out[hits[0]] = replace(
        seg, text=seg.text.replace(card["card_name"], wrong), kind="headline:injected"
    )
    return out


INJECTORS: dict[str, Injector] = {
    "wrong_apr": _wrong_apr,
    "false_intro_offer": _false_intro,
    "wrong_intro_terms": _wrong_intro_months,
    "wrong_fee": _wrong_fee,
    "misspelled_card": _misspelled,
    "missing_disclosure": _missing_disclosure,
}


def render(draft: Sequence[Segment]) -> str:
    """Paragraph per card, closing line last."""
    paragraphs: list[list[str]] = []
    last = None
    for seg in draft:
        if seg.card_id != last:
            paragraphs.append([])
            last = seg.card_id
        paragraphs[-1].append(seg.text)
    body = "\n\n".join(" ".join(p) for p in paragraphs)
    return f"{body}\n\nApply online today."


# --------------------------------------------------------------------------------------------
# the family


@register_family
class OfferAudit(TaskFamily):
    name = "credit_cards.offer_audit-v1"
    replica = "credit_cards"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (1-3 injected: wrong APR, fake intro offer, wrong fee, "
        "misspelled name, missing disclosure, wrong intro terms)."
    )
    difficulty = "medium"
    n_variants = 6
    #: the ruleset a draft is checked with at build time (the untouched draft must pass it, the
    #: injected one must give exactly the injected codes); grading is an exact set comparison
    compliance_ruleset: ClassVar[int] = COMPLIANCE_RULESET

    def make(self, ctx: BuildContext) -> Task:

        cards = load_cards(ctx)
        names = frozenset(str(c["card_name"]).lower() for c in cards)
        by_id = {c["card_id"]: c for c in cards}
        siblings = nearest_siblings(cards)
        catalog = catalog_for(ctx.snapshot)
        rng = ctx.rng("draft")
        n_codes = int(rng.choice([1, 2, 3], p=[0.4, 0.4, 0.2]))
        # Each variant of a seed features its own cards first (variant_order).
        for featured in variant_order(ctx, cards, "featured")[:MAX_DRAWS]:
            sibling_id, ratio = siblings[featured["card_id"]]
            with_sibling = ratio >= NEAR_COLLISION_RATIO and rng.random() < 0.6
            involved = [featured, by_id[sibling_id]] if with_sibling else [featured]
            draft = [s for i, c in enumerate(involved) for s in _sentences(c, featured=i == 0)]
            if not verify_response(render(draft), catalog, ruleset=self.compliance_ruleset).passed:
                continue  # the untouched draft must be compliant: only injections violate
            codes = sorted(
                str(c) for c in rng.choice(sorted(INJECTORS), size=n_codes, replace=False)
            )
            injected = _inject(draft, codes, involved, rng, names)
            if injected is None:
                continue
            text = render(injected)
            found = set(verify_response(text, catalog, ruleset=self.compliance_ruleset).codes)
            if found == set(codes):
                return self._task(ctx, text, codes, involved)
        raise TaskBuildError(f"{self.name}: no draft with {n_codes} verifiable violations")

    def _task(
        self, ctx: BuildContext, draft: str, codes: list[str], involved: Sequence[Mapping[str, Any]]
    ) -> Task:
        wrong: dict[str, list[str]] = {
            "one_violation_missed": codes[:-1],
            "every_code_listed": sorted(CODE_DEFINITIONS),
        }
        for code in codes:
            other = CONFUSED_WITH.get(code)
            if other and other not in codes:
                wrong[f"{code}_read_as_{other}"] = sorted({*codes, other} - {code})
        return ctx.task(
            instruction=_instruction(draft),
            answer_kind="set",
            expected=codes,
            verifier=VerifierConfig(),
            oracle=(sql(lookup_sql(draft, involved)), submit(json.dumps(codes))),
            wrong_readings=wrong,
            difficulty=("easy", "medium", "hard")[len(codes) - 1],
            metadata={"cards": [c["card_id"] for c in involved]},
        )


def lookup_sql(draft: str, involved: Sequence[Mapping[str, Any]]) -> str:
    """The oracle's query: the cards the draft names, found by the names written in it (a
    reader's only handle on them; their card_ids appear nowhere in the conversation before)."""
    names = [str(c["card_name"]) for c in involved]
    missing = [n for n in names if n not in draft]
    if missing:  # every card keeps correctly spelled sentences; a misspelling is one headline
        raise TaskBuildError(f"the draft never names {missing} as the catalog spells it")
    quoted = ", ".join("'" + n.replace("'", "''") + "'" for n in names)
    return f"select * from card_terms where card_name in ({quoted}) order by card_name"


def _inject(
    draft: Draft,
    codes: Sequence[str],
    involved: Sequence[Mapping[str, Any]],
    rng: np.random.Generator,
    names: frozenset[str],
) -> Draft | None:
    """Apply one injector per code, each to a card drawn from ``involved``; None if one can't.

    Injectors only rewrite claims that are still true (kinds without ``:injected``), so two
    violations never land on the same claim.
    """
    for code in codes:
        card = involved[int(rng.integers(0, len(involved)))]
        result = INJECTORS[code](draft, card, rng, names)
        if result is None:
            return None
        draft = result
    return draft


def _instruction(draft: str) -> str:
    codes = "\n".join(f"- {code}: {definition}" for code, definition in CODE_DEFINITIONS.items())
    return (
        "Marketing wrote the draft below. Review it against the card catalog (card_terms: "
        "names, APRs, intro offers, fees) before it goes out.\n\n"
        "-----BEGIN DRAFT-----\n"
        f"{draft}\n"
        "-----END DRAFT-----\n\n"
        f"Violation kinds (reason codes):\n{codes}\n\n"
        "Submit a JSON array of the distinct reason codes of the violations the draft contains "
        '(shaped like ["first_code", "second_code"]), each code once, in any order; submit [] if '
        "it contains none. Listing a code the draft does not violate fails the task."
    )


@register_family
class OfferAuditV2(OfferAudit):
    name = "credit_cards.offer_audit-v2"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code; the exact-set grading stated in the grader's words."
    )

    def make(self, ctx: BuildContext) -> Task:
        return state_tolerance(super().make(ctx))


@register_family
class OfferAuditV3(OfferAuditV2):
    """-v2 with each draft selected and validated under compliance ruleset 10, not ruleset 3.

    What changed: the build keeps a draft only if its untouched version passes
    ``verify_response(..., ruleset=10)`` and its injected version gets exactly the injected codes
    from it. The injectors, the code definitions, the instruction and the (exact-set) grading
    are -v2's; the drafts are drawn anew (a family's seeded streams are keyed by its name, as at
    every version bump).

    Why: issue 13 asks that the families use the current verifier. The expected codes are what
    the verifier reports on the draft, so they should be what the current verifier reports: a
    draft whose codes agree only under ruleset 3 would teach ruleset 3's reading. -v2's ids must
    keep their drafts, so the change ships as this version in suite core-v3. Measured on seeds
    1-3: every untouched draft and every single-injection draft gets the same codes under
    rulesets 3 and 10 (the injectors write plain claims both read alike), so today the -v3 tasks
    differ from -v2's by their draws; the validation follows the current verifier from now on.
    """

    name = "credit_cards.offer_audit-v3"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 10); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V3_COMPLIANCE_RULESET


@register_family
class OfferAuditV4(OfferAuditV3):
    """-v3 with each draft selected and validated under compliance ruleset 16, not ruleset 10.

    What changed: the build keeps a draft only if its untouched version passes
    ``verify_response(..., ruleset=16)`` and its injected version gets exactly the injected codes
    from it. Everything else is -v3's; the drafts are drawn anew (a family's seeded streams are
    keyed by its name).

    Why: issue 13 asks that the families use the current verifier, and the expected codes are
    what the verifier reports on the draft: a draft whose codes agree only under ruleset 10
    would teach ruleset 10's reading. -v3's ids must keep their drafts, so the change ships as
    this version in suite core-v5.
    """

    name = "credit_cards.offer_audit-v4"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 16); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V4_COMPLIANCE_RULESET


@register_family
class OfferAuditV5(OfferAuditV4):
    """-v4 with each draft selected and validated under compliance ruleset 17, not ruleset 16.

    What changed: the build keeps a draft only if its untouched version passes
    ``verify_response(..., ruleset=17)`` and its injected version gets exactly the injected codes
    from it. Everything else is -v4's; the drafts are drawn anew (a family's seeded streams are
    keyed by its name).

    Why: issue 13 asks that the families use the current verifier, and the expected codes are
    what the verifier reports on the draft: a draft whose codes agree only under ruleset 16
    would teach ruleset 16's reading. -v4's ids must keep their drafts, so the change ships as
    this version in suite core-v6.
    """

    name = "credit_cards.offer_audit-v5"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 17); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V5_COMPLIANCE_RULESET


@register_family
class OfferAuditV6(OfferAuditV5):
    """-v5 with each draft selected and validated under compliance ruleset 19, not ruleset 17.

    What changed: the build keeps a draft only if its untouched version passes
    ``verify_response(..., ruleset=19)`` and its injected version gets exactly the injected codes
    from it. Everything else is -v5's; the drafts are drawn anew (a family's seeded streams are
    keyed by its name).

    Why: issue 13 asks that the families use the current verifier, and the expected codes are
    what the verifier reports on the draft: a draft whose codes agree only under ruleset 17
    would teach ruleset 17's reading. -v5's ids must keep their drafts, so the change ships as
    this version in suite core-v7.
    """

    name = "credit_cards.offer_audit-v6"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 19); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V6_COMPLIANCE_RULESET


@register_family
class OfferAuditV7(OfferAuditV6):
    """-v6 with each draft selected and validated under compliance ruleset 20, not ruleset 19.

    What changed: the build keeps a draft only if its untouched version passes
    ``verify_response(..., ruleset=20)`` and its injected version gets exactly the injected codes
    from it. Everything else is -v6's; the drafts are drawn anew (a family's seeded streams are
    keyed by its name).

    Why: issue 13 asks that the families use the current verifier, and the expected codes are
    what the verifier reports on the draft: a draft whose codes agree only under ruleset 19
    would teach ruleset 19's reading. -v6's ids must keep their drafts, so the change ships as
    this version in suite core-v8.
    """

    name = "credit_cards.offer_audit-v7"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 20); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V7_COMPLIANCE_RULESET
