-- Platforms restate some days; the latest extract of a (day, campaign) replaces earlier ones.
select *
from {{ ref('stg_mkt__ad_spend') }}
qualify row_number() over (partition by spend_date, campaign_id order by extracted_at desc) = 1
