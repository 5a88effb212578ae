with

source as (

    select * from {{ source('sup', 'agents') }}

),

renamed as (

    select
        agent_id,
        agent_name,
        team,
        hired_at,
        is_active

    from source

)

select * from renamed
