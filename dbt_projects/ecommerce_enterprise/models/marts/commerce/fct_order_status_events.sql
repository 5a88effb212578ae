{{ config(materialized='incremental', unique_key='status_event_id', on_schema_change='fail') }}

select
    status_event_id,
    order_id,
    order_status,
    event_at,
    cast(event_at as date) as event_date,
    date_diff('hour', event_at, loaded_at) as load_lag_hours,
    loaded_at
from {{ ref('stg_shop__order_status_events') }}
{% if is_incremental() %}
where loaded_at > (select max(loaded_at) from {{ this }}) - interval {{ var('incremental_lookback_hours') }} hour
{% endif %}
