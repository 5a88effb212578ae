"""The ``-v8`` credit_cards families (suite core-v9): ``-v7`` graded under compliance ruleset 21.

``card_terms_qa-v8``, ``recommend_card-v8`` and ``offer_audit-v8`` are their ``-v7`` classes with
the compliance verifier run under ruleset 21 instead of ruleset 20 (``V8_COMPLIANCE_RULESET``);
everything else is ``-v7``'s, and the questions, customers and drafts are drawn anew (a family's
seeded streams are keyed by its name). They live in one module of their own because the three
family modules are long; each module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 21 reads terse
reward notation ("3% gas, 1.5% base", "(first $12k/yr)") as rewards, not as an APR or an annual
fee - what a correct recommendation's explanation says - and the figures of a list under a
heading that names the term as that term; see "Ruleset 21" in
``verifiers/compliance/RULESETS.md`` for what it reads and the figures on the blind sets. The
``-v7`` ids must keep ruleset 20's grades, so the change ships as these versions in suite
core-v9.
"""

from __future__ import annotations

from replicas.families.credit_cards.card_terms_qa import CardTermsQAV7
from replicas.families.credit_cards.common import V8_COMPLIANCE_RULESET
from replicas.families.credit_cards.offer_audit import OfferAuditV7
from replicas.families.credit_cards.recommend_card import RecommendCardV7
from replicas.tasks import register_family


@register_family
class CardTermsQAV8(CardTermsQAV7):
    """-v7 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=21)`` instead of ruleset 20 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v8"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 21)."
    )
    compliance_ruleset = V8_COMPLIANCE_RULESET


@register_family
class RecommendCardV8(RecommendCardV7):
    """-v7 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=21)`` instead of ruleset 20 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v8"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 21) and the required disclosures."
    )
    compliance_ruleset = V8_COMPLIANCE_RULESET


@register_family
class OfferAuditV8(OfferAuditV7):
    """-v7 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=21)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 20 would teach ruleset 20's reading (module docstring)."""

    name = "credit_cards.offer_audit-v8"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 21); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V8_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV8", "OfferAuditV8", "RecommendCardV8"]
