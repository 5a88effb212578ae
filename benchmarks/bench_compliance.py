"""Compliance-verifier throughput: responses per second on ~800-word responses, in one process.

Usage: ``python benchmarks/bench_compliance.py [--seed 1] [--responses 200] [--repeats 7]
[--words 800] [--json OUT]``.

Two corpora, both compliant and deterministic in the seed:

* ``typical`` - what an assistant answer recommending a card looks like: three or four cards, each
  with a short section of terms (a paragraph or a bullet list), advice prose around them that
  names the cards but states no figure, a compact comparison table in about half of them and a
  bottom line. About 800 words with **20-40 figures** (seed 1: mean 26.5 claims, 10th-90th
  percentile 15-38): most of the text is advice, so much of the cost is reading prose, not
  checking terms. The throughput target (2,000 responses/s) is stated for this corpus.
* ``dense`` - ``compliance_evalset.long_response``: card write-ups and tables back to back, ~86
  claims in ~900 words; the worst realistic case (a terms sheet rather than an answer).

Each repeat verifies every response once; the median over repeats is reported. CPU time
(``time.process_time``) is the headline figure because other work shares the machine; wall time is
shown too. Per-stage costs (normalise, names, extraction, rules) come from timing each stage on
its own. Targets are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from replicas.build import ensure_snapshot
from replicas.generators._rng import table_rng
from replicas.verifiers._compliance_claims import extract
from replicas.verifiers._compliance_rules import evaluate
from replicas.verifiers._compliance_text import normalize
from replicas.verifiers.compliance import Catalog, verify_response
from replicas.verifiers.compliance_evalset import (
    Spec,
    View,
    Writer,
    _bullets,
    _choose_terms,
    _prose,
    _prose_rich,
    _table,
    long_response,
)

TARGET_PER_S = 2000.0

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


def typical_response(catalog: Catalog, seed: int, words: int = 800) -> str:
    """A realistic ~``words``-word answer recommending one of three or four cards.

    Each card gets a short section of terms (always including its annual fee, so recommending it
    is compliant) wrapped in advice that names the card but states no figure; 60% of the answers
    add a comparison table of the first three. Deterministic in ``seed``.
    """
    if words < 200:
        raise ValueError(f"words must be >= 200, got {words}")
    w = Writer(table_rng(seed, "compliance_typical_response", words))
    cards = list(catalog.cards)
    k = min(len(cards), w.pick([3, 4, 4]))
    group = [cards[int(i)] for i in w.rng.choice(len(cards), size=k, replace=False)]
    specs = []
    for index, card in enumerate(group):
        view = View.of(card)
        specs.append(Spec(view, _choose_terms(w, view, must=["annual"]), recommended=index == 0))
    parts = [w.pick(_OPENERS)]
    for spec in specs:
        name = spec.view.name
        advice = " ".join(w.pick(_ADVICE).format(name=name) for _ in range(3))
        if w.chance(0.4):
            parts.append(f"{_bullets(w, spec)}\n\n{advice}")
        else:
            body = w.pick([_prose_rich, _prose])(w, spec)
            parts.append(f"### {name}\n\n{body}\n\n{advice}")
    if w.chance(0.6):
        parts.append("Here's how they compare:\n\n" + _table(w, specs[:3]))
    parts.append(w.pick(_BOTTOM).format(name=specs[0].view.name))
    general = list(_GENERAL)
    while sum(len(p.split()) for p in parts) < words and general:
        parts.insert(-1, general.pop(int(w.rng.integers(0, len(general)))))
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


def bench(catalog: Catalog, texts: Sequence[str], repeats: int) -> dict[str, Any]:
    n = len(texts)
    wall, cpu = _timed(lambda: [verify_response(t, catalog) for t in texts], repeats)
    norms = [normalize(t) for t in texts]
    mentions = [catalog.names.find(x.text, x.lower) for x in norms]
    extractions = [extract(x.text, x.lower, m) for x, m in zip(norms, mentions, strict=True)]
    stages = {
        "normalise": lambda: [normalize(t) for t in texts],
        "names": lambda: [catalog.names.find(x.text, x.lower) for x in norms],
        "extract": lambda: [
            extract(x.text, x.lower, m) for x, m in zip(norms, mentions, strict=True)
        ],
        "rules": lambda: [
            evaluate(catalog, x.lower, e, None) for x, e in zip(norms, extractions, strict=True)
        ],
    }
    stage_cpu = {name: 1000 * _timed(fn, repeats)[1] / n for name, fn in stages.items()}
    verdicts = [verify_response(t, catalog) for t in texts]
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
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--responses", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--words", type=int, default=800)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    catalog = Catalog.from_snapshot(ensure_snapshot("credit_cards", args.seed))
    corpora = {
        "typical": [typical_response(catalog, i, args.words) for i in range(args.responses)],
        "dense": [long_response(catalog, i, words=args.words) for i in range(args.responses)],
    }
    report: dict[str, Any] = {"seed": args.seed, "repeats": args.repeats}
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
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump({"schema_version": 2, **report}, handle, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
