{{ config(materialized='incremental', unique_key='shipment_event_id', on_schema_change='fail') }}

select
    events.shipment_event_id,
    events.shipment_id,
    shipments.order_id,
    shipments.carrier_id,
    events.event_type,
    events.event_at,
    cast(events.event_at as date) as event_date,
    events.event_at_local,
    events.loaded_at
from {{ ref('stg_ful__shipment_events') }} as events
inner join {{ ref('stg_ful__shipments') }} as shipments on events.shipment_id = shipments.shipment_id
{% if is_incremental() %}
where events.loaded_at > (select max(loaded_at) from {{ this }}) - interval {{ var('incremental_lookback_hours') }} hour
{% endif %}
