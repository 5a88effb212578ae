select
    identity.customer_id,
    identity.person_id,
    identity.is_email_duplicate,
    identity.is_crm_merged
from {{ ref('int_customer_identity') }} as identity
where identity.customer_id <> identity.person_id
