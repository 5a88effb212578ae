"""The ``-v9`` credit_cards families (suite core-v10): ``-v8`` graded under compliance ruleset 23.

``card_terms_qa-v9``, ``recommend_card-v9`` and ``offer_audit-v9`` are their ``-v8`` classes with
the compliance verifier run under ruleset 23 instead of ruleset 21 (``V9_COMPLIANCE_RULESET``);
everything else is ``-v8``'s, and the questions, customers and drafts are drawn anew (a family's
seeded streams are keyed by its name). They live in a module of their own, as the ``-v8`` classes
do (``v8_families``); each family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 23 is ruleset 22
(the s25 writers' phrasings) plus part c (a worked fee amount is arithmetic) and readings of what
a figure can be: a figure no catalog card could have as that term is unverified (an "APR" under
half the catalog's lowest purchase APR, such as a "6% groceries" table cell; a "fee" over twice
its largest dollar fee, such as "start with $4,200 on the card"), a figure followed by "on / for
the <card>" is that card's, a dollar figure that is another amount of its sentence plus or
minus the card's annual fee is arithmetic, and a table cell under a value column ("Est. rewards
/ yr", "After fee") is no term - what a correct recommendation's explanation says. On
the s26 blind sets' held-out halves it flagged 16 of 196 honest answers (ruleset 21: 30) with no
defect lost; see "Ruleset 23" in ``verifiers/compliance/RULESETS.md``. The ``-v8`` ids must keep
ruleset 21's grades, so the change ships as these versions in suite core-v10.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V9_COMPLIANCE_RULESET
from replicas.families.credit_cards.v8_families import CardTermsQAV8, OfferAuditV8, RecommendCardV8
from replicas.tasks import register_family


@register_family
class CardTermsQAV9(CardTermsQAV8):
    """-v8 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=23)`` instead of ruleset 21 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v9"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 23)."
    )
    compliance_ruleset = V9_COMPLIANCE_RULESET


@register_family
class RecommendCardV9(RecommendCardV8):
    """-v8 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=23)`` instead of ruleset 21 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v9"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 23) and the required disclosures."
    )
    compliance_ruleset = V9_COMPLIANCE_RULESET


@register_family
class OfferAuditV9(OfferAuditV8):
    """-v8 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=23)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 21 would teach ruleset 21's reading (module docstring)."""

    name = "credit_cards.offer_audit-v9"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 23); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V9_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV9", "OfferAuditV9", "RecommendCardV9"]
