"""``ecommerce.repeat_purchase-v1``: repeat-purchase rate or month-k retention of a cohort.

``-v2`` (core-v2): the rate is graded to 2 decimals (±0.005 percentage points; v1 allowed
0.006) and the instruction says so in the grader's words; ``fct_customer_cohorts`` (whose
``retention_rate`` answers a month-k retention question in one select) is withheld.

Two question kinds (by variant parity):

* repeat rate — cohort = customers whose FIRST counted order (in the data) was created in a
  given month or quarter (UTC); rate = share of the cohort with another counted order created
  after the first one and at most W days (W × 24 h) after it, W ∈ {30, 60, 90, 180};
* month-k retention — cohort = customers whose first counted order falls in month M; rate =
  share of the cohort with at least one counted order created in calendar month M + k (UTC),
  k ∈ 1..6.

Counted orders are the official revenue orders (status placed/shipped/completed/returned, no
test accounts). The answer is a percentage rounded to 2 decimals (e.g. 23.53 for 23.53 %),
tolerance ±0.006 percentage points. Wrong readings: cancelled orders counted, test accounts
kept, cohort by signup month instead of first-order month, the rate as a fraction, and no
window (repeat rate: any later order) / cumulative months 1..k (retention).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from replicas.families.ecommerce._order_facts import Reading
from replicas.families.ecommerce._periods import (
    LAST_MONTH,
    Period,
    add_months,
    draw_period,
)
from replicas.families.ecommerce._search import Candidate, search
from replicas.tasks import (
    BuildContext,
    Task,
    TaskFamily,
    VerifierConfig,
    register_family,
    sql,
    state_tolerance,
    submit,
)

Question = Literal["repeat_rate", "retention"]
WINDOWS_DAYS: tuple[int, ...] = (30, 60, 90, 180)
MAX_K = 6
VERIFIER = VerifierConfig(abs_tol=0.006, rel_tol=0.0)
DATA_END = add_months(LAST_MONTH, 1)  # 2026-07-01, exclusive


@dataclass(frozen=True)
class Params:
    """One cohort question: which cohort, which measure, which window or month offset."""

    question: Question
    cohort: Period
    window_days: int = 0
    k: int = 0

    def __post_init__(self) -> None:
        if self.question == "repeat_rate":
            if self.window_days not in WINDOWS_DAYS:
                raise ValueError(f"window must be one of {WINDOWS_DAYS}, got {self.window_days}")
            last_first_order = self.cohort.end + dt.timedelta(days=self.window_days)
            if last_first_order > DATA_END:
                raise ValueError("the repeat window must end inside the data")
        elif not 1 <= self.k <= MAX_K or add_months(self.cohort.start, self.k) > LAST_MONTH:
            raise ValueError(f"month offset {self.k} must lie in 1..{MAX_K} and inside the data")


@dataclass(frozen=True)
class Misreading:
    """Switches a wrong reading flips on top of the official definition."""

    reading: Reading = field(default_factory=Reading)
    signup_cohort: bool = False
    no_window: bool = False
    cumulative: bool = False
    as_fraction: bool = False


def cohort_rate_sql(p: Params, m: Misreading = Misreading()) -> str:
    """The cohort's rate in percent (2 dp) from the raw tables."""
    r = m.reading
    statuses = ", ".join(f"'{s}'" for s in r.statuses)
    test = "" if r.include_test_accounts else "and not c.is_test_account"
    start, end = p.cohort.start.isoformat(), p.cohort.end.isoformat()
    cohort_time = "c.signup_at" if m.signup_cohort else "f.first_at"
    if p.question == "repeat_rate":
        upper = (
            "" if m.no_window else f"and o.created_at <= f.first_at + interval {p.window_days} day"
        )
        hit = f"o.created_at > f.first_at {upper}"
    else:
        lo = add_months(p.cohort.start, 1 if m.cumulative else p.k).isoformat()
        hi = add_months(p.cohort.start, p.k + 1).isoformat()
        hit = f"o.created_at >= timestamp '{lo}' and o.created_at < timestamp '{hi}'"
    scale = "1.0" if m.as_fraction else "100.0"
    digits = 4 if m.as_fraction else 2
    return f"""
        with counted as (
            select o.order_id, o.customer_id, o.created_at
            from raw.orders o join raw.customers c on c.customer_id = o.customer_id
            where o.status in ({statuses}) {test}
        ),
        firsts as (
            select customer_id, min(created_at) as first_at from counted group by customer_id
        ),
        cohort as (
            select f.customer_id, f.first_at
            from firsts f join raw.customers c on c.customer_id = f.customer_id
            where {cohort_time} >= timestamp '{start}' and {cohort_time} < timestamp '{end}'
        ),
        hits as (
            select distinct f.customer_id
            from cohort f join counted o on o.customer_id = f.customer_id
            where {hit}
        )
        select round({scale} * (select count(*) from hits) / count(*), {digits}) as rate
        from cohort
    """


READINGS: dict[str, Misreading] = {
    "cancelled_included": Misreading(reading=Reading(include_cancelled=True)),
    "test_accounts_included": Misreading(reading=Reading(include_test_accounts=True)),
    "signup_month_cohort": Misreading(signup_cohort=True),
    "fraction_instead_of_percent": Misreading(as_fraction=True),
}
QUESTION_READINGS: dict[str, tuple[str, Misreading]] = {
    "repeat_rate": ("any_later_order_no_window", Misreading(no_window=True)),
    "retention": ("cumulative_months_1_to_k", Misreading(cumulative=True)),
}


#: Per variant slot (variant // 2): the windows / month offsets it may ask, so the three
#: variants of one question kind never ask the same thing for a seed.
WINDOW_SLOTS: tuple[tuple[int, ...], ...] = ((30,), (60, 90), (180,))
K_SLOTS: tuple[tuple[int, ...], ...] = ((1, 2), (3, 4), (5, 6))


def draw_params(rng: np.random.Generator, question: Question, slot: int) -> Params:
    if question == "repeat_rate":
        window = int(rng.choice(WINDOW_SLOTS[slot % len(WINDOW_SLOTS)]))
        while True:  # a cohort whose window ends inside the data (terminates: early ones do)
            cohort = draw_period(rng, "quarter" if rng.random() < 0.5 else "month")
            if cohort.end + dt.timedelta(days=window) <= DATA_END:
                return Params(question, cohort, window_days=window)
    k = int(rng.choice(K_SLOTS[slot % len(K_SLOTS)]))
    while True:
        cohort = draw_period(rng, "month")
        if add_months(cohort.start, k) <= LAST_MONTH:
            return Params(question, cohort, k=k)


def describe(p: Params) -> str:
    counted = (
        "Counted orders: status placed, shipped, completed or returned (cancelled orders never "
        "count), excluding every order of internal test accounts (raw.customers."
        "is_test_account = true). Times are UTC (orders.created_at is stored in UTC)."
    )
    cohort = (
        f"The cohort is every customer whose first counted order in the data (earliest "
        f"created_at; orders start on 2024-01-01) was created in {p.cohort.describe()}. The "
        f"signup date does not matter."
    )
    if p.question == "repeat_rate":
        measure = (
            f"Repeat-purchase rate = share of the cohort that placed another counted order "
            f"created after their first order and at most {p.window_days} days "
            f"({p.window_days * 24} hours) after the first order's created_at."
        )
    else:
        target = add_months(p.cohort.start, p.k)
        measure = (
            f"Month-{p.k} retention = share of the cohort with at least one counted order "
            f"created in calendar month {target.year}-{target.month:02d} (UTC), i.e. exactly "
            f"{p.k} month(s) after the cohort month (orders in the months between do not count)."
        )
    return f"{counted}\n{cohort}\n{measure}"


@register_family
class RepeatPurchase(TaskFamily):
    name = "ecommerce.repeat_purchase-v1"
    replica = "ecommerce"
    description = "Repeat-purchase rate or month-k retention of a first-order cohort, in percent."
    difficulty = "medium"
    n_variants = 6

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        question: Question = "repeat_rate" if ctx.variant % 2 == 0 else "retention"
        extra_name, extra = QUESTION_READINGS[question]
        readings = {**READINGS, extra_name: extra}

        def evaluate(p: Params) -> Candidate[Params]:
            values = {
                name: float(ctx.scalar(cohort_rate_sql(p, m))) for name, m in readings.items()
            }
            return Candidate(p, float(ctx.scalar(cohort_rate_sql(p))), values)

        chosen = search(
            lambda: draw_params(rng, question, ctx.variant // 2),
            evaluate,
            kind="number",
            verifier=VERIFIER,
        )
        p = chosen.params
        what = (
            f"{p.window_days}-day repeat-purchase rate"
            if question == "repeat_rate"
            else f"month-{p.k} retention"
        )
        instruction = (
            f"What is the {what} of the {p.cohort.label} first-order cohort?\n\n"
            f"Definitions:\n{describe(p)}\n\n"
            f"Answer with the rate as a percentage rounded to 2 decimals (23.53 means 23.53 %), "
            f"not a fraction. Submit only the number."
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="number",
            expected=chosen.expected,
            verifier=VERIFIER,
            oracle=(sql(cohort_rate_sql(p)), submit(f"{chosen.expected:.2f}")),
            wrong_readings=dict(chosen.readings),
            difficulty="hard" if question == "retention" else "medium",
            metadata={
                "question": question,
                "cohort": p.cohort.label,
                "window_days": p.window_days,
                "k": p.k,
            },
        )


@register_family
class RepeatPurchaseV2(RepeatPurchase):
    name = "ecommerce.repeat_purchase-v2"
    description = "Repeat-purchase rate of a first-order cohort, graded to 2 decimals."

    def make(self, ctx: BuildContext) -> Task:
        task = super().make(ctx)
        verifier = replace(task.verifier, abs_tol=0.005, rel_tol=0.0, unit="percentage_points")
        # fct_customer_cohorts stores month-k retention per first-order month: one select away
        # from the retention variants' answer (the audit's trivial check found it), so a v2
        # episode's warehouse does not have it.
        task = replace(task, withheld=WITHHELD)
        return state_tolerance(task, verifier)


#: Not in a v2 episode: the mart whose retention_rate answers the retention question.
WITHHELD = ("fct_customer_cohorts",)
