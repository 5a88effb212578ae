"""The staging layer of the ``ecommerce_enterprise`` dbt project, as data.

Maintainer tool input (``python -m replicas.generators.ecommerce_enterprise._codegen``): one
entry per raw table — its source system, grain, description and the ``renamed`` select list of
its ``stg_<system>__<table>`` view. Staging only renames, casts and derives row-local columns;
joins and business rules start in the intermediate layer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StagingSpec:
    system: str
    table: str
    key: str | tuple[str, ...]
    description: str
    select: tuple[str, ...]
    loaded_at: str | None = None

    @property
    def raw_name(self) -> str:
        return f"{self.system}_{self.table}"

    @property
    def model(self) -> str:
        return f"stg_{self.system}__{self.table}"


SYSTEMS: dict[str, str] = {
    "shop": "The storefront's operational database (Postgres), replicated hourly by the EL connector.",
    "pay": "Payment processor exports (Stripe, Adyen, PayPal) landed nightly; amounts in cents.",
    "sub": "The Lumen Plus subscription billing system.",
    "mkt": "Marketing platforms (ad networks, ESP) and the attribution tracker.",
    "web": "The web/app event tracker (re-sent duplicates and late loads included).",
    "inv": "The warehouse management system: warehouses, suppliers, stock counts, purchase orders.",
    "ful": "Carrier integrations: shipments and tracking scans.",
    "sup": "The helpdesk: tickets, ticket events, agents and CSAT surveys.",
    "fin": "The ERP: general ledger, cost centres, budgets and Treasury FX rates.",
    "crm": "The CRM: contacts and the identity merges confirmed by Customer Care.",
}


def S(*lines: str) -> tuple[str, ...]:
    return tuple(lines)


SPECS: tuple[StagingSpec, ...] = (
    StagingSpec("shop", "countries", "country_code",
        "One row per country the store sells to, with the sales region it reports in.",
        S("country_code", "country_name", "sales_region", "is_eu",
          "currency_code as local_currency_code")),
    StagingSpec("shop", "customers", "customer_id",
        "One row per shop account. A person may hold two accounts (see int_customer_identity).",
        S("customer_id", "email", "{{ normalize_email('email') }} as email_normalized",
          "first_name", "last_name", "country_code", "home_timezone", "signup_at",
          "signup_at_local", "acquisition_channel", "is_test_account", "loyalty_tier",
          "marketing_opt_in", "phone_number", "legacy_customer_ref", "updated_at")),
    StagingSpec("shop", "customer_addresses", "address_id", "One row per stored address.",
        S("address_id", "customer_id", "address_type", "country_code", "postal_code", "is_default")),
    StagingSpec("shop", "products", "product_id", "One row per product, current attributes only.",
        S("product_id", "sku", "product_name", "category as category_name", "brand",
          "cost_usd", "list_price_usd", "launched_at", "is_active", "updated_at", "weight_grams")),
    StagingSpec("shop", "product_history", "history_id",
        "One row per product version exported by CDC (price and category changes).",
        S("history_id", "product_id", "category as category_name", "list_price_usd",
          "valid_from", "valid_to", "_cdc_captured_at as cdc_captured_at")),
    StagingSpec("shop", "categories", "category_id", "One row per product category.",
        S("category_id", "category_name", "department")),
    StagingSpec("shop", "promotions", "promo_code", "One row per promo code.",
        S("promo_code", "description as promo_description", "discount_type", "discount_pct",
          "discount_amount", "min_order_amount", "starts_at", "ends_at", "channel as promo_channel",
          "first_order_only")),
    StagingSpec("shop", "orders", "order_id",
        "One row per order header, every connector column kept (the ~150-column wide table).",
        S("order_id", "customer_id", "created_at", "created_at_local", "store_timezone",
          "cast(created_at as date) as order_date", "order_status", "channel", "currency_code",
          "promo_code",
          "coalesce(shipping_amount, round(shipping_amount_cents / 100.0, 2)) as shipping_amount",
          "tax_amount", "revenue_old", "shipped_at",
          "delivered_at", "cancelled_at", "returned_at", "_loaded_at as loaded_at",
          "utm_source", "utm_medium", "utm_campaign", "device_type", "app_version", "is_gift",
          "gift_message_present", "fraud_score", "warehouse_hint",
          "columns('^custom_attr_[0-9]+$')"),
        loaded_at="_loaded_at"),
    StagingSpec("shop", "order_items", "order_item_id",
        "One row per order line; a few reference orders not loaded yet.",
        S("order_item_id", "order_id", "product_id", "quantity", "unit_price",
          "discount_amount", "_loaded_at as loaded_at"), loaded_at="_loaded_at"),
    StagingSpec("shop", "order_status_events", "status_event_id",
        "One row per order status change (placed, shipped, delivered, cancelled, returned).",
        S("status_event_id", "order_id", "status as order_status", "event_at",
          "_loaded_at as loaded_at"), loaded_at="_loaded_at"),
    StagingSpec("pay", "payments", "payment_id",
        "One row per payment attempt (failed ones included; some captures recorded twice).",
        S("payment_id", "order_id", "processor", "payment_method",
          "amount_cents", "{{ cents_to_units('amount_cents') }} as amount",
          "currency_code", "payment_status", "payment_status = 'success' as is_successful",
          "paid_at")),
    StagingSpec("pay", "refunds", "refund_id", "One row per refund (late refunds included).",
        S("refund_id", "order_id",
          "coalesce(amount, cast(refund_amount_text as double)) as refund_amount",
          "currency_code",
          "reason as refund_reason", "refunded_at", "cast(refunded_at as date) as refund_date")),
    StagingSpec("pay", "chargebacks", "chargeback_id", "One row per card dispute.",
        S("chargeback_id", "payment_id", "order_id", "amount as chargeback_amount",
          "currency_code", "reason_code", "opened_at", "resolved_at", "outcome")),
    StagingSpec("pay", "payouts", "payout_id",
        "One row per processor payout (day, processor, currency), amounts in cents.",
        S("payout_id", "payout_date", "processor", "currency_code",
          "{{ cents_to_units('gross_cents') }} as gross_amount",
          "{{ cents_to_units('fee_cents') }} as fee_amount",
          "{{ cents_to_units('net_cents') }} as net_amount")),
    StagingSpec("sub", "plans", "plan_id", "One row per subscription plan.",
        S("plan_id", "plan_code", "billing_period", "price_usd", "is_legacy")),
    StagingSpec("sub", "subscriptions", "subscription_id", "One row per subscription.",
        S("subscription_id", "customer_id", "plan_id", "started_at", "cancelled_at",
          "subscription_status", "currency_code")),
    StagingSpec("sub", "subscription_events", "subscription_event_id",
        "One row per subscription lifecycle event.",
        S("subscription_event_id", "subscription_id", "event_type", "event_at", "plan_id")),
    StagingSpec("sub", "invoices", "invoice_id", "One row per subscription invoice.",
        S("invoice_id", "subscription_id", "issued_at", "cast(issued_at as date) as invoice_date",
          "amount as invoice_amount", "currency_code", "invoice_status")),
    StagingSpec("mkt", "campaigns", "campaign_id", "One row per marketing campaign.",
        S("campaign_id", "campaign_name", "channel as campaign_channel", "platform",
          "target_region", "started_on", "ended_on", "budget_usd", "owner_team")),
    StagingSpec("mkt", "ad_spend", ("spend_date", "campaign_id", "extracted_at"),
        "One row per campaign, day and extract: restated days appear twice (latest extract wins).",
        S("spend_date", "campaign_id", "spend as spend_amount", "currency_code", "impressions",
          "clicks", "_extracted_at as extracted_at")),
    StagingSpec("mkt", "touchpoints", "touchpoint_id",
        "One row per ad click attributed to a customer (order_id when the tracker linked one).",
        S("touchpoint_id", "customer_id", "campaign_id", "channel as touch_channel",
          "touched_at", "order_id")),
    StagingSpec("mkt", "email_sends", "email_send_id", "One row per marketing email sent.",
        S("email_send_id", "customer_id", "campaign_id", "sent_at", "opened_at", "clicked_at",
          "is_bounced")),
    StagingSpec("web", "events", "event_id",
        "One row per tracker event as received, re-sent duplicates included.",
        S("event_id", "session_id", "customer_id", "platform", "event_type", "event_at",
          "page_path", "order_id", "_loaded_at as loaded_at"), loaded_at="_loaded_at"),
    StagingSpec("inv", "warehouses", "warehouse_id", "One row per distribution centre.",
        S("warehouse_id", "warehouse_name", "country_code", "timezone as warehouse_timezone")),
    StagingSpec("inv", "suppliers", "supplier_id", "One row per supplier.",
        S("supplier_id", "supplier_name", "country_code", "lead_time_days")),
    StagingSpec("inv", "stock_snapshots", ("snapshot_date", "warehouse_id", "product_id"),
        "One row per month end, warehouse and product; on_hand_units NULL when not counted.",
        S("snapshot_date", "warehouse_id", "product_id", "on_hand_units", "reserved_units")),
    StagingSpec("inv", "purchase_orders", "purchase_order_id", "One row per purchase order line.",
        S("purchase_order_id", "supplier_id", "warehouse_id", "product_id", "ordered_at",
          "expected_at", "received_at", "quantity as ordered_units", "unit_cost_usd")),
    StagingSpec("ful", "carriers", "carrier_id", "One row per carrier service.",
        S("carrier_id", "carrier_name", "service_level")),
    StagingSpec("ful", "shipments", "shipment_id",
        "One row per parcel (a few orders ship in two parcels).",
        S("shipment_id", "order_id", "warehouse_id", "carrier_id", "shipped_at", "delivered_at",
          "shipping_cost", "currency_code", "weight_kg")),
    StagingSpec("ful", "shipment_events", "shipment_event_id",
        "One row per carrier scan; ~6 % arrive 2–10 days after the scan (loaded_at).",
        S("shipment_event_id", "shipment_id", "event_type", "event_at", "event_at_local",
          "_loaded_at as loaded_at"), loaded_at="_loaded_at"),
    StagingSpec("sup", "agents", "agent_id", "One row per support agent.",
        S("agent_id", "agent_name", "team", "hired_at", "is_active")),
    StagingSpec("sup", "tickets", "ticket_id", "One row per support ticket.",
        S("ticket_id", "customer_id", "order_id", "channel as ticket_channel",
          "category as ticket_category", "priority", "created_at", "first_response_at",
          "resolved_at", "ticket_status", "agent_id")),
    StagingSpec("sup", "ticket_events", "ticket_event_id", "One row per ticket event.",
        S("ticket_event_id", "ticket_id", "event_type", "event_at")),
    StagingSpec("sup", "csat", "csat_response_id", "One row per CSAT survey answer (1–5).",
        S("csat_response_id", "ticket_id", "score as csat_score", "responded_at")),
    StagingSpec("fin", "gl_accounts", "account_code", "One row per GL account.",
        S("account_code", "account_name", "account_type", "is_deprecated")),
    StagingSpec("fin", "cost_centers", "cost_center_id", "One row per cost centre.",
        S("cost_center_id", "cost_center_name", "region as cost_center_region")),
    StagingSpec("fin", "gl_entries", "gl_entry_id",
        "One row per journal line (credit negative) posted by the order-to-cash integration.",
        S("gl_entry_id", "posting_date", "account_code", "cost_center_id", "amount",
          "currency_code", "source_document", "order_id", "posted_at")),
    StagingSpec("fin", "fx_rates", ("rate_date", "currency_code"),
        "One row per business day and currency: Treasury publishes no weekend or holiday rates.",
        S("rate_date", "currency_code", "rate_to_usd", "usd_to_currency", "rate_source")),
    StagingSpec("fin", "budgets", ("budget_month", "budget_region"), "One row per month and region.",
        S("budget_month", "region as budget_region", "budget_net_revenue_usd",
          "budget_marketing_usd")),
    StagingSpec("crm", "contacts", "contact_id", "One row per CRM contact (leads included).",
        S("contact_id", "customer_id", "email", "{{ normalize_email('email') }} as email_normalized",
          "full_name", "source_system", "created_at")),
    StagingSpec("crm", "identity_merges", "merge_id",
        "One row per duplicate account merge confirmed by Customer Care.",
        S("merge_id", "surviving_customer_id", "merged_customer_id", "merged_at")),
)  # fmt: skip
