"""Operators that break an expression: coalesce defaults, CASE branches, date grains, time zones,
UNION, rounding order, status lists and arithmetic signs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from sqlglot import exp
from sqlglot.tokens import TokenType

from replicas.factory.sqltext import Edit

if TYPE_CHECKING:
    pass

from replicas.factory.operators.base import (
    Choice,
    ModelSql,
    Operator,
    Site,
    _function_name_token,
    _same_style,
    _site,
    register_operator,
)


@register_operator
class CoalesceDefault(Operator):
    """A missing or wrong ``coalesce`` default: NULLs where zero was meant (sums and
    comparisons go NULL), or a flag defaulting to true."""

    name = "coalesce_default"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.Coalesce):
            span = p.span(node)
            first = p.span(node.this)
            if span is None or first is None or not node.expressions:
                continue
            choices = [
                Choice(
                    (Edit(span[0], span[1], model.text(*first)),),
                    f"coalesce unwrapped to {model.text(*first)}",
                )
            ]
            default = node.expressions[-1]
            dspan = p.span(default)
            if dspan is not None and isinstance(default, exp.Boolean):
                flipped = "true" if not default.this else "false"
                choices.append(
                    Choice(
                        (Edit(dspan[0], dspan[1], flipped),),
                        f"default {model.text(*dspan)} → {flipped}",
                    )
                )
            elif (
                dspan is not None
                and isinstance(default, exp.Literal)
                and not default.is_string
                and model.text(*dspan) in ("0", "0.0")
            ):
                choices.append(Choice((Edit(dspan[0], dspan[1], "1"),), "default 0 → 1"))
            site = _site(self.name, model, span[0], "coalesce(…)", choices)
            if site:
                yield site


@register_operator
class CaseBranchSwap(Operator):
    """``case`` branches swapped: two outcomes exchanged, so rows get the other bucket, label
    or amount (a classic copy-paste slip)."""

    name = "case_branch_swap"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for case in p.tree.find_all(exp.Case):
            results = [branch.args.get("true") for branch in case.args.get("ifs") or []]
            default = case.args.get("default")
            if default is not None:
                results.append(default)
            spans = [p.span(r) for r in results if r is not None]
            if len(spans) < 2 or any(s is None for s in spans):
                continue
            good = [s for s in spans if s is not None]
            choices = []
            for i in range(len(good) - 1):
                a, b = good[i], good[i + 1]
                ta, tb = model.text(*a), model.text(*b)
                if " ".join(ta.split()) == " ".join(tb.split()):
                    continue
                choices.append(
                    Choice(
                        (Edit(a[0], a[1], tb), Edit(b[0], b[1], ta)),
                        f"swapped case results {ta[:30]} ↔ {tb[:30]}",
                    )
                )
            tokens = p.node_tokens(case)
            if tokens is None:
                continue
            site = _site(self.name, model, p.tok_range(*tokens)[0], "case", choices)
            if site:
                yield site


_GRAINS = ("day", "week", "month", "quarter", "year")
_GRAIN_FUNCS = (
    "date_trunc",
    "datetrunc",
    "date_diff",
    "datediff",
    "date_part",
    "datepart",
    "time_bucket",
)


@register_operator
class DateGrain(Operator):
    """The wrong date grain: ``date_trunc('week', …)`` where months were meant (or quarter,
    year), so periods, cohorts and month offsets land in the wrong buckets."""

    name = "date_grain"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for i, token in enumerate(p.tokens):
            if token.text.lower() not in _GRAIN_FUNCS or p.word(i + 1) != "(":
                continue
            unit = p.tokens[i + 2] if i + 2 < len(p.tokens) else None
            if unit is None or unit.token_type != TokenType.STRING:
                continue
            grain = unit.text.lower()
            if grain not in _GRAINS:
                continue
            start, end = p.tok_range(i + 2, i + 2)
            choices = [
                Choice((Edit(start, end, f"'{g}'"),), f"{token.text}('{grain}') → '{g}'")
                for g in _GRAINS
                if g != grain and (g != "day" or grain == "week")
            ]
            site = _site(self.name, model, start, f"{token.text}('{grain}', …)", choices)
            if site:
                yield site


@register_operator
class DropTimezone(Operator):
    """A time-zone conversion dropped: UTC timestamps read as local time (or back), so events
    near midnight land on the wrong day."""

    name = "drop_timezone"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.AtTimeZone, exp.ConvertTimezone, exp.Anonymous):
            if isinstance(node, exp.Anonymous) and node.name.lower() != "timezone":
                continue
            span = p.span(node)
            if span is None:
                continue
            inner = node.this if isinstance(node, exp.AtTimeZone) else None
            if isinstance(node, exp.Anonymous) and len(node.expressions) == 2:
                inner = node.expressions[1]
            if isinstance(node, exp.ConvertTimezone):
                inner = node.args.get("timestamp")
            inner_span = p.span(inner) if inner is not None else None
            if inner_span is None:
                continue
            site = _site(
                self.name,
                model,
                span[0],
                "time-zone conversion",
                [
                    Choice(
                        (Edit(span[0], span[1], model.text(*inner_span)),),
                        "dropped the time-zone conversion",
                    )
                ],
            )
            if site:
                yield site


@register_operator
class UnionAll(Operator):
    """``union`` for ``union all`` (rows that happen to be identical are collapsed) or
    ``union all`` for ``union`` (duplicates the union was meant to remove survive)."""

    name = "union_all"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for i, token in enumerate(p.tokens):
            if token.token_type != TokenType.UNION:
                continue
            if p.word(i + 1) == "all":
                start, end = p.tok_range(i, i + 1)
                new = _same_style(model, token.text, "union")
            else:
                start, end = p.tok_range(i, i)
                new = _same_style(model, token.text, "union all")
            site = _site(
                self.name,
                model,
                start,
                model.text(start, end),
                [Choice((Edit(start, end, new),), f"{model.text(start, end)} → {new}")],
            )
            if site:
                yield site


@register_operator
class RoundingOrder(Operator):
    """Rounding moved across an aggregation: ``sum(round(x, 2))`` where ``round(sum(x), 2)``
    was meant (or back), so totals drift by cents from the ledger."""

    name = "rounding_order"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.Round):
            agg = node.this
            digits = node.args.get("decimals")
            span = p.span(node)
            if span is None or digits is None:
                continue
            dspan = p.span(digits)
            if dspan is None:
                continue
            d = model.text(*dspan)
            if isinstance(agg, (exp.Sum, exp.Avg)) and not isinstance(agg.this, exp.Distinct):
                inner = p.span(agg.this)
                name_index = _function_name_token(model, agg)
                if inner is None or name_index is None:
                    continue
                fn = p.tokens[name_index].text
                rnd = p.tokens[_function_name_token(model, node) or 0].text
                new = f"{fn}({rnd}({model.text(*inner)}, {d}))"
                choices = [Choice((Edit(span[0], span[1], new),), f"rounding moved inside {fn}")]
                site = _site(self.name, model, span[0], f"round({fn}(…))", choices)
                if site:
                    yield site
            elif isinstance(node.parent, (exp.Sum, exp.Avg)):
                outer = node.parent
                outer_span = p.span(outer)
                inner = p.span(node.this)
                outer_index = _function_name_token(model, outer)
                if outer_span is None or inner is None or outer_index is None:
                    continue
                fn = p.tokens[outer_index].text
                rnd = p.tokens[_function_name_token(model, node) or 0].text
                new = f"{rnd}({fn}({model.text(*inner)}), {d})"
                site = _site(
                    self.name,
                    model,
                    outer_span[0],
                    f"{fn}(round(…))",
                    [
                        Choice(
                            (Edit(outer_span[0], outer_span[1], new),),
                            f"rounding moved outside {fn}",
                        )
                    ],
                )
                if site:
                    yield site


@register_operator
class StatusList(Operator):
    """A stale status list: a hard-coded ``in (…)`` that misses one of the statuses the
    project's vars (or accepted values) define, or includes one it should not."""

    name = "status_list"

    def _pool(self, model: ModelSql, column: str, values: Sequence[str]) -> list[str]:
        pool = list(model.project.accepted_values(column))
        for value in model.project.vars.values():
            if (
                isinstance(value, list)
                and all(isinstance(v, str) for v in value)
                and (set(values) & set(value) or not values)
            ):
                pool.extend(v for v in value if v not in pool)
        return pool

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.In):
            column = node.this
            if not isinstance(column, exp.Column) or not node.expressions:
                continue
            items = node.expressions
            span_first = p.span(items[0])
            span_last = p.span(items[-1])
            if span_first is None or span_last is None:
                continue
            start, end = span_first[0], span_last[1]
            if all(isinstance(i, exp.Literal) and i.is_string for i in items):
                values = [str(i.this) for i in items]
            elif len(items) == 1 and isinstance(items[0], exp.Column):
                span = model.masked.span_of_placeholder(items[0].name)
                var = re.search(r"var\(\s*['\"](\w+)['\"]", span.text) if span else None
                listed = model.project.vars.get(var.group(1)) if var else None
                if not isinstance(listed, list) or not all(isinstance(v, str) for v in listed):
                    continue
                values = list(listed)
            else:
                continue
            pool = self._pool(model, column.name, values)
            choices = []
            if len(values) > 1:
                for drop in values:
                    kept = [v for v in values if v != drop]
                    choices.append(
                        Choice(
                            (Edit(start, end, ", ".join(f"'{v}'" for v in kept)),),
                            f"status list without '{drop}'",
                        )
                    )
            for extra in pool:
                if extra not in values:
                    listed_text = ", ".join(f"'{v}'" for v in [*values, extra])
                    choices.append(
                        Choice((Edit(start, end, listed_text),), f"status list with '{extra}'")
                    )
            site = _site(self.name, model, start, f"{column.name} in (…)", choices)
            if site:
                yield site


@register_operator
class ArithmeticSign(Operator):
    """A sign slip: an amount added where it should be subtracted (refunds, discounts) or the
    other way round."""

    name = "arithmetic_sign"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.Sub, exp.Add):
            if isinstance(node.expression, (exp.Interval, exp.Literal)) or isinstance(
                node.this, exp.Literal
            ):
                continue
            left = p.node_tokens(node.this)
            right = p.node_tokens(node.expression)
            if left is None or right is None or right[0] - left[1] != 2:
                continue
            op = left[1] + 1
            text = p.tokens[op].text
            if text not in ("+", "-"):
                continue
            new = "-" if text == "+" else "+"
            start, end = p.tok_range(op, op)
            site = _site(
                self.name,
                model,
                start,
                f"{text} {' '.join(model.text(*p.tok_range(*right)).split())[:40]}",
                [
                    Choice(
                        (Edit(start, end, new),),
                        f"{text} → {new} before {model.text(*p.tok_range(*right))[:40]}",
                    )
                ],
            )
            if site:
                yield site
