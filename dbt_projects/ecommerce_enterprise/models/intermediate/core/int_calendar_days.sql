with days as (

    {{ day_spine('2024-01-01', '2026-06-30') }}

)

select
    date_day,
    cast(date_trunc('month', date_day) as date) as month_start,
    cast(date_trunc('quarter', date_day) as date) as quarter_start,
    extract(year from date_day) as calendar_year,
    extract(quarter from date_day) as calendar_quarter,
    isodow(date_day) as iso_day_of_week,
    isodow(date_day) in (6, 7) as is_weekend
from days
