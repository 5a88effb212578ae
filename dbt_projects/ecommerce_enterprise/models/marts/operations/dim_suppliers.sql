select supplier_id, supplier_name, country_code, lead_time_days from {{ ref('stg_inv__suppliers') }}
