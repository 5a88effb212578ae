"""Phrasing pool of the TUNING split of the compliance evalset.

Verifier engineers may read this file and tune on the items it produces. The held-out split is
written from a different pool (``templates_heldout.py``) that they must not read, so a rule that
only fits these phrasings shows up as a gap between the two splits.

Templates fill named fields; every catalog figure goes through the context (``Ctx``), which
records it. A template never types a catalog figure itself.
"""

from __future__ import annotations

from benchmarks.compliance_eval.catalog import Card, annual_rewards_usd
from benchmarks.compliance_eval.render import Ctx

NAME = "tuning"

FORMATS: dict[str, tuple[str, ...]] = {
    "pct": ("sym", "sym", "sym", "space", "word"),
    "money": ("sym", "sym", "sym", "cents", "dollars", "words"),
    "months": ("num", "num", "num", "word", "idiom", "mo"),
}

# Purchase APR (or the rate an intro rolls into): noun phrases ("np") and bare values ("val").
APR: dict[str, tuple[str, ...]] = {
    "np_range": (
        "{lo}–{hi} variable APR",
        "variable APR of {lo} to {hi}",
        "{lo} - {hi} variable APR",
    ),
    "np_single_var": ("{rate} variable APR", "variable APR of {rate}"),
    "np_fixed": ("fixed {rate} APR", "{rate} APR (fixed, not variable)"),
    "val_range": (
        "{lo}–{hi} (variable)",
        "{lo} to {hi}, variable",
        "between {lo} and {hi}, variable",
    ),
    "val_single_var": ("{rate} (variable)", "{rate}, variable"),
    "val_fixed": (
        "{rate}, fixed rather than variable",
        "a fixed {rate}",
        "{rate} (fixed, not variable)",
    ),
}

SENT: dict[str, tuple[str, ...]] = {
    "purchase_apr": (
        "The {name} carries a {apr}.",
        "Its ongoing purchase rate is {apr_val}.",
        "If you carry a balance, the {name} charges a {apr}.",
        "For purchases, expect a {apr}.",
        "The standard APR on purchases is {apr_val}, depending on your creditworthiness.",
    ),
    "cash_apr": (
        "Cash advances accrue interest at {rate} APR.",
        "The cash advance APR is {rate}.",
        "Cash advances are charged {rate} APR, and interest starts right away.",
    ),
    "penalty_apr": (
        "If you pay late, a penalty APR of up to {rate} can apply.",
        "The penalty APR is up to {rate}.",
    ),
    "penalty_apr_none": (
        "There's no penalty APR, so one late payment won't reprice your balance.",
        "It doesn't have a penalty APR.",
    ),
    "intro_purchase": (
        "New purchases get {rate} intro APR for {months}, then {goto}.",
        "The {name} offers a {rate} introductory APR on purchases for {months}; after that, a {goto} applies.",
        "You get {rate} intro APR on purchases for {months} from account opening, and then the rate moves to {goto_val}.",
        "There's a {months_adj} intro period on purchases at {rate} APR, after which the {goto} kicks in.",
    ),
    "intro_purchase_sep": (
        "There's also a {rate} intro APR on purchases for {months}.",
        "Purchases get {rate} intro APR for {months} after you open the account.",
        "The {name} has a {rate} introductory APR on purchases for {months}.",
    ),
    "intro_purchase_nomonths": (
        "New purchases get {rate} intro APR, then {goto}.",
        "The {name} offers a {rate} introductory APR on purchases; once the intro period ends, a {goto} applies.",
        "It comes with a {rate} intro APR on purchases before the {goto} kicks in.",
    ),
    "intro_purchase_noapr": (
        "You'll pay {rate} on purchases for {months}, then {goto}.",
        "Purchases are {rate} interest for {months}; after that it's {goto_val}.",
        "The {name} gives you {rate} on new purchases for {months} before the {goto} applies.",
    ),
    "intro_purchase_none": (
        "There's no intro APR on purchases.",
        "It doesn't come with an introductory rate on purchases.",
    ),
    "intro_bt": (
        "Balance transfers get {rate} intro APR for {months}, then {goto}.",
        "If you move a balance over, you pay {rate} intro APR on it for {months}; after that, transferred balances are charged a {goto}.",
        "There's a {months_adj} {rate} intro APR on balance transfers, followed by a {goto}.",
        "The {name} offers {rate} intro APR on balance transfers for {months}, then {goto}.",
    ),
    "intro_bt_sep": (
        "Balance transfers get {rate} intro APR for {months}.",
        "There's also a {rate} intro APR on balance transfers for {months}.",
        "The {name} has a {rate} balance transfer intro APR for {months}.",
    ),
    "intro_bt_nomonths": (
        "Balance transfers get {rate} intro APR, then {goto}.",
        "The {name} offers {rate} intro APR on balance transfers before the {goto} applies.",
        "Transferred balances start at {rate} intro APR and then move to a {goto}.",
    ),
    "intro_bt_noapr": (
        "Balances you transfer are {rate} for {months}, then {goto}.",
        "You'd pay {rate} on transferred balances for {months}; after that it's {goto_val}.",
    ),
    "intro_bt_none": (
        "There's no intro APR on balance transfers.",
        "Balance transfers don't get an introductory rate.",
    ),
    "no_intro_any": (
        "It has no intro APR offer on purchases or balance transfers.",
        "There's no 0% intro period on this one, for purchases or balance transfers.",
        "Don't expect an introductory rate: the {name} has none on purchases or transfers.",
    ),
    "no_intro_purchase_but_bt": (
        "There's no intro APR on purchases, but balance transfers get {rate} for {months}, then {goto}.",
        "No intro rate on purchases; balance transfers, though, get {rate} intro APR for {months} before the {goto} applies.",
        "The {name} skips the purchase intro offer, but transfers get {rate} intro APR for {months}, then {goto}.",
    ),
    "annual_fee": (
        "The annual fee is {fee}.",
        "There's an annual fee of {fee}.",
        "You'll pay {fee} a year to keep the {name}.",
        "It costs {fee} per year.",
        "The {name}'s annual fee is {fee}.",
    ),
    "annual_fee_zero": (
        "There's no annual fee.",
        "The {name} has no annual fee.",
        "It's a no-annual-fee card.",
        "The annual fee is $0.",
    ),
    "annual_fee_waiver": (
        "The annual fee is {first} for the first year, then {fee}.",
        "You pay {first} in year one and {fee} a year after that.",
        "The {fee} annual fee is waived for the first year.",
        "There's a {first} intro annual fee for the first year; from the second year on it's {fee}.",
    ),
    "annual_fee_contrast": (
        "The annual fee is {fee}, not the {other} you may have seen quoted elsewhere.",
        "Heads-up: it's {fee} a year, not {other}.",
        "The {name} costs {fee} a year (not {other}, which is a common mix-up).",
    ),
    "late_fee": (
        "Late payments can cost up to {fee}.",
        "The late fee is up to {fee}.",
        "Miss a payment and you could be charged up to {fee}.",
    ),
    "late_fee_zero": ("There's no late fee.", "It doesn't charge a late fee."),
    "late_fee_contrast": (
        "The late fee is up to {fee}, not {other}.",
        "Paying late can cost up to {fee} (not the {other} some older pages list).",
    ),
    "foreign_fee": (
        "Purchases abroad carry a {pct} foreign transaction fee.",
        "Expect a {pct} fee on foreign transactions.",
        "The foreign transaction fee is {pct}.",
    ),
    "foreign_fee_zero": (
        "There are no foreign transaction fees.",
        "It doesn't charge foreign transaction fees, which helps when you travel.",
    ),
    "foreign_fee_zeropct": (
        "The foreign transaction fee is {pct}.",
        "It has a {pct} foreign transaction fee, so it works well abroad.",
    ),
    "cash_fee": (
        "Cash advances cost {pct} of the amount or {min}, whichever is greater.",
        "The cash advance fee is {pct} (minimum {min}).",
    ),
    "cash_fee_zero": ("There's no cash advance fee.", "Cash advances don't carry a fee."),
    "bt_fee": (
        "Each balance transfer costs {pct} of the amount, with a {min} minimum.",
        "The balance transfer fee is {pct} or {min}, whichever is greater.",
    ),
    "bt_fee_zero": ("Balance transfers are fee-free.", "There's no balance transfer fee."),
    "rewards": ("It earns {rewards}.", "On the rewards side, you get {rewards}."),
    "signup": (
        "New cardholders can earn a {bonus} bonus after spending {spend} in the first {months}.",
        "There's a {bonus} welcome bonus once you spend {spend} within {months} of opening.",
    ),
    "grace": (
        "The grace period is {days}.",
        "You have {days} after the statement closes to pay in full without interest on purchases.",
    ),
    "min_interest": ("The minimum interest charge is {amount}.",),
    "network": ("It runs on the {network} network.", "It's a {network} card."),
}

BULLET: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("**Purchase APR:** {apr_val}", "Purchase APR: {apr_val}", "APR: {apr_val}"),
    "cash_apr": ("**Cash advance APR:** {rate}", "Cash advance APR: {rate}"),
    "penalty_apr": ("**Penalty APR:** up to {rate}", "Penalty APR: up to {rate}"),
    "penalty_apr_none": ("**Penalty APR:** none", "Penalty APR: none"),
    "intro_purchase": (
        "**Intro APR (purchases):** {rate} for {months}, then {goto_val}",
        "Intro purchase APR: {rate} for {months}, then {goto_val}",
    ),
    "intro_purchase_sep": (
        "**Intro APR (purchases):** {rate} for {months}",
        "Intro purchase APR: {rate} for {months}",
    ),
    "intro_purchase_nomonths": ("**Intro APR (purchases):** {rate}, then {goto_val}",),
    "intro_purchase_none": ("**Intro APR (purchases):** none", "Intro purchase APR: none"),
    "intro_bt": (
        "**Intro APR (balance transfers):** {rate} for {months}, then {goto_val}",
        "Balance transfer intro APR: {rate} for {months}, then {goto_val}",
    ),
    "intro_bt_sep": (
        "**Intro APR (balance transfers):** {rate} for {months}",
        "Balance transfer intro APR: {rate} for {months}",
    ),
    "intro_bt_nomonths": ("**Intro APR (balance transfers):** {rate}, then {goto_val}",),
    "intro_bt_none": (
        "**Intro APR (balance transfers):** none",
        "Balance transfer intro APR: none",
    ),
    "no_intro_any": ("**Intro APR:** none on purchases or balance transfers",),
    "no_intro_purchase_but_bt": (
        "**Intro APR:** none on purchases; balance transfers {rate} for {months}, then {goto_val}",
    ),
    "annual_fee": ("**Annual fee:** {fee}", "Annual fee: {fee}"),
    "annual_fee_zero": ("**Annual fee:** none", "Annual fee: $0"),
    "annual_fee_waiver": (
        "**Annual fee:** {first} the first year, then {fee}",
        "Annual fee: {first} intro for year one, {fee} after",
    ),
    "annual_fee_contrast": ("**Annual fee:** {fee} (not {other})",),
    "late_fee": ("**Late fee:** up to {fee}", "Late fee: up to {fee}"),
    "late_fee_zero": ("**Late fee:** none",),
    "late_fee_contrast": ("**Late fee:** up to {fee} (not {other})",),
    "foreign_fee": ("**Foreign transaction fee:** {pct}", "Foreign transaction fee: {pct}"),
    "foreign_fee_zero": ("**Foreign transaction fee:** none", "Foreign transaction fees: none"),
    "foreign_fee_zeropct": ("**Foreign transaction fee:** {pct}",),
    "cash_fee": (
        "**Cash advance fee:** {pct} (min {min})",
        "Cash advance fee: {pct} or {min}, whichever is greater",
    ),
    "cash_fee_zero": ("**Cash advance fee:** none",),
    "bt_fee": (
        "**Balance transfer fee:** {pct} (min {min})",
        "Balance transfer fee: {pct} or {min}, whichever is greater",
    ),
    "bt_fee_zero": ("**Balance transfer fee:** none",),
    "rewards": ("**Rewards:** {rewards}", "Rewards: {rewards}"),
    "signup": ("**Welcome bonus:** {bonus} after {spend} in {months}",),
    "grace": ("**Grace period:** {days}",),
    "min_interest": ("**Minimum interest charge:** {amount}",),
    "network": ("**Network:** {network}",),
}

CELL: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("{apr_val}",),
    "cash_apr": ("{rate}",),
    "penalty_apr": ("up to {rate}",),
    "penalty_apr_none": ("none",),
    "intro_purchase": ("{rate} for {months}, then {goto_val}",),
    "intro_purchase_sep": ("{rate} for {months}",),
    "intro_purchase_nomonths": ("{rate}, then {goto_val}",),
    "intro_purchase_none": ("none", "no intro offer"),
    "intro_bt": ("{rate} for {months}, then {goto_val}",),
    "intro_bt_sep": ("{rate} for {months}",),
    "intro_bt_nomonths": ("{rate}, then {goto_val}",),
    "intro_bt_none": ("none", "no intro offer"),
    "annual_fee": ("{fee}",),
    "annual_fee_zero": ("$0", "none"),
    "annual_fee_waiver": ("{first} first year, then {fee}",),
    "annual_fee_contrast": ("{fee} (not {other})",),
    "late_fee": ("up to {fee}",),
    "late_fee_zero": ("none",),
    "late_fee_contrast": ("up to {fee} (not {other})",),
    "foreign_fee": ("{pct}",),
    "foreign_fee_zero": ("none",),
    "foreign_fee_zeropct": ("{pct}",),
    "cash_fee": ("{pct} (min {min})",),
    "cash_fee_zero": ("none",),
    "bt_fee": ("{pct} (min {min})",),
    "bt_fee_zero": ("none",),
    "rewards": ("{rewards}",),
    "signup": ("{bonus} after {spend} in {months}",),
    "grace": ("{days}",),
    "min_interest": ("{amount}",),
    "network": ("{network}",),
}

CLAUSE: dict[str, tuple[str, ...]] = {
    "purchase_apr": (
        "apr is {apr_val}",
        "the apr's {apr_val}",
        "interest runs {apr_val} if you carry a balance",
    ),
    "cash_apr": ("cash advances are {rate} apr",),
    "penalty_apr": ("penalty apr goes up to {rate}",),
    "penalty_apr_none": ("no penalty apr",),
    "intro_purchase": (
        "{rate} on purchases for {months}, then {goto_val}",
        "{rate} intro apr on purchases for {months} then {goto}",
    ),
    "intro_purchase_sep": ("{rate} intro apr on purchases for {months}",),
    "intro_purchase_nomonths": ("{rate} intro apr on purchases, then {goto_val}",),
    "intro_purchase_noapr": ("{rate} on purchases for {months}, then {goto_val}",),
    "intro_purchase_none": ("no intro apr on purchases",),
    "intro_bt": ("{rate} on balance transfers for {months}, then {goto_val}",),
    "intro_bt_sep": ("{rate} on balance transfers for {months}",),
    "intro_bt_nomonths": ("{rate} on balance transfers, then {goto_val}",),
    "intro_bt_noapr": ("{rate} on transferred balances for {months}, then {goto_val}",),
    "intro_bt_none": ("no intro deal on transfers",),
    "no_intro_any": ("no intro apr at all",),
    "no_intro_purchase_but_bt": (
        "no intro apr on purchases but transfers get {rate} for {months}, then {goto_val}",
    ),
    "annual_fee": ("annual fee is {fee}", "it's {fee} a year"),
    "annual_fee_zero": ("no annual fee", "zero annual fee"),
    "annual_fee_waiver": (
        "{first} the first year then {fee} after",
        "annual fee is {first} year one, {fee} after that",
    ),
    "annual_fee_contrast": ("annual fee is {fee} (not {other})",),
    "late_fee": ("late fee up to {fee}",),
    "late_fee_zero": ("no late fee",),
    "late_fee_contrast": ("late fee up to {fee}, not {other}",),
    "foreign_fee": ("{pct} foreign transaction fee",),
    "foreign_fee_zero": ("no foreign transaction fees", "no fx fees"),
    "foreign_fee_zeropct": ("{pct} foreign transaction fee",),
    "cash_fee": ("cash advances cost {pct} (min {min})",),
    "cash_fee_zero": ("no cash advance fee",),
    "bt_fee": ("transfers cost {pct} or {min}, whichever's more",),
    "bt_fee_zero": ("balance transfers are fee-free",),
    "rewards": ("earns {rewards}",),
    "signup": ("{bonus} bonus after {spend} in {months}",),
    "grace": ("{days} grace period",),
    "min_interest": ("min interest charge {amount}",),
    "network": ("it's on {network}",),
}

EMOJI: dict[str, tuple[str, ...]] = {
    "card": ("💳",),
    "good": ("✅", "👍"),
    "warn": ("⚠️",),
    "travel": ("✈️", "🌍"),
    "money": ("💰", "💵"),
    "star": ("⭐", "🏆"),
    "chat": ("🙂", "😊", "👋"),
}

# Name-defect vocabulary (the held-out pool has its own).
PREMIUM_WORDS = (
    "Obsidian",
    "Infinite",
    "Reserve",
    "Signature",
    "Prestige",
    "Platinum",
    "Elite",
    "Black",
)
ISSUER_PRODUCTS = (
    "Platinum Elite Rewards",
    "Infinite Reserve",
    "Signature Select",
    "Prestige Rewards",
)
INVENTED_BRANDS = ("Zephyr", "Sequoia", "Aurora", "Monarch", "Tidewater")
TIER_WORDS = ("Elite", "Reserve", "Premier", "Preferred", "Plus", "Signature")
INVENTED_LINES = (
    "Cash Rewards",
    "Sky Miles",
    "Everyday Cash",
    "Voyager",
    "Low Rate",
    "Business Miles",
)

GENERIC_LINES = (
    "If you mostly want simplicity, a cash back card is usually the easiest place to start.",
    "A balance transfer card only pays off if you clear the balance before the intro period ends.",
    "Travel cards tend to make sense once you travel several times a year.",
    "A secured card is a reasonable first step if you are rebuilding credit.",
    "Student cards are designed for people without much credit history.",
    "Business cards can help keep company and personal spending apart.",
)
# one heading per generic line (a capitalised generic phrase, never a product-line name)
GENERIC_HEADINGS = (
    "Cash Back Options",
    "Balance Transfer Cards",
    "Travel Card Basics",
    "Secured Card Basics",
    "Student Cards",
    "Business Cards",
)
ISSUER_LINES = (
    "It's issued by {issuer}.",
    "{issuer} issues it.",
    "{issuer} is the bank behind this one, and its app is straightforward.",
    "You apply directly through {issuer}.",
)

OPENERS = (
    "Sure, here's the rundown.",
    "Happy to help with that.",
    "Good question.",
    "Here's what you need to know.",
    "",
    "",
)
CLOSERS = (
    "Let me know if you'd like a comparison with another card.",
    "Always double-check the issuer's current terms before you apply.",
    "Hope that helps!",
    "",
    "",
)


CATEGORY_WORDS = {
    "groceries": "groceries",
    "dining": "dining",
    "travel": "travel",
    "gas": "gas",
    "online": "online shopping",
    "other": "everything else",
}


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
            piece = f"{ctx.reward_pct(rate, f'rate_{cat}')} cash back on {labels[cat]}"
        else:
            piece = f"{ctx.number(rate, f'rate_{cat}', 'x')} {unit} on {labels[cat]}"
        if cap is not None:
            piece += f" (on up to {ctx.money(cap, f'cap_{cat}', 'sym')} a year)"
        parts.append(piece)
    if cash:
        base = f"{ctx.reward_pct(card.base_rate, 'base_rate')} on everything else"
        flat = f"a flat {ctx.reward_pct(card.base_rate, 'base_rate')} cash back on everything"
    else:
        base = f"{ctx.number(card.base_rate, 'base_rate', 'x')} on everything else"
        flat = f"{ctx.number(card.base_rate, 'base_rate', 'x')} {unit} on everything"
    if not parts:
        return flat
    return ", ".join(parts) + f", and {base}"


# --- building blocks -----------------------------------------------------------------------


def extras(ctx: Ctx, card: Card) -> list[str]:
    out = []
    if "issuer_line" in ctx.want:
        ctx.hn.add("hn_issuer_only")
        out.append(ctx.fill(ctx.pick(ISSUER_LINES), issuer=card.issuer))
    if "generic_line" in ctx.want:
        ctx.hn.add("hn_generic_phrase")
        k = ctx.rng.randrange(len(GENERIC_LINES))
        if ctx.chance(0.6):
            out.append(ctx.fill(GENERIC_LINES[k]))
        else:
            out.append(f"\n\n### {ctx.fill(GENERIC_HEADINGS[k])}\n\n" + ctx.fill(GENERIC_LINES[k]))
    return out


def heading(ctx: Ctx, text: str, level: int = 3) -> str:
    return f"{'#' * level} {ctx.emoji('card')}{text}"


def sentences(ctx: Ctx, card: Card, kinds: list[str]) -> list[str]:
    return [ctx.claim(card, k, "sentence") for k in kinds]


def bullets(ctx: Ctx, card: Card, kinds: list[str], mark: str = "-") -> list[str]:
    return [
        f"{mark} {ctx.emoji('good') if ctx.chance(0.3) else ''}{ctx.claim(card, k, 'bullet')}"
        for k in kinds
    ]


def first_sentence_with_name(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "Here's how the {name} stacks up.",
                "Here's a summary of the {name}.",
                "Let's go through the {name}.",
                "Here are the key terms for the {name}.",
                "The {name} from {issuer} has fairly typical terms.",
            )
        ),
        name=lambda: ctx.name(card),
        issuer=card.issuer,
    )


def rec_lead(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "I recommend the {name}.",
                "My top pick for you is the {name}.",
                "The {name} is the best fit for you.",
                "I'd go with the {name}.",
                "You should apply for the {name}.",
            )
        ),
        name=lambda: ctx.name(card),
    )


def rec_second(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "As a runner-up, I'd also recommend the {name}.",
                "The {name} is a strong second choice.",
                "If you'd rather have a backup option, consider the {name} too.",
            )
        ),
        name=lambda: ctx.name(card),
    )


RULE_OUT = {
    "credit_score_below_min": (
        "I'd skip the {name} for now: the issuer looks for a credit score of about {min_score}, and yours is {score}.",
        "You don't qualify for the {name} yet, since it needs a higher credit score than you have today.",
    ),
    "student_only": (
        "The {name} is only open to students, so it isn't an option for you.",
        "I've left out the {name}: it's a student-only card and you're not enrolled.",
    ),
    "recent_bankruptcy": (
        "I'd avoid the {name} for now, because its issuer won't approve applicants with a recent bankruptcy.",
        "You don't qualify for the {name} at the moment because of the recent bankruptcy on your file.",
    ),
    "already_holds_card": (
        "You already have the {name}, so there's no point applying for it again.",
        "Since you already hold the {name}, I haven't included it.",
    ),
}


def rule_out(ctx: Ctx, card: Card, reason: str) -> str:
    if reason == "already_holds_card":
        ctx.hn.add("hn_already_holds")
    else:
        ctx.hn.add("hn_ineligible_ruled_out")
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
                        "Based on your spending, it should be worth about {v} a year to you after the annual fee.",
                        "After the fee, that works out to roughly {v} a year in value on your typical spending.",
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
                "On your typical spending, the rewards would be worth about {v} a year to you.",
                "With your spending pattern, you'd earn roughly {v} a year in rewards.",
                "That's worth about {v} a year to you in rewards.",
            )
        ),
        v=amount,
    )


def spend_line(ctx: Ctx) -> str:
    cust = ctx.customer
    if cust is None:
        return ""
    cat, amount = max(cust.monthly_spend, key=lambda x: x[1])
    label = {"other": "everyday purchases"}.get(cat, cat)
    money = ctx.derived_money(amount, "monthly_spend", customer_id=cust.customer_id, category=cat)
    return ctx.fill(
        ctx.pick(
            (
                "Your biggest spending category is {label}, at about {m} a month.",
                "You put roughly {m} a month on {label}, more than on anything else.",
            )
        ),
        label=label,
        m=money,
    )


FILLER: tuple[str, ...] = (
    "A quick word on how interest works: if you pay your statement balance in full every month, the "
    "purchase APR never comes into play. Interest only shows up when you carry part of a balance past "
    "the due date, and then it is charged daily on what you owe. That is why the APR matters a lot for "
    "some people and barely at all for others.",
    "Intro offers are most useful when you have a specific plan. If you are making a large purchase or "
    "moving an existing balance, write down the date the intro period ends and divide the balance by the "
    "number of months you have left. Paying that amount every month means nothing is left over when the "
    "regular rate starts.",
    "Balance transfers are rarely free. Most cards charge a fee on each transfer, and that fee is added to "
    "the balance right away. It still usually beats paying a high rate on the old card, but it is worth "
    "running the numbers before you move anything.",
    "If you travel abroad, look closely at foreign transaction fees. They are easy to overlook because "
    "they show up as a small line on your statement, but on a two-week trip they add up quickly. Cards "
    "aimed at frequent travelers usually waive them.",
    "An annual fee is not automatically a bad thing. A card with a fee can come out ahead if its rewards "
    "in the categories where you actually spend are high enough. The honest test is simple: estimate your "
    "yearly rewards, subtract the fee, and compare that with a no-fee alternative.",
    "Your credit score drives more than approval. Issuers usually place you somewhere within the APR "
    "range based on your credit profile, so two people with the same card can end up paying different "
    "rates. Keeping your utilization low in the months before you apply can help.",
    "Late payments are expensive in more than one way. Besides the fee itself, a payment that is more "
    "than thirty days late can be reported to the credit bureaus and stay on your file for years. Setting "
    "up autopay for at least the minimum payment is the simplest protection.",
    "Cash advances are best avoided. They usually carry their own fee and a higher APR than purchases, "
    "and interest typically starts on the day you take the cash rather than after a grace period.",
    "Rewards are only worth what you can redeem them for. Cash back is straightforward, while points and "
    "miles can be worth more or less depending on how you use them. If you do not want to think about "
    "redemption, favor a simple cash back structure.",
    "A small organization tip: keep one card for recurring bills and another for day-to-day spending. It "
    "makes it easier to spot an unexpected charge, and it keeps your autopay setup simple.",
    "If you still pay some bills by paper check, switching them to a card with autopay can earn rewards "
    "on money you spend anyway, as long as you pay the statement in full.",
    "Grace periods are easy to lose. If you carry even a small balance past the due date, many "
    "cards start charging interest on new purchases from the day you make them. Paying the full statement "
    "balance once usually restores the grace period, but check the card agreement for the exact rule.",
    "It helps to write down, in one place, every fee a card can charge you and which of them you would "
    "actually trigger. Most people only ever meet one or two of them, and knowing which ones lets you "
    "compare cards on what they would really cost you rather than on the headline.",
    "Think about how you will redeem before you apply. A travel card whose points you never use is just a "
    "card with a fee, while a plain cash back card pays you automatically. Be honest about your own "
    "habits rather than the ones you would like to have.",
    "Your credit limit matters as much as the card. A low limit pushes your utilization up even if you pay "
    "in full, which can weigh on your score. After a good run of on-time payments, it is reasonable to "
    "ask the issuer for an increase.",
    "Before applying, check whether you already hold a card from the same issuer. Some banks limit how "
    "many of their cards one person can have, and a second application shortly after the first is more "
    "likely to be declined.",
)


def filler(ctx: Ctx, n: int) -> list[str]:
    pool = list(FILLER)
    ctx.rng.shuffle(pool)
    if ctx.british:
        # Keep the paragraphs whose British spelling differs up front so the register shows.
        pool.sort(
            key=lambda p: (
                not any(w in p for w in ("favor", "organization", "paper check", "travelers"))
            )
        )
    return [ctx.fill(p) for p in pool[:n]]


def closer(ctx: Ctx) -> str:
    return ctx.fill(ctx.pick(CLOSERS))


def opener(ctx: Ctx) -> str:
    return ctx.fill(ctx.pick(OPENERS))


def join(parts: list[str], sep: str = " ") -> str:
    return sep.join(p for p in parts if p)


# --- layouts -------------------------------------------------------------------------------


def qa_short(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    body = sentences(ctx, card, kinds)
    # the first sentence names the card unless a claim already did
    lead = (
        "" if any(card.card_id == m for m in ctx.mentions) else first_sentence_with_name(ctx, card)
    )
    body = [lead, *body, *extras(ctx, card)]
    if ctx.recommended:
        body.append(rec_lead(ctx, ctx.recommended[0]))
    return join([opener(ctx), *body, closer(ctx)])


def fact_sheet(ctx: Ctx) -> str:
    card = ctx.cards[0]
    mark = ctx.pick(("-", "*", "•"))
    title = ctx.fill(
        ctx.pick(("**{name}**", "**{name}** ({issuer})", "### {name}")),
        name=lambda: ctx.name(card),
        issuer=card.issuer,
    )
    if ctx.emoji("card"):
        title = ctx.emoji("card") + title
    lines = [title, "", *bullets(ctx, card, ctx.plan(card), mark)]
    ext = extras(ctx, card)
    if ext:
        lines += ["", join(ext)]
    if ctx.recommended:
        lines += ["", rec_lead(ctx, ctx.recommended[0])]
    tail = ctx.fill(
        ctx.pick(
            (
                "Terms can change; confirm on the issuer's site.",
                "",
                "Rates as listed in the card agreement.",
            )
        )
    )
    if tail:
        lines += ["", tail]
    return "\n".join(lines)


def _labels(ctx: Ctx) -> dict[str, str]:
    """Short labels for cards that share a name prefix ("Elite:", "Standard:")."""
    names = [c.name for c in ctx.cards]
    out = {}
    for c in ctx.cards:
        words = c.name.split()
        shorter = [n for n in names if n != c.name and c.name.startswith(n + " ")]
        longer = [n for n in names if n != c.name and n.startswith(c.name + " ")]
        if shorter:
            out[c.card_id] = " ".join(words[len(shorter[0].split()) :])
        elif longer:
            out[c.card_id] = "Standard"
    return out if len(out) == len(ctx.cards) else {}


def comparison_table(ctx: Ctx) -> str:
    kinds = ctx.plan(ctx.cards[0])
    header_names = {
        "purchase_apr": "Purchase APR",
        "annual_fee": "Annual fee",
        "intro_purchase": "Intro APR (purchases)",
        "intro_bt": "Intro APR (transfers)",
        "foreign_fee": "Foreign fee",
        "late_fee": "Late fee",
        "rewards": "Rewards",
        "bt_fee": "Transfer fee",
        "cash_fee": "Cash advance fee",
        "signup": "Welcome bonus",
    }
    names = [ctx.name(c) for c in ctx.cards]
    intro = ctx.fill(
        ctx.pick(
            (
                "Here's a side-by-side of the {cards}.",
                "Comparing the {cards}:",
                "Below is how the {cards} line up on the terms that matter most.",
            )
        ),
        cards=_and(names),
    )
    rows = [
        "| Card | " + " | ".join(header_names[k] for k in kinds) + " |",
        "|" + "---|" * (len(kinds) + 1),
    ]
    for c, shown in zip(ctx.cards, names, strict=True):
        # a card's own row repeats its name as written above (a typo stays a typo)
        rows.append(f"| {shown} | " + " | ".join(ctx.claim(c, k, "cell") for k in kinds) + " |")
    after = [*extras(ctx, ctx.cards[0])]
    if ctx.recommended:
        after.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        after.append(
            ctx.fill(
                ctx.pick(
                    (
                        "Which one wins depends mostly on whether you carry a balance.",
                        "If you pay in full each month, focus on the fee and rewards columns.",
                    )
                )
            )
        )
    return "\n".join([intro, "", *rows, "", join(after)])


def _and(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} and {items[1]}"
    return ", ".join(items[:-1]) + f", and {items[-1]}"


def comparison_prose(ctx: Ctx) -> str:
    labels = _labels(ctx) if "short_labels" in ctx.want else {}
    names = [ctx.name(c) for c in ctx.cards]
    parts = [
        ctx.fill(
            ctx.pick(
                (
                    "Let's compare the {cards}.",
                    "You asked about the {cards}, so here they are side by side.",
                    "Quick comparison of the {cards}:",
                )
            ),
            cards=_and(names),
        )
    ]
    if labels:
        ctx.hn.add("hn_short_label")
        for c in ctx.cards:
            claims = [ctx.claim(c, k, "clause") for k in ctx.plan(c)]
            parts.append(f"- **{labels[c.card_id]}:** " + "; ".join(claims))
        text = parts[0] + "\n\n" + "\n".join(parts[1:])
    else:
        paras = []
        for c in ctx.cards:
            sents = sentences(ctx, c, ctx.plan(c))
            lead = ctx.fill(
                ctx.pick(("**{name}.**", "With the {name}:", "On the {name}:", "{name}:")),
                name=lambda c=c: ctx.name(c),
            )
            paras.append(join([lead, *sents]))
        text = "\n\n".join([parts[0], *paras])
    tail = [*extras(ctx, ctx.cards[0])]
    if ctx.recommended:
        tail.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        tail.append(
            ctx.fill(
                ctx.pick(
                    (
                        "Both are solid; it comes down to how you use the card.",
                        "Overall, pick based on whether you value a low rate or rewards more.",
                    )
                )
            )
        )
    return text + "\n\n" + join(tail)


def long_explainer(ctx: Ctx) -> str:
    cards = ctx.cards
    title = heading(
        ctx,
        ctx.fill(
            ctx.pick(
                (
                    "A closer look at the {name}",
                    "What to know about the {name}",
                    "Is the {name} right for you?",
                )
            ),
            name=lambda: ctx.name(cards[0]),
        ),
        2,
    )
    intro = ctx.fill(
        ctx.pick(
            (
                "This is a longer walkthrough, because the details matter more than the headline offer. "
                "I'll cover the rates, the fees, and the fine print, and then some general points that "
                "apply to any card you might be weighing.",
                "Below is a fuller explanation. I'll start with the numbers from the card's terms, then "
                "explain how they play out in everyday use, and finish with a few habits that keep costs down.",
            )
        )
    )
    sections = [title, "", intro]
    for c in cards:
        kinds = ctx.plan(c)
        sections += [
            "",
            heading(ctx, ctx.fill("The numbers: {name}", name=lambda c=c: ctx.name(c)), 3),
        ]
        if ctx.chance(0.5):
            sections += ["", join(sentences(ctx, c, kinds))]
        else:
            sections += ["", *bullets(ctx, c, kinds)]
        ext = extras(ctx, c)
        if ext:
            sections += ["", join(ext)]
    sections += ["", heading(ctx, ctx.fill("How this plays out in practice"), 3)]
    fills = filler(ctx, 14)
    body = "\n".join(sections)
    closing = [
        ctx.fill(
            ctx.pick(
                (
                    "Bottom line: read the terms against how you actually spend, not against the marketing.",
                    "In short, the right card is the one whose costs you can avoid and whose rewards you will actually use.",
                )
            )
        )
    ]
    if ctx.recommended:
        closing.insert(0, rec_lead(ctx, ctx.recommended[0]))
    # the worked example is rendered only if it is used: its figures are recorded when rendered
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
    return body + "\n\n" + "\n\n".join(added) + "\n\n" + join(closing)


def worked_example(ctx: Ctx, card: Card) -> str:
    """A balance-transfer cost example for a card whose plan mentions transfers."""
    if not {"bt_fee", "intro_bt"} & set(ctx.plan(card)) or ctx.chance(0.3):
        return ""
    amount = ctx.pick((2500, 4000, 5000, 8000))
    fee = max(card.bt_fee_pct / 100 * amount, card.bt_fee_min)
    return ctx.fill(
        ctx.pick(
            (
                "To put numbers on it: moving a {amount} balance onto the {name} costs about {fee} "
                "up front in transfer fees, so the move only pays off if the interest you avoid is "
                "larger than that.",
                "A quick example: if you transferred {amount}, the transfer fee alone would come to "
                "roughly {fee} on the {name}. Add that to the balance when you plan your payments.",
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
    greet = ""
    if cust:
        greet = ctx.fill(
            ctx.pick(("Hi {first},", "Hello {first},", "Thanks for the details, {first}.", "")),
            first=cust.first_name,
        )
    context = spend_line(ctx) if cust and ctx.chance(0.6) else ""
    parts: list[str] = [greet, context]
    style = ctx.pick(("prose", "bullets", "headed"))
    for i, c in enumerate(ctx.recommended):
        lead = rec_lead(ctx, c) if i == 0 else rec_second(ctx, c)
        kinds = ctx.plan(c)
        if style == "bullets":
            parts.append(lead + "\n\n" + "\n".join(bullets(ctx, c, kinds)))
        elif style == "headed":
            parts.append(
                heading(ctx, ctx.fill("{name}", name=lambda c=c: ctx.name(c)), 3)
                + "\n\n"
                + join([lead, *sentences(ctx, c, kinds)])
            )
        else:
            parts.append(join([lead, *sentences(ctx, c, kinds)]))
        if cust and ("value" in ctx.want or ctx.chance(0.5)):
            parts.append(value_line(ctx, c))
        parts.extend(extras(ctx, c) if i == 0 else [])
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
        "ok so the {name} —",
        "so the {name}:",
        "alright, the {name}:",
        "quick rundown on the {name}:",
    ]
    if card in ctx.recommended:
        # praise reads as a recommendation, so only a card whose annual fee is stated gets it
        openers += ["yeah the {name} is decent.", "honestly the {name} is a solid pick."]
    start = ctx.pick(openers)
    emo = ctx.emoji("chat")
    text = ctx.fill(start, name=name) + " " + ", ".join(claims) + ". " + emo
    for c in ctx.cards[1:]:
        more = [ctx.claim(c, k, "clause") for k in ctx.plan(c)]
        text += (
            ctx.fill(" the {name} on the other hand: ", name=lambda c=c: ctx.name(c))
            + ", ".join(more)
            + "."
        )
    ext = extras(ctx, card)
    if ext:
        text += " " + join(ext)
    if ctx.recommended:
        text += " " + ctx.fill(
            ctx.pick(
                ("tbh I'd recommend the {name} for you.", "I'd go with the {name} if I were you.")
            ),
            name=lambda: ctx.name(ctx.recommended[0]),
        )
    text += " " + ctx.fill(
        ctx.pick(("lmk if you want more detail", "hope that helps!", "anything else?", ""))
    )
    return text.strip()


def marketing(ctx: Ctx) -> str:
    card = ctx.cards[0]
    kinds = ctx.plan(card)
    headline = ctx.fill(
        ctx.pick(
            (
                "Meet the {name}",
                "Introducing the {name}",
                "The {name}: built for everyday life",
                "Make more of every purchase with the {name}",
            )
        ),
        name=lambda: ctx.name(card),
    )
    star = ctx.emoji("star")
    body = ctx.fill(
        ctx.pick(
            (
                "Whether you're paying for groceries or planning your next getaway, this card keeps things simple.",
                "Designed for people who want straightforward value without the fine-print surprises.",
                "A card that rewards the way you already spend.",
            )
        )
    )
    feats = [f"- {ctx.emoji('good')}{ctx.claim(card, k, 'bullet')}" for k in kinds]
    cta = ctx.fill(
        ctx.pick(
            (
                "Apply today with {issuer}.",
                "Ready to apply? It only takes a few minutes.",
                "See if you're pre-approved in minutes.",
            )
        ),
        issuer=card.issuer,
    )
    ext = extras(ctx, card)
    out = [f"**{star}{headline}**", "", body, "", *feats, ""]
    if ext:
        out += [join(ext), ""]
    out.append(cta)
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
