"""The ``-v15`` credit_cards families (suite core-v16): ``-v14`` graded under compliance ruleset 29.

``card_terms_qa-v15``, ``recommend_card-v15`` and ``offer_audit-v15`` are their ``-v14``
classes with the compliance verifier run under ruleset 29 instead of ruleset 28
(``V15_COMPLIANCE_RULESET``); everything else is ``-v14``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v14`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``); each
family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 29 is ruleset 28 plus
two readings for recall, false claims ruleset 28 let pass, each for a phrasing any writer uses
rather than one writer's, and three for precision. A pick after a label whose bold closes after its
colon is the answer's own pick ("> **The short answer:** the **X** (no annual fee), because ..."),
so the customer must be eligible for it and its annual fee must be stated; and the reasons given for
a pick ("because it suits your spending", "since ...") no longer unmake it: they are read only for
what still does (a comparison, a negation, a condition, a deferral). And "0% / 15mo" as an intro
offer's value (right after an intro label, or in a table cell whose row label names an intro offer)
is a rate for fifteen months, so a wrong number of months after the slash fails where ruleset 28
read a rate with no duration. For precision, a reader's question whether a card has a 0% offer at
all that the answer denies ("**Q:** does the X have a 0% intro period?" then "No ..."), a dollar
figure given as a value net of the fee ("worth $350 after the first-year fee") and a compound number
around "hundred" ("a two-hundred-fifty-dollar annual fee" is $250) are read as such. A card's name
alone on its line between emoji ("✨ X" under "shortlist:") is left out: red teams found it flagging
honest answers. See ``verifiers/compliance/ruleset29.py`` (``picks_29``, ``slash_29``,
``questions_29``, ``nets_29``, ``hyphens_29``); the blind-data numbers are left to its owner, in
``verifiers/compliance/RULESETS.md``.
The ``-v14`` ids must keep ruleset 28's grades, so the change ships as these versions in suite
core-v16.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V15_COMPLIANCE_RULESET
from replicas.families.credit_cards.v14_families import (
    CardTermsQAV14,
    OfferAuditV14,
    RecommendCardV14,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV15(CardTermsQAV14):
    """-v14 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=29)`` instead of ruleset 28 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v15"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 29)."
    )
    compliance_ruleset = V15_COMPLIANCE_RULESET


@register_family
class RecommendCardV15(RecommendCardV14):
    """-v14 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=29)`` instead of ruleset 28 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v15"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 29) and the required disclosures."
    )
    compliance_ruleset = V15_COMPLIANCE_RULESET


@register_family
class OfferAuditV15(OfferAuditV14):
    """-v14 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=29)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 28 would teach ruleset 28's reading (module docstring)."""

    name = "credit_cards.offer_audit-v15"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 29); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V15_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV15", "OfferAuditV15", "RecommendCardV15"]
