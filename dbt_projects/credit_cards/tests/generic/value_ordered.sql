{#- Fails where min_column > max_column (rows where either is NULL pass). -#}
{% test value_ordered(model, min_column, max_column) %}
select {{ min_column }} as min_value, {{ max_column }} as max_value
from {{ model }}
where {{ min_column }} > {{ max_column }}
{% endtest %}
