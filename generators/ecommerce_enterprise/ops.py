"""Operations: fulfilment (shipments, carrier events), inventory (warehouses, stock, purchase
orders, suppliers) and customer support (tickets, events, agents, CSAT)."""

from __future__ import annotations

import numpy as np
import polars as pl

from replicas.generators.ecommerce_enterprise._util import (
    US_PER_DAY,
    US_PER_HOUR,
    US_PER_MIN,
    from_micros,
    late_lag_us,
    local_time,
    nullable_time,
    with_nulls,
)
from replicas.seeding import table_rng

WAREHOUSES = (
    (1, "Newark DC", "US", "America/New_York"),
    (2, "Reno DC", "US", "America/Los_Angeles"),
    (3, "Toronto DC", "CA", "America/Toronto"),
    (4, "Venlo DC", "NL", "Europe/Amsterdam"),
    (5, "Coventry DC", "GB", "Europe/London"),
)
CARRIERS = (
    (1, "UPS", "ground"),
    (2, "FedEx", "express"),
    (3, "DHL", "international"),
    (4, "Royal Mail", "standard"),
    (5, "Canada Post", "standard"),
    (6, "PostNL", "standard"),
)
_EU = ("IE", "DE", "FR", "NL", "ES", "IT", "BE", "AT")
END_US = int(np.datetime64("2026-06-30T23:59:59", "us").astype(np.int64))


def warehouses() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "warehouse_id": [w[0] for w in WAREHOUSES],
            "warehouse_name": [w[1] for w in WAREHOUSES],
            "country_code": [w[2] for w in WAREHOUSES],
            "timezone": [w[3] for w in WAREHOUSES],
        }
    )


def carriers() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "carrier_id": [c[0] for c in CARRIERS],
            "carrier_name": [c[1] for c in CARRIERS],
            "service_level": [c[2] for c in CARRIERS],
        }
    )


def _warehouse_for(country: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    us_wh = np.where(rng.random(country.size) < 0.6, 1, 2)
    return np.select(
        [country == "US", country == "CA", country == "GB", np.isin(country, _EU)],
        [us_wh, 3, 5, 4],
        default=1,
    )


def shipments(seed: int, orders: pl.DataFrame, cust: pl.DataFrame) -> pl.DataFrame:
    """``ful_shipments``: one per shipped order (a few split into two parcels)."""
    rng = table_rng(seed, "ent_ful_shipments")
    shipped = orders.filter(pl.col("shipped_at").is_not_null()).join(
        cust.select("customer_id", "country_code"), on="customer_id", how="left"
    )
    n = shipped.height
    split = rng.random(n) < 0.05
    rep = np.where(split, 2, 1)
    idx = np.repeat(np.arange(n), rep)
    m = idx.size
    country = shipped["country_code"].fill_null("US").to_numpy()[idx]
    wh = _warehouse_for(country, rng)
    carrier = np.select([country == "GB", country == "CA", np.isin(country, _EU)], [4, 5, 6], 1)
    carrier = np.where(rng.random(m) < 0.25, np.where(np.isin(country, _EU), 3, 2), carrier)
    ship_us = (
        shipped["shipped_at"].dt.epoch("us").to_numpy()[idx] + rng.integers(0, 6, m) * US_PER_HOUR
    )
    deliv = shipped["delivered_at"].dt.epoch("us").fill_null(-1).to_numpy()[idx]
    return pl.DataFrame(
        {
            "shipment_id": np.arange(1, m + 1, dtype=np.int64),
            "order_id": shipped["order_id"].to_numpy()[idx],
            "warehouse_id": wh,
            "carrier_id": carrier,
            "shipped_at": from_micros(np.minimum(ship_us, END_US)),
            "delivered_at": nullable_time(deliv, deliv < 0),
            "shipping_cost": np.round(rng.gamma(3.0, 2.4, m) + 2, 2),
            "currency_code": shipped["currency"].to_numpy()[idx],
            "weight_kg": np.round(rng.gamma(2.0, 0.9, m), 3),
        }
    )


def shipment_events(seed: int, ship: pl.DataFrame, wh: pl.DataFrame) -> pl.DataFrame:
    """``ful_shipment_events``: carrier scans; ~6 % reach us 2–10 days late (``_loaded_at``)."""
    rng = table_rng(seed, "ent_ful_shipment_events")
    parts = [
        ship.select("shipment_id", pl.lit("label_created").alias("event_type"),
                    (pl.col("shipped_at") - pl.duration(hours=3)).alias("event_at")),
        ship.select("shipment_id", pl.lit("picked_up").alias("event_type"), pl.col("shipped_at").alias("event_at")),
        ship.filter(pl.col("delivered_at").is_not_null()).select(
            "shipment_id", pl.lit("out_for_delivery").alias("event_type"),
            (pl.col("delivered_at") - pl.duration(hours=5)).alias("event_at")),
        ship.filter(pl.col("delivered_at").is_not_null()).select(
            "shipment_id", pl.lit("delivered").alias("event_type"), pl.col("delivered_at").alias("event_at")),
    ]  # fmt: skip
    transit = ship.filter(pl.col("delivered_at").is_not_null()).select(
        "shipment_id",
        pl.lit("in_transit").alias("event_type"),
        (pl.col("shipped_at") + (pl.col("delivered_at") - pl.col("shipped_at")) / 2)
        .dt.truncate("1m")
        .alias("event_at"),
    )
    ev = pl.concat([*parts, transit]).sort("event_at", "shipment_id", "event_type")
    ev = ev.join(ship.select("shipment_id", "warehouse_id"), on="shipment_id", how="left").join(
        wh.select("warehouse_id", "timezone"), on="warehouse_id", how="left"
    )
    lag = late_lag_us(rng, ev.height, 0.06)
    return ev.with_columns(
        pl.Series("shipment_event_id", np.arange(1, ev.height + 1, dtype=np.int64)),
        local_time(pl.col("event_at"), pl.col("timezone")).alias("event_at_local"),
        (pl.col("event_at").dt.epoch("us") + pl.Series(lag))
        .cast(pl.Datetime("us"))
        .alias("_loaded_at"),
    ).select(
        "shipment_event_id", "shipment_id", "event_type", "event_at", "event_at_local", "_loaded_at"
    )


def suppliers(seed: int, n_brands: int) -> pl.DataFrame:
    rng = table_rng(seed, "ent_inv_suppliers")
    n = max(8, n_brands // 3)
    return pl.DataFrame(
        {
            "supplier_id": np.arange(1, n + 1, dtype=np.int64),
            "supplier_name": [f"Supplier {i:03d}" for i in range(1, n + 1)],
            "country_code": np.array(("CN", "VN", "US", "DE", "MX", "IN"))[rng.integers(0, 6, n)],
            "lead_time_days": rng.integers(7, 60, n),
        }
    )


def stock_snapshots(seed: int, products: pl.DataFrame) -> pl.DataFrame:
    """``inv_stock_snapshots``: month-end stock per warehouse and product (NULL when not counted)."""
    rng = table_rng(seed, "ent_inv_stock_snapshots")
    months = pl.date_range(
        pl.date(2024, 1, 31), pl.date(2026, 6, 30), "1mo", eager=True
    ).dt.month_end()
    grid = (
        products.select("product_id")
        .join(pl.DataFrame({"warehouse_id": [w[0] for w in WAREHOUSES]}), how="cross")
        .join(pl.DataFrame({"snapshot_date": months}), how="cross")
    )
    n = grid.height
    on_hand = rng.poisson(40, n)
    on_hand[rng.random(n) < 0.07] = 0
    counted = rng.random(n) > 0.01
    return grid.with_columns(
        with_nulls(on_hand.astype(np.int64), ~counted).alias("on_hand_units"),
        pl.Series("reserved_units", rng.poisson(3, n)),
    ).select("snapshot_date", "warehouse_id", "product_id", "on_hand_units", "reserved_units")


def purchase_orders(seed: int, products: pl.DataFrame, n_suppliers: int) -> pl.DataFrame:
    rng = table_rng(seed, "ent_inv_purchase_orders")
    n = products.height * 6
    start = int(np.datetime64("2024-01-01T00:00:00", "us").astype(np.int64))
    ordered = start + rng.integers(0, 900, n) * US_PER_DAY
    expected = ordered + rng.integers(7, 60, n) * US_PER_DAY
    received = expected + rng.integers(-5, 15, n) * US_PER_DAY
    received = np.where((received > END_US) | (rng.random(n) < 0.03), -1, received)
    pidx = rng.integers(0, products.height, n)
    return pl.DataFrame(
        {
            "purchase_order_id": np.arange(1, n + 1, dtype=np.int64),
            "supplier_id": rng.integers(1, n_suppliers + 1, n),
            "warehouse_id": rng.integers(1, len(WAREHOUSES) + 1, n),
            "product_id": products["product_id"].to_numpy()[pidx],
            "ordered_at": from_micros(ordered),
            "expected_at": from_micros(expected),
            "received_at": nullable_time(received, received < 0),
            "quantity": rng.integers(20, 400, n),
            "unit_cost_usd": np.round(
                products["cost_usd"].to_numpy()[pidx] * rng.uniform(0.9, 1.1, n), 2
            ),
        }
    ).sort("ordered_at", "purchase_order_id")


TEAMS = ("tier1", "tier2", "billing", "returns")
TICKET_CATEGORIES = (
    "where_is_my_order",
    "return_request",
    "damaged_item",
    "billing",
    "account",
    "other",
)


def support_agents(seed: int) -> pl.DataFrame:
    rng = table_rng(seed, "ent_sup_agents")
    n = 24
    return pl.DataFrame(
        {
            "agent_id": np.arange(1, n + 1, dtype=np.int64),
            "agent_name": [f"Agent {i:02d}" for i in range(1, n + 1)],
            "team": np.array(TEAMS)[rng.integers(0, len(TEAMS), n)],
            "hired_at": from_micros(
                int(np.datetime64("2022-01-01", "us").astype(np.int64))
                + rng.integers(0, 1200, n) * US_PER_DAY
            ),
            "is_active": rng.random(n) < 0.85,
        }
    )


def tickets(seed: int, orders: pl.DataFrame) -> pl.DataFrame:
    """``sup_tickets``: ~8 % of orders raise a ticket; response/resolution times heavy-tailed."""
    rng = table_rng(seed, "ent_sup_tickets")
    pick = rng.random(orders.height) < 0.08
    sub = orders.filter(pl.Series(pick))
    n = sub.height
    created = sub["created_at"].dt.epoch("us").to_numpy() + rng.integers(1, 20, n) * US_PER_DAY
    created = np.minimum(created, END_US - 3 * US_PER_DAY)
    first = created + (rng.gamma(1.3, 5.0, n) * US_PER_HOUR).astype(np.int64)
    no_resp = rng.random(n) < 0.03
    resolved = first + (rng.gamma(1.5, 20.0, n) * US_PER_HOUR).astype(np.int64)
    open_ = (resolved > END_US) | (rng.random(n) < 0.04)
    priority = np.array(("low", "normal", "high", "urgent"))[
        rng.choice(4, size=n, p=[0.3, 0.5, 0.15, 0.05])
    ]
    return (
        pl.DataFrame(
            {
                "ticket_id": np.arange(1, n + 1, dtype=np.int64),
                "customer_id": sub["customer_id"],
                "order_id": sub["order_id"],
                "channel": np.array(("email", "chat", "phone"))[rng.integers(0, 3, n)],
                "category": np.array(TICKET_CATEGORIES)[rng.integers(0, len(TICKET_CATEGORIES), n)],
                "priority": priority,
                "created_at": from_micros(created),
                "first_response_at": nullable_time(np.minimum(first, END_US), no_resp),
                "resolved_at": nullable_time(resolved, open_ | no_resp),
                "ticket_status": np.where(open_ | no_resp, "open", "solved"),
                "agent_id": rng.integers(1, 25, n),
            }
        )
        .sort("created_at", "ticket_id")
        .with_columns(pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("ticket_id"))
    )


def ticket_events(seed: int, tk: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_sup_ticket_events")
    parts = [
        tk.select("ticket_id", pl.lit("created").alias("event_type"), pl.col("created_at").alias("event_at")),
        tk.filter(pl.col("first_response_at").is_not_null()).select(
            "ticket_id", pl.lit("agent_reply").alias("event_type"), pl.col("first_response_at").alias("event_at")),
        tk.filter(pl.col("resolved_at").is_not_null()).select(
            "ticket_id", pl.lit("solved").alias("event_type"), pl.col("resolved_at").alias("event_at")),
    ]  # fmt: skip
    ev = pl.concat(parts)
    reopen = (
        ev.filter(pl.col("event_type") == "solved")
        .filter(pl.Series(rng.random(ev.filter(pl.col("event_type") == "solved").height) < 0.05))
        .with_columns(
            pl.lit("reopened").alias("event_type"), pl.col("event_at") + pl.duration(days=2)
        )
    )
    ev = pl.concat([ev, reopen]).sort("event_at", "ticket_id", "event_type")
    return ev.with_columns(
        pl.int_range(1, pl.len() + 1).cast(pl.Int64).alias("ticket_event_id")
    ).select("ticket_event_id", "ticket_id", "event_type", "event_at")


def csat(seed: int, tk: pl.DataFrame) -> pl.DataFrame:
    rng = table_rng(seed, "ent_sup_csat")
    solved = tk.filter(pl.col("resolved_at").is_not_null())
    take = pl.Series(rng.random(solved.height) < 0.3)
    sub = solved.filter(take)
    n = sub.height
    score = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.06, 0.07, 0.12, 0.3, 0.45])
    return pl.DataFrame(
        {
            "csat_response_id": np.arange(1, n + 1, dtype=np.int64),
            "ticket_id": sub["ticket_id"],
            "score": score,
            "responded_at": from_micros(
                np.minimum(
                    sub["resolved_at"].dt.epoch("us").to_numpy()
                    + rng.integers(10, 3000, n) * US_PER_MIN,
                    END_US,
                )
            ),
        }
    )
