"""Versioned rulesets: which detections a verdict was made with.

Published tasks (suites core-v1, core-v2, hard-v1) grade agent answers with the compliance
verifier, and a published task must never change its grading. So every detection added after
them is switched on by a flag of a ``Ruleset``, and a version number names each set of flags:

* ``3`` - the frozen ruleset the published credit_cards families pin (``FROZEN_RULESET``): the
  verifier as it was at commit ``ecd2f56`` (a test compares its verdicts byte for byte with that
  revision's on the evalset's tuning split and the test corpora).
* ``4`` - published at stop 20 (a test compares its verdicts byte for byte with revision
  ``6315072``): ruleset 3 plus term synonyms ("balance-transfer", "BTs", "transferring a
  balance"), more "no fee" forms ("charges nothing for balance transfers", "free balance
  transfers", "waives the transfer fee", "first year free") and more ways of recommending a card
  ("go with", "apply for", "is the card for you", "bottom line:").
* ``5`` - the default until stop 24: ruleset 4 plus abbreviations and paraphrases
  rewritten before reading ("no AF", "no FTF", "22.49% p.a.", "move your debt over",
  "consolidate your debt"), label values after arrows and question marks ("Annual fee -> none",
  "Annual fee? Zero."), first-year fees written "$0 intro", "free the first year", "first year
  $0, then $150" or "$150, first year: free" (and "$95 (first year $0)" no longer read as a $95
  first year), a negated waiver ("no first-year waiver") read as no waiver, "neither X nor Y" as a
  claim about each card, a "Recommended?" table column, an imperative after a sentence adverb
  ("honestly, just get the X"), a promotional rate followed by "then <APR>" read as an intro
  offer, a 10%-and-up percentage range before a reward clause read as the purchase APR, names
  read brand first where an issuer's one-word name is a card brand, and an issuer's full name
  followed by product words ("Ironwood Credit Union Signature Select") read as an invented card.
* ``6`` - ruleset 5 plus: an issuer's department ("Harborline Card Services") is no card; "no fee
  for being late" under a condition of paying on time is no fee claim; a lower-case catalog name
  with a premium tier word it lacks ("the summit cash platinum") is an invented card; balance
  transfers named by the debt they move ("existing card debt", "balances from other cards").
* ``7`` - ruleset 6 plus (opt-in): classes of phrasing found by writing many surface forms of
  each claim the held-out evalset missed (``expansions7``): a label joined to its value by a
  dash or a question mark ("Balance transfers - 0% for 18 months"), a kind of transaction as the
  label of "no fee" ("Foreign purchases: no fee"), balance transfers named otherwise ("xfers",
  "debt from another bank"), interest waived without a rate ("won't accrue interest for 18
  months", "free of interest"), no annual fee as the cost of holding the card ("free to keep"),
  foreign transactions by where they happen ("purchases outside the U.S."), no late fee through
  the missed payment ("no fee for missed payments"), the fee that starts in the second year
  ("kicks in from year two"); the rate after an offer named by the purchase rate ("then the
  purchase APR") no longer scoping the offer; a sentence's one kind of balance (or the question
  before it) scoping an unscoped intro rate; a duration belonging to the intro rate it follows;
  more ways of recommending a card ("take a look at X", "X is right for you", "you can apply for
  X", not in a question), and a requirement denied among the reasons for a pick ("you don't need
  a long credit history") ruling nothing out.
* ``8`` - ruleset 7 plus (opt-in) fixes for the failure classes a blind evalset found
  (``ruleset8``): an approximate APR ("about 18% to 24% in round numbers", "roughly 19%") is
  wrong only if it is more than 1 percentage point from the card's rate; a card ruled out by its
  requirement or in new words ("only open to students, so I've ruled it out", "it's off the
  table", "needs a 700 score") is not recommended, even as the first words of a sentence under
  a recommending lead-in; a pick by position ("My pick is the first card listed", "go with the
  second one", "the card in the left column") recommends the card in that position; a cash
  advance or penalty APR that equals an end of the purchase range no longer counts as the rate
  after an intro offer; and of two intro offers in one sentence, a duration written before the
  second rate ("transfers run 15 billing cycles at 0%") is the second offer's, once the first
  has its own, and each is checked as the offer its words name; a sentence that names no card
  but opens by position ("For the first card, the late fee is up to $41") is about the card in
  that position (none, if that is an invented name), not the card named last.
* ``9`` - the default (``DEFAULT_RULESET``) since stop 24, chosen on a blind evalset nobody
  tuned on (seeds 22-23 of session 9's: false positives 1/192 against ruleset 5's 7/192, recall
  as high or higher on every code): ruleset 8 plus one correction, precision first (issue 13, ``unstated9``): a
  value that may mean "none" or "not stated" is unverified, not a "no fee" claim. Rulesets 7-8
  read a dash alone - a table cell holding "-" or an em dash, "Annual fee: -" - as "none", and
  rulesets 3-8 read "n/a" after a label ("Annual fee: n/a", "Intro APR: n/a") so; tables write
  both for a term they do not state, and rulesets 7-8 flagged all ten of the kit's own compliant
  800-word answers and 7.7 % of the older labelled evalset's compliant items through dash cells
  alone. Ruleset 9 reads neither as any claim; the words that do say "none" ("none", "no fee",
  "$0", "free", "not applicable", a cross, "nope") are read and checked as in ruleset 8.
* ``10`` - ruleset 9 plus (opt-in) fixes for the classes of error session 10's blind evalset
  showed on its tuning split (``ruleset10``, ``names10``), precision first: a yes/no question
  ("Can I use the X abroad without extra fees?") claims nothing, a copula or wh-question no
  "none", a rhetorical one ("Can you believe ...?") all it says; a
  worked example's result ("the 3% fee would be $90") and a spending amount ("on up to $1,000 a
  year", "after you spend $500") are unverified, not fees; "the first year of the X comes with
  the annual fee waived" is the first year's fee, "$95, waived the first year" the $95 annual
  fee and a waived first year, "$25.00" reads as "$25", and a first-year waiver alone does not
  disclose a recommended card's annual fee; durations in words holding "a year" ("for half a
  year", "a year and a half") read as months, not as the annual-fee cue; an unscoped intro rate
  restating a scoped offer of the same card keeps that offer's kind; a name word split by a
  space ("Meri dian Cash Rewards") is a misspelling, and names in lower case are read - a typo
  after an exact brand or catalog name ("the cardinal juurney preferred", "the summit cash
  prefered") is a misspelling, a brand with strong product words no card has or with a word
  dropped ("atlas black cash", "the centerline sky") an invented card.

* ``11`` - the default since stop 26 (published opt-in at ``c2e8940``, made the default unchanged
  once its held-out scores equalled ruleset 10's: FP 3/384, every recall the same): ruleset 10
  plus fixes for the classes an attack on ruleset 10 found
  (``ruleset11``, ``confusables11``; README "Ruleset 11"): a claim about cards named together is
  checked against each; a quote is the response's claim unless it rejects it; "has none",
  "doesn't", "fee-free" and lists under "Cards with no annual fee:" are read; "no <fee> and 0%
  ..." negates the fee only; a question answered by a bare figure is a claim; emphasis inside a
  figure, "9,99%" and a figure alone on its line are read; a worked example's arithmetic is
  checked; a double negative or a conditional aimed at another card rules nothing out;
  look-alike letters and underscores in a name make it a misspelling, a tier word in markup
  names the tier's card; a corrected myth, a waiver in months and "lacks" read as meant.
* ``12`` - the default from stop 27 to stop 28 (published opt-in at ``0801913``, made the default unchanged
  once its held-out scores beat ruleset 11's on both blind sets: s12 FP 10/300 -> 3/300,
  ``misspelled_card`` 52/60 -> 58/60, ``unknown_card`` 58/60 -> 59/60; s10 ``misspelled_card``
  45/48 -> 47/48, nothing worse): ruleset 11 plus fixes for the classes session 12's blind evalset showed on
  its tuning split (``ruleset12``; README "Ruleset 12"), precision first: a name wrapped onto the
  next line of a list item ("- Gray\\n  Rock Cash") reads as one name; a name within two edits of
  exactly one catalog name as a whole is a misspelling of it (the nearer of two near-twins);
  misspelt names opened by a brand typo or a run-on brand ("willaw buld", "compassplatinum
  one") in any case, and invented names in lower case (an issuer's name before product words, a
  brand on another brand's product line, an unfamiliar word before a product line used as a
  card twice) are read; a figure describing an indefinite card ("keep one card with no annual
  fee open") is unverified.
* ``13`` - the default in stop 28 (published opt-in at ``399f00c``, made the default
  unchanged because on session 13's blind held-out part it is better or equal on every figure:
  ``unknown_card`` 49/60 -> 54/60, false positives 7/300 both, every other code the same):
  ruleset 12 plus fixes for the classes session 13's blind evalset showed on
  its tuning split (``ruleset13``), precision first: an invented Title Case name ending in a
  possessive "Card's", an issuer's full name (with "bank", "bancorp") before an invented product
  in lower case, and an unfamiliar word before product words used once as a card in lower case
  ("the copperfield miles card's lounge") are unknown cards; a ruled-out card read as
  recommended only inside a question ("Is the X a good fit?") is not recommended.
* ``14`` - the default since stop 29 (published opt-in at ``584441f``, made the default
  unchanged because on both fresh blind held-out parts it is better or equal on every figure:
  s14 false positives 30/300 -> 0/300, ``unknown_card`` 56/60 -> 58/60; s15 false positives
  21/300 -> 1/300, ``ineligible_card`` 25/30 -> 30/30, ``missing_disclosure`` 23/30 -> 28/30):
  ruleset 13 plus fixes for the classes session 13's whole blind set showed
  once retired as tuning data (``ruleset14``), precision first: a reward rate ("1% cash back"),
  "no balance transfer promotion" and a fee's "$5 minimum" are no fee or APR claims; a myth
  introduced as an assumption and corrected is not claimed; "zero <fee> and 0% intro ...",
  "fee-free cash advances" and "0% ..., reverting to 20%" are read as written; invented names
  with a possessive on a product or tier word, a brand before two invented words in lower
  case, and an unfamiliar word before product words after a recommending verb are unknown cards.
  Its second part (``ruleset14b``, session 14's blind tuning split): footnote markers
  ("Atlas Cash¹") are dropped; a lower-case invented name filling a recommendation's slot and
  named again is an unknown card; a short label defined for a card ("(\"Scholar\")") names it; a
  fee total over several years is unverified; a figure in a parenthesis right after a card's
  name is that card's; a customer's belief quoted ("you thought ...") and corrected is not
  claimed. Its third part (``ruleset14c``, session 15's blind tuning split): a run of card names
  after one recommending phrase ("I'd recommend the A, the B or the C", "... for you, Sam: the
  A.") is recommended; a range over several cards ("across these, fees run from $0 to $95") and
  "(that value) is not a fee" are no card's claims; "zero interest ... as an introductory offer"
  is a 0% intro rate and "nothing in year one" a first-year fee of nothing; a misspelled name in
  lower case named so twice ("the vista claer") is a misspelled card.
* ``15`` - opt-in: ruleset 14 plus fixes for the classes the s16 blind set's tuning split showed
  (``ruleset15``), precision first: an intro offer's length in the footnote its marker points to
  ("0% intro APR on purchases**" / "** For 15 months ...", also "*", a dagger, "[1]", a
  superscript) is read and checked; a yearly value's first year in brackets ("value ~$338 a year
  ($1,838 in year one)"), a periodic rate worked out from the APR ("20.49% APR / 12 = 1.71% a
  month", "monthly periodic rate of 1.67%") and a "no fee" (or an indefinite intro offer) in what
  "does not mean" denies ("a 0% transfer offer does not mean transfers are free") are no card's
  claims, and the figure after the possessive of the card a fee is compared with ("$146 more
  than the B's $49") is that card's fee, checked; an issuer's first word before an invented
  product in lower case, used as a card ("hollow elevate cash offers ...") is an unknown card.
* ``16`` - the default in stop 30: ruleset 15 plus ``ruleset16``: a lower-case "<word> rewards
  rate" is no invented card, and a figure called a rewards rate is no APR.
* ``17`` - the default since stop 31 (``ruleset17``): ruleset 16 plus fixes for the classes the
  s17 and s18 blind sets' tuning splits showed, precision first: a short label inside a line
  ("In short — One: ...; Platinum: ...") names the one card the response names that it begins
  or ends; a figure "mentioned" or quoted and declared wrong, or stated in the customer's turn
  of a transcript, is not claimed once a figure of the same family corrects it; a yearly value
  priced by year, figures ordered by a comparison sign and a fee paid over several years are no
  card's claims; an intro figure whose unit names one kind of balance only is checked against
  that offer alone; "USD 95" reads as "$95"; "the first one's" / "the second's" name the cards
  just named in that order; "people often say ..." corrected is not claimed; what the customer
  spends is no fee; a recommended card's annual fee is disclosed only by a fee claim bound to
  that card, not by another card's equal figure.
* ``18`` - the default in stop 32 (``ruleset18``): ruleset 17 plus spoken decimals, quoted
  forum lines and caller turns as corrected beliefs, "respectively" after the figures, "the
  <tail of one named card>", questions and generic subjects unbound, worked fee arithmetic.
* ``19`` - the default in stop 33 (``ruleset19``): ruleset 18 plus fixes for the classes the s20 and s21 blind
  sets' tuning parts still showed, precision first: "the former" / "the latter" / "the other
  one" name one of exactly two cards named before ("The other one I like: the X" names the X);
  "5%/$10" is a fee and its minimum and "3% on
  purchases abroad" the foreign transaction fee; figures about "a true 0% promotion" are
  unverified; "Why not X?" answered by a requirement rules X out, and parallel "Take the X."
  examples recommend nothing; a card offered to the customer as an option (a table row, a
  record's name, a list item or a heading of its own) counts for the eligibility rule unless
  the response rules it out, and a record's "Status: recommended" or "<card> imo" recommends;
  capitalised words no catalog card holds in a recommendation's slot are an invented card.
* ``20`` - the default in stop 34 (``ruleset20``): ruleset 19 plus fixes for the classes
  the s20, s21, s22 and s23 blind sets' tuning parts still showed, precision first: "3% per balance transfer" is the
  balance transfer fee and "N percent" reads as "N%"; "3.99% on transferred balances for 21
  months" after a fee list is an intro rate, "purch" is purchases; a "$0*" cell whose footnote
  gives the first year and the fee after it is the first year's fee; figures about "most
  issuers" are unverified, and so are those of a customer's chat turn naming no card that the
  answer corrects; a rated heading ("**X** 4/5") offers its card for the eligibility rule; a
  figure someone else stated ("you said $25", "as you thought", "a friend told you") or that the
  answer denies ("isn't $695") is not the card's claim when a figure of its kind corrects it in
  its sentence or the next (the correcting figure is checked); a low rate followed by "after
  which" / "then" and the go-to rate is an intro rate; "Number one for me: X" and "X ticks most
  of your boxes" recommend X; a rate its own words call the penalty APR is checked against it.
* ``21`` - the default in stop 35 (``ruleset21``): ruleset 20 plus fixes for the classes the s24 blind set's
  first writer showed, precision first: terse reward notation ("3% gas", "1.5% base", "it pays
  5%") is no APR or fee, and a reward's spend cap ("(first $1,500 a year)", "up to $6k") or a
  value after "~" no fee; "the two Crest travel cards" names a category, not an invented card;
  "$90 up front (3%)" and "under 2%" are unverified; a list under a heading naming one term
  ("Penalty APR check:" / "- Card: 28.99%") is checked as that term; "0% on purchases for a
  while" is an intro rate of no stated length; "your options are the A and the B" offers both.
  Part 2 (``ruleset21b``, the s24 third and fourth writers): "then 1%" after a reward cap and a
  "flat 2%" are reward rates; sums on "a $N transfer" and "the extra $6" are arithmetic; "it is
  not 0% intro" and "no introductory waiver" claim no intro APR; a figure in a warning is
  unverified; "A% on purchases and B% on transfers for N months" shares the months; a name in
  a spelling note is no card; a card ruled out in its own sentence is not recommended.
* ``22`` - opt-in (``ruleset22``, ``ruleset22b``): ruleset 21 plus fixes for the classes the s25
  tuning set showed (denied waivers, a figure owned by the card in its parenthesis, a card named
  as a point of comparison, shortened names, new ways to recommend or rule out a card).
* ``23`` - the default in stop 37 (``ruleset23``): ruleset 22 plus part c
  (``ruleset22c``: worked fee amounts are arithmetic) and readings of what a figure can be: a
  figure no catalog card could have as that term is unverified, a figure followed by "on / for
  the <card>" is that card's, a dollar figure that is another one of its sentence plus or
  minus the card's annual fee is arithmetic, and a table cell under a value column ("Est.
  rewards / yr", "After fee") is no term.
* ``24`` - the default in stop 38 (``ruleset24``): ruleset 23 plus fixes for the classes the
  s27 blind sets' tuning halves showed: who a figure is about (one-word references such as "the
  Plus's", a figure bound only by context given to the recent card it is right for, labels and
  headings kept), corrected statements, dollar amounts that are no price ("an $80 transfer",
  "-> $162 a year"), "year one has no annual fee" as the first-year fee, kinds of card ("a
  no-annual-fee card"), and the one card (or the ranked cards) put to a customer.
* ``25`` - the default in stop 39 (``ruleset25``, ``ruleset25b``): ruleset 24 plus fixes for the classes the
  s28 blind sets' tuning halves showed: dollar figures the answer works out (totals, nets,
  "brings that to"), fees worked out from a transaction stated before them, cards named
  only in an aside (in brackets) and bracket labels, one-word references without an article or
  of digits ("Beacon's", "the 360's"), and definite references to an intro offer ("the 9-month
  0% window").
* ``26`` - the default in stop 40 (``ruleset26``): ruleset 25 plus fixes for the classes the
  s29 blind sets' tuning halves showed: "Why not X?" answered by a requirement the customer
  fails rules X out, a note led by a rank ("#1 late fee up to $41") is about the card "#1"
  names, results the answer says are the reader's ("so that $X is all yours", "est rew $X/yr",
  "That comes to about $X a year" after an earning rate), goals and headers that are no claims
  ("no-fee" as an item of a list of goals, "Annual Percentage Rate") and a lower-case "one"
  used as a word after a name, which is no tier ("one by one"), "no 0% transfer offer" as no
  intro transfer APR (not the fee after it), and a late fee the reader avoids by a payment habit;
  and, from the s30 tuning halves, entries of a ruled-out list or record ("card: X / reason: you
  have it already"), prose after a code block, estimates in a record's keys, balances with the fee
  added, a value rejected after ", not", a quoted statement the reply corrects, and negated verbs
  whose object is the term ("doesn't cover the $95 fee").
* ``27`` - the default in stop 41 (``ruleset27``, ``ruleset27b``): ruleset 26 plus readings
  chosen on the tuning halves of all read blind sets at once, each for a class that holds for any
  writer: a fee figure whose words name no fee is held as a fee only when its value looks like a fee
  of the catalog ("a flat 2% card", "$247 after the fee" are a reward rate and an amount), an
  unknown product that is the tail of one card named in full is that card ("the Clear Plus" after
  "Cascade Clear Plus"), a dollar figure right after "=" that the arithmetic before it works out to
  is a result where its paragraph says what the amounts are worth ("$413 x 12 x 2% = $99.12 a
  year"), a lower-case kind of card ("an everyday rewards card") is no product, and a percentage
  followed by a spend category after "the first year" is a reward rate ("$95 annual fee, $0 the
  first year, 3% travel and dining").
* ``28`` - the default in stop 42 (``ruleset28``, ``ruleset28b``, ``ruleset28c``): ruleset 27
  plus readings for recall, of false claims earlier rulesets let pass: a percentage that its own
  noun phrase calls a fee is that fee ("a cash back card with a 3% foreign transaction fee"),
  "charged from the first year" after a dollar annual fee is also the first-year fee ("$95
  annual fee, charged from the first year"), "and it's a variable rate" after a purchase APR is
  its fixed/variable word ("14.99% - and it's a variable rate"), a tier-sounding word of its own
  after a card named exactly makes an unknown product ("the Summit Cash Plus Prestige"), the
  card a recommending clause leads to is recommended ("I'd look at the X", "Short answer: the
  X"), and a single rate typed as a card's cash advance or penalty APR alone is checked against
  that APR ("cash advances are charged 26.24%").
* ``29`` - the default in stop 43 (``ruleset29``): ruleset 28 plus readings of the s33 blind
  sets' tuning halves. For recall: a pick after a label whose bold closes after its colon ("> **The
  short answer:** the **X**"), the reasons given for a pick ("because it pays well on your
  spending") no longer unmake it, and "0% / 15mo" is a rate for fifteen months. For precision: a
  labelled or reported reader's question about an intro offer that the answer denies ("**q:**
  does the X have a 0% intro period?" / "no introductory apr ..."), a value net of the fee ("at
  $350 after the first-year fee") and a compound number around "hundred"
  ("two-hundred-fifty-dollar") are read as such.
* ``30`` - the default in stop 44 (``ruleset30``): ruleset 29 plus readings, all for
  precision, of the s34 blind sets' false flags: talk about promotions in general denies no
  card's offer (a hedged denial, one in an if-clause, or a "zero" that counts a balance: "may not
  share the promo rate", "you'd pay interest if there's no promo"), an intro rate in a table cell
  followed by its own kind and months is read with them ("0% purchases, 15 mo + 0% transfers, 21
  mo" is two offers), a dollar figure "in combined fees" that is the fees of the cards named
  before it is their sum, not a card's annual fee, and a card named after "except" in a group's
  denial ("most of these have no annual fee, except the X at $95") is not denied (``promos_30``,
  ``cells_30``, ``totals_30``, ``except_30``); and of s36's tuning halves: a card the answer
  treats as the customer's own ("keep your X", "you're carrying:") is not put forward, "$10k" is
  no $10 fee, and a transfer or cash advance fee worked out on an amount the answer moves, owes
  or transfers is arithmetic (``held_30``, ``thousands_30``, ``worked_30``).
* ``31`` - the default in stop 45 (``ruleset31``, ``ruleset31b``, ``ruleset31c``): ruleset 30
  plus readings, all for precision, of the s36 and s37 blind sets' tuning halves' false flags: a
  card the answer names in full and then calls by a short name (one word of its name, or its
  initials: "Beacon 26.24% var", "BJR has no intro rate") takes the figures after that short name,
  a yearly value worked out ("the Plus wins by $19/yr", "that's +$133/yr") is no annual fee, two
  fees after two cards joined by "and" ("X and Y charge $39 and $29") are the cards' in order (a
  swapped pair is flagged), a fee inside "a ... card" in a sentence that names no card ("a flat 2%
  no-fee card") is about cards in general, and "needs only $300" is an amount required, no fee
  (``shortrefs_31``, ``yearly_31``, ``pairs_31``, ``generic_31``, ``needs_31``); and, in a
  recommendation, a card the customer already holds that the answer treats as theirs ("your",
  "keep", "already") is put forward only by words that put it forward ("I'd suggest", "apply for",
  "my pick"), not by a review of it, and a past suggestion the answer corrects ("in my last reply
  I suggested X. You pointed out ...") or a counterfactual pick ("X would normally be the pick,
  but ...") is no pick (``held_31``, ``retracted_31``).
* ``32`` - the default in stop 46 (``ruleset32``, ``ruleset32b``): ruleset 31 plus readings,
  all for precision, of the s36, s37 and s38 blind sets' tuning halves' false flags: a fee figure
  whose words leave several fees open ("$960, no fee") is unverified unless a fee word governs it
  (``kinds_32``); the head of a card named in full, a shared tier word or lower-case words of
  cards in general ("the only secured card") call a real card or none, no invented one
  (``names_32``); "$95 after the first year" is the annual fee, not the first year's
  (``after_first_32``); and, in a recommendation, a held card whose first mention the answer makes
  the customer's ("your X", "you already have A, B and X", a list led by "Keep") is put forward
  only by words of getting it ("apply", "add", "open"), not by a review's ("best", "strong", "my
  pick for groceries") (``held_32``).
* ``33`` - the default in stop 47 (``ruleset33``): ruleset 32 plus a reading, for precision
  (``worked_33``): a dollar figure bound to a card as a fee, wrong for each of its cards, is
  unverified when it is the card's own percentage fee (balance transfer, cash advance, foreign
  transaction, with its minimum) worked out where its own line shows the working ("say you're
  moving $6,000 ... fee = $180", "Quick maths on $6,000:" above "- X: $300 fee", "-> $100 on
  $2,000"); a total of named cards' annual fees, its own among them, with words of a total
  ("between the A ($29) and the B ($39), you're paying $68 a year in fees"), the difference of its
  own and another's its sentence names ("costs $10 more a year than the A"), or a late fee times a
  count of late payments; a result the answer marks as worked ("=", "->", "total", a sign) that
  is, to the dollar, the sum or difference of two figures before it on its line, the line above or
  its list's lead, or a reward rate on its line times one of them ("6.25% = $2,250 a year", "->
  +$118 a year"); or a bonus added in ("a $250 bonus ... plus $250 in year one"). A figure a fee
  word governs is still the fee unless an arrow or a total of fees marks it ("annual fee = $550",
  "the yearly fee comes to $300" are fees), and an amount only echoed from elsewhere is no
  operand.
* ``34`` - the default in stop 48 (``ruleset34``): ruleset 33 plus readings for recall
  of the s36-s39 blind sets' tuning halves' missed codes and of red team Y's holes that rulesets
  32 and 33 share: a first-person verb of getting a card right before it puts the card forward
  ("I'd add the **X**", "at 610 I'd go **X**:", "I'd move it to X"), unless its sentence, the one
  before or after it, its list's heading or a sub-item puts the step off or takes it back, it
  quotes someone, it is for someone else, or its paragraph speaks of what the card requires or of
  a later step (``acquire_34``); a clause that says what a card's first year costs is checked
  against the catalog's first-year fee: a waiver ("which waives the $325 for your first year",
  "$95 ($0 year one)") on a card that charges its fee in year one, and the first year's fee ("the
  first year is $95", "no first-year waiver") on a card that waives it - never in a question, a
  request, a hedge, a report, a comparison, a clause about another fee, a perk or the years after
  it (``first_year_34``; a waived figure that is the card's fee is no first-year fee, so "it waives
  the $95 for your first year", true, is no longer flagged); and, for precision, thousands no
  fee word governs ("up to $6k/yr") and deposits ("$200 deposit", "only $200 down,") are no fees
  (``amounts_34``).
* ``35`` - the default since stop 49 (``ruleset35``): ruleset 34 plus, for precision, a dollar
  figure a fee word governs but no word names ("fee: $240", "$200 fee + ~$140 interest") that is
  none of the dollar fees any card in the catalog charges and is a named card's percentage fee
  worked out on an amount the answer writes just before it (or the saving of one such fee against
  another) is left unverified (``unnamed_35``); and the feedback names every figure the checks
  left unverified, not only those the extraction bound to no card (``unverified_35``). A fee named
  at its figure ("a $120 annual fee", "late fee $45") is checked as before. Written, attacked and
  dropped: ``yearly_35`` (a yearly figure no fee word governs that is no catalog annual fee) and
  ``dominant_35`` (the one card an answer to a customer is about, put forward).

A ruleset is data, not code: one module per concern reads the flag it needs. Callers pass the
version number (``verify_response(..., ruleset=3)``); ``None`` means the default.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Ruleset:
    """The detections one version switches on (every flag off is ruleset 3)."""

    version: int
    # "balance-transfer", "BTs", "transferring a balance" read as balance transfers
    term_synonyms: bool = False
    # "charges nothing for X", "free balance transfers", "waives the X fee", "first year free"
    more_fee_negations: bool = False
    # "go with X", "apply for X", "X is the card for you", "bottom line: X", ...
    more_recommendations: bool = False
    # "both the X and the Y have no annual fee", "neither X nor Y": a claim about each card
    joint_subjects: bool = False
    # ruleset 5: "no AF", "no FTF", "22.49% p.a.", "move your debt over" rewritten before reading
    expansions: bool = False
    # ruleset 5: "Annual fee -> none", "$0 intro, then $95", "free the first year", "no
    # first-year waiver" (read as no waiver), "no annual fee in year one" forms
    fee_forms_5: bool = False
    # ruleset 5: "Neither X nor Y has ..." (the negator before both names) is about each card
    neither_nor: bool = False
    # ruleset 5: a "Recommended?" / "Pick" table column answered "Yes" recommends its row's card
    recommended_column: bool = False
    # ruleset 5: an imperative after a sentence adverb ("honestly, just get the X") recommends X
    more_recommendations_5: bool = False
    # ruleset 5: names read with ruleset 5's name index: a card brand that is also an issuer's
    # one-word name ("Lakeshore Trust" / "Lakeshore Voyager") still leads product names, so
    # "Lakeshore Voyagr" is a misspelling; an issuer's full name followed by product words
    # ("Ironwood Credit Union Signature Select") is an invented product
    brand_before_issuer: bool = False
    # ruleset 6: an issuer's name before a department word ("Harborline Card Services",
    # "Harborline Customer Support") names the issuer's service, not a card
    service_names: bool = False
    # ruleset 6: "there's no fee for being late" under a condition of paying on time ("if you
    # pay on time, ...", "... as long as you never miss a payment") states how to avoid the fee,
    # true of every card - not that the card has no late fee
    on_time_condition: bool = False
    # ruleset 6: a catalog name written in lower case with a premium tier word after it that the
    # line does not have ("the summit cash platinum") is an invented card, as it is capitalised
    lowercase_tiers: bool = False
    # ruleset 6: balance transfers named by the debt they move: "existing card debt", "balances
    # from other cards", "the balance you carry over", "consolidated debt", "when you
    # consolidate"
    transfer_paraphrases_6: bool = False
    # ruleset 7: the rewrites of ``expansions7`` (labels joined by dashes or question marks,
    # "Foreign purchases: no fee", "xfers", "won't accrue interest", "free to keep", "purchases
    # outside the U.S.", "no fee for missed payments", "kicks in from year two", ...)
    rewrites_7: bool = False
    # ruleset 7: "take a look at X", "X is right for you", "Pick: X", "start with X", "X should be
    # your first card", "X is the card to get", "X checks every box", "you'd do well with X"
    more_recommendations_7: bool = False
    # ruleset 7: an intro rate its clause does not scope takes the one kind of balance its
    # sentence named before it ("For balance transfers, though, the X wins: 0% for 12 months")
    topic_scopes_7: bool = False
    # ruleset 8: an approximate APR ("about 18%", "~24%", "in round numbers") within 1 point of
    # the card's rate is a restatement, not a wrong APR
    approximate_figures_8: bool = False
    # ruleset 8: "only open to students, so I've ruled it out", "it's off the table", "it needs a
    # 700 score": a sentence naming one card rules it out (unless it also recommends)
    ruled_out_8: bool = False
    # ruleset 8: "My pick is the first card listed", "go with the second one", "the card in the
    # left column": the card in that position is recommended
    ordinal_picks_8: bool = False
    # ruleset 8: a cash advance or penalty APR equal to an end of the purchase range is not the
    # rate after an intro offer (disclosure rule)
    goto_rates_8: bool = False
    # ruleset 8: a duration before an intro rate, after the previous offer's own duration, is
    # this rate's ("0% on purchases for 12 months, and transfers run 15 months at 0%"); and
    # where one sentence states both offers of a card, each with its own kind, each is checked
    # as that offer (no "it may mean the other offer" benefit of the doubt)
    own_months_8: bool = False
    # ruleset 8: a sentence naming no card that opens by position ("For the first card, the late
    # fee is $41") is about the card in that position, not the card named last
    positional_subjects_8: bool = False
    # ruleset 9: a dash alone (a table cell "-" or an em dash, "Annual fee: -") and "n/a" may mean
    # "not stated" as well as "none": no claim (rulesets 7-8 read the dash, 3-8 "n/a", as "none")
    unstated_values_9: bool = False
    # ruleset 10: a word split by a space ("Meri dian Cash Rewards") and names in lower case
    # ("the cardinal juurney preferred", "atlas black cash") read as misspelt / invented names
    names_10: bool = False
    # ruleset 10: a yes/no question ("Can I use the X abroad without extra fees?") claims
    # nothing; a copula ("Is the X's $95 fee ...?") or wh-question claims no "none"; a
    # rhetorical question ("Can you believe ...?", "Isn't it ...?") keeps its claims
    questions_10: bool = False
    # ruleset 10: a worked example's result ("the 3% fee would be $90") and a spending amount
    # ("on up to $1,000 a year", "after you spend $500") are unverified, not fees
    worked_examples_10: bool = False
    # ruleset 10: "the first year of X comes with the annual fee waived" is the first year's fee,
    # "$95, waived the first year" the annual fee; "$25.00" reads as "$25"; and a first-year
    # waiver alone does not disclose a recommended card's annual fee
    waivers_10: bool = False
    # ruleset 10: durations in words holding "a year" ("for half a year", "a year and a half")
    # rewritten in months, so "a year" is no annual-fee cue there
    word_durations_10: bool = False
    # ruleset 10: an unscoped intro claim restating a scoped one of the same card (same rate and
    # months) takes its kind ("Answer: 0% for nine months" above the sentence that scopes it)
    restated_offers_10: bool = False
    # ruleset 11: text rewrites of ``ruleset11`` (formatting inside figures, look-alike letters
    # and underscores in names, tier words in markup, "no <fee> and 0% ...", "lacks", "has
    # none", "fee-free", lists under a scoping heading, a question answered by a bare figure, a
    # waiver in months, quotes the response asserts)
    rewrites_11: bool = False
    # ruleset 11: a claim shared by cards named together is checked against each; a myth the
    # response corrects is not its claim
    claims_11: bool = False
    # ruleset 11: a worked example's result is checked against the card's fee on its base
    worked_arithmetic_11: bool = False
    # ruleset 11: a double negative or a conditional aimed at another card rules nothing out
    recommend_11: bool = False
    # ruleset 12: a name wrapped onto the next line of a list item ("- Gray\n  Rock Cash") reads
    # as one name
    wraps_12: bool = False
    # ruleset 12: a name within two edits of one catalog name as a whole is a misspelling; misspelt
    # and invented names in lower case opened by a brand typo, an issuer or an unfamiliar word
    names_12: bool = False
    # ruleset 12: a figure describing an indefinite card ("keep one card with no annual fee open")
    # is unverified
    generic_cards_12: bool = False
    # ruleset 13: invented names ending in a possessive "Card's", an issuer's full name before an
    # invented product in lower case, an unfamiliar word before product words used once
    names_13: bool = False
    # ruleset 13: a ruled-out card read as recommended only inside questions is not recommended
    asked_13: bool = False
    # ruleset 14: "zero <fee> and 0% ...", "fee-free cash advances", "0% ..., reverting to 20%"
    # rewritten before ruleset 11's rewrites
    rewrites_14: bool = False
    # ruleset 14: a reward rate ("1% cash back"), "no <kind> promotion" and a fee's "$5 minimum"
    # are no fee or APR claims (unverified)
    claims_14: bool = False
    # ruleset 14: a myth introduced as an assumption ("it is often assumed that", "people
    # assume") and corrected is not the response's claim
    myths_14: bool = False
    # ruleset 14: invented names with a possessive on a product or tier word, a brand before two
    # invented words in lower case, an unfamiliar word before product words after a
    # recommending verb
    names_14: bool = False
    # ruleset 14 (second part, ``ruleset14b``): superscript footnote markers ("Atlas Cash¹")
    # dropped before any other rewrite
    footnotes_14: bool = False
    # ruleset 14: a short label defined for a card ("the X (\"Scholar\")") names it later
    labels_14: bool = False
    # ruleset 14: a lower-case invented name filling a recommendation's slot, named again later
    names_14b: bool = False
    # ruleset 14: a fee total over several years is unverified; a figure in a parenthesis right
    # after a card's name is that card's
    claims_14b: bool = False
    # ruleset 14: a customer's belief quoted ("you thought ...") and corrected is not claimed
    beliefs_14: bool = False
    # ruleset 14 (third part, ``ruleset14c``): a run of card names after one recommending phrase
    # ("I would recommend the A, the B or the C", "... for you: the A or the B") is recommended
    rec_lists_14c: bool = False
    # ruleset 14c: a range over several cards ("across these, annual fees run from $0 to $95") and
    # "(that value) is not a fee" are no card's claims
    claims_14c: bool = False
    # ruleset 14c: "zero interest on purchases as an introductory offer" is a 0% intro rate;
    # "charges nothing in year one and $95 per year after that" is a first-year fee of nothing
    rewrites_14c: bool = False
    # ruleset 14c: a misspelled catalog name in lower case, named so twice ("the sterling bulid")
    names_14c: bool = False
    # ruleset 15 (``ruleset15``, the s16 blind set's tuning split): a footnote marker right after an
    # intro offer ("0% intro APR on purchases**", "... purchases†") read as the length its footnote
    # line gives ("** For 15 months ...")
    footnote_offers_15: bool = False
    # ruleset 15: a yearly value's first year in brackets ("value ~$338 a year ($1,838 in year
    # one)"), a periodic rate worked out from the APR ("20.49% APR ÷ 12 ≈ 1.71% a month") and a
    # "no fee" in what "does not mean" denies ("a 0% offer does not mean transfers are free") are
    # no card's claims; a figure after the possessive of the card a fee is compared with ("$146
    # more than the B's $49") is that card's fee of the same kind
    claims_15: bool = False
    # ruleset 15: an issuer's first word before one unfamiliar word and product words, in lower
    # case, used as a card ("hollow elevate cash offers ...", named twice) is an invented card
    names_15: bool = False
    # ruleset 16: "the <word> rewards rate" is no invented card and a rewards rate ("the base
    # cash back rate is 1.5%") no APR
    rates_16: bool = False
    # ruleset 17 (``ruleset17``, the s17 blind set's tuning split): a short label inside a line
    # ("In short — One: ...; Platinum: ...") names the one card the response names that it
    # begins or ends
    labels_17: bool = False
    # ruleset 17: a figure "mentioned" or quoted and declared wrong, then corrected, is not claimed
    beliefs_17: bool = False
    # ruleset 17: a dollar figure priced by year in a sentence about value with no fee or cost
    # word is no fee
    values_17: bool = False
    # ruleset 17: an intro figure whose unit names one kind of balance only is checked against
    # that offer alone
    sole_scope_17: bool = False
    # ruleset 17 (the s18 blind set's tuning split): "USD 95" and "95 USD" read as "$95"
    currency_17: bool = False
    # ruleset 17: a recommended card's annual fee is disclosed by a fee claim bound to it, not by
    # any dollar figure of the response that equals it (another card's "$95 annual fee")
    fee_disclosed_17: bool = False
    # ruleset 18 (``ruleset18``, the s20 blind set's tuning split): spoken decimals ("twenty-two
    # point nine nine"), "a year and nine months", "$0 → $95" and "no penalty APR" after paying
    # late read as what they say (``rewrite_18``)
    spoken_18: bool = False
    # ruleset 18: a forum post's quoted ("> ...") lines and a caller's transcript turn are
    # somebody's belief, dropped when a later claim about the same card corrects it
    turns_18: bool = False
    # ruleset 18: "X and Y for the A and B respectively" pairs the figures with the cards named
    # after them
    respectively_18: bool = False
    # ruleset 18: "the <first or last words of one card named>" names that card
    tails_18: bool = False
    # ruleset 18: a question's figures, and those of a sentence about cards in general, are
    # unverified
    questions_18: bool = False
    # ruleset 18 (the s21 blind set's tuning split): a dollar fee that is a percentage of another
    # dollar figure of its paragraph (or whose percentage is one) is arithmetic, unverified
    arithmetic_18: bool = False
    # ruleset 19 (``ruleset19``, the s20 and s21 blind sets' tuning parts): "the former", "the
    # latter", "the other one" name one of exactly two cards named before them
    others_19: bool = False
    # ruleset 19: "5%/$10" is a fee with its minimum, "3% on purchases abroad" the foreign
    # transaction fee (``rewrite_19``)
    fees_19: bool = False
    # ruleset 19: the figures of a sentence about "a true / genuine ... promotion" are unverified
    generic_19: bool = False
    # ruleset 19: "Why not X?" answered "Because <a requirement>" rules X out; parallel "Take
    # the X." examples recommend nothing; "Status: recommended" and "<card> imo" recommend
    why_not_19: bool = False
    # ruleset 19: a card offered to the customer as an option (a table row, a record's name, a
    # list item, a heading of its own) counts for the eligibility rule unless ruled out
    options_19: bool = False
    # ruleset 19: capitalised words no catalog card holds in a recommendation's slot ("My
    # recommendation is the Bramblewood Globetrotter") are an invented card
    slots_19: bool = False
    # ruleset 20 (``ruleset20``, the s20-s22 blind sets' tuning parts): "3% per balance
    # transfer" is the fee, "N percent" is "N%", "3.99% on transferred balances for 21 months"
    # an intro rate, "purch" purchases, a "$0*" cell with a first-year footnote the first year's
    # fee (``rewrite_20``)
    fees_20: bool = False
    # ruleset 20: figures of a sentence whose subject is "most issuers", "many cards", ... are
    # unverified
    generic_20: bool = False
    # ruleset 20: a customer's chat turn that names no card, answered by a correction, is
    # unverified
    turns_20: bool = False
    # ruleset 20: a rated heading ("**X** 4/5") offers its card for the eligibility rule
    options_20: bool = False
    # ruleset 20: a figure attributed to someone else ("you said $25", "as you thought") or
    # denied ("isn't $695") and corrected by a figure of its kind in its sentence or the next is
    # not the card's claim; the correcting figure is (``beliefs_20``)
    beliefs_20: bool = False
    # ruleset 20: "Number one for me: X" and "X ticks most of your boxes" recommend X
    picks_20: bool = False
    # ruleset 20: a rate its own words call the penalty APR is checked against that APR alone
    penalty_20: bool = False
    # ruleset 21 (``ruleset21``, the s24 blind set's first writer): a percentage whose own words
    # are a spend category ("3% gas", "1.5% base") or that a card "pays" / "earns" is a reward
    # rate, unverified
    rewards_21: bool = False
    # ruleset 21: a dollar figure capping a reward rate's spend ("(first $1,500 a year)", "up to
    # $6k") or after an approximation sign ("total ~ $2,000 a year") is no fee
    caps_21: bool = False
    # ruleset 21: "<issuer> <generic words> cards" ("the two Crest travel cards") names a
    # category, not an invented card
    families_21: bool = False
    # ruleset 21: a percentage alone in a parenthesis after a dollar amount ("$90 up front
    # (3%)") and a bound ("under 2%") are unverified
    worked_21: bool = False
    # ruleset 21: a list under a heading that names one term ("Penalty APR check:") gives that
    # term to each "Card: 28.99%" item
    headings_21: bool = False
    # ruleset 21: "0% on purchases for a while" is an intro rate whose length is not stated
    vague_21: bool = False
    # ruleset 21: the cards of "your options are the A and the B" are offered to the customer
    # (the eligibility rule)
    options_21: bool = False
    # ruleset 21, part 2 (``ruleset21b``, the s24 blind sets' third and fourth writers): "then 1%"
    # after a reward's spend cap and a "flat 2%" are reward rates, unverified
    rewards2_21: bool = False
    # ruleset 21: "$300 in fees" on "a $10,000 transfer" at a stated percentage, and "the extra
    # $6" that is the difference of two stated figures, are arithmetic, unverified
    sums_21: bool = False
    # ruleset 21: "it is not 0% intro" denies an intro rate; "no introductory waiver" is about a
    # fee waiver, not an intro APR
    denials_21: bool = False
    # ruleset 21: a figure in a warning ("Common mistake: quoting $0 for the X. Don't.") is
    # unverified
    warnings_21: bool = False
    # ruleset 21: "A% on purchases and B% on transfers for N months" gives both offers N months
    shared_21: bool = False
    # ruleset 21: an invented name in a spelling note ("(two words, North Star)") is dropped
    spelling_21: bool = False
    # ruleset 21: a card its own sentence rules out ("X sounds right, but you wouldn't qualify")
    # is not recommended (the eligibility rule)
    ruled_21: bool = False
    # ruleset 22, part a (``ruleset22``, the s25 tuning set's fee and APR classes): a "no fee"
    # claim whose clause denies the waiver ("neither waives the fee in year one", "not fee-free")
    # is unverified
    waivers_22: bool = False
    # ruleset 22: a figure followed by a parenthesis holding only a card's name ("$29 (the
    # Alder)") is that card's
    owners_22: bool = False
    # ruleset 22: a card named as a point of comparison in an aside ("(the same as the Alder)")
    # does not become the card the following figures are about
    references_22: bool = False
    # ruleset 22: a one-term question ("penalty rate on the Alder?") types the bare figure that
    # opens the next line's answer ("29.99%.")
    answers_22: bool = False
    # ruleset 22: a rate not to expect ("don't expect a 0% period") is unverified
    expect_22: bool = False
    # ruleset 22: a rate its own words call the cash advance APR is checked against that APR alone
    advance_22: bool = False
    # part c (``ruleset22c``; in ruleset 23, not 22): a dollar figure typed only as "a fee"
    # that is arithmetic on its sentence's amounts ("$250 on your $5,000") is a worked example
    arithmetic_22c: bool = False
    # ruleset 22, part b (``ruleset22b``, the s25 blind sets' tuning file): an invented name whose
    # words shorten exactly one card the response names in full ("the Willow Reserve" beside
    # "Willow Travel Reserve") is that card; "the Prime Rate" is no card; a fixed-width column gap
    # ends a name; "the crest rewards plus is ..." (a lower-case tier word added) is invented
    short_names_22b: bool = False
    # ruleset 22, part b: "Both are good picks" / "It's a great fit for you" after the cards, CRM
    # "rec: X" lines and "my top 2: 1) X 2) Y" recommend; "isn't available at your score",
    # "not one I can recommend" rule a card out without a "but"
    picks_22b: bool = False
    # ruleset 23 (``ruleset23``, the s26 blind sets' tuning halves): a figure no card of the
    # catalog could have as that term (an "APR" under half the lowest purchase APR, a "fee" over
    # twice the largest dollar fee) is unverified
    plausible_23: bool = False
    # ruleset 23: a figure followed by "on / for the <card>" is that card's
    postposed_23: bool = False
    # ruleset 23: a dollar figure that differs from another of its sentence by exactly the
    # card's annual fee is arithmetic on that fee ("$342 ($247 after the fee)")
    net_fee_23: bool = False
    # ruleset 23: a table cell under a column (or beside a row label) that names a value the
    # answer works out ("Est. rewards / yr", "After fee", "Net value") is no term claim
    columns_23: bool = False
    # ruleset 24 (``ruleset24``, the s27 blind sets' tuning halves): "the Plus's", "the
    # Sterling": one word of exactly one card named before it refers to that card
    refs_24: bool = False
    # ruleset 24: an APR or fee bound only by context is right when right for one of the last
    # cards named before it
    context_24: bool = False
    # ruleset 24: a statement the answer reports having made and then corrects is no claim
    corrections_24: bool = False
    # ruleset 24: "an $80 transfer", "$200 bonus", "-> $162 a year": an amount, not a price
    results_24: bool = False
    # ruleset 24: "Year one has no annual fee": the first-year fee
    waivers_24: bool = False
    # ruleset 24: "a no-annual-fee card would serve you better": a kind of card, not a term
    generic_24: bool = False
    # ruleset 24: an answer to a customer that names one card, and rules it out nowhere, puts
    # it forward
    sole_24: bool = False
    # ruleset 25 (``ruleset25``, the s28 blind sets' tuning halves): a dollar figure the answer
    # works out ("= **$648/yr**", "Total: $342 a year", "brings that to $159") is a result
    results_25: bool = False
    # ruleset 25: a dollar figure that is the card's own fee for a transaction stated before it
    # ("With a $5,000 balance: ... $200 fee") is a worked fee
    worked_25: bool = False
    # ruleset 25: a card named only inside an aside (a bracket with a figure or a comparison)
    # does not take its sentence's figures; a figure right before "(<card>)" is that card's
    asides_25: bool = False
    # ruleset 25: "Beacon's 0% FX fee", "the 360's range": one-word references with no article,
    # or of digits
    refs_25: bool = False
    # ruleset 25: "unless you want the 9-month 0% window" refers to the offer of the card named
    # before that has it
    offers_25: bool = False
    # ruleset 26 (``ruleset26``, the s29 and s30 blind sets' tuning halves): "Why not X? It
    # needs 640 and yours is 531" rules X out without "Because", and so does an entry under a
    # ruling-out lead ("Cards I left off:\n- X - min score 640 vs your 612")
    why_not_26: bool = False
    # ruleset 26: a note led by "#1" is about the card "#1" names ("#1 late fee up to $41");
    # prose after a code block whose last card is ruled out is about the card named before it
    ranks_26: bool = False
    # ruleset 26: "so that $976.68 is all yours", "est rew $1,259/yr", "That comes to about $717
    # a year" after an earning rate, "balance incl. fee: $3,090": results, not prices
    results_26: bool = False
    # ruleset 26: "no-fee" as an item of a list of goals, "Annual Percentage Rate", "one by one",
    # a value rejected after ", not", a quoted statement the reply corrects: no claims
    labels_26: bool = False
    # ruleset 26: "no 0% transfer offer" lacks an intro transfer APR; its "no" stops there
    offers_26: bool = False
    # ruleset 26: "so you never trip a late fee" and "doesn't cover the $95 fee" are no denials;
    # "4% (min $10) minimum fee" is a fee
    fees_26: bool = False
    # ruleset 27 (``ruleset27``, all read blind sets' tuning halves): a fee figure whose words
    # name no fee is held as a fee only when its value looks like one (a value some card has for
    # a fee of its unit, or near one of its card's own fees); "a flat 2% card", "$247 after the fee"
    shapes_27: bool = False
    # ruleset 27: an unknown product that is the tail of one card named in full is that card
    # ("the Clear Plus" after "Cascade Clear Plus")
    tails_27: bool = False
    # ruleset 27: "$413 x 12 x 2% = $99.12 a year": a figure the expression before its "="
    # works out to is a result
    worked_27: bool = False
    # ruleset 27: "an everyday rewards card": a lower-case kind of card is no product
    generic_27: bool = False
    # ruleset 27: "5% on gas" after "the first year" is a reward rate, not an intro offer
    rewards_27: bool = False
    # ruleset 28 (``ruleset28``, recall): "a cash back card with a 3% foreign transaction fee":
    # a percentage no reading typed is the fee its own noun phrase names
    fee_phrases_28: bool = False
    # ruleset 28: "$95, charged from the first year" / "no first-year waiver" is also the
    # first-year fee
    year_one_28: bool = False
    # ruleset 28: "14.99% - and it's a variable rate": the rate takes the word after it
    variability_28: bool = False
    # ruleset 28 (``ruleset28b``): "the Liberty Cash Preferred Prestige": a card named exactly
    # with a capitalised word of its own after it is an unknown product
    extended_28: bool = False
    # ruleset 28 (``ruleset28c``): "I recommend our top card, the X", "I'd look at the X", an
    # answer opening with a card after "> best card for ...?": a recommendation
    picks_28: bool = False
    # ruleset 28 (``ruleset28c``): a single rate typed as a card's cash advance or penalty APR
    # and nothing else is checked against that APR ("cash advances are charged 26.24%")
    own_rates_28: bool = False
    # ruleset 28 (``ruleset28b``): runs of more than eight spaces, tabs or line breaks read as
    # eight (no reading tells them apart; long runs made patterns quadratic)
    spaces_28: bool = False
    # ruleset 29 (``ruleset29``, recall on s33's tuning halves): "**The short answer:** the X",
    # and the reasons given for a pick ("because ...") do not unmake it
    picks_29: bool = False
    # ruleset 29: "0% / 15mo" is a rate for fifteen months
    slash_29: bool = False
    # ruleset 29 (precision): the figures of a labelled or reported reader's question that the
    # answer denies ("**q:** does the X have a 0% intro period? no ...") are unverified
    questions_29: bool = False
    # ruleset 29 (precision): "$350 after the first-year fee" is a value net of the fee
    nets_29: bool = False
    # ruleset 29 (precision): "a two-hundred-fifty-dollar annual fee" is $250
    hyphens_29: bool = False
    # ruleset 30 (``ruleset30``, precision on s34's tuning halves): a denial of an intro offer
    # that is hedged, hypothetical, about the time after it or a "zero" that counts a balance
    # claims nothing ("if there's no promo", "may not share the promo rate")
    promos_30: bool = False
    # ruleset 30: an intro rate followed by its own kind and months ("0% purchases, 15 mo")
    cells_30: bool = False
    # ruleset 30 (precision): "$590 in combined fees" sums fees
    totals_30: bool = False
    # ruleset 30 (precision): "most have no annual fee, except the X" denies nothing of X
    except_30: bool = False
    # ruleset 30 (precision): a card the answer treats as the customer's own ("keep your X") is
    # not put forward
    held_30: bool = False
    # ruleset 30 (precision): "$10k", "an under-$25k budget" is an amount in thousands, no fee
    thousands_30: bool = False
    # ruleset 30 (precision): "fee: $320" on an $8,000 transfer at 4% is arithmetic, no fee
    worked_30: bool = False
    # ruleset 31 (precision): "Beacon 26.24% var, Frontier 26.99% var" - one word of a card's
    # name (or its initials) calls that card, and the figures after it are its
    shortrefs_31: bool = False
    # ruleset 31 (precision): "$480/yr, skip" - an amount no catalog card charges as an annual
    # fee, with no word of fees in its sentence, is no annual fee
    yearly_31: bool = False
    # ruleset 31 (precision): "X and Y both charge an annual fee, $39 and $29" pairs in order
    pairs_31: bool = False
    # ruleset 31 (precision): a card the customer already holds is put forward only by words
    # that put it forward ("I'd add the X", "apply for the X"), not by a review of it
    held_31: bool = False
    # ruleset 31 (precision): "a no-fee card", "a $0 annual fee card" is about cards in general
    generic_31: bool = False
    # ruleset 31 (precision): "needs only $300" - an amount a card requires is no fee of it
    needs_31: bool = False
    # ruleset 31 (precision): "In my last reply I suggested X. You pointed out ..." - a past
    # suggestion the answer corrects, or "X would normally be the pick, but ...", is no pick
    retracted_31: bool = False
    # ruleset 32 (precision): a held card the answer first names as the customer's ("you already
    # have the X") is put forward only by words of getting it ("apply", "add", "open"), not by a
    # review's ("best", "strong", "my pick for")
    held_32: bool = False
    # ruleset 32 (precision): "$960, no fee", "Fee 3% (minimum $5): $240" - a fee figure whose
    # words leave several fees open is unverified
    kinds_32: bool = False
    # ruleset 32 (precision): "Gray Rock's 1.5%" (the head of a card named in full), "Keeping
    # Preferred" (a tier word several names end with), "every rewards card" - no invented card
    names_32: bool = False
    # ruleset 32 (precision): "($95 after the first year)" is the annual fee, not the first year's
    after_first_32: bool = False
    # ruleset 33 (precision): "fee = $180" on a $6,000 transfer at 3%, "$29 and $39 ... $68 a
    # year in fees", "plus $250 in year one" after a $250 bonus - worked figures, no fees
    worked_33: bool = False
    # ruleset 34 (recall): "I'd add the X", "I'd go **X**", "I'd move it to X" put X forward
    acquire_34: bool = False
    # ruleset 34 (recall): "which waives the $325 for your first year" on a card with no waiver,
    # "the first year is $95" on one that waives it - a clause about the first year's fee
    first_year_34: bool = False
    # ruleset 34 (precision): "up to $6k", "$200 deposit", "only $200 down," - no fees
    amounts_34: bool = False
    # ruleset 35 (precision): "On $4,000: ... $200 fee", no card's dollar fee but a named card's
    # percentage fee on an amount before it - a fee worked out, unverified
    unnamed_35: bool = False
    # ruleset 35: feedback names the figures the checks left unverified, not only those the
    # extraction bound to no card
    unverified_35: bool = False


FROZEN_RULESET = 3
DEFAULT_RULESET = 35
RULESETS: dict[int, Ruleset] = {
    3: Ruleset(3),
    4: Ruleset(
        4,
        term_synonyms=True,
        more_fee_negations=True,
        more_recommendations=True,
        joint_subjects=True,
    ),
    5: Ruleset(
        5,
        term_synonyms=True,
        more_fee_negations=True,
        more_recommendations=True,
        joint_subjects=True,
        expansions=True,
        fee_forms_5=True,
        neither_nor=True,
        recommended_column=True,
        more_recommendations_5=True,
        brand_before_issuer=True,
    ),
}
#: Ruleset 6 is ruleset 5 plus its own detections.
RULESETS[6] = replace(
    RULESETS[5],
    version=6,
    service_names=True,
    on_time_condition=True,
    lowercase_tiers=True,
    transfer_paraphrases_6=True,
)
#: Ruleset 7 (opt-in) is ruleset 6 plus its own detections.
RULESETS[7] = replace(
    RULESETS[6],
    version=7,
    rewrites_7=True,
    more_recommendations_7=True,
    topic_scopes_7=True,
)

#: Ruleset 8 (opt-in) is ruleset 7 plus its own detections.
RULESETS[8] = replace(
    RULESETS[7],
    version=8,
    approximate_figures_8=True,
    ruled_out_8=True,
    ordinal_picks_8=True,
    goto_rates_8=True,
    own_months_8=True,
    positional_subjects_8=True,
)

#: Ruleset 9 (the default at stop 24) is ruleset 8 with dashes and "n/a" read as no claim.
RULESETS[9] = replace(RULESETS[8], version=9, unstated_values_9=True)

#: Ruleset 10 (the default since stop 25) is ruleset 9 plus the fixes of session 10's blind
#: tuning split.
RULESETS[10] = replace(
    RULESETS[9],
    version=10,
    names_10=True,
    questions_10=True,
    worked_examples_10=True,
    waivers_10=True,
    word_durations_10=True,
    restated_offers_10=True,
)


#: Ruleset 11 (opt-in) is ruleset 10 plus the fixes of the classes an attack on ruleset 10
#: found (README, "Known misses of ruleset 10").
RULESETS[11] = replace(
    RULESETS[10],
    version=11,
    rewrites_11=True,
    claims_11=True,
    worked_arithmetic_11=True,
    recommend_11=True,
)

#: Ruleset 12 (opt-in) is ruleset 11 plus the fixes of the classes session 12's blind tuning
#: split showed (issue 13; ``ruleset12``).
RULESETS[12] = replace(
    RULESETS[11],
    version=12,
    wraps_12=True,
    names_12=True,
    generic_cards_12=True,
)

#: Ruleset 13 (the default in stop 28) is ruleset 12 plus the fixes of the classes session 13's blind tuning
#: split showed (issue 13; ``ruleset13``).
RULESETS[13] = replace(RULESETS[12], version=13, names_13=True, asked_13=True)

#: Ruleset 14 (the default since stop 29) is ruleset 13 plus the fixes of the classes session 13's retired blind set
#: showed as tuning data (issue 13; ``ruleset14``).
RULESETS[14] = replace(
    RULESETS[13],
    version=14,
    rewrites_14=True,
    claims_14=True,
    myths_14=True,
    names_14=True,
    footnotes_14=True,
    labels_14=True,
    names_14b=True,
    claims_14b=True,
    beliefs_14=True,
    rec_lists_14c=True,
    claims_14c=True,
    rewrites_14c=True,
    names_14c=True,
)

#: Ruleset 15 is ruleset 14 plus the fixes of the classes the s16 blind set's tuning
#: split showed (issue 13; ``ruleset15``).
RULESETS[15] = replace(
    RULESETS[14],
    version=15,
    footnote_offers_15=True,
    claims_15=True,
    names_15=True,
)

#: Ruleset 16 (the default since stop 30) is ruleset 15 plus the fix of the class the s17 blind set's tuning split
#: showed (issue 13; ``ruleset16``).
RULESETS[16] = replace(RULESETS[15], version=16, rates_16=True)

#: Ruleset 17 is ruleset 16 plus the fixes of the classes the s17 blind set's tuning split still
#: showed under ruleset 16 (issue 13; ``ruleset17``).
RULESETS[17] = replace(
    RULESETS[16],
    version=17,
    labels_17=True,
    beliefs_17=True,
    values_17=True,
    sole_scope_17=True,
    currency_17=True,
    fee_disclosed_17=True,
)


#: Ruleset 18 is ruleset 17 plus the fixes of the classes the s20 blind set's tuning split
#: showed (issue 13; ``ruleset18``).
RULESETS[18] = replace(
    RULESETS[17],
    version=18,
    spoken_18=True,
    turns_18=True,
    respectively_18=True,
    tails_18=True,
    questions_18=True,
    arithmetic_18=True,
)


#: Ruleset 19 is ruleset 18 plus the fixes of the classes the s20 and s21 blind sets' tuning
#: parts still showed under ruleset 18 (issue 13; ``ruleset19``).
RULESETS[19] = replace(
    RULESETS[18],
    version=19,
    others_19=True,
    fees_19=True,
    generic_19=True,
    why_not_19=True,
    options_19=True,
    slots_19=True,
)

#: Ruleset 20 (the default in stop 34) is ruleset 19 plus the fixes of the classes the s20, s21
#: and s22 blind sets' tuning parts still showed under ruleset 19 (issue 13; ``ruleset20``).
RULESETS[20] = replace(
    RULESETS[19],
    version=20,
    fees_20=True,
    generic_20=True,
    turns_20=True,
    options_20=True,
    beliefs_20=True,
    picks_20=True,
    penalty_20=True,
)

#: Ruleset 21 (the default in stop 35) is ruleset 20 plus the fixes of the classes the s24 blind
#: set's first writer showed under ruleset 20 (issue 13; ``ruleset21``).
RULESETS[21] = replace(
    RULESETS[20],
    version=21,
    rewards_21=True,
    caps_21=True,
    families_21=True,
    worked_21=True,
    headings_21=True,
    vague_21=True,
    options_21=True,
    rewards2_21=True,
    sums_21=True,
    denials_21=True,
    warnings_21=True,
    shared_21=True,
    spelling_21=True,
    ruled_21=True,
)

#: Ruleset 22 (opt-in) is ruleset 21 plus the fixes of the classes the s25 tuning set showed
#: under ruleset 21 (issue 13; part a: ``ruleset22``; part b: ``ruleset22b``). Part c
#: (``ruleset22c``, flag ``arithmetic_22c``) is in no ruleset: on the s25 held-out halves it
#: hid planted wrong fees (RULESETS.md, "Ruleset 22, part c").
RULESETS[22] = replace(
    RULESETS[21],
    version=22,
    waivers_22=True,
    owners_22=True,
    references_22=True,
    answers_22=True,
    expect_22=True,
    advance_22=True,
    short_names_22b=True,
    picks_22b=True,
)

#: Ruleset 23 (the default in stop 37) is ruleset 22 plus part c (``arithmetic_22c``, which
#: the s26 blind sets read with no defect lost) and the readings of what a figure can be
#: (``ruleset23``): an implausible figure is no term claim, a figure is the card's it is "on",
#: a figure that is another one plus or minus the card's annual fee is arithmetic, and a table
#: cell under a value column ("Est. rewards / yr", "After fee") is no term (issue 13).
RULESETS[23] = replace(
    RULESETS[22],
    version=23,
    arithmetic_22c=True,
    plausible_23=True,
    postposed_23=True,
    net_fee_23=True,
    columns_23=True,
)

#: Ruleset 24 (the default in stop 38; ``ruleset24``, the s27 blind sets' tuning halves) is
#: ruleset 23 plus readings of who a figure is about and of what the answer takes back: one-word
#: references ("the Plus's"), a context-bound figure given to the recent card it is right for,
#: corrected statements, dollar amounts that are no price ("an $80 transfer", "-> $162 a year"),
#: "year one has no annual fee" as the first-year fee, and "a no-annual-fee card" as a kind of
#: card.
RULESETS[24] = replace(
    RULESETS[23],
    version=24,
    refs_24=True,
    context_24=True,
    corrections_24=True,
    results_24=True,
    waivers_24=True,
    generic_24=True,
    sole_24=True,
)

#: Ruleset 25 (the default in stop 39; ``ruleset25``, the s28 blind sets' tuning halves) is
#: ruleset 24 plus worked results ("= **$648/yr**", "Total: $342 a year"), fees worked out from a
#: transaction stated before them, cards named only in an aside, one-word references without an
#: article or of digits ("Beacon's", "the 360's") and definite references to an intro offer.
RULESETS[25] = replace(
    RULESETS[24],
    version=25,
    results_25=True,
    worked_25=True,
    asides_25=True,
    refs_25=True,
    offers_25=True,
)

#: Ruleset 26 (the default in stop 40; ``ruleset26``, the s29 blind sets' tuning halves) is
#: ruleset 25 plus "Why not X?" answered by a failed requirement, notes led by a rank, results
#: the answer says are the reader's, goals, headers and lower-case tier words that are no claims,
#: "no 0% transfer offer", and late fees the reader avoids.
RULESETS[26] = replace(
    RULESETS[25],
    version=26,
    why_not_26=True,
    ranks_26=True,
    results_26=True,
    labels_26=True,
    offers_26=True,
    fees_26=True,
)

#: Ruleset 27 (the default in stop 41; ``ruleset27``, the tuning halves of all read blind sets)
#: is ruleset 26 plus fee figures that name no fee held only when they look like a fee, unknown
#: products that are the tail of one card the response names in full before, results worked out
#: before an "=", lower-case kinds of card that are no product, and reward rates after "the first
#: year".
RULESETS[27] = replace(
    RULESETS[26],
    version=27,
    shapes_27=True,
    tails_27=True,
    worked_27=True,
    generic_27=True,
    rewards_27=True,
)


#: Ruleset 28 (the default in stop 42; ``ruleset28``, ``ruleset28b``, ``ruleset28c``; the
#: missed defects of all read blind sets' tuning halves) is ruleset 27 plus readings for recall: a
#: percentage that its own noun phrase calls a fee, "charged from the first year" as a first-year
#: fee, "it's a variable rate" after a purchase APR, a tier-sounding word after a card named
#: exactly as an unknown product, picks led to by a recommending clause, single cash advance or
#: penalty rates checked against that rate, and long runs of white space read as eight.
RULESETS[28] = replace(
    RULESETS[27],
    version=28,
    fee_phrases_28=True,
    year_one_28=True,
    variability_28=True,
    extended_28=True,
    picks_28=True,
    own_rates_28=True,
    spaces_28=True,
)


#: Ruleset 29 (the default in stop 43; ``ruleset29``; the s33 blind sets' tuning halves) is
#: ruleset 28 plus a pick after a label whose bold closes after its colon, the reasons given for a
#: pick read apart from what unmakes it, "0% / 15mo" read as a rate for fifteen months, and, for
#: precision, a reader's question about an intro offer that the answer denies, a value net of the
#: fee and a compound number around "hundred".
RULESETS[29] = replace(
    RULESETS[28],
    version=29,
    picks_29=True,
    slash_29=True,
    questions_29=True,
    nets_29=True,
    hyphens_29=True,
)


#: Ruleset 30 (the default in stop 44; ``ruleset30``; the s34 blind sets' false flags) is
#: ruleset 29 plus, for precision, denials of an intro offer that speak of promotions in general,
#: an intro rate read with its own kind and months, a sum of fees and a card excepted from a
#: group's denial.
RULESETS[30] = replace(
    RULESETS[29],
    version=30,
    promos_30=True,
    cells_30=True,
    totals_30=True,
    except_30=True,
    held_30=True,
    thousands_30=True,
    worked_30=True,
)


#: Ruleset 31 (the default in stop 45; ``ruleset31``; the s36 tuning halves' false flags) is
#: ruleset 30 plus, for precision, a card called by a short name (one word of its name, or its
#: initials) taking the figures after it, and a yearly amount no catalog card charges read as no
#: annual fee.
RULESETS[31] = replace(
    RULESETS[30],
    version=31,
    shortrefs_31=True,
    yearly_31=True,
    pairs_31=True,
    held_31=True,
    generic_31=True,
    needs_31=True,
    retracted_31=True,
)


#: Ruleset 32 (the default in stop 46; ``ruleset32``, ``ruleset32b``; the s36, s37 and s38
#: tuning halves' false flags) is ruleset 31 plus, for precision, a review of a held card the
#: answer first names as the customer's, fee figures no fee word governs, real cards called by the
#: head of a name or a shared tier word, and "$95 after the first year" read as the annual fee.
RULESETS[32] = replace(
    RULESETS[31],
    version=32,
    held_32=True,
    kinds_32=True,
    names_32=True,
    after_first_32=True,
)


#: Ruleset 33 (the default in stop 47; ``ruleset33``) is ruleset 32 plus worked figures read as
#: no fees.
RULESETS[33] = replace(RULESETS[32], version=33, worked_33=True)

#: Ruleset 34 (the default in stop 48; ``ruleset34``) is ruleset 33 plus, for recall, cards put
#: forward by a first-person verb of getting them and clauses about a card's first-year fee; for
#: precision, dollar figures that are thousands or deposits.
RULESETS[34] = replace(
    RULESETS[33],
    version=34,
    acquire_34=True,
    first_year_34=True,
    amounts_34=True,
)

#: Ruleset 35 (the default since stop 49; ``ruleset35``) is ruleset 34 plus, for precision, a fee
#: figure no word names that is no fee in the catalog but a named card's percentage fee worked out
#: on an amount the answer writes before it, left unverified; and the feedback names every figure
#: left unverified.
RULESETS[35] = replace(RULESETS[34], version=35, unnamed_35=True, unverified_35=True)


def get_ruleset(version: int | Ruleset | None) -> Ruleset:
    """The ruleset of ``version`` (``None``: the default). Raises ``ValueError`` if unknown."""
    if isinstance(version, Ruleset):
        return version
    if version is None:
        return RULESETS[DEFAULT_RULESET]
    if isinstance(version, bool) or not isinstance(version, int) or version not in RULESETS:
        known = ", ".join(str(v) for v in sorted(RULESETS))
        raise ValueError(f"unknown compliance ruleset {version!r} (known: {known})")
    return RULESETS[version]


__all__ = ["DEFAULT_RULESET", "FROZEN_RULESET", "RULESETS", "Ruleset", "get_ruleset"]
