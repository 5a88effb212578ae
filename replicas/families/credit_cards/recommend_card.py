"""``credit_cards.recommend_card-v1``: recommend the best card for a customer and explain why.

``-v2`` (core-v2): the ``card_value`` and ``card_eligibility`` marts (and ``best_card``, built
on them) are withheld from the episode's warehouse — in v1 the answer was one select over
``best_card`` — so the stated formula and rule must be applied to the spend, card, reward and
holding tables; the oracle does exactly that, and the value tolerance is the task's
``VerifierConfig`` (±$1), stated in the grader's words.

``-v3`` (core-v3): ``-v2`` with check 2 below run under compliance ruleset 10 (the verifier's
current detections) instead of the frozen ruleset 3; see ``RecommendCardV3``.

``-v4`` (core-v5): ``-v3`` with check 2 under compliance ruleset 16; see ``RecommendCardV4``.
``-v5`` (core-v6): ``-v4`` with check 2 under compliance ruleset 17; see ``RecommendCardV5``.
``-v6`` (core-v7): ``-v5`` with check 2 under compliance ruleset 19; see ``RecommendCardV6``.
``-v7`` (core-v8): ``-v6`` with check 2 under compliance ruleset 20; see ``RecommendCardV7``.
``-v8`` (core-v9): ``-v7`` with check 2 under compliance ruleset 21; see ``RecommendCardV8`` in
``replicas.families.credit_cards.v8_families``.
``-v9`` (core-v10): ``-v8`` with check 2 under compliance ruleset 23; see ``RecommendCardV9`` in
``replicas.families.credit_cards.v9_families``.
``-v10`` (core-v11): ``-v9`` with check 2 under compliance ruleset 24; see ``RecommendCardV10``
in ``replicas.families.credit_cards.v10_families``.
``-v11`` (core-v12): ``-v10`` with check 2 under compliance ruleset 25; see ``RecommendCardV11``
in ``replicas.families.credit_cards.v11_families``.
``-v12`` (core-v13): ``-v11`` with check 2 under compliance ruleset 26; see ``RecommendCardV12``
in ``replicas.families.credit_cards.v12_families``.
``-v13`` (core-v14): ``-v12`` with check 2 under compliance ruleset 27; see ``RecommendCardV13``
in ``replicas.families.credit_cards.v13_families``.
``-v14`` (core-v15): ``-v13`` with check 2 under compliance ruleset 28; see ``RecommendCardV14``
in ``replicas.families.credit_cards.v14_families``.
``-v15`` (core-v16): ``-v14`` with check 2 under compliance ruleset 29; see ``RecommendCardV15``
in ``replicas.families.credit_cards.v15_families``.
``-v16`` (core-v17): ``-v15`` with check 2 under compliance ruleset 30; see ``RecommendCardV16``
in ``replicas.families.credit_cards.v16_families``.
``-v17`` (core-v18): ``-v16`` with check 2 under compliance ruleset 31; see ``RecommendCardV17``
in ``replicas.families.credit_cards.v17_families``.
``-v18`` (core-v19): ``-v17`` with check 2 under compliance ruleset 32; see ``RecommendCardV18``
in ``replicas.families.credit_cards.v18_families``.
``-v19`` (core-v20): ``-v18`` with check 2 under compliance ruleset 33; see ``RecommendCardV19``
in ``replicas.families.credit_cards.v19_families``.
``-v20`` (core-v21): ``-v19`` with check 2 under compliance ruleset 34; see ``RecommendCardV20``
in ``replicas.families.credit_cards.v20_families``.
``-v21`` (core-v22): ``-v20`` with check 2 under compliance ruleset 35; see ``RecommendCardV21``
in ``replicas.families.credit_cards.v21_families``.

The answer is free text whose FIRST line is ``Recommendation: <exact card name>``. Grading:

1. the named card is the best card — the eligible card with the highest ongoing annual value
   (the ``best_card`` mart's definition, restated in the instruction) — or an eligible card whose
   ongoing value is within ``VALUE_TOLERANCE_USD`` of it;
2. the compliance verifier passes on the whole text with the customer's id (no wrong APR, fee or
   intro offer, no misspelled card, no ineligible card presented as suitable, intro offers
   disclosed with their months and the APR after them);
3. the recommended card's annual fee is stated when it has one;
4. an explanation (at least one sentence) follows the first line.

The values are recomputed at build AND at grading time from the RAW tables (spend, cards,
rewards, holdings, customers) with the formula the instruction states, and the ``best_card``
mart must agree (a build error otherwise): a family that silently disagreed with its replica's
mart would grade agents against a definition nobody can see.

Wrong readings (recorded; each must name a card outside the accepted set): ranking by
first-year value, ignoring eligibility, ignoring the annual fee, and the best card's
near-collision sibling.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from replicas.families.credit_cards.common import (
    AS_OF,
    ELIGIBLE_PREDICATE,
    RECENT_BANKRUPTCY_MONTHS,
    RULES_SQL,
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
    round_robin,
    second_answer,
    text_precheck,
    variant_slice,
)
from replicas.tasks import (
    BuildContext,
    Task,
    TaskBuildError,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)
from replicas.verifiers.compliance import verify_response
from replicas.verifiers.verdict import Verdict

#: The compliance ruleset this family's published tasks are graded with (ruleset 3 is frozen;
#: later rulesets detect more and would change published grades - a new family version opts in).
COMPLIANCE_RULESET = 3

if TYPE_CHECKING:
    from replicas.tasks import GradeContext

VALUE_TOLERANCE_USD = 1.0
ANSWER_LABEL = "Recommendation"
SPEND_MONTHS = 24

#: Per (customer, card): annual rewards, ongoing and first-year value, and eligibility — the
#: formula of the card_value / best_card marts, computed from raw tables.
VALUE_SQL = f"""
with spend as (
    select
        customer_id,
        category,
        sum(amount_usd::decimal(38, 10))::double / {SPEND_MONTHS}.0 * 12 as annual_spend
    from raw.card_spend
    where {{customer_filter}}
    group by customer_id, category
),
earned as (
    select
        s.customer_id,
        c.card_id,
        -- exact decimal sums (a parallel double sum's order can flip a rounded cent)
        sum(s.annual_spend::decimal(38, 10))::double as annual_spend,
        sum(
            (
                case
                    when r.annual_cap_usd is null
                        then s.annual_spend * coalesce(r.rate, c.base_reward_rate)
                    else least(s.annual_spend, r.annual_cap_usd) * r.rate
                        + greatest(s.annual_spend - r.annual_cap_usd, 0) * c.base_reward_rate
                end * c.point_value_usd
            )::decimal(38, 10)
        )::double as rewards
    from spend s
    cross join raw.cards c
    left join raw.card_rewards r on r.card_id = c.card_id and r.category = s.category
    group by s.customer_id, c.card_id
),
rules as ({RULES_SQL})
select
    e.customer_id,
    e.card_id,
    round(e.rewards, 2) as rewards,
    round(e.rewards - c.annual_fee_usd, 2) as ongoing,
    round(
        e.rewards - c.annual_fee_first_year_usd
        + case when c.signup_bonus_usd is not null
            and e.annual_spend / 12 * c.signup_months >= c.signup_spend_usd
            then c.signup_bonus_usd else 0 end,
        2
    ) as first_year,
    {ELIGIBLE_PREDICATE} as eligible
from earned e
join raw.cards c on c.card_id = e.card_id
join rules on rules.customer_id = e.customer_id and rules.card_id = e.card_id
order by e.customer_id, e.card_id
"""


@dataclass(frozen=True)
class CardName:
    """What grading needs to know about a card besides its value: its name and annual fee."""

    name: str
    annual_fee_usd: float


@dataclass(frozen=True)
class CardValue:
    card_id: str
    rewards: float
    ongoing: float
    first_year: float
    eligible: bool


def customer_values(query: Any, customer_id: int | None = None) -> dict[int, list[CardValue]]:
    """customer_id -> values of every card, from a ``query(sql) -> rows`` callable."""
    where = "true" if customer_id is None else f"customer_id = {int(customer_id)}"
    rows = query(VALUE_SQL.replace("{customer_filter}", where))
    out: dict[int, list[CardValue]] = {}
    for cid, card_id, rewards, ongoing, first_year, eligible in rows:
        out.setdefault(int(cid), []).append(
            CardValue(
                str(card_id), float(rewards), float(ongoing), float(first_year), bool(eligible)
            )
        )
    return out


def _top(values: Sequence[CardValue], key: str) -> CardValue | None:
    """The card with the highest ``key`` (ties: smallest card_id), or None."""
    if not values:
        return None
    return min(values, key=lambda v: (-getattr(v, key), v.card_id))


def accepted_cards(
    values: Sequence[CardValue], tolerance: float = VALUE_TOLERANCE_USD
) -> tuple[CardValue | None, set[str]]:
    """The best eligible card and every eligible card within the value tolerance of it."""
    eligible = [v for v in values if v.eligible]
    best = _top(eligible, "ongoing")
    if best is None:
        return None, set()
    floor = best.ongoing - tolerance - 1e-9
    return best, {v.card_id for v in eligible if v.ongoing >= floor}


def wrong_picks(values: Sequence[CardValue], sibling_of_best: str) -> dict[str, str]:
    """reading -> card_id the misreading recommends (only those outside the accepted set)."""
    eligible = [v for v in values if v.eligible]
    best, accepted = accepted_cards(values)
    if best is None:
        return {}
    picks = {
        "first_year_value_ranking": _top(eligible, "first_year"),
        "eligibility_ignored": _top(list(values), "ongoing"),
        "annual_fee_ignored": _top(eligible, "rewards"),
    }
    out = {
        name: v.card_id for name, v in picks.items() if v is not None and v.card_id not in accepted
    }
    if sibling_of_best not in accepted:
        out["near_collision_sibling"] = sibling_of_best
    return out


@register_family
class RecommendCard(TaskFamily):
    name = "credit_cards.recommend_card-v1"
    replica = "credit_cards"
    description = (
        "Recommend the best eligible card for a customer by ongoing annual value and explain "
        "why, with compliant, grounded claims and the required disclosures."
    )
    difficulty = "hard"
    n_variants = 6
    #: the ruleset check 2 grades with, also when the build checks that the oracle passes
    compliance_ruleset: ClassVar[int] = COMPLIANCE_RULESET

    def make(self, ctx: BuildContext) -> Task:
        cards = load_cards(ctx)
        by_id = {c["card_id"]: c for c in cards}
        siblings = nearest_siblings(cards)
        values = customer_values(ctx.query)
        candidates: list[tuple[int, CardValue, dict[str, str]]] = []
        for customer_id, card_values in sorted(values.items()):
            best, _ = accepted_cards(card_values)
            if best is None:
                continue
            wrong = wrong_picks(card_values, siblings[best.card_id][0])
            core = {"first_year_value_ranking", "eligibility_ignored", "annual_fee_ignored"}
            if len(core & set(wrong)) >= 2 and "near_collision_sibling" in wrong:
                candidates.append((customer_id, best, wrong))
        if not candidates:
            raise TaskBuildError(f"{self.name}: no customer discriminates the wrong readings")

        # The variants of a seed take disjoint customers, spread over different best cards;
        # every third position goes to a card with an annual fee (so the fee disclosure has
        # something to check). A customer whose oracle text would not pass is skipped.
        def best_card_of(candidate: tuple[int, CardValue, dict[str, str]]) -> str:
            return candidate[1].card_id

        def has_fee(candidate: tuple[int, CardValue, dict[str, str]]) -> bool:
            return float(by_id[candidate[1].card_id]["annual_fee_usd"]) > 0

        fee = round_robin(ctx, [c for c in candidates if has_fee(c)], best_card_of, "fee")
        free = round_robin(ctx, [c for c in candidates if not has_fee(c)], best_card_of, "free")
        ordered: list[tuple[int, CardValue, dict[str, str]]] = []
        while fee or free:
            take_fee = bool(fee) and (len(ordered) % 3 == 0 or not free)
            ordered.append((fee if take_fee else free).pop(0))
        catalog = catalog_for(ctx.snapshot)
        fees = {
            cid: CardName(c["card_name"], float(c["annual_fee_usd"])) for cid, c in by_id.items()
        }
        chosen = None
        for customer_id, best, wrong in variant_slice(ctx, ordered):
            text = oracle_text(by_id[best.card_id], best)
            verdict = grade_recommendation(
                text,
                customer_id,
                values[customer_id],
                fees,
                catalog,
                ruleset=self.compliance_ruleset,
            )
            if verdict.passed:
                chosen = (customer_id, best, wrong)
                break
        if chosen is None:
            raise TaskBuildError(f"{self.name}: no oracle text passes the graders")
        customer_id, best, wrong = chosen
        card = by_id[best.card_id]
        _check_against_mart(ctx, customer_id, values[customer_id])
        return ctx.task(
            instruction=_instruction(customer_id),
            answer_kind="text",
            expected=card["card_name"],
            oracle=(
                sql(
                    "select b.card_id, b.card_name, b.ongoing_value_usd, t.* "
                    "from best_card b join card_terms t on t.card_id = b.card_id "
                    f"where b.customer_id = {customer_id}"
                ),
                submit(oracle_text(card, best)),
            ),
            wrong_readings={name: by_id[cid]["card_name"] for name, cid in wrong.items()},
            metadata={"customer_id": customer_id},
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        customer_id = int(task.metadata["customer_id"])
        values = customer_values(ctx.pristine_query, customer_id).get(customer_id, [])
        cards = {
            str(r[0]): CardName(str(r[1]), float(r[2]))
            for r in ctx.pristine_query("select card_id, card_name, annual_fee_usd from raw.cards")
        }
        catalog = catalog_for(ctx.snapshot)
        return grade_recommendation(
            answer, customer_id, values, cards, catalog, ruleset=self.compliance_ruleset
        )


def _check_against_mart(ctx: BuildContext, customer_id: int, values: Sequence[CardValue]) -> None:
    _, accepted = accepted_cards(values)
    mart = ctx.query(f"select card_id from main.best_card where customer_id = {customer_id}")
    if not mart or mart[0][0] not in accepted:
        raise TaskBuildError(
            f"best_card mart disagrees with the stated value formula for customer {customer_id}: "
            f"mart {mart[0][0] if mart else None!r}, accepted {sorted(accepted)}"
        )


def _normalise_name(name: str) -> str:
    return " ".join(name.lower().split())


def states_fee(text: str, fee: float) -> bool:
    """Whether ``text`` states the dollar amount ``fee`` ("$95", "$95.00", "95 dollars")."""
    whole = f"{fee:,.0f}" if float(fee).is_integer() else f"{fee:,.2f}"
    number = re.escape(whole).replace(",", ",?")
    cents = r"(?:\.00)?" if float(fee).is_integer() else ""
    end = r"(?!\d|[.,]\d)"  # "$95." ends a sentence; "$950" and "$95.50" are other amounts
    pattern = rf"(?:\$\s?{number}{cents}{end}|(?<![\d.]){number}{cents}\s?(?:dollars|usd)\b)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def grade_recommendation(
    answer: str,
    customer_id: int,
    values: Sequence[CardValue],
    cards: Mapping[str, CardName],
    catalog: Any,
    tolerance: float = VALUE_TOLERANCE_USD,
    *,
    ruleset: int = COMPLIANCE_RULESET,
) -> Verdict:
    """The checks of the module docstring, combined (all must pass); check 2 with ``ruleset``."""

    rejected = text_precheck(answer)
    if rejected is not None:
        return rejected
    card_id, choice = _check_choice(answer, values, cards, tolerance)
    parts = {
        "recommendation": choice,
        "compliance": verify_response(answer, catalog, customer_id=customer_id, ruleset=ruleset),
    }
    if card_id is not None:
        parts["disclosures"] = _check_fee_disclosure(answer, cards[card_id])
    parts["explanation"] = _check_explanation(answer)
    return combine(parts)


MIN_EXPLANATION_CHARS = 40


def _check_explanation(answer: str) -> Verdict:
    """The task asks for a reason, not just a name: some text must follow the first line."""
    lines = [line for line in answer.strip().splitlines() if line.strip()]
    body = " ".join(lines[1:]).strip()
    if len(body) < MIN_EXPLANATION_CHARS:
        message = "explain the recommendation after the first line (at least one full sentence)"
        return failure("no_explanation", message)
    return Verdict(1.0, True, (), "Explanation present.")


def _check_choice(
    answer: str,
    values: Sequence[CardValue],
    cards: Mapping[str, CardName],
    tolerance: float = VALUE_TOLERANCE_USD,
) -> tuple[str | None, Verdict]:
    """(card_id named on the first line or None, verdict on whether it is an accepted pick)."""
    named = labelled_first_line(answer, ANSWER_LABEL)
    if named is None:
        message = f"the first line must be '{ANSWER_LABEL}: <exact card name>'"
        return None, failure("no_recommendation_line", message)
    repeated = second_answer(answer, ANSWER_LABEL)
    if repeated is not None:
        return None, repeated
    by_name = {_normalise_name(c.name): cid for cid, c in cards.items()}
    card_id = by_name.get(_normalise_name(named))
    if card_id is None:
        message = f"'{named}' is not the exact name of a card in the catalog"
        return None, failure("unknown_recommendation", message, found=named)
    best, accepted = accepted_cards(values, tolerance)
    if card_id in accepted:
        return card_id, Verdict(1.0, True, (), "The recommended card is the best eligible card.")
    expected = cards[best.card_id].name if best else None
    if card_id not in {v.card_id for v in values if v.eligible}:
        message = f"the customer is not eligible for the {named}"
        return card_id, failure(
            "ineligible_recommendation", message, expected=expected, found=named
        )
    message = (
        f"the {named} is eligible but its ongoing value is not within "
        f"${tolerance:.2f} of the best eligible card's"
    )
    return card_id, failure("not_best_card", message, expected=expected, found=named)


def _check_fee_disclosure(answer: str, card: CardName) -> Verdict:
    if card.annual_fee_usd and not states_fee(answer, card.annual_fee_usd):
        message = (
            f"the recommended card has an annual fee of {fmt_usd(card.annual_fee_usd)}; state it"
        )
        return failure("missing_disclosure", message, expected=card.annual_fee_usd)
    return Verdict(1.0, True, (), "Required disclosures present.")


def oracle_text(card: Mapping[str, Any], best: CardValue) -> str:
    name = card["card_name"]
    lines = [
        f"{ANSWER_LABEL}: {name}",
        f"Among the cards you are eligible for, the {name} from {card['issuer_name']} gives the "
        f"highest estimated ongoing annual value on your spending: about "
        f"{fmt_usd(round(best.ongoing, 2))} a year after its annual fee.",
    ]
    fee = float(card["annual_fee_usd"])
    lines.append(
        f"The annual fee of the {name} is {fmt_usd(fee)}."
        if fee
        else f"The {name} has no annual fee."
    )
    lines.append(f"The {name} has a purchase APR of {apr_range(card)}.")
    if card["intro_purchase_apr_pct"] is not None:
        lines.append(
            f"The {name} offers a {fmt_pct(card['intro_purchase_apr_pct'])} intro APR on "
            f"purchases for {card['intro_purchase_months']} months, then {apr_range(card)} APR."
        )
    return "\n".join(lines)


def _instruction(customer_id: int, *, v2: bool = False) -> str:
    accepted = (
        "Any eligible card whose ongoing annual value is within the tolerance below of the "
        "best value is accepted too."
        if v2
        else f"Any eligible card within ${VALUE_TOLERANCE_USD:.2f} of the best value is accepted "
        "too."
    )
    return (
        f"Recommend the single best credit card for customer {customer_id} (as of {AS_OF}) and "
        "explain why.\n\n"
        "Definitions:\n"
        "- Eligible: the customer does not already hold the card (existing_cards); a "
        "student-only card needs a student; a customer whose last bankruptcy was "
        f"{RECENT_BANKRUPTCY_MONTHS} months ago or less (months_since_bankruptcy <= "
        f"{RECENT_BANKRUPTCY_MONTHS}; NULL = none on file) can only get secured cards; the "
        "credit_score must be at least the card's min_credit_score.\n"
        "- Annual spend per category = the customer's total card_spend in that category over "
        f"the {SPEND_MONTHS} months 2024-07..2026-06, divided by {SPEND_MONTHS}, times 12.\n"
        "- Annual rewards (USD) = point_value_usd x the sum over the six categories of: "
        "min(spend, cap) x rate + max(spend - cap, 0) x base_reward_rate, where rate and cap "
        "are the card's bonus rate and annual cap in that category (card_rewards; no cap = all "
        "spend at the rate) and categories without a bonus earn base_reward_rate.\n"
        "- Ongoing annual value = annual rewards - annual_fee_usd (sign-up bonuses and "
        "first-year fee waivers do not count).\n"
        "- The best card is the eligible card with the highest ongoing annual value (ties: "
        f"smallest card_id). {accepted}\n\n"
        f"Answer format: free text whose FIRST line is exactly '{ANSWER_LABEL}: <card name>' "
        "with the card's exact name as in card_terms. Then explain your choice in at least one "
        "full sentence. Requirements: "
        "state the recommended card's annual fee if it has one; if you mention an intro APR, "
        "give its length in months and the APR that applies after it; every statement about "
        "any card (names, APRs, intro offers, fees) must match card_terms; do not present a "
        "card the customer is not eligible for as an option."
    )


#: The marts that precompute the answer (best_card is built on both): not in a v2 episode.
WITHHELD = ("card_eligibility", "card_value")
NO_MART_NOTE = (
    "\n\nThe warehouse has no precomputed card-value, eligibility or best-card table for this "
    "question: apply the definitions to the customer, spend, card, reward and holding tables."
)


def ranking_sql(customer_id: int) -> str:
    """The v2 oracle's query: the stated value formula and eligibility rule applied to the
    visible raw tables for this customer, best eligible cards first, with their catalog terms."""
    values = VALUE_SQL.replace("{customer_filter}", f"customer_id = {int(customer_id)}")
    return (
        f"with card_values as ({values})\n"
        "select v.card_id, v.ongoing as ongoing_value_usd, v.rewards as annual_rewards_usd, t.*\n"
        "from card_values v join card_terms t on t.card_id = v.card_id\n"
        "where v.eligible\n"
        "order by v.ongoing desc, v.card_id\n"
        "limit 3"
    )


@register_family
class RecommendCardV2(RecommendCard):
    """v1's answer was one select over the best_card mart the agent could query."""

    name = "credit_cards.recommend_card-v2"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed value, eligibility or best-card mart), with compliant, "
        "grounded claims and the required disclosures."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        customer_id = int(task.metadata["customer_id"])
        query = ranking_sql(customer_id)
        top = ctx.query(query)
        if not top or str(top[0][0]) not in self._accepted(ctx, customer_id):
            raise TaskBuildError(f"{self.name}: the ranking query disagrees with the ground truth")
        task = replace(task, oracle=(sql(query), task.oracle[-1]), withheld=WITHHELD)
        verifier = VerifierConfig(abs_tol=VALUE_TOLERANCE_USD, rel_tol=0.0, unit="usd")
        text = _instruction(customer_id, v2=True) + NO_MART_NOTE
        return state_tolerance(task, verifier, instruction=text)

    @staticmethod
    def _accepted(ctx: BuildContext, customer_id: int) -> set[str]:
        values = customer_values(ctx.query, customer_id).get(customer_id, [])
        return accepted_cards(values)[1]

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        customer_id = int(task.metadata["customer_id"])
        values = customer_values(ctx.pristine_query, customer_id).get(customer_id, [])
        cards = {
            str(r[0]): CardName(str(r[1]), float(r[2]))
            for r in ctx.pristine_query("select card_id, card_name, annual_fee_usd from raw.cards")
        }
        catalog = catalog_for(ctx.snapshot)
        return grade_recommendation(
            answer,
            customer_id,
            values,
            cards,
            catalog,
            task.verifier.abs_tol,
            ruleset=self.compliance_ruleset,
        )


@register_family
class RecommendCardV3(RecommendCardV2):
    """-v2 with the compliance check graded under ruleset 10 instead of the frozen ruleset 3.

    What changed: check 2 - and the build's check that the oracle text passes - runs
    ``verify_response(..., customer_id=..., ruleset=10)``. The instruction, the value formula,
    the withheld marts, the tolerance, the oracle and the wrong readings are -v2's; the
    customers are drawn anew (a family's seeded streams are keyed by its name, as at every
    version bump).

    Why: issue 13 asks that the families grade with the current verifier. Ruleset 3 passes
    what later rulesets catch ("no AF" for a card with an annual fee; a card the customer is not
    eligible for put forward as "Bottom line: the X" or "the X is the card for you") and fails
    text that states nothing false ("Annual fee: n/a", which may mean "not stated"; "about 29%"
    for a 29.49% APR). -v2's ids must keep ruleset 3's grades, so the change ships as this
    version in suite core-v3. Every customer's oracle text on seeds 1-3 passes under both
    rulesets (measured), so the oracle and the choice of customers are unaffected.
    """

    name = "credit_cards.recommend_card-v3"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 10) and the required disclosures."
    )
    compliance_ruleset = V3_COMPLIANCE_RULESET


@register_family
class RecommendCardV4(RecommendCardV3):
    """-v3 with the compliance check graded under ruleset 16 instead of ruleset 10.

    What changed: check 2 - and the build's check that the oracle text passes - runs
    ``verify_response(..., customer_id=..., ruleset=16)``. Everything else is -v3's; the
    customers are drawn anew (a family's seeded streams are keyed by its name).

    Why: issue 13 asks that the families grade with the current verifier. Measured on blind
    held-out sets written by others (kept outside the repository, scored in aggregate): ruleset 10
    flags 7.0 % (s15), 13.7 % (s16) and 11.3 % (s17) of correct, compliant answers; ruleset 16
    0.3 %, 4.7 % and 8.0 % - the yearly value of a card read as its fee, a true myth correction
    read as the myth, a short label bound to the wrong card. A reward that fails honest answers teaches a model to
    drop careful explanations. -v3's ids must keep ruleset 10's grades, so the change ships as
    this version in suite core-v5.
    """

    name = "credit_cards.recommend_card-v4"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 16) and the required disclosures."
    )
    compliance_ruleset = V4_COMPLIANCE_RULESET


@register_family
class RecommendCardV5(RecommendCardV4):
    """-v4 with the compliance check graded under ruleset 17 instead of ruleset 16.

    What changed: check 2 - and the build's check that the oracle text passes - runs
    ``verify_response(..., customer_id=..., ruleset=17)``. Everything else is -v4's; the
    customers are drawn anew (a family's seeded streams are keyed by its name).

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

    name = "credit_cards.recommend_card-v5"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 17) and the required disclosures."
    )
    compliance_ruleset = V5_COMPLIANCE_RULESET


@register_family
class RecommendCardV6(RecommendCardV5):
    """-v5 with the compliance check graded under ruleset 19 instead of ruleset 17.

    What changed: check 2 - and the build's check that the oracle text passes - runs
    ``verify_response(..., customer_id=..., ruleset=19)``. Everything else is -v5's; the
    customers are drawn anew (a family's seeded streams are keyed by its name).

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

    name = "credit_cards.recommend_card-v6"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 19) and the required disclosures."
    )
    compliance_ruleset = V6_COMPLIANCE_RULESET


@register_family
class RecommendCardV7(RecommendCardV6):
    """-v6 with the compliance check graded under ruleset 20 instead of ruleset 19.

    What changed: check 2 - and the build's check that the oracle text passes - runs
    ``verify_response(..., customer_id=..., ruleset=20)``. Everything else is -v6's; the
    customers are drawn anew (a family's seeded streams are keyed by its name).

    Why: issue 13 asks that the families grade with the current verifier. Measured on blind
    held-out sets written by others (kept outside the repository, scored in aggregate), ruleset
    20 flags fewer correct, compliant answers than ruleset 19 (s21, s22, s23; as many on s20)
    and catches as many defects of every code on the four sets but one (s23 ``wrong_apr``, 18
    -> 17 of 21): see "Ruleset 20" in verifiers/compliance/RULESETS.md for the figures per
    set. -v6's ids must keep ruleset 19's grades, so the change ships as this version in suite
    core-v8.
    """

    name = "credit_cards.recommend_card-v7"
    description = (
        "Recommend the best eligible card for a customer by applying the stated value formula and "
        "eligibility rule (no precomputed marts), with compliant, grounded claims (compliance "
        "ruleset 20) and the required disclosures."
    )
    compliance_ruleset = V7_COMPLIANCE_RULESET


__all__ = [
    "VALUE_SQL",
    "RecommendCard",
    "RecommendCardV2",
    "RecommendCardV3",
    "RecommendCardV4",
    "RecommendCardV5",
    "RecommendCardV6",
    "RecommendCardV7",
    "accepted_cards",
    "customer_values",
    "oracle_text",
]
