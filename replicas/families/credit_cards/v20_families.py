"""The ``-v20`` credit_cards families (suite core-v21): ``-v19`` graded under compliance ruleset 34.

``card_terms_qa-v20``, ``recommend_card-v20`` and ``offer_audit-v20`` are their ``-v19``
classes with the compliance verifier run under ruleset 34 instead of ruleset 33
(``V20_COMPLIANCE_RULESET``); everything else is ``-v19``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v19`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``,
``v15_families``, ``v16_families``, ``v17_families``, ``v18_families``, ``v19_families``); each
family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 34 is ruleset 33 plus
two readings for recall, of codes the s36-s39 blind sets' tuning halves missed and of red team Y's
holes that rulesets 32 and 33 share, and one for precision. A first-person verb of getting a card
right before it puts the card forward ("I'd add the **X**", "at 610 I'd go **X**:", "I'd move it to
X"), unless its sentence, the one before or after it, its list's heading or a sub-item puts the
step off or takes it back, it quotes someone, it is for someone else, or its paragraph speaks of
what the card requires or of a later step (``acquire_34``). A clause that says what a card's first
year costs is checked against the catalog's first-year fee: a waiver ("which waives the $325 for
your first year", "its first year is also waived", "$95 ($0 year one)") on a card that charges its
fee in year one, and the first year's fee ("the first year is $95", "no first-year waiver") on a
card that waives it; never in a question, a request, a hedge, a report, a comparison, or a clause
about another fee, a perk or the years after it (``first_year_34``). Thousands no fee word governs ("up to $6k/yr") and
deposits ("$200 deposit") are no fees (``amounts_34``). See ``verifiers/compliance/ruleset34.py``
and ``verifiers/compliance/RULESETS.md`` ("Ruleset 34").
The ``-v19`` ids must keep ruleset 33's grades, so the change ships as these versions in suite
core-v21.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V20_COMPLIANCE_RULESET
from replicas.families.credit_cards.v19_families import (
    CardTermsQAV19,
    OfferAuditV19,
    RecommendCardV19,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV20(CardTermsQAV19):
    """-v19 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=34)`` instead of ruleset 33 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v20"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 34)."
    )
    compliance_ruleset = V20_COMPLIANCE_RULESET


@register_family
class RecommendCardV20(RecommendCardV19):
    """-v19 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=34)`` instead of ruleset 33 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v20"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 34) and the required disclosures."
    )
    compliance_ruleset = V20_COMPLIANCE_RULESET


@register_family
class OfferAuditV20(OfferAuditV19):
    """-v19 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=34)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 33 would teach ruleset 33's reading (module docstring)."""

    name = "credit_cards.offer_audit-v20"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 34); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V20_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV20", "OfferAuditV20", "RecommendCardV20"]
