select
    products.product_id,
    products.sku,
    products.product_name,
    products.category_name,
    categories.department,
    products.brand,
    products.cost_usd,
    products.list_price_usd,
    products.launched_at,
    products.is_active
from {{ ref('stg_shop__products') }} as products
left join {{ ref('stg_shop__categories') }} as categories on products.category_name = categories.category_name
