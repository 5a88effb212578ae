"""Compliance findings: the reason codes, one violation (``Finding``), the per-objective tally,
and how terms and claimed values are written in messages.

Tolerance: percentages and dollar amounts match within 0.005 (``same``).
"""

from __future__ import annotations

from dataclasses import dataclass

from replicas.verifiers.compliance.claims import Claim
from replicas.verifiers.compliance.values import PCT

TOLERANCE = 0.005

UNKNOWN_CARD = "unknown_card"
MISSPELLED_CARD = "misspelled_card"
WRONG_APR = "wrong_apr"
FALSE_INTRO_OFFER = "false_intro_offer"
WRONG_INTRO_TERMS = "wrong_intro_terms"
WRONG_FEE = "wrong_fee"
INELIGIBLE_CARD = "ineligible_card"
MISSING_DISCLOSURE = "missing_disclosure"

REASON_CODES: tuple[str, ...] = (
    UNKNOWN_CARD,
    MISSPELLED_CARD,
    WRONG_APR,
    FALSE_INTRO_OFFER,
    WRONG_INTRO_TERMS,
    WRONG_FEE,
    INELIGIBLE_CARD,
    MISSING_DISCLOSURE,
)
FAMILY_OF_CODE: dict[str, str] = {
    UNKNOWN_CARD: "names",
    MISSPELLED_CARD: "names",
    WRONG_APR: "aprs",
    FALSE_INTRO_OFFER: "intro_offers",
    WRONG_INTRO_TERMS: "intro_offers",
    WRONG_FEE: "fees",
    INELIGIBLE_CARD: "eligibility",
    MISSING_DISCLOSURE: "disclosures",
}
OBJECTIVES: tuple[str, ...] = (
    "names",
    "aprs",
    "intro_offers",
    "fees",
    "eligibility",
    "disclosures",
)


@dataclass(frozen=True)
class Finding:
    """One violation, positions in the normalised text."""

    code: str
    message: str
    start: int
    end: int
    expected: object = None
    found: object = None

    def __post_init__(self) -> None:
        if self.code not in FAMILY_OF_CODE:
            raise ValueError(f"unknown reason code {self.code!r}")


@dataclass
class Tally:
    """Checks made and violations found per objective family."""

    checked: dict[str, int]
    failed: dict[str, int]

    @classmethod
    def empty(cls) -> Tally:
        return cls({f: 0 for f in OBJECTIVES}, {f: 0 for f in OBJECTIVES})

    def count(self, family: str, ok: bool) -> None:
        self.checked[family] += 1
        if not ok:
            self.failed[family] += 1

    def scores(self) -> dict[str, float]:
        return {
            f: 1.0 if not self.checked[f] else round(1.0 - self.failed[f] / self.checked[f], 4)
            for f in OBJECTIVES
        }


# -- formatting --------------------------------------------------------------------------------


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value)}"


def pct(value: float | None) -> str:
    return "none" if value is None else f"{_num(value)}%"


def usd(value: float | None) -> str:
    if value is None:
        return "none"
    return f"${value:,.2f}" if value != int(value) else f"${int(value):,}"


def same(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= TOLERANCE + 1e-9


def claimed(claim: Claim) -> str:
    if claim.is_none:
        return "none"
    show = pct if claim.unit == PCT else usd
    if claim.low is None:
        return f"minimum {usd(claim.min_usd)}"
    text = show(claim.low) if claim.low == claim.high else f"{show(claim.low)}–{show(claim.high)}"
    if claim.min_usd is not None:
        text += f" (minimum {usd(claim.min_usd)})"
    if claim.months is not None:
        text += f" for {claim.months} months"
    return text


NO_FINDINGS: list[Finding] = []  # shared by every check that finds nothing; never appended to


def one_finding(
    code: str, message: str, start: int, end: int, expected: object, found: object
) -> list[Finding]:
    return [Finding(code, message, start, end, expected, found)]
