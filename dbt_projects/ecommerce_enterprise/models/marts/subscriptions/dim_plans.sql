select plan_id, plan_code, billing_period, price_usd, is_legacy from {{ ref('stg_sub__plans') }}
