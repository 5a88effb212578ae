"""``credit_cards.eligibility-v1``: which cards (of one type or one issuer) may customer X get?

``-v2`` (core-v2): the ``card_eligibility`` mart, ``best_card`` (built on it) and ``card_value``
(per customer and card) are withheld from the episode's warehouse — in v1 the answer was one
select over ``card_eligibility`` — so the stated rule must be applied to the customer, card and
holding tables; the oracle does exactly that, and the instruction states the (exact-set)
tolerance in the grader's words.

The instruction states the eligibility rule exactly as the ``card_eligibility`` mart defines it
(holdings, student-only, recent bankruptcy, minimum credit score). The expected set is computed
from the RAW customer, card and holding tables — not read from the mart — so the task also
checks the mart an agent will probably query.

Customers are chosen so that the rules matter: the customer holds at least one card that would
otherwise qualify (so forgetting the holdings rule gives another answer), and is eligible for
cards outside the filter (so forgetting the filter does too). Bankruptcy and student rules are
preferred when they change the answer for the customer (such tasks are ``hard``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from replicas.families.credit_cards.common import (
    AS_OF,
    ELIGIBLE_PREDICATE,
    RECENT_BANKRUPTCY_MONTHS,
    RULES_SQL,
    variant_order,
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


@dataclass(frozen=True)
class CardFilter:
    """Which cards the question is about: one ``card_type`` or one issuer's cards."""

    kind: str  # "card_type" | "issuer"
    value: str

    def __post_init__(self) -> None:
        if self.kind not in _FILTER_SQL:
            raise ValueError(f"unknown card filter kind {self.kind!r}")
        if not self.value or "'" in self.value:
            raise ValueError(f"bad card filter value {self.value!r}")

    def sql(self, card: str = "c", issuer: str = "i") -> str:
        return _FILTER_SQL[self.kind].format(card=card, issuer=issuer, value=self.value)

    def describe(self) -> str:
        if self.kind == "card_type":
            return f"cards whose card_type is '{self.value}'"
        return f"cards issued by {self.value} (issuer name exactly '{self.value}')"


_FILTER_SQL: dict[str, str] = {
    "card_type": "{card}.card_type = '{value}'",
    "issuer": "{issuer}.issuer_name = '{value}'",
}

#: reading name -> SQL predicate over the rule flags that the misreading would use.
_READINGS: dict[str, str] = {
    "truth": ELIGIBLE_PREDICATE,
    "held_cards_included": "not student_blocked and not bankruptcy_blocked and not score_blocked",
    "score_rule_only": "not score_blocked",
    "bankruptcy_rule_ignored": "not holds and not student_blocked and not score_blocked",
    "student_rule_ignored": "not holds and not bankruptcy_blocked and not score_blocked",
    "min_score_exclusive": (
        "not holds and not student_blocked and not bankruptcy_blocked and not score_blocked_strict"
    ),
}
_MAX_ANSWER_CARDS = 8


@register_family
class Eligibility(TaskFamily):
    name = "credit_cards.eligibility-v1"
    replica = "credit_cards"
    description = (
        "List the cards of one type or issuer a customer is eligible for, under the stated "
        "eligibility rule (holdings, student-only, recent bankruptcy, minimum credit score)."
    )
    difficulty = "medium"
    n_variants = 6

    def make(self, ctx: BuildContext) -> Task:
        candidates = [
            {**c, "kind": kind}
            for kind, column in (("card_type", "card_type"), ("issuer", "issuer_name"))
            for c in _candidates(ctx, column)
        ]
        if not candidates:
            raise ValueError(f"{self.name}: no customer fits a discriminating question")
        # Even variants prefer customers for whom the bankruptcy or student rule matters; each
        # variant of a seed takes its own candidates (variant_order), so none repeats.
        tricky = variant_order(ctx, [c for c in candidates if c["tricky"]], "tricky")
        plain = variant_order(ctx, [c for c in candidates if not c["tricky"]], "plain")
        chosen = (tricky if tricky and (ctx.variant % 2 == 0 or not plain) else plain)[0]
        kind = str(chosen["kind"])
        card_filter = CardFilter(kind, str(chosen["group_value"]))
        customer_id = int(chosen["customer_id"])

        answers = {
            name: _cards(ctx, customer_id, card_filter, pred) for name, pred in _READINGS.items()
        }
        truth = answers.pop("truth")
        answers["filter_ignored"] = _cards(ctx, customer_id, None, _READINGS["truth"])
        wrong = {name: ids for name, ids in answers.items() if sorted(ids) != sorted(truth)}
        hard = any(n in wrong for n in ("bankruptcy_rule_ignored", "student_rule_ignored"))
        oracle_sql = (
            "select e.card_id from card_eligibility e join card_terms t on t.card_id = e.card_id "
            f"where e.customer_id = {customer_id} and e.is_eligible and "
            + (
                f"t.card_type = '{card_filter.value}'"
                if kind == "card_type"
                else f"t.issuer = '{card_filter.value}'"
            )
            + " order by e.card_id"
        )
        return ctx.task(
            instruction=_instruction(customer_id, card_filter),
            answer_kind="set",
            expected=truth,
            verifier=VerifierConfig(),
            oracle=(sql(oracle_sql), submit(json.dumps(truth))),
            wrong_readings=wrong,
            difficulty="hard" if hard else None,
            metadata={
                "customer_id": customer_id,
                "filter": {"kind": kind, "value": card_filter.value},
            },
        )


def _candidates(ctx: BuildContext, group_col: str) -> list[dict[str, Any]]:
    """(customer, filter value) pairs whose answer is short, non-empty and discriminating."""
    truth = _READINGS["truth"]
    held = _READINGS["held_cards_included"]
    rows = ctx.query(
        f"""
        with rules as ({RULES_SQL}),
        per_group as (
            select customer_id, {group_col} as group_value,
                count(*) filter (where {truth}) as n_truth,
                count(*) filter (where {held}) as n_held_included,
                count(*) filter (where not holds and not score_blocked
                    and (student_blocked or bankruptcy_blocked)) as n_rule_effects
            from rules group by customer_id, {group_col}
        ),
        per_customer as (
            select customer_id, count(*) filter (where {truth}) as n_all from rules
            group by customer_id
        )
        select g.customer_id, g.group_value, g.n_rule_effects > 0 as tricky
        from per_group g join per_customer p using (customer_id)
        where g.n_truth between 1 and {_MAX_ANSWER_CARDS}
            and g.n_held_included > g.n_truth
            and p.n_all > g.n_truth
        order by g.customer_id, g.group_value
        """
    )
    return [{"customer_id": r[0], "group_value": r[1], "tricky": bool(r[2])} for r in rows]


def _cards(
    ctx: BuildContext, customer_id: int, card_filter: CardFilter | None, predicate: str
) -> list[str]:
    where = f"customer_id = {int(customer_id)} and ({predicate})"
    if card_filter is not None:
        column = "card_type" if card_filter.kind == "card_type" else "issuer_name"
        where += f" and {column} = '{card_filter.value}'"
    rows = ctx.query(
        f"with rules as ({RULES_SQL}) select card_id from rules where {where} order by card_id"
    )
    return [str(r[0]) for r in rows]


def _instruction(customer_id: int, card_filter: CardFilter) -> str:
    return (
        f"Which {card_filter.describe()} is customer {customer_id} eligible for, as of {AS_OF}?\n\n"
        "A customer is eligible for a card when ALL of these hold:\n"
        "1. the customer does not already hold the card (a row for this customer and card in "
        "existing_cards, whenever it was opened);\n"
        "2. if the card is student-only (is_student_only), the customer is a student (is_student);\n"
        f"3. if the customer's last bankruptcy was {RECENT_BANKRUPTCY_MONTHS} months ago or less "
        f"(months_since_bankruptcy <= {RECENT_BANKRUPTCY_MONTHS}; NULL means no bankruptcy on "
        "file and never blocks), the card is secured (is_secured);\n"
        "4. the customer's credit_score is at least the card's min_credit_score (equal is enough).\n\n"
        f"Consider only {card_filter.describe()}. Submit a JSON array of the card_id values "
        '(shaped like ["CC-0000", "CC-9999"]), each id once, in any order; submit [] if there '
        "are none."
    )


#: Not in a v2 episode: the mart that precomputes the answer, best_card (one eligible card per
#: customer, built on it) and card_value (one row per customer and card, whose boolean columns
#: a lookup can mistake for eligibility and, on some customers, match).
WITHHELD = ("best_card", "card_eligibility", "card_value")
NO_MART_NOTE = (
    "\n\nThe warehouse has no precomputed eligibility table for this question: apply the rule "
    "to the customer, card, issuer and holding tables."
)


def rule_sql(customer_id: int, card_filter: CardFilter) -> str:
    """The v2 oracle's query: the stated rule applied to the visible raw tables, in one select
    (every literal comes from the question)."""
    return f"""
select c.card_id, c.card_name
from raw.cards c
join raw.issuers i on i.issuer_id = c.issuer_id
cross join (select * from raw.customers where customer_id = {int(customer_id)}) cu
where {card_filter.sql("c", "i")}
  and c.card_id not in (
      select card_id from raw.existing_cards where customer_id = {int(customer_id)})
  and (not c.is_student_only or cu.is_student)
  and (not coalesce(cu.months_since_bankruptcy <= {RECENT_BANKRUPTCY_MONTHS}, false)
       or c.is_secured)
  and cu.credit_score >= c.min_credit_score
order by c.card_id
""".strip()


@register_family
class EligibilityV2(Eligibility):
    """v1's answer was one select over the card_eligibility mart the agent could query."""

    name = "credit_cards.eligibility-v2"
    description = (
        "List the cards of one type or issuer a customer is eligible for by applying the stated "
        "rule (no precomputed eligibility mart in the warehouse)."
    )

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        customer_id = int(task.metadata["customer_id"])
        flt = dict(task.metadata["filter"])
        card_filter = CardFilter(str(flt["kind"]), str(flt["value"]))
        query = rule_sql(customer_id, card_filter)
        found = sorted(str(r[0]) for r in ctx.query(query))
        if found != sorted(task.expected):  # the oracle's query must BE the stated rule
            raise TaskBuildError(f"{self.name}: the rule query disagrees with the ground truth")
        task = replace(
            task,
            oracle=(sql(query), task.oracle[-1]),
            withheld=WITHHELD,
        )
        return state_tolerance(task, instruction=task.instruction + NO_MART_NOTE)
