-- One row per shop account with the person it belongs to. Two accounts are one person when
-- their normalized emails match or Customer Care merged them (crm_identity_merges); the
-- person_id is the smallest customer_id of the group.
with accounts as (

    select customer_id, email_normalized from {{ ref('stg_shop__customers') }}

),

by_email as (

    select
        customer_id,
        min(customer_id) over (partition by email_normalized) as email_person_id
    from accounts

),

crm_merges as (

    select merged_customer_id, surviving_customer_id from {{ ref('stg_crm__identity_merges') }}

)

select
    by_email.customer_id,
    least(by_email.email_person_id, coalesce(crm_merges.surviving_customer_id, by_email.email_person_id)) as person_id,
    crm_merges.merged_customer_id is not null as is_crm_merged,
    by_email.email_person_id <> by_email.customer_id as is_email_duplicate
from by_email
left join crm_merges
    on by_email.customer_id = crm_merges.merged_customer_id
