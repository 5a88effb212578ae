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

# Importing the two modules registers their operators (the registry lists them by name).
from replicas.factory.operators import expressions as _expressions  # noqa: F401
from replicas.factory.operators import structure as _structure  # noqa: F401
from replicas.factory.operators.base import (
    OPERATORS,
    OPERATORS_VERSION,
    Choice,
    ModelSql,
    Operator,
    Site,
    all_operators,
    get_operator,
    register_operator,
)

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
