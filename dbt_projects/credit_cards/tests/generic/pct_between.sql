{#- A percentage stored as a number (19.99 = 19.99 %) within [min_value, max_value], default 0..100. -#}
{% test pct_between(model, column_name, min_value=0, max_value=100) %}
select {{ column_name }} as failing_pct
from {{ model }}
where {{ column_name }} is not null
  and ({{ column_name }} < {{ min_value }} or {{ column_name }} > {{ max_value }}
       or round({{ column_name }}, 2) <> {{ column_name }})
{% endtest %}
