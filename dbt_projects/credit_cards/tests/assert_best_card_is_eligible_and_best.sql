-- Fails for a best card the customer is not eligible for, or when an eligible card is worth more
-- (or as much, with a smaller card_id).
with best as (
    select * from {{ ref('best_card') }} where card_id is not null
),

eligibility as (
    select * from {{ ref('card_eligibility') }}
),

card_value as (
    select * from {{ ref('card_value') }}
)

select best.customer_id, best.card_id, 'not eligible' as problem
from best
inner join eligibility
    on best.customer_id = eligibility.customer_id and best.card_id = eligibility.card_id
where not eligibility.is_eligible

union all

select best.customer_id, card_value.card_id, 'better eligible card' as problem
from best
inner join card_value on best.customer_id = card_value.customer_id
inner join eligibility
    on card_value.customer_id = eligibility.customer_id
    and card_value.card_id = eligibility.card_id
where eligibility.is_eligible
  and (
    card_value.ongoing_value_usd > best.ongoing_value_usd
    or (card_value.ongoing_value_usd = best.ongoing_value_usd and card_value.card_id < best.card_id)
  )
