{#- Vendored equivalent of dbt_utils.unique_combination_of_columns (no `dbt deps` offline). Every
    replica's project ships this same file (tests/test_dbt_projects.py keeps the copies identical):
    it fails on each combination of the listed columns that occurs more than once (a grain test). -#}
{% test unique_combination_of_columns(model, combination_of_columns) %}

select
    {{ combination_of_columns | join(', ') }},
    count(*) as occurrences
from {{ model }}
group by {{ combination_of_columns | join(', ') }}
having count(*) > 1

{% endtest %}
