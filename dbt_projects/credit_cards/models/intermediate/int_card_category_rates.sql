-- Every card's earn rate in every spend category: the bonus rate (with its cap) where the card
-- has one, the base rate (uncapped) everywhere else, including "other".
with cards as (
    select * from {{ ref('stg_cards') }}
),

bonuses as (
    select * from {{ ref('stg_card_rewards') }}
),

categories as (
    select distinct category from {{ ref('stg_card_spend') }}
),

final as (
    select
        cards.card_id,
        categories.category,
        coalesce(bonuses.rate, cards.base_reward_rate) as rate,
        bonuses.annual_cap_usd,
        cards.base_reward_rate,
        cards.point_value_usd,
        bonuses.card_id is not null as is_bonus_category
    from cards
    cross join categories
    left join bonuses
        on cards.card_id = bonuses.card_id
        and categories.category = bonuses.category
)

select * from final
