"""A third phrasing pool for the compliance evalset, written for the verifier's own regression work.

The evalset (``benchmarks/compliance_eval``) words its items from two pools: ``tuning`` (which the
verifier may be tuned on) and ``heldout`` (which its engineers never read). This module is a
third pool with the same interface, written from scratch with its own sentences, list shapes and
table layouts (transposed tables, HTML tables, numbered lists, e-mail drafts, texting register), so
that a rule fitted to the tuning phrasings shows up as a gap on it too. It is not the held-out
pool and shares no template with either pool; ``tests/compliance_alt_eval.py`` builds and scores
items from it with the evalset's own builder, labels and metrics.

Templates fill named fields; every catalog figure goes through the context (``Ctx``), which records
it, exactly as the evalset's pools do.
"""

from __future__ import annotations

from benchmarks.compliance_eval.catalog import Card, annual_rewards_usd
from benchmarks.compliance_eval.render import Ctx

NAME = "alt"

FORMATS: dict[str, tuple[str, ...]] = {
    "pct": ("sym", "sym", "space", "word"),
    "money": ("sym", "sym", "cents", "usd", "dollars", "words"),
    "months": ("num", "num", "word", "idiom", "mo", "cycles"),
}

APR: dict[str, tuple[str, ...]] = {
    "np_range": (
        "variable purchase rate ranging from {lo} up to {hi}",
        "{lo}/{hi} variable APR",
        "variable APR somewhere between {lo} and {hi}",
        "APR of {lo} through {hi} (variable)",
    ),
    "np_single_var": ("variable rate of {rate}", "{rate} APR that moves with the prime rate"),
    "np_fixed": ("flat {rate} APR that doesn't float", "{rate} fixed rate"),
    "val_range": (
        "{lo} up to {hi} depending on credit, variable",
        "{lo} – {hi}, variable",
        "anywhere from {lo} to {hi} (it's variable)",
    ),
    "val_single_var": ("{rate}, a variable rate", "{rate} variable"),
    "val_fixed": ("{rate} and fixed", "{rate} (a fixed rate)", "a flat {rate}"),
}

SENT: dict[str, tuple[str, ...]] = {
    "purchase_apr": (
        "Carry a balance on the {name} and you're looking at a {apr}.",
        "Interest on purchases runs at {apr_val}.",
        "Your purchase APR would be {apr_val}, set by your credit profile.",
        "As for interest, the {name} charges a {apr} on anything you don't pay off.",
        "Regular purchases are charged {apr_val} once the grace period is gone.",
    ),
    "cash_apr": (
        "Take out cash and the rate jumps to {rate} APR from day one.",
        "Cash withdrawals are billed at a {rate} APR.",
        "For cash advances the APR is {rate}, with no grace period.",
    ),
    "penalty_apr": (
        "Miss a payment and the issuer can apply a penalty rate as high as {rate} APR.",
        "A late payment can trigger a penalty APR reaching {rate}.",
    ),
    "penalty_apr_none": (
        "The card has no penalty rate, so a slip-up won't push your APR higher.",
        "There isn't any penalty APR on it.",
    ),
    "intro_purchase": (
        "Anything you buy in the first {months} is charged {rate} intro APR; the rate then resets to {goto_val}.",
        "The {name} starts new purchases at a {rate} promotional APR for {months}, and after the promo it's a {goto}.",
        "Purchases come with a {rate} intro APR lasting {months}, after which the {goto} applies.",
        "For {months}, purchases carry a {rate} introductory APR; once that window closes you'll pay {goto_val}.",
    ),
    "intro_purchase_sep": (
        "Purchases carry a {rate} promotional APR for the first {months}.",
        "The {name} gives new purchases a {rate} intro APR for {months}.",
        "For {months} after opening, purchases sit at a {rate} intro APR.",
    ),
    "intro_purchase_nomonths": (
        "New purchases start at a {rate} promotional APR, and later move to {goto_val}.",
        "The {name} gives purchases a {rate} intro APR before switching to a {goto}.",
    ),
    "intro_purchase_noapr": (
        "Anything you buy costs {rate} in interest for {months}; after that the rate becomes {goto_val}.",
        "New purchases are charged just {rate} for {months}, then you pay {goto_val}.",
        "For {months}, the {name} charges {rate} on new purchases, later {goto_val}.",
    ),
    "intro_purchase_none": (
        "Purchases don't get a promotional rate on this card.",
        "There isn't an intro offer for new purchases.",
    ),
    "intro_bt": (
        "Transferred balances are charged a {rate} promotional APR for {months}, and a {goto} afterwards.",
        "Move a balance over and it sits at {rate} intro APR for {months}; the rate then climbs to {goto_val}.",
        "The {name} gives balance transfers a {rate} introductory APR lasting {months}, followed by the {goto}.",
        "For {months}, transfers carry {rate} intro APR; after the promotion ends they're charged {goto_val}.",
    ),
    "intro_bt_sep": (
        "Transfers sit at a {rate} promotional APR for {months}.",
        "The {name} charges {rate} intro APR on transferred balances for {months}.",
    ),
    "intro_bt_nomonths": (
        "Balance transfers start at a {rate} intro APR and later switch to {goto_val}.",
        "The {name} gives transfers a {rate} promotional APR before the {goto} takes over.",
    ),
    "intro_bt_noapr": (
        "Any balance you move over costs {rate} for {months}, and {goto_val} after that.",
        "Transferred balances are charged {rate} for {months}; later they move to {goto_val}.",
    ),
    "intro_bt_none": (
        "Balance transfers don't come with a promotional rate.",
        "You won't find an intro deal for transfers on this one.",
    ),
    "no_intro_any": (
        "The {name} skips intro pricing entirely - nothing for purchases, nothing for transfers.",
        "No promotional APR is offered on either purchases or transfers.",
    ),
    "no_intro_purchase_but_bt": (
        "Purchases get no promotional rate, although balance transfers are charged {rate} for {months} before moving to {goto_val}.",
        "The promo is for transfers only: {rate} intro APR for {months}, then {goto_val}; purchases get nothing special.",
    ),
    "annual_fee": (
        "Keeping the {name} costs {fee} every year.",
        "Expect a yearly fee of {fee}.",
        "Its membership fee comes to {fee} annually.",
        "The {name} bills you {fee} each year just for holding it.",
        "You'll be charged a {fee} annual fee.",
    ),
    "annual_fee_zero": (
        "Holding the {name} costs nothing per year.",
        "You won't pay any annual fee for it.",
        "The yearly fee is $0.",
    ),
    "annual_fee_waiver": (
        "Year one costs {first}; from then on the annual fee is {fee}.",
        "The annual fee is {fee}, but the issuer drops it to {first} for your first year.",
        "There's no charge for the first year, and afterwards the annual fee is {fee}.",
    ),
    "annual_fee_contrast": (
        "Its annual fee is {fee} - some comparison sites still show {other}, which is outdated.",
        "You'll pay {fee} a year for it (an older figure of {other} still floats around online).",
    ),
    "late_fee": (
        "Paying after the due date can cost as much as {fee}.",
        "A missed payment brings a fee of up to {fee}.",
        "If a payment arrives late you could owe up to {fee}.",
    ),
    "late_fee_zero": (
        "You won't be charged anything for a late payment.",
        "Late payments don't cost a fee on this card.",
    ),
    "late_fee_contrast": (
        "Late payments cost up to {fee}; ignore the {other} figure on old forum posts.",
        "The late fee tops out at {fee} rather than {other}.",
    ),
    "foreign_fee": (
        "Spending in another currency adds a {pct} foreign transaction fee.",
        "Use it overseas and you'll pay {pct} on each purchase as a foreign transaction fee.",
        "Foreign purchases carry a fee of {pct}.",
    ),
    "foreign_fee_zero": (
        "You can use it abroad without any foreign transaction fee.",
        "Foreign transactions cost you nothing extra.",
    ),
    "foreign_fee_zeropct": (
        "Its foreign transaction fee is {pct}, handy for trips abroad.",
        "Purchases made overseas carry a {pct} foreign transaction fee.",
    ),
    "cash_fee": (
        "Each cash advance costs {pct} of the amount, at least {min}.",
        "Withdrawing cash on the card triggers a fee of {pct} or {min}, whichever is larger.",
    ),
    "cash_fee_zero": (
        "Cash advances come without a fee.",
        "There isn't a cash advance fee.",
    ),
    "bt_fee": (
        "Moving a balance costs {pct} of what you transfer, with {min} as the minimum.",
        "Transfers carry a fee of {pct} or {min}, whichever comes out higher.",
    ),
    "bt_fee_zero": (
        "Transferring a balance costs no fee.",
        "You won't pay a balance transfer fee.",
    ),
    "rewards": ("Rewards work like this: {rewards}.", "You collect {rewards}."),
    "signup": (
        "Spend {spend} in your first {months} and you get a {bonus} bonus.",
        "The welcome offer pays {bonus} once you've spent {spend} within {months}.",
    ),
    "grace": (
        "There's a {days} grace period before purchase interest starts.",
        "You get {days} to pay your statement in full before interest kicks in.",
    ),
    "min_interest": ("Any month you're charged interest, it's at least {amount}.",),
    "network": ("Payments run over {network}.", "It's accepted wherever {network} is."),
}

BULLET: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("Ongoing APR - {apr_val}", "Interest rate on purchases = {apr_val}"),
    "cash_apr": ("Cash advance rate - {rate}", "APR on cash withdrawals = {rate}"),
    "penalty_apr": ("Penalty rate - as high as {rate}",),
    "penalty_apr_none": ("Penalty rate - not applicable",),
    "intro_purchase": (
        "Promo APR on purchases - {rate} for {months}, afterwards {goto_val}",
        "Purchases intro rate = {rate} ({months}), then {goto_val}",
    ),
    "intro_purchase_sep": ("Promo APR on purchases - {rate} for {months}",),
    "intro_purchase_nomonths": ("Promo APR on purchases - {rate}, afterwards {goto_val}",),
    "intro_purchase_none": ("Promo APR on purchases - not offered",),
    "intro_bt": (
        "Promo APR on transfers - {rate} for {months}, afterwards {goto_val}",
        "Balance transfer intro rate = {rate} ({months}), then {goto_val}",
    ),
    "intro_bt_sep": ("Promo APR on transfers - {rate} for {months}",),
    "intro_bt_nomonths": ("Promo APR on transfers - {rate}, afterwards {goto_val}",),
    "intro_bt_none": ("Promo APR on transfers - not offered",),
    "no_intro_any": ("Promotional APR - not offered for purchases or transfers",),
    "no_intro_purchase_but_bt": (
        "Promotional APR - transfers only, {rate} for {months} then {goto_val}; none for purchases",
    ),
    "annual_fee": ("Yearly fee - {fee}", "Annual cost = {fee}"),
    "annual_fee_zero": ("Yearly fee - $0", "Annual cost = nothing"),
    "annual_fee_waiver": ("Yearly fee - {first} in year one, {fee} from year two",),
    "annual_fee_contrast": ("Yearly fee - {fee} (older listings say {other})",),
    "late_fee": ("Late payment fee - as much as {fee}",),
    "late_fee_zero": ("Late payment fee - not charged",),
    "late_fee_contrast": ("Late payment fee - as much as {fee} (some sites wrongly show {other})",),
    "foreign_fee": ("FX fee - {pct} of each foreign purchase", "Foreign purchase fee = {pct}"),
    "foreign_fee_zero": ("FX fee - not charged",),
    "foreign_fee_zeropct": ("FX fee - {pct}",),
    "cash_fee": ("Cash advance fee - {pct}, never less than {min}",),
    "cash_fee_zero": ("Cash advance fee - not charged",),
    "bt_fee": ("Transfer fee - {pct}, never less than {min}",),
    "bt_fee_zero": ("Transfer fee - not charged",),
    "rewards": ("Earning - {rewards}",),
    "signup": ("Welcome offer - {bonus} when you spend {spend} in {months}",),
    "grace": ("Interest-free window - {days}",),
    "min_interest": ("Smallest interest charge - {amount}",),
    "network": ("Network - {network}",),
}

CELL: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("{apr_val}",),
    "cash_apr": ("{rate}",),
    "penalty_apr": ("as high as {rate}",),
    "penalty_apr_none": ("none",),
    "intro_purchase": (
        "{rate} ({months}) then {goto_val}",
        "{rate} for {months}; later {goto_val}",
    ),
    "intro_purchase_sep": ("{rate} for {months}",),
    "intro_purchase_nomonths": ("{rate}, later {goto_val}",),
    "intro_purchase_none": ("none", "not offered"),
    "intro_bt": ("{rate} ({months}) then {goto_val}", "{rate} for {months}; later {goto_val}"),
    "intro_bt_sep": ("{rate} for {months}",),
    "intro_bt_nomonths": ("{rate}, later {goto_val}",),
    "intro_bt_none": ("none", "not offered"),
    "annual_fee": ("{fee}", "{fee}/yr"),
    "annual_fee_zero": ("$0", "no fee"),
    "annual_fee_waiver": ("{first} in year one, {fee} after", "{fee} ({first} first year)"),
    "annual_fee_contrast": ("{fee}",),
    "late_fee": ("max {fee}", "{fee}"),
    "late_fee_zero": ("not charged",),
    "late_fee_contrast": ("max {fee}",),
    "foreign_fee": ("{pct}",),
    "foreign_fee_zero": ("nil", "no fee"),
    "foreign_fee_zeropct": ("{pct}",),
    "cash_fee": ("{pct}, min {min}",),
    "cash_fee_zero": ("not charged",),
    "bt_fee": ("{pct}, min {min}", "{pct} or {min}"),
    "bt_fee_zero": ("nil",),
    "rewards": ("{rewards}",),
    "signup": ("{bonus} (spend {spend} in {months})",),
    "grace": ("{days}",),
    "min_interest": ("{amount}",),
    "network": ("{network}",),
}

CLAUSE: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("interest is {apr_val}", "you'd pay {apr_val} on a carried balance"),
    "cash_apr": ("cash withdrawals are {rate}",),
    "penalty_apr": ("penalty rate can hit {rate}",),
    "penalty_apr_none": ("no penalty rate",),
    "intro_purchase": (
        "purchases are {rate} for {months} and {goto_val} after",
        "{rate} promo apr on stuff you buy for {months}, {goto_val} later",
    ),
    "intro_purchase_sep": ("purchases are {rate} promo apr for {months}",),
    "intro_purchase_nomonths": ("purchases start at {rate} promo apr and go to {goto_val}",),
    "intro_purchase_noapr": ("stuff you buy is {rate} for {months}, {goto_val} after",),
    "intro_purchase_none": ("nothing promo on purchases",),
    "intro_bt": (
        "transfers are {rate} for {months} and {goto_val} after",
        "{rate} promo apr on moved balances for {months}, {goto_val} later",
    ),
    "intro_bt_sep": ("transfers are {rate} promo apr for {months}",),
    "intro_bt_nomonths": ("transfers start at {rate} promo apr and go to {goto_val}",),
    "intro_bt_noapr": ("moved balances are {rate} for {months}, {goto_val} after",),
    "intro_bt_none": ("nothing promo on transfers",),
    "no_intro_any": ("no promo rates whatsoever",),
    "no_intro_purchase_but_bt": (
        "nothing promo on purchases, tho transfers are {rate} for {months} then {goto_val}",
    ),
    "annual_fee": ("{fee} a year to keep it", "yearly fee's {fee}"),
    "annual_fee_zero": ("zero yearly fee", "costs nothing per year"),
    "annual_fee_waiver": ("yearly fee's {fee} but only {first} year one",),
    "annual_fee_contrast": ("yearly fee's {fee} (not {other})",),
    "late_fee": ("pay late and it's up to {fee}",),
    "late_fee_zero": ("nothing charged for paying late",),
    "late_fee_contrast": ("late payments up to {fee} (not {other})",),
    "foreign_fee": ("{pct} on foreign purchases",),
    "foreign_fee_zero": ("nothing extra abroad",),
    "foreign_fee_zeropct": ("{pct} fx fee",),
    "cash_fee": ("cash advances {pct} (at least {min})",),
    "cash_fee_zero": ("free cash advances",),
    "bt_fee": ("transfers cost {pct}, at least {min}",),
    "bt_fee_zero": ("free transfers",),
    "rewards": ("you get {rewards}",),
    "signup": ("{bonus} after {spend} in {months}",),
    "grace": ("{days} grace",),
    "min_interest": ("interest never under {amount}",),
    "network": ("runs on {network}",),
}

EMOJI: dict[str, tuple[str, ...]] = {
    "card": ("🪪", "💳"),
    "good": ("✔️", "👌"),
    "warn": ("❗",),
    "travel": ("🧳",),
    "money": ("🤑",),
    "star": ("🌟",),
    "chat": ("😄", "🤙"),
}

PREMIUM_WORDS = ("Sovereign", "Onyx", "Apex", "Luxe", "Titan", "Crown")
ISSUER_PRODUCTS = ("Onyx Select Rewards", "Crown Infinite", "Luxe Signature", "Apex Travel Rewards")
INVENTED_BRANDS = ("Kestrel", "Halcyon", "Brightwater", "Ironwood", "Lumen")
TIER_WORDS = ("Select", "Prime", "Max", "Signature", "Reserve", "Preferred")
INVENTED_LINES = ("Travel Rewards", "Cash Plus", "Miles Select", "Everyday Rewards", "Rate Saver")

GENERIC_LINES = (
    "Cards built for transfers only help if the balance is gone before the promo clock runs out.",
    "Plain cash back cards suit people who would rather not think about redemption.",
    "Frequent flyers usually get more from a travel card than from a flat-rate one.",
    "A secured card is how many people start over after a rough patch.",
    "Student cards tend to be forgiving about thin credit files.",
    "A separate business card keeps the bookkeeping tidy.",
)
GENERIC_HEADINGS = (
    "Transfer Cards In General",
    "Flat Cash Back",
    "Travel Rewards Basics",
    "Rebuilding With A Secured Card",
    "Cards For Students",
    "Business Spending",
)
ISSUER_LINES = (
    "Applications go through {issuer}.",
    "The issuing bank is {issuer}.",
    "{issuer} handles servicing and the mobile app.",
)

OPENERS = (
    "Sure thing.",
    "Glad you asked.",
    "Here's the short version.",
    "Let me break it down.",
    "",
)
CLOSERS = (
    "Terms do change, so confirm them on the application page.",
    "Happy to run the numbers on a different card if you like.",
    "Shout if anything's unclear.",
    "",
)

CATEGORY_WORDS = {
    "groceries": "supermarket runs",
    "dining": "restaurants",
    "travel": "flights and hotels",
    "gas": "fuel",
    "online": "online orders",
    "other": "all other spending",
}


def rewards_phrase(ctx: Ctx, card: Card) -> str:
    labels = CATEGORY_WORDS
    if not card.bonus_categories and card.base_rate == 0:
        return "nothing in the way of rewards"
    cash = card.reward_currency == "cash_back"
    unit = "points" if card.reward_currency == "points" else "miles"
    parts = []
    for cat in card.bonus_categories[:3]:
        rate, cap = card.rate_for(cat)
        if cash:
            piece = f"{ctx.reward_pct(rate, f'rate_{cat}')} back at {labels[cat]}"
        else:
            piece = f"{ctx.number(rate, f'rate_{cat}', 'x')} {unit} per dollar at {labels[cat]}"
        if cap is not None:
            piece += f" (capped at {ctx.money(cap, f'cap_{cat}', 'sym')} of spending yearly)"
        parts.append(piece)
    if cash:
        base = f"{ctx.reward_pct(card.base_rate, 'base_rate')} back on all other spending"
        flat = f"{ctx.reward_pct(card.base_rate, 'base_rate')} back on every purchase"
    else:
        base = f"{ctx.number(card.base_rate, 'base_rate', 'x')} {unit} per dollar elsewhere"
        flat = f"{ctx.number(card.base_rate, 'base_rate', 'x')} {unit} per dollar on everything"
    if not parts:
        return flat
    return "; ".join(parts) + f"; plus {base}"


# --- helpers -------------------------------------------------------------------------------


def _claim(ctx: Ctx, card: Card, kind: str, form: str) -> str:
    return ctx.claim(card, kind, form)


def extras(ctx: Ctx, card: Card) -> list[str]:
    out = []
    if "issuer_line" in ctx.want:
        ctx.hn.add("hn_issuer_only")
        out.append(ctx.fill(ctx.pick(ISSUER_LINES), issuer=card.issuer))
    if "generic_line" in ctx.want:
        ctx.hn.add("hn_generic_phrase")
        k = ctx.rng.randrange(len(GENERIC_LINES))
        if ctx.chance(0.5):
            out.append(ctx.fill(GENERIC_LINES[k]))
        else:
            out.append(f"\n\n**{ctx.fill(GENERIC_HEADINGS[k])}**\n\n" + ctx.fill(GENERIC_LINES[k]))
    return out


def join(parts: list[str], sep: str = " ") -> str:
    return sep.join(p for p in parts if p)


def _and(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} and {items[1]}"
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def opener(ctx: Ctx) -> str:
    return ctx.fill(ctx.pick(OPENERS))


def closer(ctx: Ctx) -> str:
    return ctx.fill(ctx.pick(CLOSERS))


def rec_lead(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "My suggestion is the {name}.",
                "For you, the {name} comes out on top.",
                "I'd point you to the {name}.",
                "Go for the {name} - it matches how you spend.",
                "The card I'd pick in your shoes is the {name}.",
            )
        ),
        name=lambda: ctx.name(card),
    )


def rec_second(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "A close second would be the {name}.",
                "If that one doesn't work out, the {name} is my fallback pick.",
            )
        ),
        name=lambda: ctx.name(card),
    )


RULE_OUT = {
    "credit_score_below_min": (
        "The {name} is out of reach for now - it wants a score near {min_score} and you're at {score}.",
        "I left out the {name} because your score is below what it requires.",
    ),
    "student_only": (
        "The {name} is reserved for enrolled students, so I've excluded it.",
        "Since the {name} is a student-only product, it's not available to you.",
    ),
    "recent_bankruptcy": (
        "The {name} isn't an option while the bankruptcy is that recent.",
        "I'd steer clear of the {name}; its issuer declines applicants with a recent bankruptcy.",
    ),
    "already_holds_card": (
        "The {name} is already in your wallet, so it's not on this list.",
        "No need to look at the {name} - you hold it already.",
    ),
}


def rule_out(ctx: Ctx, card: Card, reason: str) -> str:
    ctx.hn.add("hn_already_holds" if reason == "already_holds_card" else "hn_ineligible_ruled_out")
    score = ctx.customer.credit_score if ctx.customer else 0
    return ctx.fill(
        ctx.pick(RULE_OUT[reason]),
        name=lambda: ctx.name(card),
        min_score=card.min_credit_score,
        score=score,
    )


def value_line(ctx: Ctx, card: Card) -> str:
    cust = ctx.customer
    if cust is None:
        return ""
    rewards = annual_rewards_usd(card, cust)
    if rewards < 1:
        return ""
    ctx.hn.add("hn_value_statement")
    if card.annual_fee > 0 and ctx.chance(0.5):
        net = rewards - card.annual_fee
        if net > 0:
            amount = ctx.derived_money(
                net, "ongoing_value", card_id=card.card_id, customer_id=cust.customer_id
            )
            return ctx.fill(
                ctx.pick(
                    (
                        "Net of the fee, I'd expect you to come out roughly {v} ahead each year.",
                        "Once the fee is paid, your spending should leave you near {v} better off per year.",
                    )
                ),
                v=amount,
            )
    amount = ctx.derived_money(
        rewards, "annual_rewards", card_id=card.card_id, customer_id=cust.customer_id
    )
    return ctx.fill(
        ctx.pick(
            (
                "By my estimate your spending would bring in close to {v} a year in rewards.",
                "You'd likely collect something like {v} in rewards over a year.",
            )
        ),
        v=amount,
    )


def spend_line(ctx: Ctx) -> str:
    cust = ctx.customer
    if cust is None:
        return ""
    cat, amount = max(cust.monthly_spend, key=lambda x: x[1])
    label = {"other": "general spending"}.get(cat, cat)
    money = ctx.derived_money(amount, "monthly_spend", customer_id=cust.customer_id, category=cat)
    return ctx.fill(
        ctx.pick(
            (
                "Most of your money goes on {label} - around {m} each month.",
                "Looking at your profile, {label} is your top category at {m} monthly.",
            )
        ),
        label=label,
        m=money,
    )


FILLER: tuple[str, ...] = (
    "Interest only matters when you leave part of the statement unpaid. Clear the full balance "
    "each cycle and the rate on the card never touches you; carry debt and it compounds daily.",
    "A promotional period is a deadline. Divide what you owe by the months left and pay at least "
    "that much each month, so nothing is left when the ordinary rate returns.",
    "Transfer fees are charged up front and added to what you owe, so count them in before you "
    "decide whether moving debt is worth it.",
    "Foreign transaction fees hide in plain sight on statements. For anyone who travels or shops "
    "from overseas sellers, picking a card without them adds up over a year.",
    "A yearly fee can be worth paying when the rewards in your real spending categories cover it "
    "with room to spare; if they don't, a no-fee card wins.",
    "Lenders place you inside a rate range based on your credit, so two applicants for the same "
    "card can end up with quite different rates.",
    "Paying late costs more than the fee: after thirty days it can show up on your credit report "
    "for years. Autopay for the minimum is cheap insurance.",
    "Withdrawing cash on a credit card is almost always a poor deal, since interest starts at once "
    "and there's usually a fee on top.",
    "Points and miles are only worth what you redeem them for; cash back is simpler to value.",
    "Keeping an old no-fee card open helps the average age of your accounts.",
    "Applying for several cards in a short window can make lenders nervous.",
    "Check your statement each month even with autopay switched on, to catch anything odd early.",
    "If your habits change - a new job, a move, more travel - revisit which card fits best.",
    "Credit limits matter too: a small limit makes it easy to run up high utilization.",
)


def filler(ctx: Ctx, n: int) -> list[str]:
    pool = list(FILLER)
    ctx.rng.shuffle(pool)
    return [ctx.fill(p) for p in pool[:n]]


def _sentences(ctx: Ctx, card: Card, kinds: list[str]) -> list[str]:
    return [_claim(ctx, card, k, "sentence") for k in kinds]


def _bullets(ctx: Ctx, card: Card, kinds: list[str], numbered: bool = False) -> list[str]:
    out = []
    for i, k in enumerate(kinds):
        mark = f"{i + 1})" if numbered else "*"
        out.append(
            f"{mark} {ctx.emoji('good') if ctx.chance(0.3) else ''}{_claim(ctx, card, k, 'bullet')}"
        )
    return out


# --- layouts -------------------------------------------------------------------------------


def qa_short(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    body = _sentences(ctx, card, kinds)
    lead = ""
    if not any(card.card_id == m for m in ctx.mentions):
        lead = ctx.fill(
            ctx.pick(
                (
                    "On the {name}:",
                    "Quick facts about the {name}.",
                    "You asked about the {name} from {issuer}.",
                    "The {name} in a nutshell:",
                )
            ),
            name=lambda: ctx.name(card),
            issuer=card.issuer,
        )
    body = [lead, *body, *extras(ctx, card)]
    if ctx.recommended:
        body.append(rec_lead(ctx, ctx.recommended[0]))
    style = ctx.pick(("plain", "qa"))
    if style == "qa":
        return "Q: What are the terms?\n\nA: " + join([opener(ctx), *body, closer(ctx)])
    return join([opener(ctx), *body, closer(ctx)])


def fact_sheet(ctx: Ctx) -> str:
    card = ctx.cards[0]
    numbered = ctx.chance(0.5)
    title = ctx.fill(
        ctx.pick(("{name} - key terms", "__{name}__", "{name} ({issuer})", "Terms for the {name}")),
        name=lambda: ctx.name(card),
        issuer=card.issuer,
    )
    lines = [ctx.emoji("card") + title, "", *_bullets(ctx, card, ctx.plan(card), numbered)]
    ext = extras(ctx, card)
    if ext:
        lines += ["", join(ext)]
    if ctx.recommended:
        lines += ["", rec_lead(ctx, ctx.recommended[0])]
    lines += [
        "",
        ctx.fill(
            ctx.pick(
                (
                    "Source: the issuer's pricing page.",
                    "",
                    "All figures per the cardmember agreement.",
                )
            )
        ),
    ]
    return "\n".join(lines).rstrip()


HEADERS = {
    "purchase_apr": ("Ongoing APR", "Interest rate", "Regular APR"),
    "annual_fee": ("Yearly fee", "Fee per year", "Annual cost"),
    "intro_purchase": ("Promo APR on purchases", "Purchase promo"),
    "intro_bt": ("Promo APR on transfers", "Balance transfer promo"),
    "foreign_fee": ("FX fee", "Fee abroad"),
    "late_fee": ("Late payment", "Late fee"),
    "rewards": ("Earning", "Rewards"),
    "bt_fee": ("Transfer fee", "BT fee"),
    "cash_fee": ("Cash advance fee", "Cash withdrawal fee"),
    "signup": ("Sign-up bonus", "Welcome offer"),
}


def comparison_table(ctx: Ctx) -> str:
    kinds = ctx.plan(ctx.cards[0])
    heads = {k: ctx.pick(HEADERS[k]) for k in kinds}
    names = [ctx.name(c) for c in ctx.cards]
    intro = ctx.fill(
        ctx.pick(
            (
                "Here are the {cards} next to each other.",
                "Side by side, the {cards} compare like this:",
                "A grid of the {cards}:",
            )
        ),
        cards=_and(names),
    )
    shape = ctx.pick(("rows", "transposed", "html"))
    if shape == "rows":
        rows = [
            "| Product | " + " | ".join(heads[k] for k in kinds) + " |",
            "|:--|" + ":--|" * len(kinds),
        ]
        for c, shown in zip(ctx.cards, names, strict=True):
            rows.append(
                f"| {shown} | " + " | ".join(_claim(ctx, c, k, "cell") for k in kinds) + " |"
            )
        table = "\n".join(rows)
    elif shape == "transposed":
        rows = ["| | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
        for k in kinds:
            rows.append(
                f"| {heads[k]} | " + " | ".join(_claim(ctx, c, k, "cell") for c in ctx.cards) + " |"
            )
        table = "\n".join(rows)
    else:
        head = "<tr><th>Card</th>" + "".join(f"<th>{heads[k]}</th>" for k in kinds) + "</tr>"
        body = []
        for c, shown in zip(ctx.cards, names, strict=True):
            cells = "".join(f"<td>{_claim(ctx, c, k, 'cell')}</td>" for k in kinds)
            body.append(f"<tr><td>{shown}</td>{cells}</tr>")
        table = "<table>" + head + "".join(body) + "</table>"
    after = [*extras(ctx, ctx.cards[0])]
    if ctx.recommended:
        after.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        after.append(
            ctx.fill(
                ctx.pick(
                    (
                        "The better choice hinges on whether you expect to carry a balance.",
                        "Pay in full every month? Then the fees row matters more than the rates.",
                    )
                )
            )
        )
    return "\n".join([intro, "", table, "", join(after)])


def comparison_prose(ctx: Ctx) -> str:
    names = [ctx.name(c) for c in ctx.cards]
    head = ctx.fill(
        ctx.pick(
            (
                "Comparing the {cards}, here's what stands out.",
                "The {cards} differ in a few ways.",
                "{cards}: a head-to-head.",
            )
        ),
        cards=_and(names),
    )
    labels = _labels(ctx) if "short_labels" in ctx.want else {}
    if labels:
        ctx.hn.add("hn_short_label")
        items = []
        for i, c in enumerate(ctx.cards):
            clauses = [_claim(ctx, c, k, "clause") for k in ctx.plan(c)]
            items.append(f"{i + 1}. {labels[c.card_id]} - " + ", ".join(clauses) + ".")
        text = head + "\n\n" + "\n".join(items)
    else:
        paras = []
        for i, c in enumerate(ctx.cards):
            sents = _sentences(ctx, c, ctx.plan(c))
            opener_ = ctx.fill(
                ctx.pick(
                    (
                        "Starting with the {name}.",
                        "Then there's the {name}.",
                        "As for the {name},",
                        "The {name} first.",
                    )
                    if i == 0
                    else (
                        "Turning to the {name}.",
                        "The {name}, by contrast:",
                        "Now the {name}.",
                    )
                ),
                name=lambda c=c: ctx.name(c),
            )
            if opener_.endswith(","):
                first, *rest = sents or [""]
                opener_ = opener_ + " " + (first[:1].lower() + first[1:] if first else "")
                sents = rest
            paras.append(join([opener_, *sents]))
        text = "\n\n".join([head, *paras])
    tail = [*extras(ctx, ctx.cards[0])]
    if ctx.recommended:
        tail.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        tail.append(
            ctx.fill(
                ctx.pick(
                    ("Neither is a bad choice.", "It depends on your habits more than the cards.")
                )
            )
        )
    return text + "\n\n" + join(tail)


def _labels(ctx: Ctx) -> dict[str, str]:
    names = [c.name for c in ctx.cards]
    out = {}
    for c in ctx.cards:
        words = c.name.split()
        shorter = [n for n in names if n != c.name and c.name.startswith(n + " ")]
        longer = [n for n in names if n != c.name and n.startswith(c.name + " ")]
        if shorter:
            out[c.card_id] = " ".join(words[len(shorter[0].split()) :])
        elif longer:
            out[c.card_id] = "Base"
    return out if len(out) == len(ctx.cards) else {}


def long_explainer(ctx: Ctx) -> str:
    cards = ctx.cards
    title = ctx.fill(
        ctx.pick(
            ("Understanding the {name}", "The {name}, explained", "Should you get the {name}?")
        ),
        name=lambda: ctx.name(cards[0]),
    )
    parts = [f"**{ctx.emoji('card')}{title}**", ""]
    parts.append(
        ctx.fill(
            ctx.pick(
                (
                    "Headline offers rarely tell the whole story, so this goes through the pricing "
                    "first and then the habits that decide what a card really costs.",
                    "I'll lay out the pricing, then explain what it means day to day, then add some "
                    "general advice.",
                )
            )
        )
    )
    for c in cards:
        kinds = ctx.plan(c)
        parts += ["", ctx.fill("**Pricing of the {name}**", name=lambda c=c: ctx.name(c)), ""]
        if ctx.chance(0.5):
            parts.append(join(_sentences(ctx, c, kinds)))
        else:
            parts += _bullets(ctx, c, kinds, numbered=ctx.chance(0.5))
        ext = extras(ctx, c)
        if ext:
            parts += ["", join(ext)]
    parts += ["", "**Day-to-day**", ""]
    body = "\n".join(parts)
    closing = [
        ctx.fill(
            ctx.pick(
                (
                    "To sum up: match the card to your actual behaviour, not the advert.",
                    "The cheapest card is the one whose charges you never trigger.",
                )
            )
        )
    ]
    if ctx.recommended:
        closing.insert(0, rec_lead(ctx, ctx.recommended[0]))
    fills = filler(ctx, 12)
    slots: list[str | None] = list(fills)
    slots.insert(ctx.rng.randrange(len(slots) + 1), None)
    target = ctx.rng.randint(320, 820)
    added: list[str] = []
    for para in slots:
        size = _words(body) + _words(" ".join(added)) + _words(" ".join(closing))
        if size >= target:
            break
        if size + (_words(para) if para is not None else 50) > 880:
            continue
        text = para if para is not None else worked_example(ctx, cards[0])
        if text:
            added.append(text)
    out = body + "\n\n" + "\n\n".join(added) + "\n\n" + join(closing)
    if _words(out) < 300:
        out += "\n\n" + "\n\n".join(p for p in FILLER if p not in added)[:1500]
    return out


def worked_example(ctx: Ctx, card: Card) -> str:
    if not {"bt_fee", "intro_bt"} & set(ctx.plan(card)) or ctx.chance(0.3):
        return ""
    amount = ctx.pick((3000, 4500, 6000))
    fee = max(card.bt_fee_pct / 100 * amount, card.bt_fee_min)
    return ctx.fill(
        ctx.pick(
            (
                "Worked example: shift {amount} of debt to the {name} and roughly {fee} is added "
                "straight away as the transfer charge.",
                "Say you move {amount} across to the {name}; the one-off transfer cost would be "
                "close to {fee}, which you should build into your payoff plan.",
            )
        ),
        amount=lambda: ctx.example_money(amount),
        fee=lambda: ctx.derived_money(fee, "bt_fee_on", card_id=card.card_id, amount=amount),
        name=lambda: ctx.name(card),
    )


def _words(text: str) -> int:
    return len(text.split())


def recommendation(ctx: Ctx) -> str:
    cust = ctx.customer
    style = ctx.pick(("email", "picks", "prose"))
    parts: list[str] = []
    if style == "email":
        parts.append("Subject: Your card options")
        if cust:
            parts.append(f"Dear {cust.first_name},")
    elif cust:
        parts.append(
            ctx.fill(
                ctx.pick(("Hey {first}!", "{first}, here's my take.", "")), first=cust.first_name
            )
        )
    if cust and ctx.chance(0.6):
        parts.append(spend_line(ctx))
    if style == "picks":
        parts.append(ctx.pick(("Top picks for you:", "My shortlist for you:")))
        for i, c in enumerate(ctx.recommended):
            clauses = [_claim(ctx, c, k, "clause") for k in ctx.plan(c)]
            item = (
                f"{i + 1}. "
                + ctx.fill("{name}", name=lambda c=c: ctx.name(c))
                + " - "
                + "; ".join(clauses)
            )
            parts.append(item)
            if cust and ("value" in ctx.want or ctx.chance(0.5)):
                parts.append(value_line(ctx, c))
            parts.extend(extras(ctx, c) if i == 0 else [])
    else:
        for i, c in enumerate(ctx.recommended):
            lead = rec_lead(ctx, c) if i == 0 else rec_second(ctx, c)
            kinds = ctx.plan(c)
            if ctx.chance(0.4):
                parts.append(lead + "\n" + "\n".join(_bullets(ctx, c, kinds)))
            else:
                parts.append(join([lead, *_sentences(ctx, c, kinds)]))
            if cust and ("value" in ctx.want or ctx.chance(0.5)):
                parts.append(value_line(ctx, c))
            parts.extend(extras(ctx, c) if i == 0 else [])
    for c, reason in ctx.ruled_out:
        parts.append(rule_out(ctx, c, reason))
    for c in ctx.held:
        parts.append(rule_out(ctx, c, "already_holds_card"))
    if style == "email":
        parts.append("Best regards,\nYour card assistant")
    else:
        parts.append(closer(ctx))
    return "\n\n".join(p for p in parts if p)


def casual_chat(ctx: Ctx) -> str:
    card = ctx.cards[0]
    claims = [_claim(ctx, card, k, "clause") for k in ctx.plan(card)]
    starts = ["ngl the {name} is pretty straightforward:", "re the {name} -", "ok {name} facts:"]
    if card in ctx.recommended:
        starts += ["tbh the {name} is a good call -", "i'd go {name} tbh -"]
    text = (
        ctx.fill(ctx.pick(starts), name=ctx.name(card))
        + " "
        + " / ".join(claims)
        + " "
        + ctx.emoji("chat")
    )
    for c in ctx.cards[1:]:
        more = [_claim(ctx, c, k, "clause") for k in ctx.plan(c)]
        text += "\n" + ctx.fill("vs the {name}: ", name=lambda c=c: ctx.name(c)) + " / ".join(more)
    ext = extras(ctx, card)
    if ext:
        text += "\n" + join(ext)
    if ctx.recommended:
        text += "\n" + ctx.fill(
            ctx.pick(("my vote: the {name}", "id pick the {name} fwiw")),
            name=lambda: ctx.name(ctx.recommended[0]),
        )
    text += " " + ctx.fill(ctx.pick(("", "ttyl", "any other qs?")))
    return text.strip()


def marketing(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    headline = ctx.fill(
        ctx.pick(("Say hello to the {name}", "The {name} is here", "Why people love the {name}")),
        name=lambda: ctx.name(card),
    )
    feats = [f"{ctx.emoji('good')}{_claim(ctx, card, k, 'bullet')}" for k in kinds]
    shape = ctx.pick(("email", "post"))
    ext = extras(ctx, card)
    if shape == "email":
        out = [
            f"Subject: {headline}",
            "",
            "Hi there,",
            "",
            ctx.fill("We think you'll like what {issuer} has put together:", issuer=card.issuer),
            "",
            *[f"+ {f}" for f in feats],
            "",
        ]
        if ext:
            out += [join(ext), ""]
        out += ["Apply in minutes online.", "", "The Cards Team"]
    else:
        out = [f"{ctx.emoji('star')}{headline}!", "", " | ".join(feats), ""]
        if ext:
            out += [join(ext), ""]
        out.append(ctx.fill("Apply with {issuer} today.", issuer=card.issuer))
    return "\n".join(out)


LAYOUTS = {
    "qa_short": qa_short,
    "fact_sheet": fact_sheet,
    "comparison_table": comparison_table,
    "comparison_prose": comparison_prose,
    "long_explainer": long_explainer,
    "recommendation": recommendation,
    "casual_chat": casual_chat,
    "marketing": marketing,
}
