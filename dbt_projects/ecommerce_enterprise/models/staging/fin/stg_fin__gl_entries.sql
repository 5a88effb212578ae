with

source as (

    select * from {{ source('fin', 'gl_entries') }}

),

renamed as (

    select
        gl_entry_id,
        posting_date,
        account_code,
        cost_center_id,
        amount,
        currency_code,
        source_document,
        order_id,
        posted_at

    from source

)

select * from renamed
