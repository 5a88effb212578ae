with source as (
    select * from {{ source('raw', 'cards') }}
),

renamed as (
    select
        card_id,
        card_name,
        cast(issuer_id as integer) as issuer_id,
        card_type,
        cast(tier as integer) as tier,

        -- eligibility
        is_secured,
        is_student_only,
        cast(min_credit_score as integer) as min_credit_score,
        cast(security_deposit_min_usd as integer) as security_deposit_min_usd,

        -- fees (USD) and rates (percent, e.g. 19.99)
        annual_fee_usd,
        annual_fee_first_year_usd,
        purchase_apr_min_pct,
        purchase_apr_max_pct,
        apr_is_variable,
        intro_purchase_apr_pct,
        cast(intro_purchase_months as integer) as intro_purchase_months,
        intro_bt_apr_pct,
        cast(intro_bt_months as integer) as intro_bt_months,
        bt_fee_pct,
        bt_fee_min_usd,
        cash_advance_apr_pct,
        cash_advance_fee_pct,
        cash_advance_fee_min_usd,
        penalty_apr_pct,
        foreign_txn_fee_pct,
        late_fee_usd,
        cast(grace_period_days as integer) as grace_period_days,
        min_interest_charge_usd,

        -- rewards
        reward_currency,
        base_reward_rate,
        point_value_usd,
        signup_bonus_usd,
        signup_spend_usd,
        cast(signup_months as integer) as signup_months
    from source
)

select * from renamed
