"""Score the compliance verifier on items worded from the third phrasing pool (``compliance_alt_pool``).

Usage: ``python -m tests.compliance_alt_eval [--seeds 1 2 3] [--show-errors N] [--json]
[--items-out FILE] [--items FILE]``

The items are made by the evalset's own builder (``benchmarks/compliance_eval/build.py``: same
schedule of labels, hard-negative classes, defect sub-classes and checks), only worded from
``tests/compliance_alt_pool.py`` instead of the tuning or held-out pool; the scoring is the
evalset's own ``metrics``. This pool is written by the verifier's engineers, so it is no
substitute for the held-out split - it shows whether a rule generalises past the tuning
phrasings before the held-out numbers come back. It never builds or reads the held-out split.
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
from benchmarks.compliance_eval.score import metrics, render_errors, render_text, run_verifier
from tests import compliance_alt_pool

SPLIT = compliance_alt_pool.NAME


def build_alt_items(seeds: Sequence[int]) -> list[dict[str, Any]]:
    """The alt pool's items for ``seeds`` (150 per seed), labelled by the evalset's builder."""
    build.SPLITS.setdefault(SPLIT, compliance_alt_pool)
    items: list[dict[str, Any]] = []
    for seed in seeds:
        items += build.build_split(load_catalog(seed), SPLIT)
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--show-errors", type=int, default=0, metavar="N")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--items", type=Path, default=None, help="read items from a JSONL file")
    parser.add_argument("--items-out", type=Path, default=None, help="write the items as JSONL")
    args = parser.parse_args(argv)
    if args.items is not None:
        with args.items.open(encoding="utf-8") as fh:
            items = [json.loads(line) for line in fh if line.strip()]
        items = [i for i in items if i["seed"] in args.seeds]
    else:
        items = build_alt_items(args.seeds)
    if args.items_out is not None:
        with args.items_out.open("w", encoding="utf-8") as fh:
            for item in items:
                fh.write(json.dumps(item) + "\n")
    predicted = run_verifier(items, None)
    result = metrics(items, predicted)
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(render_text(SPLIT, result))
    if args.show_errors:
        print(render_errors(items, predicted, args.show_errors))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
