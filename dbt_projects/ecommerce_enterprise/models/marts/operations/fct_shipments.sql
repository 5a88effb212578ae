select
    shipments.shipment_id,
    shipments.order_id,
    shipments.warehouse_id,
    shipments.warehouse_name,
    shipments.carrier_id,
    shipments.carrier_name,
    shipments.service_level,
    shipments.shipped_at,
    shipments.delivered_at,
    shipments.transit_hours,
    shipments.shipping_cost,
    shipments.currency_code,
    shipments.weight_kg,
    scans.latest_scan_type,
    scans.latest_scan_at
from {{ ref('int_shipments_enriched') }} as shipments
left join {{ ref('int_shipment_latest_scan') }} as scans on shipments.shipment_id = scans.shipment_id
