select
    sla.ticket_id,
    sla.customer_id,
    sla.order_id,
    sla.ticket_channel,
    sla.ticket_category,
    sla.priority,
    sla.created_at,
    sla.first_response_at,
    sla.resolved_at,
    sla.ticket_status,
    sla.agent_id,
    sla.first_response_hours,
    sla.resolution_hours,
    sla.sla_hours,
    sla.is_first_response_within_sla,
    coalesce(reopens.reopen_count, 0) as reopen_count
from {{ ref('int_ticket_sla') }} as sla
left join {{ ref('int_ticket_reopens') }} as reopens on sla.ticket_id = reopens.ticket_id
