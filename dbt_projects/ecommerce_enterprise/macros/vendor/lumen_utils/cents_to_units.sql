{#- lumen_utils: Lumen's shared macro package, vendored (no `dbt deps` here). -#}
{% macro cents_to_units(column) -%}
    round(cast({{ column }} as double) / 100.0, 2)
{%- endmacro %}
