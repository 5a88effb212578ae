with firsts as (

    select person_id, cast(date_trunc('month', min(order_date)) as date) as cohort_month
    from {{ ref('fct_orders') }}
    where is_revenue_order
    group by person_id

),

activity as (

    select distinct person_id, cast(date_trunc('month', order_date) as date) as active_month
    from {{ ref('fct_orders') }}
    where is_revenue_order

)

select
    firsts.cohort_month,
    date_diff('month', firsts.cohort_month, activity.active_month) as months_since_first_order,
    count(distinct activity.person_id) as active_people
from firsts
inner join activity on firsts.person_id = activity.person_id
group by 1, 2
