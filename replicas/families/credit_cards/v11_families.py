"""The ``-v11`` credit_cards families (suite core-v12): ``-v10`` graded under compliance ruleset 25.

``card_terms_qa-v11``, ``recommend_card-v11`` and ``offer_audit-v11`` are their ``-v10``
classes with the compliance verifier run under ruleset 25 instead of ruleset 24
(``V11_COMPLIANCE_RULESET``); everything else is ``-v10``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v10`` classes do (``v8_families``, ``v9_families``,
``v10_families``); each family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 25 is ruleset 24
plus readings of the arithmetic an answer shows its reader and of who a figure is about: a
dollar figure the answer works out is a result, not a price, where it is the arithmetic its
label or verb claims ("= **$648/yr**", "Total: $342 a year", "brings that to $159"; a price
named in the label, "yearly cost = $89", keeps it a claim); a fee worked out from an amount
in a transaction stated before it ("With a $5,000 balance: ... $250 fee", 5% being the card's
own transfer fee) is right, so no claim; a card named only in an aside in brackets ("(Granite Cash
Back charges 3%)") does not take its sentence's figures, and a figure labelled by a bracketed
name ("$35 (Compass Balance Transfer)") is that card's; a one-word reference without an article
("Beacon's 0% FX fee") or of digits ("the 360's") is the one card named before it with that word
in its name; and a definite reference to an intro offer ("the 9-month 0% window") is the offer of
the most recent card named before it that has it. See ``verifiers/compliance/ruleset25.py``.
Each reading holds only where the text shows what it claims: two red teams with the source code
found 72 false texts earlier versions missed, and each class was closed by a rule. On the new
blind set s29 (its third reading) it flagged 73 of 400 honest answers (ruleset 24: 78), none
newly, and lost no defect; on s28's held-out halves 47 of 202 (24: 51). See "Ruleset 25" in
``verifiers/compliance/RULESETS.md``.
The ``-v10`` ids must keep ruleset 24's grades, so the change ships as these versions in suite
core-v12.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V11_COMPLIANCE_RULESET
from replicas.families.credit_cards.v10_families import (
    CardTermsQAV10,
    OfferAuditV10,
    RecommendCardV10,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV11(CardTermsQAV10):
    """-v10 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=25)`` instead of ruleset 24 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v11"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 25)."
    )
    compliance_ruleset = V11_COMPLIANCE_RULESET


@register_family
class RecommendCardV11(RecommendCardV10):
    """-v10 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=25)`` instead of ruleset 24 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v11"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 25) and the required disclosures."
    )
    compliance_ruleset = V11_COMPLIANCE_RULESET


@register_family
class OfferAuditV11(OfferAuditV10):
    """-v10 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=25)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 24 would teach ruleset 24's reading (module docstring)."""

    name = "credit_cards.offer_audit-v11"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 25); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V11_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV11", "OfferAuditV11", "RecommendCardV11"]
