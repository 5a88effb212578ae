select carrier_id, carrier_name, service_level from {{ ref('stg_ful__carriers') }}
