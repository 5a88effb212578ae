select
    gl_entry_id,
    posting_date,
    posting_month,
    account_code,
    pnl_line,
    cost_center_id,
    amount,
    currency_code,
    amount_usd,
    source_document,
    order_id
from {{ ref('int_gl_entries_usd') }}
