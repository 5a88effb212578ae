"""``ecommerce.metric_reconciliation-v1``: why does the dashboard disagree with finance?

``-v2`` (core-v2): the corrected figure is graded exactly as asked, to the cent (±$0.005, no
relative allowance; v1 accepted 8655 for 8654.97), and the instruction says so in the
grader's words.

Finance's pack reports net revenue for a period (official definition, rounded to the nearest
$100); the revenue dashboard shows a different figure to the cent. The dashboard query has
exactly ONE defect from a stated list of five (four when only four causes move the figure for
that scope), drawn from :data:`CAUSES`. The agent must name
the defect and give the corrected figure (official net revenue to the cent).

Answer: exactly ``{"cause": "<option>", "corrected": <number>}``. Both parts must be right
(the cause exactly, the figure within a cent or 0.001 %). Grading turns the object into a
one-row table and uses the table verifier, so the build loop's wrong-reading check and the
grader agree. Parameters are drawn until every listed cause gives a DIFFERENT dashboard figure
(pairwise beyond tolerance) and none equals the correct figure, so exactly one cause explains
the reported number. Wrong readings: each other listed cause with the correct figure, the true
cause with the dashboard's figure, and the true cause with finance's rounded figure.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from replicas.families.ecommerce._order_facts import (
    OFFICIAL_DEFINITIONS,
    Reading,
    order_facts_sql,
    orders_in_scope_sql,
    period_filter,
    usd_sum,
)
from replicas.families.ecommerce._periods import Period, PeriodKind, draw_period
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
from replicas.verifiers.answers import check_answer, numbers_match
from replicas.verifiers.parse import ParseError, normalise_text, precheck, strip_wrapping
from replicas.verifiers.verdict import Verdict, fail

if TYPE_CHECKING:
    from replicas.tasks import GradeContext

VERIFIER = VerifierConfig(key_columns=("cause",), abs_tol=0.01, rel_tol=1e-5)
N_OPTIONS = 5
MIN_OPTIONS = 4  # a scope where only four causes move the figure lists four
MAX_DRAWS = 12
SHIFT_ZONE = "America/New_York"
FINANCE_ROUNDING = 100


@dataclass(frozen=True)
class Scope:
    period: Period
    channel: str | None = None

    def __post_init__(self) -> None:
        if self.channel not in (None, "web", "app", "marketplace"):
            raise ValueError(f"unknown channel {self.channel!r}")

    def where(self, zone_column: str = "local_at") -> str:
        cond = period_filter(
            zone_column, self.period.start.isoformat(), self.period.end.isoformat()
        )
        return cond + (f" and channel = '{self.channel}'" if self.channel else "")


OFFICIAL = Reading()


def net_sql(scope: Scope, reading: Reading = OFFICIAL, expression: str = "net_usd") -> str:
    """Net revenue of the scope (or a defect's figure) from the raw tables, in exact cents."""
    return f"""
        select round(coalesce({usd_sum(expression)}, 0), 2) as net_revenue_usd
        from ({order_facts_sql(reading)}) facts
        where {scope.where()}
    """


def refunds_by_refund_date_sql(scope: Scope) -> str:
    """The defect: deduct refunds ISSUED in the period (any order date), not the orders' refunds."""
    so = orders_in_scope_sql(Reading())
    channel = f"and so.channel = '{scope.channel}'" if scope.channel else ""
    issued = period_filter(
        "r.refunded_at", scope.period.start.isoformat(), scope.period.end.isoformat()
    )
    return f"""
        select round(
            coalesce((select {usd_sum("gross_usd - discount_usd")}
                      from ({order_facts_sql(Reading())}) facts where {scope.where()}), 0)
            - coalesce((select {usd_sum("round(r.amount * so.fx_rate, 2)")}
                        from raw.refunds r join ({so}) so on so.order_id = r.order_id
                        where {issued} {channel}), 0),
            2) as dashboard_net_revenue_usd
    """


@dataclass(frozen=True)
class Cause:
    """One possible dashboard defect: how it is described and the SQL giving its figure."""

    name: str
    description: str
    query: Callable[[Scope], str]


CAUSES: tuple[Cause, ...] = (
    Cause(
        "refunds_not_deducted",
        "refunds are not subtracted",
        lambda s: net_sql(s, expression="gross_usd - discount_usd"),
    ),
    Cause(
        "discounts_not_deducted",
        "line discounts are not subtracted",
        lambda s: net_sql(s, expression="gross_usd - refund_usd"),
    ),
    Cause(
        "cancelled_included",
        "cancelled orders are counted like the others",
        lambda s: net_sql(s, Reading(include_cancelled=True)),
    ),
    Cause(
        "test_accounts_included",
        "orders of internal test accounts are counted",
        lambda s: net_sql(s, Reading(include_test_accounts=True)),
    ),
    Cause(
        "no_fx_conversion",
        "amounts are summed in their order currency without converting to USD",
        lambda s: net_sql(s, Reading(convert_fx=False)),
    ),
    Cause(
        "timezone_shift",
        f"the period boundaries are taken in {SHIFT_ZONE} time instead of UTC",
        lambda s: net_sql(s, Reading(zone=SHIFT_ZONE)),
    ),
    Cause(
        "refunds_by_refund_date",
        "it deducts the refunds issued during the period (whatever the order's date) instead "
        "of all refunds of the period's orders",
        refunds_by_refund_date_sql,
    ),
)
CAUSE_BY_NAME: dict[str, Cause] = {c.name: c for c in CAUSES}


@dataclass(frozen=True)
class Variant:
    period_kind: PeriodKind
    channel: str | None


VARIANTS: tuple[Variant, ...] = (
    Variant("month", None),
    Variant("quarter", "web"),
    Variant("quarter", None),
    Variant("month", "app"),
    Variant("month", "web"),
)


@dataclass(frozen=True)
class Draw:
    scope: Scope
    true_cause: str
    options: tuple[str, ...]
    correct: float
    figures: dict[str, float]

    @property
    def dashboard(self) -> float:
        return self.figures[self.true_cause]

    @property
    def finance(self) -> float:
        return float(round(self.correct / FINANCE_ROUNDING) * FINANCE_ROUNDING)

    def distinct(self, verifier: VerifierConfig = VERIFIER) -> bool:
        """Every option's figure differs from every other and from the correct figure."""
        values = [self.correct, *(self.figures[o] for o in self.options)]
        return all(
            not numbers_match(a, b, verifier) and not numbers_match(b, a, verifier)
            for i, a in enumerate(values)
            for b in values[i + 1 :]
        )


def answer_table(cause: str, corrected: Any) -> dict[str, Any]:
    return {"columns": ["cause", "corrected"], "rows": [[cause, corrected]]}


def _one_value_per_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object that names a key twice carries two answers (JSON keeps only the last)."""
    keys = [str(k).strip().lower() for k, _ in pairs]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise ParseError(
            "multiple_candidates", f"the answer gives {', '.join(repeated)} more than once"
        )
    return dict(pairs)


def parse_answer(text: str) -> dict[str, Any]:
    """The submitted object as a one-row table; ParseError if it is not exactly that object.

    ``{"columns": ["cause", "corrected"], "rows": [[…]]}`` (the shape the recorded answers use)
    is read the same way, so wrong readings graded through the environment fail for their
    content, not their format.
    """
    precheck(text)
    body = strip_wrapping(normalise_text(text))
    try:
        data = json.loads(body, object_pairs_hook=_one_value_per_key)
    except ParseError:
        raise
    except (ValueError, RecursionError):
        raise ParseError(
            "malformed_answer", 'answer is not JSON {"cause": …, "corrected": …}'
        ) from None
    if not isinstance(data, dict):
        raise ParseError("malformed_answer", "answer must be one JSON object, not a list")
    if set(data) == {"columns", "rows"}:  # the recorded shape of answers: a one-row table
        rows = data["rows"]
        if not isinstance(rows, list) or len(rows) != 1 or not isinstance(data["columns"], list):
            raise ParseError("multiple_candidates", "give exactly one cause and one figure")
        data = dict(zip(data["columns"], rows[0], strict=False))
    keys = {str(k).strip().lower(): v for k, v in data.items()}
    if set(keys) != {"cause", "corrected"}:
        raise ParseError(
            "malformed_answer",
            f"the object must have exactly the keys cause and corrected, got {sorted(keys)}",
        )
    cause, corrected = keys["cause"], keys["corrected"]
    if not isinstance(cause, str):
        raise ParseError("multiple_candidates", "cause must be ONE option name (a string)")
    if isinstance(corrected, bool) or not isinstance(corrected, (int, float, str)):
        raise ParseError("malformed_answer", "corrected must be one number")
    return answer_table(cause, corrected)


@register_family
class MetricReconciliation(TaskFamily):
    name = "ecommerce.metric_reconciliation-v1"
    replica = "ecommerce"
    description = "Name the one dashboard defect explaining a revenue gap, and correct the figure."
    difficulty = "hard"
    n_variants = 5
    verifier: ClassVar[VerifierConfig] = VERIFIER

    def make(self, ctx: BuildContext) -> Task:
        rng = ctx.rng("params")
        v = VARIANTS[ctx.variant % len(VARIANTS)]

        def draw_once() -> Draw:
            scope = Scope(draw_period(rng, v.period_kind), v.channel)
            correct = float(ctx.scalar(net_sql(scope)))
            figures = {c.name: float(ctx.scalar(c.query(scope))) for c in CAUSES}
            # Options: causes in random order, each kept only if its figure stands apart from
            # the correct one and from every option kept before it.
            options: list[str] = []
            for i in rng.permutation(len(CAUSES)):
                name = CAUSES[int(i)].name
                if all(
                    not numbers_match(figures[name], other, self.verifier)
                    and not numbers_match(other, figures[name], self.verifier)
                    for other in [correct, *(figures[o] for o in options)]
                ):
                    options.append(name)
                if len(options) == N_OPTIONS:
                    break
            if len(options) < MIN_OPTIONS:  # too few separable causes: pad, fail distinct()
                options += [c.name for c in CAUSES if c.name not in options][
                    : MIN_OPTIONS - len(options)
                ]
            true_cause = options[int(rng.integers(0, len(options)))]
            ordered = tuple(c.name for c in CAUSES if c.name in options)
            return Draw(scope, true_cause, ordered, correct, figures)

        d = draw_once()
        for _ in range(MAX_DRAWS - 1):
            if d.distinct(self.verifier):
                break
            d = draw_once()
        expected = answer_table(d.true_cause, d.correct)
        readings: dict[str, Any] = {
            f"misdiagnosed_as_{o}": answer_table(o, d.correct)
            for o in d.options
            if o != d.true_cause
        }
        readings["dashboard_figure_as_corrected"] = answer_table(d.true_cause, d.dashboard)
        readings["finance_rounded_figure_as_corrected"] = answer_table(d.true_cause, d.finance)
        if not d.distinct(self.verifier):
            # No draw separated every option: record the collision as an (accepted) reading so
            # build() rejects this attempt and retries with a fresh random stream.
            readings["options_not_distinct"] = expected
        scope = d.scope
        what = f"net revenue of channel '{scope.channel}'" if scope.channel else "net revenue"
        option_lines = "\n".join(f"- {o}: {CAUSE_BY_NAME[o].description}" for o in d.options)
        instruction = (
            f"Finance's close pack reports {what} for {scope.period.describe()} of "
            f"${d.finance:,.0f} (rounded to the nearest ${FINANCE_ROUNDING}). The revenue "
            f"dashboard shows ${d.dashboard:,.2f} for the same figure. Finance follows the "
            f"official definition below; the dashboard's query has exactly ONE of these "
            f"defects:\n{option_lines}\n\n"
            f"Official definition (net revenue in USD, period boundaries in UTC):\n"
            f"{OFFICIAL_DEFINITIONS}\n"
            f"- An order belongs to the period by its UTC created_at"
            + (
                f"; only orders with orders.channel = '{scope.channel}' count"
                if scope.channel
                else ""
            )
            + ".\n\n"
            f"Which defect explains the dashboard's figure? Also give the corrected figure: the "
            f"{what} under the official definition, to the cent.\n"
            f'Submit exactly one JSON object and nothing else: {{"cause": "<one option name>", '
            f'"corrected": <number>}}'
        )
        oracle_sql = "\nunion all\n".join(
            [f"select 'official' as reading, * from ({net_sql(scope)})"]
            + [f"select '{o}', * from ({CAUSE_BY_NAME[o].query(scope)})" for o in d.options]
        )
        return ctx.task(
            instruction=instruction,
            answer_kind="table",
            expected=expected,
            verifier=self.verifier,
            oracle=(
                sql(oracle_sql),
                submit({"cause": d.true_cause, "corrected": d.correct}),
            ),
            wrong_readings=readings,
            metadata={
                "period": scope.period.label,
                "period_kind": scope.period.kind,
                "period_start": scope.period.start.isoformat(),
                "period_end": scope.period.end.isoformat(),
                "channel": scope.channel,
                "options": list(d.options),
            },
        )

    def grade(self, task: Task, answer: str, ctx: GradeContext) -> Verdict:
        try:
            table = parse_answer(answer)
        except ParseError as err:
            return fail(err.code, err.message)
        return check_answer("table", table, task.expected, task.verifier)


@register_family
class MetricReconciliationV2(MetricReconciliation):
    """v1 asked for the figure "to the cent" but accepted $0.01 or 0.001 % (8655 for 8654.97)."""

    name = "ecommerce.metric_reconciliation-v2"
    description = (
        "Name the one dashboard defect explaining a revenue gap, and give the corrected figure "
        "to the cent."
    )
    verifier = replace(VERIFIER, abs_tol=0.005, rel_tol=0.0, unit="usd")

    def make(self, ctx: BuildContext) -> Task:
        return state_tolerance(super().make(ctx))
