"""The ``-v14`` credit_cards families (suite core-v15): ``-v13`` graded under compliance ruleset 28.

``card_terms_qa-v14``, ``recommend_card-v14`` and ``offer_audit-v14`` are their ``-v13``
classes with the compliance verifier run under ruleset 28 instead of ruleset 27
(``V14_COMPLIANCE_RULESET``); everything else is ``-v13``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v13`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``); each family module's
docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Rulesets 24-27 were read
for precision; ruleset 28 is ruleset 27 plus readings for recall, false claims earlier rulesets
let pass, each for a class that holds for any writer rather than for one writer's phrasing. A
percentage no reading typed, given to a card ("with a", "has a", "charges") and followed at once
by a fee's own noun phrase, is that fee: "a cash back card with a 3% foreign transaction fee"
states the card's foreign transaction fee, where the reward words before the figure used to
make it a reward rate. A dollar annual fee followed in its clause by "charged from the first
year" (or "from year one", "not waived") also states the first-year fee and is checked against
it, so a card whose first year is free fails. A purchase APR with no fixed/variable word of its
own, followed at once by "and it's a variable rate" (or "that's a fixed rate"), takes that word
and is checked against it. A word that sounds like a product tier (a closed vocabulary:
"Prestige", "Obsidian", "Luxe", ...) right after a card named exactly makes the phrase an unknown
product ("the Summit Cash Plus Prestige"). The card a recommending clause leads to in the
answer's own voice ("I'd look at the X", "Short answer: the X") is recommended, so the customer
must be eligible for it and its annual fee must be stated. And a single rate typed as a card's
cash advance or penalty APR and nothing else ("cash advances are charged 26.24%") is checked
against that APR, where ruleset 27 passed any rate of the card. See
``verifiers/compliance/ruleset28.py`` (figures), ``ruleset28b.py`` (names) and ``ruleset28c.py``
(recommendations, own rates); the blind-data numbers are left to its owner, in
``verifiers/compliance/RULESETS.md``.
The ``-v13`` ids must keep ruleset 27's grades, so the change ships as these versions in suite
core-v15.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V14_COMPLIANCE_RULESET
from replicas.families.credit_cards.v13_families import (
    CardTermsQAV13,
    OfferAuditV13,
    RecommendCardV13,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV14(CardTermsQAV13):
    """-v13 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=28)`` instead of ruleset 27 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v14"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 28)."
    )
    compliance_ruleset = V14_COMPLIANCE_RULESET


@register_family
class RecommendCardV14(RecommendCardV13):
    """-v13 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=28)`` instead of ruleset 27 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v14"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 28) and the required disclosures."
    )
    compliance_ruleset = V14_COMPLIANCE_RULESET


@register_family
class OfferAuditV14(OfferAuditV13):
    """-v13 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=28)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 27 would teach ruleset 27's reading (module docstring)."""

    name = "credit_cards.offer_audit-v14"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 28); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V14_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV14", "OfferAuditV14", "RecommendCardV14"]
