select
    customer_id,
    count(*) as emails_sent,
    count(opened_at) as emails_opened,
    count(clicked_at) as emails_clicked,
    count(*) filter (where is_bounced) as emails_bounced
from {{ ref('stg_mkt__email_sends') }}
group by customer_id
