with source as (
    select * from {{ source('raw', 'customers') }}
),

renamed as (
    select
        cast(customer_id as integer) as customer_id,
        first_name,
        last_name,
        state,
        cast(credit_score as integer) as credit_score,
        income_band,
        utilisation_pct,
        cast(months_of_history as integer) as months_of_history,
        cast(delinquencies_24m as integer) as delinquencies_24m,
        cast(bankruptcies as integer) as bankruptcies,
        cast(months_since_bankruptcy as integer) as months_since_bankruptcy,
        is_student
    from source
)

select * from renamed
