select
    customers.customer_id,
    coalesce(engagement.emails_sent, 0) as emails_sent,
    coalesce(engagement.emails_opened, 0) as emails_opened,
    coalesce(engagement.emails_clicked, 0) as emails_clicked,
    coalesce(engagement.emails_bounced, 0) as emails_bounced
from {{ ref('dim_customers') }} as customers
left join {{ ref('int_email_engagement') }} as engagement on customers.customer_id = engagement.customer_id
