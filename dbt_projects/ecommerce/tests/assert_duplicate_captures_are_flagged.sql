-- Independent re-derivation of stg_payments.is_duplicate with a self-join: any successful
-- capture that follows another successful capture of the same order, method and amount within
-- the duplicate window must be flagged, and the earliest capture of such a group must not be.
-- Returns the mis-flagged payments.

with payments as (

    select * from {{ ref('stg_payments') }} where payment_status = 'success'

),

follows_an_earlier_capture as (

    select distinct later.payment_id
    from payments as later
    inner join payments as earlier
        on later.order_id = earlier.order_id
        and later.payment_method = earlier.payment_method
        and later.amount = earlier.amount
        and (earlier.paid_at < later.paid_at
             or (earlier.paid_at = later.paid_at and earlier.payment_id < later.payment_id))
        and later.paid_at - earlier.paid_at
            <= to_seconds({{ var('duplicate_payment_window_seconds') }})

)

select payments.payment_id, payments.is_duplicate
from payments
left join follows_an_earlier_capture using (payment_id)
where payments.is_duplicate <> (follows_an_earlier_capture.payment_id is not null)
