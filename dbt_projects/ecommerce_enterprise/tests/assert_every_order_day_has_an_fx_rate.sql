-- The as-of FX table covers every order's date and currency (weekends and holidays included).
select orders.order_id
from {{ ref('stg_shop__orders') }} as orders
left join {{ ref('int_fx_rates_daily') }} as fx
    on
        orders.order_date = fx.rate_date
        and orders.currency_code = fx.currency_code
where fx.rate_to_usd is null
