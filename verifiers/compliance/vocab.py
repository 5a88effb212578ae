"""Word lists of card names: generic words, tier and product words, and the noise around names.

Kept apart from the matching logic in ``names`` so the vocabulary (which grows as new phrasings
turn up) and the algorithm (which should not) change independently.
"""

from __future__ import annotations

from replicas.verifiers.compliance.matchers import word_set

# Words that describe cards in general; they never make a phrase look like a product on their own.
GENERIC_WORDS = word_set(
    """
    a an the my your our their his her its this that these those both either each every all
    any and or of for with to in on at by from vs versus as is are be it i you we they if so
    but card cards credit debit account visa mastercard master amex american express discover
    network apr aprs rate rates interest annual fee fees foreign transaction transactions late
    penalty intro introductory promo promotional purchase purchases balance balances transfer
    transfers cash advance advances back rewards reward points miles travel dining groceries
    gas online bonus sign up signup welcome offer offers term terms summary details overview
    comparison recommendation recommendations note notes option options pick choice best top
    key why what how which who where when yes no not none total minimum maximum min max charge
    charges business grace period days months month year years variable fixed type issuer bank
    name product q answer question table row column apply eligibility eligible ineligible
    score tier low high standard regular ongoing first second third bottom line verdict pros
    cons
    """
)
# Words that distinguish tiers of one product line; one more after a real name invents a card.
TIER_WORDS = word_set(
    """
    plus preferred premier premium platinum gold silver elite select reserve pro max one prime
    ultra edge flex advantage classic essential essentials black diamond titanium sapphire 360
    """
)
LEADING_NOISE = word_set(
    """
    a an the my your our their this that these those both either each every all any and or for
    with to in on at by from as is are if i you we it get try consider choose apply recommend
    recommended pick go vs versus unlike compared earn use pay enjoy compare see note while
    whereas but because since also then however overall
    """
)
# Words a product name ends in ("... Rewards", "... Card", "... Reserve"); with a brand or a
# distinctive word in front they make a phrase read as a card product.
PRODUCT_WORDS = TIER_WORDS | word_set(
    """
    card rewards reward cash cashback miles points travel signature infinite world secured student
    business unlimited explorer traveler voyager sky rate
    """
)
# Capitalised words of headings and sentence starts that are never a brand.
NOT_NAME_WORDS = word_set(
    """
    compare comparing comparison option options overview summary recommended recommendation pick
    picks winner runner choice choices great good solid strong excellent ideal perfect everyday
    frequent occasional new existing low high flat tiered premium basic simple no zero earn earning
    best better top bottom our my why what which how
    """
)
TRAILING_NOISE = frozenset(["card", "cards", "credit", "visa", "mastercard", "amex", "discover"])
INSTITUTION_WORDS = frozenset(
    ["bank", "national", "financial", "credit", "union", "bancorp", "savings", "trust", "federal"]
)
# Ruleset 6: words that end the name of an issuer's department or channel ("Harborline Card
# Services", "Harborline Customer Support", "the Harborline Mobile App"), never a card's.
SERVICE_WORDS = word_set(
    """
    services service support care team center centre desk department helpline hotline app
    website portal
    """
)
