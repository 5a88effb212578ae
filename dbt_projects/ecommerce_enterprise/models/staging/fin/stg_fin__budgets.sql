with

source as (

    select * from {{ source('fin', 'budgets') }}

),

renamed as (

    select
        budget_month,
        region as budget_region,
        budget_net_revenue_usd,
        budget_marketing_usd

    from source

)

select * from renamed
