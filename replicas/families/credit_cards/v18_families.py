"""The ``-v18`` credit_cards families (suite core-v19): ``-v17`` graded under compliance ruleset 32.

``card_terms_qa-v18``, ``recommend_card-v18`` and ``offer_audit-v18`` are their ``-v17``
classes with the compliance verifier run under ruleset 32 instead of ruleset 31
(``V18_COMPLIANCE_RULESET``); everything else is ``-v17``'s, and the questions, customers and
drafts are drawn anew (a family's seeded streams are keyed by its name). They live in a module
of their own, as the ``-v8`` to ``-v17`` classes do (``v8_families``, ``v9_families``,
``v10_families``, ``v11_families``, ``v12_families``, ``v13_families``, ``v14_families``,
``v15_families``, ``v16_families``, ``v17_families``); each family module's docstring lists its
versions.

Why: issue 13 asks that the families grade with the current verifier. Ruleset 32 is ruleset 31 plus
four readings, all for precision, each for honest phrasings any writer uses that ruleset 31
flagged, from the s36, s37 and s38 blind sets' tuning halves. A fee figure whose words leave
several fees open ("$960, no fee") is unverified unless a fee word governs it ("the fee is only
$195"). The head of a card named in full ("Gray Rock's 1.5%"), a tier word several names share and
lower-case words of cards in general ("the only secured card") call a real card or none, where
ruleset 31 read an invented card; "Crest Obsidian Reserve" stays invented. "X: $95 after the first
year" is X's annual fee, not its first year's. And, for a recommendation, a card the customer
already holds whose first mention the answer makes theirs ("your X", "you already have A, B and
X", an item of a list led by "Keep") is put forward only by words of getting it ("apply", "add",
"open", "a new card", "switch to"), not by a review's ("best", "strong", "I recommend your X", "my
pick for groceries"), which ruleset 31 also took as putting it forward. The same figures said of a
card as its fees ("The X has a $960 annual fee") and a held card with words of getting it ("I
recommend you open the X") still claim. See ``verifiers/compliance/ruleset32.py`` (``kinds_32``,
``after_first_32``, ``held_32``) and ``ruleset32b.py`` (``names_32``); the blind-data numbers are
left to its owner, in ``verifiers/compliance/RULESETS.md``.
The ``-v17`` ids must keep ruleset 31's grades, so the change ships as these versions in suite
core-v19.
"""

from __future__ import annotations

from replicas.families.credit_cards.common import V18_COMPLIANCE_RULESET
from replicas.families.credit_cards.v17_families import (
    CardTermsQAV17,
    OfferAuditV17,
    RecommendCardV17,
)
from replicas.tasks import register_family


@register_family
class CardTermsQAV18(CardTermsQAV17):
    """-v17 with part (b) - and the build's check that the oracle text passes - run under
    ``verify_response(..., ruleset=32)`` instead of ruleset 31 (module docstring: why)."""

    name = "credit_cards.card_terms_qa-v18"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 32)."
    )
    compliance_ruleset = V18_COMPLIANCE_RULESET


@register_family
class RecommendCardV18(RecommendCardV17):
    """-v17 with check 2 - and the build's check that the oracle text passes - run under
    ``verify_response(..., customer_id=..., ruleset=32)`` instead of ruleset 31 (module
    docstring: why)."""

    name = "credit_cards.recommend_card-v18"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 32) and the required disclosures."
    )
    compliance_ruleset = V18_COMPLIANCE_RULESET


@register_family
class OfferAuditV18(OfferAuditV17):
    """-v17 with each draft kept only if its untouched version passes ``verify_response(...,
    ruleset=32)`` and its injected version gets exactly the injected codes from it: a draft whose
    codes agree only under ruleset 31 would teach ruleset 31's reading (module docstring)."""

    name = "credit_cards.offer_audit-v18"
    description = (
        "Review a generated marketing draft against the card catalog and list its compliance "
        "violations by reason code (drafts validated with compliance ruleset 32); exact-set "
        "grading stated in the grader's words."
    )
    compliance_ruleset = V18_COMPLIANCE_RULESET


__all__ = ["CardTermsQAV18", "OfferAuditV18", "RecommendCardV18"]
