with customers as (

    select * from {{ ref('stg_shop__customers') }}

),

identity as (

    select * from {{ ref('int_customer_identity') }}

),

regions as (

    select * from {{ ref('stg_shop__countries') }}

)

select
    customers.customer_id,
    identity.person_id,
    customers.email_normalized,
    customers.first_name,
    customers.last_name,
    customers.country_code,
    regions.sales_region,
    regions.is_eu,
    customers.home_timezone,
    customers.signup_at,
    customers.signup_at_local,
    customers.acquisition_channel,
    customers.is_test_account,
    customers.loyalty_tier,
    customers.marketing_opt_in,
    identity.is_email_duplicate or identity.is_crm_merged as is_secondary_account
from customers
left join identity on customers.customer_id = identity.customer_id
left join regions on customers.country_code = regions.country_code
