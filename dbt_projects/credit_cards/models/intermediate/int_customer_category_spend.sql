-- Average spend per customer and category over the whole 24-month window.
-- Dividing by the fixed window length (not by the months with spend) keeps months without
-- spend in the average, which is what "average monthly spend" means for rewards.
with spend as (
    select * from {{ ref('stg_card_spend') }}
),

window_length as (
    select count(distinct spend_month) as n_months from spend
),

per_category as (
    select
        spend.customer_id,
        spend.category,
        -- exact decimal sum: a parallel double sum's order can flip a rounded cent
        sum(spend.amount_usd::decimal(38, 10))::double as total_spend_usd
    from spend
    group by spend.customer_id, spend.category
),

final as (
    select
        per_category.customer_id,
        per_category.category,
        per_category.total_spend_usd,
        per_category.total_spend_usd / window_length.n_months as avg_monthly_spend_usd,
        per_category.total_spend_usd / window_length.n_months * 12 as annual_spend_usd
    from per_category
    cross join window_length
)

select * from final
