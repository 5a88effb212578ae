select
    cast(date_trunc('month', shipped_at) as date) as ship_month,
    carrier_name,
    count(*) as shipments,
    count(delivered_at) as delivered_shipments,
    round(median(transit_hours), 2) as median_transit_hours
from {{ ref('int_shipments_enriched') }}
group by 1, 2
