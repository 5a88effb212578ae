"""Compliance-verifier throughput: responses per second on ~800-word responses, in one process.

Usage: ``python benchmarks/bench_compliance.py [--seed 1] [--responses 200] [--repeats 5]
[--words 800] [--json OUT]``. Responses are compliant multi-card write-ups (prose, bullet lists,
tables, distractor sentences) from ``compliance_evalset.long_response``; a "claim-light" variant
keeps only every third paragraph's figures to show how cost scales with the number of claims.
Each repeat verifies every response once; medians are reported beside the time of the
unavoidable part (normalisation, the baseline) and per-stage costs. Targets are printed, never
asserted. Wall time and CPU time are both shown: on a shared machine CPU time is the steadier one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from replicas.build import ensure_snapshot
from replicas.verifiers._compliance_claims import extract
from replicas.verifiers._compliance_rules import evaluate
from replicas.verifiers._compliance_text import normalize
from replicas.verifiers.compliance import Catalog, verify_response
from replicas.verifiers.compliance_evalset import _DISTRACTORS, long_response

TARGET_PER_S = 2000.0


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


def _claim_light(text: str, index: int) -> str:
    """Keep the figures of every third paragraph; replace the others with plain prose."""
    parts = text.split("\n\n")
    filler = " ".join(_DISTRACTORS[:4])
    return "\n\n".join(p if i % 3 == 0 else filler for i, p in enumerate(parts, start=index))


def bench(catalog: Catalog, texts: Sequence[str], repeats: int) -> dict[str, Any]:
    n = len(texts)
    wall, cpu = _timed(lambda: [verify_response(t, catalog) for t in texts], repeats)
    norm_wall, norm_cpu = _timed(lambda: [normalize(t) for t in texts], repeats)
    norms = [normalize(t) for t in texts]
    names_wall, names_cpu = _timed(
        lambda: [catalog.names.find(x.text, x.lower) for x in norms], repeats
    )
    mentions = [catalog.names.find(x.text, x.lower) for x in norms]
    ex_wall, ex_cpu = _timed(
        lambda: [extract(x.text, x.lower, m) for x, m in zip(norms, mentions, strict=True)],
        repeats,
    )
    extractions = [extract(x.text, x.lower, m) for x, m in zip(norms, mentions, strict=True)]
    rules_wall, rules_cpu = _timed(
        lambda: [
            evaluate(catalog, x.lower, e, None) for x, e in zip(norms, extractions, strict=True)
        ],
        repeats,
    )
    return {
        "responses": n,
        "mean_words": statistics.mean(len(t.split()) for t in texts),
        "mean_claims": statistics.mean(len(e.claims) for e in extractions),
        "responses_per_s_wall": n / wall,
        "responses_per_s_cpu": n / cpu,
        "ms_per_response_cpu": 1000 * cpu / n,
        "baseline_normalise_ms_cpu": 1000 * norm_cpu / n,
        "ratio_to_baseline": cpu / norm_cpu if norm_cpu else None,
        "stages_ms_cpu": {
            "normalise": 1000 * norm_cpu / n,
            "names": 1000 * names_cpu / n,
            "extract": 1000 * ex_cpu / n,
            "rules": 1000 * rules_cpu / n,
        },
        "stages_ms_wall": {
            "normalise": 1000 * norm_wall / n,
            "names": 1000 * names_wall / n,
            "extract": 1000 * ex_wall / n,
            "rules": 1000 * rules_wall / n,
        },
        "target_per_s": TARGET_PER_S,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--responses", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--words", type=int, default=800)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args(argv)
    catalog = Catalog.from_snapshot(ensure_snapshot("credit_cards", args.seed))
    dense = [long_response(catalog, i, words=args.words) for i in range(args.responses)]
    light = [_claim_light(t, i) for i, t in enumerate(dense)]
    report = {
        "seed": args.seed,
        "repeats": args.repeats,
        "dense": bench(catalog, dense, args.repeats),
        "claim_light": bench(catalog, light, args.repeats),
    }
    for name in ("dense", "claim_light"):
        row = report[name]
        met = "met" if row["responses_per_s_cpu"] >= TARGET_PER_S else "MISSED"
        print(
            f"{name:12s} {row['mean_words']:6.0f} words {row['mean_claims']:5.1f} claims  "
            f"{row['responses_per_s_cpu']:8.0f}/s cpu  {row['responses_per_s_wall']:8.0f}/s wall  "
            f"{row['ms_per_response_cpu']:6.2f} ms  x{row['ratio_to_baseline']:.0f} normalise  "
            f"(target {TARGET_PER_S:.0f}/s: {met})"
        )
        stages = "  ".join(f"{k} {v:.2f}ms" for k, v in row["stages_ms_cpu"].items())
        print(f"{'':12s} stages (cpu): {stages}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as handle:
            json.dump({"schema_version": 1, **report}, handle, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
