{{ config(materialized='incremental', unique_key='event_id', on_schema_change='fail') }}

select
    event_id,
    session_id,
    customer_id,
    platform,
    event_type,
    event_at,
    page_path,
    order_id,
    cast(event_at as date) as event_date,
    event_type = 'purchase' as is_purchase,
    loaded_at
from {{ ref('stg_web__events') }}
{% if is_incremental() %}
where loaded_at > (select max(loaded_at) from {{ this }}) - interval {{ var('incremental_lookback_hours') }} hour
{% endif %}
