with

source as (

    select * from {{ source('fin', 'gl_accounts') }}

),

renamed as (

    select
        account_code,
        account_name,
        account_type,
        is_deprecated

    from source

)

select * from renamed
