with

source as (

    select * from {{ source('raw', 'payments') }}

),

renamed as (

    select
        payment_id,
        order_id,
        method as payment_method,
        amount,
        currency as currency_code,
        status as payment_status,
        paid_at

    from source

),

flagged as (

    select
        *,
        -- A capture that repeats an earlier successful capture of the same order, method and
        -- amount within the window is the same money recorded twice.
        payment_status = 'success'
        and lag(paid_at) over (
            partition by order_id, payment_method, amount, payment_status
            order by paid_at, payment_id
        ) >= paid_at - to_seconds({{ var('duplicate_payment_window_seconds') }})
            as is_duplicate

    from renamed

)

select
    payment_id,
    order_id,
    payment_method,
    amount,
    currency_code,
    payment_status,
    paid_at,
    coalesce(is_duplicate, false) as is_duplicate,
    payment_status = 'success' and not coalesce(is_duplicate, false) as counts_as_paid

from flagged
