{% macro day_spine(start_date, end_date) -%}
    select cast(range as date) as date_day
    from range(date '{{ start_date }}', date '{{ end_date }}' + interval 1 day, interval 1 day)
{%- endmacro %}
