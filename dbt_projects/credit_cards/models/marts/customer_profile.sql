-- One row per customer with the credit tier and the average monthly spend per category.
with customers as (
    select * from {{ ref('stg_customers') }}
),

spend as (
    select * from {{ ref('int_customer_category_spend') }}
),

pivoted as (
    select
        customer_id,
        {% for category in spend_categories() %}
        round(sum(case when category = '{{ category }}' then avg_monthly_spend_usd::decimal(38, 10) else 0 end), 2)::double
            as avg_monthly_{{ category }}_usd,
        {% endfor %}
        -- summed as exact decimals: a parallel double sum's order flips some totals by a cent
        round(sum(avg_monthly_spend_usd::decimal(38, 10)), 2)::double as avg_monthly_total_usd
    from spend
    group by customer_id
),

final as (
    select
        customers.customer_id,
        customers.first_name,
        customers.last_name,
        customers.state,
        customers.credit_score,
        case
            when customers.credit_score < 580 then 'poor'
            when customers.credit_score < 670 then 'fair'
            when customers.credit_score < 740 then 'good'
            when customers.credit_score < 800 then 'very_good'
            else 'excellent'
        end as credit_tier,
        customers.income_band,
        customers.is_student,
        customers.utilisation_pct,
        customers.months_of_history,
        customers.delinquencies_24m,
        customers.bankruptcies,
        customers.months_since_bankruptcy,
        {% for category in spend_categories() %}
        coalesce(pivoted.avg_monthly_{{ category }}_usd, 0) as avg_monthly_{{ category }}_usd,
        {% endfor %}
        coalesce(pivoted.avg_monthly_total_usd, 0) as avg_monthly_total_usd
    from customers
    left join pivoted on customers.customer_id = pivoted.customer_id
)

select * from final
order by customer_id
