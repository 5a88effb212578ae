"""The ``-v19`` credit_cards families (suite core-v20): ``-v18`` graded under compliance ruleset 33.

``card_terms_qa-v19``, ``recommend_card-v19`` and ``offer_audit-v19`` are their ``-v18``
classes with the compliance verifier run under ruleset 33 instead of ruleset 32
(``V19_COMPLIANCE_RULESET``); everything else is ``-v18``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v18`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``,
``v15_families``, ``v16_families``, ``v17_families``, ``v18_families``); each family module's
docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 33 is ruleset 32 plus
one reading, for precision, of honest worked figures any writer produces that ruleset 32 flagged as
wrong fees. A dollar figure bound to a card as a fee, wrong for each of its cards, is unverified
when it is the card's own percentage fee (balance transfer, cash advance, foreign transaction, with
its minimum) worked out where its own line shows the working ("say you're moving $6,000 ... fee =
$180", "Quick maths on $6,000:" above "- X: $300 fee", "-> $100 on $2,000"); a total of named
cards' annual fees, its own among them, with words of a total ("between the A ($29) and the B
($39), you're paying $68 a year in fees"), the difference of its own and another's its sentence
names ("costs $10 more a year than the A"), or a late fee times a count of late payments; a result
the answer marks as worked ("=", "->", "total", a sign) that is, to the dollar, the sum or
difference of two figures before it on its line, the line above or its list's lead, or a reward
rate on its line times one of them ("6.25% = $2,250 a year", "-> +$118 a year"); or a bonus added
in ("a $250 bonus ... plus $250 in year one"). A figure a fee word governs is still the fee unless
an arrow or a total of fees marks it ("annual fee = $550", "the yearly fee comes to $300" are
fees), and an amount only echoed from elsewhere is no operand. See
``verifiers/compliance/ruleset33.py`` (``worked_33``); the blind-data numbers are left to its
owner, in ``verifiers/compliance/RULESETS.md``.
The ``-v18`` ids must keep ruleset 32's grades, so the change ships as these versions in suite
core-v20.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V19_COMPLIANCE_RULESET
from replicas.families.credit_cards.v18_families import (
    CardTermsQAV18,
    OfferAuditV18,
    RecommendCardV18,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV19(CardTermsQAV18):
    """-v18 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=33)`` instead of ruleset 32 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v19"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 33)."
    )
    compliance_ruleset = V19_COMPLIANCE_RULESET


@register_family
class RecommendCardV19(RecommendCardV18):
    """-v18 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=33)`` instead of ruleset 32 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v19"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 33) and the required disclosures."
    )
    compliance_ruleset = V19_COMPLIANCE_RULESET


@register_family
class OfferAuditV19(OfferAuditV18):
    """-v18 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=33)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 32 would teach ruleset 32's reading (module docstring)."""

    name = "credit_cards.offer_audit-v19"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 33); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V19_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV19", "OfferAuditV19", "RecommendCardV19"]
