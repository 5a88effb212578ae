-- The card to recommend to each customer: the eligible card with the highest ongoing value.
with customers as (
    select * from {{ ref('customer_profile') }}
),

eligible_values as (
    select
        card_value.customer_id,
        card_value.card_id,
        card_terms.card_name,
        card_value.ongoing_value_usd,
        card_value.first_year_value_usd
    from {{ ref('card_value') }} as card_value
    inner join {{ ref('card_eligibility') }} as eligibility
        on card_value.customer_id = eligibility.customer_id
        and card_value.card_id = eligibility.card_id
    inner join {{ ref('card_terms') }} as card_terms
        on card_value.card_id = card_terms.card_id
    where eligibility.is_eligible
),

ranked as (
    select
        *,
        row_number() over (
            partition by customer_id order by ongoing_value_usd desc, card_id asc
        ) as value_rank,
        count(*) over (partition by customer_id) as eligible_card_count
    from eligible_values
),

final as (
    select
        customers.customer_id,
        ranked.card_id,
        ranked.card_name,
        ranked.ongoing_value_usd,
        ranked.first_year_value_usd,
        coalesce(ranked.eligible_card_count, 0) as eligible_card_count
    from customers
    left join ranked
        on customers.customer_id = ranked.customer_id
        and ranked.value_rank = 1
)

select * from final
order by customer_id
