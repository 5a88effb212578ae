"""``credit_cards.card_terms_qa-v1``: one disclosed term of one card, answered in free text.

``-v2`` (core-v2): the value is graded with the task's own ``VerifierConfig`` (±0.005 in the
term's unit — dollars or percentage points —, exact for months) and the instruction states it
in the grader's words. Both versions' oracles find the card by the name the question gives.

``-v3`` (core-v3): ``-v2`` with part (b) below run under compliance ruleset 10 (the verifier's
current detections) instead of the frozen ruleset 3; see ``CardTermsQAV3``.

``-v4`` (core-v5): ``-v3`` with part (b) under compliance ruleset 16; see ``CardTermsQAV4``.

``-v5`` (core-v6): ``-v4`` with part (b) under compliance ruleset 17; see ``CardTermsQAV5``.

``-v6`` (core-v7): ``-v5`` with part (b) under compliance ruleset 19; see ``CardTermsQAV6``.

``-v7`` (core-v8): ``-v6`` with part (b) under compliance ruleset 20; see ``CardTermsQAV7``.

``-v8`` (core-v9): ``-v7`` with part (b) under compliance ruleset 21; see ``CardTermsQAV8`` in
``replicas.families.credit_cards.v8_families``.

``-v9`` (core-v10): ``-v8`` with part (b) under compliance ruleset 23; see ``CardTermsQAV9`` in
``replicas.families.credit_cards.v9_families``.

``-v10`` (core-v11): ``-v9`` with part (b) under compliance ruleset 24; see ``CardTermsQAV10``
in ``replicas.families.credit_cards.v10_families``.

``-v11`` (core-v12): ``-v10`` with part (b) under compliance ruleset 25; see ``CardTermsQAV11``
in ``replicas.families.credit_cards.v11_families``.

``-v12`` (core-v13): ``-v11`` with part (b) under compliance ruleset 26; see ``CardTermsQAV12``
in ``replicas.families.credit_cards.v12_families``.

``-v13`` (core-v14): ``-v12`` with part (b) under compliance ruleset 27; see ``CardTermsQAV13``
in ``replicas.families.credit_cards.v13_families``.

``-v14`` (core-v15): ``-v13`` with part (b) under compliance ruleset 28; see ``CardTermsQAV14``
in ``replicas.families.credit_cards.v14_families``.

``-v15`` (core-v16): ``-v14`` with part (b) under compliance ruleset 29; see ``CardTermsQAV15``
in ``replicas.families.credit_cards.v15_families``.

``-v16`` (core-v17): ``-v15`` with part (b) under compliance ruleset 30; see ``CardTermsQAV16``
in ``replicas.families.credit_cards.v16_families``.

``-v17`` (core-v18): ``-v16`` with part (b) under compliance ruleset 31; see ``CardTermsQAV17``
in ``replicas.families.credit_cards.v17_families``.

``-v18`` (core-v19): ``-v17`` with part (b) under compliance ruleset 32; see ``CardTermsQAV18``
in ``replicas.families.credit_cards.v18_families``.

``-v19`` (core-v20): ``-v18`` with part (b) under compliance ruleset 33; see ``CardTermsQAV19``
in ``replicas.families.credit_cards.v19_families``.

``-v20`` (core-v21): ``-v19`` with part (b) under compliance ruleset 34; see ``CardTermsQAV20``
in ``replicas.families.credit_cards.v20_families``.

``-v21`` (core-v22): ``-v20`` with part (b) under compliance ruleset 35; see ``CardTermsQAV21``
in ``replicas.families.credit_cards.v21_families``.

The question names a card exactly — usually one with a near-collision sibling ("Atlas Cash" /
"Atlas Cash Back", "Compass Traveler One" / "Compass Traveller One") — and asks for one
Schumer-box term. The answer is free text whose FIRST line is ``Answer: <value>`` (or
``Answer: none`` when the card has no such term); anything after it is an explanation.

Grading (both must hold):
  (a) the value on the first line is the card's true value (one number, parsed tolerantly:
      "29.99%", "29.99 percent", "$39", "$39.00", "15 months"; within 0.005), or "none" exactly
      when the card has no such term — a fee of $0 may also be answered "none";
  (b) the compliance verifier passes on the WHOLE text: no wrong APR, fee or intro offer about
      any card, no misspelled or unknown card name.
Wrong readings (recorded, must fail): the same term of the near-collision sibling, and
neighbouring terms of the same card (purchase APR max instead of penalty APR, BT fee instead
of cash-advance fee, …). Only (card, term) pairs where every reading differs are asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from replicas.families.credit_cards.common import (
    NEAR_COLLISION_RATIO,
    PASS,
    V3_COMPLIANCE_RULESET,
    V4_COMPLIANCE_RULESET,
    V5_COMPLIANCE_RULESET,
    V6_COMPLIANCE_RULESET,
    V7_COMPLIANCE_RULESET,
    apr_range,
    catalog_for,
    combine,
    failure,
    fmt_pct,
    fmt_usd,
    labelled_first_line,
    load_cards,
    nearest_siblings,
    second_answer,
    shown_in_project,
    text_precheck,
    variant_order,
)
from replicas.tasks import (
    BuildContext,
    Difficulty,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)
from replicas.verifiers.answers import check_answer
from replicas.verifiers.compliance import verify_response

#: The compliance ruleset this family's published tasks are graded with (ruleset 3 is frozen;
#: later rulesets detect more and would change published grades - a new family version opts in).
COMPLIANCE_RULESET = 3

if TYPE_CHECKING:
    from replicas.tasks import GradeContext
    from replicas.verifiers.verdict import Verdict

Unit = Literal["pct", "usd", "months"]
VALUE_TOLERANCE = 0.005
ANSWER_LABEL = "Answer"
NONE_WORDS = re.compile(
    r"(?i)^(?:none|no|n/?a|not applicable|no such (?:term|fee|apr|offer)|"
    r"(?:the card has |it has )?no (?:such )?(?:term|fee|apr|penalty apr|intro(?:ductory)? "
    r"(?:apr|offer|period))(?: at all)?)$"
)
HEDGE_WORDS = re.compile(r"(?i)\b(?:none|n/a|or no|not applicable)\b")

Sentence = Callable[[Mapping[str, Any]], str]


@dataclass(frozen=True)
class Term:
    """One askable term: its column, how it is asked, its unit and its neighbouring terms."""

    column: str
    label: str
    unit: Unit
    neighbours: tuple[str, ...]
    difficulty: Difficulty
    zero_is_none: bool = False
    none_note: str = ""

    def __post_init__(self) -> None:
        if not self.neighbours:
            raise ValueError(f"term {self.column} needs at least one neighbouring term")
        if self.column in self.neighbours:
            raise ValueError(f"term {self.column} cannot be its own neighbour")


def _term(*args: Any, **kwargs: Any) -> tuple[str, Term]:
    term = Term(*args, **kwargs)
    return term.column, term


#: Askable terms (a registry: adding a term is one line plus its oracle sentence).
TERMS: dict[str, Term] = dict(
    [
        _term("annual_fee_usd", "annual fee (USD, ongoing, not the first-year fee)", "usd",
              ("late_fee_usd",), "easy", zero_is_none=True),
        _term("purchase_apr_min_pct", "lowest purchase APR (the bottom of its purchase APR "
              "range, in percent)", "pct", ("purchase_apr_max_pct",), "easy"),
        _term("purchase_apr_max_pct", "highest purchase APR (the top of its purchase APR range, "
              "in percent)", "pct", ("purchase_apr_min_pct", "cash_advance_apr_pct"), "easy"),
        _term("intro_purchase_apr_pct", "introductory APR on purchases (in percent)", "pct",
              ("intro_bt_apr_pct",), "medium", none_note="the card has no intro purchase offer"),
        _term("intro_purchase_months", "length of the introductory purchase APR period (in "
              "months)", "months", ("intro_bt_months",), "medium",
              none_note="the card has no intro purchase offer"),
        _term("intro_bt_apr_pct", "introductory APR on balance transfers (in percent)", "pct",
              ("intro_purchase_apr_pct",), "medium",
              none_note="the card has no intro balance-transfer offer"),
        _term("intro_bt_months", "length of the introductory balance-transfer APR period (in "
              "months)", "months", ("intro_purchase_months",), "medium",
              none_note="the card has no intro balance-transfer offer"),
        _term("bt_fee_pct", "balance transfer fee (percent of each transfer)", "pct",
              ("cash_advance_fee_pct",), "medium"),
        _term("bt_fee_min_usd", "minimum balance transfer fee (USD)", "usd",
              ("cash_advance_fee_min_usd",), "medium"),
        _term("cash_advance_apr_pct", "cash advance APR (in percent)", "pct",
              ("purchase_apr_max_pct", "penalty_apr_pct"), "medium"),
        _term("cash_advance_fee_pct", "cash advance fee (percent of each advance)", "pct",
              ("bt_fee_pct",), "medium"),
        _term("cash_advance_fee_min_usd", "minimum cash advance fee (USD)", "usd",
              ("bt_fee_min_usd",), "medium"),
        _term("penalty_apr_pct", "penalty APR (in percent)", "pct",
              ("purchase_apr_max_pct", "cash_advance_apr_pct"), "hard",
              none_note="the card has no penalty APR"),
        _term("foreign_txn_fee_pct", "foreign transaction fee (percent of each transaction)",
              "pct", ("bt_fee_pct",), "easy", zero_is_none=True),
        _term("late_fee_usd", "late payment fee (the maximum, USD)", "usd",
              ("annual_fee_usd",), "easy"),
    ]
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# values


def canonical(term: Term, value: Any) -> str:
    """The canonical answer value: '29.99%', '$39', '15 months' or 'none'."""
    if value is None:
        return "none"
    number = float(value)
    if term.unit == "pct":
        return fmt_pct(number)
    if term.unit == "usd":
        return fmt_usd(number)
    return f"{int(number)} months"


def parse_canonical(text: str) -> float | None:
    if text == "none":
        return None
    match = re.search(r"\d+(?:\.\d+)?", text.replace(",", ""))
    if match is None:
        raise ValueError(f"not a canonical term value: {text!r}")
    return float(match.group(0))


def _same(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(float(a) - float(b)) <= VALUE_TOLERANCE


def readings_for(
    card: Mapping[str, Any], sibling: Mapping[str, Any], term: Term
) -> dict[str, Any] | None:
    """Wrong readings of (card, term), or None when one of them equals the true value."""
    truth = card[term.column]
    readings = {"near_collision_sibling": sibling[term.column]}
    readings.update({f"neighbour_term_{n}": card[n] for n in term.neighbours})
    if any(_same(v, truth) for v in readings.values()):
        return None
    return readings


# --------------------------------------------------------------------------------------------
# oracle sentences: plain statements the compliance verifier reads as true claims


def _intro_sentence(kind: str) -> Sentence:
    apr_col, months_col = f"intro_{kind}_apr_pct", f"intro_{kind}_months"
    what = "purchases" if kind == "purchase" else "balance transfers"

    def sentence(card: Mapping[str, Any]) -> str:
        if card[apr_col] is None:
            return f"The {card['card_name']} has no intro APR on {what}."
        return (
            f"The {card['card_name']} offers a {fmt_pct(card[apr_col])} intro APR on {what} "
            f"for {card[months_col]} months, then {apr_range(card)} APR."
        )

    return sentence


def _plain(label: str, unit: Unit, column: str) -> Sentence:
    # The card's name comes first: a name such as "Gray Rock Low Rate" must not sit between a
    # term's cue words and its value, where a reader (or the verifier) could take it as the cue.
    def sentence(card: Mapping[str, Any]) -> str:
        value = card[column]
        if value is None:
            return f"The {card['card_name']} has no {label}."
        shown = fmt_pct(value) if unit == "pct" else fmt_usd(value)
        return f"The {card['card_name']} has a {label} of {shown}."

    return sentence


def _purchase_apr(card: Mapping[str, Any]) -> str:
    return f"The {card['card_name']} has a purchase APR of {apr_range(card)}."


def _fee_with_minimum(label: str, pct_col: str, min_col: str, per: str) -> Sentence:
    def sentence(card: Mapping[str, Any]) -> str:
        return (
            f"The {card['card_name']} charges a {label} of {fmt_pct(card[pct_col])} of each "
            f"{per}, minimum {fmt_usd(card[min_col])}."
        )

    return sentence


def _foreign_fee(card: Mapping[str, Any]) -> str:
    if not card["foreign_txn_fee_pct"]:
        return f"The {card['card_name']} charges no foreign transaction fee."
    return (
        f"The {card['card_name']} charges a foreign transaction fee of "
        f"{fmt_pct(card['foreign_txn_fee_pct'])} of each transaction."
    )


_BT_FEE = _fee_with_minimum("balance transfer fee", "bt_fee_pct", "bt_fee_min_usd", "transfer")
_CA_FEE = _fee_with_minimum(
    "cash advance fee", "cash_advance_fee_pct", "cash_advance_fee_min_usd", "advance"
)
SENTENCES: dict[str, Sentence] = {
    "annual_fee_usd": _plain("annual fee", "usd", "annual_fee_usd"),
    "purchase_apr_min_pct": _purchase_apr,
    "purchase_apr_max_pct": _purchase_apr,
    "intro_purchase_apr_pct": _intro_sentence("purchase"),
    "intro_purchase_months": _intro_sentence("purchase"),
    "intro_bt_apr_pct": _intro_sentence("bt"),
    "intro_bt_months": _intro_sentence("bt"),
    "bt_fee_pct": _BT_FEE,
    "bt_fee_min_usd": _BT_FEE,
    "cash_advance_apr_pct": _plain("cash advance APR", "pct", "cash_advance_apr_pct"),
    "cash_advance_fee_pct": _CA_FEE,
    "cash_advance_fee_min_usd": _CA_FEE,
    "penalty_apr_pct": _plain("penalty APR", "pct", "penalty_apr_pct"),
    "foreign_txn_fee_pct": _foreign_fee,
    "late_fee_usd": _plain("late fee", "usd", "late_fee_usd"),
}
if set(SENTENCES) != set(TERMS):
    raise ValueError("every askable term needs exactly one oracle sentence")


def oracle_text(card: Mapping[str, Any], term: Term) -> str:
    return f"{ANSWER_LABEL}: {canonical(term, card[term.column])}\n{SENTENCES[term.column](card)}"


# --------------------------------------------------------------------------------------------
# the family


@register_family
class CardTermsQA(TaskFamily):
    name = "credit_cards.card_terms_qa-v1"
    replica = "credit_cards"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value and every claim in the text are checked against the catalog."
    )
    difficulty = "medium"
    n_variants = 8
    #: the ruleset part (b) grades with, also when the build checks that the oracle passes
    compliance_ruleset: ClassVar[int] = COMPLIANCE_RULESET

    def make(self, ctx: BuildContext) -> Task:
        cards = load_cards(ctx)
        by_id = {c["card_id"]: c for c in cards}
        siblings = nearest_siblings(cards)
        # term first (a different one per variant of a seed), then a card
        pool: dict[str, list[tuple[dict[str, Any], dict[str, Any], float]]] = {}
        for card in cards:
            sibling_id, ratio = siblings[card["card_id"]]
            for term in TERMS.values():
                readings = readings_for(card, by_id[sibling_id], term)
                if readings is not None:
                    pool.setdefault(term.column, []).append((card, readings, ratio))
        if not pool:
            raise ValueError(f"{self.name}: no (card, term) pair discriminates its readings")
        rng = ctx.rng("pick")
        term = TERMS[variant_order(ctx, sorted(pool), "term")[0]]
        near = [entry for entry in pool[term.column] if entry[2] >= NEAR_COLLISION_RATIO]
        choices = list(near if near and rng.random() < 0.85 else pool[term.column])
        while True:
            card, readings, _ = choices.pop(int(rng.integers(0, len(choices))))
            truth = card[term.column]
            if self._askable(ctx, card, term):
                break
            if not choices:
                raise TaskBuildError(f"{self.name}: no card's {term.column} can be asked")
        wrong = {name: canonical(term, value) for name, value in readings.items()}
        return ctx.task(
            instruction=_instruction(card["card_name"], term),
            answer_kind="text",
            expected=canonical(term, truth),
            verifier=VerifierConfig(abs_tol=VALUE_TOLERANCE),
            oracle=(sql(lookup_sql(card["card_name"], term)), submit(oracle_text(card, term))),
            wrong_readings=wrong,
            difficulty=term.difficulty,
            metadata={"card_id": card["card_id"], "term": term.column},
        )

    def _askable(self, ctx: BuildContext, card: Mapping[str, Any], term: Term) -> bool:
        """The oracle must pass the compliance verifier: a card whose name trips the verifier's
        extractor is skipped rather than asked with an unpassable oracle."""
        return grade_terms_answer(
            oracle_text(card, term),
            canonical(term, card[term.column]),
            term,
            catalog_for(ctx.snapshot),
            ruleset=self.compliance_ruleset,
        ).passed

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        term = TERMS[str(task.metadata["term"])]
        catalog = catalog_for(ctx.snapshot)
        return grade_terms_answer(
            answer, task.expected, term, catalog, ruleset=self.compliance_ruleset
        )


def lookup_sql(card_name: str, term: Term) -> str:
    """The oracle's query: the card found by the exact name the question gives (a reader's
    only handle on it; its card_id appears nowhere in the conversation before this answer)."""
    quoted = card_name.replace("'", "''")
    return f"select card_id, card_name, {term.column} from card_terms where card_name = '{quoted}'"


V1_VALUE_CONFIG = VerifierConfig(abs_tol=VALUE_TOLERANCE, rel_tol=0.0)


def check_value(
    answer: str, expected: str, term: Term, config: VerifierConfig = V1_VALUE_CONFIG
) -> Verdict:
    """Part (a): the first line states the right value (or 'none' where the card has none)."""

    value = labelled_first_line(answer, ANSWER_LABEL)
    if value is None:
        return failure(
            "no_answer_line",
            f"the first line must be '{ANSWER_LABEL}: <value>' (or '{ANSWER_LABEL}: none')",
        )
    repeated = second_answer(answer, ANSWER_LABEL)
    if repeated is not None:
        return repeated
    want = parse_canonical(expected)
    says_none = bool(NONE_WORDS.match(value)) and not re.search(r"\d", value)
    if re.search(r"\d", value) and HEDGE_WORDS.search(value):
        message = "the answer line hedges between a value and 'none'; give one value"
        return failure("multiple_candidates", message, found=value)
    if says_none:
        if want is None or (term.zero_is_none and want == 0):
            return PASS
        return failure(
            "wrong_value", f"the card has this term: {expected}", expected=expected, found=value
        )
    if want is None:
        return failure(
            "wrong_value",
            "the card has no such term; the answer is 'none'",
            expected=expected,
            found=value,
        )
    return check_answer("number", value, want, config)


def grade_terms_answer(
    answer: str,
    expected: str,
    term: Term,
    catalog: Any,
    config: VerifierConfig = V1_VALUE_CONFIG,
    *,
    ruleset: int = COMPLIANCE_RULESET,
) -> Verdict:
    """(a) the asked value AND (b) the compliance verifier (``ruleset``) on the whole text."""

    rejected = text_precheck(answer)
    if rejected is not None:
        return rejected
    return combine(
        {
            "value": check_value(answer, expected, term, config),
            "compliance": verify_response(answer, catalog, ruleset=ruleset),
        }
    )


def _instruction(card_name: str, term: Term) -> str:
    none_rule = (
        f" If {term.none_note}, the value is none."
        if term.none_note
        else (" A fee of $0 may be written as 0 or none." if term.zero_is_none else "")
    )
    unit = {"pct": "a percentage such as 19.99%", "usd": "a US-dollar amount such as $39",
            "months": "a number of months such as 15 months"}[term.unit]  # fmt: skip
    return (
        f'What is the {term.label} of the credit card named exactly "{card_name}"? Several '
        "cards have similar names: make sure you answer about this exact card.\n\n"
        f"Answer in free text. The FIRST line must be '{ANSWER_LABEL}: <value>' with the value "
        f"as {unit}, and nothing else on that line.{none_rule} You may explain on the "
        "following lines, but every statement about any card (names, APRs, intro offers, "
        "fees) must match the card catalog (card_terms): a wrong value, a misspelled or "
        "unknown card name, or an intro offer that does not exist fails the task. Numbers "
        "are compared within 0.005."
    )


#: v1's closing sentence, replaced in v2 by the tolerance rendered from the grader's config.
V1_TOLERANCE_WORDS = " Numbers are compared within 0.005."
_V2_UNITS = {"pct": "percentage_points", "usd": "usd", "months": ""}


def value_config(term: Term) -> VerifierConfig:
    """v2: half a unit of the term's precision (a month count is exact)."""
    if term.unit == "months":
        return VerifierConfig(abs_tol=0.0, rel_tol=0.0)
    return VerifierConfig(abs_tol=VALUE_TOLERANCE, rel_tol=0.0, unit=_V2_UNITS[term.unit])


@register_family
class CardTermsQAV2(CardTermsQA):
    """v1 graded with a hard-coded tolerance and stated it as a bare number."""

    name = "credit_cards.card_terms_qa-v2"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated in the grader's words) and every claim are checked."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        term = TERMS[str(task.metadata["term"])]
        text = task.instruction.removesuffix(V1_TOLERANCE_WORDS)
        return state_tolerance(task, value_config(term), instruction=text)

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        term = TERMS[str(task.metadata["term"])]
        catalog = catalog_for(ctx.snapshot)
        return grade_terms_answer(
            answer, task.expected, term, catalog, task.verifier, ruleset=self.compliance_ruleset
        )


@register_family
class CardTermsQAV3(CardTermsQAV2):
    """-v2 with the compliance part graded under ruleset 10 instead of the frozen ruleset 3.

    What changed: part (b) - and the build's check that the oracle text passes - runs
    ``verify_response(..., ruleset=10)``; and the build skips a card whose answer shows in a file
    of the dbt project the agent can read (``shown_in_project``: core-v3's first audit flagged
    a task asking a cash advance APR of 29.99% as leaky through ``max_value: 29.99``, the penalty
    APR test's bound in ``card_terms.yml`` - nothing about that card, but what the audit cannot
    tell from a leak). The value check, the instruction's wording, the oracle and the wrong readings
    are -v2's; the questions are drawn anew (a family's seeded streams are keyed by its name,
    as at every version bump).

    Why: issue 13 asks that the families grade with the current verifier. Ruleset 3 passes
    false claims later rulesets read ("no AF" or "no FTF" for a card that charges the fee, "free
    balance transfers" for one with a transfer fee) and fails text that states nothing false
    ("Annual fee: n/a", which may mean "not stated"; "about 29%" for a 29.49% APR). -v2's ids
    must keep ruleset 3's grades, so the change ships as this version in suite core-v3. Every
    oracle text the build can choose on seeds 1-3 passes under both rulesets (measured).
    """

    name = "credit_cards.card_terms_qa-v3"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 10)."
    )
    compliance_ruleset = V3_COMPLIANCE_RULESET

    def _askable(self, ctx: BuildContext, card: Mapping[str, Any], term: Term) -> bool:
        expected = canonical(term, card[term.column])
        if shown_in_project(ctx.snapshot, "text", expected, value_config(term)):
            return False
        return super()._askable(ctx, card, term)


@register_family
class CardTermsQAV4(CardTermsQAV3):
    """-v3 with the compliance part graded under ruleset 16 instead of ruleset 10.

    What changed: part (b) - and the build's check that the oracle text passes - runs
    ``verify_response(..., ruleset=16)``. Everything else is -v3's (the value check, the
    instruction's wording, the oracle, the wrong readings, the project-file screen); the
    questions are drawn anew (a family's seeded streams are keyed by its name).

    Why: issue 13 asks that the families grade with the current verifier. Measured on blind
    held-out sets written by others (kept outside the repository, scored in aggregate): ruleset 10
    flags 7.0 % (s15), 13.7 % (s16) and 11.3 % (s17) of correct, compliant answers; ruleset 16
    0.3 %, 4.7 % and 8.0 % - the yearly value of a card read as its fee, a true myth correction
    read as the myth, a short label bound to the wrong card. A reward that fails honest answers teaches a model to
    drop careful explanations. -v3's ids must keep ruleset 10's grades, so the change ships as
    this version in suite core-v5.
    """

    name = "credit_cards.card_terms_qa-v4"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 16)."
    )
    compliance_ruleset = V4_COMPLIANCE_RULESET


@register_family
class CardTermsQAV5(CardTermsQAV4):
    """-v4 with the compliance part graded under ruleset 17 instead of ruleset 16.

    What changed: part (b) - and the build's check that the oracle text passes - runs
    ``verify_response(..., ruleset=17)``. Everything else is -v4's; the questions are drawn anew
    (a family's seeded streams are keyed by its name).

    Why: issue 13 asks that the families grade with the current verifier. Measured on blind
    held-out sets written by others (kept outside the repository, scored in aggregate): ruleset 16
    flags 8.0 % (s17), 11.7 % (s18) and 8.7 % (s19) of correct, compliant answers, ruleset 17
    0.0 %, 2.7 % and 2.3 % - a summary's inline short labels ("In short - Elite: ...; Plus: ...")
    bound to the card named last, a customer's figure quoted in a transcript and corrected, a fee
    total over several years, what the customer spends, "USD 95". The tuning parts of s18 and s19
    (one of their four seeds each) were among ruleset 17's tuning data; before they were, ruleset
    17 flagged 11.3 % and 8.0 % of their held-out answers. -v4's ids must keep ruleset 16's
    grades, so the change ships as this version in suite core-v6.
    """

    name = "credit_cards.card_terms_qa-v5"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 17)."
    )
    compliance_ruleset = V5_COMPLIANCE_RULESET


@register_family
class CardTermsQAV6(CardTermsQAV5):
    """-v5 with the compliance part graded under ruleset 19 instead of ruleset 17.

    What changed: part (b) - and the build's check that the oracle text passes - runs
    ``verify_response(..., ruleset=19)``. Everything else is -v5's; the questions are drawn anew
    (a family's seeded streams are keyed by its name).

    Why: issue 13 asks that the families grade with the current verifier. Measured on blind
    held-out sets written by others (kept outside the repository, scored in aggregate): ruleset 17
    flags 21.3 % (s20), 15.3 % (s21) and 24.0 % (s22) of correct, compliant answers, ruleset 19
    6.3 %, 6.7 % and 14.3 % - decimals and durations spoken out, a forum's quoted line or a
    caller's turn corrected by the answer, "$95 and $0 for the A and B respectively", "the <last
    words of a named card>", an FAQ's question, a worked transfer-fee sum (ruleset 18), "the
    latter", "5%/$10", "3% on purchases abroad" (ruleset 19). Its recall is at least ruleset 17's
    on every code of the three sets, and it reads a card offered to a named customer as an
    option (a table row, a list item) for the eligibility rule. The tuning parts of s20 and s21
    were ruleset 18's and 19's tuning data; s22 was written after both (one reading was fixed
    on its tuning part). -v5's ids must keep ruleset 17's grades, so the change ships as this
    version in suite core-v7.
    """

    name = "credit_cards.card_terms_qa-v6"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 19)."
    )
    compliance_ruleset = V6_COMPLIANCE_RULESET


@register_family
class CardTermsQAV7(CardTermsQAV6):
    """-v6 with the compliance part graded under ruleset 20 instead of ruleset 19.

    What changed: part (b) - and the build's check that the oracle text passes - runs
    ``verify_response(..., ruleset=20)``. Everything else is -v6's; the questions are drawn anew
    (a family's seeded streams are keyed by its name).

    Why: issue 13 asks that the families grade with the current verifier. Measured on blind
    held-out sets written by others (kept outside the repository, scored in aggregate), ruleset
    20 flags fewer correct, compliant answers than ruleset 19 (s21, s22, s23; as many on s20)
    and catches as many defects of every code on the four sets but one (s23 ``wrong_apr``, 18
    -> 17 of 21): see "Ruleset 20" in verifiers/compliance/RULESETS.md for the figures per
    set. -v6's ids must keep ruleset 19's grades, so the change ships as this version in suite
    core-v8.
    """

    name = "credit_cards.card_terms_qa-v7"
    description = (
        "Answer one disclosed term (APR, intro offer, fee) of one exactly named card in free "
        "text; the value (tolerance stated) and every claim are checked (compliance ruleset 20)."
    )
    compliance_ruleset = V7_COMPLIANCE_RULESET
