"""Ruleset 7's rewrites: classes of phrasing rulesets 3-6 misread, turned into wording they read.

Like ruleset 5's ``expansions`` (which run first), each rewrite replaces a stretch of the
normalised text with the words the reader already knows and extends the map back to the
original, so a finding's span still quotes exactly what the agent wrote. A rewrite never touches
a capitalised phrase past its first letter (that is a product name, the name finder's business).

Each rewrite is one class of phrasing, found by writing many surface forms of a claim in our own
words (``tests/test_compliance_ruleset7.py``), not by fitting examples:

* **a label and its value joined by a dash or a question mark** ("Balance transfers - 0% for 18
  months", "Transferring? 0% for 18 months", "- Cash advances -- 5%"): ruleset 3 reads " - " as
  a clause boundary of contrast, so the label's kind (balance transfers) never typed the figure
  after it, and the figure was read as the card's purchase offer. A short figure-free label that
  opens a line, list item, table cell or sentence and ends in a word naming a kind of balance or
  offer becomes "label: value". Labels ending in "fee" or "APR" with a dash were read already.
* **a kind of transaction as the label of "no fee"** ("Balance transfers: no fee", "Foreign
  purchases - no fee", "Late payments: no charge"): the colon cut the kind from the negation, so
  nothing was claimed. Becomes "no balance transfer fee", "no foreign transaction fee", ...
* **balance transfers named otherwise**: "xfers", "balances from another bank", "debt from
  elsewhere", "transfers from your other cards" (read before as cards in general, bound to no
  card), "Transferring?".
* **interest waived without a rate**: "free of interest" (read as a fee-free claim), "won't
  accrue interest on X for 18 months", "you don't pay interest on X for 18 months", "18
  interest-free months", "0% until month 18", "waives interest on X" - each becomes "pay no
  interest" / "interest-free" / "for 18 months", which the reader types as an intro offer when a
  duration goes with it (and as nothing when none does: "you pay no interest if you pay in full").
* **no annual fee said as the cost of holding the card**: "free to hold", "costs nothing to
  keep", "no cost to own", "a no-fee card", "fee-free every year".
* **foreign transactions described by where they happen**: "purchases made outside the U.S.",
  "transactions in other currencies", "free to use abroad".
* **no late fee said through the missed payment**: "no fee for missed payments", "no charge if
  you pay late", "miss a payment and there's no fee" (not after "never" / "don't": that is the
  pay-on-time condition ruleset 6 reads).
* **the fee that starts in the second year**: "the $150 fee kicks in from year two", "starting
  the second year", "after a free first year", "the first year costs nothing", "first 12 months
  free": a claim that the first year is free, which the catalog may contradict (no waiver).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ahocorasick_rs import AhoCorasick, MatchKind

from replicas.verifiers.compliance.expansions import _in_windows, apply_replacements, merge_spans
from replicas.verifiers.compliance.numwords import NUMBER_WORDS, parse_number_words
from replicas.verifiers.compliance.text import NormalizedText

_S = r"[ \t]{1,3}"

# -- labels joined to their value by a dash or a question mark ---------------------------------
_KIND_LABEL_END = (
    r"(?:balance" + _S + r"transfers?|transfers?|xfers?|bts?|purchases|new" + _S + r"purchases"
    r"|cash" + _S + r"advances?|advances|late" + _S + r"payments?|missed" + _S + r"payments?"
    r"|foreign"
    + _S
    + r"(?:transactions?|purchases|spending)|transferring|moving"
    + _S
    + r"(?:a"
    + _S
    + r")?balances?|intro(?:ductory)?(?:"
    + _S
    + r"(?:apr|rate|offer|period))?"
    r"|promo(?:tional)?(?:" + _S + r"(?:apr|rate|offer|period))?|offer|(?:paying" + _S + r")?late)"
)
_LABEL_DASH = re.compile(
    r"(?:^|(?<=[\n|])|(?<=[.!:][ \t]))"
    r"(?P<lead>[ \t]{0,4}(?:(?:[-*+>\u2022]|\d{1,2}[.)])[ \t]{1,3})?(?:\*\*|__)?)"
    r"(?P<label>(?:[a-z][a-z'/()-]{0,20}[ \t]{1,2}){0,4}" + _KIND_LABEL_END + r")(?:\*\*|__)?"
    r"(?P<sep>[ \t]{1,3}-{1,2}[ \t]{1,3}|[ \t]{0,2}\?[ \t]{1,3}|-{2}[ \t]{0,2})"
    r"(?=\$|\d|zero\b|none\b|nil\b|n/a|nothing\b|free\b|no\b|up" + _S + r"to\b)"
)

# -- a kind of transaction as the label of "no fee" --------------------------------------------
_KIND_NO_FEE = re.compile(
    r"\b(?P<kind>foreign"
    + _S
    + r"(?:purchases|transactions?|spending)|(?:late|missed)"
    + _S
    + r"payments?|cash"
    + _S
    + r"advances?|balance"
    + _S
    + r"transfers?)"
    r"[ \t]{0,2}(?::|-{1,2})[ \t]{0,3}(?:\*\*)?(?:no|zero|\$0)" + _S + r"(?:fees?|charges?)\b"
)
_KIND_FEE_WORDS = (
    ("foreign", "no foreign transaction fee"),
    ("late", "no late fee"),
    ("missed", "no late fee"),
    ("cash", "no cash advance fee"),
    ("balance", "no balance transfer fee"),
)

# -- balance transfers named otherwise ---------------------------------------------------------
_XFER = re.compile(r"\bxfer(?P<s>s)?\b")
_BT_OTHER = re.compile(
    r"\b(?:transfers?|debts?|balances?)"
    + _S
    + r"(?:(?:held|sitting|carried|you"
    + _S
    + r"(?:have|owe|carry))"
    + _S
    + r")?(?:from|on|at|with)"
    + _S
    + r"(?:(?:your|an?|the)"
    + _S
    + r")?(?:other|another|old|older|previous|existing|current|different)"
    + _S
    + r"(?:credit"
    + _S
    + r")?(?:cards?|banks?|lenders?|issuers?|accounts?|providers?)\b"
    r"|\b(?:debts?|balances?)"
    + _S
    + r"(?:(?:from|held|sitting|you"
    + _S
    + r"(?:have|owe|carry))"
    + _S
    + r")?elsewhere\b"
    r"|\b(?:old|other|older|previous|current)"
    + _S
    + r"(?:credit"
    + _S
    + r")?card"
    + _S
    + r"(?:debts?|balances?)\b"
)
# Moving debt to the card by any verb: "switch your balance", "migrate what you owe", "bring
# across the money you owe elsewhere", "debt you move to it", "any balance you shift over",
# "balances moved from other cards", "consolidation". Not "carry over" or "roll over" (carrying a
# balance month to month is revolving, not a transfer) and not "bring your balance down".
_OWED = (
    r"(?:(?:(?:your|an?|the|that|this|any|all|existing|old|current|outstanding|high[ \t-]interest"
    r"|credit" + _S + r"card|card|other|remaining)" + _S + r"){0,3}(?:debts?|balances?)"
    r"|(?:what|whatever)"
    + _S
    + r"you"
    + _S
    + r"owe|(?:the"
    + _S
    + r")?money"
    + _S
    + r"you"
    + _S
    + r"owe)"
)
_PLACE = (
    r"(?:"
    + _S
    + r"(?:elsewhere|(?:from|on|at|with)"
    + _S
    + r"(?:(?:your|an?|the)"
    + _S
    + r")?(?:other|another|old|older|previous|existing|current|different)"
    + _S
    + r"(?:credit"
    + _S
    + r")?(?:cards?|banks?|lenders?|issuers?|accounts?|providers?)\b))?"
)
_MOVE_7 = (
    r"(?:switch(?:es|ing)?|swap(?:s|ping)?|migrat(?:e|es|ing)|port(?:s|ing)?|shift(?:s|ing)?"
    r"|mov(?:e|es|ing)|bring(?:s|ing)?|consolidat(?:e|es|ing))"
)
_MOVED_7 = (
    r"(?:switch(?:ed)?|swap(?:ped)?|migrat(?:e|ed)|port(?:ed)?|shift(?:ed)?|mov(?:e|ed)"
    r"|bring|brought|transferred|consolidated?)"
)
_DEBT_MOVED = re.compile(
    r"\b"
    + _MOVE_7
    + r"(?:"
    + _S
    + r"(?:over|across))?"
    + _S
    + _OWED
    + r"\b"
    + _PLACE
    + r"(?:"
    + _S
    + r"(?:over|across))?(?![ \t]{1,3}(?:down|off)\b)"
    r"|\b"
    + _OWED
    + r"(?:"
    + _S
    + r"(?:that|which))?(?:"
    + _S
    + r"you)?"
    + _S
    + _MOVED_7
    + r"(?:"
    + _S
    + r"(?:over|across|in|with"
    + _S
    + r"you))?\b"
    + _PLACE
    + r"|\b(?:what|whatever)"
    + _S
    + r"you"
    + _S
    + r"owe"
    + _PLACE.replace("))?", "))")
    + r"|\b(?:the"
    + _S
    + r")?money"
    + _S
    + r"you"
    + _S
    + r"owe"
    + _PLACE.replace("))?", "))")
    + r"|\bconsolidation\b(?![ \t]{1,3}loans?\b)|\bconsolidated"
    + _S
    + r"balances?\b"
    r"|\bbalance" + _S + r"switch(?:es)?\b|\bswitching" + _S + r"balances?\b"
    r"|\b(?:debts?|balances?)" + _S + r"to" + _S + r"(?:move|transfer|shift|switch|consolidate"
    r"|bring" + _S + r"(?:over|across))\b"
    r"|\b(?:amounts?|sums?)" + _S + r"(?:you" + _S + r")?transferred\b"
)
_TRANSFERRING_LABEL = re.compile(r"\b(?:transferring|consolidating)(?=[ \t]{0,2}[?:])")
# Paying off debt as what a rate is for, right before the rate: "Great for paying off debt: 0%
# for 18 months", "Pay down high-interest debt at 0%", "consolidate at 0%". Only in that
# position: "the 0% purchase intro gives you time to pay off debt" names no transfer.
_DEBT_PAYOFF = re.compile(
    r"\b(?:(?:pay(?:ing)?|paid)"
    + _S
    + r"(?:off|down)|tackl(?:e|ing)|refinanc(?:e|ing)|clear(?:ing)?"
    r"|knock(?:ing)?"
    + _S
    + r"out|chip(?:ping)?"
    + _S
    + r"away"
    + _S
    + r"at|attack(?:ing)?)"
    + _S
    + r"(?:(?:your|that|the|existing|old|high[ \t-]interest|credit"
    + _S
    + r"card|card|other|any)"
    + _S
    + r"){0,3}debts?\b|\bdebt"
    + _S
    + r"(?:payoff|pay-off|repayment)\b"
    r"|\bconsolidat(?:e|ing)\b"
)
_BEFORE_RATE = re.compile(
    r"[ \t]{0,2}[:,-]?[ \t]{0,3}(?:(?:at|with|using|via|for)"
    + _S
    + r"(?:an?"
    + _S
    + r"|just"
    + _S
    + r")?)?(?:\d{1,2}(?:\.\d{1,2})?[ \t]?%|zero\b)"
)

# -- interest waived without a rate ------------------------------------------------------------
_FREE_OF_INTEREST = re.compile(r"\bfree" + _S + r"of" + _S + r"(?:any" + _S + r")?interest\b")
_NO_INTEREST_VERB = re.compile(
    r"(?:\bwon't|\bwill"
    + _S
    + r"not|\bdon't|\bdo"
    + _S
    + r"not|\bdoesn't|\bdoes"
    + _S
    + r"not|\bnever)"
    + _S
    + r"(?:accrue|pay|charge|incur|rack"
    + _S
    + r"up|owe|be"
    + _S
    + r"charged|attract|collect|earn)"
    + _S
    + r"(?:any"
    + _S
    + r")?interest\b"
    r"|\bwaives?" + _S + r"(?:all" + _S + r"|any" + _S + r")?interest\b"
)
_INTEREST_FREE_MONTHS = re.compile(
    r"\b(?P<n>\d{1,2}|"
    + NUMBER_WORDS
    + r")"
    + _S
    + r"(?:interest[ \t-]free|0%|zero[ \t-]interest|no[ \t-]interest)"
    + _S
    + r"months\b"
)
_UNTIL_MONTH = re.compile(
    r"\b(?:until|till|til|through|thru|up"
    + _S
    + r"to)"
    + _S
    + r"(?:month|statement|billing"
    + _S
    + r"cycle)"
    + _S
    + r"(?P<n>\d{1,2})\b"
)

# "0% ... before the 19.99% rate kicks in": the rate after an offer, announced by "before"
_BEFORE_RATE_AFTER = re.compile(
    r"\bbefore(?:" + _S + r"(?:the|a|an|your|its))?" + _S + r"(?=\d{1,2}(?:\.\d{1,2})?[ \t]{0,2}%)"
)

# "0% on transfers for 18 months, then the purchase APR": the rate after an offer named by the
# purchase rate it equals - the word "purchase" there scopes the rate after, not the offer
_PURCHASE_APR = re.compile(
    r"\b(?:regular"
    + _S
    + r"|standard"
    + _S
    + r"|ongoing"
    + _S
    + r")?purchase"
    + _S
    + r"(?:apr|rate)\b"
)
_AFTER_WORD = re.compile(
    r"\b(?:then|after|afterwards?|revert(?:s|ing)?|followed|once|thereafter)\b"
)

# "12 monthly payments", "6 monthly instalments": a count of payments, no duration (ruleset 3
# read "12 month" in it as an intro period of 12 months)
_N_MONTHLY = re.compile(
    r"\b(?P<n>\d{1,2})" + _S + r"monthly(?=" + _S + r"(?:payments?|instal(?:l)?ments?|bills?"
    r"|statements?|credits?)\b)"
)

# "late-payment fee", "cash-advance fee", "foreign-transaction fee": the hyphen joins the words
# the reader knows apart
_HYPHENATED_KIND = re.compile(
    r"\b(?P<a>late|cash|foreign)-(?P<b>payments?|advances?|transactions?)\b"
)
# missing a payment named otherwise: "miss a due date", "forget a payment", "slip up on a payment"
_MISS_PAYMENT = re.compile(
    r"\b(?:miss(?:es|ed|ing)?" + _S + r"(?:a|your|the)" + _S + r"due" + _S + r"date"
    r"|(?:forget|forgot|forgetting|skip|skipped|skipping)"
    + _S
    + r"(?:a|your)"
    + _S
    + r"(?:payment|bill)|slip(?:s|ped)?"
    + _S
    + r"up"
    + _S
    + r"on"
    + _S
    + r"(?:a|your)"
    + _S
    + r"payment)\b"
)

# -- no annual fee as the cost of holding the card ---------------------------------------------
_HOLD = r"(?:hold|keep|own|carry|have|maintain)"
_FREE_TO_HOLD = re.compile(
    r"\bfree" + _S + r"to" + _S + _HOLD + r"\b"
    r"|\bcosts?" + _S + r"(?:you" + _S + r")?nothing" + _S + r"to" + _S + _HOLD + r"\b"
    r"|\bno[ \t-]{1,3}cost" + _S + r"to" + _S + _HOLD + r"\b"
    r"|\bfee-free" + _S + r"(?:every|each)" + _S + r"year\b"
    r"|\bno" + _S + r"(?:fee|charge|cost)" + _S + r"to" + _S + _HOLD + r"\b"
)
_NO_FEE_CARD = re.compile(r"\bno-fee(?=" + _S + r"(?:credit" + _S + r")?card\b)")

# -- foreign transactions described by where they happen ---------------------------------------
_ABROAD = re.compile(
    r"\b(?:purchases?|transactions?|spending|charges|payments)" + _S + r"(?:made" + _S + r")?"
    r"(?:outside" + _S + r"(?:of" + _S + r")?(?:the" + _S + r")?(?:u\.s\.a\.|u\.s\.a|u\.s\.|u\.s"
    r"|us|usa|uk|u\.k\.|united" + _S + r"(?:states|kingdom)|country|states)"
    r"|in" + _S + r"(?:other|foreign)" + _S + r"(?:currencies|countries)"
    r"|in" + _S + r"(?:another|a" + _S + r"foreign)" + _S + r"(?:currency|country))"
    r"(?![a-z])"
)
_FREE_ABROAD = re.compile(
    r"\bfree" + _S + r"to" + _S + r"use" + _S + r"(?:overseas|abroad|internationally)\b"
)

# -- no late fee said through the missed payment -----------------------------------------------
_NO_FEE_LATE = re.compile(
    r"\bno"
    + _S
    + r"(?:fees?|charges?|penalty(?:"
    + _S
    + r"fees?)?)"
    + _S
    + r"(?:for|on|with)"
    + _S
    + r"(?:(?:a|any|your)"
    + _S
    + r")?(?:late|missed|missing)"
    + _S
    + r"payments?\b"
    r"|\bno"
    + _S
    + r"(?:fees?|charges?)"
    + _S
    + r"(?:if|when|should)"
    + _S
    + r"you"
    + _S
    + r"(?:pay"
    + _S
    + r"late|miss"
    + _S
    + r"a"
    + _S
    + r"payment|are"
    + _S
    + r"late)\b"
)
_MISS_THEN_NO_FEE = re.compile(
    r"\b(?:miss(?:ing)?"
    + _S
    + r"a"
    + _S
    + r"payment|pay(?:ing)?"
    + _S
    + r"late)[ \t]{0,2},?"
    + _S
    + r"(?:and"
    + _S
    + r")?(?:there's|there"
    + _S
    + r"is|you"
    + _S
    + r"(?:pay|get|owe))"
    + _S
    + r"no"
    + _S
    + r"(?:fee|charge|penalty)\b"
)
_NOT_BEFORE = re.compile(r"(?:never|n't|not|avoid|without)[ \t]{1,3}$")

# -- the fee that starts in the second year ----------------------------------------------------
_YEAR_TWO = (
    r"(?:year"
    + _S
    + r"(?:two|2)|(?:the|your)"
    + _S
    + r"second"
    + _S
    + r"year)(?:"
    + _S
    + r"onwards?)?\b"
)
_SECOND_YEAR = re.compile(
    r"\b(?:kicks?"
    + _S
    + r"in|starts?|begins?|applies|is"
    + _S
    + r"charged|gets"
    + _S
    + r"charged|is"
    + _S
    + r"due)"
    + _S
    + r"(?:from|in|with|starting(?:"
    + _S
    + r"(?:in|from|with))?|beginning(?:"
    + _S
    + r"(?:in|with))?|as"
    + _S
    + r"of)"
    + _S
    + _YEAR_TWO
    + r"|\b(?:starting|beginning)"
    + _S
    + r"(?:(?:in|with|from)"
    + _S
    + r")?"
    + _YEAR_TWO
    + r"|\bafter"
    + _S
    + r"a"
    + _S
    + r"free"
    + _S
    + r"first"
    + _S
    + r"year\b"
)
# "intro annual fee of $0": the first-year price written before the word it qualifies
_INTRO_ANNUAL_ZERO = re.compile(
    r"\bintro(?:ductory)?"
    + _S
    + r"annual"
    + _S
    + r"fee(?:"
    + _S
    + r"(?:of|is)|[ \t]{0,2}:)?"
    + r"[ \t]{0,3}\$0(?:\.00)?(?![\d]|[.,]\d)"
)
_FIRST_YEAR_FREE = re.compile(
    r"\b(?:the"
    + _S
    + r")?first"
    + _S
    + r"(?:year|12"
    + _S
    + r"months|twelve"
    + _S
    + r"months)"
    + _S
    + r"(?:costs"
    + _S
    + r"(?:you"
    + _S
    + r")?nothing|is"
    + _S
    + r"on"
    + _S
    + r"the"
    + _S
    + r"house|is"
    + _S
    + r"free(?:"
    + _S
    + r"of"
    + _S
    + r"charge)?|comes"
    + _S
    + r"free|free)\b"
)

# -- the first year and the fee after it, more ways -------------------------------------------
_FIRST_YEAR_7 = (
    r"(?:(?:(?:the|your)"
    + _S
    + r")?(?:first|1st)"
    + _S
    + r"(?:year|12"
    + _S
    + r"months|twelve"
    + _S
    + r"months)|year"
    + _S
    + r"(?:one|1))"
)
# "$150 annual fee after year one", "annual fee of $150 after the first year", "... from the
# second year": a fee after the first year says the first year is free (only after a fee word)
_AFTER_YEAR_ONE = re.compile(
    r"\b(?:after" + _S + _FIRST_YEAR_7 + r"|(?:only" + _S + r")?from" + _S + _YEAR_TWO + r")"
)
_FEE_BEFORE = re.compile(
    r"(?:annual|yearly)" + _S + r"fee|/(?:yr|year)\b|" + _S + r"a" + _S + r"year\b"
)
# "first-year fee waived": the first year's fee is the annual fee's
_FIRST_YEAR_FEE = re.compile(r"\b(?:first|1st)[ \t-]year(?:'s)?" + _S + r"fee\b")
# "waived for 12 months", "waived for a year": the first year
_WAIVED_FOR_YEAR = re.compile(
    r"\bwaived"
    + _S
    + r"for"
    + _S
    + r"(?:(?:the"
    + _S
    + r"first"
    + _S
    + r")?(?:12|twelve)"
    + _S
    + r"months|(?:a|one|the"
    + _S
    + r"first)"
    + _S
    + r"year)\b"
)
# "doesn't apply in the first year", "isn't charged during your first year"
_NOT_FIRST_YEAR = re.compile(
    r"(?:\bdoes(?:n't|"
    + _S
    + r"not)|\bwon't|\bwill"
    + _S
    + r"not|\bis(?:n't|"
    + _S
    + r"not))"
    + _S
    + r"(?:apply|applied|charged|kick"
    + _S
    + r"in|due|payable)(?:"
    + _S
    + r"(?:in|during|for|until"
    + _S
    + r"after))?"
    + _S
    + _FIRST_YEAR_7
    + r"\b"
)

# -- no annual fee, more ways ------------------------------------------------------------------
# a bare zero next to the annual fee: "0 annual fee", "annual fee 0", "annual fee of zero",
# "its annual cost is zero", "a zero-fee card"
_ZERO_BEFORE_FEE = re.compile(r"(?<![\d.,$])\b0" + _S + r"(?=(?:annual|yearly)" + _S + r"fee\b)")
_ZERO_AFTER_FEE = re.compile(
    r"\b(?P<lead>(?:annual|yearly)"
    + _S
    + r"(?:fee|cost|charge)s?(?:"
    + _S
    + r"(?:is|of)|[ \t]{0,2}:)?)"
    r"[ \t]{1,3}(?:0|zero)(?:" + _S + r"dollars)?\b(?![ \t-]*(?:%|percent|\.\d|,\d))"
)
_ZERO_FEE_CARD = re.compile(r"\b(?:zero|no)-fee(?=" + _S + r"(?:credit" + _S + r")?cards?\b)")
# "No fee each year", "you pay nothing per year", "no fee for having the card"
_NOTHING_YEARLY = re.compile(
    r"\bno" + _S + r"(?:fee|charge)" + _S + r"(?:each|every|per|a)" + _S + r"year\b"
    r"|\b(?:pay|costs?)" + _S + r"nothing" + _S + r"(?:each|every|per|a)" + _S + r"year\b"
    r"|\bno"
    + _S
    + r"(?:fee|charge)"
    + _S
    + r"for"
    + _S
    + r"(?:having|holding|owning|carrying)"
    + _S
    + r"(?:the|this|it)(?:"
    + _S
    + r"card)?\b"
)
# "Annual fee: -", "Annual fee: \u2717", "Annual fee - nope": a fee label answered by a dash, a cross
# or "nope"
_FEE_LABEL_NONE = re.compile(
    r"\b(?P<label>(?:annual|yearly|foreign" + _S + r"transaction|late|balance" + _S + r"transfer"
    r"|cash" + _S + r"advance)" + _S + r"fees?)[ \t]{0,2}(?::|-{1,2}|\?)?[ \t]{0,3}"
    r"(?:-{1,2}|\u2717|\u2718|\u274c|nope|nah)(?=[ \t]*(?:[.;,!|\n]|$))"
)
# ruleset 9: the same labels answered by a cross or "nope" only - a dash there may as well mean
# "not stated" ("Annual fee: -" is unverified, not "none")
_FEE_LABEL_NONE_9 = re.compile(
    r"\b(?P<label>(?:annual|yearly|foreign" + _S + r"transaction|late|balance" + _S + r"transfer"
    r"|cash" + _S + r"advance)" + _S + r"fees?)[ \t]{0,2}(?::|-{1,2}|\?)?[ \t]{0,3}"
    r"(?:\u2717|\u2718|\u274c|nope|nah)(?=[ \t]*(?:[.;,!|\n]|$))"
)
# a table cell holding only a dash: nothing there ("| Annual fee | - |" is "none")
_DASH_CELL = re.compile(r"(?<=\|)[ \t]{0,3}-{1,2}[ \t]{0,3}(?=\|)")
# a question about a fee answered no: "Is there an annual fee on the X? No." -> "no annual fee"
_FEE_QUESTION_NO = re.compile(
    r"\b(?P<kind>annual|yearly|foreign"
    + _S
    + r"transaction|late|balance"
    + _S
    + r"transfer|cash"
    + _S
    + r"advance)"
    + _S
    + r"fees?\b[^.?!\n]{0,40}\?[ \t]{1,3}(?P<ans>(?:no(?:pe)?|none|nah|zero"
    r"|nothing|there"
    + _S
    + r"isn't(?:"
    + _S
    + r"one)?|there's"
    + _S
    + r"none|there"
    + _S
    + r"is"
    + _S
    + r"none)\b)"
    + r"(?=[ \t]*(?:[.!;\n]|$)|,[ \t]{1,3}(?:there|it|none|nope|not)\b)"
)

_TRIGGERS = (
    "-",
    "?",
    "xfer",
    "elsewhere",
    "other",
    "another",
    "old",
    "previous",
    "existing",
    "current",
    "different",
    "interest",
    "month",
    "free",
    "cost",
    "no-fee",
    "outside",
    "currenc",
    "countr",
    "late",
    "miss",
    "year",
    "intro",
    "before",
    "purchase",
    "due",
    "forg",
    "skip",
    "slip",
    "fee",
    ": no",
    ":no",
    "|",
)


def _is_name(text: str, a: int, b: int) -> bool:
    """A capital letter after the first character: a product name, not a paraphrase."""
    return any(ch.isupper() for ch in text[a + 1 : b])


def _number(word: str) -> int:
    return int(word) if word.isdigit() else parse_number_words(word)


# A dash that introduces a figure after a figure-free lead ("It doubles as a balance transfer
# card - 0% intro APR for 18 months", "Summit Cash -- $0 annual fee"): an elaboration, read as a
# colon. A dash after a figure ("$99 - not the $95") stays the contrast it is.
_DASH_BEFORE_FIGURE = re.compile(r"[ \t]{1,3}-{1,2}[ \t]{1,3}(?=\$|\d|zero\b)")
_LEAD_STOP = re.compile(r"[\n|;.!?:]")


def _near(
    pattern: re.Pattern[str], lower: str, anchors: tuple[str, ...], before: int, after: int
) -> list[re.Match[str]]:
    """``pattern``'s matches in the stretches around its anchor words (found with ``str.find``):
    each pattern holds one of its anchors, so the regex engine runs only where a match can be."""
    positions = _anchor_positions(lower)
    spans: list[tuple[int, int]] = []
    size = len(lower)
    for anchor in anchors:
        found = positions.get(anchor)
        if found is None:
            if anchor in _ANCHOR_SET:
                continue
            found = positions[anchor] = _find_all(lower, anchor)
        if found:
            # (max(0, pos - before), min(size, pos + reach)) for each position
            reach = len(anchor) + after
            spans += [
                (
                    pos - before if pos > before else 0,
                    pos + reach if pos + reach < size else size,
                )
                for pos in found
            ]
    if not spans:
        return []
    # (what ``_windows(lower, anchors, before, after)`` returns, from the positions kept)
    return _in_windows(pattern, lower, merge_spans(spans))


def _find_all(lower: str, anchor: str) -> list[int]:
    """Every position of ``anchor`` in ``lower``, overlapping ones included (as ``_windows``)."""
    out = []
    pos = lower.find(anchor)
    while pos >= 0:
        out.append(pos)
        pos = lower.find(anchor, pos + 1)
    return out


# The anchors' positions in the one text being read (``_word_replacements`` looks for the same
# anchor words - "year", "month", "fee", "late" - in one paragraph many times): kept for the last
# text only (one tuple, read and replaced whole), so the memory is bounded and the positions of
# one text are never used for another.
_LAST_POSITIONS: tuple[str, dict[str, list[int]]] = ("", {})
# every anchor word the patterns of this module are run around
_ANCHORS = (
    " -", " charge", " fee", "--", "-fee", "?", "annual", "another", "balance", "before",
    "carrying", "cash-", "charge", "consolidat", "consolidating", "cost", "countr", "currenc",
    "current", "cycle", "debt", "different", "due", "elsewhere", "existing", "fee", "foreign-",
    "forg", "free", "free to use", "having", "holding", "interest", "intro", "late", "late-",
    "miss", "month", "monthly", "months", "no-fee", "nothing", "old", "other", "outside", "owe",
    "owning", "previous", "purchase", "skip", "slip", "statement", "transferred", "transferring",
    "waived", "xfer", "year", "yearly", "|",
)  # fmt: skip
_ANCHOR_SET = frozenset(_ANCHORS)
_ANCHOR_AUTOMATON = AhoCorasick(list(_ANCHORS), matchkind=MatchKind.Standard)


def _anchor_positions(lower: str) -> dict[str, list[int]]:
    """Every anchor's positions in ``lower`` (overlapping ones too, as ``_find_all``), all found
    in one Aho-Corasick pass; an anchor missing from ``_ANCHORS`` is found by ``_near``."""
    global _LAST_POSITIONS
    last = _LAST_POSITIONS
    if last[0] is lower:
        return last[1]
    # (only the anchors that occur get an entry; ``_near`` reads a missing one of ``_ANCHORS`` as
    # absent; the order of the positions does not matter, ``_near`` sorts the spans)
    positions: dict[str, list[int]] = {}
    for index, start, _ in _ANCHOR_AUTOMATON.find_matches_as_indexes(lower, overlapping=True):
        anchor = _ANCHORS[index]
        found = positions.get(anchor)
        if found is None:
            positions[anchor] = [start]
        else:
            found.append(start)
    _LAST_POSITIONS = (lower, positions)
    return positions


def _label_replacements(text: str, lower: str) -> list[tuple[int, int, str]]:
    """The second pass: a label's dash or question mark (after the first pass renamed its
    words: "Moving debt from another card? 0% ..." is a balance-transfer label by then)."""
    if "-" not in lower and "?" not in lower:
        return []
    out = [
        (m.start("sep"), m.end("sep"), ": ")
        for m in _near(_LABEL_DASH, lower, (" -", "--", "?"), 130, 12)
    ]
    if " -" in lower:
        taken = {a for a, _, _ in out}
        for m in _near(_DASH_BEFORE_FIGURE, lower, (" -",), 4, 12):
            if m.start() in taken:
                continue
            stops = [
                s.end() for s in _LEAD_STOP.finditer(lower, max(0, m.start() - 120), m.start())
            ]
            lead = lower[stops[-1] if stops else max(0, m.start() - 120) : m.start()]
            if lead.strip() and not any(ch.isdigit() or ch in "$%" for ch in lead):
                out.append((m.start(), m.end(), ": "))
        out.sort()
    return out


def _replacements(text: str, lower: str) -> list[tuple[int, int, str]]:
    """Ruleset 7's rewrites of words (a dash in a table cell or after a fee label is "none")."""
    return _word_replacements(text, lower, dashes_say_none=True)


def _replacements_9(text: str, lower: str) -> list[tuple[int, int, str]]:
    """Ruleset 9's: ruleset 7's, except that a dash alone - a table cell or a fee label's value -
    says nothing (tables use it for "not stated" / "not applicable" as often as for "none")."""
    return _word_replacements(text, lower, dashes_say_none=False)


def _word_replacements(text: str, lower: str, dashes_say_none: bool) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if ": no" in lower or ":no" in lower or "-" in lower:
        for m in _near(_KIND_NO_FEE, lower, (" fee", " charge"), 60, 10):
            kind = m.group("kind")
            words = next(rep for key, rep in _KIND_FEE_WORDS if kind.startswith(key))
            out.append((m.start(), m.end(), words))
    if "xfer" in lower:
        for m in _near(_XFER, lower, ("xfer",), 2, 8):
            out.append((m.start(), m.end(), "transfer" + (m.group("s") or "")))
    for m in _near(
        _BT_OTHER,
        lower,
        (
            "other",
            "another",
            "elsewhere",
            "old",
            "previous",
            "existing",
            "current",
            "different",
            "transferred",
        ),
        60,
        60,
    ):
        if not _is_name(text, m.start(), m.end()):
            out.append((m.start(), m.end(), "balance transfers"))
    if "debt" in lower or "consolidat" in lower or "transferred" in lower:
        for m in _near(_DEBT_PAYOFF, lower, ("debt", "consolidat"), 70, 30):
            if _BEFORE_RATE.match(lower, m.end()) and not _is_name(text, m.start(), m.end()):
                out.append((m.start(), m.end(), "balance transfers"))
    if (
        "owe" in lower
        or "debt" in lower
        or "balance" in lower
        or "consolidat" in lower
        or ("transferred" in lower)
    ):
        for m in _near(
            _DEBT_MOVED, lower, ("owe", "debt", "balance", "consolidat", "transferred"), 70, 90
        ):
            if not _is_name(text, m.start(), m.end()):
                plural = "s" if re.search(r"(?:debts|balances)\b", m.group(0)) else ""
                out.append((m.start(), m.end(), "balance transfer" + plural))
    if "transferring" in lower or "consolidating" in lower:
        for m in _near(_TRANSFERRING_LABEL, lower, ("transferring", "consolidating"), 2, 16):
            out.append((m.start(), m.end(), "balance transfers"))
    if "interest" in lower:
        for m in _near(_FREE_OF_INTEREST, lower, ("interest",), 20, 10):
            out.append((m.start(), m.end(), "interest-free"))
        for m in _near(_NO_INTEREST_VERB, lower, ("interest",), 40, 10):
            out.append((m.start(), m.end(), "pay no interest"))
    if "purchase" in lower:
        for m in _near(_PURCHASE_APR, lower, ("purchase",), 30, 20):
            lead = lower[max(0, m.start() - 30) : m.start()]
            if _AFTER_WORD.search(lead) and not re.search(r"[.;\n%]", lead):
                out.append((m.start(), m.end(), "standard apr"))
    if "monthly" in lower:
        for m in _near(_N_MONTHLY, lower, ("monthly",), 6, 8):
            out.append((m.start(), m.end(), m.group("n") + " periodic"))
    if "-" in lower:
        for m in _near(_HYPHENATED_KIND, lower, ("late-", "cash-", "foreign-"), 2, 16):
            out.append((m.start(), m.end(), m.group("a") + " " + m.group("b")))
    if "due" in lower or "forg" in lower or "skip" in lower or "slip" in lower:
        for m in _near(_MISS_PAYMENT, lower, ("due", "forg", "skip", "slip"), 20, 30):
            out.append((m.start(), m.end(), "miss a payment"))
    if "before" in lower:
        for m in _near(_BEFORE_RATE_AFTER, lower, ("before",), 2, 20):
            out.append((m.start(), m.end(), "then "))
    if "month" in lower:
        for m in _near(_INTEREST_FREE_MONTHS, lower, ("month",), 50, 10):
            out.append((m.start(), m.end(), f"{_number(m.group('n'))} months interest-free"))
        for m in _near(_UNTIL_MONTH, lower, ("month", "statement", "cycle"), 30, 10):
            out.append((m.start(), m.end(), f"for {int(m.group('n'))} months"))
    for m in _near(_FREE_TO_HOLD, lower, ("free", "nothing", "cost", "fee", "charge"), 20, 40):
        out.append((m.start(), m.end(), "has no annual fee"))
    if "no-fee" in lower:
        for m in _near(_NO_FEE_CARD, lower, ("no-fee",), 2, 20):
            out.append((m.start(), m.end(), "no-annual-fee"))
    for m in _near(_ABROAD, lower, ("outside", "currenc", "countr"), 50, 40):
        # (no name check: "the U.S." and "the UK" are capitalised)
        out.append((m.start(), m.end(), "foreign transactions"))
    if "free" in lower:
        for m in _near(_FREE_ABROAD, lower, ("free to use",), 2, 30):
            out.append((m.start(), m.end(), "has no foreign transaction fees"))
    if "late" in lower or "miss" in lower:
        for m in _near(_NO_FEE_LATE, lower, ("late", "miss"), 70, 20):
            out.append((m.start(), m.end(), "no late fee"))
        for m in _near(_MISS_THEN_NO_FEE, lower, ("late", "miss"), 4, 60):
            if _NOT_BEFORE.search(lower, max(0, m.start() - 12), m.start()):
                continue  # "never miss a payment and there's no fee": the pay-on-time condition
            out.append((m.start(), m.end(), "there is no late fee"))
    if "year" in lower or "month" in lower:
        for m in _near(_SECOND_YEAR, lower, ("year",), 60, 30):
            out.append((m.start(), m.end(), "waived the first year"))
        for m in _near(_FIRST_YEAR_FREE, lower, ("year", "months"), 30, 50):
            out.append((m.start(), m.end(), "first year free"))
    if "year" in lower or "month" in lower:
        for m in _near(_AFTER_YEAR_ONE, lower, ("year", "months"), 40, 30):
            lead = lower[max(0, m.start() - 40) : m.start()]
            cut = max(lead.rfind("."), lead.rfind("\n"), lead.rfind(";"), lead.rfind("%"))
            if _FEE_BEFORE.search(lead, cut + 1):
                out.append((m.start(), m.end(), "waived the first year"))
        for m in _near(_FIRST_YEAR_FEE, lower, ("year",), 10, 20):
            out.append((m.start(), m.end(), "annual fee the first year"))
        for m in _near(_WAIVED_FOR_YEAR, lower, ("waived",), 2, 50):
            out.append((m.start(), m.end(), "waived the first year"))
        for m in _near(_NOT_FIRST_YEAR, lower, ("year", "months"), 70, 20):
            out.append((m.start(), m.end(), "is waived the first year"))
    if "fee" in lower or "cost" in lower or "charge" in lower or "nothing" in lower:
        for m in _near(_ZERO_BEFORE_FEE, lower, ("annual", "yearly"), 6, 20):
            out.append((m.start(), m.end() - (m.end() - m.start() - 1), "$0"))
        for m in _near(_ZERO_AFTER_FEE, lower, ("annual", "yearly"), 2, 50):
            out.append((m.start(), m.end(), m.group("lead") + " $0"))
        for m in _near(_ZERO_FEE_CARD, lower, ("-fee",), 6, 20):
            out.append((m.start(), m.end(), "no-annual-fee"))
        for m in _near(
            _NOTHING_YEARLY, lower, ("year", "having", "holding", "owning", "carrying"), 40, 30
        ):
            out.append((m.start(), m.end(), "pay no annual fee"))
        label_none = _FEE_LABEL_NONE if dashes_say_none else _FEE_LABEL_NONE_9
        for m in _near(label_none, lower, ("fee",), 40, 20):
            out.append((m.start(), m.end(), m.group("label") + ": none"))
        if "?" in lower:
            for m in _near(_FEE_QUESTION_NO, lower, ("?",), 100, 40):
                kind = " ".join(m.group("kind").split())
                out.append((m.start("ans"), m.end("ans"), f"there is no {kind} fee"))
    if dashes_say_none and "|" in lower:
        for m in _near(_DASH_CELL, lower, ("|",), 1, 8):
            out.append((m.start(), m.end(), " none "))
    if "intro" in lower:
        for m in _near(_INTRO_ANNUAL_ZERO, lower, ("intro",), 2, 40):
            out.append((m.start(), m.end(), "$0 intro annual fee"))

    out.sort()
    kept: list[tuple[int, int, str]] = []
    for item in out:
        if kept and item[0] < kept[-1][1]:
            continue
        kept.append(item)
    return kept


def expand7(norm: NormalizedText, dashes_say_none: bool = True) -> NormalizedText:
    """``norm`` with ruleset 7's rewrites applied and its map back to the original extended:
    the words first, then the labels they may have made (``dashes_say_none=False``: ruleset 9,
    which reads no dash as "none")."""
    if not any(t in norm.lower for t in _TRIGGERS):
        return norm
    if dashes_say_none:
        words = _apply(norm, _replacements, _WORDS)
    else:
        words = _apply(norm, _replacements_9, _WORDS_9)
    return _apply(words, _label_replacements, _LABELS)


_Found = tuple[tuple[int, int, str], ...]
_WORDS: dict[str, _Found] = {}
_WORDS_9: dict[str, _Found] = {}  # ruleset 9 rewrites less (its own cache: same block, other words)
_LABELS: dict[str, _Found] = {}
_CACHE_LIMIT = 50_000


def _by_paragraph(
    text: str,
    lower: str,
    finder: Callable[[str, str], list[tuple[int, int, str]]],
    cache: dict[str, _Found],
) -> list[tuple[int, int, str]]:
    """``finder`` paragraph by paragraph (blocks between blank lines), each ASCII paragraph's
    rewrites cached (answers repeat their paragraphs). No rewrite spans a blank line, so the
    paragraphs' rewrites are exactly the text's."""
    out: list[tuple[int, int, str]] = []
    size = len(text)
    pos = 0
    while pos < size:
        stop = text.find("\n\n", pos)
        stop = size if stop < 0 else stop + 2
        block = text[pos:stop]
        ascii_block = block.isascii()
        found = cache.get(block) if ascii_block else None
        if found is None:
            found = tuple(finder(block, lower[pos:stop]))
            if ascii_block and len(block) <= 4_000:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                cache[block] = found
        out.extend((a + pos, b + pos, rep) for a, b, rep in found)
        pos = stop
    return out


def _apply(
    norm: NormalizedText,
    finder: Callable[[str, str], list[tuple[int, int, str]]],
    cache: dict[str, _Found],
) -> NormalizedText:
    found = _by_paragraph(norm.text, norm.lower, finder, cache)
    if not found:
        return norm
    return apply_replacements(norm, found)


__all__ = ["expand7"]
