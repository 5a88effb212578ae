"""The replica registry: which domains the kit can build, and what each one is made of.

A replica is a generator (seed, scale → raw tables) plus a dbt project. Replicas register here by
name; the build pipeline, the CLI and the task families look them up instead of branching on names.
Users add their own with :func:`register_replica`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import polars as pl

from replicas.registry import Registry

Generator = Callable[[int, float], Mapping[str, pl.DataFrame]]

MAX_SCALE = 20.0


@dataclass(frozen=True)
class ReplicaSpec:
    """How to build one replica.

    ``generator`` is a dotted path (``module:function``) rather than a callable so that listing
    replicas never imports numpy-heavy generator modules.
    """

    name: str
    description: str
    generator: str
    dbt_project: Path
    default_scale: float = 0.01
    max_scale: float = MAX_SCALE
    marts: tuple[str, ...] = field(default_factory=tuple)
    #: Files outside the generator's code and the dbt project that shape the data (an imported
    #: replica's synthesis schema): hashed into the build's cache key.
    extra_inputs: tuple[Path, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"replica name must be an identifier, got {self.name!r}")
        if ":" not in self.generator:
            raise ValueError(f"generator must be 'module:function', got {self.generator!r}")
        if not 0 < self.default_scale <= self.max_scale:
            raise ValueError(f"default_scale must lie in (0, {self.max_scale}]")

    def load_generator(self) -> Generator:
        module_name, _, attr = self.generator.partition(":")
        fn: Generator = getattr(importlib.import_module(module_name), attr)
        return fn


def _load_imports() -> None:
    """Replicas imported with ``replicas import dbt`` (under ``$REPLICAS_HOME/imports``)."""
    from replicas.importer.store import register_imports

    register_imports()


REPLICAS: Registry[ReplicaSpec] = Registry(
    "replica", loader=_load_imports, same=lambda old, new: old == new
)


def register_replica(spec: ReplicaSpec, *, replace: bool = False) -> ReplicaSpec:
    """Make ``spec`` buildable under ``spec.name``."""
    return REPLICAS.register(spec.name, spec, replace=replace)


def get_replica(name: str) -> ReplicaSpec:
    """The spec for ``name``; the error lists the known replicas (the CLI shows it verbatim)."""
    return REPLICAS.get(name)


def all_replicas() -> list[ReplicaSpec]:
    return REPLICAS.values()


def _shipped_project(name: str) -> Path:
    return Path(str(resources.files("replicas.dbt_projects") / name))


register_replica(
    ReplicaSpec(
        name="ecommerce",
        description=(
            "Data engineering: a seeded online store (orders, items, payments, refunds, FX, "
            "web events, promotions) in DuckDB with a staging → intermediate → marts dbt project."
        ),
        generator="replicas.generators.ecommerce:generate",
        dbt_project=_shipped_project("ecommerce"),
        marts=(
            "fct_orders",
            "fct_order_items",
            "dim_customers",
            "dim_products",
            "fct_daily_revenue",
            "fct_customer_cohorts",
            "fct_sessions",
        ),
    )
)
register_replica(
    ReplicaSpec(
        name="credit_cards",
        description=(
            "Compliance: a seeded catalog of credit-card products with every Schumer-box term, "
            "customers with credit histories and spend, eligibility and card-value marts."
        ),
        generator="replicas.generators.credit_cards:generate",
        dbt_project=_shipped_project("credit_cards"),
        # card_spend is a customers × 24 months × 6 categories grid: scale 2 is ~29M rows already.
        max_scale=2.0,
        marts=(
            "card_terms",
            "card_rewards_terms",
            "customer_profile",
            "card_eligibility",
            "card_value",
            "best_card",
        ),
    )
)
register_replica(
    ReplicaSpec(
        name="ecommerce_enterprise",
        description=(
            "Data engineering at enterprise sprawl: the same store with 41 raw tables from ten "
            "systems and a 131-model dbt project (incremental models, snapshots, seeds, "
            "contracts, unit tests, exposures, a semantic layer, docs and a vendored macro "
            "package), duplicate identities, late-arriving rows and business-day FX."
        ),
        generator="replicas.generators.ecommerce_enterprise:generate",
        dbt_project=_shipped_project("ecommerce_enterprise"),
        max_scale=5.0,
        marts=(
            "fct_orders",
            "fct_revenue_recognized",
            "dim_customers",
            "dim_persons",
            "dim_products_history",
            "fct_ad_spend_daily",
            "fct_tickets",
        ),
    )
)
