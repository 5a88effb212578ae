"""Mutation operators over dbt models: each one a real-world bug, found through the sqlglot AST.

An operator walks the parsed model (Jinja masked, see :mod:`replicas.factory.sqltext`) for the
nodes it can break — joins, filters, comparisons, aggregates, windows, ``coalesce``, ``case``,
date truncations, unions, rounding, status lists — and proposes a :class:`Site`: a place in the
model with one or more alternative mutations (:class:`Choice`), each a list of token-precise
edits of the raw SQL. The model's formatting, comments and Jinja stay as they were, so the
broken file reads like a colleague's edit, not a machine rewrite. Which alternative a task uses
is drawn from the seed (``replicas.factory.candidates``).

Operators never execute anything; whether a mutant builds and changes a graded mart is decided
by execution (``replicas.factory.validate``). Every operator is registered under its name in
:data:`OPERATORS` and its docstring names the bug it models. A behaviour change of an operator
changes the tasks it produces: bump :data:`OPERATORS_VERSION` (and the factory families'
versions) with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from sqlglot import exp
from sqlglot.tokens import TokenType

from replicas.factory.project import ModelInfo, ProjectInfo
from replicas.factory.sqltext import Alignment, Edit, MaskedSql, Parsed
from replicas.registry import Registry

if TYPE_CHECKING:
    from replicas.factory.sqltext import Node

__all__ = [
    "OPERATORS",
    "OPERATORS_VERSION",
    "Choice",
    "ModelSql",
    "Operator",
    "Site",
    "all_operators",
    "get_operator",
    "register_operator",
]

#: Bump when any operator's sites or choices change: task ids would mean other mutants.
OPERATORS_VERSION = 1


@dataclass(frozen=True)
class Choice:
    """One concrete mutation: edits of the raw model SQL and what they do (never shown to
    agents: the task describes the symptom, not the edit)."""

    edits: tuple[Edit, ...]
    note: str

    def __post_init__(self) -> None:
        if not self.edits:
            raise ValueError("a choice needs at least one edit")
        object.__setattr__(self, "edits", tuple(self.edits))


@dataclass(frozen=True)
class Site:
    """A place in one model where ``operator`` can break it, with its alternatives."""

    operator: str
    model: str
    anchor: int
    what: str
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        if not self.choices:
            raise ValueError("a site needs at least one choice")
        object.__setattr__(self, "choices", tuple(self.choices))


@dataclass
class ModelSql:
    """A model ready for mutation: raw SQL masked and parsed, aligned with its compiled SQL."""

    info: ModelInfo
    project: ProjectInfo
    masked: MaskedSql
    parsed: Parsed
    alignment: Alignment

    @property
    def raw(self) -> str:
        return self.masked.raw

    def text(self, start: int, end: int) -> str:
        return self.masked.raw[start:end]

    def lowercase(self) -> bool:
        """Whether the model writes SQL keywords in lower case (new keywords follow suit)."""
        words = [t.text for t in self.parsed.tokens if t.token_type == TokenType.SELECT]
        return not words or all(w == w.lower() for w in words)

    def kw(self, word: str) -> str:
        return word.lower() if self.lowercase() else word.upper()

    def relation_for(self, node: Node, alias: str) -> list[str]:
        """Columns of the relation called ``alias`` in the SELECT enclosing ``node``."""
        select = node.find_ancestor(exp.Select)
        while select is not None:
            for table in _tables_of(select):
                name = table.alias_or_name
                if name.lower() == alias.lower():
                    return self._columns_of_table(table, select)
            select = select.find_ancestor(exp.Select)
        return []

    def _columns_of_table(self, table: exp.Table, scope: Node) -> list[str]:
        name = table.name
        span = self.masked.span_of_placeholder(name)
        if span is not None:
            index = self.masked.spans.index(span)
            return self.project.relation_columns(self.alignment.rendered(index))
        cte = _find_cte(scope, name)
        if cte is None:
            return []
        return self.output_columns(cte.this)

    def output_columns(self, query: Node) -> list[str]:
        """Output column names of a SELECT (``*`` expanded through its FROM relation)."""
        if isinstance(query, exp.Union):
            return self.output_columns(query.left)
        if not isinstance(query, exp.Select):
            return []
        out: list[str] = []
        for projection in query.expressions:
            if isinstance(projection, exp.Star):
                for table in _tables_of(query):
                    out.extend(self._columns_of_table(table, query))
            elif isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
                starred = next(
                    (t for t in _tables_of(query) if t.alias_or_name == projection.table), None
                )
                if starred is not None:
                    out.extend(self._columns_of_table(starred, query))
            elif projection.alias_or_name:
                out.append(projection.alias_or_name)
        return out


def _tables_of(select: exp.Select) -> list[exp.Table]:
    out: list[exp.Table] = []
    source = select.args.get("from") or select.args.get("from_")
    if source is not None and isinstance(source.this, exp.Table):
        out.append(source.this)
    for join in select.args.get("joins") or []:
        if isinstance(join.this, exp.Table):
            out.append(join.this)
    return out


def _find_cte(scope: Node, name: str) -> exp.CTE | None:
    node: Node | None = scope
    while node is not None:
        with_ = node.args.get("with") or node.args.get("with_")
        if with_ is not None:
            for cte in with_.expressions:
                if cte.alias.lower() == name.lower():
                    return cte
        node = node.parent
    return None


class Operator:
    """Base class: ``name``, the bug in the docstring, ``sites`` finds where it applies."""

    name: ClassVar[str]

    def sites(self, model: ModelSql) -> Iterator[Site]:
        raise NotImplementedError

    @property
    def bug(self) -> str:
        """The real-world bug this operator models (first paragraph of its docstring)."""
        return " ".join((type(self).__doc__ or "").strip().split("\n\n")[0].split())


OPERATORS: Registry[Operator] = Registry("mutation operator")


def register_operator(cls: type[Operator]) -> type[Operator]:
    """Class decorator: register one operator under its ``name``."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", getattr(cls, "name", "")):
        raise ValueError(f"{cls.__qualname__}: operator names are snake_case")
    if not (cls.__doc__ or "").strip():
        raise ValueError(f"{cls.__qualname__}: say in the docstring which bug it models")
    OPERATORS.register(cls.name, cls(), replace=True)
    return cls


def get_operator(name: str) -> Operator:
    return OPERATORS.get(name)


def all_operators() -> list[Operator]:
    return OPERATORS.values()


# --------------------------------------------------------------------------------------------
# helpers


def _site(
    op: str, model: ModelSql, anchor: int, what: str, choices: Sequence[Choice]
) -> Site | None:
    good = [c for c in choices if c.edits]
    return Site(op, model.info.name, anchor, what, tuple(good)) if good else None


def _replace(start: int, end: int, text: str) -> Edit:
    return Edit(start, end, text)


def _delete_with_space(model: ModelSql, start: int, end: int) -> Edit:
    """Delete ``[start, end)`` and the whitespace after it (so no double blank remains)."""
    raw = model.raw
    while end < len(raw) and raw[end] in " \t":
        end += 1
    return Edit(start, end, "")


def _first_token(model: ModelSql, node: Node) -> int | None:
    tokens = model.parsed.node_tokens(node)
    return None if tokens is None else tokens[0]


def _function_name_token(model: ModelSql, node: Node) -> int | None:
    pos = node.meta.get("start") if node.meta else None
    if pos is None:
        return None
    index = model.parsed.token_at(int(pos))
    if index is None or model.parsed.word(index + 1) != "(":
        return None
    return index


def _same_style(model: ModelSql, original: str, word: str) -> str:
    return word.upper() if original.isupper() else word.lower()


def _is_key_like(column: str) -> bool:
    return column.lower().endswith(("_id", "_key", "_code", "_number", "_date", "_month"))


def _key_family(column: str) -> str:
    low = column.lower()
    for suffix in ("_id", "_key", "_code", "_number", "_date", "_month"):
        if low.endswith(suffix):
            return suffix
    return ""


# --------------------------------------------------------------------------------------------
# the operators


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
