"""``ecommerce.top_n-v1``: the top N customers or products by a metric for a period.

``-v2`` (core-v2): the same ranking, the instruction stating the (exact) tolerance in the
grader's words.

Parameters: the entity and metric by variant (customers: net revenue or number of orders;
products: net item sales, units or number of orders), and from ``ctx.rng`` the period
(customers: month, quarter, half-year or year; products: month or quarter inside one product
category — across the whole catalogue the Zipf head never moves) and N (3–10), UTC periods.

The answer is the ordered list of ids, best first, ties broken by id ascending (stated). Wrong
readings: gross instead of net and no FX conversion (money metrics only), cancelled orders
counted, test accounts kept, a list one short, and — when a tie sits at the cut or inside the
list — ties broken by id descending (a reading that cannot change the list is not recorded).

Parameter search: one scan per draw evaluates every reading at once (FILTER clauses over facts
that keep all orders); draws continue (up to ``MAX_DRAWS``) until some N makes every applicable
reading change the list. Rankings are stable at the top, so for some scopes (e.g. customers by
net revenue) a reading may be inert for every draw; then the draw with the fewest inert
readings is kept and the inert ones are not recorded. The expected list itself comes from the
plain ranking query (the oracle's) and must agree with the scan — a cross-check of the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from replicas.families.ecommerce._order_facts import (
    EVERYTHING,
    OFFICIAL_DEFINITIONS,
    Reading,
    line_facts_sql,
    order_facts_sql,
    period_filter,
    reading_condition,
    usd_sum,
)
from replicas.families.ecommerce._periods import Period, PeriodKind, draw_period
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

N_RANGE = range(3, 11)
MAX_DRAWS = 12
CATEGORIES_SQL = "select distinct category from raw.products order by category"


@dataclass(frozen=True)
class RankMetric:
    """A ranking measure: ``agg`` over ``column`` of order facts (customers) or line facts."""

    key: str
    label: str
    agg: str  # sum | count | count_distinct
    column: str
    gross_column: str = ""

    def __post_init__(self) -> None:
        if not self.key.isidentifier() or self.agg not in ("sum", "count", "count_distinct"):
            raise ValueError(f"bad rank metric {self.key!r} / {self.agg!r}")
        if self.money != bool(self.gross_column):
            raise ValueError(f"{self.key}: USD metrics (and only they) name their gross column")
        if self.money and self.agg != "sum":
            raise ValueError(f"{self.key}: a USD metric is a sum")

    @property
    def money(self) -> bool:
        """USD metrics are named ``*_usd``; they have gross and unconverted misreadings."""
        return self.key.endswith("_usd")

    def sql(self, *, gross: bool = False, local: bool = False, where: str = "") -> str:
        column = self.gross_column if gross else self.column
        if local:
            column = column.replace("_usd", "_local")
        filt = f" filter (where {where})" if where else ""
        if self.agg == "count_distinct":
            return f"count(distinct {column}){filt}"
        if self.money:  # rank on exact cents: float summation order can never reorder a tie
            return f"{usd_sum(column)}{filt}"
        return f"{self.agg}({column}){filt}"


CUSTOMER_METRICS: tuple[RankMetric, ...] = (
    RankMetric(
        "net_revenue_usd",
        "net revenue in USD (gross - discounts - refunds of the customer's orders)",
        "sum",
        "net_usd",
        "gross_usd",
    ),
    RankMetric("orders", "number of counted orders", "count", "*"),
)
PRODUCT_METRICS: tuple[RankMetric, ...] = (
    RankMetric(
        "net_item_sales_usd",
        "net item sales in USD (quantity * unit_price - discount_amount of the product's "
        "lines; refunds are per order and are NOT deducted)",
        "sum",
        "(gross_usd - discount_usd)",
        "gross_usd",
    ),
    RankMetric("units", "units sold (sum of quantity)", "sum", "quantity"),
    RankMetric(
        "orders",
        "number of distinct counted orders containing the product",
        "count_distinct",
        "order_id",
    ),
)
#: variant → (entity, metric): every metric appears, customers and products alternate.
VARIANT_METRICS: tuple[tuple[str, RankMetric], ...] = (
    ("customer", CUSTOMER_METRICS[0]),
    ("product", PRODUCT_METRICS[0]),
    ("customer", CUSTOMER_METRICS[1]),
    ("product", PRODUCT_METRICS[1]),
    ("customer", CUSTOMER_METRICS[0]),
    ("product", PRODUCT_METRICS[2]),
)
PERIOD_KINDS: dict[str, tuple[PeriodKind, ...]] = {
    "customer": ("month", "quarter", "half", "year"),
    "product": ("month", "quarter"),
}


@dataclass(frozen=True)
class Scope:
    """What is ranked: entity, metric, period and (products) category."""

    entity: str
    metric: RankMetric
    period: Period
    category: str | None = None

    def __post_init__(self) -> None:
        if self.entity not in ("customer", "product"):
            raise ValueError(f"entity must be customer or product, got {self.entity!r}")
        if self.category is not None and not self.category.replace("_", "").isalnum():
            raise ValueError(f"not a category name: {self.category!r}")

    @property
    def id_column(self) -> str:
        return f"{self.entity}_id"

    def facts(self, reading: Reading) -> str:
        return order_facts_sql(reading) if self.entity == "customer" else line_facts_sql(reading)

    def where(self) -> str:
        where = period_filter(
            "local_at", self.period.start.isoformat(), self.period.end.isoformat()
        )
        if self.category is not None:
            where += f" and category = '{self.category}'"
        return where


def ranking_sql(scope: Scope, n: int) -> str:
    """The ground-truth ranking (the oracle's query)."""
    return f"""
        select {scope.id_column}, {scope.metric.sql()} as {scope.metric.key}
        from ({scope.facts(Reading())}) facts
        where {scope.where()}
        group by {scope.id_column}
        order by {scope.metric.key} desc, {scope.id_column} asc
        limit {n}
    """


#: The readings a count metric (orders, units) can be misread under (FX and gross do not apply).
_COUNT_READINGS = ("truth", "cancelled_included", "test_accounts_included")
#: reading name → (Reading, gross?, unconverted?) evaluated in one scan.
_SCAN_READINGS: dict[str, tuple[Reading, bool, bool]] = {
    "truth": (Reading(), False, False),
    "cancelled_included": (Reading(include_cancelled=True), False, False),
    "test_accounts_included": (Reading(include_test_accounts=True), False, False),
    "gross_instead_of_net": (Reading(), True, False),
    "no_fx_conversion": (Reading(), False, True),
}


def scan_sql(scope: Scope) -> tuple[str, list[str]]:
    """One query: per entity, the metric under every reading (+ whether the entity counts)."""
    names = [n for n in _SCAN_READINGS if scope.metric.money or n in _COUNT_READINGS]
    cols = []
    for name in names:
        reading, gross, local = _SCAN_READINGS[name]
        cond = reading_condition(reading)
        cols.append(f"{scope.metric.sql(gross=gross, local=local, where=cond)} as {name}")
        cols.append(f"count(*) filter (where {cond}) > 0 as {name}__present")
    query = f"""
        select {scope.id_column}, {", ".join(cols)}
        from ({scope.facts(EVERYTHING)}) facts
        where {scope.where()}
        group by {scope.id_column}
    """
    return query, names


def _rank(
    rows: list[tuple[Any, ...]], value_idx: int, present_idx: int, *, desc_ids: bool
) -> list[int]:
    kept = [(float(r[value_idx] or 0), int(r[0])) for r in rows if r[present_idx]]
    kept.sort(key=lambda vi: (-vi[0], -vi[1] if desc_ids else vi[1]))
    return [i for _, i in kept]


def candidate_readings(rows: list[tuple[Any, ...]], names: list[str]) -> dict[str, list[int]]:
    """Full rankings (all entities) under every reading, plus reversed tie-breaks."""
    out: dict[str, list[int]] = {}
    for k, name in enumerate(names):
        out[name] = _rank(rows, 1 + 2 * k, 2 + 2 * k, desc_ids=False)
    out["ties_broken_by_id_descending"] = _rank(rows, 1, 2, desc_ids=True)
    return out


def readings_for_n(rankings: dict[str, list[int]], n: int) -> dict[str, list[int]]:
    truth = rankings["truth"][:n]
    readings = {k: v[:n] for k, v in rankings.items() if k != "truth"}
    if readings["ties_broken_by_id_descending"] == truth:
        del readings["ties_broken_by_id_descending"]  # no tie touches the list: not a reading
    readings["fewer_than_n"] = truth[:-1]
    return readings


@dataclass(frozen=True)
class Choice:
    """A drawn (scope, N) with the readings that change its list."""

    scope: Scope
    n: int
    truth: list[int]
    readings: dict[str, list[int]]
    missing: tuple[str, ...]


def search_parameters(
    ctx: BuildContext,
    rng: np.random.Generator,
    entity: str,
    metric: RankMetric,
    categories: list[str],
) -> Choice:
    """Draw scopes until one has an N where every applicable reading changes the list.

    Readings that cannot change the list for the chosen parameters are not recorded (they
    would not be misreadings of THIS task); after ``MAX_DRAWS`` the draw where the fewest
    applicable readings are inert is kept.
    """
    required = [n for n in _SCAN_READINGS if n != "truth"]
    if not metric.money:
        required = [n for n in required if n in _COUNT_READINGS]
    best: Choice | None = None
    kinds = PERIOD_KINDS[entity]
    for _ in range(MAX_DRAWS):
        period = draw_period(rng, kinds[int(rng.integers(0, len(kinds)))])
        category = (
            categories[int(rng.integers(0, len(categories)))] if entity == "product" else None
        )
        scope = Scope(entity, metric, period, category)
        query, names = scan_sql(scope)
        rankings = candidate_readings(ctx.query(query), names)
        for n in rng.permutation(list(N_RANGE)):
            n = int(n)
            truth = rankings["truth"][:n]
            if len(truth) < n:
                continue
            readings = {k: v for k, v in readings_for_n(rankings, n).items() if v != truth}
            missing = tuple(r for r in required if r not in readings)
            choice = Choice(scope, n, truth, readings, missing)
            if best is None or len(missing) < len(best.missing):
                best = choice
            if not missing:
                return choice
    if best is None:
        raise TaskBuildError(f"no {entity} ranking with at least 3 entities could be drawn")
    return best


@register_family
class TopN(TaskFamily):
    name = "ecommerce.top_n-v1"
    replica = "ecommerce"
    description = "Top N customers or products by revenue, units or orders, ties by id ascending."
    difficulty = "medium"
    n_variants = 6

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        entity, metric = VARIANT_METRICS[ctx.variant % len(VARIANT_METRICS)]
        categories = [str(r[0]) for r in ctx.query(CATEGORIES_SQL)]
        choice = search_parameters(ctx, rng, entity, metric, categories)
        scope, n, readings = choice.scope, choice.n, choice.readings
        period, category = scope.period, scope.category

        expected = [int(r[0]) for r in ctx.query(ranking_sql(scope, n))]
        if expected != choice.truth:
            raise TaskBuildError(f"{self.name}: ranking query and scan disagree for {scope}")
        scope_text = f" in category '{category}' (products.category)" if category else ""
        instruction = (
            f"List the top {n} {entity}s{scope_text} by {metric.label} for "
            f"{period.describe()}, period boundaries in UTC (orders.created_at is stored in UTC)."
            f"\n\nDefinitions:\n{OFFICIAL_DEFINITIONS}\n"
            f"- An order belongs to the period by its UTC created_at.\n"
            f"- Rank by the metric, highest first; break ties by {entity}_id ascending.\n"
            + (
                "- Internal test accounts are not customers: never list them.\n"
                if entity == "customer"
                else ""
            )
            + f"\nSubmit exactly {n} {entity}_id values in rank order as a JSON array, "
            f"e.g. [17, 4, 9]."
        )
        difficulty: Difficulty = "medium"
        if metric.money and entity == "customer":
            difficulty = "hard"
        elif not metric.money and entity == "product":
            difficulty = "easy"
        return ctx.task(
            instruction=instruction,
            answer_kind="ordered_list",
            expected=expected,
            verifier=VerifierConfig(),
            oracle=(sql(ranking_sql(scope, n)), submit(expected)),
            wrong_readings=readings,
            difficulty=difficulty,
            metadata={
                "entity": entity,
                "metric": metric.key,
                "n": n,
                "period": period.label,
                "category": category,
            },
        )


@register_family
class TopNV2(TopN):
    name = "ecommerce.top_n-v2"
    description = "Top-N customers or products by a revenue metric; exact ranking stated."

    def make(self, ctx: BuildContext) -> Task:
        return state_tolerance(super().make(ctx))
