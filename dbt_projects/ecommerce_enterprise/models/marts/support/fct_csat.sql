select
    csat.csat_response_id,
    csat.ticket_id,
    csat.csat_score,
    csat.responded_at,
    tickets.agent_id,
    tickets.ticket_category
from {{ ref('stg_sup__csat') }} as csat
left join {{ ref('stg_sup__tickets') }} as tickets on csat.ticket_id = tickets.ticket_id
