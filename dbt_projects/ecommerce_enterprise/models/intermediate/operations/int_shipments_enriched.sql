select
    shipments.shipment_id,
    shipments.order_id,
    shipments.warehouse_id,
    warehouses.warehouse_name,
    shipments.carrier_id,
    carriers.carrier_name,
    carriers.service_level,
    shipments.shipped_at,
    shipments.delivered_at,
    round(date_diff('minute', shipments.shipped_at, shipments.delivered_at) / 60.0, 2) as transit_hours,
    shipments.shipping_cost,
    shipments.currency_code,
    shipments.weight_kg
from {{ ref('stg_ful__shipments') }} as shipments
left join {{ ref('stg_inv__warehouses') }} as warehouses on shipments.warehouse_id = warehouses.warehouse_id
left join {{ ref('stg_ful__carriers') }} as carriers on shipments.carrier_id = carriers.carrier_id
