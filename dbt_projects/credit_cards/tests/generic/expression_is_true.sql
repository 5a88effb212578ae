{#- Vendored equivalent of dbt_utils.expression_is_true: fails on rows where expression is not true. -#}
{% test expression_is_true(model, expression) %}
select *
from {{ model }}
where not coalesce(({{ expression }}), false)
{% endtest %}
