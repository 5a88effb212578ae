with

source as (

    select * from {{ source('crm', 'contacts') }}

),

renamed as (

    select
        contact_id,
        customer_id,
        email,
        {{ normalize_email('email') }} as email_normalized,
        full_name,
        source_system,
        created_at

    from source

)

select * from renamed
