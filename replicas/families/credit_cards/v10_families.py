"""The ``-v10`` credit_cards families (suite core-v11): ``-v9`` graded under compliance ruleset 24.

``card_terms_qa-v10``, ``recommend_card-v10`` and ``offer_audit-v10`` are their ``-v9`` classes
with the compliance verifier run under ruleset 24 instead of ruleset 23
(``V10_COMPLIANCE_RULESET``); everything else is ``-v9``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module of
their own, as the ``-v8`` and ``-v9`` classes do (``v8_families``, ``v9_families``); each family
module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 24 is ruleset 23
plus readings of who a figure is about - a one-word reference ("the Plus's 15 months") is the one
card named before it with that word in its name, a figure bound only by context is given to the
recent card it is right for, and a heading or list label that opens with a card's name keeps its
figures that card's - and of what the answer says: a statement it corrects ("I told you ... was
$40, but that's the other card's figure") is no claim, a dollar amount that is no price ("an $80
transfer", "3% on travel -> $162 a year") is no fee, "year one has no annual fee" is the
first-year fee, "a no-annual-fee card" is a kind of card, and the one card (or the ranked cards)
an answer puts to a customer is recommended, so its fee must be stated and the customer eligible.
On the s27 blind sets' held-out halves it flagged 29 of 203 honest answers (ruleset 23: 36), and
on the new blind set s28 93 of 400 (ruleset 23: 105), none newly flagged; its missing_disclosure
recall there rose from 36 to 44 of 48 (one s28 wrong_fee that ruleset 23 found only by reading "the
no-fee card" as a claim about the card is lost). See "Ruleset 24" in
``verifiers/compliance/RULESETS.md``.
The ``-v9`` ids must keep ruleset 23's grades, so the change ships as these versions in suite
core-v11.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V10_COMPLIANCE_RULESET
from replicas.families.credit_cards.v9_families import CardTermsQAV9, OfferAuditV9, RecommendCardV9
from replicas.tasks import register_family


@register_family
class CardTermsQAV10(CardTermsQAV9):
    """-v9 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=24)`` instead of ruleset 23 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v10"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 24)."
    )
    compliance_ruleset = V10_COMPLIANCE_RULESET


@register_family
class RecommendCardV10(RecommendCardV9):
    """-v9 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=24)`` instead of ruleset 23 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v10"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 24) and the required disclosures."
    )
    compliance_ruleset = V10_COMPLIANCE_RULESET


@register_family
class OfferAuditV10(OfferAuditV9):
    """-v9 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=24)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 23 would teach ruleset 23's reading (module docstring)."""

    name = "credit_cards.offer_audit-v10"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 24); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V10_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV10", "OfferAuditV10", "RecommendCardV10"]
