"""The data dictionary of the ``ecommerce_enterprise`` dbt project, models half (maintainer tool
input): model grains and descriptions, contracted models, extra tests and model properties.

Column descriptions are in ``_dictionary_columns``; ``_codegen`` renders both into the project's
YAML.
"""

from __future__ import annotations

#: model -> (grain key, description); a key with commas is a composite grain.
_MODELS: dict[str, tuple[str, str]] = {
    "int_calendar_days": (
        "date_day",
        "One row per calendar day of the data window (2024-01-01 to 2026-06-30).",
    ),
    "int_fx_rates_daily": (
        "rate_date,currency_code",
        "One row per calendar day and currency with the Treasury rate as of that day (last "
        "business-day rate on or before it).",
    ),
    "int_customer_identity": (
        "customer_id",
        "One row per shop account with its identity-resolved person_id.",
    ),
    "int_customers_enriched": (
        "customer_id",
        "One row per shop account with person, sales region and test flag.",
    ),
    "int_orders": (
        "order_id",
        "One row per order joined to its account: person, region, revenue flag, test flag.",
    ),
    "int_order_amounts_local": (
        "order_id",
        "One row per order: item subtotal, discounts and refunds in the order currency.",
    ),
    "int_order_items_usd": (
        "order_item_id",
        "One row per order line with USD amounts at the order-date rate. Lines whose order header "
        "has not been loaded are dropped.",
    ),
    "int_order_refunds_usd": (
        "order_id",
        "One row per refunded order: refunds in local currency and in USD at the order-date rate.",
    ),
    "int_order_status_latest": ("order_id", "One row per order with its latest status event."),
    "int_payments_deduped": (
        "payment_id",
        "One row per payment attempt with the duplicate-capture flag.",
    ),
    "int_payments_by_order": (
        "order_id",
        "One row per order with payments: attempts, captures, duplicates and captured amount.",
    ),
    "int_product_versions": (
        "product_version_id",
        "One row per product version (SCD2) from the CDC history.",
    ),
    "int_order_items_categorized": (
        "order_item_id",
        "One row per order line with the category its product had at order time.",
    ),
    "int_subscription_months": (
        "subscription_id,month_start",
        "One row per subscription and month it was active on the first day; MRR in USD.",
    ),
    "int_invoices_usd": ("invoice_id", "One row per invoice with its USD amount."),
    "int_ad_spend_latest": (
        "spend_date,campaign_id",
        "One row per campaign and day: the latest extract of restated spend.",
    ),
    "int_ad_spend_usd": (
        "spend_date,campaign_id",
        "One row per campaign and day with spend in USD.",
    ),
    "int_order_last_touch": (
        "order_id",
        "One row per order with an ad click in the 30 days before it: the last such click.",
    ),
    "int_email_engagement": (
        "customer_id",
        "One row per emailed account with send, open, click and bounce counts.",
    ),
    "int_web_events_deduped": (
        "event_id",
        "One row per tracker event after removing re-sent duplicates.",
    ),
    "int_sessions": ("session_id", "One row per web/app session (de-duplicated events)."),
    "int_shipments_enriched": (
        "shipment_id",
        "One row per parcel with carrier, warehouse and transit time.",
    ),
    "int_shipment_latest_scan": ("shipment_id", "One row per parcel with its latest carrier scan."),
    "int_stock_month_end": (
        "snapshot_date,warehouse_id,product_id",
        "One row per month end, warehouse and product with availability flags.",
    ),
    "int_purchase_order_receipts": (
        "purchase_order_id",
        "One row per purchase order line with lead time and lateness.",
    ),
    "int_ticket_sla": (
        "ticket_id",
        "One row per ticket with response and resolution times against the SLA.",
    ),
    "int_ticket_reopens": ("ticket_id", "One row per ticket with its reopen count."),
    "int_gl_entries_usd": (
        "gl_entry_id",
        "One row per journal line in USD at the posting-date rate, mapped to a P&L line.",
    ),
    "int_chargebacks_usd": ("chargeback_id", "One row per chargeback with its USD amount."),
    "int_customer_order_stats": (
        "customer_id",
        "One row per account with revenue-order counts and first/last order times.",
    ),
    "int_refunds_usd": ("refund_id", "One row per refund in USD at the refund-date rate."),
    "dim_date": (
        "date_day",
        "One row per calendar day with the calendar and fiscal calendar (FY<N> runs 1 Feb N-1 to "
        "31 Jan N; FQ1 = Feb-Apr).",
    ),
    "metricflow_time_spine": ("date_day", "The semantic layer's daily time spine."),
    "dim_countries": (
        "country_code",
        "One row per country with its sales region (NA, EU, UK) and EU membership.",
    ),
    "fct_fx_rates_daily": (
        "rate_date,currency_code",
        "One row per calendar day and currency: the Treasury rate Finance uses as of that day.",
    ),
    "fct_orders": (
        "order_id",
        "Commercial order fact (the trading dashboard's basis), one row per order of a non-test "
        "account, every status. Order-date basis: amounts convert at the Treasury rate as of the "
        "UTC order date; net_revenue_usd = items - discounts - refunds (all refunds of the order) "
        "for revenue orders, else 0. Not Finance's revenue: Finance recognises on delivery "
        "(fct_revenue_recognized).",
    ),
    "fct_orders_v1": (
        "order_id",
        "DEPRECATED since 2025-03 — do not use for reporting. Replaced by fct_orders (commercial) "
        "and fct_revenue_recognized (Finance). Every order including test accounts; revenue = "
        "revenue_old (items + shipping + tax, local currency, before discounts and refunds).",
    ),
    "fct_orders_wide": (
        "order_id",
        "One row per order of a non-test account: every connector column of shop_orders (~150) "
        "beside the commercial amounts. A BI extract, not a reporting source.",
    ),
    "fct_order_items": (
        "order_item_id",
        "One row per order line of a non-test account with USD amounts at the order-date rate.",
    ),
    "fct_daily_revenue": (
        "order_date",
        "Commercial revenue per UTC order date (fct_orders basis).",
    ),
    "fct_daily_revenue_by_channel": (
        "order_date,channel",
        "Commercial revenue per UTC order date and sales channel.",
    ),
    "fct_payments": ("payment_id", "One row per payment attempt with the duplicate-capture flag."),
    "fct_order_payments": (
        "order_id",
        "One row per order of a non-test account with its payment totals.",
    ),
    "fct_order_status_events": (
        "status_event_id",
        "Incremental: one row per order status event, loaded by loaded_at.",
    ),
    "fct_revenue_recognized": (
        "order_id",
        'Finance\'s revenue fact — "the way Finance reports it". One row per delivered revenue '
        "order of a non-test account, recognised on recognized_date = UTC date of delivered_at. "
        "net_revenue_usd = (items - discounts - every refund of the order) converted at the "
        "Treasury rate as of recognized_date (weekend/holiday deliveries use the last business-"
        "day rate). See the revenue_recognition docs page.",
    ),
    "fct_revenue_recognized_monthly": (
        "recognized_month,sales_region",
        "Finance's recognised net revenue per month and sales region.",
    ),
    "fct_refunds": ("refund_id", "One row per refund with its USD amount at the refund-date rate."),
    "fct_chargebacks": ("chargeback_id", "One row per chargeback; is_loss when lost or accepted."),
    "fct_payouts": ("payout_id", "One row per processor payout."),
    "fct_gl_entries": ("gl_entry_id", "One row per journal line in USD, mapped to a P&L line."),
    "fct_gl_monthly_pnl": (
        "posting_month,cost_center_region,pnl_line",
        "GL P&L per month, cost-centre region and P&L line (revenue positive).",
    ),
    "fct_budget_vs_actual": (
        "budget_month,budget_region",
        "Budgeted vs recognised net revenue per month and region.",
    ),
    "rpt_finance_close_monthly": ("posting_month", "Month-end close summary from the GL."),
    "dim_customers": (
        "customer_id",
        "One row per shop account of a real customer (test accounts excluded) with person_id, "
        "region and order stats. Count people with person_id (dim_persons), not accounts.",
    ),
    "dim_customers_v1": (
        "customer_id",
        "DEPRECATED since 2025-06: one row per account, no identity resolution, test accounts "
        "included. Replaced by dim_customers (accounts) and dim_persons (people).",
    ),
    "dim_persons": (
        "person_id",
        "One row per identity-resolved person (non-test accounts): accounts sharing a normalized "
        "email or merged by Customer Care are one person.",
    ),
    "fct_identity_links": (
        "customer_id",
        "One row per secondary account with the person it resolves to.",
    ),
    "fct_customer_cohorts": (
        "cohort_month,months_since_first_order",
        "People (person_id) active per first-order cohort and month offset, commercial basis.",
    ),
    "fct_customer_ltv": ("person_id", "One row per person with lifetime commercial net revenue."),
    "dim_products": (
        "product_id",
        "One row per product with its CURRENT category and price. For the category at order time "
        "use dim_products_history.",
    ),
    "dim_products_history": (
        "product_version_id",
        "SCD2 product dimension: one row per product version; join on order time >= valid_from "
        "and < valid_to.",
    ),
    "dim_categories": ("category_id", "One row per product category with its department."),
    "fct_product_monthly_sales": (
        "product_id,sales_month",
        "Units and net sales per product and month (commercial basis).",
    ),
    "dim_campaigns": ("campaign_id", "One row per marketing campaign."),
    "fct_ad_spend_daily": (
        "spend_date,campaign_id",
        "Marketing spend per campaign and day in USD (latest extract of restated days, Treasury "
        "rate as of the spend date).",
    ),
    "fct_marketing_attribution": (
        "order_id",
        "One row per revenue order with its last-touch channel (30-day window).",
    ),
    "fct_channel_roi_monthly": (
        "month_start,channel",
        "Attributed revenue, spend and ROAS per month and channel.",
    ),
    "fct_email_engagement": ("customer_id", "Email engagement per real customer account."),
    "fct_sessions": ("session_id", "One row per web/app session."),
    "fct_web_events": (
        "event_id",
        "Incremental: one row per tracker event as received (duplicates kept), loaded by "
        "loaded_at.",
    ),
    "fct_funnel_daily": ("session_date,platform", "Funnel counts per day and platform."),
    "dim_plans": ("plan_id", "One row per subscription plan."),
    "fct_subscriptions": ("subscription_id", "One row per subscription."),
    "fct_subscription_events": (
        "subscription_event_id",
        "One row per subscription lifecycle event.",
    ),
    "fct_invoices": ("invoice_id", "One row per subscription invoice with its USD amount."),
    "fct_mrr_monthly": ("month_start", "Active subscriptions and MRR (USD) per month."),
    "dim_warehouses": ("warehouse_id", "One row per distribution centre."),
    "dim_carriers": ("carrier_id", "One row per carrier service."),
    "dim_suppliers": ("supplier_id", "One row per supplier."),
    "fct_shipments": (
        "shipment_id",
        "One row per parcel with carrier, warehouse, transit time and latest scan.",
    ),
    "fct_shipment_events": (
        "shipment_event_id",
        "Incremental: one row per carrier scan, loaded by loaded_at (late scans arrive days "
        "later).",
    ),
    "fct_delivery_performance_monthly": (
        "ship_month,carrier_name",
        "Shipments and median transit time per month and carrier.",
    ),
    "fct_inventory_month_end": (
        "snapshot_date,warehouse_id,product_id",
        "Month-end stock per warehouse and product.",
    ),
    "fct_stockouts_monthly": (
        "snapshot_date,warehouse_id",
        "Stocked-out and uncounted products per month end and warehouse.",
    ),
    "fct_purchase_orders": ("purchase_order_id", "One row per purchase order line."),
    "dim_support_agents": ("agent_id", "One row per support agent."),
    "fct_tickets": ("ticket_id", "One row per support ticket with SLA measures and reopens."),
    "fct_csat": (
        "csat_response_id",
        "One row per CSAT answer with the ticket's agent and category.",
    ),
    "fct_agent_performance_monthly": (
        "ticket_month,agent_id",
        "Tickets and SLA attainment per agent and month.",
    ),
    "rpt_exec_kpis_monthly": (
        "month_start",
        "Executive KPIs per month: recognised net revenue and MRR.",
    ),
}

KEYS: dict[str, str | tuple[str, ...]] = {
    name: (tuple(key.split(",")) if "," in key else key) for name, (key, _) in _MODELS.items()
}
MODEL_DOCS: dict[str, str] = {name: doc for name, (_, doc) in _MODELS.items()}

#: Marts whose columns and types are an enforced contract (downstream teams rely on them).
CONTRACTED: frozenset[str] = frozenset({"fct_orders", "fct_revenue_recognized", "dim_customers"})

_STATUSES = ["placed", "shipped", "completed", "cancelled", "returned"]
_REGIONS = ["NA", "EU", "UK"]


def _accepted(values: list[str]) -> dict[str, object]:
    return {"accepted_values": {"arguments": {"values": values}}}


def _relationship(to: str, field: str) -> dict[str, object]:
    return {"relationships": {"arguments": {"to": f"ref('{to}')", "field": field}}}


#: Tests beyond the grain tests, by (model, column).
EXTRA_TESTS: dict[tuple[str, str], list[object]] = {
    ("stg_shop__orders", "order_status"): [_accepted(_STATUSES)],
    ("stg_shop__orders", "customer_id"): [
        "not_null",
        _relationship("stg_shop__customers", "customer_id"),
    ],
    ("stg_pay__payments", "payment_status"): [_accepted(["success", "failed"])],
    ("stg_fin__fx_rates", "rate_to_usd"): ["not_null"],
    ("int_customer_identity", "person_id"): ["not_null"],
    ("int_fx_rates_daily", "rate_to_usd"): ["not_null"],
    ("int_order_items_categorized", "category_at_order"): ["not_null"],
    ("fct_orders", "customer_id"): ["not_null", _relationship("dim_customers", "customer_id")],
    ("fct_orders", "person_id"): ["not_null"],
    ("fct_orders", "order_status"): [_accepted(_STATUSES)],
    ("fct_orders", "fx_rate_to_usd"): ["not_null"],
    ("fct_orders", "sales_region"): [_accepted(_REGIONS)],
    ("fct_revenue_recognized", "recognized_date"): ["not_null"],
    ("fct_revenue_recognized", "fx_rate_to_usd"): ["not_null"],
    ("fct_revenue_recognized", "sales_region"): ["not_null", _accepted(_REGIONS)],
    ("fct_revenue_recognized", "order_id"): [_relationship("fct_orders", "order_id")],
    ("dim_customers", "person_id"): ["not_null"],
    ("dim_persons", "accounts"): ["not_null"],
    ("fct_order_items", "order_id"): [_relationship("fct_orders", "order_id")],
    ("fct_ad_spend_daily", "spend_usd"): ["not_null"],
    ("fct_ad_spend_daily", "campaign_id"): [_relationship("dim_campaigns", "campaign_id")],
    ("fct_tickets", "priority"): [_accepted(["low", "normal", "high", "urgent"])],
    ("fct_chargebacks", "outcome"): [_accepted(["won", "lost", "accepted", "open"])],
    ("fct_shipments", "order_id"): [_relationship("stg_shop__orders", "order_id")],
    ("dim_products_history", "product_id"): [
        "not_null",
        _relationship("dim_products", "product_id"),
    ],
}

#: Extra model properties (beyond description, config, tests and columns).
MODEL_EXTRAS: dict[str, dict[str, object]] = {
    "metricflow_time_spine": {"time_spine": {"standard_granularity_column": "date_day"}},
}
#: Docs blocks (models/docs/*.md) a model's description links to.
MODEL_DOC_BLOCKS: dict[str, tuple[str, ...]] = {
    "fct_revenue_recognized": ("revenue_recognition", "fx_policy"),
    "fct_orders": ("fx_policy",),
    "fct_orders_v1": ("deprecations",),
    "dim_customers_v1": ("deprecations",),
    "dim_persons": ("identity_resolution",),
    "dim_date": ("fiscal_calendar",),
    "dim_products_history": ("category_attribution",),
    "int_fx_rates_daily": ("fx_policy",),
}
