select
    invoice_id,
    subscription_id,
    invoice_date,
    invoice_amount,
    currency_code,
    invoice_amount_usd,
    invoice_status
from {{ ref('int_invoices_usd') }}
