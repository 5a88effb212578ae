with

source as (

    select * from {{ source('sub', 'invoices') }}

),

renamed as (

    select
        invoice_id,
        subscription_id,
        issued_at,
        cast(issued_at as date) as invoice_date,
        amount as invoice_amount,
        currency_code,
        invoice_status

    from source

)

select * from renamed
