select
    pnl.posting_month,
    round(sum(pnl.pnl_amount_usd) filter (where pnl.pnl_line = 'net_revenue'), 2) as gl_net_revenue_usd,
    round(sum(pnl.pnl_amount_usd) filter (where pnl.pnl_line = 'shipping_revenue'), 2) as gl_shipping_revenue_usd
from {{ ref('fct_gl_monthly_pnl') }} as pnl
group by 1
