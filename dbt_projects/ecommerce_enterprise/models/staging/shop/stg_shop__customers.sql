with

source as (

    select * from {{ source('shop', 'customers') }}

),

renamed as (

    select
        customer_id,
        email,
        {{ normalize_email('email') }} as email_normalized,
        first_name,
        last_name,
        country_code,
        home_timezone,
        signup_at,
        signup_at_local,
        acquisition_channel,
        is_test_account,
        loyalty_tier,
        marketing_opt_in,
        phone_number,
        legacy_customer_ref,
        updated_at

    from source

)

select * from renamed
