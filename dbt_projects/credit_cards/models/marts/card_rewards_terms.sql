-- Rewards and sign-up terms of every card, one wide row per card, for the value model and the
-- compliance verifier ("3 % on groceries up to $6,000 a year" must match a row here).
with cards as (
    select * from {{ ref('stg_cards') }}
),

issuers as (
    select * from {{ ref('stg_issuers') }}
),

rates as (
    select * from {{ ref('int_card_category_rates') }}
),

pivoted as (
    select
        card_id,
        {% for category in spend_categories() %}
        max(case when category = '{{ category }}' then rate end) as {{ category }}_rate,
        max(case when category = '{{ category }}' then annual_cap_usd end) as {{ category }}_cap_usd,
        {% endfor %}
        string_agg(case when is_bonus_category then category end, ', ' order by category)
            as bonus_categories
    from rates
    group by card_id
),

final as (
    select
        cards.card_id,
        cards.card_name,
        issuers.issuer_name as issuer,
        issuers.network,
        cards.card_type,
        cards.reward_currency,
        cards.base_reward_rate,
        cards.point_value_usd,
        {% for category in bonus_categories() %}
        pivoted.{{ category }}_rate,
        pivoted.{{ category }}_cap_usd,
        {% endfor %}
        pivoted.other_rate,
        pivoted.bonus_categories,
        cards.signup_bonus_usd,
        cards.signup_spend_usd,
        cards.signup_months,
        cards.annual_fee_usd,
        cards.annual_fee_first_year_usd,
        cards.min_credit_score,
        cards.is_secured,
        cards.is_student_only,
        cards.security_deposit_min_usd
    from cards
    inner join issuers on cards.issuer_id = issuers.issuer_id
    inner join pivoted on cards.card_id = pivoted.card_id
)

select * from final
order by card_id
