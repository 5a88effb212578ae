select date_day from {{ ref('int_calendar_days') }}
