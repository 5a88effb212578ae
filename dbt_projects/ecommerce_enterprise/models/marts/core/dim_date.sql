-- Lumen's fiscal year FY<N> runs from 1 February of N-1 to 31 January of N (FQ1 = Feb-Apr).
with days as (

    select * from {{ ref('int_calendar_days') }}

),

fiscal as (

    select
        *,
        cast(date_trunc('month', date_day - interval 1 month) as date) as fiscal_shifted_month
    from days

)

select
    fiscal.date_day,
    fiscal.month_start,
    quarter_start,
    calendar_year,
    calendar_quarter,
    iso_day_of_week,
    is_weekend,
    holidays.holiday_date is not null as is_treasury_holiday,
    not is_weekend and holidays.holiday_date is null as is_business_day,
    extract(year from fiscal_shifted_month) + 1 as fiscal_year,
    cast(floor((extract(month from fiscal_shifted_month) - 1) / 3) + 1 as integer) as fiscal_quarter,
    'FY' || cast(extract(year from fiscal_shifted_month) + 1 as varchar)
    || '-Q' || cast(cast(floor((extract(month from fiscal_shifted_month) - 1) / 3) + 1 as integer) as varchar)
        as fiscal_quarter_label
from fiscal
left join {{ ref('treasury_holidays') }} as holidays on fiscal.date_day = holidays.holiday_date
