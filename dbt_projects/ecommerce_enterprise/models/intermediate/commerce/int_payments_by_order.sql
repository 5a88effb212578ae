select
    order_id,
    count(*) as payment_attempts,
    count(*) filter (where is_successful and not is_duplicate_capture) as successful_captures,
    round(sum(amount) filter (where is_successful and not is_duplicate_capture), 2) as captured_amount,
    count(*) filter (where is_duplicate_capture) as duplicate_captures
from {{ ref('int_payments_deduped') }}
group by order_id
