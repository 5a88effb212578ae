"""The ``-v21`` credit_cards families (suite core-v22): ``-v20`` graded under compliance ruleset 35.

``card_terms_qa-v21``, ``recommend_card-v21`` and ``offer_audit-v21`` are their ``-v20``
classes with the compliance verifier run under ruleset 35 instead of ruleset 34
(``V21_COMPLIANCE_RULESET``); everything else is ``-v20``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v20`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``,
``v15_families``, ``v16_families``, ``v17_families``, ``v18_families``, ``v19_families``,
``v20_families``); each family module's docstring lists its versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 35 is ruleset 34 plus
a reading for precision that asks the catalog and the answer's own arithmetic, not a word list,
whether a dollar figure the words leave open can be a fee: a figure a fee word governs but no word
names ("Fee: $240", "$200 fee + ~$140 interest") that is none of the dollar fees any card in the
catalog charges (annual fees, late fees, minimum interest charges, transfer and cash-advance
minimums), and is a named card's percentage fee on an amount the answer writes just before it (or
the saving of one such fee against another), is a fee worked out, not a term the answer states: it
is left unverified (``unnamed_35``). And the feedback names every figure the checks left
unverified (``unverified_35``). What it gives up: a made-up fee no word names that happens to equal
such a worked fee; a fee named at its figure ("a $120 annual fee", "late fee $45") is checked as
before. See ``verifiers/compliance/ruleset35.py`` and ``verifiers/compliance/RULESETS.md``
("Ruleset 35").
The ``-v20`` ids must keep ruleset 34's grades, so the change ships as these versions in suite
core-v22.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V21_COMPLIANCE_RULESET
from replicas.families.credit_cards.v20_families import (
    CardTermsQAV20,
    OfferAuditV20,
    RecommendCardV20,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV21(CardTermsQAV20):
    """-v20 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=35)`` instead of ruleset 34 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v21"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 35)."
    )
    compliance_ruleset = V21_COMPLIANCE_RULESET


@register_family
class RecommendCardV21(RecommendCardV20):
    """-v20 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=35)`` instead of ruleset 34 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v21"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 35) and the required disclosures."
    )
    compliance_ruleset = V21_COMPLIANCE_RULESET


@register_family
class OfferAuditV21(OfferAuditV20):
    """-v20 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=35)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 34 would teach ruleset 34's reading (module docstring)."""

    name = "credit_cards.offer_audit-v21"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 35); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V21_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV21", "OfferAuditV21", "RecommendCardV21"]
