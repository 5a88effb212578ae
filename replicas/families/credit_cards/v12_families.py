"""The ``-v12`` credit_cards families (suite core-v13): ``-v11`` graded under compliance ruleset 26.

``card_terms_qa-v12``, ``recommend_card-v12`` and ``offer_audit-v12`` are their ``-v11``
classes with the compliance verifier run under ruleset 26 instead of ruleset 25
(``V12_COMPLIANCE_RULESET``); everything else is ``-v11``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v11`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``); each family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 26 is ruleset 25
plus readings of text that is no claim about a card's terms and of who a ranked note is about:
"Why not X?" answered by a requirement the customer fails ("You already have this one.", "It
needs a credit score of 640, and yours is 531.") rules X out, so X is not recommended; a note
led by a rank ("#1 late fee up to $41; #1 CA 27.99%") is about the card "#1" names, not the card
named last; a dollar figure the answer says is the reader's is a result, not a price ("so that
$412.50 is all yours", a cell "est rew $1,259/yr", "That comes to about $717 a year" after a
sentence about what the card earns); "no-fee" as an item of a list of goals ("(travel, balance
transfer, no-fee)") and "Annual Percentage Rate" as a table's header are no claims, and a
lower-case "one" used as a word after a name ("the Solstice Reset one by one") is no tier; "no 0%
transfer offer" denies an intro transfer APR, not the transfer fee after it; and a late fee the
reader avoids by a payment habit ("Set up autopay so you never trip a late fee") is no term. See
``verifiers/compliance/ruleset26.py``. Each reading holds only where the text shows what it
claims: a red team attacked it before it landed. Measured on blind data: see "Ruleset 26" in
``verifiers/compliance/RULESETS.md``.
The ``-v11`` ids must keep ruleset 25's grades, so the change ships as these versions in suite
core-v13.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V12_COMPLIANCE_RULESET
from replicas.families.credit_cards.v11_families import (
    CardTermsQAV11,
    OfferAuditV11,
    RecommendCardV11,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV12(CardTermsQAV11):
    """-v11 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=26)`` instead of ruleset 25 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v12"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 26)."
    )
    compliance_ruleset = V12_COMPLIANCE_RULESET


@register_family
class RecommendCardV12(RecommendCardV11):
    """-v11 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=26)`` instead of ruleset 25 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v12"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 26) and the required disclosures."
    )
    compliance_ruleset = V12_COMPLIANCE_RULESET


@register_family
class OfferAuditV12(OfferAuditV11):
    """-v11 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=26)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 25 would teach ruleset 25's reading (module docstring)."""

    name = "credit_cards.offer_audit-v12"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 26); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V12_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV12", "OfferAuditV12", "RecommendCardV12"]
