-- Whether each customer may be offered each card as of 2026-06-30, and the first rule that
-- fails. The rule order is part of the contract (see card_eligibility.yml).
with customers as (
    select * from {{ ref('stg_customers') }}
),

cards as (
    select * from {{ ref('stg_cards') }}
),

holdings as (
    select * from {{ ref('stg_existing_cards') }}
),

evaluated as (
    select
        customers.customer_id,
        cards.card_id,
        case
            when holdings.card_id is not null then 'already_holds_card'
            when cards.is_student_only and not customers.is_student then 'student_only'
            when customers.months_since_bankruptcy <= {{ var('recent_bankruptcy_months', 24) }}
                and not cards.is_secured then 'recent_bankruptcy'
            when customers.credit_score < cards.min_credit_score then 'credit_score_below_min'
            else 'ok'
        end as reason
    from customers
    cross join cards
    left join holdings
        on customers.customer_id = holdings.customer_id
        and cards.card_id = holdings.card_id
),

final as (
    select
        customer_id,
        card_id,
        reason = 'ok' as is_eligible,
        reason
    from evaluated
)

select * from final
order by customer_id, card_id
