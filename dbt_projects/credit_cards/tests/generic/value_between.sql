{#- Fails on rows whose non-NULL value lies outside [min_value, max_value] (NULL = "no such term"). -#}
{% test value_between(model, column_name, min_value, max_value) %}
select {{ column_name }} as failing_value
from {{ model }}
where {{ column_name }} is not null
  and ({{ column_name }} < {{ min_value }} or {{ column_name }} > {{ max_value }})
{% endtest %}
