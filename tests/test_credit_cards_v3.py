"""The -v3 to -v21 credit_cards families (suites core-v3, core-v5, core-v6, core-v7, core-v8,
core-v9, core-v10, core-v11, core-v12, core-v13, core-v14, core-v15, core-v16, core-v17,
core-v18, core-v19, core-v20, core-v21, core-v22): the compliance verifier under rulesets 10, 16,
17, 19, 20, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34 and 35.

-v4 (core-v5) is -v3 with ruleset 16, -v5 (core-v6) -v4 with ruleset 17, -v6 (core-v7) -v5
with ruleset 19, -v7 (core-v8) -v6 with ruleset 20, -v8 (core-v9) -v7 with ruleset 21, -v9
(core-v10) -v8 with ruleset 23, -v10 (core-v11) -v9 with ruleset 24, -v11 (core-v12) -v10 with
ruleset 25, -v12 (core-v13) -v11 with ruleset 26, -v13 (core-v14) -v12 with ruleset 27, -v14
(core-v15) -v13 with ruleset 28, -v15 (core-v16) -v14 with ruleset 29, -v16 (core-v17) -v15
with ruleset 30, -v17 (core-v18) -v16 with ruleset 31, -v18 (core-v19) -v17 with ruleset 32,
-v19 (core-v20) -v18 with ruleset 33, -v20 (core-v21) -v19 with ruleset 34 and -v21 (core-v22)
-v20 with ruleset 35; the tests of -v3's build and episodes run for all nineteen, and the same
text is graded by -v3 as ruleset 10 reads it, by -v4 as ruleset 16 does,
by -v5 as ruleset 17 does, by -v6 as ruleset 19 does, by -v7 as ruleset 20 does, by -v8 as ruleset
21 does, by -v9 as ruleset 23 does, by -v10 as ruleset 24 does, by -v11 as ruleset 25 does, by
-v12 as ruleset 26 does, by -v13 as ruleset 27 does, by -v14 as ruleset 28 does, by -v15 as
ruleset 29 does, by -v16 as ruleset 30 does, by -v17 as ruleset 31 does, by -v18 as ruleset 32
does, by -v19 as ruleset 33 does, by -v20 as ruleset 34 does and by -v21 as ruleset 35 does.

``card_terms_qa-v3``, ``recommend_card-v3`` and ``offer_audit-v3`` are their -v2 classes with the
compliance verifier run under ruleset 10 instead of the frozen ruleset 3; the -v2 ids keep
ruleset 3. On a real snapshot (seed 1, scale 0.01): texts on which the two rulesets disagree -
each disagreement computed by the verifier here, never assumed - are graded by the -v3 family as
ruleset 10 reads them and by the -v2 family as ruleset 3 does, on the same task; each build runs
the verifier with its family's ruleset; the -v3 oracles score 1.0 and the null answer 0.0 in a
real episode, and every recorded wrong reading fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas.build import ensure_snapshot
from replicas.env import Env
from replicas.families.credit_cards import card_terms_qa, offer_audit, recommend_card
from replicas.families.credit_cards.common import catalog_for, load_cards, shown_in_project
from replicas.tasks import BuildContext, GradeContext, Task, get_family
from replicas.tasks.loader import task_from_id
from replicas.verifiers.compliance import FROZEN_RULESET, RULESETS, Catalog, verify_response
from replicas.verifiers.verdict import Verdict

SEED = 1
V3_RULESET = 10
V4_RULESET = 16
V5_RULESET = 17
V6_RULESET = 19
V7_RULESET = 20
V8_RULESET = 21
V9_RULESET = 23
V10_RULESET = 24
V11_RULESET = 25
V12_RULESET = 26
V13_RULESET = 27
V14_RULESET = 28
V15_RULESET = 29
V16_RULESET = 30
V17_RULESET = 31
V18_RULESET = 32
V19_RULESET = 33
V20_RULESET = 34
V21_RULESET = 35
BUMPED = ("card_terms_qa", "recommend_card", "offer_audit")
MODULES = {"card_terms_qa": card_terms_qa, "recommend_card": recommend_card}
MODULES["offer_audit"] = offer_audit


@pytest.fixture(scope="module")
def snapshot() -> Any:
    return ensure_snapshot("credit_cards", SEED)


@pytest.fixture(scope="module")
def catalog(snapshot: Any) -> Catalog:
    return catalog_for(snapshot)


def _task(base: str, version: str, variant: int = 0) -> Task:
    return task_from_id(f"credit_cards.{base}-{version}.s{SEED}.{variant}")


def _grade(family: str, task: Task, answer: str, snapshot: Any) -> Verdict:
    """``answer`` graded by ``family`` (the -v2 and -v3 graders read the same task fields)."""
    ctx = GradeContext(snapshot=snapshot, sandbox_root=Path("."), project_dir=Path("."))
    try:
        return get_family(family).grade(task, answer, ctx)
    finally:
        ctx.close()


def _disagreement(
    text: str, catalog: Catalog, customer_id: int | None = None
) -> tuple[Verdict, Verdict]:
    """Rulesets 3 and 9 on ``text``, asserted to disagree on pass/fail (the test's premise)."""
    old = verify_response(text, catalog, customer_id=customer_id, ruleset=FROZEN_RULESET)
    new = verify_response(text, catalog, customer_id=customer_id, ruleset=V3_RULESET)
    assert old.passed != new.passed, (text, old.codes, new.codes)
    return old, new


def _assert_graded_like(verdict: Verdict, compliance: Verdict) -> None:
    """The family's verdict is the compliance verdict (the rest of the answer is right)."""
    assert verdict.passed == compliance.passed, (verdict.codes, compliance.codes)
    assert set(compliance.codes) <= set(verdict.codes)


def _card(catalog: Catalog, name: str) -> Any:
    return next(c for c in catalog.cards if c.card_name == name)


def _subject(task: Task, catalog: Catalog) -> Any:
    """The card a card_terms question asks about, or a recommendation's expected card."""
    if "card_id" in task.metadata:
        return catalog.card(str(task.metadata["card_id"]))
    return _card(catalog, str(task.expected))


# --------------------------------------------------------------------------------------------
# the same text graded by -v2 (ruleset 3) and -v3 (ruleset 10)


def test_card_terms_v3_grades_with_ruleset_10(snapshot: Any, catalog: Catalog) -> None:
    # a question about a card that charges an annual fee, so "no AF" is false about it
    task = next(
        t
        for t in (_task("card_terms_qa", "v3", v) for v in range(4))
        if _subject(t, catalog).annual_fee_usd
    )
    card = _subject(task, catalog)
    oracle = task.oracle[-1].arguments["answer"]
    v2, v3 = "credit_cards.card_terms_qa-v2", "credit_cards.card_terms_qa-v3"
    assert _grade(v3, task, oracle, snapshot).passed and _grade(v2, task, oracle, snapshot).passed

    apr = round(float(card.purchase_apr_max_pct))  # within a point of the true APR
    lines = (
        f"The {card.card_name} has no AF.",  # false: ruleset 3 misses it
        f"The {card.card_name} offers free balance transfers.",  # every card has a transfer fee
        "Annual fee: n/a",  # may mean "not stated": ruleset 3 reads it as "none"
        f"The {card.card_name} has a purchase APR of about {apr}%.",
    )
    flips = set()
    for line in lines:
        text = f"{oracle}\n{line}"
        old, new = _disagreement(text, catalog)
        _assert_graded_like(_grade(v2, task, text, snapshot), old)
        _assert_graded_like(_grade(v3, task, text, snapshot), new)
        flips.add(new.passed)
    assert flips == {True, False}  # cases in both directions


def _ineligible_name(snapshot: Any, customer_id: int) -> str:
    ctx = GradeContext(snapshot=snapshot, sandbox_root=Path("."), project_dir=Path("."))
    try:
        rows = ctx.pristine_query(
            "select t.card_name from main.card_eligibility e join main.card_terms t "
            f"using (card_id) where e.customer_id = {customer_id} and not e.is_eligible "
            "order by e.card_id"
        )
    finally:
        ctx.close()
    return str(rows[0][0])


def test_recommend_card_v3_grades_with_ruleset_10(snapshot: Any, catalog: Catalog) -> None:
    task = _task("recommend_card", "v3")
    customer = int(task.metadata["customer_id"])
    name = str(task.expected)
    oracle = task.oracle[-1].arguments["answer"]
    v2, v3 = "credit_cards.recommend_card-v2", "credit_cards.recommend_card-v3"
    ineligible = _ineligible_name(snapshot, customer)
    apr = round(float(_card(catalog, name).purchase_apr_max_pct))
    lines = [
        f"Bottom line: the {ineligible}.",  # an ineligible card put forward: ruleset 3 misses it
        "Annual fee: n/a",  # ruleset 3 reads "none" and flags the fee
        f"The {name} has a purchase APR of about {apr}%.",
    ]
    if _card(catalog, name).annual_fee_usd:
        lines.append(f"The {name} has no AF.")
    flips = set()
    for line in lines:
        text = f"{oracle}\n{line}"
        old, new = _disagreement(text, catalog, customer)
        _assert_graded_like(_grade(v2, task, text, snapshot), old)
        _assert_graded_like(_grade(v3, task, text, snapshot), new)
        flips.add(new.passed)
    assert flips == {True, False}


def _lines_v4(card: Any, other: str) -> list[str]:
    """Lines about ``card`` (true, in wordings ruleset 10 misreads) and false ones (an invented
    name in the catalog's own words, which only later rulesets read)."""
    fee = float(card.annual_fee_usd)
    lines = [
        f"You may have read that the {card.card_name} charges no late fee - it does charge "
        f"one, up to ${float(card.late_fee_usd):.0f}.",
        f"Over three years the {card.card_name}'s fees add up to ${3 * fee:.0f}.",
        f"Another option is the {other} Obsidian Infinite Reserve.",
        f"If you travel, the {other.lower()} quartz select rewards is worth a look.",
    ]
    if fee:
        lines.append(
            f"A common myth is that the {card.card_name} has no annual fee; in fact it is "
            f"${fee:.0f}."
        )
    return lines


def _lines_v5(card: Any) -> list[str]:
    """Lines about ``card``: true ones ruleset 16 misreads (a customer's figure corrected in the
    reply, a fee total over three years) and a false one only ruleset 17 reads (a fee in USD)."""
    fee, late = float(card.annual_fee_usd), float(card.late_fee_usd)
    return [
        f"User: is the {card.card_name}'s late fee ${late + 10:.0f}?\n"
        f"Assistant: No - the {card.card_name}'s late fee is up to ${late:.0f}.",
        f"Across three years you'd pay ${3 * fee + 30:.0f} in fees on the {card.card_name}, "
        "counting one late payment.",
        f"The {card.card_name}'s late fee is {late + 7:.0f} USD.",
    ]


def _lines_v6(card: Any, catalog: Catalog) -> list[str]:
    """Lines about ``card``: true ones ruleset 17 misreads (a caller's figure the assistant
    corrects, a forum's quoted line the reply corrects) and a false one only ruleset 18 (and so
    19) reads
    (two cards' late fees swapped, the cards named after the figures with "respectively")."""
    late = float(card.late_fee_usd)
    other = next(c for c in catalog.cards if float(c.late_fee_usd) != late)
    return [
        f"Caller: is the {card.card_name}'s late fee ${late + 10:.0f}?\n"
        f"Assistant: No, its late fee is ${late:.0f}.",
        f"> someone said the {card.card_name} charges a ${late + 10:.0f} late fee\n\n"
        f"Not so: its late fee is ${late:.0f}.",
        f"Late fees: ${float(other.late_fee_usd):.0f} and ${late:.0f} for the {card.card_name} "
        f"and the {other.card_name} respectively.",
    ]


def _lines_v7(card: Any) -> list[str]:
    """Lines about ``card``: true ones ruleset 19 misreads (a tip about issuers in general after
    the card is named, a figure someone else stated that the reply corrects) and a false one
    only ruleset 20 reads (a balance-transfer fee "per transfer" that is not the card's)."""
    late, bt = float(card.late_fee_usd), float(card.bt_fee_pct or 0)
    wrong_bt = 5.0 if bt != 5.0 else 3.0
    return [
        f"The {card.card_name} is fine at home. A tip: most issuers charge about 3% on "
        "purchases abroad.",
        f"You said the {card.card_name}'s late fee was ${late + 10:.0f}; it's ${late:.0f}.",
        f"The {card.card_name} takes {wrong_bt:g}% per transfer.",
    ]


def _lines_v8(card: Any) -> list[str]:
    """Lines about ``card``: a true one ruleset 20 misreads (a reward's spend cap read as the
    annual fee) and a false one only ruleset 21 reads (a figure in a list under a heading that
    names the term: the card's cash-advance APR given as its penalty APR, which ruleset 20 accepts
    because it is one of the card's APRs)."""
    lines = [f"{card.card_name} - 2% dining (first $1,500 a year)."]
    cash, penalty = card.cash_advance_apr_pct, card.penalty_apr_pct
    if cash is not None and (penalty is None or float(cash) != float(penalty)):
        lines.append(f"Penalty APR check:\n- {card.card_name}: {float(cash):.2f}%")
    return lines


def _lines_after(version: str, card: Any, catalog: Catalog) -> list[str]:
    if version == "v8":
        return _lines_v8(card)
    if version == "v4":
        return _lines_v4(card, card.card_name.split()[0])
    if version == "v7":
        return _lines_v7(card)
    return _lines_v5(card) if version == "v5" else _lines_v6(card, catalog)


@pytest.mark.parametrize(
    ("before", "after", "old_ruleset", "new_ruleset"),
    [
        ("v3", "v4", V3_RULESET, V4_RULESET),
        ("v4", "v5", V4_RULESET, V5_RULESET),
        ("v5", "v6", V5_RULESET, V6_RULESET),
        ("v6", "v7", V6_RULESET, V7_RULESET),
        ("v7", "v8", V7_RULESET, V8_RULESET),
    ],
)
@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_a_bump_grades_with_its_ruleset(
    base: str,
    before: str,
    after: str,
    old_ruleset: int,
    new_ruleset: int,
    snapshot: Any,
    catalog: Catalog,
) -> None:
    """On the same task, -v3 grades a text as ruleset 10 reads it and -v4 as ruleset 16 does
    (-v4 and -v5, -v5 and -v6, -v6 and -v7, -v7 and -v8: rulesets 16 and 17, 17 and 19, 19 and
    20, 20 and 21); the texts on which the two disagree (computed here) go both ways: honest ones
    the older version fails and false ones it passes."""
    old_family, new_family = f"credit_cards.{base}-{before}", f"credit_cards.{base}-{after}"
    flips: set[bool] = set()
    for variant in range(4):
        task = _task(base, after, variant)
        customer = task.metadata.get("customer_id")
        customer_id = None if customer is None else int(customer)
        oracle = task.oracle[-1].arguments["answer"]
        assert _grade(new_family, task, oracle, snapshot).passed
        for line in _lines_after(after, _subject(task, catalog), catalog):
            text = f"{oracle}\n{line}"
            old = verify_response(text, catalog, customer_id=customer_id, ruleset=old_ruleset)
            new = verify_response(text, catalog, customer_id=customer_id, ruleset=new_ruleset)
            if old.passed == new.passed:
                continue
            _assert_graded_like(_grade(old_family, task, text, snapshot), old)
            _assert_graded_like(_grade(new_family, task, text, snapshot), new)
            flips.add(new.passed)
    assert flips == {True, False}, flips  # cases in both directions


def _reward_rates(snapshot: Any, card_id: str) -> list[tuple[str, float]]:
    """The card's bonus categories and the percentage each pays back (rate x point value), from
    the raw tables the recommendation's value formula reads."""
    ctx = GradeContext(snapshot=snapshot, sandbox_root=Path("."), project_dir=Path("."))
    try:
        rows = ctx.pristine_query(
            "select r.category, r.rate * c.point_value_usd * 100 from raw.card_rewards r "
            f"join raw.cards c using (card_id) where card_id = '{card_id}' order by r.category"
        )
    finally:
        ctx.close()
    return [(str(category), float(pct)) for category, pct in rows]


def _lines_v9(task: Task, card: Any, catalog: Catalog, snapshot: Any) -> tuple[list[str], str]:
    """Lines about ``card``: true ones ruleset 21 misreads and ruleset 23 reads as no term claim,
    and a false one both rulesets catch.

    True: each of the card's reward rates (from ``raw.card_rewards``) under half the catalog's
    lowest purchase APR, which ruleset 21 checks as the card's APR; and, for a recommendation of a
    card with an annual fee, its annual rewards before and after that fee (the oracle's value
    plus the fee), which ruleset 21 checks as the annual fee. False: an annual fee $50 too high.
    """
    floor = 0.5 * min(c.purchase_apr_min_pct for c in catalog.cards if c.purchase_apr_min_pct)
    name, fee = card.card_name, float(card.annual_fee_usd)
    honest = [
        f"At its rate of {pct:g}% on {category}, the {name} pays back fast."
        for category, pct in _reward_rates(snapshot, card.card_id)
        if pct < floor
    ]
    value = re.search(
        r"about \$([\d,]+\.\d\d) a year after its annual fee", task.oracle[-1].arguments["answer"]
    )
    if value is not None and fee:
        net = float(value.group(1).replace(",", ""))
        honest.append(
            f"The {name} earns about ${net + fee:,.2f} a year (${net:,.2f} after the fee)."
        )
    return honest, f"The {name} has a ${fee + 50:.0f} annual fee."


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v9_grades_with_ruleset_23(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v8 grades a text as ruleset 21 reads it and -v9 as ruleset 23 does:
    true reward rates and a recommendation's rewards before and after the annual fee (figures no
    card's APR or fee could be, or the fee's arithmetic), which -v8 fails, pass -v9; a wrong annual
    fee fails both."""
    old_family, new_family = f"credit_cards.{base}-v8", f"credit_cards.{base}-v9"
    fixed = 0
    for variant in range(4):
        task = _task(base, "v9", variant)
        customer = task.metadata.get("customer_id")
        customer_id = None if customer is None else int(customer)
        oracle = task.oracle[-1].arguments["answer"]
        assert _grade(new_family, task, oracle, snapshot).passed
        honest, wrong = _lines_v9(task, _subject(task, catalog), catalog, snapshot)
        for line in honest:
            text = f"{oracle}\n{line}"
            old = verify_response(text, catalog, customer_id=customer_id, ruleset=V8_RULESET)
            new = verify_response(text, catalog, customer_id=customer_id, ruleset=V9_RULESET)
            assert new.passed, (task.id, line, new.codes)
            _assert_graded_like(_grade(old_family, task, text, snapshot), old)
            _assert_graded_like(_grade(new_family, task, text, snapshot), new)
            fixed += not old.passed
        text = f"{oracle}\n{wrong}"
        for family, ruleset in ((old_family, V8_RULESET), (new_family, V9_RULESET)):
            found = verify_response(text, catalog, customer_id=customer_id, ruleset=ruleset)
            assert "wrong_fee" in found.codes, (task.id, ruleset, found.codes)
            verdict = _grade(family, task, text, snapshot)
            assert not verdict.passed and "wrong_fee" in verdict.codes, (family, verdict.codes)
    assert fixed >= 2  # honest texts -v8 fails and -v9 passes (computed here, not assumed)


def _lines_v10(card: Any, snapshot: Any) -> tuple[list[tuple[str, str]], list[str]]:
    """Lines about ``card``: true ones ruleset 23 misreads and ruleset 24 reads right (each with
    the ruleset-24 reading that is about it), and false ones both rulesets catch.

    True: a late fee the answer states and takes back ("I told you ... was $X, but that was
    wrong"), which ruleset 23 checks as the card's late fee; each of the card's reward rates
    (from ``raw.card_rewards``) with what it pays on $5,400 a year after an arrow, which ruleset 23
    checks as the annual fee; and, for a card with an annual fee, "a no-annual-fee card would
    serve you better" (a kind of card, which ruleset 23 reads as this card having no fee) and,
    where the first year is free, "year one has no annual fee" (the first-year fee). False: an
    annual fee $50 too high and, where the first year is not free, "year one has no annual fee".
    """
    name, fee = card.card_name, float(card.annual_fee_usd or 0)
    honest = [
        (
            "corrections_24",
            f"I told you the late fee on the {name} was ${float(card.late_fee_usd) + 10:.0f}, "
            "but that was wrong. Sorry about that.",
        )
    ]
    honest += [
        (
            "results_24",
            f"The {name} pays {pct:g}% on {category} \u2192 ${54 * pct:,.0f} a year on your "
            f"{category}.",
        )
        for category, pct in _reward_rates(snapshot, card.card_id)
    ]
    wrong = [f"The {name} has a ${fee + 50:.0f} annual fee."]
    waiver = (
        f"With the {name}, year one has no annual fee, and after that the ${fee:.0f} fee applies."
    )
    if fee:
        honest.append(
            (
                "generic_24",
                f"The {name} costs ${fee:.0f} a year; if you'd rather not pay that, a "
                "no-annual-fee card would serve you better.",
            )
        )
        if card.annual_fee_first_year_usd == 0:
            honest.append(("waivers_24", waiver))
        elif card.annual_fee_first_year_usd == fee:
            wrong.append(waiver)
    return honest, wrong


Lines = tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]
# a line to grade: its reading, what it should do (true/false, or the code it should get) and its
# text, last
_Check = tuple[str, Any, str]


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v10_grades_with_ruleset_24(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v9 grades a text as ruleset 23 reads it and -v10 as ruleset 24 does:
    a figure the answer takes back, a reward worked out after an arrow, "a no-annual-fee card"
    and a free first year said as "year one has no annual fee" - which -v9 fails - pass -v10; a
    wrong annual fee (and "year one has no annual fee" where year one is not free) fails both."""

    def lines(card: Any, catalog: Catalog) -> Lines:
        honest, wrongs = _lines_v10(card, snapshot)
        return honest, [], wrongs

    fixed, _ = _bumped_readings(
        base, "v9", "v10", (V9_RULESET, V10_RULESET), lines, snapshot, catalog
    )
    # honest texts -v9 fails and -v10 passes, of three readings at least (computed, not assumed)
    assert {"corrections_24", "results_24", "generic_24"} <= fixed, fixed


def _bumped_tasks(base: str, new: str, snapshot: Any) -> Iterator[tuple[Task, int | None, str]]:
    """The four ``new`` tasks of ``base`` the bump tests share, each with its customer and oracle
    answer (which passes ``new``)."""
    for variant in range(4):
        task = _task(base, new, variant)
        customer = task.metadata.get("customer_id")
        oracle = task.oracle[-1].arguments["answer"]
        assert _grade(f"credit_cards.{base}-{new}", task, oracle, snapshot).passed
        yield task, None if customer is None else int(customer), oracle


def _graded_lines(
    base: str,
    versions: tuple[str, str],
    rulesets: tuple[int, int],
    task: Task,
    customer_id: int | None,
    oracle: str,
    checks: Sequence[_Check],
    snapshot: Any,
    catalog: Catalog,
) -> Iterator[tuple[_Check, Verdict, Verdict]]:
    """Each check with the verdicts of the oracle plus its line (its last item) under the old and
    the new ruleset; each family grades the text as its ruleset reads it."""
    for check in checks:
        text = f"{oracle}\n{check[-1]}"
        verdicts = []
        for version, ruleset in zip(versions, rulesets, strict=True):
            found = verify_response(text, catalog, customer_id=customer_id, ruleset=ruleset)
            _assert_graded_like(
                _grade(f"credit_cards.{base}-{version}", task, text, snapshot), found
            )
            verdicts.append(found)
        yield check, verdicts[0], verdicts[1]


def _bumped_readings(
    base: str,
    old: str,
    new: str,
    rulesets: tuple[int, int],
    lines: Callable[[Any, Catalog], Lines],
    snapshot: Any,
    catalog: Catalog,
    old_code: str | None = None,
) -> tuple[set[str], set[str]]:
    """On the same four ``new`` tasks, each family grades a text as its ruleset reads it: every
    true line passes ``new`` (and fails ``old`` with ``old_code``, where given, when it fails
    it), every false line fails ``new`` with wrong_fee, every wrong line fails both. Returns the
    readings of the true lines ``old`` fails and of the false lines ``old`` passes."""
    old_family, new_family = f"credit_cards.{base}-{old}", f"credit_cards.{base}-{new}"
    old_rs, new_rs = rulesets
    fixed: set[str] = set()
    caught: set[str] = set()
    for task, customer_id, oracle in _bumped_tasks(base, new, snapshot):
        honest, false, wrongs = lines(_subject(task, catalog), catalog)
        checks = [(r, True, x) for r, x in honest] + [(r, False, x) for r, x in false]
        for (reading, line_is_true, line), before, after in _graded_lines(
            base, (old, new), rulesets, task, customer_id, oracle, checks, snapshot, catalog
        ):
            if line_is_true:
                assert after.passed, (task.id, line, after.codes)
                if not before.passed:
                    assert old_code is None or old_code in before.codes, (task.id, before.codes)
                    fixed.add(reading)
            else:
                assert "wrong_fee" in after.codes, (task.id, line, after.codes)
                if before.passed:
                    caught.add(reading)
        for wrong in wrongs:
            text = f"{oracle}\n{wrong}"
            for family, ruleset in ((old_family, old_rs), (new_family, new_rs)):
                found = verify_response(text, catalog, customer_id=customer_id, ruleset=ruleset)
                assert "wrong_fee" in found.codes, (task.id, ruleset, wrong, found.codes)
                verdict = _grade(family, task, text, snapshot)
                assert not verdict.passed and "wrong_fee" in verdict.codes, (family, verdict.codes)
    return fixed, caught


def _lines_v11(
    card: Any, catalog: Catalog
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]:
    """Lines about ``card``: true ones ruleset 24 misreads and ruleset 25 reads right, false ones
    only ruleset 25 catches (each with the ruleset-25 reading that is about it), and false ones
    both rulesets catch.

    ``other`` is the first catalog card with another brand, late fee and foreign transaction fee.
    True: a sum worked out after an equals sign with emphasis between ("= **$648/yr**"), which
    ruleset 24 checks as the annual fee; the card's own transfer fee worked out from a balance
    stated in the line before ("With a $5,000 balance:" then "$250 fee" for a 5% fee), which
    ruleset 24 checks as a flat fee; and the card's late fee after an aside in brackets about
    ``other``, which ruleset 24 gives to ``other``. False, caught only by ruleset 25: ``other``'s
    late fee after the same aside, and after a possessive of the card's brand with no article
    ("Willow's late fee") once both cards are named - ruleset 24 gives each to ``other``, for
    which it is right. False, caught by both: an annual fee $50 too high.
    """
    name, fee = card.card_name, float(card.annual_fee_usd or 0)
    late, fx = float(card.late_fee_usd or 0), float(card.foreign_txn_fee_pct or 0)
    brand = name.split()[0]
    other = next(
        c
        for c in catalog.cards
        if c.card_name.split()[0] != brand
        and float(c.late_fee_usd or 0) != late
        and float(c.foreign_txn_fee_pct or 0) != fx
    )
    other_fx, other_late = float(other.foreign_txn_fee_pct or 0), float(other.late_fee_usd or 0)
    has_fx = f"a {fx:g}% foreign transaction fee" if fx else "no foreign transaction fee"
    charges = f"charges {other_fx:g}%" if other_fx else "charges none"
    aside = f"The {name} has {has_fx} (the {other.card_name} {charges}), and its late fee is up to "
    possessive = f"I compared the {name} and the {other.card_name}. {brand}'s late fee is up to "
    honest = [
        ("results_25", f"The {name}: $240 online + $72 gas + $336 other = **$648/yr**."),
        (
            "worked_25",
            f"With a $5,000 balance:\n- {name}: ${50 * float(card.bt_fee_pct or 0):,.0f} fee.",
        ),
        ("asides_25", f"{aside}${late:.0f}."),
    ]
    caught = [
        ("asides_25", f"{aside}${other_late:.0f}."),
        ("refs_25", f"{possessive}${other_late:.0f}."),
    ]
    return honest, caught, [f"The {name} has a ${fee + 50:.0f} annual fee."]


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v11_grades_with_ruleset_25(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v10 grades a text as ruleset 24 reads it and -v11 as ruleset 25 does:
    a sum worked out after '= **', the card's transfer fee worked out from a balance stated the
    line before and the card's late fee after an aside about another card - which -v10 fails -
    pass -v11; another card's late fee after that aside or after a possessive of the card's brand
    with no article - which -v10 passes - fails -v11; a wrong annual fee fails both."""
    fixed, caught = _bumped_readings(
        base, "v10", "v11", (V10_RULESET, V11_RULESET), _lines_v11, snapshot, catalog
    )
    # texts on which -v10 and -v11 disagree, both ways, reading by reading (computed, not assumed)
    assert {"results_25", "worked_25", "asides_25"} <= fixed, fixed
    assert {"asides_25", "refs_25"} <= caught, caught


def _lines_v12(
    card: Any, catalog: Catalog
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[str]]:
    """Lines about ``card``: true ones ruleset 25 misreads and ruleset 26 reads right, false ones
    only ruleset 26 catches (each with the ruleset-26 reading that is about it), and false ones
    both rulesets catch.

    ``other`` is the first catalog card with another brand and late fee. True: "Set up autopay so
    you never trip a late fee" after the card's terms (a late fee the reader avoids), which
    ruleset 25 reads as the card having no late fee; "**What it costs:** a $<fee> annual fee, so
    that $412.50 is all yours" and a ranked note's cell "est rew $412/yr | net $412/yr" (results
    that are the reader's), which ruleset 25 checks as the annual fee. False, caught only by
    ruleset 26: "#1 late fee up to $<other's>" in a note after a ranking of the card (#1) and
    ``other`` (#2) - ruleset 25 gives it to ``other``, named last, for which it is right. False,
    caught by both: the same "so that $412.50 is all yours" after an annual fee $50 too high.
    """
    name, fee = card.card_name, float(card.annual_fee_usd or 0)
    late = float(card.late_fee_usd or 0)
    other = next(
        c
        for c in catalog.cards
        if c.card_name.split()[0] != name.split()[0] and float(c.late_fee_usd or 0) != late
    )
    ranking = (
        f"#1 {name} | annual fee ${fee:.0f}\n"
        f"#2 {other.card_name} | annual fee ${float(other.annual_fee_usd or 0):.0f}\n"
    )
    honest = [
        ("fees_26", "Set up autopay so you never trip a late fee."),
        (
            "results_26",
            f"**What it costs:** a ${fee:.0f} annual fee, so that $412.50 is all yours.",
        ),
        ("results_26", f"#1 {name} | annual fee ${fee:.0f} | est rew $412/yr | net $412/yr"),
    ]
    caught = [
        ("ranks_26", f"{ranking}notes: #1 late fee up to ${float(other.late_fee_usd or 0):.0f}"),
    ]
    wrong = f"**What it costs:** a ${fee + 50:.0f} annual fee, so that $412.50 is all yours."
    return honest, caught, [wrong]


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v12_grades_with_ruleset_26(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v11 grades a text as ruleset 25 reads it and -v12 as ruleset 26 does:
    a late fee the reader avoids by autopay, "so that $412.50 is all yours" after the card's own
    annual fee and an "est rew" cell - which -v11 fails - pass -v12; another card's late fee in a
    note led by the card's rank "#1" - which -v11 passes - fails -v12; the same "is all yours"
    after a wrong annual fee fails both."""
    fixed, caught = _bumped_readings(
        base, "v11", "v12", (V11_RULESET, V12_RULESET), _lines_v12, snapshot, catalog, "wrong_fee"
    )
    # texts on which -v11 and -v12 disagree, both ways, reading by reading (computed, not assumed)
    assert {"fees_26", "results_26"} <= fixed, fixed
    assert {"ranks_26"} <= caught, caught


def _lines_v13(card: Any, catalog: Catalog, snapshot: Any) -> Lines:
    """Lines about ``card`` with figures: true ones ruleset 26 reads as a wrong fee and ruleset 27
    reads right (each with the ruleset-27 reading that is about it), and a false one both
    rulesets catch.

    True: for a card with no annual fee, "For <category>, keep it simple: a <rate>% card with no
    fee, like the <card>" for each of its reward rates (from ``raw.card_rewards``) that no
    catalog card has as a percentage fee and that is not within 15 % of one of the card's own (a
    reward rate of a kind of card, which ruleset 26 checks as the card's fee); and a sum worked
    out after "=" under a line saying what the card earns ("$216 + $90 + $30 + $150 = **$486 a
    year**", which ruleset 26 checks as the annual fee). False, caught by both: the same worked
    sum after an annual fee $50 too high.
    """
    name, fee = card.card_name, float(card.annual_fee_usd or 0)
    pct_fees = ("foreign_txn_fee_pct", "bt_fee_pct", "cash_advance_fee_pct")
    fee_shaped = {float(getattr(c, f) or 0) for c in catalog.cards for f in pct_fees}
    own = [float(getattr(card, f)) for f in pct_fees if getattr(card, f)]
    honest = [
        (
            "shapes_27",
            f"For {category}, keep it simple: a {pct:g}% card with no fee, like the {name}.",
        )
        for category, pct in _reward_rates(snapshot, card.card_id)
        if not fee and pct not in fee_shaped and all(abs(pct - f) > 0.15 * f for f in own)
    ]
    parts = (216, 90, 30, 150)
    worked = " + ".join(f"${p}" for p in parts) + f" = **${sum(parts)} a year**"
    honest.append(("worked_27", f"What the {name} earns you back each year:\n{worked}."))
    wrong = f"**What it costs:** a ${fee + 50:.0f} annual fee; your rewards: {worked}."
    return honest, [], [wrong]


def _names_v13(card: Any, catalog: Catalog) -> Lines:
    """True lines naming cards that ruleset 26 reads as an unknown card and ruleset 27 reads
    right: "the <tail>" of a card named in full just before, for the first catalog card whose
    second word is a catalog brand ("the Everyday Cash" after "Frontier Everyday Cash", read by
    ruleset 26 as an unknown card of that brand), with that card's late fee; and "an everyday
    rewards card", where "Everyday" is a catalog brand (a kind of card, not a product)."""
    brands = {c.card_name.split()[0] for c in catalog.cards}
    honest: list[tuple[str, str]] = []
    tailed = next(
        (c for c in catalog.cards if len(words := c.card_name.split()) > 2 and words[1] in brands),
        None,
    )
    if tailed is not None:
        tail = " ".join(tailed.card_name.split()[1:])
        honest.append(
            (
                "tails_27",
                f"I also looked at the {tailed.card_name}. The {tail} has a late fee of "
                f"${float(tailed.late_fee_usd or 0):.0f}.",
            )
        )
    if "Everyday" in brands:
        honest.append(
            (
                "generic_27",
                f"If you just want an everyday rewards card, the {card.card_name} works.",
            )
        )
    return honest, [], []


def _intro_v13(card: Any, snapshot: Any) -> Lines:
    """A true line ruleset 26 reads as an intro offer and ruleset 27 as a reward rate: for a card
    whose first year costs nothing, "<fee> annual fee, $0 the first year, <rate>% <category>"
    with the card's first reward rate (from ``raw.card_rewards``)."""
    rates = _reward_rates(snapshot, card.card_id)
    if card.annual_fee_first_year_usd != 0 or not rates:
        return [], [], []
    category, pct = rates[0]
    fee = float(card.annual_fee_usd or 0)
    line = f"The {card.card_name}: ${fee:.0f} annual fee, $0 the first year, {pct:g}% {category}."
    return [("rewards_27", line)], [], []


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v13_grades_with_ruleset_27(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v12 grades a text as ruleset 26 reads it and -v13 as ruleset 27 does:
    a reward rate no card has as a fee ("a 2% card with no fee, like the <card>") and a sum
    worked out after "=" under what the card earns - which -v12 fails with wrong_fee - the tail
    of a card named in full ("the Everyday Cash") and "an everyday rewards card" - which -v12
    fails with unknown_card - and a reward rate after "$0 the first year" - which -v12 reads as
    an intro offer - pass -v13; the worked sum after a wrong annual fee fails both.

    No false text -v12 passes and -v13 fails is asserted: none was found. Ruleset 27's readings
    only narrow ruleset 26's (they leave a figure unchecked or read an unknown name as a named
    card or a kind of card), and at dbec01e it gives no code ruleset 26 does not on the 2,981
    texts of ``benchmarks.compliance_eval.dump_verdicts``. (Its pairs reading had one, "The <card>
    has a lower purchase APR than the <other> (<other's range>)", until e48d42b dropped it.)"""
    rulesets = (V12_RULESET, V13_RULESET)

    def figures(card: Any, catalog: Catalog) -> Lines:
        return _lines_v13(card, catalog, snapshot)

    def intro(card: Any, catalog: Catalog) -> Lines:
        return _intro_v13(card, snapshot)

    fixed, _ = _bumped_readings(
        base, "v12", "v13", rulesets, figures, snapshot, catalog, "wrong_fee"
    )
    named, _ = _bumped_readings(
        base, "v12", "v13", rulesets, _names_v13, snapshot, catalog, "unknown_card"
    )
    rates, _ = _bumped_readings(base, "v12", "v13", rulesets, intro, snapshot, catalog)
    # true texts -v12 fails and -v13 passes, reading by reading (computed, not assumed)
    assert {"shapes_27", "worked_27"} <= fixed, fixed
    assert {"tails_27", "generic_27"} <= named, named
    assert {"rewards_27"} <= rates, rates


#: Lines for a recall ruleset: true ones as (reading, line) and false ones as (reading, code,
#: line), the reading being the new ruleset's flag the line is about (ruleset 28's for -v14, 29's
#: for -v15) and the code what it gives.
Recall = tuple[list[tuple[str, str]], list[tuple[str, str, str]]]


def _eligibility(snapshot: Any, customer_id: int) -> list[tuple[str, bool]]:
    """Every card's name and whether the customer is eligible for it, in card_id order."""
    ctx = GradeContext(snapshot=snapshot, sandbox_root=Path("."), project_dir=Path("."))
    try:
        rows = ctx.pristine_query(
            "select t.card_name, e.is_eligible from main.card_eligibility e join main.card_terms t "
            f"using (card_id) where e.customer_id = {customer_id} order by e.card_id"
        )
    finally:
        ctx.close()
    return [(str(name), bool(eligible)) for name, eligible in rows]


def _no_fee_cards(cards: list[tuple[str, bool]], catalog: Catalog, name: str) -> tuple[str, str]:
    """The first card with no annual fee other than ``name`` the customer is eligible for, and
    the first one they are not eligible for (``cards``: ``_eligibility``'s, in card_id order)."""
    no_fee = {c.card_name for c in catalog.cards if not c.annual_fee_usd} - {name}
    eligible = next(n for n, ok in cards if ok and n in no_fee)
    ineligible = next(n for n, ok in cards if not ok and n in no_fee)
    return eligible, ineligible


def _lines_v14(task: Task, catalog: Catalog, snapshot: Any) -> Recall:
    """Lines about the task's card and the catalog in the shapes of ruleset 28's six readings:
    false ones ruleset 27 lets pass and ruleset 28 catches, and true ones in the same shapes that
    both pass - every figure and name from the catalog (and, for a recommendation, the
    customer's eligibility).

    ``fee_phrases_28``: "The <card> is a cash back card with a <pct>% foreign transaction fee",
    true with the card's own foreign transaction fee (and its balance transfer fee), false with
    another foreign transaction fee some catalog card has (wrong_fee; "cash back" before the
    figure made ruleset 27 read it as a reward rate). ``year_one_28``: "The <card>: $<fee> annual
    fee, charged from the first year", true for the first card (the task's own if it qualifies)
    whose first-year fee is its annual fee, false for the first catalog card whose first year
    costs $0 while its annual fee does not (wrong_fee: the first-year fee). ``variability_28``:
    "The <card> has a purchase APR of <range> - and it's a <word> rate", true with the card's own
    fixed/variable word, false with the other one (wrong_apr). ``extended_28``: "I also looked at
    the <card> <word>", false with a tier-sounding word no catalog name has ("Prestige"; an
    unknown product, unknown_card), true with the card's name alone and with the first catalog
    name that is another catalog name plus one word (a card of its own, not an extension).
    ``picks_28``: "I'd look at the <card>", false for the first other catalog card with an annual
    fee the answer never states (missing_disclosure: a pick) and, for a recommendation, for the
    customer's first ineligible card with no annual fee (ineligible_card), true with that fee
    stated ("I'd look at the <card> ($<fee> annual fee)") and for the customer's first eligible
    card with no annual fee other than the one recommended. ``own_rates_28``: "Cash advances on
    the <card> are charged <rate>%", true with the card's cash advance APR, false with one of its
    purchase APRs that is not (wrong_apr; ruleset 27 passed any rate of the card there).
    """
    card = _subject(task, catalog)
    name = card.card_name
    fx, bt = float(card.foreign_txn_fee_pct or 0), float(card.bt_fee_pct or 0)
    other_fx = next(
        f
        for f in sorted({float(c.foreign_txn_fee_pct or 0) for c in catalog.cards}, reverse=True)
        if f != fx
    )
    honest = [
        (
            "fee_phrases_28",
            f"The {name} is a cash back card with a {fx:g}% foreign transaction fee.",
        ),
        ("fee_phrases_28", f"The {name} is a cash back card with a {bt:g}% balance transfer fee."),
    ]
    false = [
        (
            "fee_phrases_28",
            "wrong_fee",
            f"The {name} is a cash back card with a {other_fx:g}% foreign transaction fee.",
        )
    ]

    def year_one(c: Any) -> str:
        fee = float(c.annual_fee_usd)
        return f"The {c.card_name}: ${fee:.0f} annual fee, charged from the first year."

    charged = next(
        c
        for c in (card, *catalog.cards)
        if c.annual_fee_usd and c.annual_fee_first_year_usd == c.annual_fee_usd
    )
    free = next(c for c in catalog.cards if c.annual_fee_usd and c.annual_fee_first_year_usd == 0)
    honest.append(("year_one_28", year_one(charged)))
    false.append(("year_one_28", "wrong_fee", year_one(free)))

    if card.apr_is_variable is not None:
        low, high = float(card.purchase_apr_min_pct), float(card.purchase_apr_max_pct)
        rate = f"{low:g}%" if low == high else f"{low:g}%-{high:g}%"
        word, other = ("variable", "fixed") if card.apr_is_variable else ("fixed", "variable")
        said = f"The {name} has a purchase APR of {rate} - and it's a"
        honest.append(("variability_28", f"{said} {word} rate."))
        false.append(("variability_28", "wrong_apr", f"{said} {other} rate."))

    words = {w.lower() for c in catalog.cards for w in c.card_name.split()}
    invented = next(w for w in ("Prestige", "Obsidian", "Luxe") if w.lower() not in words)
    names = {c.card_name for c in catalog.cards}
    longer = next(
        c.card_name
        for c in catalog.cards
        if len(c.card_name.split()) > 2 and c.card_name.rsplit(" ", 1)[0] in names
    )
    honest += [
        ("extended_28", f"I also looked at the {name}."),
        ("extended_28", f"I also looked at the {longer}."),
    ]
    false.append(("extended_28", "unknown_card", f"I also looked at the {name} {invented}."))

    feed = next(c for c in catalog.cards if c.annual_fee_usd and c.card_name != name)
    picked = f"I'd look at the {feed.card_name}"
    honest.append(("picks_28", f"{picked} (${float(feed.annual_fee_usd):.0f} annual fee)."))
    false.append(("picks_28", "missing_disclosure", f"{picked}."))
    customer = task.metadata.get("customer_id")
    if customer is not None:
        eligible, ineligible = _no_fee_cards(_eligibility(snapshot, int(customer)), catalog, name)
        honest.append(("picks_28", f"I'd look at the {eligible}."))
        false.append(("picks_28", "ineligible_card", f"I'd look at the {ineligible}."))

    advance = card.cash_advance_apr_pct
    if advance is not None:
        rates = (card.purchase_apr_max_pct, card.purchase_apr_min_pct)
        other_rate = next((float(r) for r in rates if float(r) != float(advance)), None)
        charged_at = f"Cash advances on the {name} are charged"
        honest.append(("own_rates_28", f"{charged_at} {float(advance):g}%."))
        if other_rate is not None:
            false.append(("own_rates_28", "wrong_apr", f"{charged_at} {other_rate:g}%."))
    return honest, false


def _recalled_readings(
    base: str,
    old: str,
    new: str,
    rulesets: tuple[int, int],
    lines: Callable[[Task, Catalog], Recall],
    snapshot: Any,
    catalog: Catalog,
) -> tuple[set[str], set[str]]:
    """On the same four ``new`` tasks, each family grades a text as its ruleset reads it, for a
    ruleset that reads for recall: every false line passes ``old`` and fails ``new`` with its
    code - and fails the old ruleset with only its own reading's flag added - and every true
    line passes both. Returns the readings of the false lines and of the true lines."""
    old_rs, _ = rulesets
    caught: set[str] = set()
    kept: set[str] = set()
    for task, customer_id, oracle in _bumped_tasks(base, new, snapshot):
        honest, false = lines(task, catalog)
        checks = [(r, None, x) for r, x in honest] + [(r, c, x) for r, c, x in false]
        for (reading, code, line), before, after in _graded_lines(
            base, (old, new), rulesets, task, customer_id, oracle, checks, snapshot, catalog
        ):
            text = f"{oracle}\n{line}"
            assert before.passed, (task.id, line, before.codes)
            if code is None:
                assert after.passed, (task.id, line, after.codes)
                kept.add(reading)
                continue
            assert not after.passed and code in after.codes, (task.id, line, after.codes)
            alone = replace(RULESETS[old_rs], **{reading: True})
            found = verify_response(text, catalog, customer_id=customer_id, ruleset=alone)
            assert code in found.codes, (task.id, reading, line, found.codes)
            caught.add(reading)
    return caught, kept


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v14_grades_with_ruleset_28(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v13 grades a text as ruleset 27 reads it and -v14 as ruleset 28 does.
    Ruleset 28 reads for recall, so the texts go the other way from the earlier bumps: false
    claims -v13 passes fail -v14 - a foreign transaction fee after "a cash back card with a"
    that is not the card's (wrong_fee), "$<fee> annual fee, charged from the first year" for a
    card whose first year is free (wrong_fee), "- and it's a fixed rate" after a variable
    purchase APR or the reverse (wrong_apr), "the <card> Prestige" (unknown_card), "I'd look at
    the <card>" for a card whose annual fee the answer never states (missing_disclosure) or, for
    a recommendation, one the customer is not eligible for (ineligible_card), and "Cash advances
    on the <card> are charged <rate>%" with one of its purchase APRs (wrong_apr) - each one also
    under ruleset 27 with only its own reading's flag added; the same shapes with the true
    figures, words and names (and a stated fee, an eligible card) pass both.

    No true text -v13 passes and -v14 fails is asserted: none of these shapes gives one (the
    readings only bind a figure or a word to the claim it states, read a name that no catalog
    card has as unknown, or read a pick as a recommendation)."""

    def lines(task: Task, catalog: Catalog) -> Recall:
        return _lines_v14(task, catalog, snapshot)

    caught, kept = _recalled_readings(
        base, "v13", "v14", (V13_RULESET, V14_RULESET), lines, snapshot, catalog
    )
    readings = {
        "fee_phrases_28",
        "year_one_28",
        "variability_28",
        "extended_28",
        "picks_28",
        "own_rates_28",
    }
    # every reading has false texts -v13 passes and -v14 fails, and true twins both pass
    assert caught == readings, caught
    assert kept == readings, kept


def _lines_v15(task: Task, catalog: Catalog, snapshot: Any) -> Recall:
    """Lines in the shapes of ruleset 29's two readings for recall: false ones ruleset 28 lets
    pass and ruleset 29 catches, and true twins both pass - every name, fee, rate and month from
    the catalog (and, for a recommendation, the customer's eligibility: a card a line names is
    one the customer is eligible for unless the line is false for that reason).

    ``picks_29``: "> **The short answer:** the **<card>** ..., because it suits your spending"
    (a label whose bold closes after its colon, and a reason that says "your"): false for the
    first fee-bearing card other than the task's whose fee is not stated (missing_disclosure),
    true with "($<fee> annual fee)"; and, for a recommendation, false with "(no annual fee)" for
    the customer's first ineligible card with no annual fee (ineligible_card), true for their
    first eligible one. ``slash_29``: the intro purchase offer of the first card with a 0% one
    (the task's own if it has one), stated in full - "The <card> offers a 0% intro APR on
    purchases for <n> months, then <APR>." - and then the label "intro purchases: 0% / <m>mo",
    false with the first other number of months a catalog card's offer has (wrong_intro_terms),
    true with its own. The offer is stated in full first because ruleset 28 reads "0% / <m>mo"
    as an intro rate without its length: alone, a wrong <m> fails it already
    (missing_disclosure); after the full statement it passed.

    No line has a card alone on its line between emoji ("shortlist:" then "✨ <card>"): ruleset
    29 leaves that class out (``verifiers/compliance/ruleset29.py``), so such a line for an
    ineligible card passes both rulesets.
    """
    card = _subject(task, catalog)
    name = card.card_name
    customer = task.metadata.get("customer_id")
    cards = None if customer is None else _eligibility(snapshot, int(customer))
    names = [c.card_name for c in catalog.cards]
    offered = set(names) if cards is None else {n for n, ok in cards if ok}

    def short(pick: str, said: str) -> str:
        return f"> **The short answer:** the **{pick}**{said}, because it suits your spending."

    feed = next(
        c
        for c in catalog.cards
        if c.annual_fee_usd and c.card_name != name and c.card_name in offered
    )
    fee = f" (${float(feed.annual_fee_usd):.0f} annual fee)"
    honest = [("picks_29", short(feed.card_name, fee))]
    false = [("picks_29", "missing_disclosure", short(feed.card_name, ""))]
    if cards is not None:
        eligible, ineligible = _no_fee_cards(cards, catalog, name)
        honest.append(("picks_29", short(eligible, " (no annual fee)")))
        false.append(("picks_29", "ineligible_card", short(ineligible, " (no annual fee)")))

    intro = next(
        c
        for c in (card, *catalog.cards)
        if c.intro_purchase_months
        and float(c.intro_purchase_apr_pct) == 0
        and c.apr_is_variable is not None
        and c.card_name in offered
    )
    months = int(intro.intro_purchase_months)
    other = next(
        m
        for m in sorted({int(c.intro_purchase_months or 0) for c in catalog.cards})
        if m and m != months
    )
    low, high = float(intro.purchase_apr_min_pct), float(intro.purchase_apr_max_pct)
    rate = f"{low:g}%" if low == high else f"{low:g}%-{high:g}%"
    word = "variable" if intro.apr_is_variable else "fixed"
    stated = (
        f"The {intro.card_name} offers a 0% intro APR on purchases for {months} months, then "
        f"{rate} {word} APR.\nintro purchases: 0% /"
    )
    honest.append(("slash_29", f"{stated} {months}mo"))
    false.append(("slash_29", "wrong_intro_terms", f"{stated} {other}mo"))
    return honest, false


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v15_grades_with_ruleset_29(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v14 grades a text as ruleset 28 reads it and -v15 as ruleset 29 does.
    Ruleset 29 reads for recall, as ruleset 28 did (its readings for precision are
    tests/test_compliance_ruleset29.py's): false claims -v14 passes fail -v15 - a pick after
    "> **The short answer:**" (the bold closing after the colon) with a reason after it, for a
    card whose annual fee is not stated (missing_disclosure) or, for a recommendation, one the
    customer is not eligible for (ineligible_card), and "intro purchases: 0% / <m>mo" after the
    offer stated in full, with another number of months (wrong_intro_terms) - each one also
    under ruleset 28 with only its own reading's flag added; the same shapes with a stated fee,
    an eligible card and the card's own months pass both.

    No true text -v14 passes and -v15 fails is asserted: none of these shapes gives one (the
    readings only read a pick where ruleset 28 read none, and a duration where it read a rate
    alone)."""

    def lines(task: Task, catalog: Catalog) -> Recall:
        return _lines_v15(task, catalog, snapshot)

    caught, kept = _recalled_readings(
        base, "v14", "v15", (V14_RULESET, V15_RULESET), lines, snapshot, catalog
    )
    # every reading has false texts -v14 passes and -v15 fails, and true twins both pass
    assert caught == {"picks_29", "slash_29"}, caught
    assert kept == {"picks_29", "slash_29"}, kept


#: Lines for a precision ruleset: true ones and their false twins, each as (reading, code, line),
#: the reading being ruleset 30's flag the line is about and the code what ruleset 29 gives a true
#: line (and both rulesets give a false one).
Precision = tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]


def _lines_v16(task: Task, catalog: Catalog, snapshot: Any) -> Precision:
    """Lines in the shapes of ruleset 30's seven readings, all for precision: true ones ruleset 29
    flags and ruleset 30 passes, and false twins in the same shapes that both flag - every name,
    fee, rate and month from the catalog (and, for a recommendation, only cards the customer is
    eligible for but the held one: a table row naming an ineligible card is ineligible_card under
    both).

    ``except_30``: for the first card with an annual fee (the task's own if it has one), "The <n1>,
    the <n2> and the <card>: most of these have no annual fee, except the <card> at $<fee>." and "I
    compared the <n1>, the <n2> and the <card>. All of these have no annual fee apart from the
    <card> ($<fee>).", the <n> being the first catalog cards with no annual fee (wrong_fee under
    ruleset 29: the group's denial read as the card's); false: "The <card> has no annual fee.",
    "Most of these cards have no annual fee, except the <other>. The <card> has no annual fee
    either." (<other>: the next card with another annual fee) and "All of these except the <other>
    ($<fee'>) have no annual fee: the <n1>, the <n2> and the <card>." (a group listed after its
    denial's colon is left to ruleset 29's reading). The cards are named before the denial: after a
    sentence about another card ruleset 29 gives the denial to the card the answer is about, which
    mostly has no fee, and passes. ``totals_30``: "The <card> ($<fee> annual fee) and the <other>
    ($<fee'> annual fee) come to $<sum> in combined fees each year." (wrong_fee under ruleset 29:
    the sum read as <other>'s fee); false: the same with the card's fee $50 too high (and the sum
    with it), and "The <card>'s total annual fee is $<sum>." ``thousands_30``: "On the <card>
    ($<fee> annual fee), $10k a year of dining earns about $200." (wrong_fee under ruleset 29: $10
    read as its fee); false: "The <card>'s annual fee is $10."

    ``promos_30``: the intro purchase offer of the first card with a 0% one (the task's own if it
    has one), stated in full - "The <card> offers a 0% intro APR on purchases for <n> months, then
    <APR>." - and then talk about promotions in general: a hedge ("Cash advances may not share the
    promo rate."), an if-clause ("You'd pay interest if there's no promo.") and a "zero" that
    counts a balance ("Plan to be at zero before the promo ends.") - wrong_intro_terms under
    ruleset 29, read as the card having no intro offer; false: the same statement then "The <card>
    has no intro APR.", "The <card> has no promo, so you'd pay interest from day one." and "There's
    no promo on the <card>." (Cards in general and the time after an offer are no longer read:
    ruleset 30 dropped both at e1502e3.) ``cells_30``: for the first card (the task's own if it
    qualifies) whose intro purchase and transfer offers run for different numbers of months, the
    table row "| <card> | <p>% purchases, <pm> mo + <b>% transfers, <bm> mo | <APR> |"
    (wrong_intro_terms under ruleset 29, which gives the first rate no months and the second the
    first's); false: the transfers with the purchases' months. ``worked_30``: for the first card
    with a 0% intro transfer offer and a transfer fee other than its annual fee, "Moving $5,000 to
    the <card> (0% on transfers for <n> months, then <APR>, <annual fee>):" then "- fee: $<its
    transfer fee on $5,000>" and the monthly payment to clear it (wrong_fee under ruleset 29: the
    figure read as a fee of the card); false: the same lead then ": it has a $<that figure> annual
    fee." ``held_30`` (a recommendation): "You're carrying:" then "- <card>, $<fee> a year" for the
    first card the customer already holds (ineligible_card under ruleset 29: a listed card put
    forward); false: "Apply for the <card>, $<fee> a year.", and "You're carrying:" for a card
    closed to the customer for another reason (score, student-only, bankruptcy).
    """
    card = _subject(task, catalog)
    customer = task.metadata.get("customer_id")
    offered = (
        {c.card_name for c in catalog.cards}
        if customer is None
        else {n for n, ok in _eligibility(snapshot, int(customer)) if ok}
    )
    cards = [c for c in (card, *catalog.cards) if c.card_name in offered]

    def rate(c: Any) -> str:
        low, high = float(c.purchase_apr_min_pct), float(c.purchase_apr_max_pct)
        word = "variable" if c.apr_is_variable else "fixed"
        return f"{low:g}% {word}" if low == high else f"{low:g}%-{high:g}% {word}"

    feed = next(c for c in cards if c.annual_fee_usd)
    name, fee = feed.card_name, float(feed.annual_fee_usd)
    other = next(c for c in cards if c.annual_fee_usd and float(c.annual_fee_usd) != fee)
    other_fee = float(other.annual_fee_usd)
    no_fee = [c.card_name for c in catalog.cards if not c.annual_fee_usd and c.card_name in offered]
    n1, n2 = no_fee[:2]
    honest = [
        (
            "except_30",
            "wrong_fee",
            f"The {n1}, the {n2} and the {name}: most of these have no annual fee, except the "
            f"{name} at ${fee:.0f}.",
        ),
        (
            "except_30",
            "wrong_fee",
            f"I compared the {n1}, the {n2} and the {name}. All of these have no annual fee "
            f"apart from the {name} (${fee:.0f}).",
        ),
    ]
    false = [
        ("except_30", "wrong_fee", f"The {name} has no annual fee."),
        (
            "except_30",
            "wrong_fee",
            f"Most of these cards have no annual fee, except the {other.card_name}. The {name} "
            "has no annual fee either.",
        ),
        (
            "except_30",
            "wrong_fee",
            f"All of these except the {other.card_name} (${other_fee:.0f}) have no annual fee: "
            f"the {n1}, the {n2} and the {name}.",
        ),
    ]

    def combined(own: float) -> str:
        return (
            f"The {name} (${own:.0f} annual fee) and the {other.card_name} (${other_fee:.0f} "
            f"annual fee) come to ${own + other_fee:.0f} in combined fees each year."
        )

    honest.append(("totals_30", "wrong_fee", combined(fee)))
    false += [
        ("totals_30", "wrong_fee", combined(fee + 50)),
        ("totals_30", "wrong_fee", f"The {name}'s total annual fee is ${fee + other_fee:.0f}."),
    ]

    intro = next(
        c for c in cards if c.intro_purchase_months and float(c.intro_purchase_apr_pct) == 0
    )
    stated = (
        f"The {intro.card_name} offers a 0% intro APR on purchases for "
        f"{int(intro.intro_purchase_months)} months, then {rate(intro)} APR."
    )
    general = (
        "Cash advances may not share the promo rate.",
        "You'd pay interest if there's no promo.",
        "Plan to be at zero before the promo ends.",
    )
    honest += [("promos_30", "wrong_intro_terms", f"{stated} {line}") for line in general]
    false += [
        ("promos_30", "wrong_intro_terms", f"{stated} The {intro.card_name} has no intro APR."),
        (
            "promos_30",
            "wrong_intro_terms",
            f"The {intro.card_name} has no promo, so you'd pay interest from day one.",
        ),
        ("promos_30", "wrong_intro_terms", f"There's no promo on the {intro.card_name}."),
    ]

    both = next(
        c
        for c in cards
        if c.intro_purchase_months
        and c.intro_bt_months
        and int(c.intro_purchase_months) != int(c.intro_bt_months)
    )
    months, bt_months = int(both.intro_purchase_months), int(both.intro_bt_months)
    purchases = f"{float(both.intro_purchase_apr_pct):g}% purchases, {months} mo"
    transfers = f"{float(both.intro_bt_apr_pct):g}% transfers"
    table = "| Card | Intro offers | Regular APR |\n|---|---|---|\n"

    def row(bt: int) -> str:
        return f"{table}| {both.card_name} | {purchases} + {transfers}, {bt} mo | {rate(both)} |"

    honest.append(("cells_30", "wrong_intro_terms", row(bt_months)))
    false.append(("cells_30", "wrong_intro_terms", row(months)))

    honest.append(
        (
            "thousands_30",
            "wrong_fee",
            f"On the {name} (${fee:.0f} annual fee), $10k a year of dining earns about $200.",
        )
    )
    false.append(("thousands_30", "wrong_fee", f"The {name}'s annual fee is $10."))

    def transfer_fee(c: Any) -> float:
        return max(50 * float(c.bt_fee_pct or 0), float(c.bt_fee_min_usd or 0))

    moved = next(
        c
        for c in cards
        if c.bt_fee_pct
        and c.intro_bt_months
        and float(c.intro_bt_apr_pct) == 0
        and c.apr_is_variable is not None
        and transfer_fee(c) != float(c.annual_fee_usd or 0)
    )
    bt_fee, bt_months = transfer_fee(moved), int(moved.intro_bt_months)
    af = float(moved.annual_fee_usd or 0)
    moving = (
        f"Moving $5,000 to the {moved.card_name} ({float(moved.intro_bt_apr_pct):g}% on transfers "
        f"for {bt_months} months, then {rate(moved)}, "
        + (f"${af:.0f} annual fee)" if af else "no annual fee)")
    )
    monthly = (5000 + bt_fee) / bt_months
    worked = f"{moving}:\n- fee: ${bt_fee:.0f}\n- monthly to clear it: about ${monthly:.0f}"
    honest.append(("worked_30", "wrong_fee", worked))
    false.append(("worked_30", "wrong_fee", f"{moving}: it has a ${bt_fee:.0f} annual fee."))

    if customer is not None:
        rows = catalog.eligibility_of(customer)
        owned = [
            c
            for c in catalog.cards
            if rows[c.card_id].reason == "already_holds_card" and c.card_name != card.card_name
        ]
        closed = next(
            c
            for c in catalog.cards
            if not rows[c.card_id].eligible and rows[c.card_id].reason != "already_holds_card"
        )
        for held in owned[:1]:
            yearly = f"{held.card_name}, ${float(held.annual_fee_usd or 0):.0f} a year"
            honest.append(("held_30", "ineligible_card", f"You're carrying:\n- {yearly}"))
            false.append(("held_30", "ineligible_card", f"Apply for the {yearly}."))
        # a card closed to the customer is not made theirs by calling it theirs
        closed_yearly = f"{closed.card_name}, ${float(closed.annual_fee_usd or 0):.0f} a year"
        false.append(("held_30", "ineligible_card", f"You're carrying:\n- {closed_yearly}"))
    return honest, false


def _precise_readings(
    base: str,
    old: str,
    new: str,
    rulesets: tuple[int, int],
    lines: Callable[[Task, Catalog], Precision],
    snapshot: Any,
    catalog: Catalog,
) -> tuple[set[str], set[str]]:
    """On the same four ``new`` tasks, each family grades a text as its ruleset reads it, for a
    ruleset that reads for precision: every true line fails ``old`` with its code and passes
    ``new`` - and passes the old ruleset with only its own reading's flag added - and every false
    twin fails both with its code; on no line does ``new`` give a code ``old`` does not. Returns
    the readings of the true lines and of the false ones."""
    old_rs, _ = rulesets
    fixed: set[str] = set()
    kept: set[str] = set()
    for task, customer_id, oracle in _bumped_tasks(base, new, snapshot):
        honest, false = lines(task, catalog)
        checks = [(r, (True, c), x) for r, c, x in honest]
        checks += [(r, (False, c), x) for r, c, x in false]
        for (reading, (line_is_true, code), line), before, after in _graded_lines(
            base, (old, new), rulesets, task, customer_id, oracle, checks, snapshot, catalog
        ):
            assert not before.passed and code in before.codes, (task.id, line, before.codes)
            assert set(after.codes) <= set(before.codes), (task.id, line, after.codes)
            if not line_is_true:
                assert not after.passed and code in after.codes, (task.id, line, after.codes)
                kept.add(reading)
                continue
            assert after.passed, (task.id, line, after.codes)
            alone = replace(RULESETS[old_rs], **{reading: True})
            text = f"{oracle}\n{line}"
            found = verify_response(text, catalog, customer_id=customer_id, ruleset=alone)
            assert found.passed, (task.id, reading, line, found.codes)
            fixed.add(reading)
    return fixed, kept


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v16_grades_with_ruleset_30(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v15 grades a text as ruleset 29 reads it and -v16 as ruleset 30 does.
    Ruleset 30 reads for precision, as rulesets 24-27 did: true texts -v15 fails pass -v16 - a card
    with an annual fee excepted from a group's "no annual fee" (wrong_fee under -v15), two cards'
    fees "in combined fees" (wrong_fee), "$10k a year" (wrong_fee), a transfer fee worked out on
    $5,000 (wrong_fee), talk about promotions in general after a card's 0% offer - hedged, an
    if-clause, a "zero" that counts a balance (wrong_intro_terms) -, a table cell with two intro
    offers, each with its own kind and months (wrong_intro_terms), and, for a recommendation, a
    card the customer already holds listed as theirs (ineligible_card) - each one also
    under ruleset 29 with only its own reading's flag added; their false twins (the card itself
    said to have no annual fee or no promo, a group listed after its denial's colon, a wrong fee in
    the sum, a card's "total annual fee" that is the sum, an annual fee of $10, the worked figure
    as an annual fee, the transfers with the purchases' months, "Apply for the <card>", a card
    closed to the customer listed as theirs) fail both.

    No false text -v15 passes and -v16 fails is asserted: none of these shapes gives one, and on
    every line here -v16's codes are among -v15's (the readings leave a denial, a figure or a pick
    unchecked, or read an intro rate with its own kind and months, so a wrong number of months
    keeps its flag)."""

    def lines(task: Task, catalog: Catalog) -> Precision:
        return _lines_v16(task, catalog, snapshot)

    fixed, kept = _precise_readings(
        base, "v15", "v16", (V15_RULESET, V16_RULESET), lines, snapshot, catalog
    )
    readings = {"promos_30", "cells_30", "totals_30", "except_30", "thousands_30", "worked_30"}
    if base == "recommend_card":  # held_30 reads a customer's own cards
        readings.add("held_30")
    # every reading has true texts -v15 fails and -v16 passes, and false twins both fail
    assert fixed == readings, fixed
    assert kept == readings, kept


def _held(snapshot: Any, customer_id: int) -> list[str]:
    """The names of the cards the customer already holds, in card_id order."""
    ctx = GradeContext(snapshot=snapshot, sandbox_root=Path("."), project_dir=Path("."))
    try:
        rows = ctx.pristine_query(
            "select t.card_name from main.card_eligibility e join main.card_terms t "
            f"using (card_id) where e.customer_id = {customer_id} "
            "and e.reason = 'already_holds_card' order by e.card_id"
        )
    finally:
        ctx.close()
    return [str(name) for (name,) in rows]


def _apr(c: Any, shift: float = 0.0) -> str:
    """A card's purchase APR as an answer writes it ("19.49%-29.49% variable"), ``shift`` points
    higher at both ends."""
    low, high = float(c.purchase_apr_min_pct) + shift, float(c.purchase_apr_max_pct) + shift
    word = "variable" if c.apr_is_variable else "fixed"
    return f"{low:.2f}% {word}" if low == high else f"{low:.2f}%-{high:.2f}% {word}"


def _fx(c: Any) -> str:
    pct = float(c.foreign_txn_fee_pct or 0)
    return f"a {pct:g}% foreign transaction fee" if pct else "no foreign transaction fee"


def _v17_cards(
    task: Task, catalog: Catalog, snapshot: Any
) -> tuple[Any, list[Any], list[Any], list[Any]]:
    """The task's card; the cards a line may name (for a recommendation, those the customer is
    eligible for: any other would be ineligible_card under both rulesets), the task's card first;
    and, for a recommendation, the cards the customer already holds and the cards closed to them
    for another reason (score, student-only, ...)."""
    card = _subject(task, catalog)
    customer = task.metadata.get("customer_id")
    if customer is None:
        return card, [card, *(c for c in catalog.cards if c is not card)], [], []
    eligible = dict(_eligibility(snapshot, int(customer)))
    held = set(_held(snapshot, int(customer)))
    cards = [card, *(c for c in catalog.cards if eligible[c.card_name] and c is not card)]
    owned = [c for c in catalog.cards if c.card_name in held]
    closed = [c for c in catalog.cards if not eligible[c.card_name] and c.card_name not in held]
    return card, cards, owned, closed


def _short_named(card: Any, cards: list[Any], catalog: Catalog) -> tuple[Any, Any]:
    """Two cards to call by a short name after naming them in full beside ``card``: the first
    whose first word is no other card's and no word of ``card``'s name, and the first of three
    words or more (its initials) - each with an APR other than ``card``'s."""
    words = set(card.card_name.split())

    def first(c: Any) -> str:
        return str(c.card_name.split()[0])

    others = [c for c in cards[1:] if _apr(c) != _apr(card) and _apr(c, 1) != _apr(card)]
    by_word = next(
        c
        for c in others
        if first(c) not in words and sum(first(d) == first(c) for d in catalog.cards) == 1
    )
    by_initials = next(c for c in others if len(c.card_name.split()) >= 3)
    return by_word, by_initials


def _fee_pair(cards: list[Any]) -> tuple[Any, Any]:
    """The first card with an annual fee (the task's own if it has one) and the next one with
    another annual fee."""
    one = next(c for c in cards if c.annual_fee_usd)
    two = next(
        c
        for c in cards
        if c.annual_fee_usd and float(c.annual_fee_usd) != float(one.annual_fee_usd)
    )
    return one, two


def _lines_v17(task: Task, catalog: Catalog, snapshot: Any) -> Precision:
    """Lines in the shapes of ruleset 31's seven readings, all for precision: true ones ruleset 30
    flags and ruleset 31 passes, and false twins in the same shapes that both flag - every name,
    fee and rate from the catalog (and, for a recommendation, only cards the customer is
    eligible for, but the held and the retracted one).

    ``shortrefs_31``: "The <card> and the <B> both work. The <card> has <its foreign transaction
    fee>. <B's first word> is at <B's APR>." and "The <card> or the <C>? The <card> has <its
    foreign transaction fee>. <C's initials> is at <C's APR>." (wrong_apr under ruleset 30: the
    APR read as the card's, named in full last), <B> being the first card whose first word is no
    other card's and <C> the first of three words or more, each with an APR other than the card's;
    false: the same with B's (C's) APR a point higher at both ends, wrong for both cards.
    ``yearly_31``: "Against the <other>, the <card> wins by $<x>/yr." and "... comes out $<x>/yr
    ahead." (wrong_fee under ruleset 30: read as the card's annual fee), <x> the smallest whole
    amount from $19 that is no annual or first-year fee of the catalog (a value worked out, which
    no reading checks); false: "The <card> costs $<x> a year." and "The <card>: $<x>/yr."
    ``pairs_31``: "The <one> and the <two> both charge an annual fee, $<fee1> and $<fee2>."
    (wrong_fee under ruleset 30, which checks each figure against both cards), <one> the first card
    with an annual fee and <two> the next with another; false: the figures swapped, and the second
    $4 too high. ``generic_31``: "The <one> charges $<fee1> a year; for light spending a flat 2%
    no-fee card does fine." (wrong_fee under ruleset 30: "no-fee" read as <one>'s); false: "The
    <one> is a no-fee card." and "Get the <one>, a no-annual-fee card." ``needs_31``: "If $500 is
    too much, the <one> ($<fee1> annual fee) needs only $300 to start." (wrong_fee under ruleset
    30: $300 read as a fee of <one>); false: "The <one> requires a $300 annual fee."

    ``retracted_31`` (a recommendation): "A correction: in my last reply I suggested the <closed>.
    You pointed out that you don't qualify for it, and you're right.", <closed> the customer's
    first card closed to them for another reason than holding it (ineligible_card under ruleset
    30: the past suggestion read as a pick); false: "In my last reply I suggested the <closed>
    (<its fee>), and I still think it's the right card for you." and "I suggested the <closed>
    (<its fee>) last time. Sorry, one more thing: it has a $<its late fee> late fee." ``held_31``
    (a recommendation, where the customer holds a card): "Here's where your cards stand:" then "-
    **<held>** - <its fee>, worth keeping while you use it." and "The <held> is your best asset
    right now (<its fee>), so let it age." (ineligible_card under ruleset 30: a card they hold,
    named, is put forward); false: "Apply for the <held> - <its fee>." and "My pick for you: the
    <held>, <its fee>."
    """
    card, cards, owned, closed = _v17_cards(task, catalog, snapshot)
    name = card.card_name
    by_word, by_initials = _short_named(card, cards, catalog)
    word = by_word.card_name.split()[0]
    initials = "".join(w[0] for w in by_initials.card_name.split())
    both = f"The {name} and the {by_word.card_name} both work. The {name} has {_fx(card)}."
    which = f"The {name} or the {by_initials.card_name}? The {name} has {_fx(card)}."
    honest = [
        ("shortrefs_31", "wrong_apr", f"{both} {word} is at {_apr(by_word)}."),
        ("shortrefs_31", "wrong_apr", f"{which} {initials} is at {_apr(by_initials)}."),
    ]
    false = [
        ("shortrefs_31", "wrong_apr", f"{both} {word} is at {_apr(by_word, 1)}."),
        ("shortrefs_31", "wrong_apr", f"{which} {initials} is at {_apr(by_initials, 1)}."),
    ]

    fees = {
        round(float(f or 0))
        for c in catalog.cards
        for f in (c.annual_fee_usd, c.annual_fee_first_year_usd)
    }
    x = next(v for v in range(19, 1000) if v not in fees)
    other = cards[1].card_name
    honest += [
        ("yearly_31", "wrong_fee", f"Against the {other}, the {name} wins by ${x}/yr."),
        ("yearly_31", "wrong_fee", f"Against the {other}, the {name} comes out ${x}/yr ahead."),
    ]
    false += [
        ("yearly_31", "wrong_fee", f"The {name} costs ${x} a year."),
        ("yearly_31", "wrong_fee", f"The {name}: ${x}/yr."),
    ]

    one, two = _fee_pair(cards)
    fee1, fee2 = float(one.annual_fee_usd), float(two.annual_fee_usd)

    def pair(first: float, second: float) -> str:
        return (
            f"The {one.card_name} and the {two.card_name} both charge an annual fee, "
            f"${first:.0f} and ${second:.0f}."
        )

    honest.append(("pairs_31", "wrong_fee", pair(fee1, fee2)))
    false += [
        ("pairs_31", "wrong_fee", pair(fee2, fee1)),
        ("pairs_31", "wrong_fee", pair(fee1, fee2 + 4)),
    ]

    generic = "a flat 2% no-fee card does fine"
    honest += [
        (
            "generic_31",
            "wrong_fee",
            f"The {one.card_name} charges ${fee1:.0f} a year; for light spending {generic}.",
        ),
        (
            "needs_31",
            "wrong_fee",
            f"If $500 is too much, the {one.card_name} (${fee1:.0f} annual fee) needs only $300 to "
            "start.",
        ),
    ]
    false += [
        ("generic_31", "wrong_fee", f"The {one.card_name} is a no-fee card."),
        ("generic_31", "wrong_fee", f"Get the {one.card_name}, a no-annual-fee card."),
        ("needs_31", "wrong_fee", f"The {one.card_name} requires a $300 annual fee."),
    ]

    def yearly_fee(c: Any) -> str:
        fee = float(c.annual_fee_usd or 0)
        return f"${fee:.0f} a year" if fee else "no annual fee"

    if closed:
        shut = closed[0]
        honest.append(
            (
                "retracted_31",
                "ineligible_card",
                f"A correction: in my last reply I suggested the {shut.card_name}. You pointed out "
                "that you don't qualify for it, and you're right.",
            )
        )
        false += [
            (
                "retracted_31",
                "ineligible_card",
                f"In my last reply I suggested the {shut.card_name} ({yearly_fee(shut)}), and I "
                "still think it's the right card for you.",
            ),
            (
                "retracted_31",
                "ineligible_card",
                f"I suggested the {shut.card_name} ({yearly_fee(shut)}) last time. Sorry, one more "
                f"thing: it has a ${float(shut.late_fee_usd):.0f} late fee.",
            ),
        ]
    if owned:
        own = owned[0]
        yearly = yearly_fee(own)
        honest += [
            (
                "held_31",
                "ineligible_card",
                f"Here's where your cards stand:\n- **{own.card_name}** - {yearly}, worth keeping "
                "while you use it.",
            ),
            (
                "held_31",
                "ineligible_card",
                f"The {own.card_name} is your best asset right now ({yearly}), so let it age.",
            ),
        ]
        false += [
            ("held_31", "ineligible_card", f"Apply for the {own.card_name} - {yearly}."),
            ("held_31", "ineligible_card", f"My pick for you: the {own.card_name}, {yearly}."),
        ]
    return honest, false


def _stricter_v17(task: Task, catalog: Catalog, snapshot: Any) -> list[tuple[str, str, str]]:
    """False lines ruleset 30 passes and ruleset 31 flags, each as (reading, code, line): the
    short-named card's APR given as the card's own, "The <card> and the <B> both work. The <card>
    has <its foreign transaction fee>. <B's first word> is at <the card's APR>." (ruleset 30 read
    it as the card's, named in full last), and a pair of annual fees swapped, "The <one> and the
    <two> charge $<fee2> and $<fee1> a year." (ruleset 30 let either card's value pass)."""
    card, cards, _, _ = _v17_cards(task, catalog, snapshot)
    by_word, _ = _short_named(card, cards, catalog)
    both = (
        f"The {card.card_name} and the {by_word.card_name} both work. The {card.card_name} has "
        f"{_fx(card)}."
    )
    word = by_word.card_name.split()[0]
    one, two = _fee_pair(cards)
    fee1, fee2 = float(one.annual_fee_usd), float(two.annual_fee_usd)
    swapped = f"charge ${fee2:.0f} and ${fee1:.0f} a year"
    return [
        ("shortrefs_31", "wrong_apr", f"{both} {word} is at {_apr(card)}."),
        ("pairs_31", "wrong_fee", f"The {one.card_name} and the {two.card_name} {swapped}."),
    ]


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v17_grades_with_ruleset_31(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v16 grades a text as ruleset 30 reads it and -v17 as ruleset 31 does.
    Ruleset 31 reads for precision: true texts -v16 fails pass -v17 - a card named in full and
    then called by its first word or its initials, with its own APR (wrong_apr under -v16, which
    gives the APR to the card named in full last), a yearly value worked out, "wins by $<x>/yr" or
    "comes out $<x>/yr ahead" (wrong_fee), two cards' annual fees in order after "<one> and <two>
    both charge an annual fee" (wrong_fee), "a flat 2% no-fee card" said of cards in general
    (wrong_fee), "needs only $300 to start" (wrong_fee), and, for a recommendation, a past
    suggestion of a card closed to the customer that the answer corrects and a card the customer
    holds, reviewed (ineligible_card) - each one also under ruleset 30 with only its own reading's
    flag added; their false twins (an APR wrong for both cards after the short name, the worked
    value as the card's price, the fees swapped or one wrong, "The <one> is a no-fee card", "...
    requires a $300 annual fee", the past suggestion kept or not corrected, "Apply for the <held>",
    "My pick for you: the <held>") fail both, and on none of these lines does -v17 give a code -v16
    does not.

    Ruleset 31 is also stricter where it reads a figure with the card its words call: a false text
    -v16 passes and -v17 fails is asserted too - the card's own APR after another card's short
    name (wrong_apr), and two annual fees swapped in "<one> and <two> charge $<fee2> and $<fee1> a
    year" (wrong_fee)."""

    def lines(task: Task, catalog: Catalog) -> Precision:
        return _lines_v17(task, catalog, snapshot)

    fixed, kept = _precise_readings(
        base, "v16", "v17", (V16_RULESET, V17_RULESET), lines, snapshot, catalog
    )
    readings = {"shortrefs_31", "yearly_31", "pairs_31", "generic_31", "needs_31"}
    if base == "recommend_card":  # held_31 and retracted_31 read a recommendation's picks
        readings |= {"held_31", "retracted_31"}
    # every reading has true texts -v16 fails and -v17 passes, and false twins both fail
    assert fixed == readings, fixed
    assert kept == readings, kept

    stricter: set[str] = set()
    for task, customer_id, oracle in _bumped_tasks(base, "v17", snapshot):
        checks = [(r, c, x) for r, c, x in _stricter_v17(task, catalog, snapshot)]
        for (reading, code, line), before, after in _graded_lines(
            base,
            ("v16", "v17"),
            (V16_RULESET, V17_RULESET),
            task,
            customer_id,
            oracle,
            checks,
            snapshot,
            catalog,
        ):
            assert before.passed, (task.id, line, before.codes)
            assert not after.passed and code in after.codes, (task.id, line, after.codes)
            stricter.add(reading)
    assert stricter == {"shortrefs_31", "pairs_31"}, stricter


def _lines_v18(task: Task, catalog: Catalog, snapshot: Any) -> Precision:
    """Lines in the shapes of ruleset 32's four readings, all for precision: true ones ruleset 31
    flags and ruleset 32 passes, and false twins in the same shapes that both flag - every name,
    fee and rate from the catalog (and, for a recommendation, only cards the customer is eligible
    for, but the held one).

    ``kinds_32``: "The <card>: $960, no fee." (wrong_fee under ruleset 31: read as one of the
    card's fees, which the words leave open); false: "The <card> has a $960 annual fee." and "The
    <card>'s late fee is $960." ``names_32``: "The <card> is not the only secured card."
    (unknown_card under ruleset 31: "secured card" read as a card's name); false: "The <first
    word of the card's name> Obsidian Reserve is better.", a brand and premium words no name ends
    with. ``after_first_32``: "The <C>: $<its annual fee> after the first year.", <C> the first
    card (eligible, for a recommendation, where one is) whose first-year fee is not its annual fee
    (wrong_fee under ruleset 31: read as the first year's fee); false: the same $10 higher.

    ``held_32`` (a recommendation, where the customer holds a card): "I recommend your <held>
    (<its fee>) for dining." and "You already have the <held>, ... and the <last held>. My pick
    for groceries among them is the <held> (<its fee>)." (ineligible_card under ruleset 31: a
    card they hold, put forward by "recommend" and "pick"); false: "My pick for groceries: the
    <held> (<its fee>), so apply for it." and "I recommend you open the <held> (<its fee>) for
    dining."
    """
    card, cards, owned, _ = _v17_cards(task, catalog, snapshot)
    name = card.card_name

    def pct(c: Any) -> float:
        return float(c.foreign_txn_fee_pct or 0)

    def yearly_fee(c: Any) -> str:
        fee = float(c.annual_fee_usd or 0)
        return f"${fee:.0f} a year" if fee else "no annual fee"

    honest: list[tuple[str, str, str]] = []
    false: list[tuple[str, str, str]] = []
    honest.append(("kinds_32", "wrong_fee", f"The {name}: $960, no fee."))
    false += [
        ("kinds_32", "wrong_fee", f"The {name} has a $960 annual fee."),
        ("kinds_32", "wrong_fee", f"The {name}'s late fee is $960."),
    ]

    def split(c: Any) -> bool:
        return bool(c.annual_fee_usd) and float(c.annual_fee_first_year_usd or 0) != float(
            c.annual_fee_usd
        )

    later = next((c for c in cards if split(c)), None) or next(c for c in catalog.cards if split(c))
    fee = float(later.annual_fee_usd)
    honest.append(
        ("after_first_32", "wrong_fee", f"The {later.card_name}: ${fee:.0f} after the first year.")
    )
    false.append(
        (
            "after_first_32",
            "wrong_fee",
            f"The {later.card_name}: ${fee + 10:.0f} after the first year.",
        )
    )

    honest.append(("names_32", "unknown_card", f"The {name} is not the only secured card."))
    brand = name.split()[0]
    false.append(("names_32", "unknown_card", f"The {brand} Obsidian Reserve is better."))

    if owned:
        own = owned[0]
        yearly = yearly_fee(own)
        names = [f"the {c.card_name}" for c in owned]
        have = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
        honest += [
            (
                "held_32",
                "ineligible_card",
                f"I recommend your {own.card_name} ({yearly}) for dining.",
            ),
            (
                "held_32",
                "ineligible_card",
                f"You already have {have}. My pick for groceries among them is the "
                f"{own.card_name} ({yearly}).",
            ),
        ]
        false += [
            (
                "held_32",
                "ineligible_card",
                f"My pick for groceries: the {own.card_name} ({yearly}), so apply for it.",
            ),
            (
                "held_32",
                "ineligible_card",
                f"I recommend you open the {own.card_name} ({yearly}) for dining.",
            ),
        ]
    return honest, false


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v18_grades_with_ruleset_32(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v17 grades a text as ruleset 31 reads it and -v18 as ruleset 32 does.
    Ruleset 32 reads for precision: true texts -v17 fails pass -v18 - a fee figure whose words
    leave several fees open, "$960, no fee" (wrong_fee), "the only secured card" (unknown_card),
    "$<annual fee> after the first year" (wrong_fee), and, for a recommendation, a card the
    customer holds, made theirs by "your" or by an enumeration of their cards, and reviewed with
    "I recommend" or "my pick for groceries" (ineligible_card) - each one also under ruleset 31
    with only its own reading's flag added; their false twins (the figure as the card's annual or
    late fee, an invented "<brand> Obsidian Reserve", a wrong fee after the first year, the held
    card with words of getting it: "apply for it", "open") fail both, and on none of these lines
    does -v18 give a code -v17 does not.

    No false text -v17 passes and -v18 fails is asserted: the readings only leave a figure, a
    name or a held card unchecked."""

    def lines(task: Task, catalog: Catalog) -> Precision:
        return _lines_v18(task, catalog, snapshot)

    fixed, kept = _precise_readings(
        base, "v17", "v18", (V17_RULESET, V18_RULESET), lines, snapshot, catalog
    )
    readings = {
        "kinds_32",
        "names_32",
        "after_first_32",
    }
    if base == "recommend_card":  # held_32 reads a recommendation's picks
        readings.add("held_32")
    # every reading has true texts -v17 fails and -v18 passes, and false twins both fail
    assert fixed == readings, fixed
    assert kept == readings, kept


def _lines_v19(task: Task, catalog: Catalog, snapshot: Any) -> Precision:
    """Lines in the shapes of ruleset 33's reading (``worked_33``), for precision: true ones
    ruleset 32 flags and ruleset 33 passes, and false twins in the same shapes that both flag -
    every name and fee from the catalog (and, for a recommendation, only cards the customer is
    eligible for).

    A sum: "Between the <A> ($<A's annual fee>) and the <B> ($<B's>), that's $<the sum> a year in
    fees." and a difference: "The <B> costs $<B's fee - A's> more a year than the <A> ($<A's fee>
    vs $<B's fee>).", <A> and <B> the first two cards with different annual fees (wrong_fee under
    ruleset 32: the result read as a card's annual fee); false: the same $10 higher. A bonus named
    again: "The <card>: a $<bonus> bonus, plus $<bonus> in your first year.", the bonus a round
    figure none of the card's dollar terms is (wrong_fee under ruleset 32: read as the first
    year's fee); false: "The <card> comes with a $<bonus> bonus and its annual fee is $<bonus>."
    (a fee word governs it). And a figure said of the card as its fee: "The <card> has a $<its
    annual fee + 10> annual fee."

    Not here: a percentage fee worked out on a stated amount ("Moving $6,000 to the <card>: fee =
    $<its transfer fee on $6,000>", "A $500 cash advance on the <card>: fee = $<...>", "A $3,000
    trip on the <card>: $<its foreign fee> fee"): ruleset 32 already passes those shapes on these
    tasks (``worked_30`` and the fee checks read them), so they tell the two rulesets apart on none.
    """
    card, cards, _, _ = _v17_cards(task, catalog, snapshot)
    name = card.card_name

    def usd(x: float) -> str:
        return f"${x:,.0f}"

    honest: list[tuple[str, str, str]] = []
    false: list[tuple[str, str, str]] = []
    one, two = _fee_pair(cards)
    fee_a, fee_b = float(one.annual_fee_usd), float(two.annual_fee_usd)
    a, b = f"the {one.card_name} ({usd(fee_a)})", f"the {two.card_name} ({usd(fee_b)})"
    for total in (fee_a + fee_b, fee_a + fee_b + 10):
        line = f"Between {a} and {b}, that's {usd(total)} a year in fees."
        (honest if total == fee_a + fee_b else false).append(("worked_33", "wrong_fee", line))
    gap = abs(fee_b - fee_a)
    for more in (gap, gap + 10):
        line = (
            f"The {two.card_name} costs {usd(more)} more a year than the {one.card_name} "
            f"({usd(fee_a)} vs {usd(fee_b)})."
        )
        (honest if more == gap else false).append(("worked_33", "wrong_fee", line))

    terms = {float(getattr(card, f) or 0) for f in card.__dataclass_fields__ if f.endswith("_usd")}
    bonus = next(x for x in range(200, 1000, 50) if float(x) not in terms)
    honest.append(
        (
            "worked_33",
            "wrong_fee",
            f"The {name}: a {usd(bonus)} bonus, plus {usd(bonus)} in your first year.",
        )
    )
    false += [
        (
            "worked_33",
            "wrong_fee",
            f"The {name} comes with a {usd(bonus)} bonus and its annual fee is {usd(bonus)}.",
        ),
        (
            "worked_33",
            "wrong_fee",
            f"The {name} has a {usd(float(card.annual_fee_usd or 0) + 10)} annual fee.",
        ),
    ]
    return honest, false


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v19_grades_with_ruleset_33(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v18 grades a text as ruleset 32 reads it and -v19 as ruleset 33 does.
    Ruleset 33 reads for precision: true texts -v18 fails pass -v19 - a worked figure where a fee
    would sit, the sum of two cards' annual fees ("that's $<sum> a year in fees"), their
    difference ("costs $<difference> more a year") or a bonus added in ("plus $<bonus> in your
    first year")
    (wrong_fee) - each one also under ruleset 32 with only ``worked_33`` added; their false twins
    (the sum or difference $10 off, the bonus figure as the card's annual fee, the card's annual
    fee $10 off) fail both, and on none of these lines does -v19 give a code -v18 does not.

    No false text -v18 passes and -v19 fails is asserted: the reading only leaves a figure
    unchecked."""

    def lines(task: Task, catalog: Catalog) -> Precision:
        return _lines_v19(task, catalog, snapshot)

    fixed, kept = _precise_readings(
        base, "v18", "v19", (V18_RULESET, V19_RULESET), lines, snapshot, catalog
    )
    # the reading has true texts -v18 fails and -v19 passes, and false twins both fail
    assert fixed == {"worked_33"}, fixed
    assert kept == {"worked_33"}, kept


def _lines_v20(task: Task, catalog: Catalog, snapshot: Any) -> Recall:
    """Lines in the shapes of ruleset 34's two readings, for recall: false ones ruleset 33 lets
    pass and ruleset 34 catches, and true twins both pass - every name and fee from the catalog
    (and, for a recommendation, only cards the customer is eligible for, unless the line is false
    for that reason).

    ``first_year_34``, with <C> the first card whose first year costs its annual fee and <W> the
    first whose first year is waived (the task's own first where it qualifies): a waiver said of
    <C> - "The <C>: $<fee> annual fee ($0 year one).", "The <C> has a $<fee> annual fee. Its first
    year is also waived." and "The <C> charges $<fee> a year, but it waives the $<fee> for your
    first year." - is false (wrong_fee), the first two true of <W>; the first year priced at the
    annual fee - "The <W>'s first year is $<fee>." and "The <W>: $<fee> annual fee, first year
    costs $<fee>." - is false of <W> (wrong_fee) and true of <C>. ``acquire_34``: a first-person
    verb of getting a card before it - "I'd add the <card>.", "I'd go **<card>**.", "I'd move it
    to the <card>." - for the first card with an annual fee other than the task's, whose fee the
    line does not state, is false (missing_disclosure), true with "($<fee> annual fee)" after the
    card, and true without it when the sentence puts the step off ("Once your score is at 700,
    I'd add the <card>."); for a recommendation, "I'd add the <card>." for the first card with no
    annual fee the customer cannot get (not one they hold) is false (ineligible_card), true for
    the first one they can.

    Not among the true lines: "The <W> charges $<fee> a year, but it waives the $<fee> for your
    first year." - ruleset 33 reads the $<fee> as the first year's fee and flags it (wrong_fee),
    ruleset 34 reads it as the fee waived; ``test_v20_grades_with_ruleset_34`` asserts it apart.
    """
    card, cards, _, closed = _v17_cards(task, catalog, snapshot)
    charged = next(
        c for c in cards if c.annual_fee_usd and c.annual_fee_first_year_usd == c.annual_fee_usd
    )
    waived = next(c for c in cards if c.annual_fee_usd and c.annual_fee_first_year_usd == 0)

    def fee(c: Any) -> str:
        return f"${float(c.annual_fee_usd):,.0f}"

    def waivers(c: Any) -> list[str]:
        return [
            f"The {c.card_name}: {fee(c)} annual fee ($0 year one).",
            f"The {c.card_name} has a {fee(c)} annual fee. Its first year is also waived.",
        ]

    def priced(c: Any) -> list[str]:
        return [
            f"The {c.card_name}'s first year is {fee(c)}.",
            f"The {c.card_name}: {fee(c)} annual fee, first year costs {fee(c)}.",
        ]

    honest = [("first_year_34", x) for x in (*waivers(waived), *priced(charged))]
    false = [
        ("first_year_34", "wrong_fee", x)
        for x in (*waivers(charged), _waives_the_fee(charged), *priced(waived))
    ]

    feed = next(c for c in cards if c.annual_fee_usd and c is not card)
    for verb in ("I'd add the {}", "I'd go **{}**", "I'd move it to the {}"):
        said = verb.format(feed.card_name)
        honest.append(("acquire_34", f"{said} ({fee(feed)} annual fee)."))
        false.append(("acquire_34", "missing_disclosure", f"{said}."))
    honest.append(("acquire_34", f"Once your score is at 700, I'd add the {feed.card_name}."))
    if task.metadata.get("customer_id") is not None:
        closed_to = next(c for c in closed if not c.annual_fee_usd)
        open_to = next(c for c in cards[1:] if not c.annual_fee_usd)
        honest.append(("acquire_34", f"I'd add the {open_to.card_name}."))
        false.append(("acquire_34", "ineligible_card", f"I'd add the {closed_to.card_name}."))
    return honest, false


def _waives_the_fee(c: Any) -> str:
    """A waiver of the first year's fee that names the fee ("The <card> charges $<fee> a year, but
    it waives the $<fee> for your first year.")."""
    fee = f"${float(c.annual_fee_usd):,.0f}"
    return f"The {c.card_name} charges {fee} a year, but it waives the {fee} for your first year."


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v20_grades_with_ruleset_34(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v19 grades a text as ruleset 33 reads it and -v20 as ruleset 34 does.
    Ruleset 34 reads for recall, as ruleset 28 did: false claims -v19 passes fail -v20 - a
    first-year waiver said of a card that charges its fee in year one ("$<fee> annual fee ($0
    year one)", "Its first year is also waived", "but it waives the $<fee> for your first year")
    and "the first year is $<fee>" of a card that waives it (wrong_fee); "I'd add the <card>",
    "I'd go **<card>**" or "I'd move it to the <card>" for a card whose annual fee the answer
    never states (missing_disclosure) or, for a recommendation, one the customer cannot get
    (ineligible_card) - each one also under ruleset 33 with only its own reading's flag added;
    the same shapes with the true first year, a stated fee, an eligible card or a step put off
    ("Once your score is at 700, I'd add the <card>") pass both.

    One true text goes the other way: "The <card> charges $<fee> a year, but it waives the $<fee>
    for your first year." of a card that waives its first year fails -v19 (wrong_fee: ruleset 33
    reads the $<fee> as the first year's fee) and passes -v20 (the fee waived, no claim about the
    first year's price). No other true text -v19 passes and -v20 fails is asserted: none of these
    shapes gives one."""

    def lines(task: Task, catalog: Catalog) -> Recall:
        return _lines_v20(task, catalog, snapshot)

    caught, kept = _recalled_readings(
        base, "v19", "v20", (V19_RULESET, V20_RULESET), lines, snapshot, catalog
    )
    # both readings have false texts -v19 passes and -v20 fails, and true twins both pass
    assert caught == {"first_year_34", "acquire_34"}, caught
    assert kept == {"first_year_34", "acquire_34"}, kept

    for task, customer_id, oracle in _bumped_tasks(base, "v20", snapshot):
        _, cards, _, _ = _v17_cards(task, catalog, snapshot)
        waived = next(c for c in cards if c.annual_fee_usd and c.annual_fee_first_year_usd == 0)
        checks = [("first_year_34", True, _waives_the_fee(waived))]
        for (_, _, line), before, after in _graded_lines(
            base,
            ("v19", "v20"),
            (V19_RULESET, V20_RULESET),
            task,
            customer_id,
            oracle,
            checks,
            snapshot,
            catalog,
        ):
            assert not before.passed and "wrong_fee" in before.codes, (task.id, before.codes)
            assert after.passed, (task.id, line, after.codes)


def _lines_v21(task: Task, catalog: Catalog, snapshot: Any) -> Precision:
    """Lines in the shape of ruleset 35's reading for precision: a true one ruleset 34 flags and
    ruleset 35 passes, and false twins in the same shape that both flag - every name, rate and fee
    from the catalog (only the task's own card, which a recommendation's customer is eligible
    for).

    ``unnamed_35``: "Example with **$<N>,000**:\n\n**<card>** - <its transfer fee>% transfer
    fee\n- Fee: $<that fee on $<N>,000>\n- Interest: $0" (wrong_fee under ruleset 34: a fee no word
    names, read as any of the card's dollar fees; none of the catalog's dollar fees, and the card's
    percentage fee on the amount written before it), <N> the first balance from 8 up whose fee is
    none of them; false:
    the same with the highest catalog dollar fee that is none of the card's own, and with the fee
    on another amount than the one written (still claims).
    """
    card = _subject(task, catalog)
    name = card.card_name

    def usd(x: float) -> str:
        return f"${x:,.2f}" if x != int(x) else f"${x:,.0f}"

    def fees(c: Any, fields: Sequence[str]) -> set[float]:
        return {float(getattr(c, f)) for f in fields if getattr(c, f)}

    dollar = (
        "annual_fee_usd",
        "annual_fee_first_year_usd",
        "late_fee_usd",
        "min_interest_charge_usd",
        "bt_fee_min_usd",
        "cash_advance_fee_min_usd",
    )
    dollar_fees = set().union(*(fees(c, dollar) for c in catalog.cards))

    def transfer_fee(thousands: int) -> float:
        return max(thousands * 1000 * float(card.bt_fee_pct) / 100, float(card.bt_fee_min_usd))

    balance = next(k for k in range(8, 20) if transfer_fee(k) not in dollar_fees)

    def line(fee: float) -> str:
        return (
            f"Example with **${balance},000**:\n\n**{name}** - {float(card.bt_fee_pct):g}% "
            f"transfer fee\n- Fee: {usd(fee)}\n- Interest: $0"
        )

    honest = [("unnamed_35", "wrong_fee", line(transfer_fee(balance)))]
    wrong = max(dollar_fees - fees(card, dollar))
    off = next(
        transfer_fee(k) + 1
        for k in range(balance + 1, 40)
        if transfer_fee(k) + 1 not in dollar_fees
    )
    false = [
        ("unnamed_35", "wrong_fee", line(wrong)),
        ("unnamed_35", "wrong_fee", line(off)),
    ]
    return honest, false


@pytest.mark.parametrize("base", ["card_terms_qa", "recommend_card"])
def test_v21_grades_with_ruleset_35(base: str, snapshot: Any, catalog: Catalog) -> None:
    """On the same task, -v20 grades a text as ruleset 34 reads it and -v21 as ruleset 35 does.
    Ruleset 35 reads for precision, as ruleset 33 did: a true text -v20 fails passes -v21 - the
    card's balance-transfer fee on the amount written just before it ("Example with $<N>,000: ...
    Fee: $<fee>", no word names the fee), no fee in the catalog (wrong_fee) - also under
    ruleset 34 with only its reading's flag added; its false twins (another card's dollar fee, a
    fee no amount before it works out to) fail both, and on none of these lines does -v21 give a
    code -v20 does not.

    No false text -v20 passes and -v21 fails is asserted: the reading only leaves a figure
    unchecked."""

    def lines(task: Task, catalog: Catalog) -> Precision:
        return _lines_v21(task, catalog, snapshot)

    fixed, kept = _precise_readings(
        base, "v20", "v21", (V20_RULESET, V21_RULESET), lines, snapshot, catalog
    )
    # the reading has a true text -v20 fails and -v21 passes, and false twins both fail
    assert fixed == {"unnamed_35"}, fixed
    assert kept == {"unnamed_35"}, kept


def test_v2_tasks_keep_ruleset_3(snapshot: Any, catalog: Catalog) -> None:
    """A published -v2 task: a false "no AF" (caught only by later rulesets) still passes."""
    for base in ("card_terms_qa", "recommend_card"):
        family = f"credit_cards.{base}-v2"
        for variant in range(4):
            task = _task(base, "v2", variant)
            oracle = task.oracle[-1].arguments["answer"]
            card = _subject(task, catalog)
            if card.annual_fee_usd:
                break
        else:
            pytest.fail(f"no {family} task of seed {SEED} is about a fee-bearing card")
        customer = task.metadata.get("customer_id")
        text = f"{oracle}\nThe {card.card_name} has no AF."
        old, _ = _disagreement(text, catalog, None if customer is None else int(customer))
        verdict = _grade(family, task, text, snapshot)
        assert old.passed and verdict.passed, (task.id, verdict.codes)


# --------------------------------------------------------------------------------------------
# builds check with the family's ruleset


@pytest.mark.parametrize("base", BUMPED)
def test_build_runs_the_verifier_with_the_family_ruleset(
    base: str, snapshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = MODULES[base]
    real = module.verify_response
    seen: list[Any] = []

    def spy(*args: Any, **kwargs: Any) -> Verdict:
        seen.append(kwargs.get("ruleset"))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "verify_response", spy)
    for version, ruleset in (
        ("v2", FROZEN_RULESET),
        ("v3", V3_RULESET),
        ("v4", V4_RULESET),
        ("v5", V5_RULESET),
        ("v6", V6_RULESET),
        ("v7", V7_RULESET),
        ("v8", V8_RULESET),
        ("v9", V9_RULESET),
        ("v10", V10_RULESET),
        ("v11", V11_RULESET),
        ("v12", V12_RULESET),
        ("v13", V13_RULESET),
        ("v14", V14_RULESET),
        ("v15", V15_RULESET),
        ("v16", V16_RULESET),
        ("v17", V17_RULESET),
        ("v18", V18_RULESET),
        ("v19", V19_RULESET),
        ("v20", V20_RULESET),
        ("v21", V21_RULESET),
    ):
        seen.clear()
        task = get_family(f"credit_cards.{base}-{version}").build(snapshot, SEED, 0)
        assert seen and set(seen) == {ruleset}, (task.id, set(seen))
        if version != "v2":  # the cached task (what the suite serves) is this build
            assert task.to_dict() == _task(base, version).to_dict()


def test_card_terms_v3_skips_answers_a_project_file_shows(snapshot: Any) -> None:
    """A card whose asked value can be read off a project file (the audit could not tell it from
    a leak) is not asked by -v3; -v2 keeps asking it (its published tasks do not change)."""
    v2 = get_family("credit_cards.card_terms_qa-v2")
    v3 = get_family("credit_cards.card_terms_qa-v3")
    assert isinstance(v2, card_terms_qa.CardTermsQA) and isinstance(v3, card_terms_qa.CardTermsQA)
    ctx = BuildContext(v3, snapshot, SEED, 0)
    cards = load_cards(ctx)
    checked = 0
    for term in card_terms_qa.TERMS.values():
        for card in cards:
            value = card_terms_qa.canonical(term, card[term.column])
            shown = shown_in_project(snapshot, "text", value, card_terms_qa.value_config(term))
            if shown and v2._askable(ctx, card, term):
                assert not v3._askable(ctx, card, term), (term.column, value)
                checked += 1
    assert checked >= 3  # seed 1: 29.99% penalty and cash-advance APRs, among others


# --------------------------------------------------------------------------------------------
# the -v3 tasks themselves


def _episode(task: Task, snapshot: Any, calls: list[dict[str, Any]]) -> float:
    env = Env.from_task(task, snapshot=snapshot)
    try:
        env.reset()
        reward = 0.0
        for call in calls:
            _, reward, terminated, _, _ = env.step(call)
            if terminated:
                break
        return float(reward)
    finally:
        env.close()


@pytest.mark.parametrize(
    "version",
    [
        "v3",
        "v4",
        "v5",
        "v6",
        "v7",
        "v8",
        "v9",
        "v10",
        "v11",
        "v12",
        "v13",
        "v14",
        "v15",
        "v16",
        "v17",
        "v18",
        "v19",
        "v20",
        "v21",
    ],
)
@pytest.mark.parametrize("base", BUMPED)
def test_v3_to_v21_oracle_scores_one_null_zero_and_wrong_readings_fail(
    base: str, version: str, snapshot: Any, catalog: Catalog
) -> None:
    task = _task(base, version)
    family = task.family
    assert _episode(task, snapshot, [c.to_action() for c in task.oracle]) == 1.0
    empty = {"name": "submit", "arguments": {"answer": ""}}
    assert _episode(task, snapshot, [empty]) == 0.0
    assert task.wrong_readings
    oracle = task.oracle[-1].arguments["answer"]
    for reading, value in task.wrong_readings.items():
        if base == "card_terms_qa":  # the oracle's explanation under a wrong answer line
            answer = "\n".join([f"Answer: {value}", *oracle.splitlines()[1:]])
        elif base == "recommend_card":  # the oracle's text about the wrong card
            answer = oracle.replace(str(task.expected), str(value))
        else:
            answer = json.dumps(value)
        assert not _grade(family, task, answer, snapshot).passed, (task.id, reading)
    if base == "offer_audit":  # the expected codes are what the family's ruleset finds
        draft = re.search(
            r"-----BEGIN DRAFT-----\n(.*)\n-----END DRAFT-----", task.instruction, re.S
        )
        assert draft is not None
        ruleset = {
            "v3": V3_RULESET,
            "v4": V4_RULESET,
            "v5": V5_RULESET,
            "v6": V6_RULESET,
            "v7": V7_RULESET,
            "v8": V8_RULESET,
            "v9": V9_RULESET,
            "v10": V10_RULESET,
            "v11": V11_RULESET,
            "v12": V12_RULESET,
            "v13": V13_RULESET,
            "v14": V14_RULESET,
            "v15": V15_RULESET,
            "v16": V16_RULESET,
            "v17": V17_RULESET,
            "v18": V18_RULESET,
            "v19": V19_RULESET,
            "v20": V20_RULESET,
            "v21": V21_RULESET,
        }[version]
        found = verify_response(draft.group(1), catalog, ruleset=ruleset).codes
        assert sorted(set(found)) == sorted(task.expected)
