select
    subscriptions.subscription_id,
    subscriptions.customer_id,
    subscriptions.plan_id,
    plans.plan_code,
    subscriptions.started_at,
    subscriptions.cancelled_at,
    subscriptions.subscription_status,
    subscriptions.currency_code
from {{ ref('stg_sub__subscriptions') }} as subscriptions
left join {{ ref('stg_sub__plans') }} as plans on subscriptions.plan_id = plans.plan_id
