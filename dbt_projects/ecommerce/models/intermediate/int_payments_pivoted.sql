{%- set methods = var('payment_methods') -%}

with

payments as (

    select * from {{ ref('stg_payments') }}

),

pivoted as (

    select
        order_id,
        count(*) filter (where counts_as_paid) as successful_payment_count,
        count(*) filter (where payment_status = 'failed') as failed_payment_count,
        count(*) filter (where is_duplicate) as duplicate_payment_count,
        {%- for method in methods %}
        round(coalesce(sum(amount) filter (where counts_as_paid and payment_method = '{{ method }}'), 0), 2)
            as {{ method }}_amount,
        {%- endfor %}
        round(coalesce(sum(amount) filter (where counts_as_paid), 0), 2) as total_paid_amount,
        round(coalesce(sum(amount) filter (where is_duplicate), 0), 2) as duplicate_paid_amount,
        min(paid_at) filter (where counts_as_paid) as first_paid_at,
        max(paid_at) filter (where counts_as_paid) as last_paid_at

    from payments
    group by order_id

)

select * from pivoted
