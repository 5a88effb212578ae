select
    cast(date_trunc('month', created_at) as date) as ticket_month,
    agent_id,
    count(*) as tickets,
    count(*) filter (where is_first_response_within_sla) as tickets_within_sla
from {{ ref('int_ticket_sla') }}
group by 1, 2
