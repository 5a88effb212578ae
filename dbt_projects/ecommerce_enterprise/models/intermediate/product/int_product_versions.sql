-- SCD2 versions of each product from the CDC history: valid_from inclusive, valid_to
-- exclusive (9999-12-31 for the current version).
select
    history_id as product_version_id,
    product_id,
    category_name,
    list_price_usd,
    valid_from,
    coalesce(valid_to, timestamp '9999-12-31 00:00:00') as valid_to,
    valid_to is null as is_current
from {{ ref('stg_shop__product_history') }}
