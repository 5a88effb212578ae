{% macro revenue_status_list() -%}
    ({% for status in var('revenue_statuses') %}'{{ status }}'{% if not loop.last %}, {% endif %}{% endfor %})
{%- endmacro %}
