"""Compliance-verifier throughput: responses per second on ~800-word responses, in one process.

Usage: ``python benchmarks/bench_compliance.py [--seed 1] [--responses 200] [--repeats 7]
[--words 800] [--json OUT] [--compare-rev REV] [--verifier-rev REV] [--rulesets 4 5]``.

``--rulesets N ...`` measures each ruleset of the checkout (or of ``--verifier-rev REV``, from
revision 6315072 on) in the same process, the repeats interleaved (ruleset 4, ruleset 5, ruleset
4, ...) so load on a shared machine hits them alike; the ratio of their medians is printed (the
default measures the default ruleset only). Under ``--rulesets`` the ``varied`` corpus gives
every pass a new batch of answers, so no cache keyed on text is warm (see ``varied_response``).

``--compare-rev REV`` measures the ``verifiers/`` tree of git revision ``REV`` first (in a
subprocess, extracted with ``git archive``: the "before") and then the checkout (the "after"), on
the same corpora in the same run, and prints both; ``--verifier-rev REV`` measures only ``REV``.
``--baseline-rev REV`` measures ``REV`` and the checkout in one process, their passes interleaved
(``REV``'s tree is imported under another package name), so a loaded machine slows both alike;
it prints each one's median, their ratio, and whether their verdicts are identical.

Two corpora, both compliant and deterministic in the seed:

* ``typical`` - what an assistant answer recommending a card looks like: three or four cards, each
  with a short section of terms (a paragraph or a bullet list), advice prose around them that
  names the cards but states no figure, a compact comparison table in about half of them and a
  bottom line. About 800 words with **20-40 figures** (seed 1: mean 26.5 claims, 10th-90th
  percentile 15-38): most of the text is advice, so much of the cost is reading prose, not
  checking terms. The throughput target (2,000 responses/s) is stated for this corpus.
* ``varied`` - the typical answer's shape with no sentence repeated across answers (names,
  places, counts drawn per sentence; terms in shuffled order, each with a remark): what new
  traffic costs a verifier that caches readings of text it has seen.
* ``dense`` - card sections and tables back to back (a terms sheet rather than an answer), the
  worst realistic case.

Both corpora are generated here, from the catalog, with their own phrasing (no evalset).

Each repeat verifies every response once; the median over repeats is reported. CPU time
(``time.process_time``) is the headline figure because other work shares the machine; wall time is
shown too. Per-stage costs (normalise, names, extraction, rules) come from timing each stage on
its own. Targets are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from replicas.build import ensure_snapshot
from replicas.seeding import table_rng

if TYPE_CHECKING:
    from replicas.verifiers.compliance import CardTerms, Catalog

TARGET_PER_S = 2000.0
LOAD_TARGET_MS = 100.0

# -- the typical corpus --------------------------------------------------------------------------

_OPENERS = (
    "Thanks for the details. Based on what you told me about your spending and how you use "
    "credit, I narrowed the catalog down to a few cards that fit, and I'll walk through each "
    "one before giving you a clear recommendation at the end.",
    "Good question - picking a card is mostly about matching its terms to your habits. You said "
    "you sometimes carry a balance, you travel a couple of times a year and you would rather not "
    "pay for features you will not use, so I focused on those points.",
    "Here is how I would think about it. The right card depends on whether you pay in full every "
    "month, whether you plan to move an existing balance, and how often you spend money abroad. "
    "Below are the options that stood out, with their key terms.",
)
_ADVICE = (
    "The {name} is a sensible option if you want something simple that you can keep for years.",
    "What I like about the {name} is that the terms are easy to understand and there are few "
    "surprises once you have read the disclosures.",
    "If you pay your statement in full every month, the interest rate on the {name} matters much "
    "less than its fees and the perks you actually use.",
    "On the other hand, the {name} is less attractive if you tend to carry a balance from month "
    "to month, because interest adds up quickly.",
    "Think about how you would use the {name} day to day: groceries, gas, subscriptions and the "
    "occasional larger purchase.",
    "Customer service for the {name} gets good reviews, and the mobile app makes it easy to set "
    "up autopay so you never miss a due date.",
    "One thing to keep in mind with the {name} is that approval depends on your full credit "
    "profile, not just your score.",
    "Before applying for the {name}, check whether you expect to make any large purchases in the "
    "next year, since that changes which offer is worth more to you.",
    "Set up alerts on the {name} so you notice unusual charges quickly; fraud protection is "
    "standard, but catching problems early still saves time.",
    "Overall the {name} is a reasonable fit for the way you described your spending.",
)
_GENERAL = (
    "Paying on time is the single most important habit: it protects your credit history and "
    "keeps you away from penalty pricing.",
    "Try to keep your balances low relative to your limits, because utilization is a large part "
    "of how your score is calculated.",
    "Avoid applying for several cards at once; each application can cause a small, temporary dip "
    "in your score.",
    "If you plan to transfer a balance, make a payoff plan before the promotional period ends so "
    "the remaining balance does not start accruing interest at the regular rate.",
    "Read the full terms before you apply, especially the section on fees and how interest is "
    "calculated.",
    "Using the card for recurring bills and paying it off automatically is an easy way to build "
    "history without thinking about it.",
    "Cash advances are expensive on almost every card, so treat them as a last resort.",
    "Remember that rewards only make sense if you are not paying interest that cancels them out.",
    "Check your statement every month, even if autopay is on, so you notice price changes or "
    "subscriptions you forgot about.",
    "A higher credit limit can help your utilization, but only if you do not treat it as extra "
    "spending money.",
    "If your income or spending changes a lot, revisit your choice in a year; the best card for "
    "you today may not be the best one later.",
    "Keep older accounts open when they cost you nothing, since the length of your credit history "
    "counts too.",
)
_BOTTOM = (
    "Bottom line: of the cards above, the {name} best matches what you described, and the terms "
    "I listed for it are the ones to compare against any other offer you see.",
    "My overall take: start with the {name}, use it for everyday spending, and pay the balance in "
    "full whenever you can.",
    "If I had to choose one for you, it would be the {name}, mainly because its terms line up "
    "with how you said you use credit.",
)


def _pct(value: float) -> str:
    text = f"{value:.2f}"
    return text[:-3] if text.endswith(".00") else text


def _usd(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def _apr(card: CardTerms) -> str:
    low, high = card.purchase_apr_min_pct or 0.0, card.purchase_apr_max_pct or 0.0
    kind = "variable" if card.apr_is_variable else "fixed"
    if low == high:
        return f"{_pct(low)}% {kind}"
    return f"{_pct(low)}%-{_pct(high)}% {kind}"


def _terms(card: CardTerms) -> list[str]:
    """The card's terms as short phrases, each one true (the corpus is compliant)."""
    fee = card.annual_fee_usd or 0.0
    out = [f"{_usd(fee)} annual fee" if fee else "no annual fee", f"{_apr(card)} purchase APR"]
    if card.intro_purchase_apr_pct is not None:
        out.append(
            f"{_pct(card.intro_purchase_apr_pct)}% intro APR on purchases for "
            f"{card.intro_purchase_months} months, then {_apr(card)}"
        )
    if card.intro_bt_apr_pct is not None:
        out.append(
            f"{_pct(card.intro_bt_apr_pct)}% intro APR on balance transfers for "
            f"{card.intro_bt_months} months"
        )
    if card.bt_fee_pct:
        out.append(
            f"balance transfer fee of {_pct(card.bt_fee_pct)}% (min {_usd(card.bt_fee_min_usd or 0)})"
        )
    if card.foreign_txn_fee_pct:
        out.append(f"{_pct(card.foreign_txn_fee_pct)}% foreign transaction fee")
    else:
        out.append("no foreign transaction fees")
    if card.late_fee_usd:
        out.append(f"late fee up to {_usd(card.late_fee_usd)}")
    if card.cash_advance_fee_pct:
        out.append(
            f"cash advance fee of {_pct(card.cash_advance_fee_pct)}% or "
            f"{_usd(card.cash_advance_fee_min_usd or 0)}, whichever is greater"
        )
    return out


def _section(rng: np.random.Generator, card: CardTerms, value: int) -> str:
    terms = _terms(card)
    name = card.card_name
    style = int(rng.integers(0, 3))
    if style == 0:
        items = "\n".join(f"- {t[0].upper()}{t[1:]}" for t in terms)
        return f"**{name}**\n{items}\n- Estimated value for you: about ${value} a year"
    if style == 1:
        first, *rest = terms
        return (
            f"### {name}\n\nThe {name} comes with {first}. It has a {rest[0]}"
            + "".join(f"; {t}" for t in rest[1:])
            + f". On your spending it would be worth roughly ${value} per year."
        )
    return (
        f"The {name} is worth a look: {', '.join(terms[:-1])} and {terms[-1]}. "
        f"Based on your spending you would get around ${value} a year out of it."
    )


def _table(cards: Sequence[CardTerms]) -> str:
    rows = ["| Card | Annual fee | Purchase APR | Foreign transaction fee |", "|---|---|---|---|"]
    for card in cards:
        fee = card.annual_fee_usd or 0.0
        fx = card.foreign_txn_fee_pct or 0.0
        rows.append(
            f"| {card.card_name} | {_usd(fee) if fee else 'None'} | {_apr(card)} | "
            f"{_pct(fx) + '%' if fx else 'None'} |"
        )
    return "\n".join(rows)


def typical_response(catalog: Catalog, seed: int, words: int = 800) -> str:
    """A realistic ~``words``-word answer recommending one of three or four cards.

    Each card gets a short section of true terms (always its annual fee, so recommending it is
    compliant; bullets, a paragraph or one long sentence) plus the yearly value it would bring,
    wrapped in advice that names the card but states no figure; 60% of the answers add a
    comparison table of the first three. Deterministic in ``seed``.
    """
    if words < 200:
        raise ValueError(f"words must be >= 200, got {words}")
    rng = table_rng(seed, "compliance_typical_response", words)
    cards = list(catalog.cards)
    k = min(len(cards), int(rng.choice([3, 4, 4])))
    group = [cards[int(i)] for i in rng.choice(len(cards), size=k, replace=False)]
    parts = [str(rng.choice(_OPENERS))]
    for card in group:
        advice = " ".join(
            str(_ADVICE[int(i)]).format(name=card.card_name)
            for i in rng.choice(len(_ADVICE), size=3, replace=False)
        )
        parts.append(f"{_section(rng, card, int(rng.integers(80, 900)))}\n\n{advice}")
    if rng.random() < 0.6:
        parts.append("Here's how they compare:\n\n" + _table(group[:3]))
    parts.append(str(rng.choice(_BOTTOM)).format(name=group[0].card_name))
    general = list(_GENERAL)
    while sum(len(p.split()) for p in parts) < words and general:
        parts.insert(-1, general.pop(int(rng.integers(0, len(general)))))
    return "\n\n".join(parts)


# -- the varied corpus: the typical answer with no sentence repeated -------------------------------

_PEOPLE = (
    "Alex",
    "Priya",
    "Jordan",
    "Mateo",
    "Hannah",
    "Kwame",
    "Sofia",
    "Liam",
    "Aisha",
    "Chen",
    "Olivia",
    "Diego",
    "Fatima",
    "Noah",
    "Yuki",
    "Grace",
    "Omar",
    "Elena",
    "Ravi",
    "Maya",
    "Tomas",
    "Zoe",
    "Ibrahim",
    "Nora",
    "Lucas",
    "Amara",
    "Felix",
    "Ines",
    "Jonah",
    "Leila",
)
_PLACES = (
    "Denver",
    "Lisbon",
    "Toronto",
    "Osaka",
    "Austin",
    "Nairobi",
    "Dublin",
    "Seattle",
    "Lima",
    "Prague",
    "Phoenix",
    "Oslo",
    "Boston",
    "Madrid",
    "Chicago",
    "Hanoi",
    "Atlanta",
    "Vienna",
    "Portland",
    "Cairo",
    "Miami",
    "Krakow",
    "Tucson",
    "Quebec",
    "Raleigh",
    "Seville",
)
_HABITS = (
    "groceries",
    "streaming subscriptions",
    "the weekly farmers market",
    "gas for the commute",
    "takeout on Fridays",
    "school supplies",
    "the gym membership",
    "pet food and vet visits",
    "concert tickets",
    "home improvement projects",
    "rideshares",
    "the phone bill",
    "coffee on the way to work",
    "online shopping",
    "utility bills",
    "hobby supplies",
    "bookstore visits",
    "camping gear",
    "the kids' sports leagues",
    "museum memberships",
)
_VERBS = (
    "mentioned",
    "said",
    "told me",
    "pointed out",
    "noted",
    "explained",
    "wrote",
)
_ADVICE_VARIED = (
    "{person}, you {verb} that {habit} come up about {n} times a month, and the {name} handles "
    "that kind of spending without any fuss.",
    "Since you {verb} a trip to {place} in {month}, it is worth checking how the {name} treats "
    "purchases made there before you pack.",
    "If {habit} stay around {n} transactions a month, the {name} keeps things simple, and you "
    "can review them all in the app.",
    "Think about the {name} as the card you reach for at {place}-area shops for {habit}, then "
    "pay it off before the due date.",
    "A friend of yours in {place} might use the {name} differently, but for {habit} it fits "
    "what you described, {person}.",
    "You {verb} you have had your oldest account for {n} years; opening the {name} will lower "
    "the average age a little, which is fine over time.",
    "Before the {month} holidays, set a reminder to look at the {name} statement, because "
    "{habit} tend to spike around then.",
    "The {name} app lets you tag {habit} separately, which helps if you budget the way you "
    "{verb} you do with {n} categories.",
)
_GENERAL_VARIED = (
    "Paying on time for {n} months in a row does more for your history than any perk, {person}.",
    "Keep an eye on {habit}: small repeat charges add up faster than people in {place} expect.",
    "If you move to {place} as you {verb}, update your address so statements and cards reach you.",
    "Try to keep balances low relative to limits; checking once every {n} days is a good habit.",
    "Avoid applying for several cards within {n} weeks of each other, especially before a big "
    "move in {month}.",
    "Autopay for {habit} is an easy way to build history over the next {n} months without "
    "thinking about it.",
    "Review the full disclosures before you apply, {person}, especially around {month} when "
    "offers change.",
    "Cash advances are expensive almost everywhere, including in {place}, so treat them as a "
    "last resort.",
    "Rewards only make sense if you are not paying interest on {habit} that cancels them out.",
    "Check your statement every month even with autopay on, so you notice the {n} subscriptions "
    "you {verb} you forgot about.",
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_CONNECTORS = ("comes with", "offers", "has", "carries", "gives you")
_TERM_TAILS = (
    " (worth knowing before {place})",
    ", which matters for {habit}",
    " ({person} asked about this)",
    ", as of {month}",
    " - keep it in mind for {habit}",
    " (relevant to your {n} trips)",
)


def _varied_table(rng: np.random.Generator, cards: Sequence[CardTerms]) -> str:
    """The comparison table with a "Best for" and a "Value to you" column, drawn per row."""
    rows = [
        "| Card | Annual fee | Purchase APR | Foreign transaction fee | Best for | Value to you |",
        "|---|---|---|---|---|---|",
    ]
    for card in cards:
        fee = card.annual_fee_usd or 0.0
        fx = card.foreign_txn_fee_pct or 0.0
        rows.append(
            f"| {card.card_name} | {_usd(fee) if fee else 'None'} | {_apr(card)} | "
            f"{_pct(fx) + '%' if fx else 'None'} | {_fill(rng, '{habit} in {place}')} | "
            f"about ${int(rng.integers(80, 900))} a year |"
        )
    return "\n".join(rows)


def _fill(rng: np.random.Generator, template: str, name: str = "") -> str:
    return template.format(
        name=name,
        person=str(rng.choice(_PEOPLE)),
        place=str(rng.choice(_PLACES)),
        habit=str(rng.choice(_HABITS)),
        verb=str(rng.choice(_VERBS)),
        month=str(rng.choice(_MONTHS)),
        n=int(rng.integers(2, 60)),
    )


def varied_response(catalog: Catalog, seed: int, words: int = 800) -> str:
    """A typical-shaped answer (3-4 card sections, advice, a table in 60%, a bottom line) in
    which no sentence repeats across responses: advice sentences fill names, places, habits,
    months and counts drawn per sentence; each card section's terms come in a shuffled order
    with a varied verb, each term with a remark drawn the same way; the comparison table has a
    "Best for" and a "Value to you" column drawn per row. A verifier whose caches key on text gets no warm hits from it, so it
    shows the cost on new traffic. Deterministic in ``seed``."""
    if words < 200:
        raise ValueError(f"words must be >= 200, got {words}")
    rng = table_rng(seed, "compliance_varied_response", words)
    cards = list(catalog.cards)
    k = min(len(cards), int(rng.choice([3, 4, 4])))
    group = [cards[int(i)] for i in rng.choice(len(cards), size=k, replace=False)]
    parts = [
        _fill(
            rng,
            "Thanks, {person}. You {verb} you spend most on {habit} and travel to {place} about "
            "{n} times a year, so I narrowed the catalog to a few cards and will walk through "
            "each before a recommendation.",
        )
    ]
    for card in group:
        terms = [t + _fill(rng, str(rng.choice(_TERM_TAILS))) for t in _terms(card)]
        order = [terms[0], *(terms[int(i) + 1] for i in rng.permutation(len(terms) - 1))]
        verb = str(rng.choice(_CONNECTORS))
        value = int(rng.integers(80, 900))
        if rng.random() < 0.5:
            items = "\n".join(f"- {t[0].upper()}{t[1:]}" for t in order)
            section = (
                f"**{card.card_name}**\n{items}\n- Estimated value for you: about ${value} a year"
            )
        else:
            section = (
                f"The {card.card_name} {verb} {order[0]}; "
                + "; ".join(order[1:])
                + f". On your spending it would be worth roughly ${value} per year."
            )
        advice = " ".join(
            _fill(rng, str(_ADVICE_VARIED[int(i)]), card.card_name)
            for i in rng.choice(len(_ADVICE_VARIED), size=3, replace=False)
        )
        parts.append(f"{section}\n\n{advice}")
    if rng.random() < 0.6:
        parts.append("Here's how they compare:\n\n" + _varied_table(rng, group[:3]))
    parts.append(
        _fill(
            rng,
            "Bottom line, {person}: the {name} best matches what you described.",
            group[0].card_name,
        )
    )
    while sum(len(p.split()) for p in parts) < words:
        parts.insert(-1, _fill(rng, str(rng.choice(_GENERAL_VARIED))))
    return "\n\n".join(parts)


def dense_response(catalog: Catalog, seed: int, words: int = 800) -> str:
    """Card sections and tables back to back, ~``words`` words: a terms sheet, the worst case."""
    rng = table_rng(seed, "compliance_dense_response", words)
    cards = list(catalog.cards)
    parts = ["Here is a detailed comparison of the cards that fit what you asked for."]
    while sum(len(p.split()) for p in parts) < words:
        group = [cards[int(i)] for i in rng.choice(len(cards), size=3, replace=False)]
        parts.extend(_section(rng, card, int(rng.integers(80, 900))) for card in group)
        parts.append(_table(group))
    return "\n\n".join(parts)


# -- timing ---------------------------------------------------------------------------------------


def _timed(fn: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``fn`` over ``repeats`` runs (after one warm-up)."""
    fn()
    walls, cpus = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def interleaved(
    catalog: Catalog,
    texts: Sequence[str],
    repeats: int,
    rulesets: Sequence[int],
    fresh: Callable[[int], Sequence[str]] | None = None,
) -> dict[int, dict[str, float]]:
    """Median CPU and wall responses/s of each ruleset, their repeats interleaved (one warm-up
    pass each first), so a change of machine load during the run hits every ruleset alike.

    ``fresh(k)`` (the varied corpus) gives every pass - warm-up and each ruleset's repeats - a
    batch of answers of its own, never verified before in the process: the verifier's caches
    keyed on text then never hit across passes, as on real traffic."""
    from replicas.verifiers.compliance import verify_response

    batches = iter(
        [fresh(k) for k in range(len(rulesets) * (repeats + 1))]
        if fresh is not None
        else [texts] * (len(rulesets) * (repeats + 1))
    )
    for ruleset in rulesets:
        for t in next(batches):
            verify_response(t, catalog, ruleset=ruleset)
    cpus: dict[int, list[float]] = {r: [] for r in rulesets}
    walls: dict[int, list[float]] = {r: [] for r in rulesets}
    for _ in range(repeats):
        for ruleset in rulesets:
            batch = next(batches)
            w0, c0 = time.perf_counter(), time.process_time()
            for t in batch:
                verify_response(t, catalog, ruleset=ruleset)
            walls[ruleset].append(time.perf_counter() - w0)
            cpus[ruleset].append(time.process_time() - c0)
    n = len(texts)
    return {
        r: {
            "responses_per_s_cpu": n / statistics.median(cpus[r]),
            "responses_per_s_wall": n / statistics.median(walls[r]),
        }
        for r in rulesets
    }


def bench(
    catalog: Catalog, texts: Sequence[str], repeats: int, ruleset: int | None = None
) -> dict[str, Any]:
    from replicas.verifiers.compliance import verify_response
    from replicas.verifiers.compliance.claims import extract
    from replicas.verifiers.compliance.rules import evaluate
    from replicas.verifiers.compliance.text import normalize

    n = len(texts)
    chosen: dict[str, Any] = {} if ruleset is None else {"ruleset": ruleset}
    wall, cpu = _timed(lambda: [verify_response(t, catalog, **chosen) for t in texts], repeats)
    # the stages of the ruleset (the default; revisions before rulesets take none)
    extra: tuple[Any, ...] = ()
    fold: Callable[[str], str] = str
    if "rules" in inspect.signature(extract).parameters:
        from replicas.verifiers.compliance import get_ruleset
        from replicas.verifiers.compliance.synonyms import fold_synonyms

        rules = get_ruleset(ruleset)
        extra = (rules,)
        fold = fold_synonyms if rules.term_synonyms else str
        if getattr(rules, "expansions", False):
            from replicas.verifiers.compliance.expansions import expand

            plain = normalize
            normalize = lambda t: expand(plain(t))  # noqa: E731 - ruleset 5 normalises so
    norms = [normalize(t) for t in texts]
    lowers = [fold(x.lower) for x in norms]
    mentions = [catalog.names.find(x.text, x.lower) for x in norms]
    extractions = [
        extract(x.text, low, m, *extra) for x, low, m in zip(norms, lowers, mentions, strict=True)
    ]
    stages = {
        "normalise": lambda: [normalize(t) for t in texts],
        "names": lambda: [catalog.names.find(x.text, x.lower) for x in norms],
        "extract": lambda: [
            extract(x.text, low, m, *extra)
            for x, low, m in zip(norms, lowers, mentions, strict=True)
        ],
        "rules": lambda: [
            evaluate(catalog, low, e, None, *extra)
            for low, e in zip(lowers, extractions, strict=True)
        ],
    }
    stage_cpu = {name: 1000 * _timed(fn, repeats)[1] / n for name, fn in stages.items()}
    verdicts = [verify_response(t, catalog, **chosen) for t in texts]
    first = _digest(verdicts)
    again = _digest([verify_response(t, catalog, **chosen) for t in texts])
    return {
        "responses": n,
        "mean_words": statistics.mean(len(t.split()) for t in texts),
        "mean_claims": statistics.mean(len(e.claims) for e in extractions),
        "min_claims": min(len(e.claims) for e in extractions),
        "max_claims": max(len(e.claims) for e in extractions),
        "passed": sum(v.passed for v in verdicts),
        "responses_per_s_cpu": n / cpu,
        "responses_per_s_wall": n / wall,
        "ms_per_response_cpu": 1000 * cpu / n,
        "stages_ms_cpu": stage_cpu,
        "target_per_s": TARGET_PER_S,
        "deterministic": first == again,
        "verdicts_sha256": first,
    }


def _digest(verdicts: Sequence[Any]) -> str:
    """One hash of every verdict serialised (sorted keys): equal digests = byte-identical."""
    payload = json.dumps([v.to_dict() for v in verdicts], sort_keys=True).encode("utf-8")
    return hashlib.sha256(payload).hexdigest()


def _catalog_load(path: Path, repeats: int) -> tuple[Catalog, float]:
    """The catalog and the median wall milliseconds of loading it from the snapshot."""
    from replicas.verifiers.compliance import Catalog

    times = []
    catalog = Catalog.from_snapshot(path)
    for _ in range(repeats):
        start = time.perf_counter()
        catalog = Catalog.from_snapshot(path)
        times.append(1000 * (time.perf_counter() - start))
    return catalog, statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--responses", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--words", type=int, default=800)
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--verifier-rev", default=None, help="measure this git revision's verifier")
    parser.add_argument(
        "--compare-rev", default=None, help="measure this revision, then the checkout, in one run"
    )
    parser.add_argument(
        "--rulesets",
        type=int,
        nargs="+",
        default=None,
        help="measure these rulesets of the checkout, repeats interleaved",
    )
    parser.add_argument(
        "--baseline-rev",
        default=None,
        help="measure this revision and the checkout in one process, passes interleaved",
    )
    args = parser.parse_args(argv)
    if args.baseline_rev:
        return _against_baseline(args)
    if args.rulesets and args.compare_rev:
        parser.error("--rulesets cannot be combined with --compare-rev (use --verifier-rev)")
    if args.compare_rev:
        return _compare(args, argv or sys.argv[1:])
    label = "checkout"
    if args.verifier_rev:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from benchmarks.compliance_eval.score import load_verifier_rev

        label = load_verifier_rev(args.verifier_rev)["rev"][:10]
    print(f"verifier: {label}")
    snapshot = ensure_snapshot("credit_cards", args.seed)
    catalog, load_ms = _catalog_load(snapshot.path, args.repeats)
    met = "met" if load_ms <= LOAD_TARGET_MS else "MISSED"
    print(
        f"catalog load {load_ms:6.1f} ms wall, median of {args.repeats} (target "
        f"{LOAD_TARGET_MS:.0f} ms: {met})"
    )
    corpora = {
        "typical": [typical_response(catalog, i, args.words) for i in range(args.responses)],
        "varied": [varied_response(catalog, i, args.words) for i in range(args.responses)],
        "dense": [dense_response(catalog, i, args.words) for i in range(args.responses)],
    }
    report: dict[str, Any] = {
        "seed": args.seed,
        "repeats": args.repeats,
        "catalog_load_ms": load_ms,
        "catalog_load_target_ms": LOAD_TARGET_MS,
    }
    if args.rulesets:
        return _by_ruleset(args, catalog, corpora, report)
    for name, texts in corpora.items():
        row = report[name] = bench(catalog, texts, args.repeats)
        met = "met" if row["responses_per_s_cpu"] >= TARGET_PER_S else "MISSED"
        print(
            f"{name:8s} {row['mean_words']:5.0f} words {row['mean_claims']:5.1f} claims "
            f"({row['min_claims']}-{row['max_claims']})  {row['responses_per_s_cpu']:6.0f}/s cpu  "
            f"{row['responses_per_s_wall']:6.0f}/s wall  {row['ms_per_response_cpu']:5.2f} ms  "
            f"{row['passed']}/{row['responses']} pass  (target {TARGET_PER_S:.0f}/s: {met})"
        )
        stages = "  ".join(f"{k} {v:.2f}ms" for k, v in row["stages_ms_cpu"].items())
        print(f"{'':8s} stages (cpu, median): {stages}")
        if name == "varied":
            print(
                f"{'':8s} (here every pass re-reads the same answers, so caches are warm; "
                "--rulesets or --baseline-rev give each pass new answers)"
            )
        print(
            f"{'':8s} verdicts identical across two passes: {row['deterministic']}; "
            f"sha256 {row['verdicts_sha256'][:16]} (compare between runs)"
        )
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump({"schema_version": 2, **report}, handle, indent=2)
    return 0


def _by_ruleset(
    args: argparse.Namespace,
    catalog: Catalog,
    corpora: dict[str, list[str]],
    report: dict[str, Any],
) -> int:
    """Each ruleset on each corpus: interleaved medians, then per-stage costs and digests."""
    rulesets = list(dict.fromkeys(args.rulesets))
    for name, texts in corpora.items():
        fresh = None
        if name == "varied":
            n = len(texts)

            def fresh(k: int, n: int = n) -> list[str]:
                return [
                    varied_response(catalog, (k + 1) * 100_000 + i, args.words) for i in range(n)
                ]

        speeds = interleaved(catalog, texts, args.repeats, rulesets, fresh)
        rows = report[name] = {}
        for ruleset in rulesets:
            row = rows[str(ruleset)] = bench(catalog, texts, args.repeats, ruleset)
            row["responses_per_s_cpu"] = speeds[ruleset]["responses_per_s_cpu"]
            row["responses_per_s_wall"] = speeds[ruleset]["responses_per_s_wall"]
            row["ms_per_response_cpu"] = 1000.0 / row["responses_per_s_cpu"]
            met = "met" if row["responses_per_s_cpu"] >= TARGET_PER_S else "MISSED"
            stages = "  ".join(f"{k} {v:.2f}ms" for k, v in row["stages_ms_cpu"].items())
            print(
                f"{name:8s} ruleset {ruleset}: {row['responses_per_s_cpu']:6.0f}/s cpu "
                f"{row['responses_per_s_wall']:6.0f}/s wall  {row['ms_per_response_cpu']:5.2f} ms"
                f"  {row['mean_claims']:5.1f} claims  {row['passed']}/{row['responses']} pass  "
                f"(target {TARGET_PER_S:.0f}/s: {met})\n{'':8s} stages (cpu, median): {stages}\n"
                f"{'':8s} deterministic: {row['deterministic']}; sha256 "
                f"{row['verdicts_sha256'][:16]}"
            )
        if len(rulesets) > 1:
            base = rows[str(rulesets[0])]["responses_per_s_cpu"]
            ratios = ", ".join(
                f"ruleset {r} / ruleset {rulesets[0]} = "
                f"{rows[str(r)]['responses_per_s_cpu'] / base:.2f}"
                for r in rulesets[1:]
            )
            print(f"{'':8s} interleaved medians: {ratios}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump({"schema_version": 3, "rulesets": rulesets, **report}, handle, indent=2)
    return 0


def _baseline_verify(rev: str) -> tuple[Callable[..., Any], Callable[[Path], Any]]:
    """``verify_response`` and ``Catalog.from_snapshot`` of revision ``rev``'s ``verifiers/``,
    imported as the package ``baseline_verifiers`` beside the checkout's (its absolute imports of
    ``replicas.verifiers`` rewritten), extracted read-only with ``git archive``."""
    import atexit
    import importlib
    import io
    import re
    import shutil
    import tarfile

    repo = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", rev, "verifiers"], capture_output=True, check=True
    ).stdout
    root = Path(tempfile.mkdtemp(prefix="compliance-baseline-"))
    atexit.register(shutil.rmtree, root, True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    package = root / "baseline_verifiers"
    (root / "verifiers").rename(package)
    for source in package.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        source.write_text(re.sub(r"\breplicas\.verifiers\b", "baseline_verifiers", text))
    sys.path.insert(0, str(root))
    module = importlib.import_module("baseline_verifiers.compliance")
    return module.verify_response, module.Catalog.from_snapshot


def _against_baseline(args: argparse.Namespace) -> int:
    """The revision's verifier and the checkout's, passes interleaved in this process."""
    from replicas.verifiers.compliance import Catalog, verify_response

    base_verify, base_load = _baseline_verify(args.baseline_rev)
    ruleset = (args.rulesets or [5])[0]
    snapshot = ensure_snapshot("credit_cards", args.seed)
    catalog = Catalog.from_snapshot(snapshot.path)
    base_catalog = base_load(snapshot.path)
    try:
        base_verify("", base_catalog, ruleset=ruleset)
    except ValueError as exc:
        print(f"error: revision {args.baseline_rev}: {exc}", file=sys.stderr)
        return 2
    print(f"baseline {args.baseline_rev} vs checkout, ruleset {ruleset}, CPU medians, interleaved")
    n = args.responses
    makers: dict[str, Callable[[int], list[str]]] = {
        "typical": lambda k: [typical_response(catalog, i, args.words) for i in range(n)],
        "varied": lambda k: [
            varied_response(catalog, (k + 1) * 100_000 + i, args.words) for i in range(n)
        ],
        "dense": lambda k: [dense_response(catalog, i, args.words) for i in range(n)],
    }
    sides = {
        "baseline": lambda t: base_verify(t, base_catalog, ruleset=ruleset),
        "checkout": lambda t: verify_response(t, catalog, ruleset=ruleset),
    }
    report: dict[str, Any] = {"baseline_rev": args.baseline_rev, "ruleset": ruleset}
    for name, make in makers.items():
        # the varied corpus: a new batch for every pass of every side (no warm cache)
        batches = iter([make(k) for k in range(2 * (args.repeats + 1))])
        for verify in sides.values():
            for t in next(batches):
                verify(t)
        texts = make(0)
        same = _digest([sides["baseline"](t) for t in texts]) == _digest(
            [sides["checkout"](t) for t in texts]
        )
        cpus: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(args.repeats):
            for side, verify in sides.items():
                batch = next(batches)
                c0 = time.process_time()
                for t in batch:
                    verify(t)
                cpus[side].append(time.process_time() - c0)
        rates = {side: n / statistics.median(v) for side, v in cpus.items()}
        report[name] = {**rates, "identical_verdicts": same}
        print(
            f"{name:8s} baseline {rates['baseline']:6.0f}/s  checkout {rates['checkout']:6.0f}/s  "
            f"ratio {rates['checkout'] / rates['baseline']:.2f}  verdicts identical: {same}  "
            f"(target {TARGET_PER_S:.0f}/s)"
        )
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump({"schema_version": 3, **report}, handle, indent=2)
    return 0


def _compare(args: argparse.Namespace, argv: Sequence[str]) -> int:
    """The revision's figures ("before", in a subprocess) and the checkout's ("after")."""
    passed = [a for a in argv if not a.startswith("--compare-rev")]
    if args.compare_rev in passed:
        passed.remove(args.compare_rev)
    with tempfile.TemporaryDirectory() as tmp:
        before_json = Path(tmp) / "before.json"
        after_json = Path(tmp) / "after.json"
        script = str(Path(__file__).resolve())
        for rev, out in ((args.compare_rev, before_json), (None, after_json)):
            extra = ["--verifier-rev", rev] if rev else []
            done = subprocess.run(
                [sys.executable, script, *passed, *extra, "--json", str(out)], check=False
            )
            if done.returncode != 0:
                return done.returncode
        before = json.loads(before_json.read_text(encoding="utf-8"))
        after = json.loads(after_json.read_text(encoding="utf-8"))
    print(f"\nbefore ({args.compare_rev}) -> after (checkout), CPU responses/s, median:")
    for corpus in ("typical", "dense"):
        b, a = before[corpus], after[corpus]
        print(
            f"  {corpus:8s} {b['responses_per_s_cpu']:6.0f}/s -> {a['responses_per_s_cpu']:6.0f}/s"
            f"  ({b['ms_per_response_cpu']:.2f} -> {a['ms_per_response_cpu']:.2f} ms; "
            f"target {TARGET_PER_S:.0f}/s)"
        )
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump({"schema_version": 2, "before": before, "after": after}, handle, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
