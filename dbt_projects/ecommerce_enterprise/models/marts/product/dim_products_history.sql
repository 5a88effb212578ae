-- SCD2 product dimension built from the CDC history (valid_from inclusive, valid_to exclusive).
select
    versions.product_version_id,
    versions.product_id,
    versions.category_name,
    versions.list_price_usd,
    versions.valid_from,
    versions.valid_to,
    versions.is_current
from {{ ref('int_product_versions') }} as versions
