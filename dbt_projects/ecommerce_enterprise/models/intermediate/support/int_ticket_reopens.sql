select
    ticket_id,
    count(*) filter (where event_type = 'reopened') as reopen_count
from {{ ref('stg_sup__ticket_events') }}
group by ticket_id
