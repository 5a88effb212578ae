"""The enterprise project's deployment knobs (``replicas.factory.deploy``): business rules each
seed's company sets its own way, for ``multi_layer_incident-v3``.

One rule, chosen because it reaches both graded marts (``fct_revenue_recognized`` through
``recognized_date`` and the FX date, ``fct_orders`` through ``delivered_date``), lives in one
model (``int_orders``) that none of the family's defects edits, and keeps every project test
passing: when a delivery confirmed just after midnight UTC belongs to the previous day (the
carrier confirms overnight deliveries in a batch). Moving dates back, never forward, keeps every
recognition date inside the FX calendar (it starts before the first delivery; a later date could
fall past its end). Each alternative rewrites the SQL and every sentence of the project that
states the rule: the two column docs of ``delivered_date``, the recognition date's, the Finance
fact's description and SQL comment, the governed metric and the revenue-recognition docs page.
"""

from __future__ import annotations

from replicas.factory.deploy import Choice, Knob, Replace, register_knobs

__all__ = ["KNOBS"]

REPLICA = "ecommerce_enterprise"
_SQL = "models/intermediate/commerce/int_orders.sql"
_INT_YML = "models/intermediate/commerce/_commerce__models.yml"
_MART_YML = "models/marts/commerce/_commerce__models.yml"
_FIN_SQL = "models/marts/finance/fct_revenue_recognized.sql"
_FIN_YML = "models/marts/finance/_finance__models.yml"
_METRICS = "models/semantic/_metrics.yml"
_DOCS = "models/docs/revenue_recognition.md"


def _cutoff(hours: int) -> Choice:
    clock = f"{hours:02d}:00"
    column_doc = (
        f"  - name: delivered_date\n    description: Delivery date, the UTC calendar date of "
        f"delivered_at minus {hours} hours (a delivery confirmed before {clock} UTC belongs to "
        "the previous day; the carrier confirms overnight deliveries in one batch)."
    )
    shipped_doc = "  - name: delivered_date\n    description: UTC calendar date of delivered_at."
    return Choice(
        f"a delivery confirmed before {clock} UTC belongs to the previous day",
        (
            Replace(
                _SQL,
                "cast(orders.delivered_at as date) as delivered_date",
                f"cast(orders.delivered_at - interval {hours} hour as date) as delivered_date",
            ),
            Replace(_INT_YML, shipped_doc, column_doc),
            Replace(_MART_YML, shipped_doc, column_doc),
            Replace(
                _FIN_SQL,
                "-- Finance's revenue: recognised on delivery (UTC date of delivered_at), net",
                f"-- Finance's revenue: recognised on delivery (UTC date of delivered_at - {hours} "
                "hours), net",
            ),
            Replace(
                _FIN_YML,
                "recognised on recognized_date = UTC date of delivered_at.",
                f"recognised on recognized_date = the delivery date (UTC date of delivered_at "
                f"minus {hours} hours: a delivery confirmed before {clock} UTC belongs to the "
                "previous day).",
            ),
            Replace(
                _FIN_YML,
                "'Revenue recognition date: UTC date of delivery.'",
                f"'Revenue recognition date: the delivery date (UTC date of delivered_at minus "
                f"{hours} hours).'",
            ),
            Replace(
                _METRICS,
                "recognised on delivery date (UTC), items minus",
                f"recognised on delivery date (UTC date of delivered_at minus {hours} hours), "
                "items minus",
            ),
            Replace(
                _DOCS,
                "it was **delivered**\n  (`recognized_date`).",
                "it was **delivered**\n  (`recognized_date`), where a delivery confirmed before "
                f"{clock} UTC belongs to the\n  previous day (the carrier confirms overnight "
                "deliveries in one batch).",
            ),
        ),
    )


DELIVERY_CUTOFF = Knob(
    name="delivery_day_cutoff",
    model="int_orders",
    shipped="an order's delivery date is the UTC calendar date of delivered_at",
    choices=(_cutoff(2), _cutoff(4)),
)

KNOBS = (DELIVERY_CUTOFF,)
register_knobs(REPLICA, KNOBS)
