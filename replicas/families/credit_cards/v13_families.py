"""The ``-v13`` credit_cards families (suite core-v14): ``-v12`` graded under compliance ruleset 27.

``card_terms_qa-v13``, ``recommend_card-v13`` and ``offer_audit-v13`` are their ``-v12``
classes with the compliance verifier run under ruleset 27 instead of ruleset 26
(``V13_COMPLIANCE_RULESET``); everything else is ``-v12``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v12`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``); each family module's docstring lists its
versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 27 is ruleset 26
plus readings chosen on the tuning halves of all read blind sets at once, each for a class that
holds for any writer rather than for one writer's phrasing: a fee figure whose words name no fee
is held as a fee only when its value looks like a fee of the catalog (a dollar or percentage
value some card has for a fee of that unit, or near one of its own card's fees), so "a flat 2%
card" is a reward rate and "$247 after the fee" an amount, not a fee of 2% or $247; an unknown
product that is the tail of one card the answer names in full before it is that card ("the Clear
Plus" after "Cascade Clear Plus"; the tail of several cards, or one with an issuer or "another"
wording or a stray capitalised name near it, stays unknown, as does a name that only begins
like a named card); a dollar figure right after "=" that the arithmetic before it works out to
is a result, not a price, where its paragraph says what the amounts are worth ("$413 x 12 x 2%
= $99.12 a year", "$216 + $90 + $30 + $150 = **$486 a year**"), unless a price is named before
the expression or a price word follows the figure; a lower-case kind of card ("an everyday
rewards card") is no product; and a percentage followed by a spend category after "the first
year" is a reward rate ("$95 annual fee, $0 the first year, 3% travel and dining"), not an intro
offer. See ``verifiers/compliance/ruleset27.py`` (figures) and ``ruleset27b.py`` (names); the
blind-data numbers are left to "Ruleset 27" in ``verifiers/compliance/RULESETS.md``.
The ``-v12`` ids must keep ruleset 26's grades, so the change ships as these versions in suite
core-v14.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V13_COMPLIANCE_RULESET
from replicas.families.credit_cards.v12_families import (
    CardTermsQAV12,
    OfferAuditV12,
    RecommendCardV12,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV13(CardTermsQAV12):
    """-v12 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=27)`` instead of ruleset 26 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v13"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 27)."
    )
    compliance_ruleset = V13_COMPLIANCE_RULESET


@register_family
class RecommendCardV13(RecommendCardV12):
    """-v12 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=27)`` instead of ruleset 26 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v13"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 27) and the required disclosures."
    )
    compliance_ruleset = V13_COMPLIANCE_RULESET


@register_family
class OfferAuditV13(OfferAuditV12):
    """-v12 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=27)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 26 would teach ruleset 26's reading (module docstring)."""

    name = "credit_cards.offer_audit-v13"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 27); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V13_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV13", "OfferAuditV13", "RecommendCardV13"]
