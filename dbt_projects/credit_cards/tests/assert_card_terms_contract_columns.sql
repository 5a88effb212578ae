-- card_terms is a contract with the compliance verifier: exactly these columns, in this order.
with expected as (
    select
        'card_id,card_name,issuer,card_type,min_credit_score,annual_fee_usd,'
        || 'purchase_apr_min_pct,purchase_apr_max_pct,apr_is_variable,intro_purchase_apr_pct,'
        || 'intro_purchase_months,intro_bt_apr_pct,intro_bt_months,bt_fee_pct,bt_fee_min_usd,'
        || 'cash_advance_apr_pct,cash_advance_fee_pct,cash_advance_fee_min_usd,penalty_apr_pct,'
        || 'foreign_txn_fee_pct,late_fee_usd,grace_period_days,min_interest_charge_usd'
        as columns
),

actual as (
    select string_agg(column_name, ',' order by ordinal_position) as columns
    from information_schema.columns
    where table_schema = '{{ ref("card_terms").schema }}'
      and table_name = '{{ ref("card_terms").identifier }}'
)

select expected.columns as expected_columns, actual.columns as actual_columns
from expected
cross join actual
where actual.columns is distinct from expected.columns
