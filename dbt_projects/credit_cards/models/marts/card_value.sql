-- Estimated yearly USD value of every card to every customer, from the customer's own spend.
-- The formula is stated in card_value.yml; rounding happens once, at the end.
with spend as (
    select * from {{ ref('int_customer_category_spend') }}
),

rates as (
    select * from {{ ref('int_card_category_rates') }}
),

cards as (
    select * from {{ ref('stg_cards') }}
),

earned as (
    select
        spend.customer_id,
        rates.card_id,
        -- exact decimal sums: a parallel double sum's order can flip a rounded cent
        sum(spend.annual_spend_usd::decimal(38, 10))::double as annual_spend_usd,
        sum((
            case
                when rates.annual_cap_usd is null then spend.annual_spend_usd * rates.rate
                else least(spend.annual_spend_usd, rates.annual_cap_usd) * rates.rate
                    + greatest(spend.annual_spend_usd - rates.annual_cap_usd, 0)
                    * rates.base_reward_rate
            end * rates.point_value_usd
        )::decimal(38, 10))::double as annual_rewards_usd
    from spend
    inner join rates on spend.category = rates.category
    group by spend.customer_id, rates.card_id
),

with_bonus as (
    select
        earned.*,
        cards.annual_fee_usd,
        cards.annual_fee_first_year_usd,
        coalesce(
            earned.annual_spend_usd / 12 * cards.signup_months >= cards.signup_spend_usd, false
        ) as signup_bonus_earned,
        cards.signup_bonus_usd
    from earned
    inner join cards on earned.card_id = cards.card_id
),

final as (
    select
        customer_id,
        card_id,
        round(annual_spend_usd, 2) as annual_spend_usd,
        round(annual_rewards_usd, 2) as annual_rewards_usd,
        annual_fee_usd,
        annual_fee_first_year_usd,
        signup_bonus_earned,
        case when signup_bonus_earned then signup_bonus_usd else 0 end as signup_bonus_value_usd,
        round(
            annual_rewards_usd
            - annual_fee_first_year_usd
            + case when signup_bonus_earned then signup_bonus_usd else 0 end,
            2
        ) as first_year_value_usd,
        round(annual_rewards_usd - annual_fee_usd, 2) as ongoing_value_usd
    from with_bonus
)

select * from final
order by customer_id, card_id
