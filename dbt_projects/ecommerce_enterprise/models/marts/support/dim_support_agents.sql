select agent_id, agent_name, team, hired_at, is_active from {{ ref('stg_sup__agents') }}
