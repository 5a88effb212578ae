select
    rate_date,
    currency_code,
    published_rate_date,
    rate_to_usd,
    is_carried_forward
from {{ ref('int_fx_rates_daily') }}
