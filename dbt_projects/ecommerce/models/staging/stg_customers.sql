with

source as (

    select * from {{ source('raw', 'customers') }}

),

renamed as (

    select
        customer_id,
        lower(email) as email,
        first_name,
        last_name,
        country as country_code,
        signup_at,
        cast(signup_at as date) as signup_date,
        acquisition_channel,
        -- QA accounts are flagged at the source; the address pattern is a second, independent tell.
        is_test_account or lower(email) like 'qa+%@lumenmarket.com' as is_test_account

    from source

)

select * from renamed
