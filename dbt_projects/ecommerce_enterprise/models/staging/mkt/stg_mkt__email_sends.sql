with

source as (

    select * from {{ source('mkt', 'email_sends') }}

),

renamed as (

    select
        email_send_id,
        customer_id,
        campaign_id,
        sent_at,
        opened_at,
        clicked_at,
        is_bounced

    from source

)

select * from renamed
