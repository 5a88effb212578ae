"""Operators that break a query's structure: joins, filters, boundaries, aggregates, DISTINCT
and window specifications.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sqlglot import exp
from sqlglot.tokens import TokenType

from replicas.factory.sqltext import Edit

if TYPE_CHECKING:
    from replicas.factory.sqltext import Node

from replicas.factory.operators.base import (
    Choice,
    ModelSql,
    Operator,
    Site,
    _delete_with_space,
    _first_token,
    _function_name_token,
    _key_family,
    _replace,
    _same_style,
    _site,
    register_operator,
)


@register_operator
class JoinType(Operator):
    """An inner join written as a left join or the other way round: rows without a match are
    silently dropped (inner) or kept with NULLs (left)."""

    name = "join_type"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for join in model.parsed.tree.find_all(exp.Join):
            side = (join.args.get("side") or "").upper()
            kind = (join.args.get("kind") or "").upper()
            if kind in ("CROSS",) or join.args.get("using"):
                continue
            first = _first_token(model, join.this)
            if first is None:
                continue
            j = first - 1
            if p.word(j) != "join":
                continue
            k = j
            while p.word(k - 1) in ("left", "right", "full", "inner", "outer"):
                k -= 1
            start, end = p.tok_range(k, j)
            original = model.text(start, end)
            if side in ("", "INNER") and kind in ("", "INNER"):
                new = _same_style(model, original, "left join")
            elif side == "LEFT":
                new = _same_style(model, original, "inner join")
            else:
                continue
            table = p.text[slice(*p.tok_range(first, first))]
            site = _site(
                self.name,
                model,
                start,
                f"{original} {table}",
                [Choice((_replace(start, end, new),), f"{original} → {new} ({table})")],
            )
            if site:
                yield site


@register_operator
class JoinKey(Operator):
    """A join on the wrong key: a sibling key column of the same table (``customer_id`` for
    ``order_id``, the refund date for the order date) matches the wrong rows."""

    name = "join_key"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        for join in model.parsed.tree.find_all(exp.Join):
            on = join.args.get("on")
            if on is None:
                continue
            for eq in on.find_all(exp.EQ):
                for column in (eq.left, eq.right):
                    if not isinstance(column, exp.Column) or not column.table:
                        continue
                    ident = column.this
                    pos = ident.meta.get("start") if ident.meta else None
                    if pos is None:
                        continue
                    index = model.parsed.token_at(int(pos))
                    if index is None:
                        continue
                    start, end = model.parsed.tok_range(index, index)
                    siblings = [
                        c
                        for c in model.relation_for(join, column.table)
                        if c.lower() != column.name.lower()
                        and _key_family(c) == _key_family(column.name)
                        and _key_family(c)
                    ]
                    choices = [
                        Choice(
                            (_replace(start, end, sib),),
                            f"join on {column.table}.{sib} instead of {column.table}.{column.name}",
                        )
                        for sib in sorted(set(siblings))[:6]
                    ]
                    site = _site(
                        self.name, model, start, f"{column.table}.{column.name} in a join", choices
                    )
                    if site:
                        yield site


def _where_keyword(model: ModelSql, where: Node) -> int | None:
    first = _first_token(model, where.this)
    if first is None:
        return None
    k = first - 1
    while model.parsed.word(k) == "(" and k > 0:
        k -= 1
    return k if model.parsed.word(k) in ("where", "having", "qualify") else None


def _conjuncts(cond: Node) -> list[Node]:
    if isinstance(cond, exp.And):
        return [*_conjuncts(cond.left), *_conjuncts(cond.right)]
    return [cond]


@register_operator
class FilterPredicate(Operator):
    """A filter condition dropped or inverted: test accounts, cancelled orders or duplicates
    leak into a model, or exactly the wanted rows are thrown away."""

    name = "filter_predicate"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for where in p.tree.find_all(exp.Where, exp.Having):
            keyword = _where_keyword(model, where)
            span = p.span(where.this)
            if keyword is None or span is None:
                continue
            in_filter = isinstance(where.parent, exp.Filter)
            cond_start, cond_end = span
            choices: list[Choice] = []
            parts = _conjuncts(where.this)
            if len(parts) == 1 and not in_filter:
                kw_start = p.tok_range(keyword, keyword)[0]
                choices.append(
                    Choice(
                        (Edit(kw_start, cond_end, ""),),
                        f"dropped `{model.text(kw_start, cond_end)}`",
                    )
                )
            elif len(parts) > 1:
                for i, part in enumerate(parts):
                    part_span = p.span(part)
                    if part_span is None:
                        continue
                    if i == 0:
                        nxt = p.span(parts[1])
                        if nxt is None:
                            continue
                        edit = Edit(part_span[0], nxt[0], "")
                    else:
                        prev = p.span(parts[i - 1])
                        if prev is None:
                            continue
                        edit = Edit(prev[1], part_span[1], "")
                    choices.append(
                        Choice((edit,), f"dropped `{model.text(*part_span)}` from a filter")
                    )
            inner = model.text(cond_start, cond_end)
            choices.append(
                Choice(
                    (Edit(cond_start, cond_end, f"{model.kw('not')} ({inner})"),),
                    f"negated `{' '.join(inner.split())}`",
                )
            )
            site = _site(
                self.name, model, cond_start, f"filter {' '.join(inner.split())[:60]}", choices
            )
            if site:
                yield site


_FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}


@register_operator
class Boundary(Operator):
    """An off-by-one boundary: ``<`` for ``<=`` (or back) drops or adds the rows exactly on a
    period edge, and an interval one day or one hour too long or short shifts a window."""

    name = "boundary"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.LT, exp.LTE, exp.GT, exp.GTE):
            left = p.node_tokens(node.left)
            right = p.node_tokens(node.right)
            if left is None or right is None or right[0] - left[1] != 2:
                continue
            op = left[1] + 1
            text = p.tokens[op].text
            if text not in _FLIP:
                continue
            start, end = p.tok_range(op, op)
            site = _site(
                self.name,
                model,
                start,
                f"comparison {text}",
                [Choice((Edit(start, end, _FLIP[text]),), f"{text} → {_FLIP[text]}")],
            )
            if site:
                yield site
        for interval in p.tree.find_all(exp.Interval):
            tokens = p.node_tokens(interval)
            if tokens is None:
                continue
            choices = []
            for i in range(tokens[0], tokens[1] + 1):
                token = p.tokens[i]
                if token.token_type == TokenType.NUMBER and token.text.isdigit():
                    value = int(token.text)
                    start, end = p.tok_range(i, i)
                    for new in (value + 1, value - 1):
                        if new >= 0:
                            choices.append(
                                Choice((Edit(start, end, str(new)),), f"interval {value} → {new}")
                            )
                elif token.token_type == TokenType.STRING:
                    match = re.fullmatch(r"(\d+)(\s*\w+)", token.text)
                    if match:
                        value = int(match.group(1))
                        start, end = p.tok_range(i, i)
                        for new in (value + 1, value - 1):
                            if new >= 0:
                                quoted = f"'{new}{match.group(2)}'"
                                choices.append(
                                    Choice(
                                        (Edit(start, end, quoted),),
                                        f"interval {token.text} → {quoted}",
                                    )
                                )
            site = _site(self.name, model, p.tok_range(*tokens)[0], "interval", choices)
            if site:
                yield site


_AGG_SWAPS = {
    "sum": ("avg", "count", "max"),
    "avg": ("sum", "median"),
    "min": ("max",),
    "max": ("min",),
    "count": ("sum",),
}


@register_operator
class AggregateSwap(Operator):
    """The wrong aggregate: an average where a total was meant (or a count, a max), ``count``
    where ``count(distinct …)`` was meant so a fan-out is counted twice."""

    name = "aggregate_swap"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for node in p.tree.find_all(exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Count):
            if node.find_ancestor(exp.Window) is not None and isinstance(node.parent, exp.Window):
                continue
            index = _function_name_token(model, node)
            if index is None:
                continue
            name = p.word(index)
            if name not in _AGG_SWAPS:
                continue
            start, end = p.tok_range(index, index)
            original = p.tokens[index].text
            choices = []
            arg = node.this
            is_star = isinstance(arg, exp.Star)
            distinct = isinstance(arg, exp.Distinct)
            if name == "count":
                if not is_star and not distinct and p.word(index + 2) not in ("*", "distinct"):
                    open_end = p.tok_range(index + 1, index + 1)[1]
                    choices.append(
                        Choice(
                            (Edit(open_end, open_end, model.kw("distinct") + " "),),
                            "count → count distinct",
                        )
                    )
                if is_star or distinct:
                    continue
            for new in _AGG_SWAPS[name]:
                if new == "count" and name == "sum":
                    pass
                if name == "count" and new == "sum" and (is_star or distinct):
                    continue
                choices.append(
                    Choice(
                        (Edit(start, end, _same_style(model, original, new)),), f"{name} → {new}"
                    )
                )
            site = _site(self.name, model, start, f"{name}(…)", choices)
            if site:
                yield site


@register_operator
class RemoveDistinct(Operator):
    """A deduplication removed: ``select distinct`` / ``count(distinct …)`` without its
    ``distinct``, or a ``qualify row_number() … = 1`` dropped, so duplicates flow through."""

    name = "remove_distinct"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for i, token in enumerate(p.tokens):
            if token.token_type != TokenType.DISTINCT:
                continue
            if p.word(i - 1) not in ("select", "("):
                continue
            start, end = p.tok_range(i, i)
            where = (
                "select distinct" if p.word(i - 1) == "select" else f"{p.word(i - 2)}(distinct …)"
            )
            site = _site(
                self.name,
                model,
                start,
                where,
                [Choice((_delete_with_space(model, start, end),), f"removed distinct ({where})")],
            )
            if site:
                yield site
        for select in p.tree.find_all(exp.Select):
            qualify = select.args.get("qualify")
            if qualify is None:
                continue
            keyword = _where_keyword(model, qualify)
            span = p.span(qualify.this)
            if keyword is None or span is None:
                continue
            start = p.tok_range(keyword, keyword)[0]
            site = _site(
                self.name,
                model,
                start,
                "qualify dedup",
                [Choice((Edit(start, span[1], ""),), f"dropped `{model.text(start, span[1])}`")],
            )
            if site:
                yield site


@register_operator
class WindowSpec(Operator):
    """A window over the wrong rows: partitioned by a sibling key, or ordered without its
    tie-breaker or in the wrong direction, so ``row_number``/running totals pick other rows."""

    name = "window_spec"

    def sites(self, model: ModelSql) -> Iterator[Site]:
        p = model.parsed
        for window in p.tree.find_all(exp.Window):
            choices: list[Choice] = []
            for column in window.args.get("partition_by") or []:
                if not isinstance(column, exp.Column):
                    continue
                ident = column.this
                pos = ident.meta.get("start") if ident.meta else None
                index = p.token_at(int(pos)) if pos is not None else None
                if index is None:
                    continue
                start, end = p.tok_range(index, index)
                siblings = (
                    model.relation_for(window, column.table)
                    if column.table
                    else model.output_columns(window.find_ancestor(exp.Select) or window)
                )
                for sib in sorted(
                    {
                        c
                        for c in siblings
                        if c.lower() != column.name.lower() and _key_family(c) == "_id"
                    }
                )[:4]:
                    choices.append(
                        Choice(
                            (Edit(start, end, sib),), f"partition by {sib} instead of {column.name}"
                        )
                    )
            order = window.args.get("order")
            if order is not None:
                keys = list(order.expressions)
                if len(keys) > 1:
                    last = p.span(keys[-1])
                    prev = p.span(keys[-2])
                    if last is not None and prev is not None:
                        choices.append(
                            Choice(
                                (Edit(prev[1], last[1], ""),),
                                f"dropped tie-breaker {model.text(*last)}",
                            )
                        )
                if keys:
                    first = keys[0]
                    span = p.span(first)
                    if span is not None:
                        text = model.text(*span)
                        if first.args.get("desc"):
                            new = re.sub(r"\s+desc\b", "", text, flags=re.IGNORECASE)
                        else:
                            new = f"{text} {model.kw('desc')}"
                        if new != text:
                            choices.append(
                                Choice((Edit(span[0], span[1], new),), f"order {text} → {new}")
                            )
            tokens = p.node_tokens(window)
            if tokens is None:
                continue
            site = _site(self.name, model, p.tok_range(*tokens)[0], "window", choices)
            if site:
                yield site
