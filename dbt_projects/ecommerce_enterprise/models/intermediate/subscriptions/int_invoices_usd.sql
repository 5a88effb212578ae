select
    invoices.invoice_id,
    invoices.subscription_id,
    invoices.invoice_date,
    invoices.invoice_amount,
    invoices.currency_code,
    invoices.invoice_status,
    round(invoices.invoice_amount * fx.rate_to_usd, 2) as invoice_amount_usd
from {{ ref('stg_sub__invoices') }} as invoices
left join {{ ref('int_fx_rates_daily') }} as fx
    on
        invoices.invoice_date = fx.rate_date
        and invoices.currency_code = fx.currency_code
