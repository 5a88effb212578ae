"""Versioned rulesets: which detections a verdict was made with.

Published tasks (suites core-v1, core-v2, hard-v1) grade agent answers with the compliance
verifier, and a published task must never change its grading. So every detection added after
them is switched on by a flag of a ``Ruleset``, and a version number names each set of flags:

* ``3`` - the frozen ruleset the published credit_cards families pin (``FROZEN_RULESET``): the
  verifier as it was at commit ``ecd2f56`` (a test compares its verdicts byte for byte with that
  revision's on the evalset's tuning split and the test corpora).
* ``4`` - the default (``DEFAULT_RULESET``): ruleset 3 plus term synonyms ("balance-transfer",
  "BTs", "transferring a balance"), more "no fee" forms ("charges nothing for balance transfers",
  "free balance transfers", "waives the transfer fee", "first year free") and more ways of
  recommending a card ("go with", "apply for", "is the card for you", "bottom line:").

A ruleset is data, not code: one module per concern reads the flag it needs. Callers pass the
version number (``verify_response(..., ruleset=3)``); ``None`` means the default.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    """The detections one version switches on (every flag off is ruleset 3)."""

    version: int
    # "balance-transfer", "BTs", "transferring a balance" read as balance transfers
    term_synonyms: bool = False
    # "charges nothing for X", "free balance transfers", "waives the X fee", "first year free"
    more_fee_negations: bool = False
    # "go with X", "apply for X", "X is the card for you", "bottom line: X", ...
    more_recommendations: bool = False
    # "both the X and the Y have no annual fee", "neither X nor Y": a claim about each card
    joint_subjects: bool = False


FROZEN_RULESET = 3
DEFAULT_RULESET = 4
RULESETS: dict[int, Ruleset] = {
    3: Ruleset(3),
    4: Ruleset(
        4,
        term_synonyms=True,
        more_fee_negations=True,
        more_recommendations=True,
        joint_subjects=True,
    ),
}


def get_ruleset(version: int | Ruleset | None) -> Ruleset:
    """The ruleset of ``version`` (``None``: the default). Raises ``ValueError`` if unknown."""
    if isinstance(version, Ruleset):
        return version
    if version is None:
        return RULESETS[DEFAULT_RULESET]
    if isinstance(version, bool) or not isinstance(version, int) or version not in RULESETS:
        known = ", ".join(str(v) for v in sorted(RULESETS))
        raise ValueError(f"unknown compliance ruleset {version!r} (known: {known})")
    return RULESETS[version]


__all__ = ["DEFAULT_RULESET", "FROZEN_RULESET", "RULESETS", "Ruleset", "get_ruleset"]
