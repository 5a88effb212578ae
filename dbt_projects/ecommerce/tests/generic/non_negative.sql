{#- Fails on every row where the column is negative (NULLs pass: combine with not_null). -#}
{% test non_negative(model, column_name) %}

select {{ column_name }} as offending_value
from {{ model }}
where {{ column_name }} < 0

{% endtest %}
