select category_id, category_name, department from {{ ref('stg_shop__categories') }}
