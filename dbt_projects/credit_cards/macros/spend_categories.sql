{#- The bonus-eligible spend categories, in display order; "other" always earns the base rate. -#}
{% macro bonus_categories() %}
    {{ return(['groceries', 'dining', 'travel', 'gas', 'online']) }}
{% endmacro %}

{% macro spend_categories() %}
    {{ return(bonus_categories() + ['other']) }}
{% endmacro %}
