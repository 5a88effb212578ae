"""The compliance verifier of the credit_cards replica.

It reads a free-text response (an answer about card terms, a recommendation, a marketing draft)
and catches the hallucinations that are compliance violations, checked against the catalog the
agent could not see::

    from replicas.verifiers.compliance import Catalog, verify_response

    catalog = Catalog.from_snapshot(snapshot_dir)      # card_terms + card_eligibility, read-only
    verdict = verify_response(text, catalog, customer_id=None)
    verdict.passed, verdict.score, verdict.codes, verdict.feedback, verdict.objective_scores

Reason codes: ``unknown_card``, ``misspelled_card``, ``wrong_apr``, ``false_intro_offer``,
``wrong_intro_terms``, ``wrong_fee``, ``ineligible_card`` (only with ``customer_id``) and
``missing_disclosure``. Compliance is binary: ``score`` is 1.0 with no violation, else 0.0;
``objective_scores`` gives the share of checks passed per family (names, aprs, intro_offers,
fees, eligibility, disclosures) so an optimiser sees which kind of mistake it makes.

Extraction is deterministic - regular expressions plus catalog-aware name matching, no model
calls - and runs on a normalised copy of the text (NFKC, zero-width characters and HTML tags
removed, unicode dashes folded) whose positions map back to the original, so every reason's
span points at what the agent wrote. Text addressed to the grader is just text: it makes no
claim, so it changes nothing.

Decisions a reader of verdicts should know:

* ``misspelled_card`` - a capitalised name within a typo (one edit per word, two for words over
  five letters; words run together count) of exactly one catalog name; claims then attach to
  that card. ``unknown_card`` - a product-like name that is no catalog card: a dropped or added
  tier word ("Summit Cash" when only "Summit Cash Plus" exists, "Summit Cash Premier"), a catalog
  brand on another product line, a catalog line under an invented brand. If the shorter name is
  itself a real card ("Summit Cash" exists), the text names that card and its terms are checked.
* A card is *recommended* when a clause naming it recommends it ("I recommend", "best fit for
  you", "you should apply for", "you qualify for", ...) without ruling it out ("you don't qualify
  for", "I would avoid", "instead of"), or when it is listed under a recommending lead-in ("Top
  picks for you:"). With a ``customer_id``, a response that names exactly one card (and does not
  rule it out) recommends it.
* ``missing_disclosure`` - an intro APR stated without its months or without the purchase APR
  that follows it anywhere in the response; a recommended card with an annual fee whose fee is
  never stated. A false intro offer is reported as ``false_intro_offer`` only.

An empty (or claim-free) response passes: it states nothing false. Whether a response had to
say something is the task's business, not compliance's - task-level graders require content.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from replicas.verifiers.compliance.catalog import CardTerms, Catalog, EligibilityRow
from replicas.verifiers.compliance.claims import Claim, Extraction, extract
from replicas.verifiers.compliance.expansions import expand
from replicas.verifiers.compliance.expansions7 import expand7
from replicas.verifiers.compliance.findings import (
    FAMILY_OF_CODE,
    OBJECTIVES,
    REASON_CODES,
    Finding,
    Tally,
)
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.names import NameIndex
from replicas.verifiers.compliance.recommend import Recommendations
from replicas.verifiers.compliance.rules import evaluate
from replicas.verifiers.compliance.ruleset import (
    DEFAULT_RULESET,
    FROZEN_RULESET,
    RULESETS,
    Ruleset,
    get_ruleset,
)
from replicas.verifiers.compliance.ruleset10 import revise_claims, rewrite_10
from replicas.verifiers.compliance.ruleset11 import (
    drop_myths,
    revise_11,
    rewrite_11,
    tricky_names,
    worked_examples,
    worked_fee_findings,
)
from replicas.verifiers.compliance.ruleset12 import names_12, revise_12, rewrite_12
from replicas.verifiers.compliance.ruleset13 import names_13
from replicas.verifiers.compliance.ruleset14 import drop_myths_14, names_14, revise_14, rewrite_14
from replicas.verifiers.compliance.ruleset14b import (
    drop_beliefs_14,
    labels_14,
    revise_14b,
    slot_names_14,
    strip_footnotes_14,
)
from replicas.verifiers.compliance.ruleset14c import (
    names_14c,
    rec_lists_14c,
    revise_14c,
    rewrite_14c,
)
from replicas.verifiers.compliance.ruleset15 import footnote_offers_15, names_15, revise_15
from replicas.verifiers.compliance.ruleset16 import names_16, revise_16
from replicas.verifiers.compliance.ruleset17 import (
    drop_beliefs_17,
    labels_17,
    ordinals_17,
    revise_17,
    rewrite_17,
)
from replicas.verifiers.compliance.ruleset18 import (
    drop_beliefs_18,
    penalty_rate_18,
    revise_18,
    rewrite_18,
    tails_18,
)
from replicas.verifiers.compliance.ruleset19 import (
    examples_19,
    options_19,
    others_19,
    picks_19,
    revise_19,
    rewrite_19,
    slot_names_19,
)
from replicas.verifiers.compliance.ruleset20 import (
    options_20,
    penalty_findings_20,
    percent_20,
    picks_20,
    revise_20,
    rewrite_20,
)
from replicas.verifiers.compliance.ruleset20b import beliefs_20
from replicas.verifiers.compliance.ruleset21 import (
    families_21,
    headings_21,
    options_21,
    revise_21,
    vague_intro_21,
)
from replicas.verifiers.compliance.ruleset21b import (
    revise_21b,
    ruled_21,
    shared_months_21,
    spelling_21,
)
from replicas.verifiers.compliance.ruleset22 import advance_findings_22, answers_22, revise_22
from replicas.verifiers.compliance.ruleset22b import (
    picks_22b,
    short_names_22b,
    tiers_22b,
)
from replicas.verifiers.compliance.ruleset22c import revise_22c
from replicas.verifiers.compliance.ruleset23 import revise_23
from replicas.verifiers.compliance.ruleset24 import (
    generic_names_24,
    ranked_picks_24,
    refs_24,
    revise_24,
    sole_pick_24,
)
from replicas.verifiers.compliance.ruleset25 import revise_25
from replicas.verifiers.compliance.ruleset25b import refs_25
from replicas.verifiers.compliance.ruleset26 import labels_26, revise_26, tiers_26, why_not_26
from replicas.verifiers.compliance.ruleset27 import revise_27
from replicas.verifiers.compliance.ruleset27b import generic_27, tails_27
from replicas.verifiers.compliance.ruleset28 import revise_28
from replicas.verifiers.compliance.ruleset28b import extended_28, spaces_28
from replicas.verifiers.compliance.ruleset28c import own_rates_28, picks_28
from replicas.verifiers.compliance.ruleset29 import picks_29, revise_29, rewrite_29
from replicas.verifiers.compliance.ruleset30 import revise_30
from replicas.verifiers.compliance.ruleset30b import held_30
from replicas.verifiers.compliance.ruleset31 import revise_31
from replicas.verifiers.compliance.ruleset31b import held_31, retracted_31
from replicas.verifiers.compliance.ruleset32 import checked_32, held_32
from replicas.verifiers.compliance.ruleset32b import names_32
from replicas.verifiers.compliance.ruleset33 import checked_33
from replicas.verifiers.compliance.ruleset34 import acquire_34, checked_34
from replicas.verifiers.compliance.ruleset35 import checked_35
from replicas.verifiers.compliance.synonyms import fold_synonyms
from replicas.verifiers.compliance.text import NormalizedText, normalize
from replicas.verifiers.compliance.unstated9 import blank_unstated
from replicas.verifiers.verdict import Reason, Verdict

__all__ = [
    "DEFAULT_RULESET",
    "FAMILY_OF_CODE",
    "FROZEN_RULESET",
    "OBJECTIVES",
    "REASON_CODES",
    "RULESETS",
    "CardTerms",
    "Catalog",
    "Claim",
    "EligibilityRow",
    "Ruleset",
    "extract_claims",
    "get_ruleset",
    "verify_response",
]

_FEEDBACK_REASONS = 8
_ADVICE: dict[str, str] = {
    "names": "write every card name exactly as the catalog spells it and name only catalog cards",
    "aprs": "copy each APR from the catalog (a purchase APR as its full range or its exact ends)",
    "intro_offers": "claim an intro APR only where the catalog has one, with its rate and months",
    "fees": "copy each fee exactly from the catalog",
    "eligibility": "recommend only cards the customer is eligible for",
    "disclosures": (
        "state an intro APR together with its length and the APR that follows it, and state the "
        "annual fee of every card you recommend"
    ),
}


def _customer_key(catalog: Catalog, customer_id: Any) -> str | None:
    if customer_id is None:
        return None
    if isinstance(customer_id, bool) or not isinstance(customer_id, (str, int)):
        raise ValueError(f"customer_id must be a string or an integer, got {customer_id!r}")
    key = str(customer_id).strip()
    if not catalog.has_customer(key):
        raise ValueError(f"unknown customer_id {customer_id!r}: not in the catalog's eligibility")
    return key


def _reason(finding: Finding, norm: NormalizedText) -> Reason:
    return Reason(
        code=finding.code,
        message=finding.message,
        span=norm.span(finding.start, finding.end),
        expected=finding.expected,
        found=finding.found,
    )


def _feedback(
    reasons: list[Reason], n_claims: int, n_mentions: int, empty: bool, unverified: list[str]
) -> str:
    if empty:
        return (
            "The response is empty, so it makes no claim about any card and is trivially "
            "compliant; the task itself decides whether an answer was required."
        )
    note = ""
    if unverified:
        shown = ", ".join(f'"{t}"' for t in unverified[:_FEEDBACK_REASONS])
        more = len(unverified) - _FEEDBACK_REASONS
        note = (
            f" {len(unverified)} figure(s) could not be tied to one card and were left unverified "
            f"(not counted as violations): {shown}{f' and {more} more' if more > 0 else ''}."
        )
    if not reasons and not n_claims and not n_mentions:
        return (
            "Compliant: the response names no card and states no APR or fee, so there is nothing "
            "to contradict the catalog; the task itself decides whether that is an answer." + note
        )
    if not reasons:
        return (
            f"Compliant: {n_mentions} card mention(s) and {n_claims} term claim(s) all match the "
            "catalog, with the required disclosures." + note
        )
    shown = "; ".join(f"{r.code}: {r.message}" for r in reasons[:_FEEDBACK_REASONS])
    more = len(reasons) - _FEEDBACK_REASONS
    if more > 0:
        shown += f"; and {more} more"
    families = list(dict.fromkeys(FAMILY_OF_CODE[r.code] for r in reasons))
    advice = "; ".join(_ADVICE[f] for f in families)
    return f"Not compliant - {len(reasons)} violation(s): {shown}. To fix: {advice}.{note}"


def _reading_text(norm: NormalizedText, rules: Ruleset) -> str:
    """The lower-cased text the reader works on (term synonyms folded where the ruleset says)."""
    return fold_synonyms(norm.lower) if rules.term_synonyms else norm.lower


def _normalize(text: str, rules: Ruleset, catalog: Catalog | None = None) -> NormalizedText:
    return _normalize_11(text, rules, catalog)[0]


def _normalize_11(
    text: str, rules: Ruleset, catalog: Catalog | None = None
) -> tuple[NormalizedText, tuple[int, ...]]:
    """The normalised text (with ruleset 5's rewrites of abbreviations and paraphrases, and
    ruleset 7's after them; ruleset 9 reads no dash or "n/a" as "none"; ruleset 10 writes
    durations in words that hold "a year" in months and "$25.00" as "$25"; ruleset 11's
    rewrites last; ruleset 12 reads a name wrapped inside a list item as one line before them),
    and the positions of letters read through a look-alike or an underscore."""
    norm = normalize(text)
    if rules.spaces_28:
        norm = spaces_28(norm)
    if rules.slash_29 or rules.hyphens_29:
        norm = rewrite_29(norm, rules.slash_29, rules.hyphens_29)
    if rules.fees_20:
        norm = percent_20(norm)
    if rules.footnote_offers_15:
        norm = footnote_offers_15(norm)
    if rules.footnotes_14:
        norm = strip_footnotes_14(norm)
    if rules.spoken_18:
        norm = penalty_rate_18(norm)
    if rules.expansions:
        norm = expand(norm, rules.transfer_paraphrases_6, rules.rewrites_7)
    if rules.rewrites_7:
        norm = expand7(norm, dashes_say_none=not rules.unstated_values_9)
    if rules.unstated_values_9:
        norm = blank_unstated(norm)
    if rules.word_durations_10 or rules.waivers_10:
        norm = rewrite_10(norm, rules)
    if rules.wraps_12 and catalog is not None:
        norm = rewrite_12(norm, _name_index(catalog, rules))
    if rules.rewrites_14:
        norm = rewrite_14(norm)
    if rules.rewrites_14c:
        norm = rewrite_14c(norm)
    if rules.currency_17:
        norm = rewrite_17(norm)
    if rules.spoken_18:
        norm = rewrite_18(norm)
    if rules.fees_20:
        norm = rewrite_20(norm)
    if rules.headings_21:
        norm = headings_21(norm)
    if rules.vague_21:
        norm = vague_intro_21(norm)
    if rules.shared_21:
        norm = shared_months_21(norm)
    if rules.answers_22:
        norm = answers_22(norm)
    if rules.fees_19:
        norm = rewrite_19(norm)
    if rules.why_not_19:
        norm = examples_19(norm)
    if rules.rewrites_11:
        return rewrite_11(norm, rules)
    return norm, ()


def _name_index(catalog: Catalog, rules: Ruleset) -> NameIndex:
    return catalog.names_for(rules.brand_before_issuer, rules.service_names, rules.names_10)


def _mentions(
    catalog: Catalog, norm: NormalizedText, rules: Ruleset, tricks: tuple[int, ...]
) -> list[NameMention]:
    index = _name_index(catalog, rules)
    mentions = index.find(norm.text, norm.lower)
    if tricks:
        mentions = tricky_names(mentions, tricks, catalog)
    if rules.names_12:
        mentions = names_12(index, norm.text, norm.lower, mentions)
    if rules.names_13:
        mentions = names_13(index, norm.text, norm.lower, mentions)
    if rules.names_14:
        mentions = names_14(index, norm.text, norm.lower, mentions)
    if rules.names_14b:
        mentions = slot_names_14(index, norm.text, norm.lower, mentions)
    if rules.labels_14:
        mentions = labels_14(norm.text, mentions)
    if rules.names_14c:
        mentions = names_14c(index, norm.text, norm.lower, mentions)
    if rules.names_15:
        mentions = names_15(index, norm.text, norm.lower, mentions)
    if rules.rates_16:
        mentions = names_16(mentions)
    if rules.labels_17:
        mentions = labels_17(index, norm.text, mentions)
        mentions = ordinals_17(norm.text, mentions)
    if rules.tails_18:
        mentions = tails_18(index, norm.text, mentions)
    if rules.others_19:
        mentions = others_19(norm.text, mentions)
    if rules.slots_19:
        mentions = slot_names_19(index, norm.text, mentions)
    if rules.families_21:
        mentions = families_21(norm.text, mentions)
    if rules.spelling_21:
        mentions = spelling_21(norm.text, mentions)
    if rules.short_names_22b:
        mentions = short_names_22b(index, tiers_22b(index, norm.text, mentions))
    if rules.refs_24:
        mentions = refs_24(index, norm.text, mentions)
    if rules.generic_24:
        mentions = generic_names_24(index, norm.text, mentions)
    if rules.refs_25:
        mentions = refs_25(index, norm.text, mentions)
    if rules.labels_26:
        mentions = tiers_26(index, norm.text, labels_26(norm.text, mentions))
    if rules.generic_27:
        mentions = generic_27(norm.text, mentions)
    if rules.tails_27:
        mentions = tails_27(index, mentions, norm.text)
    if rules.extended_28:
        mentions = extended_28(index, norm.text, mentions)
    if rules.names_32:
        mentions = names_32(index, norm.text, mentions)
    return mentions


def _extract(
    norm: NormalizedText,
    lower: str,
    mentions: list[NameMention],
    rules: Ruleset,
    myths_too: bool = True,
    catalog: Catalog | None = None,
) -> tuple[Extraction, list[tuple[int, int, float, str, float, str]]]:
    """The revised extraction, and (ruleset 11) the worked examples ruleset 10 unbinds
    (``myths_too=False``: corrected myths left in, see ``ruleset11.revise_11``)."""
    raw = extract(norm.text, lower, mentions, rules)
    examples = worked_examples(raw, rules) if rules.worked_arithmetic_11 else []
    extraction = revise_claims(raw, norm.text, rules)
    if rules.claims_11:
        extraction = revise_11(extraction, norm.text, rules, myths_too)
    if rules.generic_cards_12:
        extraction = revise_12(extraction)
    if rules.claims_14:
        extraction = revise_14(extraction)
    if rules.claims_14b:
        extraction = revise_14b(extraction)
    if rules.claims_14c:
        extraction = revise_14c(extraction)
    if rules.claims_15:
        extraction = revise_15(extraction)
    if rules.rates_16:
        extraction = revise_16(extraction)
    if rules.values_17:
        extraction = revise_17(extraction)
    if rules.questions_18 or rules.arithmetic_18:
        extraction = revise_18(extraction, rules)
    if rules.generic_19:
        extraction = revise_19(extraction)
    if rules.generic_20 or rules.turns_20:
        extraction = revise_20(extraction, rules.generic_20, rules.turns_20)
    if rules.beliefs_20:
        extraction = beliefs_20(extraction)
    if rules.rewards_21 or rules.caps_21 or rules.worked_21:
        extraction = revise_21(extraction, rules.rewards_21, rules.caps_21, rules.worked_21)
    if rules.rewards2_21 or rules.sums_21 or rules.denials_21 or rules.warnings_21:
        extraction = revise_21b(
            extraction, rules.rewards2_21, rules.sums_21, rules.denials_21, rules.warnings_21
        )
    if rules.waivers_22 or rules.owners_22 or rules.references_22 or rules.expect_22:
        extraction = revise_22(
            extraction, rules.waivers_22, rules.owners_22, rules.references_22, rules.expect_22
        )
    if rules.arithmetic_22c and catalog is not None:
        extraction = revise_22c(extraction, catalog)
    if catalog is not None and (
        rules.plausible_23 or rules.postposed_23 or rules.net_fee_23 or rules.columns_23
    ):
        extraction = revise_23(
            extraction,
            catalog,
            rules.plausible_23,
            rules.postposed_23,
            rules.net_fee_23,
            rules.columns_23,
        )
    if catalog is not None and (
        rules.context_24
        or rules.corrections_24
        or rules.results_24
        or rules.waivers_24
        or rules.generic_24
    ):
        extraction = revise_24(
            extraction,
            catalog,
            rules.context_24,
            rules.corrections_24,
            rules.results_24,
            rules.waivers_24,
            rules.generic_24,
        )
    if catalog is not None and (
        rules.results_25 or rules.worked_25 or rules.asides_25 or rules.offers_25
    ):
        extraction = revise_25(
            extraction,
            catalog,
            rules.results_25,
            rules.worked_25,
            rules.asides_25,
            rules.offers_25,
        )
    if rules.ranks_26 or rules.results_26 or rules.labels_26 or rules.offers_26 or rules.fees_26:
        extraction = revise_26(
            extraction,
            rules.ranks_26,
            rules.results_26,
            rules.labels_26,
            rules.offers_26,
            rules.fees_26,
        )
    if catalog is not None and (rules.shapes_27 or rules.worked_27 or rules.rewards_27):
        extraction = revise_27(
            extraction, catalog, rules.shapes_27, rules.worked_27, rules.rewards_27
        )
    if rules.year_one_28 or rules.variability_28:
        extraction = revise_28(extraction, rules.year_one_28, rules.variability_28)
    if rules.questions_29 or rules.nets_29:
        extraction = revise_29(extraction, rules.questions_29, rules.nets_29)
    if (
        rules.promos_30
        or rules.cells_30
        or rules.totals_30
        or rules.except_30
        or rules.thousands_30
        or rules.worked_30
    ):
        extraction = revise_30(
            extraction,
            catalog,
            mentions,
            rules.promos_30,
            rules.cells_30,
            rules.totals_30,
            rules.except_30,
            rules.thousands_30,
            rules.worked_30,
        )
    if (
        rules.shortrefs_31
        or rules.yearly_31
        or rules.pairs_31
        or rules.generic_31
        or rules.needs_31
    ):
        extraction = revise_31(
            extraction,
            norm.text,
            catalog,
            mentions,
            rules.shortrefs_31,
            rules.yearly_31,
            rules.pairs_31,
            rules.generic_31,
            rules.needs_31,
        )
    return extraction, examples


RecsStep = Callable[[str, Extraction, Recommendations], Recommendations]


def _then(first: RecsStep | None, second: RecsStep) -> RecsStep:
    """``first`` (when there is one) and then ``second``: the recommendation readings of later
    rulesets run after the earlier ones, on the same masked text and extraction."""

    def both(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
        if first is not None:
            recs = first(masked, extraction, recs)
        return second(masked, extraction, recs)

    return both


def _sole_24(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """Ruleset 24's ranked cards and sole card of an answer to a customer."""
    return sole_pick_24(masked, extraction, ranked_picks_24(masked, extraction, recs))


def _why_not_26(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """Ruleset 26's cards ruled out by a failed requirement ("Why not X?", ruled-out entries)."""
    return why_not_26(masked, recs)


def _closed_to(catalog: Catalog, customer: str | None) -> frozenset[str]:
    """The cards ``customer`` may not get for a reason other than holding them already (ruleset
    30's ``held_30`` excuses none of them)."""
    if customer is None:
        return frozenset()
    return frozenset(
        card_id
        for card_id, row in catalog.eligibility_of(customer).items()
        if not row.eligible and row.reason != "already_holds_card"
    )


def _held_by(catalog: Catalog, customer: str) -> frozenset[str]:
    """The cards ``customer`` holds already (ruleset 31's ``held_31``)."""
    return frozenset(
        card
        for card, row in catalog.eligibility_of(customer).items()
        if not row.eligible and row.reason == "already_holds_card"
    )


def _evaluate(
    catalog: Catalog,
    lower: str,
    extraction: Extraction,
    customer: str | None,
    rules: Ruleset,
    checked: Callable[[Extraction], Sequence[Claim]] | None = None,
) -> tuple[list[Finding], Tally]:
    """The rules' findings and tally (ruleset 14's third part: with its recommendation lists;
    ruleset 19: with its picks, and the cards offered as options for the eligibility rule)."""
    if rules.why_not_19 or rules.options_19:
        more = _more_19(rules)
        if rules.sole_24 and customer is not None:
            more = _then(more, _sole_24)
        offered: Callable[[str, Any, Any], Any] | None = (
            options_20 if rules.options_20 else options_19 if rules.options_19 else None
        )
        if rules.options_21 and offered is not None:
            offered = partial(options_21, offered=offered)
        if rules.ruled_21 and offered is not None:
            offered = _then(offered, ruled_21)
        if rules.why_not_26:
            more = _then(more, _why_not_26)
            if offered is not None:
                offered = _then(offered, _why_not_26)
        if rules.picks_29:
            more = _then(more, picks_29)
        elif rules.picks_28:
            more = _then(more, picks_28)
        if rules.acquire_34:
            more = _then(more, acquire_34)
        if rules.held_30:
            held = partial(held_30, closed=_closed_to(catalog, customer))
            more = _then(more, held)
            if offered is not None:
                offered = _then(offered, held)
        if rules.retracted_31:
            more = _then(more, retracted_31)
            if offered is not None:
                offered = _then(offered, retracted_31)
        if rules.held_31 and customer is not None:
            own = partial(held_32 if rules.held_32 else held_31, held=_held_by(catalog, customer))
            more = _then(more, own)
            if offered is not None:
                offered = _then(offered, own)
        found = evaluate(
            catalog,
            lower,
            extraction,
            customer,
            rules,
            more,
            offered,
            checked if checked is not None else _checked(rules, catalog),
        )
        if rules.penalty_20:
            found = penalty_findings_20(catalog, extraction, *found), found[1]
        if rules.advance_22:
            found = advance_findings_22(catalog, extraction, *found), found[1]
        if rules.own_rates_28:
            found = own_rates_28(catalog, extraction, *found), found[1]
        return found
    if rules.rec_lists_14c:
        return evaluate(catalog, lower, extraction, customer, rules, rec_lists_14c)
    return evaluate(catalog, lower, extraction, customer, rules)


def _checked(rules: Ruleset, catalog: Catalog) -> Callable[[Extraction], Sequence[Claim]] | None:
    """The claims as checked against the catalog: ruleset 32's readings, then ruleset 33's, 34's
    and 35's."""
    checked = (
        checked_32(rules.kinds_32, rules.after_first_32)
        if rules.kinds_32 or rules.after_first_32
        else None
    )
    if rules.worked_33:
        checked = checked_33(checked, catalog)
    if rules.first_year_34 or rules.amounts_34:
        checked = checked_34(checked, catalog, rules)
    if rules.unnamed_35:
        checked = checked_35(checked, catalog, rules)
    return checked


def _last_only(
    checked: Callable[[Extraction], Sequence[Claim]] | None,
) -> Callable[[Extraction], Sequence[Claim]] | None:
    """``checked``, remembering its last extraction's claims (the rules and the feedback ask
    for the same extraction's)."""
    if checked is None:
        return None
    last: list[tuple[Extraction, Sequence[Claim]]] = []

    def remembered(extraction: Extraction) -> Sequence[Claim]:
        if last and last[0][0] is extraction:
            return last[0][1]
        claims = checked(extraction)
        last[:] = [(extraction, claims)]
        return claims

    return remembered


def _more_19(
    rules: Ruleset, with_22b: bool = True
) -> Callable[[str, Extraction, Recommendations], Recommendations] | None:
    """Ruleset 14's recommendation lists, then (ruleset 19) its picks and "why not X?" (and,
    ``with_22b``, ruleset 22 part b's picks after them where the ruleset has them)."""
    lists = rules.rec_lists_14c
    if not rules.why_not_19:
        return rec_lists_14c if lists else None
    if rules.picks_22b and with_22b:
        return _then(_more_19(rules, with_22b=False), picks_22b)

    def more(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
        if lists:
            recs = rec_lists_14c(masked, extraction, recs)
        recs = picks_19(masked, extraction, recs)
        return picks_20(masked, extraction, recs) if rules.picks_20 else recs

    return more


def extract_claims(
    text: str, catalog: Catalog, ruleset: int | Ruleset | None = None
) -> tuple[Claim, ...]:
    """The typed, attributed claims the verifier reads in ``text`` (normalised positions)."""
    rules = get_ruleset(ruleset)
    norm, tricks = _normalize_11(text, rules, catalog)
    mentions = _mentions(catalog, norm, rules, tricks)
    return _extract(norm, _reading_text(norm, rules), mentions, rules, catalog=catalog)[0].claims


def verify_response(
    text: str,
    catalog: Catalog,
    customer_id: str | int | None = None,
    ruleset: int | Ruleset | None = None,
) -> Verdict:
    """Check ``text`` against ``catalog``; ``customer_id`` enables the eligibility rule.

    ``ruleset`` picks the detections (``RULESETS``; ``None``: ``DEFAULT_RULESET``). Published
    tasks pin ``FROZEN_RULESET`` so their grading never changes.
    Raises ``ValueError`` for a ``customer_id`` the catalog does not know, an unknown ruleset or a
    non-string text.
    """
    if not isinstance(catalog, Catalog):
        raise ValueError(f"catalog must be a Catalog, got {type(catalog).__name__}")
    rules = get_ruleset(ruleset)
    customer = _customer_key(catalog, customer_id)
    norm, tricks = _normalize_11(text, rules, catalog)
    if not norm.text.strip():
        return Verdict(
            score=1.0,
            passed=True,
            feedback=_feedback([], 0, 0, empty=True, unverified=[]),
            objective_scores=dict.fromkeys(OBJECTIVES, 1.0),
        )
    mentions = _mentions(catalog, norm, rules, tricks)
    lower = _reading_text(norm, rules)
    extraction, examples = _extract(norm, lower, mentions, rules, myths_too=False, catalog=catalog)
    # the claims as checked, once per extraction (the feedback names those left unverified)
    checked = _last_only(_checked(rules, catalog))
    findings, tally = _evaluate(catalog, lower, extraction, customer, rules, checked)
    if rules.claims_11 and findings:
        # ruleset 11: a corrected myth's claims are not held against the response
        revised = drop_myths(extraction)
        if revised is not extraction:
            extraction = revised
            findings, tally = _evaluate(catalog, lower, extraction, customer, rules, checked)
    if rules.myths_14 and findings:
        # ruleset 14: a myth introduced as an assumption and corrected is not claimed either
        revised = drop_myths_14(extraction)
        if revised is not extraction:
            extraction = revised
            findings, tally = _evaluate(catalog, lower, extraction, customer, rules, checked)
    if rules.beliefs_14 and findings:
        # ruleset 14: a customer's belief quoted and corrected is not claimed
        revised = drop_beliefs_14(extraction)
        if revised is not extraction:
            extraction = revised
            findings, tally = _evaluate(catalog, lower, extraction, customer, rules, checked)
    if rules.beliefs_17 and findings:
        # ruleset 17: a figure "mentioned" or quoted, declared wrong and corrected is not claimed
        revised = drop_beliefs_18(extraction) if rules.turns_18 else drop_beliefs_17(extraction)
        if revised is not extraction:
            extraction = revised
            findings, tally = _evaluate(catalog, lower, extraction, customer, rules, checked)
    if examples:
        worked = worked_fee_findings(catalog, examples, tally)
        if worked:
            findings = sorted([*findings, *worked], key=lambda f: (f.start, f.end, f.code))
    reasons = [_reason(f, norm) for f in findings]
    score = 0.0 if reasons else 1.0
    claims: Sequence[Claim] = extraction.claims
    n_claims = len(claims)
    if rules.unverified_35:
        # the figures the checks left unverified too (ruleset 35), not only those the
        # extraction bound to no card; and only the claims checked count as matching
        if checked is not None:
            claims = checked(extraction)
        n_claims = sum(1 for c in claims if c.cards)
    return Verdict(
        score=score,
        passed=score == 1.0,
        reasons=tuple(reasons),
        feedback=_feedback(
            reasons,
            n_claims,
            len(mentions),
            empty=False,
            unverified=[" ".join(c.text.split()) for c in claims if not c.cards],
        ),
        objective_scores=tally.scores(),
    )
