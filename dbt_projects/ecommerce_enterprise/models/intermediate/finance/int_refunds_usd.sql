-- Each refund in USD at the rate as of its own refund date (Finance books refunds when paid).
select
    refunds.refund_id,
    refunds.order_id,
    refunds.refund_date,
    refunds.refund_reason,
    refunds.refund_amount,
    refunds.currency_code,
    round(refunds.refund_amount * fx.rate_to_usd, 2) as refund_amount_usd
from {{ ref('stg_pay__refunds') }} as refunds
left join {{ ref('int_fx_rates_daily') }} as fx
    on
        refunds.refund_date = fx.rate_date
        and refunds.currency_code = fx.currency_code
