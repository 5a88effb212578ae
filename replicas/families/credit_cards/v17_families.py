"""The ``-v17`` credit_cards families (suite core-v18): ``-v16`` graded under compliance ruleset 31.

``card_terms_qa-v17``, ``recommend_card-v17`` and ``offer_audit-v17`` are their ``-v16``
classes with the compliance verifier run under ruleset 31 instead of ruleset 30
(``V17_COMPLIANCE_RULESET``); everything else is ``-v16``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v16`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``,
``v15_families``, ``v16_families``); each family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 31 is ruleset 30 plus
seven readings, all for precision, each for honest phrasings any writer uses that ruleset 30
flagged, from the s36 and s37 blind sets' tuning halves. A card the answer names in full and then
calls by a short name - one word of its name ("Beacon 26.24% var") or its initials ("BJR has no
intro rate") - takes the figures after that short name, where ruleset 30 gave them to the card named
in full last and flagged them as wrong for it. An amount no card of the catalog charges, with no
word of fees beside it, is no annual fee where it is a yearly value worked out ("the Plus wins by
$19/yr", "that's +$133/yr", "$360/yr back") or has no fee's shape ("about $7.29 a month, $87 a
year"); "X: $99/yr" keeps its claim. Two fees after two cards joined by "and" ("X and Y both charge
an annual fee, $39 and $29") are the cards' in order, where ruleset 30 checked each against both (so
a swapped pair, which it could let pass, is now flagged). A fee inside "a ... card" in a sentence
that names no card ("for the rest, a flat 2% no-fee card does fine") is about cards in general, and
"needs only $300" is an amount a card requires, no fee of it ("requires a $300 annual fee" keeps its
claim). And, for a recommendation, a card the customer already holds that the answer treats as
theirs ("your", "keep", "already") is put forward only by words that put it forward ("I'd suggest",
"apply for", "my pick", a lead line that suggests), so a card reviewed ("Here's where your cards
stand: - X - $695 a year") is no recommendation; and a past suggestion the answer corrects ("In my
last reply I suggested X. You pointed out ...") or a counterfactual pick ("X would normally be the
obvious pick, but ...") is no pick. The same claims made of a card ("The X has a $19 annual fee",
"The X is a no-fee card", "Apply for the X") still claim. See ``verifiers/compliance/ruleset31.py``
(``shortrefs_31``, ``yearly_31``), ``ruleset31b.py`` (``held_31``, ``retracted_31``) and
``ruleset31c.py`` (``pairs_31``, ``needs_31``, ``generic_31``); the blind-data numbers are left to
its owner, in ``verifiers/compliance/RULESETS.md``.
The ``-v16`` ids must keep ruleset 30's grades, so the change ships as these versions in suite
core-v18.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V17_COMPLIANCE_RULESET
from replicas.families.credit_cards.v16_families import (
    CardTermsQAV16,
    OfferAuditV16,
    RecommendCardV16,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV17(CardTermsQAV16):
    """-v16 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=31)`` instead of ruleset 30 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v17"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 31)."
    )
    compliance_ruleset = V17_COMPLIANCE_RULESET


@register_family
class RecommendCardV17(RecommendCardV16):
    """-v16 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=31)`` instead of ruleset 30 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v17"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 31) and the required disclosures."
    )
    compliance_ruleset = V17_COMPLIANCE_RULESET


@register_family
class OfferAuditV17(OfferAuditV16):
    """-v16 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=31)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 30 would teach ruleset 30's reading (module docstring)."""

    name = "credit_cards.offer_audit-v17"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 31); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V17_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV17", "OfferAuditV17", "RecommendCardV17"]
