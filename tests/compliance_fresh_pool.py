"""A fourth phrasing pool for the compliance evalset, kept as a check rather than a tuning set.

``compliance_alt_pool`` was written to find where the verifier's rules fit the tuning phrasings
and the verifier was then fixed class by class on it, so it no longer measures generalisation.
This pool was written afterwards, with sentence shapes of its own: two cards compared inside one
sentence, questions and answers, parenthetical terms, "per annum" style, plain-text tables with
tabs, and a support-chat register. Its first score (before any fix prompted by it) is the honest
estimate; ``tests/compliance_alt_eval.py --pool fresh`` builds and scores it.
"""

from __future__ import annotations

from benchmarks.compliance_eval.catalog import Card, annual_rewards_usd
from benchmarks.compliance_eval.render import Ctx

NAME = "fresh"

FORMATS: dict[str, tuple[str, ...]] = {
    "pct": ("sym", "sym", "space", "word"),
    "money": ("sym", "cents", "usd", "dollars", "words", "sym"),
    "months": ("num", "word", "idiom", "cycles", "mo", "num"),
}

APR: dict[str, tuple[str, ...]] = {
    "np_range": (
        "standard APR in the {lo}-to-{hi} band (variable)",
        "variable purchase APR spanning {lo} to {hi}",
        "regular rate of {lo} – {hi}, which floats with prime",
    ),
    "np_single_var": ("single variable APR of {rate}", "variable standard rate of {rate}"),
    "np_fixed": ("non-variable APR of {rate}", "fixed purchase rate of {rate}"),
    "val_range": ("{lo} to {hi} (variable, set at approval)", "between {lo} and {hi}, variable"),
    "val_single_var": ("{rate}, variable", "{rate} (it varies with prime)"),
    "val_fixed": ("{rate}, fixed", "{rate}, and it never changes"),
}

SENT: dict[str, tuple[str, ...]] = {
    "purchase_apr": (
        "What rate would you pay on purchases? A {apr}.",
        "On a revolving balance the {name} applies a {apr}.",
        "Its pricing for purchases is {apr_val}.",
        "Expect the {name} to bill purchases at {apr_val} if you revolve.",
    ),
    "cash_apr": (
        "Cash advances are priced at {rate} APR.",
        "Should you take a cash advance, the APR on it is {rate}.",
    ),
    "penalty_apr": (
        "Late or returned payments may lift your APR to a penalty rate of up to {rate}.",
        "The penalty APR, if triggered, tops out at {rate}.",
    ),
    "penalty_apr_none": (
        "No penalty APR applies, even after a late payment.",
        "You won't find a penalty APR in its terms.",
    ),
    "intro_purchase": (
        "New purchases enjoy {rate} intro APR for the first {months}, and then a {goto}.",
        "Is there a promo on purchases? Yes: {rate} APR for {months}, moving to {goto_val} afterwards.",
        "Purchases made in the first {months} carry {rate} intro APR; after that window, it's a {goto}.",
    ),
    "intro_purchase_sep": (
        "New purchases enjoy {rate} intro APR for the first {months}.",
        "Is there a promo on purchases? Yes: {rate} APR for {months}.",
    ),
    "intro_purchase_nomonths": (
        "New purchases enjoy {rate} intro APR, and then a {goto}.",
        "Is there a promo on purchases? Yes: {rate} APR, moving to {goto_val} afterwards.",
    ),
    "intro_purchase_noapr": (
        "New purchases are billed {rate} for the first {months}, and then {goto_val}.",
        "Buy something in the first {months} and you pay {rate} on it; afterwards {goto_val}.",
    ),
    "intro_purchase_none": (
        "Is there a promo on purchases? No.",
        "New purchases get no introductory APR.",
    ),
    "intro_bt": (
        "Balances transferred in get {rate} intro APR for {months}, and then a {goto}.",
        "Is there a balance transfer promo? Yes: {rate} APR for {months}, moving to {goto_val} afterwards.",
        "Transfer a balance and it's at {rate} intro APR for {months}; after that window, a {goto}.",
    ),
    "intro_bt_sep": (
        "Balances transferred in get {rate} intro APR for {months}.",
        "Is there a balance transfer promo? Yes: {rate} APR for {months}.",
    ),
    "intro_bt_nomonths": (
        "Balances transferred in get {rate} intro APR, and then a {goto}.",
        "Is there a balance transfer promo? Yes: {rate} APR, moving to {goto_val} afterwards.",
    ),
    "intro_bt_noapr": (
        "Balances transferred in are billed {rate} for {months}, and then {goto_val}.",
        "Transfer a balance and you pay {rate} on it for {months}; afterwards {goto_val}.",
    ),
    "intro_bt_none": (
        "Is there a balance transfer promo? No.",
        "Transferred balances get no introductory APR.",
    ),
    "no_intro_any": (
        "Neither purchases nor balance transfers get an introductory APR.",
        "Is there any promo APR? None at all.",
    ),
    "no_intro_purchase_but_bt": (
        "Purchases get no introductory APR; balance transfers do, at {rate} for {months} and {goto_val} afterwards.",
        "Is there a promo? Only on balance transfers: {rate} APR for {months}, then {goto_val}. Purchases get none.",
    ),
    "annual_fee": (
        "What does it cost to hold? {fee} per annum.",
        "The {name} carries an annual fee of {fee}.",
        "Membership runs {fee} a year.",
        "Its yearly charge is {fee}.",
    ),
    "annual_fee_zero": (
        "What does it cost to hold? Nothing - there's no annual fee.",
        "The {name} has a $0 annual fee.",
    ),
    "annual_fee_waiver": (
        "The annual fee is {fee}, though the first year costs {first}.",
        "You pay {first} for the first year of membership, then {fee} per annum.",
    ),
    "annual_fee_contrast": (
        "The annual fee is {fee} (some outdated reviews quote {other}).",
        "Membership runs {fee} a year - the {other} you might see on old blog posts is out of date.",
    ),
    "late_fee": (
        "A late payment costs up to {fee}.",
        "If you pay late, expect a charge of up to {fee}.",
    ),
    "late_fee_zero": ("There's no fee for paying late.", "Late payments don't incur a fee."),
    "late_fee_contrast": (
        "A late payment costs up to {fee} (older reviews say {other}, which is wrong).",
    ),
    "foreign_fee": (
        "Purchases in foreign currencies incur a {pct} fee.",
        "Abroad, each transaction picks up a {pct} foreign transaction fee.",
    ),
    "foreign_fee_zero": (
        "There are no foreign transaction fees.",
        "Overseas purchases don't incur a foreign transaction fee.",
    ),
    "foreign_fee_zeropct": ("The foreign transaction fee is {pct}.",),
    "cash_fee": (
        "Cash advances incur a fee of {pct} (minimum {min}).",
        "A cash advance costs {pct} of the amount or {min}, whichever is more.",
    ),
    "cash_fee_zero": ("There's no fee on cash advances.",),
    "bt_fee": (
        "Balance transfers incur a fee of {pct} (minimum {min}).",
        "Each transfer costs {pct} of the amount or {min}, whichever is more.",
    ),
    "bt_fee_zero": ("There's no fee on balance transfers.",),
    "rewards": ("As for rewards: {rewards}.", "It pays {rewards}."),
    "signup": ("There's a {bonus} sign-up bonus for spending {spend} in {months}.",),
    "grace": ("The grace period runs {days}.",),
    "min_interest": ("If interest is charged, it's never less than {amount}.",),
    "network": ("It's on the {network} network.",),
}

BULLET: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("Standard APR ... {apr_val}", "APR on purchases: {apr_val}"),
    "cash_apr": ("Cash advance APR ... {rate}",),
    "penalty_apr": ("Penalty APR ... up to {rate}",),
    "penalty_apr_none": ("Penalty APR ... none",),
    "intro_purchase": ("Purchase promo ... {rate} for {months}, then {goto_val}",),
    "intro_purchase_sep": ("Purchase promo ... {rate} for {months}",),
    "intro_purchase_nomonths": ("Purchase promo ... {rate}, then {goto_val}",),
    "intro_purchase_none": ("Purchase promo ... none",),
    "intro_bt": ("Transfer promo ... {rate} for {months}, then {goto_val}",),
    "intro_bt_sep": ("Transfer promo ... {rate} for {months}",),
    "intro_bt_nomonths": ("Transfer promo ... {rate}, then {goto_val}",),
    "intro_bt_none": ("Transfer promo ... none",),
    "no_intro_any": ("Promos ... none",),
    "no_intro_purchase_but_bt": (
        "Promos ... transfers only ({rate} for {months}, then {goto_val})",
    ),
    "annual_fee": ("Annual fee ... {fee}", "Fee per annum: {fee}"),
    "annual_fee_zero": ("Annual fee ... none",),
    "annual_fee_waiver": ("Annual fee ... {fee} ({first} in the first year)",),
    "annual_fee_contrast": ("Annual fee ... {fee} (not {other})",),
    "late_fee": ("Late fee ... up to {fee}",),
    "late_fee_zero": ("Late fee ... none",),
    "late_fee_contrast": ("Late fee ... up to {fee} (not {other})",),
    "foreign_fee": ("Foreign transaction fee ... {pct}",),
    "foreign_fee_zero": ("Foreign transaction fee ... none",),
    "foreign_fee_zeropct": ("Foreign transaction fee ... {pct}",),
    "cash_fee": ("Cash advance fee ... {pct} (min. {min})",),
    "cash_fee_zero": ("Cash advance fee ... none",),
    "bt_fee": ("Balance transfer fee ... {pct} (min. {min})",),
    "bt_fee_zero": ("Balance transfer fee ... none",),
    "rewards": ("Rewards ... {rewards}",),
    "signup": ("Sign-up bonus ... {bonus} after {spend} in {months}",),
    "grace": ("Grace period ... {days}",),
    "min_interest": ("Minimum interest ... {amount}",),
    "network": ("Network ... {network}",),
}

CELL: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("{apr_val}",),
    "cash_apr": ("{rate}",),
    "penalty_apr": ("up to {rate}",),
    "penalty_apr_none": ("none",),
    "intro_purchase": ("{rate} x {months} -> {goto_val}", "{rate} for {months}, then {goto_val}"),
    "intro_purchase_sep": ("{rate} for {months}",),
    "intro_purchase_nomonths": ("{rate} -> {goto_val}",),
    "intro_purchase_none": ("none",),
    "intro_bt": ("{rate} x {months} -> {goto_val}", "{rate} for {months}, then {goto_val}"),
    "intro_bt_sep": ("{rate} for {months}",),
    "intro_bt_nomonths": ("{rate} -> {goto_val}",),
    "intro_bt_none": ("none",),
    "annual_fee": ("{fee}",),
    "annual_fee_zero": ("$0",),
    "annual_fee_waiver": ("{fee} ({first} yr 1)",),
    "annual_fee_contrast": ("{fee}",),
    "late_fee": ("up to {fee}",),
    "late_fee_zero": ("none",),
    "late_fee_contrast": ("up to {fee}",),
    "foreign_fee": ("{pct}",),
    "foreign_fee_zero": ("none",),
    "foreign_fee_zeropct": ("{pct}",),
    "cash_fee": ("{pct} (min. {min})",),
    "cash_fee_zero": ("none",),
    "bt_fee": ("{pct} (min. {min})",),
    "bt_fee_zero": ("none",),
    "rewards": ("{rewards}",),
    "signup": ("{bonus} for {spend} in {months}",),
    "grace": ("{days}",),
    "min_interest": ("{amount}",),
    "network": ("{network}",),
}

# Noun phrases, so that two cards can share one sentence ("the X has NP, whereas the Y has NP").
CLAUSE: dict[str, tuple[str, ...]] = {
    "purchase_apr": ("a purchase APR of {apr_val}",),
    "cash_apr": ("a {rate} APR on cash advances",),
    "penalty_apr": ("a penalty APR of up to {rate}",),
    "penalty_apr_none": ("no penalty APR",),
    "intro_purchase": ("{rate} intro APR on purchases for {months} (then {goto_val})",),
    "intro_purchase_sep": ("{rate} intro APR on purchases for {months}",),
    "intro_purchase_nomonths": ("{rate} intro APR on purchases (then {goto_val})",),
    "intro_purchase_noapr": ("{rate} on purchases for {months} (then {goto_val})",),
    "intro_purchase_none": ("no intro APR on purchases",),
    "intro_bt": ("{rate} intro APR on balance transfers for {months} (then {goto_val})",),
    "intro_bt_sep": ("{rate} intro APR on balance transfers for {months}",),
    "intro_bt_nomonths": ("{rate} intro APR on balance transfers (then {goto_val})",),
    "intro_bt_noapr": ("{rate} on balance transfers for {months} (then {goto_val})",),
    "intro_bt_none": ("no intro APR on balance transfers",),
    "no_intro_any": ("no intro APR of any kind",),
    "no_intro_purchase_but_bt": (
        "no intro APR on purchases but {rate} on balance transfers for {months} (then {goto_val})",
    ),
    "annual_fee": ("an annual fee of {fee}",),
    "annual_fee_zero": ("no annual fee",),
    "annual_fee_waiver": ("a {fee} annual fee ({first} in year one)",),
    "annual_fee_contrast": ("an annual fee of {fee} (not {other})",),
    "late_fee": ("a late fee of up to {fee}",),
    "late_fee_zero": ("no late fee",),
    "late_fee_contrast": ("a late fee of up to {fee} (not {other})",),
    "foreign_fee": ("a {pct} foreign transaction fee",),
    "foreign_fee_zero": ("no foreign transaction fee",),
    "foreign_fee_zeropct": ("a {pct} foreign transaction fee",),
    "cash_fee": ("a cash advance fee of {pct} (min. {min})",),
    "cash_fee_zero": ("no cash advance fee",),
    "bt_fee": ("a balance transfer fee of {pct} (min. {min})",),
    "bt_fee_zero": ("no balance transfer fee",),
    "rewards": ("{rewards}",),
    "signup": ("a {bonus} sign-up bonus (spend {spend} in {months})",),
    "grace": ("a {days} grace period",),
    "min_interest": ("a minimum interest charge of {amount}",),
    "network": ("{network} acceptance",),
}

EMOJI: dict[str, tuple[str, ...]] = {
    "card": ("💳",),
    "good": ("✅",),
    "warn": ("⚠️",),
    "travel": ("🛫",),
    "money": ("💲",),
    "star": ("✨",),
    "chat": ("🙌",),
}

PREMIUM_WORDS = ("Regent", "Vanguard", "Sterlingstone", "Majestic", "Pinnacle", "Summit")
ISSUER_PRODUCTS = ("Regent Travel Rewards", "Majestic Cash Card", "Vanguard Miles")
INVENTED_BRANDS = ("Corvid", "Saltmarsh", "Eastwind", "Quartzline", "Bramble")
TIER_WORDS = ("Prime", "Elite", "Max", "Select", "Premier", "Reserve")
INVENTED_LINES = ("Everyday Miles", "Cash Rewards", "Travel Plus", "Low Rate", "Sky Rewards")

GENERIC_LINES = (
    "For people who revolve a balance, the rate usually matters more than the rewards.",
    "Those who clear the statement monthly should weigh fees and perks instead.",
    "Travellers tend to value the absence of currency surcharges.",
    "A card with a security deposit is a common first step back after credit trouble.",
    "Cards aimed at students forgive a short credit history.",
    "Keeping business purchases on a dedicated card simplifies the tax return.",
)
GENERIC_HEADINGS = (
    "Revolvers Versus Transactors",
    "Paying In Full",
    "Travel Considerations",
    "Secured Options",
    "Student Options",
    "Business Use",
)
ISSUER_LINES = (
    "It's a {issuer} product.",
    "{issuer} underwrites the account.",
)
OPENERS = ("Of course.", "Thanks for asking.", "Here's what I found.", "", "")
CLOSERS = ("Anything else I can check?", "Hope this clears it up.", "", "")

CATEGORY_WORDS = {
    "groceries": "grocery stores",
    "dining": "dining out",
    "travel": "travel bookings",
    "gas": "gas stations",
    "online": "online retail",
    "other": "everything else",
}


def rewards_phrase(ctx: Ctx, card: Card) -> str:
    if not card.bonus_categories and card.base_rate == 0:
        return "no rewards program"
    cash = card.reward_currency == "cash_back"
    unit = "points" if card.reward_currency == "points" else "miles"
    parts = []
    for cat in card.bonus_categories[:3]:
        rate, cap = card.rate_for(cat)
        if cash:
            piece = f"{ctx.reward_pct(rate, f'rate_{cat}')} cash back at {CATEGORY_WORDS[cat]}"
        else:
            piece = f"{ctx.number(rate, f'rate_{cat}', 'x')} {unit} at {CATEGORY_WORDS[cat]}"
        if cap is not None:
            piece += f" (up to {ctx.money(cap, f'cap_{cat}', 'sym')} in annual spend)"
        parts.append(piece)
    if cash:
        base = f"{ctx.reward_pct(card.base_rate, 'base_rate')} on everything else"
    else:
        base = f"{ctx.number(card.base_rate, 'base_rate', 'x')} {unit} on everything else"
    if not parts:
        return base.replace(" else", "")
    return ", ".join(parts) + f" and {base}"


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
            out.append(f"\n\n## {ctx.fill(GENERIC_HEADINGS[k])}\n\n" + ctx.fill(GENERIC_LINES[k]))
    return out


def join(parts: list[str], sep: str = " ") -> str:
    return sep.join(p for p in parts if p)


def _and(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def rec_lead(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(
            (
                "Based on what you've told me, I'd recommend the {name}.",
                "The {name} is the one I'd put forward for you.",
                "You'd be well served by the {name}.",
            )
        ),
        name=lambda: ctx.name(card),
    )


def rec_second(ctx: Ctx, card: Card) -> str:
    return ctx.fill(
        ctx.pick(("Another good fit is the {name}.", "I'd also suggest the {name}.")),
        name=lambda: ctx.name(card),
    )


RULE_OUT = {
    "credit_score_below_min": (
        "I haven't suggested the {name}: it typically needs a score around {min_score}, and yours is {score}.",
    ),
    "student_only": ("The {name} only accepts students, so it's not one for you.",),
    "recent_bankruptcy": (
        "Because of the recent bankruptcy, the {name} isn't available to you yet.",
    ),
    "already_holds_card": ("You already have the {name}, so I've skipped it.",),
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
                "After subtracting the annual fee, your rewards should still total about {v} a year.",
                v=amount,
            )
    amount = ctx.derived_money(
        rewards, "annual_rewards", card_id=card.card_id, customer_id=cust.customer_id
    )
    return ctx.fill("Your spending pattern would earn an estimated {v} per year.", v=amount)


def spend_line(ctx: Ctx) -> str:
    cust = ctx.customer
    if cust is None:
        return ""
    cat, amount = max(cust.monthly_spend, key=lambda x: x[1])
    money = ctx.derived_money(amount, "monthly_spend", customer_id=cust.customer_id, category=cat)
    return ctx.fill("You spend roughly {m} a month on {label}.", m=money, label=cat)


FILLER: tuple[str, ...] = (
    "People who carry a balance feel the interest rate every month; people who pay in full never "
    "do, so decide which group you are in before comparing cards.",
    "An introductory rate is only useful with a plan to clear the balance before it expires.",
    "Fees on transfers and cash advances are usually charged once, up front, on the amount moved.",
    "If you travel even once a year, a card without currency surcharges is worth considering.",
    "A yearly membership charge pays for itself only when the perks are ones you would buy anyway.",
    "Approval and the exact rate depend on your credit profile, not only on the card.",
    "Autopay for at least the minimum avoids both late charges and damage to your credit history.",
    "Using a credit card at an ATM is expensive almost everywhere.",
    "Redemption options differ: statement credits are simple, transfer partners can be worth more.",
    "Opening several accounts at once can lower your score for a while.",
)


def filler(ctx: Ctx, n: int) -> list[str]:
    pool = list(FILLER)
    ctx.rng.shuffle(pool)
    return [ctx.fill(p) for p in pool[:n]]


def _words(text: str) -> int:
    return len(text.split())


# --- layouts -------------------------------------------------------------------------------


def qa_short(ctx: Ctx) -> str:
    card = ctx.cards[0]
    body = [_claim(ctx, card, k, "sentence") for k in ctx.plan(card)]
    lead = ""
    if not any(card.card_id == m for m in ctx.mentions):
        lead = ctx.fill(
            ctx.pick(("Here are the {name} terms.", "About the {name}:", "The {name}, briefly.")),
            name=lambda: ctx.name(card),
        )
    body = [lead, *body, *extras(ctx, card)]
    if ctx.recommended:
        body.append(rec_lead(ctx, ctx.recommended[0]))
    return join([ctx.pick(OPENERS), *body, ctx.pick(CLOSERS)])


def fact_sheet(ctx: Ctx) -> str:
    card = ctx.cards[0]
    title = ctx.fill(
        ctx.pick(("{name}", "{name} | at a glance", "{name} terms")), name=lambda: ctx.name(card)
    )
    lines = [ctx.emoji("card") + title, "=" * 10]
    for k in ctx.plan(card):
        lines.append(
            f"> {ctx.emoji('good') if ctx.chance(0.2) else ''}{_claim(ctx, card, k, 'bullet')}"
        )
    ext = extras(ctx, card)
    if ext:
        lines += ["", join(ext)]
    if ctx.recommended:
        lines += ["", rec_lead(ctx, ctx.recommended[0])]
    return "\n".join(lines)


HEADERS = {
    "purchase_apr": ("Standard APR", "APR (purchases)"),
    "annual_fee": ("Annual fee", "Fee/yr"),
    "intro_purchase": ("0% purchases?", "Purchase intro"),
    "intro_bt": ("0% transfers?", "Transfer intro"),
    "foreign_fee": ("Foreign txn fee", "Overseas fee"),
    "late_fee": ("Late fee", "Late charge"),
    "rewards": ("Rewards", "Earn rate"),
    "bt_fee": ("Balance transfer fee", "Transfer charge"),
    "cash_fee": ("Cash advance fee", "ATM fee"),
    "signup": ("Bonus", "Sign-up offer"),
}


def comparison_table(ctx: Ctx) -> str:
    kinds = ctx.plan(ctx.cards[0])
    heads = {k: ctx.pick(HEADERS[k]) for k in kinds}
    names = [ctx.name(c) for c in ctx.cards]
    intro = ctx.fill("How the {cards} compare:", cards=_and(names))
    shape = ctx.pick(("md", "transposed"))
    if shape == "md":
        rows = ["| | " + " | ".join(heads[k] for k in kinds) + " |", "|-" * (len(kinds) + 1) + "|"]
        for c, shown in zip(ctx.cards, names, strict=True):
            rows.append(
                f"| **{shown}** | " + " | ".join(_claim(ctx, c, k, "cell") for k in kinds) + " |"
            )
    else:
        rows = [
            "| Feature | " + " | ".join(f"**{n}**" for n in names) + " |",
            "|---" * (len(names) + 1) + "|",
        ]
        for k in kinds:
            rows.append(
                f"| {heads[k]} | " + " | ".join(_claim(ctx, c, k, "cell") for c in ctx.cards) + " |"
            )
    after = [*extras(ctx, ctx.cards[0])]
    if ctx.recommended:
        after.append(rec_lead(ctx, ctx.recommended[0]))
    else:
        after.append("Which is better depends on how you use credit.")
    return "\n".join([intro, "", *rows, "", join(after)])


def comparison_prose(ctx: Ctx) -> str:
    cards = ctx.cards
    names = [ctx.name(c) for c in cards]
    parts = [ctx.fill("Let's weigh the {cards}.", cards=_and(names))]
    plans = [ctx.plan(c) for c in cards]
    # One sentence per pair of terms, when two cards share the same kinds up front.
    a, b = cards[0], cards[1] if len(cards) > 1 else None
    used_a: list[str] = []
    used_b: list[str] = []
    if b is not None and "short_labels" not in ctx.want:
        shared = [k for k in plans[0] if k in plans[1]]
        for k in shared[:2]:
            link = ctx.pick(("whereas", "while", "compared with", "but"))
            if link == "compared with":
                sent = ctx.fill(
                    "The {na} has {ca}, compared with {cb} on the {nb}.",
                    na=lambda: ctx.name(a),
                    ca=lambda k=k: _claim(ctx, a, k, "clause"),
                    cb=lambda k=k: _claim(ctx, b, k, "clause"),
                    nb=lambda: ctx.name(b),
                )
            else:
                sent = ctx.fill(
                    "The {na} has {ca}, {link} the {nb} has {cb}.",
                    na=lambda: ctx.name(a),
                    ca=lambda k=k: _claim(ctx, a, k, "clause"),
                    link=link,
                    nb=lambda: ctx.name(b),
                    cb=lambda k=k: _claim(ctx, b, k, "clause"),
                )
            parts.append(sent)
            used_a.append(k)
            used_b.append(k)
    for i, c in enumerate(cards):
        rest = [k for k in plans[i] if k not in (used_a if i == 0 else used_b if i == 1 else [])]
        if not rest:
            continue
        if "short_labels" in ctx.want:
            labels = _labels(ctx)
            if labels:
                ctx.hn.add("hn_short_label")
                parts.append(
                    f"({labels[c.card_id]}) "
                    + "; ".join(_claim(ctx, c, k, "clause") for k in rest)
                    + "."
                )
                continue
        lead = ctx.fill("On the {name} side:", name=lambda c=c: ctx.name(c))
        parts.append(join([lead, *[_claim(ctx, c, k, "sentence") for k in rest]]))
    tail = [*extras(ctx, cards[0])]
    if ctx.recommended:
        tail.append(rec_lead(ctx, ctx.recommended[0]))
    return "\n\n".join(parts) + ("\n\n" + join(tail) if tail else "")


def _labels(ctx: Ctx) -> dict[str, str]:
    names = [c.name for c in ctx.cards]
    out = {}
    for c in ctx.cards:
        shorter = [n for n in names if n != c.name and c.name.startswith(n + " ")]
        longer = [n for n in names if n != c.name and n.startswith(c.name + " ")]
        if shorter:
            out[c.card_id] = " ".join(c.name.split()[len(shorter[0].split()) :])
        elif longer:
            out[c.card_id] = "Standard"
    return out if len(out) == len(ctx.cards) else {}


def long_explainer(ctx: Ctx) -> str:
    cards = ctx.cards
    parts = [ctx.fill("# A guide to the {name}", name=lambda: ctx.name(cards[0])), ""]
    parts.append(
        "Below you'll find the terms that matter, then context on how to think about them."
    )
    for c in cards:
        parts += ["", ctx.fill("## {name}: the terms", name=lambda c=c: ctx.name(c)), ""]
        kinds = ctx.plan(c)
        if ctx.chance(0.5):
            parts.append(join([_claim(ctx, c, k, "sentence") for k in kinds]))
        else:
            parts += [f"> {_claim(ctx, c, k, 'bullet')}" for k in kinds]
        ext = extras(ctx, c)
        if ext:
            parts += ["", join(ext)]
    parts += ["", "## Context", ""]
    body = "\n".join(parts)
    closing = ["In the end, pick the card whose costs you can avoid."]
    if ctx.recommended:
        closing.insert(0, rec_lead(ctx, ctx.recommended[0]))
    fills = filler(ctx, 10)
    target = ctx.rng.randint(320, 820)
    added: list[str] = []
    slots: list[str | None] = list(fills)
    slots.insert(ctx.rng.randrange(len(slots) + 1), None)
    for para in slots:
        size = _words(body) + _words(" ".join(added)) + _words(" ".join(closing))
        if size >= target:
            break
        text = para if para is not None else worked_example(ctx, cards[0])
        if text:
            added.append(text)
    out = body + "\n\n" + "\n\n".join(added) + "\n\n" + join(closing)
    while _words(out) < 300:
        out += "\n\n" + " ".join(FILLER)
    return out


def worked_example(ctx: Ctx, card: Card) -> str:
    if not {"bt_fee", "intro_bt"} & set(ctx.plan(card)) or ctx.chance(0.3):
        return ""
    amount = ctx.pick((2000, 3500, 7000))
    fee = max(card.bt_fee_pct / 100 * amount, card.bt_fee_min)
    return ctx.fill(
        "For instance, transferring {amount} to the {name} would add a one-time charge of about {fee}.",
        amount=lambda: ctx.example_money(amount),
        fee=lambda: ctx.derived_money(fee, "bt_fee_on", card_id=card.card_id, amount=amount),
        name=lambda: ctx.name(card),
    )


def recommendation(ctx: Ctx) -> str:
    cust = ctx.customer
    parts: list[str] = []
    if cust:
        parts.append(ctx.fill("Hi {first} - thanks for the details.", first=cust.first_name))
        if ctx.chance(0.5):
            parts.append(spend_line(ctx))
    for i, c in enumerate(ctx.recommended):
        lead = rec_lead(ctx, c) if i == 0 else rec_second(ctx, c)
        kinds = ctx.plan(c)
        if ctx.chance(0.5):
            parts.append(lead + "\n" + "\n".join(f"> {_claim(ctx, c, k, 'bullet')}" for k in kinds))
        else:
            parts.append(join([lead, *[_claim(ctx, c, k, "sentence") for k in kinds]]))
        if cust and ("value" in ctx.want or ctx.chance(0.5)):
            parts.append(value_line(ctx, c))
        parts.extend(extras(ctx, c) if i == 0 else [])
    for c, reason in ctx.ruled_out:
        parts.append(rule_out(ctx, c, reason))
    for c in ctx.held:
        parts.append(rule_out(ctx, c, "already_holds_card"))
    parts.append(ctx.pick(CLOSERS))
    return "\n\n".join(p for p in parts if p)


def casual_chat(ctx: Ctx) -> str:
    card = ctx.cards[0]
    lines = [ctx.fill("Agent: Sure! For the {name} you're looking at", name=ctx.name(card))]
    lines[0] += " " + ", ".join(_claim(ctx, card, k, "clause") for k in ctx.plan(card)) + "."
    for c in ctx.cards[1:]:
        lines.append(
            ctx.fill("Agent: And the {name} comes with ", name=lambda c=c: ctx.name(c))
            + ", ".join(_claim(ctx, c, k, "clause") for k in ctx.plan(c))
            + "."
        )
    ext = extras(ctx, card)
    if ext:
        lines.append("Agent: " + join(ext))
    if ctx.recommended:
        lines.append(
            ctx.fill(
                "Agent: Honestly, I'd recommend the {name}.",
                name=lambda: ctx.name(ctx.recommended[0]),
            )
        )
    lines.append("Agent: " + ctx.pick(("Anything else?", "Happy to help further.")))
    return "\n".join(lines)


def marketing(ctx: Ctx) -> str:
    card = ctx.cards[0]
    head = ctx.fill(
        ctx.pick(("Discover the {name}", "The {name}. Simply better.")), name=lambda: ctx.name(card)
    )
    feats = [_claim(ctx, card, k, "sentence") for k in ctx.plan(card)]
    ext = extras(ctx, card)
    out = [f"# {ctx.emoji('star')}{head}", "", join(feats), ""]
    if ext:
        out += [join(ext), ""]
    out.append(ctx.fill("Apply today at {issuer}.", issuer=card.issuer))
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
