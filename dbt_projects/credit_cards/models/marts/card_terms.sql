-- The disclosure view of the catalog: exactly the Schumer-box columns, in contract order.
-- Downstream code (the compliance verifier) depends on these names and this order.
with cards as (
    select * from {{ ref('stg_cards') }}
),

issuers as (
    select * from {{ ref('stg_issuers') }}
),

final as (
    select
        cards.card_id,
        cards.card_name,
        issuers.issuer_name as issuer,
        cards.card_type,
        cards.min_credit_score,
        cards.annual_fee_usd,
        cards.purchase_apr_min_pct,
        cards.purchase_apr_max_pct,
        cards.apr_is_variable,
        cards.intro_purchase_apr_pct,
        cards.intro_purchase_months,
        cards.intro_bt_apr_pct,
        cards.intro_bt_months,
        cards.bt_fee_pct,
        cards.bt_fee_min_usd,
        cards.cash_advance_apr_pct,
        cards.cash_advance_fee_pct,
        cards.cash_advance_fee_min_usd,
        cards.penalty_apr_pct,
        cards.foreign_txn_fee_pct,
        cards.late_fee_usd,
        cards.grace_period_days,
        cards.min_interest_charge_usd
    from cards
    inner join issuers on cards.issuer_id = issuers.issuer_id
)

select * from final
order by card_id
