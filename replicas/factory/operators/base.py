"""The operator model: sites, choices, the parsed model, the registry and shared helpers."""

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
