"""Score the compliance verifier on items worded from the verifier's own phrasing pools.

Usage: ``python -m tests.compliance_alt_eval [--pool alt|fresh] [--seeds 1 2 3]
[--show-errors N] [--json] [--items-out FILE] [--items FILE]``

The items are made by the evalset's own builder (``benchmarks/compliance_eval/build.py``: same
schedule of labels, hard-negative classes, defect sub-classes and checks), only worded from
``tests/compliance_alt_pool.py`` (``alt``, used to find and fix rules that fit the tuning
phrasings) or ``tests/compliance_fresh_pool.py`` (``fresh``, written later and kept as a check)
instead of the tuning or held-out pool; the scoring is the evalset's own ``metrics``. These
pools are written by the verifier's engineers, so they are no substitute for the held-out split -
they show whether a rule generalises past the tuning phrasings before the held-out numbers come
back. Nothing here builds or reads the held-out split.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.compliance_eval import build
from benchmarks.compliance_eval.catalog import load_catalog
from benchmarks.compliance_eval.score import (
    load_verifier_rev,
    metrics,
    render_errors,
    render_text,
    run_verifier,
)
from tests import compliance_alt_pool, compliance_fresh_pool

POOLS = {pool.NAME: pool for pool in (compliance_alt_pool, compliance_fresh_pool)}


def build_alt_items(seeds: Sequence[int], pool: str = "alt") -> list[dict[str, Any]]:
    """A pool's items for ``seeds`` (150 per seed), labelled by the evalset's builder."""
    if pool not in POOLS:
        raise ValueError(f"unknown pool {pool!r}; choose from {sorted(POOLS)}")
    build.SPLITS.setdefault(pool, POOLS[pool])
    items: list[dict[str, Any]] = []
    for seed in seeds:
        items += build.build_split(load_catalog(seed), pool)
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pool", choices=sorted(POOLS), default="alt")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--show-errors", type=int, default=0, metavar="N")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--items", type=Path, default=None, help="read items from a JSONL file")
    parser.add_argument("--items-out", type=Path, default=None, help="write the items as JSONL")
    parser.add_argument(
        "--verifier-rev", default=None, help="score the verifiers/ tree of this git revision"
    )
    args = parser.parse_args(argv)
    if args.verifier_rev:
        print(f"verifier: {load_verifier_rev(args.verifier_rev)['rev']}")
    if args.items is not None:
        with args.items.open(encoding="utf-8") as fh:
            items = [json.loads(line) for line in fh if line.strip()]
        items = [i for i in items if i["seed"] in args.seeds]
    else:
        items = build_alt_items(args.seeds, args.pool)
    if args.items_out is not None:
        with args.items_out.open("w", encoding="utf-8") as fh:
            for item in items:
                fh.write(json.dumps(item) + "\n")
    predicted = run_verifier(items, None)
    result = metrics(items, predicted)
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(render_text(args.pool, result))
    if args.show_errors:
        print(render_errors(items, predicted, args.show_errors))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
