{#-
    Fails on every row whose value lies outside [min_value, max_value] (inclusive).
    Bounds are SQL expressions, so dates work too: min_value: "date '2024-01-01'".
    NULLs pass: combine with not_null.
-#}
{% test is_between(model, column_name, min_value, max_value) %}

select {{ column_name }} as offending_value
from {{ model }}
where {{ column_name }} < {{ min_value }}
   or {{ column_name }} > {{ max_value }}

{% endtest %}
