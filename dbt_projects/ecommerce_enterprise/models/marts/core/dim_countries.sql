select
    country_code,
    country_name,
    sales_region,
    is_eu,
    local_currency_code
from {{ ref('stg_shop__countries') }}
