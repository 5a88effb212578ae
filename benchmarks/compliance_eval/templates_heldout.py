"""Phrasing pool of the HELD-OUT split of the compliance evalset.

=============================================================================================
  ENGINEERS WORKING ON THE COMPLIANCE VERIFIER MUST NOT READ THIS FILE OR THE ITEMS IT MAKES.
  It exists to measure whether verifier rules generalise beyond the phrasings they were tuned
  on (``templates_tuning.py``). Reading it, or printing held-out item texts, spoils the split.
  ``score.py --split heldout`` prints aggregates only, on purpose.
=============================================================================================

Same contract as the tuning pool (same dictionaries and layout names), different wording,
different sentence shapes, different layouts (transposed tables, "top picks" lists, pros/cons,
texting register, e-mail drafts) and a different vocabulary for invented names.
"""

from __future__ import annotations

from benchmarks.compliance_eval.catalog import Card, annual_rewards_usd
from benchmarks.compliance_eval.render import Ctx

NAME = "heldout"

FORMATS: dict[str, tuple[str, ...]] = {
    "pct": ("sym", "sym", "word", "space"),
    "money": ("sym", "sym", "usd", "words", "dollars"),
    "months": ("num", "num", "word", "idiom", "cycles"),
}

APR: dict[str, tuple[str, ...]] = {
    "np_range": (
        "{lo} to {hi} APR (variable)",
        "variable {lo}–{hi} APR",
        "{lo}-{hi} variable-rate APR",
    ),
    "np_single_var": ("{rate} APR (variable)", "variable-rate {rate} APR"),
    "np_fixed": ("{rate} APR, fixed", "fixed-rate {rate} APR"),
    "val_range": (
        "anywhere from {lo} up to {hi} depending on credit (variable)",
        "{lo}-{hi} variable",
        "{lo} through {hi}, variable",
    ),
    "val_single_var": ("{rate}, and it's variable", "{rate} variable"),
    "val_fixed": ("{rate} — fixed, not variable", "{rate} and it stays fixed"),
}

SENT: dict[str, tuple[str, ...]] = {
    "purchase_apr": (
        "Interest on purchases runs {apr_val}.",
        "Carrying a balance? You'd be paying {apr_val}.",
        "Purchase APR on the {name}: {apr_val}.",
        "The rate on purchases sits at {apr_val}.",
        "Anything you don't pay off accrues interest at a {apr}.",
    ),
    "cash_apr": (
        "Cash advances are billed at {rate} APR.",
        "Take cash out and the rate is {rate} APR.",
    ),
    "penalty_apr": (
        "A late or returned payment can trigger a penalty rate of up to {rate}.",
        "Penalty pricing tops out at {rate} APR.",
    ),
    "penalty_apr_none": (
        "No penalty APR applies on this card.",
        "The {name} doesn't use a penalty rate.",
    ),
    "intro_purchase": (
        "For {months} you'll pay {rate} APR on new purchases; after that, a {goto}.",
        "Intro offer: {rate} APR on purchases for {months}, then {goto_val}.",
        "Enjoy {rate} APR on purchases over {months}, and afterwards a {goto} applies.",
        "New purchases start at {rate} APR for {months} before moving to {goto_val}.",
    ),
    "intro_purchase_sep": (
        "On top of that, new purchases are at {rate} APR for {months}.",
        "Intro offer on purchases: {rate} APR for {months}.",
        "For {months}, purchases carry a {rate} introductory APR.",
    ),
    "intro_purchase_nomonths": (
        "Intro offer: {rate} APR on purchases, then {goto_val}.",
        "New purchases start at {rate} APR before moving to {goto_val}.",
        "Purchases begin at an introductory {rate} APR and later switch to a {goto}.",
    ),
    "intro_purchase_noapr": (
        "Purchases cost {rate} for {months}, after which you're on {goto_val}.",
        "For {months}, new purchases are at {rate}; then {goto_val} takes over.",
    ),
    "intro_purchase_none": (
        "Purchases don't get an intro rate.",
        "No introductory purchase rate here.",
    ),
    "intro_bt": (
        "Transfer a balance and it sits at {rate} APR for {months}; then a {goto} applies.",
        "Intro offer on balance transfers: {rate} APR for {months}, then {goto_val}.",
        "Moving debt over? It's {rate} APR for {months}, and {goto_val} afterwards.",
        "Transferred balances enjoy {rate} APR over {months} before switching to a {goto}.",
    ),
    "intro_bt_sep": (
        "Transferred balances sit at {rate} APR for {months}.",
        "Intro offer on balance transfers: {rate} APR for {months}.",
    ),
    "intro_bt_nomonths": (
        "Intro offer on balance transfers: {rate} APR, then {goto_val}.",
        "Transferred balances begin at {rate} APR before switching to a {goto}.",
    ),
    "intro_bt_noapr": (
        "Transferred balances cost {rate} for {months}, then {goto_val}.",
        "For {months}, anything you transfer is at {rate}; after that it's {goto_val}.",
    ),
    "intro_bt_none": (
        "Balance transfers get no promotional rate.",
        "No intro pricing on transfers.",
    ),
    "no_intro_any": (
        "No promotional APR of any kind — not on purchases, not on transfers.",
        "The {name} doesn't run an intro rate on purchases or balance transfers.",
    ),
    "no_intro_purchase_but_bt": (
        "Purchases don't get a promo rate, but balance transfers do: {rate} APR for {months}, then {goto_val}.",
        "Only transfers get an intro deal ({rate} for {months}, then {goto_val}); purchases get none.",
    ),
    "annual_fee": (
        "Yearly fee: {fee}.",
        "Keeping the {name} costs {fee} a year.",
        "Expect a yearly charge of {fee} for the card.",
        "Its membership fee comes to {fee} each year.",
    ),
    "annual_fee_zero": (
        "No yearly fee to keep it.",
        "The {name} costs nothing per year to hold.",
        "It comes with a $0 annual fee.",
    ),
    "annual_fee_waiver": (
        "Year one is {first}; from year two the fee is {fee}.",
        "The first year costs {first}, and after that you'll pay {fee} annually.",
        "It has an introductory annual fee of {first}, rising to {fee} from the second year.",
    ),
    "annual_fee_contrast": (
        "Yearly fee: {fee} — not the {other} you may have seen.",
        "To be clear, it's {fee} per year and not {other}.",
    ),
    "late_fee": (
        "Paying late costs as much as {fee}.",
        "A late payment can set you back up to {fee}.",
    ),
    "late_fee_zero": ("Paying late carries no fee.", "No fee for a late payment."),
    "late_fee_contrast": ("Paying late costs up to {fee} — not {other}.",),
    "foreign_fee": (
        "Spending in another currency adds {pct} to each purchase.",
        "Overseas purchases come with a {pct} surcharge.",
    ),
    "foreign_fee_zero": (
        "Spending abroad adds no foreign transaction fees.",
        "You won't pay foreign transaction fees on it.",
    ),
    "foreign_fee_zeropct": ("Overseas purchases carry a {pct} foreign transaction fee.",),
    "cash_fee": (
        "Pulling cash costs {pct} per advance, never less than {min}.",
        "Each cash advance is charged {pct} (at least {min}).",
    ),
    "cash_fee_zero": ("Cash advances come with no fee.", "Taking a cash advance carries no fee."),
    "bt_fee": (
        "Moving a balance costs {pct} of it, never less than {min}.",
        "Expect a transfer fee of {pct} with a {min} floor.",
    ),
    "bt_fee_zero": ("Moving a balance costs nothing in fees.", "Transfers come with no fee."),
    "rewards": ("Rewards: {rewards}.", "Earning works out to {rewards}."),
    "signup": (
        "Spend {spend} in your first {months} and you'll get a {bonus} bonus.",
        "Welcome offer: {bonus} after {spend} of spending in {months}.",
    ),
    "grace": ("Pay in full and you get {days} before purchase interest kicks in.",),
    "min_interest": ("Any interest charged will be at least {amount}.",),
    "network": ("The {name} is a {network} product.", "Network: {network}."),
}

BULLET: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("Purchase rate — {apr_val}", "Rate on purchases → {apr_val}"),
    "cash_apr": ("Cash advance rate — {rate}",),
    "penalty_apr": ("Penalty rate — up to {rate}",),
    "penalty_apr_none": ("Penalty rate — n/a",),
    "intro_purchase": ("Intro on purchases — {rate} for {months}, then {goto_val}",),
    "intro_purchase_sep": ("Intro on purchases — {rate} for {months}",),
    "intro_purchase_nomonths": ("Intro on purchases — {rate}, then {goto_val}",),
    "intro_purchase_none": ("Intro on purchases — n/a",),
    "intro_bt": ("Intro on transfers — {rate} for {months}, then {goto_val}",),
    "intro_bt_sep": ("Intro on transfers — {rate} for {months}",),
    "intro_bt_nomonths": ("Intro on transfers — {rate}, then {goto_val}",),
    "intro_bt_none": ("Intro on transfers — n/a",),
    "no_intro_any": ("Promo rates — none",),
    "no_intro_purchase_but_bt": (
        "Promo rates — purchases none; transfers {rate} for {months}, then {goto_val}",
    ),
    "annual_fee": ("Yearly fee — {fee}", "Fee per year → {fee}"),
    "annual_fee_zero": ("Yearly fee — $0", "Fee per year → none"),
    "annual_fee_waiver": ("Yearly fee — {first} in year one, {fee} after",),
    "annual_fee_contrast": ("Yearly fee — {fee} (not {other})",),
    "late_fee": ("Late payment — up to {fee}",),
    "late_fee_zero": ("Late payment — no fee",),
    "late_fee_contrast": ("Late payment — up to {fee} (not {other})",),
    "foreign_fee": ("Foreign purchases — {pct} fee",),
    "foreign_fee_zero": ("Foreign purchases — no fee",),
    "foreign_fee_zeropct": ("Foreign purchases — {pct} fee",),
    "cash_fee": ("Cash advance fee — {pct}, at least {min}",),
    "cash_fee_zero": ("Cash advance fee — none",),
    "bt_fee": ("Transfer fee — {pct}, at least {min}",),
    "bt_fee_zero": ("Transfer fee — none",),
    "rewards": ("Earning — {rewards}",),
    "signup": ("Welcome offer — {bonus} after {spend} in {months}",),
    "grace": ("Grace period — {days}",),
    "min_interest": ("Minimum interest — {amount}",),
    "network": ("Network — {network}",),
}

CELL: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("{apr_val}",),
    "cash_apr": ("{rate}",),
    "penalty_apr": ("≤ {rate}", "up to {rate}"),
    "penalty_apr_none": ("n/a",),
    "intro_purchase": ("{rate} × {months} → {goto_val}", "{rate} for {months}, then {goto_val}"),
    "intro_purchase_sep": ("{rate} × {months}", "{rate} for {months}"),
    "intro_purchase_nomonths": ("{rate} → {goto_val}",),
    "intro_purchase_none": ("n/a", "—none—"),
    "intro_bt": ("{rate} × {months} → {goto_val}", "{rate} for {months}, then {goto_val}"),
    "intro_bt_sep": ("{rate} × {months}", "{rate} for {months}"),
    "intro_bt_nomonths": ("{rate} → {goto_val}",),
    "intro_bt_none": ("n/a", "—none—"),
    "annual_fee": ("{fee}/yr", "{fee}"),
    "annual_fee_zero": ("$0", "no fee"),
    "annual_fee_waiver": ("{first} yr 1, {fee} after",),
    "annual_fee_contrast": ("{fee} (not {other})",),
    "late_fee": ("≤ {fee}", "up to {fee}"),
    "late_fee_zero": ("no fee",),
    "late_fee_contrast": ("up to {fee} (not {other})",),
    "foreign_fee": ("{pct}",),
    "foreign_fee_zero": ("no fee",),
    "foreign_fee_zeropct": ("{pct}",),
    "cash_fee": ("{pct} / {min} min",),
    "cash_fee_zero": ("no fee",),
    "bt_fee": ("{pct} / {min} min",),
    "bt_fee_zero": ("no fee",),
    "rewards": ("{rewards}",),
    "signup": ("{bonus} for {spend} in {months}",),
    "grace": ("{days}",),
    "min_interest": ("{amount}",),
    "network": ("{network}",),
}

CLAUSE: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("interest is {apr_val}", "rate on purchases is {apr_val}"),
    "cash_apr": ("cash advance rate {rate}",),
    "penalty_apr": ("penalty rate can hit {rate}",),
    "penalty_apr_none": ("no penalty rate",),
    "intro_purchase": ("{rate} apr on new stuff for {months} then {goto_val}",),
    "intro_purchase_sep": ("{rate} apr on new stuff for {months}",),
    "intro_purchase_nomonths": ("{rate} apr on new stuff, then {goto_val}",),
    "intro_purchase_noapr": ("{rate} on new stuff for {months} then {goto_val}",),
    "intro_purchase_none": ("no promo rate on purchases",),
    "intro_bt": ("transfers are {rate} apr for {months} then {goto_val}",),
    "intro_bt_sep": ("transfers are {rate} apr for {months}",),
    "intro_bt_nomonths": ("transfers are {rate} apr, then {goto_val}",),
    "intro_bt_noapr": ("transfers are {rate} for {months} then {goto_val}",),
    "intro_bt_none": ("no promo rate on transfers",),
    "no_intro_any": ("no promo rates whatsoever",),
    "no_intro_purchase_but_bt": (
        "no promo on purchases, transfers get {rate} for {months} then {goto_val}",
    ),
    "annual_fee": ("{fee} a year to keep it", "costs {fee}/yr"),
    "annual_fee_zero": ("nothing per year to keep it", "$0 a year"),
    "annual_fee_waiver": ("{first} for year one and {fee} after",),
    "annual_fee_contrast": ("{fee} a year, not {other}",),
    "late_fee": ("paying late can cost up to {fee}",),
    "late_fee_zero": ("no fee if you pay late",),
    "late_fee_contrast": ("late payment up to {fee}, not {other}",),
    "foreign_fee": ("{pct} extra on foreign purchases",),
    "foreign_fee_zero": ("nothing extra on foreign purchases", "no foreign fees"),
    "foreign_fee_zeropct": ("{pct} on foreign purchases",),
    "cash_fee": ("cash advances {pct} ({min} min)",),
    "cash_fee_zero": ("cash advances cost nothing extra",),
    "bt_fee": ("moving a balance costs {pct} ({min} min)",),
    "bt_fee_zero": ("moving a balance is free",),
    "rewards": ("you get {rewards}",),
    "signup": ("{bonus} welcome bonus for {spend} in {months}",),
    "grace": ("{days} grace",),
    "min_interest": ("min interest {amount}",),
    "network": ("runs on {network}",),
}

EMOJI: dict[str, tuple[str, ...]] = {
    "card": ("🪪", "💳"),
    "good": ("✔️", "🟢"),
    "warn": ("🚩",),
    "travel": ("🧳", "🛫"),
    "money": ("🤑", "💸"),
    "star": ("✨", "🥇"),
    "chat": ("😅", "🤔", "🙌"),
}

PREMIUM_WORDS = ("Onyx", "Titanium", "Sapphire", "Diamond", "Summit", "Crown", "Apex", "Luxe")
ISSUER_PRODUCTS = ("Titanium Crown", "Diamond Select Rewards", "Sapphire Apex", "World Elite Luxe")
INVENTED_BRANDS = ("Halcyon", "Meridia", "Lodestar", "Granary", "Quillon")
TIER_WORDS = ("Ultra", "Select", "Max", "Premier", "Infinite", "World")
INVENTED_LINES = (
    "Travel Rewards",
    "Cash Plus",
    "Everyday Miles",
    "Journey",
    "Balance Transfer",
    "Student Rewards",
)

GENERIC_LINES = (
    "For most people, a no-frills cash back card covers everyday spending just fine.",
    "A travel rewards card only earns its keep if you actually redeem the points for trips.",
    "Low-rate cards are the quiet workhorses: no excitement, but less interest if you ever carry a balance.",
    "Secured cards ask for a deposit up front, which is exactly why they are easy to get.",
    "Any balance transfer card is a tool for paying debt down, not for adding to it.",
    "Business credit cards report to the issuer differently, so check how they affect your personal file.",
)
# one heading per generic line (a capitalised generic phrase, never a product-line name)
GENERIC_HEADINGS = (
    "Cash Back in General",
    "A Word on Travel Rewards",
    "Why Low-Rate Cards Matter",
    "About Secured Cards",
    "Balance Transfers, Briefly",
    "Business Cards and Your Credit",
)
ISSUER_LINES = (
    "The issuing bank is {issuer}.",
    "{issuer} handles servicing and the mobile app.",
    "Applications go through {issuer}'s website.",
    "Customer service is run by {issuer}.",
)

OPENERS = (
    "Short answer first, details below.",
    "Great question — let me break it down.",
    "Here you go.",
    "Thanks for asking!",
    "",
)
CLOSERS = (
    "If anything here doesn't match what you're seeing, trust the official pricing page.",
    "Happy to dig into any of these further.",
    "Feel free to send over another card to compare.",
    "",
)


CATEGORY_WORDS = {
    "groceries": "supermarkets",
    "dining": "restaurants",
    "travel": "travel",
    "gas": "fuel",
    "online": "online purchases",
    "other": "other spending",
}


def _unit(unit: str, rate: float) -> str:
    return unit[:-1] if rate == 1 else unit


def rewards_phrase(ctx: Ctx, card: Card) -> str:
    labels = CATEGORY_WORDS
    if not card.bonus_categories and card.base_rate == 0:
        return "no rewards"
    cash = card.reward_currency == "cash_back"
    unit = "points" if card.reward_currency == "points" else "miles"
    parts = []
    for cat in card.bonus_categories[:3]:
        rate, cap = card.rate_for(cat)
        if cash:
            piece = f"{labels[cat]} at {ctx.reward_pct(rate, f'rate_{cat}')} back"
        else:
            piece = f"{labels[cat]} at {ctx.number(rate, f'rate_{cat}', '')} {_unit(unit, rate)} per dollar"
        if cap is not None:
            piece += f" (capped at {ctx.money(cap, f'cap_{cat}', 'sym')} of spend per year)"
        parts.append(piece)
    if cash:
        base = f"{ctx.reward_pct(card.base_rate, 'base_rate')} back on the rest"
        flat = f"{ctx.reward_pct(card.base_rate, 'base_rate')} back on every purchase"
    else:
        base = f"{ctx.number(card.base_rate, 'base_rate', '')} {_unit(unit, card.base_rate)} per dollar on the rest"
        flat = f"{ctx.number(card.base_rate, 'base_rate', '')} {_unit(unit, card.base_rate)} per dollar across the board"
    if not parts:
        return flat
    return "; ".join(parts) + f"; {base}"


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


def rec_lead(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "My suggestion: the {name}.",
                "The {name} would suit you best.",
                "I'd lean toward the {name} — it's worth applying for.",
                "Go for the {name}; it's the strongest match.",
                "For you, the {name} is the one to get.",
            )
        ),
        name=lambda: ctx.name(card),
    )


def rec_second(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "A close second worth applying for is the {name}.",
                "If that one doesn't appeal, the {name} is also a good match for you.",
            )
        ),
        name=lambda: ctx.name(card),
    )


RULE_OUT = {
    "credit_score_below_min": (
        "The {name} is off the table for now — approvals start around a {min_score} score and you're at {score}.",
        "I'm leaving out the {name}: your current score is below what that issuer approves.",
    ),
    "student_only": (
        "The {name} isn't available to you, since only enrolled students can apply.",
        "Skip the {name}; it's restricted to students.",
    ),
    "recent_bankruptcy": (
        "The {name} isn't available to you right now because of the bankruptcy in the last couple of years.",
        "I've excluded the {name}: its issuer declines applicants with a recent bankruptcy.",
    ),
    "already_holds_card": (
        "You're already a {name} cardholder, so I haven't counted it.",
        "No need to look at the {name} — you have it already.",
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
    net = rewards - card.annual_fee
    if card.annual_fee > 0 and net > 0 and ctx.chance(0.5):
        v = ctx.derived_money(
            net, "ongoing_value", card_id=card.card_id, customer_id=cust.customer_id
        )
        return ctx.fill(
            ctx.pick(
                (
                    "Net of the fee, I estimate {v} a year in value for you.",
                    "Even after paying the fee you'd come out roughly {v} ahead each year.",
                )
            ),
            v=v,
        )
    v = ctx.derived_money(
        rewards, "annual_rewards", card_id=card.card_id, customer_id=cust.customer_id
    )
    return ctx.fill(
        ctx.pick(
            (
                "Run against your last two years of spending, it would pay back around {v} a year.",
                "I'd estimate roughly {v} a year in rewards on the way you spend.",
                "Ballpark, that's {v} a year back to you.",
            )
        ),
        v=v,
    )


def spend_line(ctx: Ctx) -> str:
    cust = ctx.customer
    if cust is None:
        return ""
    cat, amount = sorted(cust.monthly_spend, key=lambda x: -x[1])[0]
    label = {"other": "miscellaneous spending"}.get(cat, cat)
    m = ctx.derived_money(amount, "monthly_spend", customer_id=cust.customer_id, category=cat)
    return ctx.fill(
        ctx.pick(
            (
                "Looking at your history, {label} is where most of your money goes (around {m} monthly).",
                "About {m} of your monthly spend goes on {label}.",
            )
        ),
        label=label,
        m=m,
    )


FILLER: tuple[str, ...] = (
    "Think of the APR as the price of borrowing. It only matters for the part of the statement you do not "
    "pay off. If you always clear the full balance by the due date, you could hold a card with a sky-high "
    "rate and never pay a cent of interest. The trouble starts when life gets in the way and a balance "
    "lingers for a few months.",
    "Promotional rates come with a clock. Once the promo window closes, whatever is left moves to the "
    "regular rate, and that can be a shock. A simple habit helps: set a calendar reminder a couple of "
    "months before the promo ends so you can see how much is left and adjust.",
    "Transfer fees are charged up front, on the day the balance moves. They are worth it when the interest "
    "you save is bigger than the fee, which is usually true for larger balances you can clear during the "
    "promo window, and often false for small balances.",
    "Currency conversion charges are the sneaky ones. You will not see them at the till; they appear later "
    "as a separate line or folded into the exchange rate. If you spend a lot abroad or shop with overseas "
    "websites, a card that does not add them can save real money over a year.",
    "Yearly fees deserve a simple sanity check. Add up what the card would realistically earn you, take the "
    "fee off, and compare with the best free card you could get instead. If the gap is small, the free card "
    "usually wins because it carries no pressure to spend.",
    "Approval is not the only thing your credit history decides. Where you land inside an APR range, and "
    "what credit limit you are offered, both depend on it. Paying down revolving balances before you apply "
    "is one of the quickest ways to improve your odds.",
    "Missing a due date costs more than the fee. The issuer may report it once it is a month overdue, and "
    "that mark can weigh on your credit file for a long time. Autopay for the minimum is cheap insurance "
    "even if you normally pay by hand.",
    "Treat cash advances as a last resort. They are typically priced above purchases, the fee is charged "
    "immediately, and interest usually accrues from day one with no grace period to soften it.",
    "Points and miles are a currency the bank controls. Their value depends on how you redeem them, and "
    "programs change over time. If you would rather not keep track, a plain cash back structure is the "
    "low-effort choice most people end up preferring.",
    "One underrated habit is to keep your card setup boring: one card for subscriptions and bills, one for "
    "everything else. Reviewing two statements a month is easy, and surprises stand out immediately.",
    "If you run a small organization or side business, keeping its expenses on a separate card makes "
    "bookkeeping much simpler at tax time, even if the card itself is an ordinary consumer product.",
    "Plenty of people still write a paper check for rent or utilities. Where a landlord or provider accepts "
    "cards without a surcharge, moving those payments over can earn rewards, as long as the balance is "
    "cleared every month.",
    "Interest-free days are conditional. The grace window only protects you if last month's statement was "
    "paid off completely; carry a balance and new purchases can start accruing interest straight away. "
    "Clearing the statement in full once is normally enough to get the window back.",
    "Make a short list of the charges you could realistically run into: maybe a yearly fee, maybe a "
    "currency charge if you travel, maybe a transfer fee if you are consolidating debt. Comparing cards on "
    "that short list is far more useful than comparing them on everything they advertise.",
    "Limits deserve attention too. A modest limit means even ordinary spending eats a big share of it, "
    "which shows up as high utilization on your credit report. Asking for a limit increase after a stretch "
    "of on-time payments is routine and rarely hurts.",
    "Rewards should fit your life, not the other way round. If you mostly shop locally and rarely fly, a "
    "miles card will feel like homework. Pick the earning structure you will use without thinking about it.",
    "It is worth reading the card agreement itself at least once. The marketing page highlights the best "
    "numbers; the agreement lists every fee and rate, including the ones nobody advertises.",
)


def filler(ctx: Ctx, n: int) -> list[str]:
    pool = list(FILLER)
    ctx.rng.shuffle(pool)
    if ctx.british:
        pool.sort(
            key=lambda p: (
                not any(w in p for w in ("organization", "paper check", "programs", "favor"))
            )
        )
    return [ctx.fill(p) for p in pool[:n]]


def closer(ctx: Ctx) -> str:
    return ctx.fill(ctx.pick(CLOSERS))


def opener(ctx: Ctx) -> str:
    return ctx.fill(ctx.pick(OPENERS))


def _named_intro(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "Quick facts on the {name}:",
                "Here's the {name} in brief.",
                "The {name} ({issuer}) in a nutshell:",
                "About the {name}:",
            )
        ),
        name=lambda: ctx.name(card),
        issuer=card.issuer,
    )


# --- layouts -------------------------------------------------------------------------------


def qa_short(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    claims = [ctx.claim(card, k, "sentence") for k in kinds]
    lead = "" if card.card_id in ctx.mentions else _named_intro(ctx, card)
    if ctx.chance(0.4) and len(claims) > 1:
        head, rest = claims[0], claims[1:]
        out = [f"**Short answer:** {head}", "", join([lead, *rest, *extras(ctx, card)])]
    else:
        out = [join([opener(ctx), lead, *claims, *extras(ctx, card)])]
    if ctx.recommended:
        out += ["", rec_lead(ctx, ctx.recommended[0])]
    tail = closer(ctx)
    if tail:
        out += ["", tail]
    return "\n".join(out).strip()


def fact_sheet(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    title = ctx.fill(
        ctx.pick(("## {name}", "**{name} — key terms**", "{name}\n" + "=" * 12)),
        name=lambda: ctx.name(card),
    )
    groups: dict[str, list[str]] = {"Rates": [], "Fees": [], "Perks": []}
    for k in kinds:
        g = "Rates" if "apr" in k or "intro" in k else ("Fees" if "fee" in k else "Perks")
        groups[g].append(f"  • {ctx.emoji('good')}{ctx.claim(card, k, 'bullet')}")
    lines = [ctx.emoji("card") + title]
    for g, items in groups.items():
        if items:
            lines += ["", f"{g}:", *items]
    ext = extras(ctx, card)
    if ext:
        lines += ["", join(ext)]
    if ctx.recommended:
        lines += ["", rec_lead(ctx, ctx.recommended[0])]
    return "\n".join(lines)


def comparison_table(ctx: Ctx) -> str:
    """Transposed: one row per term, one column per card."""
    kinds = ctx.plan(ctx.cards[0])
    row_names = {
        "purchase_apr": "Ongoing APR",
        "annual_fee": "Yearly fee",
        "intro_purchase": "Promo on purchases",
        "intro_bt": "Promo on transfers",
        "foreign_fee": "FX fee",
        "late_fee": "Late fee",
        "rewards": "Earning",
        "bt_fee": "Transfer fee",
        "cash_fee": "Cash advance fee",
        "signup": "Welcome offer",
    }
    names = [ctx.name(c) for c in ctx.cards]
    labels = _labels(ctx) if "short_labels" in ctx.want else {}
    cols = [labels.get(c.card_id, shown) for c, shown in zip(ctx.cards, names, strict=True)]
    if labels:
        ctx.hn.add("hn_short_label")
    intro = ctx.fill(
        ctx.pick(
            (
                "{cards}, term by term:",
                "Putting the {cards} next to each other:",
                "Side by side — {cards}:",
            )
        ),
        cards=_and(names),
    )
    rows = ["| | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for k in kinds:
        rows.append(
            f"| {row_names[k]} | " + " | ".join(ctx.claim(c, k, "cell") for c in ctx.cards) + " |"
        )
    after = extras(ctx, ctx.cards[0])
    if labels:
        # names are appended after fill() so the British spelling pass never touches them
        legend = "; ".join(
            f"{labels[c.card_id]} = {n}" for c, n in zip(ctx.cards, names, strict=True)
        )
        after.append(ctx.fill("(Columns use short names: ") + legend + ".)")
    if ctx.recommended:
        after.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        after.append(
            ctx.fill(
                ctx.pick(
                    (
                        "If you never carry a balance, the APR row barely matters.",
                        "The fee row is where these differ the most in practice.",
                    )
                )
            )
        )
    return "\n".join([intro, "", *rows, "", join(after)])


def _labels(ctx: Ctx) -> dict[str, str]:
    names = [c.name for c in ctx.cards]
    out = {}
    for c in ctx.cards:
        shorter = [n for n in names if n != c.name and c.name.startswith(n + " ")]
        longer = [n for n in names if n != c.name and n.startswith(c.name + " ")]
        if shorter:
            out[c.card_id] = c.name[len(shorter[0]) + 1 :]
        elif longer:
            out[c.card_id] = "Base"
    return out if len(out) == len(ctx.cards) else {}


def comparison_prose(ctx: Ctx) -> str:
    names = [ctx.name(c) for c in ctx.cards]
    labels = _labels(ctx) if "short_labels" in ctx.want else {}
    out = [
        ctx.fill(
            ctx.pick(
                (
                    "Between the {cards}, here's how I see it.",
                    "Weighing the {cards}?",
                    "The {cards} look similar at first glance, but they differ where it counts.",
                )
            ),
            cards=_and(names),
        )
    ]
    for c in ctx.cards:
        label = labels.get(c.card_id)
        if label:
            ctx.hn.add("hn_short_label")
            out.append(
                f"{label}: " + "; ".join(ctx.claim(c, k, "clause") for k in ctx.plan(c)) + "."
            )
            continue
        pros = [ctx.claim(c, k, "sentence") for k in ctx.plan(c)]
        out.append(
            ctx.fill("**{name}**", name=lambda c=c: ctx.name(c))
            + "\n"
            + "\n".join(f"+ {p}" for p in pros)
        )
    tail = extras(ctx, ctx.cards[0])
    if ctx.recommended:
        tail.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        tail.append(
            ctx.fill(
                ctx.pick(
                    (
                        "Neither is a bad choice; it depends on whether you value rewards or a lower rate.",
                        "Which is better comes down to your habits more than the cards.",
                    )
                )
            )
        )
    return "\n\n".join([*out, join(tail)])


def long_explainer(ctx: Ctx) -> str:
    cards = ctx.cards
    title = ctx.fill(
        ctx.pick(
            (
                "## The {name}, explained",
                "## Should you get the {name}?",
                "## {name}: the full picture",
            )
        ),
        name=lambda: ctx.name(cards[0]),
    )
    intro = ctx.fill(
        ctx.pick(
            (
                "TL;DR at the bottom. First the actual numbers from the terms, then what they mean day to "
                "day, and then a handful of general tips that hold for any card.",
                "You asked for the long version, so here it is: the terms as the issuer lists them, followed "
                "by an explanation of how each one affects you and some habits worth building.",
            )
        )
    )
    sections = [title, "", intro]
    for c in cards:
        kinds = ctx.plan(c)
        sections += ["", ctx.fill("**{name} — the terms**", name=lambda c=c: ctx.name(c)), ""]
        claims = [ctx.claim(c, k, "sentence") for k in kinds]
        if ctx.chance(0.5):
            sections.append(join(claims))
        else:
            sections += [f"{i}. {t}" for i, t in enumerate(claims, 1)]
        ext = extras(ctx, c)
        if ext:
            sections += ["", join(ext)]
    sections += ["", ctx.fill("**What it means for you**")]
    body = "\n".join(sections)
    tldr = [
        ctx.fill(
            ctx.pick(
                (
                    "**TL;DR:** match the card to your habits; the cheapest card is the one whose costs you never trigger.",
                    "**TL;DR:** know which fees apply to you and plan around the promo dates.",
                )
            )
        )
    ]
    if ctx.recommended:
        tldr.insert(0, rec_lead(ctx, ctx.recommended[0]))
    # the worked example is rendered only if it is used: its figures are recorded when rendered
    paras: list[str | None] = list(filler(ctx, 16))
    paras.insert(min(1, len(paras)), None)
    target = ctx.rng.randint(330, 850)
    added: list[str] = []
    for para in paras:
        size = len((body + " " + " ".join(added) + " " + " ".join(tldr)).split())
        if size >= target:
            break
        if size + (len(para.split()) if para is not None else 50) > 885:
            continue
        text = para if para is not None else worked_example(ctx, cards[-1])
        if text:
            added.append(text)
    return body + "\n\n" + "\n\n".join(added) + "\n\n" + join(tldr)


def worked_example(ctx: Ctx, card: Card) -> str:
    """What a balance transfer would cost up front on a card that offers transfers."""
    if not {"bt_fee", "intro_bt", "no_intro_purchase"} & set(ctx.plan(card)) or ctx.chance(0.25):
        return ""
    amount = ctx.pick((3000, 6000, 7500, 10000))
    fee = max(card.bt_fee_pct / 100 * amount, card.bt_fee_min)
    return ctx.fill(
        ctx.pick(
            (
                "Worked example: shift {amount} of card debt to the {name} and you'd pay around {fee} "
                "in transfer fees on day one. Over a promo window that is usually far less than the "
                "interest you'd otherwise rack up.",
                "Say you move {amount} across. On the {name} the transfer fee comes to about {fee}, "
                "charged immediately and added to what you owe.",
            )
        ),
        amount=lambda: ctx.example_money(amount),
        fee=lambda: ctx.derived_money(fee, "bt_fee_on", card_id=card.card_id, amount=amount),
        name=lambda: ctx.name(card),
    )


def recommendation(ctx: Ctx) -> str:
    cust = ctx.customer
    head = ctx.fill(
        ctx.pick(("{first}, thanks for waiting.", "Hey {first}!", "Dear {first},", "")),
        first=cust.first_name if cust else "",
    )
    if not cust:
        head = ""
    ctx_line = spend_line(ctx) if cust and ctx.chance(0.6) else ""
    parts = [head, ctx_line]
    shape = ctx.pick(("top_picks", "prose", "numbered"))
    if shape == "top_picks" and len(ctx.recommended) > 1:
        parts.append(ctx.fill(ctx.pick(("Top picks for you:", "Here are my picks for you:"))))
        for c in ctx.recommended:
            claims = [ctx.claim(c, k, "clause") for k in ctx.plan(c)]
            line = ctx.fill("- **{name}** — ", name=lambda c=c: ctx.name(c)) + "; ".join(claims)
            if cust and ("value" in ctx.want or ctx.chance(0.5)):
                worth = value_line(ctx, c)
                line += f". {worth}" if worth else ""
            parts.append(line)
        parts.extend(extras(ctx, ctx.recommended[0]))
    else:
        for i, c in enumerate(ctx.recommended):
            lead = rec_lead(ctx, c) if i == 0 else rec_second(ctx, c)
            claims = [ctx.claim(c, k, "sentence") for k in ctx.plan(c)]
            if shape == "numbered":
                block = lead + "\n" + "\n".join(f"{j}) {t}" for j, t in enumerate(claims, 1))
            else:
                block = join([lead, *claims])
            parts.append(block)
            if cust and ("value" in ctx.want or ctx.chance(0.5)):
                parts.append(value_line(ctx, c))
            if i == 0:
                parts.extend(extras(ctx, c))
    for c, reason in ctx.ruled_out:
        parts.append(rule_out(ctx, c, reason))
    for c in ctx.held:
        parts.append(rule_out(ctx, c, "already_holds_card"))
    parts.append(closer(ctx))
    return "\n\n".join(p for p in parts if p)


def casual_chat(ctx: Ctx) -> str:
    card = ctx.cards[0]
    name = ctx.name(card)
    claims = [ctx.claim(card, k, "clause") for k in ctx.plan(card)]
    openers = [
        "fwiw the {name}",
        "re: the {name}",
        "ok the {name}, quick version",
        "the {name} in short",
    ]
    if card in ctx.recommended:
        # praise reads as a recommendation, so only a card whose annual fee is stated gets it
        openers += ["ngl the {name} is pretty good", "imo the {name} is underrated"]
    opener_ = ctx.fill(ctx.pick(openers), name=name)
    lines = [opener_ + " " + ctx.emoji("chat").strip(), *[f"- {c}" for c in claims]]
    for c in ctx.cards[1:]:
        more = [ctx.claim(c, k, "clause") for k in ctx.plan(c)]
        lines.append(ctx.fill("vs the {name}: ", name=lambda c=c: ctx.name(c)) + ", ".join(more))
    ext = extras(ctx, card)
    if ext:
        lines.append(join(ext))
    if ctx.recommended:
        lines.append(
            ctx.fill(
                ctx.pick(
                    ("if it were me I'd apply for the {name}", "i'd recommend the {name} tbh")
                ),
                name=lambda: ctx.name(ctx.recommended[0]),
            )
        )
    lines.append(
        ctx.fill(ctx.pick(("anyway that's my 2c", "shout if u want the fine print", "", "cheers")))
    )
    return "\n".join(x for x in lines if x.strip())


def marketing(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    subject = ctx.fill(
        ctx.pick(
            (
                "Subject: Your new favorite card is here",
                "Subject: Say hello to the {name}",
                "Subject: Spend smarter with the {name}",
            )
        ),
        name=lambda: ctx.name(card),
    )
    greeting = ctx.fill(ctx.pick(("Dear valued customer,", "Hi there,", "Hello,")))
    pitch = ctx.fill(
        ctx.pick(
            (
                "We're excited to tell you about the {name}, a card built around the way you already spend.",
                "The {name} was designed with one idea in mind: more value, fewer surprises.",
            )
        ),
        name=lambda: ctx.name(card),
    )
    feats = [f"{ctx.emoji('star')}{ctx.claim(card, k, 'sentence')}" for k in kinds]
    ext = extras(ctx, card)
    sign = ctx.fill(
        ctx.pick(("Warm regards,\nThe {issuer} Cards Team", "See you soon,\n{issuer}")),
        issuer=card.issuer,
    )
    draft = ctx.fill(
        ctx.pick(("[DRAFT — for compliance review]", "Draft v2 (please check before sending)", ""))
    )
    out = [draft, subject, "", greeting, "", pitch, "", *feats, ""]
    if ext:
        out += [join(ext), ""]
    out.append(sign)
    return "\n".join(out).strip()


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
