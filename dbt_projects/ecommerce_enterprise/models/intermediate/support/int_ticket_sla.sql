-- First-response SLA: 24 hours for every priority except 'urgent' (4 hours).
select
    ticket_id,
    customer_id,
    order_id,
    ticket_channel,
    ticket_category,
    priority,
    created_at,
    first_response_at,
    resolved_at,
    ticket_status,
    agent_id,
    round(date_diff('minute', created_at, first_response_at) / 60.0, 2) as first_response_hours,
    round(date_diff('minute', created_at, resolved_at) / 60.0, 2) as resolution_hours,
    case when priority = 'urgent' then 4 else 24 end as sla_hours,
    first_response_at is not null
    and date_diff('minute', created_at, first_response_at) <= 60 * (case when priority = 'urgent' then 4 else 24 end)
        as is_first_response_within_sla
from {{ ref('stg_sup__tickets') }}
