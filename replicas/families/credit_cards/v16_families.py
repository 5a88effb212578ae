"""The ``-v16`` credit_cards families (suite core-v17): ``-v15`` graded under compliance ruleset 30.

``card_terms_qa-v16``, ``recommend_card-v16`` and ``offer_audit-v16`` are their ``-v15``
classes with the compliance verifier run under ruleset 30 instead of ruleset 29
(``V16_COMPLIANCE_RULESET``); everything else is ``-v15``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v15`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``,
``v15_families``); each family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 30 is ruleset 29 plus
seven readings, all for precision, each for honest phrasings any writer uses that ruleset 29
flagged. Four are from the s34 blind sets' false flags. Talk about promotions in general denies no
card's offer: a denial of an intro offer that is hedged ("new purchases may not share the promo
rate"), in an if-clause ("you'd pay interest if there's no promo") or a "zero" that counts a balance
("be at zero before the promo ends") no longer reads as "the card has no intro offer", unless what
follows asserts it of the card after all. Two intro offers in one table cell, each rate followed by
its own kind and months ("0% purchases, 15 mo + 0% transfers, 21 mo"), are two offers, each read
with its own months, where ruleset 29 gave the first rate no months and the second the first's. A
dollar figure "in combined fees" (or "altogether", "a total of") that is the fees of the cards named
before it is their sum, not one card's annual fee (a wrong sum keeps its claim). And a card named
after "except" (or "other than", "apart from", ...) in a group's denial ("Most of these have no
annual fee, except the X at $95") is not said to have no annual fee. Three are from s36's tuning
halves: a card the answer treats as the customer's own ("keep your X", a list under "you're
carrying:") is not put forward, so it need not be one they are eligible for; "$10k" is an amount in
thousands, no $10 fee; and a transfer or cash advance fee worked out on an amount the answer moves,
owes or transfers ("Moving $5,000 ... - fee: $250") is arithmetic, no fee of the card. The same
claims made of a card ("The X has no intro APR", "The X has no annual fee except ...", "Apply for
the X") still claim. See ``verifiers/compliance/ruleset30.py`` (``promos_30``, ``cells_30``,
``totals_30``, ``except_30``, ``held_30``, ``thousands_30``, ``worked_30``); the blind-data numbers
are left to its owner, in ``verifiers/compliance/RULESETS.md``.
The ``-v15`` ids must keep ruleset 29's grades, so the change ships as these versions in suite
core-v17.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V16_COMPLIANCE_RULESET
from replicas.families.credit_cards.v15_families import (
    CardTermsQAV15,
    OfferAuditV15,
    RecommendCardV15,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV16(CardTermsQAV15):
    """-v15 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=30)`` instead of ruleset 29 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v16"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 30)."
    )
    compliance_ruleset = V16_COMPLIANCE_RULESET


@register_family
class RecommendCardV16(RecommendCardV15):
    """-v15 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=30)`` instead of ruleset 29 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v16"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 30) and the required disclosures."
    )
    compliance_ruleset = V16_COMPLIANCE_RULESET


@register_family
class OfferAuditV16(OfferAuditV15):
    """-v15 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=30)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 29 would teach ruleset 29's reading (module docstring)."""

    name = "credit_cards.offer_audit-v16"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 30); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V16_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV16", "OfferAuditV16", "RecommendCardV16"]
