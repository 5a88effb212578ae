-- Card names must differ beyond letter case: "Summit cash" and "Summit Cash" cannot both exist.
select lower(card_name) as folded_name, count(*) as n_cards
from {{ ref('card_terms') }}
group by lower(card_name)
having count(*) > 1
