"""A rate its own words name ("27.99% penalty APR", "cash advance rate: 28.49%") checked against
that rate of the card alone - shared by ruleset 20 (penalty APR, ``ruleset20``) and ruleset 22
(cash-advance APR, ``ruleset22``), which earlier rulesets passed when the figure was any rate of
the card.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from replicas.verifiers.compliance.catalog import Catalog
from replicas.verifiers.compliance.claim_types import APR_CLAIM
from replicas.verifiers.compliance.claims import Claim, Extraction
from replicas.verifiers.compliance.findings import WRONG_APR, Finding, Tally, claimed, pct, same
from replicas.verifiers.compliance.term_checks import FAMILY_OBJECTIVE

__all__ = ["own_rate_findings", "rate_findings"]


def own_rate_findings(
    catalog: Catalog,
    extraction: Extraction,
    findings: list[Finding],
    tally: Tally,
    *,
    kind: str,
    label: str,
    after: re.Pattern[str],
    before: re.Pattern[str],
    window: int,
) -> list[Finding]:
    """Findings for a single rate of ``kind`` (an APR claim's kind, e.g. "penalty") that its own
    words call that rate (``after`` matches right after it, or ``before`` in the ``window``
    characters before it) on one card that has such a rate, when it is not that rate (the
    catalog field ``<kind>_apr_pct``; ``label`` names it in the message). The rate is counted
    once more in the APR objective. Shared by ruleset 20 (penalty) and ruleset 22 (cash advance).
    """
    masked = extraction.masked

    def own(claim: Claim) -> str | None:
        if claim.kind != kind:
            return None
        named = after.match(masked, claim.end) is not None or (
            before.search(masked, max(0, claim.start - window), claim.start) is not None
        )
        return label if named else None

    return rate_findings(catalog, extraction, findings, tally, own)


def rate_findings(
    catalog: Catalog,
    extraction: Extraction,
    findings: list[Finding],
    tally: Tally,
    own: Callable[[Claim], str | None],
) -> list[Finding]:
    """Findings for each single rate on one card that ``own`` names a rate of (it returns that
    rate's label, "penalty APR", or ``None``) when it is not the card's such rate (the catalog
    field ``<claim.kind>_apr_pct``); a card without one is left to the base check. The rate is
    counted once more in the APR objective. Shared by rulesets 20, 22 and 28."""
    taken = {(f.start, f.end) for f in findings}
    extra: list[Finding] = []
    for claim in extraction.claims:
        if (
            claim.family != APR_CLAIM
            or claim.is_none
            or len(claim.cards) != 1
            or claim.low is None
            or claim.low != claim.high
            or (claim.start, claim.end) in taken
        ):
            continue
        label = own(claim)
        if label is None:
            continue
        card = catalog.card(claim.cards[0])
        truth = getattr(card, f"{claim.kind}_apr_pct")
        if truth is None:
            continue  # the ruleset's own check already says the card has none
        wrong = not same(claim.low, truth)
        tally.count(FAMILY_OBJECTIVE[APR_CLAIM], not wrong)
        if wrong:
            name = catalog.names.name_of(claim.cards[0])
            extra.append(
                Finding(
                    WRONG_APR,
                    f"the {label} of {name} is {pct(truth)}, not {claimed(claim)}",
                    claim.start,
                    claim.end,
                    pct(truth),
                    claimed(claim),
                )
            )
    if not extra:
        return findings
    return sorted([*findings, *extra], key=lambda f: (f.start, f.end, f.code))
