{#-
    Fails when sum(column) over the model differs from sum(compare_column) over compare_model by
    more than tolerance. Reconciles a mart against its source of truth, e.g. daily revenue
    against order-level revenue. compare_where filters compare_model (the model side takes the
    usual `config: where:`).
-#}
{% test sums_match(model, column_name, compare_model, compare_column, tolerance=0.01, compare_where=none) %}

with

model_side as (

    select coalesce(sum({{ column_name }}), 0) as total
    from {{ model }}

),

compare_side as (

    select coalesce(sum({{ compare_column }}), 0) as total
    from {{ compare_model }}
    {% if compare_where %}where {{ compare_where }}{% endif %}

)

select
    model_side.total as model_total,
    compare_side.total as compare_total
from model_side
cross join compare_side
where abs(model_side.total - compare_side.total) > {{ tolerance }}

{% endtest %}
