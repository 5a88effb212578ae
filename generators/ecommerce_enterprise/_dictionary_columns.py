"""The data dictionary of the ``ecommerce_enterprise`` dbt project, columns half (maintainer tool
input): column descriptions by name and extra column properties.

One meaning per name, as a data dictionary promises; the few names whose meaning depends on the
model say so and point at the model description. Model grains, descriptions and tests are in
``_dictionary_models``; ``_codegen`` renders both into the project's YAML.
"""

from __future__ import annotations

import re

#: Extra column properties.
COLUMN_EXTRAS: dict[tuple[str, str], dict[str, object]] = {
    ("metricflow_time_spine", "date_day"): {"granularity": "day"},
}

COLUMNS: dict[str, str] = {
    "account_code": (
        "GL account code (fin_gl_accounts); 4100 is the legacy product-revenue account "
        "replaced by 4000 from 2024-07."
    ),
    "account_name": "GL account name.",
    "account_type": "GL account type: revenue, contra_revenue, cogs, opex or liability.",
    "accounts": "Number of shop accounts that belong to the person.",
    "acquisition_channel": (
        "Channel the account signed up through ('internal' for QA test accounts)."
    ),
    "active_people": "Distinct people (person_id) with a revenue order in the month.",
    "active_subscriptions": "Subscriptions active on the first day of the month.",
    "actual_net_revenue_usd": (
        "Recognised net revenue of the month and region (fct_revenue_recognized_monthly), 0 "
        "when none."
    ),
    "address_id": "Primary key of the address.",
    "address_type": "shipping or billing.",
    "agent_id": "Support agent (sup_agents).",
    "agent_name": "Support agent's display name.",
    "amount": (
        "Amount in the row's currency_code (major units). GL lines: credit negative, debit "
        "positive."
    ),
    "amount_cents": "Amount in minor units (cents) as the processor exports it.",
    "amount_usd": (
        "amount converted to USD at the Treasury rate as of posting_date (int_fx_rates_daily)."
    ),
    "app_version": "Storefront app version for app orders, NULL for web.",
    "attributed_channel": (
        "Channel of the last ad click in the 30 days before the order; 'unattributed' when none."
    ),
    "attributed_revenue_usd": (
        "Commercial net revenue (fct_orders basis) of the orders attributed to the channel."
    ),
    "available_units": (
        "on_hand_units minus reserved_units, floored at 0 (uncounted rows count as 0)."
    ),
    "billing_period": "monthly or annual.",
    "brand": "Product brand.",
    "budget_marketing_usd": "Planned marketing spend in USD.",
    "budget_month": "First day of the budget month.",
    "budget_net_revenue_usd": "Planned recognised net revenue in USD (Finance basis).",
    "budget_region": "Sales region the budget belongs to (NA, EU, UK).",
    "budget_usd": "Planned campaign budget in USD.",
    "calendar_quarter": "Calendar quarter 1-4.",
    "calendar_year": "Calendar year.",
    "campaign_channel": (
        "Marketing channel of the campaign: paid_search, social, affiliate, email or display."
    ),
    "campaign_id": "Marketing campaign (mkt_campaigns).",
    "campaign_name": "Campaign name as set in the ad platform.",
    "cancelled_at": "When it was cancelled (UTC); NULL if not cancelled.",
    "captured_amount": "Sum of successful, non-duplicate captures, in the order currency.",
    "carrier_id": "Carrier service (ful_carriers).",
    "carrier_name": "Carrier name.",
    "cart_sessions": "Sessions with an add_to_cart event.",
    "category_at_order": (
        "The product's category at the time of the order (SCD2 as-of), the Merchandising "
        "attribution."
    ),
    "category_id": "Primary key of the category.",
    "category_name": "Product category (current value unless the model is versioned).",
    "cdc_captured_at": "When the CDC connector captured the version.",
    "channel": "Sales channel of the order: web, app or marketplace.",
    "chargeback_amount": "Disputed amount in currency_code.",
    "chargeback_amount_usd": "Disputed amount in USD at the Treasury rate as of the opening date.",
    "chargeback_id": "Primary key of the chargeback.",
    "checkout_sessions": "Sessions with a checkout event.",
    "clicked_at": "When the email was first clicked; NULL if never.",
    "clicks": "Ad clicks reported by the platform.",
    "cohort_month": "Month of the person's first revenue order.",
    "contact_id": "Primary key of the CRM contact.",
    "cost_center_id": "Cost centre (fin_cost_centers) the line posts to.",
    "cost_center_name": "Cost centre name.",
    "cost_center_region": "Region of the cost centre: NA, EU, UK or GLOBAL.",
    "cost_usd": "Unit cost in USD.",
    "country_code": "ISO 3166 country code.",
    "country_name": "Country name.",
    "created_at": "Creation time, UTC (naive timestamp).",
    "created_at_local": (
        "created_at as wall-clock time in the store's local time zone (store_timezone). Never "
        "use for UTC periods."
    ),
    "csat_response_id": "Primary key of the CSAT response.",
    "csat_score": "Survey score 1 (very unhappy) to 5 (very happy).",
    "currency_code": "ISO 4217 currency of the amounts on the row.",
    "customer_id": (
        "Shop account id. One person may hold two accounts: use person_id to count people."
    ),
    "date_day": "Calendar day.",
    "delivered_at": "Delivery time, UTC; NULL if not (yet) delivered.",
    "delivered_date": "UTC calendar date of delivered_at.",
    "delivered_shipments": "Shipments with a delivery scan.",
    "department": "Merchandising department of the category.",
    "device_type": "desktop, mobile or tablet.",
    "discount_amount": "Line discount in the order currency.",
    "discount_pct": "Percentage discount of the promotion (percent promotions).",
    "discount_type": "percent or fixed.",
    "duplicate_captures": "Successful captures flagged as duplicates of an earlier capture.",
    "email": "Email address as entered (case and whitespace vary).",
    "email_normalized": "lower(trim(email)); the identity-resolution match key.",
    "email_send_id": "Primary key of the email send.",
    "emails_bounced": "Emails that bounced.",
    "emails_clicked": "Emails clicked at least once.",
    "emails_opened": "Emails opened at least once.",
    "emails_sent": "Marketing emails sent.",
    "ended_on": "Last day of the campaign.",
    "ends_at": "End of the promotion (UTC).",
    "event_at": "When the event happened (UTC).",
    "event_at_local": "event_at as wall-clock time at the warehouse that shipped the parcel.",
    "event_id": "Primary key of the tracker event.",
    "event_type": "Kind of event.",
    "events": "Events in the session after de-duplication.",
    "expected_at": "Promised receipt time.",
    "extracted_at": "When the connector extracted the row; the latest extract of a day wins.",
    "fee_amount": "Processor fees in the payout currency.",
    "first_name": "First name.",
    "first_order_at": "First revenue order time (UTC).",
    "first_order_date": "UTC date of the first revenue order.",
    "first_order_only": "Promotion valid on a customer's first order only.",
    "first_response_at": "First agent reply (UTC); NULL if none yet.",
    "first_response_hours": "Hours from creation to first agent reply.",
    "first_signup_at": "Earliest signup of the person's accounts.",
    "fiscal_quarter": "Fiscal quarter 1-4 (FQ1 = February-April).",
    "fiscal_quarter_label": (
        "Fiscal quarter label, e.g. FY2025-Q3 (FY2025 runs 2024-02-01 to 2025-01-31)."
    ),
    "fiscal_year": "Fiscal year: FY<N> runs from 1 February of N-1 to 31 January of N.",
    "fraud_score": "Fraud model score 0-1 at checkout.",
    "full_name": "Contact's name in the CRM (may be stale).",
    "fx_rate_to_usd": (
        "USD per unit of currency_code, as of the model's conversion date (see the model "
        "description)."
    ),
    "gift_message_present": "The order carries a gift message.",
    "gl_entry_id": "Primary key of the journal line.",
    "gl_net_revenue_usd": (
        "Net revenue per the general ledger (accounts mapped to net_revenue), USD."
    ),
    "gl_shipping_revenue_usd": "Shipping revenue per the general ledger, USD.",
    "gross_amount": "Gross payout amount.",
    "gross_revenue_usd": (
        "Item subtotal (quantity x unit price) in USD before discounts and refunds."
    ),
    "has_cart": "The session added to cart.",
    "has_checkout": "The session reached checkout.",
    "has_purchase": "The session purchased.",
    "hired_at": "Agent hire date.",
    "history_id": "Primary key of the CDC version row.",
    "home_timezone": "IANA time zone of the customer's country.",
    "impressions": "Ad impressions reported by the platform.",
    "invoice_amount": "Invoice amount in currency_code.",
    "invoice_amount_usd": "Invoice amount in USD at the rate as of the invoice date.",
    "invoice_date": "UTC date of issued_at.",
    "invoice_id": "Primary key of the invoice.",
    "invoice_status": "paid, void or uncollectible.",
    "is_active": "Currently active.",
    "is_bounced": "The email bounced.",
    "is_carried_forward": (
        "No rate was published that day; the last earlier business-day rate is used."
    ),
    "is_crm_merged": "Customer Care merged this account into another (crm_identity_merges).",
    "is_current": "This is the product's current version.",
    "is_default": "Default address of its type.",
    "is_deprecated": "Deprecated account; do not post to it.",
    "is_duplicate_capture": (
        "A successful capture repeating an earlier one (same order, method and amount) within "
        "the duplicate window."
    ),
    "is_email_duplicate": "Another account with the same normalized email has a smaller id.",
    "is_eu": "The country is an EU member state.",
    "is_first_response_within_sla": "First reply within sla_hours of creation.",
    "is_gift": "The order was marked as a gift.",
    "is_late": "Received after expected_at.",
    "is_legacy": "Plan no longer sold.",
    "is_loss": "The chargeback was lost or accepted (money returned to the cardholder).",
    "is_revenue_order": "Status placed, shipped, completed or returned (never cancelled).",
    "is_secondary_account": (
        "The account is not the person's surviving account (email duplicate or merged)."
    ),
    "is_stocked_out": "Counted with zero units on hand.",
    "is_successful": "The payment attempt succeeded.",
    "is_test_account": "Internal QA account; its orders are never revenue.",
    "is_uncounted": "The warehouse did not count this product at month end (on_hand_units NULL).",
    "is_weekend": "Saturday or Sunday.",
    "iso_day_of_week": "ISO day of week, 1 = Monday.",
    "issued_at": "When the invoice was issued (UTC).",
    "items_discount": "Sum of line discounts in the order currency.",
    "items_discount_usd": "Sum of line discounts in USD at the order-date rate.",
    "items_subtotal": "Sum of quantity x unit price in the order currency.",
    "items_subtotal_local": "Sum of quantity x unit price in the order currency.",
    "items_subtotal_usd": "Sum of quantity x unit price in USD at the order-date rate.",
    "last_name": "Last name.",
    "last_order_at": "Latest revenue order time (UTC).",
    "last_order_date": "UTC date of the latest order.",
    "last_refunded_at": "Latest refund time of the order.",
    "latest_event_at": "Time of the order's latest status event.",
    "latest_event_loaded_at": "When that event was loaded.",
    "latest_event_status": "Status of the order's latest status event.",
    "latest_scan_at": "Time of the parcel's latest carrier scan.",
    "latest_scan_type": "Type of the parcel's latest carrier scan.",
    "launched_at": "Product launch time.",
    "lead_time_days": (
        "Days from order to receipt (purchase orders) or the supplier's quoted lead time."
    ),
    "legacy_customer_ref": "Customer reference of the pre-2023 shop platform. Deprecated.",
    "lifetime_net_revenue_usd": (
        "Commercial net revenue of all the person's orders (fct_orders basis)."
    ),
    "line_discount_usd": "Line discount in USD at the order-date rate.",
    "line_gross_usd": "quantity x unit price in USD at the order-date rate.",
    "line_net_usd": "(quantity x unit price - discount) in USD at the order-date rate.",
    "list_price_usd": "List price in USD (of the version, for versioned models).",
    "loaded_at": (
        "When the row landed in the warehouse (the EL connector's _loaded_at); late rows load "
        "days after event_at."
    ),
    "loyalty_tier": "bronze, silver, gold or platinum.",
    "marketing_channel": "Marketing channel a utm source/medium pair maps to.",
    "marketing_opt_in": "The customer accepts marketing email.",
    "median_transit_hours": "Median hours from pickup to delivery.",
    "merge_id": "Primary key of the merge.",
    "merged_at": "When Customer Care merged the accounts.",
    "merged_customer_id": "The account merged away.",
    "min_order_amount": "Minimum order amount for the promotion.",
    "month_start": "First day of the month.",
    "months_since_first_order": "Whole months between the cohort month and the active month.",
    "mrr_usd": "Monthly recurring revenue in USD (annual plans count price / 12).",
    "net_amount": "Payout net of fees.",
    "net_revenue_local": "items_subtotal - items_discount - refunds_amount, order currency.",
    "net_revenue_usd": (
        "Net revenue in USD: items minus discounts minus refunds (basis and conversion date "
        "per the model description)."
    ),
    "net_sales_usd": "Net line revenue of revenue orders in USD.",
    "on_hand_units": "Units counted on hand; NULL when not counted.",
    "opened_at": "When it was opened.",
    "order_date": "UTC calendar date of created_at.",
    "order_date_local": "Calendar date of created_at_local (store local time).",
    "order_id": "Order id (shop_orders).",
    "order_item_id": "Primary key of the order line.",
    "order_status": "placed, shipped, completed, cancelled or returned.",
    "order_value_usd": "ordered_units x unit_cost_usd.",
    "ordered_at": "When the purchase order was placed.",
    "ordered_units": "Units ordered.",
    "outcome": "Chargeback outcome: won, lost, accepted or open.",
    "owner_team": "Team that owns the campaign.",
    "page_path": "Page of the event.",
    "paid_at": "When the payment attempt happened (UTC).",
    "payment_attempts": "Payment attempts of the order.",
    "payment_id": "Primary key of the payment attempt.",
    "payment_method": "card, paypal, apple_pay, klarna, bank_transfer, gift_card or marketplace.",
    "payment_status": "success or failed.",
    "payout_date": "Day the processor paid out.",
    "payout_id": "Primary key of the payout.",
    "person_id": (
        "Identity-resolved person: the smallest customer_id among accounts sharing a "
        "normalized email or merged by Customer Care."
    ),
    "phone_number": "Phone number; NULL for about a third of customers.",
    "plan_code": "Subscription plan code.",
    "plan_id": "Subscription plan (sub_plans).",
    "platform": "web or app (events), or the ad platform (campaigns).",
    "pnl_amount_usd": "P&L amount in USD, revenue positive.",
    "pnl_line": "P&L line the GL account maps to (seed gl_account_mapping).",
    "pnl_sign": "Sign that turns the GL amount into the P&L convention.",
    "postal_code": "Postal code.",
    "posted_at": "When the integration posted the line.",
    "posting_date": "Accounting date of the journal line.",
    "posting_month": "First day of the posting month.",
    "price_usd": "Plan price in USD per billing period.",
    "priority": "low, normal, high or urgent.",
    "processor": "Payment processor: stripe, adyen or paypal.",
    "product_id": "Product (shop_products).",
    "product_name": "Product name.",
    "product_version_id": "Primary key of the product version.",
    "promo_channel": "Channel the promotion is valid in.",
    "promo_code": "Promotion code applied; NULL when none.",
    "promo_description": "Promotion description.",
    "published_rate_date": "Business day whose Treasury rate is used.",
    "purchase_order_id": "Primary key of the purchase order.",
    "purchase_sessions": "Sessions with a purchase.",
    "quantity": "Units on the line.",
    "quarter_start": "First day of the calendar quarter.",
    "rate_date": "Calendar day the rate applies to.",
    "rate_source": "Publisher of the rate (treasury).",
    "rate_to_usd": "USD per unit of currency_code.",
    "reason_code": "Card-network reason of the chargeback.",
    "received_at": "When the goods were received; NULL if not yet.",
    "recognized_date": "Revenue recognition date: UTC date of delivery.",
    "recognized_month": "First day of the recognition month.",
    "recognized_net_revenue_usd": "Recognised net revenue of the month, all regions.",
    "recognized_orders": "Orders recognised in the month and region.",
    "refund_amount": "Refund amount in currency_code.",
    "refund_amount_usd": "Refund in USD at the rate as of the refund date.",
    "refund_count": "Refunds of the order.",
    "refund_date": "UTC date of refunded_at.",
    "refund_id": "Primary key of the refund.",
    "refund_reason": "Why the refund was paid.",
    "refunded_at": "When the refund was paid (UTC).",
    "refunds_amount": "Sum of the order's refunds in the order currency.",
    "refunds_usd": "Sum of the order's refunds in USD at the order-date rate.",
    "reopen_count": "Times the ticket was reopened.",
    "replaced_by": "Account that replaced a deprecated account.",
    "local_currency_code": "Currency customers of the country pay in.",
    "holiday_date": "A Treasury holiday (no FX rate is published).",
    "holiday_name": "Name of the holiday.",
    "event_date": "UTC calendar date of event_at.",
    "load_lag_hours": "Whole hours between the event and its load (late-arriving rows lag days).",
    "is_purchase": "The event is a purchase.",
    "shipping_amount_cents": (
        "Shipping in integer cents, sent by connector v2 from its upgrade day on (shipping_amount "
        "is NULL on those rows): schema drift absorbed in stg_shop__orders."
    ),
    "refund_amount_text": (
        "Refund amount as text, sent by the processor export from its upgrade day on (amount is "
        "NULL on those rows): schema drift absorbed in stg_pay__refunds."
    ),
    "is_treasury_holiday": "Treasury publishes no FX rate that day (seed treasury_holidays).",
    "is_business_day": "A weekday that is not a Treasury holiday (FX rates are published).",
    "reserved_units": "Units reserved for open orders.",
    "resolution_hours": "Hours from creation to resolution.",
    "resolved_at": "When it was resolved; NULL if still open.",
    "responded_at": "When the survey was answered.",
    "returned_at": "When the order was returned; NULL if not.",
    "revenue": "DEPRECATED alias of revenue_old.",
    "revenue_old": (
        "DEPRECATED connector field (pre-2025): items + shipping + tax in local currency, "
        "before discounts and refunds. Replaced by fct_orders.net_revenue_usd and, for "
        "Finance, fct_revenue_recognized.net_revenue_usd."
    ),
    "revenue_orders": "Revenue orders (status other than cancelled).",
    "roas": "attributed_revenue_usd / spend_usd; NULL without spend.",
    "sales_month": "First day of the sales month.",
    "sales_region": (
        "Sales region of the customer's country (stg_shop__countries): NA (US, CA), UK (GB) "
        "or EU (euro-area countries). UK is not part of EU."
    ),
    "sent_at": "When the email was sent.",
    "service_level": "Carrier service level.",
    "session_date": "UTC date the session started.",
    "session_ended_at": "Last event of the session.",
    "session_id": "Tracker session.",
    "session_started_at": "First event of the session.",
    "sessions": "Sessions.",
    "ship_month": "First day of the shipping month.",
    "shipment_event_id": "Primary key of the carrier scan.",
    "shipment_id": "Parcel (ful_shipments).",
    "shipments": "Parcels shipped.",
    "shipped_at": "When it shipped (UTC).",
    "shipping_amount": (
        "Shipping charged, order currency. Not revenue for Finance's product revenue."
    ),
    "shipping_cost": "Carrier's charge for the parcel.",
    "shipping_usd": "Shipping charged in USD at the order-date rate.",
    "signup_at": "Account signup time (UTC).",
    "signup_at_local": "signup_at in the customer's home time zone.",
    "sku": "Stock keeping unit.",
    "sla_hours": "First-response SLA in hours: 4 for urgent tickets, 24 otherwise.",
    "snapshot_date": "Month-end date of the stock count.",
    "source_document": "Document that produced the GL line: order or refund.",
    "source_system": "System the contact came from.",
    "spend_amount": "Spend in the platform's billing currency (latest extract).",
    "spend_date": "Day of the spend.",
    "spend_usd": "Spend in USD at the Treasury rate as of spend_date.",
    "started_at": "Start time (UTC).",
    "started_on": "First day of the campaign.",
    "starts_at": "Start of the promotion (UTC).",
    "status_event_id": "Primary key of the status event.",
    "stocked_out_products": "Products counted with zero units on hand.",
    "store_timezone": "IANA time zone of the store the order was placed in.",
    "subscription_event_id": "Primary key of the subscription event.",
    "subscription_id": "Subscription (sub_subscriptions).",
    "subscription_status": "active or cancelled.",
    "successful_captures": "Successful, non-duplicate captures.",
    "supplier_id": "Supplier (inv_suppliers).",
    "supplier_name": "Supplier name.",
    "surviving_customer_id": "The account kept after the merge.",
    "target_region": "Region the campaign targets: NA, EU, UK or GLOBAL.",
    "tax_amount": "Tax charged, order currency. Never revenue.",
    "tax_usd": "Tax in USD at the order-date rate.",
    "team": "Support team.",
    "ticket_category": "What the ticket is about.",
    "ticket_channel": "email, chat or phone.",
    "ticket_event_id": "Primary key of the ticket event.",
    "ticket_id": "Support ticket (sup_tickets).",
    "ticket_month": "First day of the month the ticket was created.",
    "ticket_status": "open or solved.",
    "tickets": "Tickets created.",
    "tickets_within_sla": "Tickets whose first reply met the SLA.",
    "touch_channel": "Marketing channel of the ad click.",
    "touched_at": "When the ad was clicked (UTC).",
    "touchpoint_id": "Primary key of the ad click.",
    "transit_hours": "Hours from pickup to delivery.",
    "uncounted_products": "Products not counted at month end.",
    "unit_cost_usd": "Unit cost in USD on the purchase order.",
    "unit_price": "Unit price in the order currency.",
    "units_sold": "Units sold on revenue orders.",
    "updated_at": "Last update in the source system (UTC).",
    "usd_to_currency": "Units of currency_code per USD (1 / rate_to_usd).",
    "utm_campaign": "utm_campaign of the landing URL.",
    "utm_medium": "utm_medium of the landing URL.",
    "utm_source": "utm_source of the landing URL.",
    "valid_from": "Start of the version's validity (inclusive).",
    "valid_to": (
        "End of the version's validity (exclusive); 9999-12-31 for the current version (NULL "
        "in the raw CDC)."
    ),
    "variance_usd": "actual_net_revenue_usd minus budget_net_revenue_usd.",
    "warehouse_hint": "Warehouse the storefront suggested at checkout (often overridden).",
    "warehouse_id": "Distribution centre (inv_warehouses).",
    "warehouse_name": "Distribution centre name.",
    "warehouse_timezone": "IANA time zone of the distribution centre.",
    "weight_grams": "Shipping weight in grams.",
    "weight_kg": "Parcel weight in kg.",
    "dbt_scd_id": "Snapshot row key (dbt).",
    "dbt_updated_at": "updated_at of the snapshotted version (dbt).",
    "dbt_valid_from": "Start of the snapshotted version (dbt).",
    "dbt_valid_to": "End of the snapshotted version; NULL for the current one (dbt).",
}


def column_description(model: str, column: str) -> str:
    """The dictionary's description of ``column`` (KeyError names a missing entry)."""
    if column in COLUMNS:
        return COLUMNS[column]
    match = re.fullmatch(r"custom_attr_(\d+)", column)
    if match:
        return (
            f"Custom storefront attribute {match.group(1)} exported by the tag manager; "
            "undocumented upstream, mostly NULL. Not used by any mart."
        )
    raise KeyError(f"{model}.{column}: no description in the data dictionary")
