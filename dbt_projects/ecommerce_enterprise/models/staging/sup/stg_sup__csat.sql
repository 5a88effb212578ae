with

source as (

    select * from {{ source('sup', 'csat') }}

),

renamed as (

    select
        csat_response_id,
        ticket_id,
        score as csat_score,
        responded_at

    from source

)

select * from renamed
