select
    entries.posting_month,
    centers.cost_center_region,
    entries.pnl_line,
    round(-sum(entries.amount_usd), 2) as pnl_amount_usd
from {{ ref('int_gl_entries_usd') }} as entries
left join {{ ref('stg_fin__cost_centers') }} as centers on entries.cost_center_id = centers.cost_center_id
where entries.pnl_line is not null
group by 1, 2, 3
