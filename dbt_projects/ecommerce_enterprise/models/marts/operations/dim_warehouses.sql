select warehouse_id, warehouse_name, country_code, warehouse_timezone from {{ ref('stg_inv__warehouses') }}
