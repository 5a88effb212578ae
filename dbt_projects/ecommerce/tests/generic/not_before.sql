{#-
    Fails on every row where the column holds an earlier timestamp than reference_column
    (rows with either side NULL pass): e.g. shipped_at must not precede created_at.
-#}
{% test not_before(model, column_name, reference_column) %}

select {{ reference_column }} as reference_value, {{ column_name }} as offending_value
from {{ model }}
where {{ column_name }} < {{ reference_column }}

{% endtest %}
