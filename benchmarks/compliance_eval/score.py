"""Score the compliance verifier on the independent evalset.

Usage: ``python benchmarks/compliance_eval/score.py --seeds 1 2 3 --split tuning|heldout|both
[--json] [--show-errors N] [--items DIR]``

Runs ``verify_response`` on every item (built in-process from the seeds' snapshots, or read from
``--items DIR`` written by ``build.py``) and reports, per reason code, precision and recall with
Wilson 95 % intervals, the false-positive rate on compliant items, and breakdowns by hard-negative
class, defect sub-class and layout. ``--show-errors N`` prints up to N misses and N false flags
with their texts - for the tuning split only: held-out texts are never printed, so the held-out
split stays unseen by whoever tunes the verifier.

Only the verifier's public entry points are used (``Catalog``, ``verify_response``).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.compliance_eval.build import (
    HARD_NEGATIVES,
    REASON_CODES,
    SPLITS,
    build_items,
)

Z95 = 1.959963984540054
REPO = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


def verifier_identity() -> dict[str, Any]:
    """Which verifier the numbers are for: the checkout's commit and whether verifiers/ is edited."""
    try:
        return {
            "rev": _git("rev-parse", "HEAD"),
            "uncommitted_changes": bool(_git("status", "--porcelain", "--", "verifiers")),
        }
    except (OSError, ValueError):
        return {"rev": None, "uncommitted_changes": None}


def load_verifier_rev(rev: str) -> dict[str, Any]:
    """Make ``replicas.verifiers`` the ``verifiers/`` tree of git revision ``rev``.

    For before/after comparisons of the verifier on the same items; must run before anything
    imports ``replicas.verifiers``. The tree is extracted to a temporary directory (read-only use
    of git), so the working checkout is untouched.
    """
    if "replicas.verifiers" in sys.modules:
        raise ValueError("replicas.verifiers is already imported; cannot swap in another revision")
    resolved = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", resolved, "verifiers"], capture_output=True, check=True
    ).stdout
    root = Path(tempfile.mkdtemp(prefix="compliance-verifier-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    package = root / "verifiers"
    spec = importlib.util.spec_from_file_location(
        "replicas.verifiers", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise ValueError(f"no verifiers package at {rev}")
    # Older revisions imported the read-only opener from where it lived then (replicas.sandbox);
    # point that name at today's replicas.db so they run unchanged.
    import replicas.sandbox
    from replicas.db import open_readonly

    if not hasattr(replicas.sandbox, "open_readonly"):
        replicas.sandbox.open_readonly = open_readonly  # type: ignore[attr-defined]
    module = importlib.util.module_from_spec(spec)
    sys.modules["replicas.verifiers"] = module
    spec.loader.exec_module(module)
    return {"rev": resolved, "uncommitted_changes": False, "requested": rev}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for k successes in n trials (None when n == 0)."""
    if n == 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


def _rate(k: int, n: int) -> dict[str, Any]:
    ci = wilson(k, n)
    return {
        "k": k,
        "n": n,
        "rate": (k / n) if n else None,
        "ci95": list(ci) if ci else None,
    }


def load_items(directory: Path, splits: Iterable[str]) -> list[dict[str, Any]]:
    items = []
    for split in splits:
        path = directory / f"{split}.jsonl"
        if not path.is_file():
            raise ValueError(f"{path} does not exist (build it with build.py --out {directory})")
        with path.open(encoding="utf-8") as fh:
            items += [json.loads(line) for line in fh if line.strip()]
    return items


def run_verifier(
    items: Sequence[dict[str, Any]], scale: float | None, ruleset: int | None = None
) -> list[set[str]]:
    """The set of reason codes the verifier reports for each item (``ruleset``: the verifier's
    ruleset version, ``None`` for its default; revisions without rulesets take no argument)."""
    # Imported here so `--help` works without building anything.
    from replicas import ensure_snapshot
    from replicas.verifiers.compliance import Catalog, verify_response

    catalogs: dict[int, Any] = {}
    out = []
    for item in items:
        seed = item["seed"]
        if seed not in catalogs:
            catalogs[seed] = Catalog.from_snapshot(
                ensure_snapshot("credit_cards", seed, scale).path
            )
        extra = {} if ruleset is None else {"ruleset": ruleset}
        verdict = verify_response(
            item["text"], catalogs[seed], customer_id=item["customer_id"], **extra
        )
        out.append(set(verdict.codes))
    return out


def metrics(items: Sequence[dict[str, Any]], predicted: Sequence[set[str]]) -> dict[str, Any]:
    per_code: dict[str, dict[str, Any]] = {}
    for code in REASON_CODES:
        tp = sum(
            1
            for i, p in zip(items, predicted, strict=True)
            if code in i["expected_codes"] and code in p
        )
        fp = sum(
            1
            for i, p in zip(items, predicted, strict=True)
            if code not in i["expected_codes"] and code in p
        )
        fn = sum(
            1
            for i, p in zip(items, predicted, strict=True)
            if code in i["expected_codes"] and code not in p
        )
        per_code[code] = {
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "precision": _rate(tp, tp + fp),
            "recall": _rate(tp, tp + fn),
        }
    compliant = [(i, p) for i, p in zip(items, predicted, strict=True) if not i["expected_codes"]]
    defective = [(i, p) for i, p in zip(items, predicted, strict=True) if i["expected_codes"]]
    flagged = [(i, p) for i, p in compliant if p]
    fp_codes = Counter(c for _, p in flagged for c in p)

    by_hn: dict[str, list[bool]] = defaultdict(list)
    for i, p in compliant:
        by_hn[i["primary_hard_negative"]].append(bool(p))
    lookalike: dict[str, dict[str, Any]] = {}
    for hn, code in HARD_NEGATIVES.items():
        rows = [(i, p) for i, p in compliant if i["primary_hard_negative"] == hn]
        lookalike[hn] = {
            "lookalike_of": code,
            "flagged_any": _rate(sum(1 for _, p in rows if p), len(rows)),
            "flagged_as_lookalike": _rate(sum(1 for _, p in rows if code in p), len(rows)),
        }
    by_sub: dict[str, dict[str, Any]] = {}
    for i, p in defective:
        key = f"{i['planted']['code']}/{i['planted']['subclass']}"
        row = by_sub.setdefault(key, {"n": 0, "caught": 0, "exact": 0})
        row["n"] += 1
        row["caught"] += i["planted"]["code"] in p
        row["exact"] += p == set(i["expected_codes"])
    for row in by_sub.values():
        row["recall"] = _rate(row["caught"], row["n"])
    by_style: dict[str, dict[str, Any]] = {}
    for i, p in zip(items, predicted, strict=True):
        row = by_style.setdefault(
            i["style"], {"compliant": 0, "false_flags": 0, "defective": 0, "caught": 0}
        )
        if i["expected_codes"]:
            row["defective"] += 1
            row["caught"] += i["expected_codes"][0] in p
        else:
            row["compliant"] += 1
            row["false_flags"] += bool(p)
    for row in by_style.values():
        row["fp_rate"] = _rate(row["false_flags"], row["compliant"])
        row["recall"] = _rate(row["caught"], row["defective"])
    by_tag: dict[str, dict[str, Any]] = {}
    for tag in ("lowercase", "british", "emoji"):
        rows = [(i, p) for i, p in zip(items, predicted, strict=True) if tag in i["tags"]]
        comp = [p for i, p in rows if not i["expected_codes"]]
        defs = [(i, p) for i, p in rows if i["expected_codes"]]
        by_tag[tag] = {
            "fp_rate": _rate(sum(1 for p in comp if p), len(comp)),
            "recall": _rate(sum(1 for i, p in defs if i["expected_codes"][0] in p), len(defs)),
        }
    return {
        "items": len(items),
        "compliant": len(compliant),
        "defective": len(defective),
        "per_code": per_code,
        "compliant_fp_rate": _rate(len(flagged), len(compliant)),
        "compliant_fp_codes": dict(sorted(fp_codes.items())),
        "defect_detection": _rate(sum(1 for _, p in defective if p), len(defective)),
        "defect_exact_match": _rate(
            sum(1 for i, p in defective if p == set(i["expected_codes"])), len(defective)
        ),
        "item_accuracy": _rate(
            sum(
                1
                for i, p in zip(items, predicted, strict=True)
                if bool(p) == bool(i["expected_codes"])
            ),
            len(items),
        ),
        "hard_negatives": lookalike,
        "subclasses": dict(sorted(by_sub.items())),
        "styles": dict(sorted(by_style.items())),
        "tags": by_tag,
    }


def _fmt_rate(r: dict[str, Any]) -> str:
    if not r["n"]:
        return "   n/a           (0/0)"
    lo, hi = r["ci95"]
    return f"{r['rate']:.3f} [{lo:.3f}, {hi:.3f}] ({r['k']}/{r['n']})"


def render_text(name: str, m: dict[str, Any]) -> str:
    lines = [
        f"== split: {name}  items={m['items']}  compliant={m['compliant']}  defective={m['defective']}",
        f"false-positive rate on compliant items: {_fmt_rate(m['compliant_fp_rate'])}",
        f"  codes raised on compliant items: {m['compliant_fp_codes'] or '{}'}",
        f"defective items flagged (any code):     {_fmt_rate(m['defect_detection'])}",
        f"defective items, exact code set:        {_fmt_rate(m['defect_exact_match'])}",
        f"item accuracy (pass/fail right):        {_fmt_rate(m['item_accuracy'])}",
        "",
        f"{'reason code':<20} {'precision [95% CI]':<36} {'recall [95% CI]':<36}",
    ]
    for code, row in m["per_code"].items():
        lines.append(f"{code:<20} {_fmt_rate(row['precision']):<36} {_fmt_rate(row['recall']):<36}")
    lines += [
        "",
        f"{'hard negative (compliant)':<26} {'looks like':<19} {'flagged as that code':<32} flagged (any)",
    ]
    for hn, row in m["hard_negatives"].items():
        lines.append(
            f"{hn:<26} {row['lookalike_of']:<19} {_fmt_rate(row['flagged_as_lookalike']):<32} {_fmt_rate(row['flagged_any'])}"
        )
    lines += ["", f"{'defect sub-class':<40} recall"]
    for sub, row in m["subclasses"].items():
        lines.append(f"{sub:<40} {_fmt_rate(row['recall'])}")
    lines += ["", f"{'layout':<18} {'FP rate (compliant)':<32} recall (defective)"]
    for style, row in m["styles"].items():
        lines.append(f"{style:<18} {_fmt_rate(row['fp_rate']):<32} {_fmt_rate(row['recall'])}")
    lines += ["", f"{'tag':<18} {'FP rate (compliant)':<32} recall (defective)"]
    for tag, row in m["tags"].items():
        lines.append(f"{tag:<18} {_fmt_rate(row['fp_rate']):<32} {_fmt_rate(row['recall'])}")
    return "\n".join(lines)


def render_errors(items: Sequence[dict[str, Any]], predicted: Sequence[set[str]], n: int) -> str:
    misses = [(i, p) for i, p in zip(items, predicted, strict=True) if set(i["expected_codes"]) - p]
    false = [(i, p) for i, p in zip(items, predicted, strict=True) if p - set(i["expected_codes"])]
    out = [f"-- misses ({len(misses)} items; showing {min(n, len(misses))})"]
    for i, p in misses[:n]:
        pl = i["planted"]
        out += [
            f"[{i['id']}] expected {i['expected_codes']} ({pl['subclass']}: {pl['detail']}); got {sorted(p)}",
            f"    planted span: {pl['span_text']!r}",
            _indent(i["text"]),
            "",
        ]
    out.append(f"-- false flags ({len(false)} items; showing {min(n, len(false))})")
    for i, p in false[:n]:
        extra = sorted(p - set(i["expected_codes"]))
        what = i["primary_hard_negative"] or i["planted"]["code"]
        out += [
            f"[{i['id']}] expected {i['expected_codes']} ({what}); extra codes {extra}",
            _indent(i["text"]),
            "",
        ]
    return "\n".join(out)


def _indent(text: str) -> str:
    return "\n".join("    | " + line for line in text.splitlines())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--split", choices=("tuning", "heldout", "both"), default="tuning")
    parser.add_argument("--scale", type=float, default=None)
    parser.add_argument("--items", type=Path, default=None, help="read items written by build.py")
    parser.add_argument("--json", action="store_true", help="print metrics as JSON")
    parser.add_argument("--show-errors", type=int, default=0, metavar="N", help="tuning only")
    parser.add_argument(
        "--ruleset",
        type=int,
        default=None,
        help="verifier ruleset version (default: the verifier's default; 3 = the frozen one)",
    )
    parser.add_argument(
        "--verifier-rev",
        default=None,
        metavar="REV",
        help="score the verifiers/ tree of this git revision instead of the checkout's",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.show_errors < 0:
        print("error: --show-errors must be >= 0", file=sys.stderr)
        return 2
    splits = list(SPLITS) if args.split == "both" else [args.split]
    try:
        verifier = (
            load_verifier_rev(args.verifier_rev) if args.verifier_rev else verifier_identity()
        )
    except (ValueError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        if args.items is not None:
            items = [i for i in load_items(args.items, splits) if i["seed"] in args.seeds]
        else:
            items = [i for i in build_items(args.seeds, args.scale) if i["split"] in splits]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not items:
        print("error: no items for these seeds/splits", file=sys.stderr)
        return 2
    try:
        predicted = run_verifier(items, args.scale, args.ruleset)
    except (ValueError, TypeError) as exc:
        print(f"error: --ruleset {args.ruleset}: {exc}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {
        "seeds": args.seeds,
        "verifier": verifier,
        "ruleset": args.ruleset,
        "splits": {},
    }
    for split in splits:
        idx = [k for k, i in enumerate(items) if i["split"] == split]
        report["splits"][split] = metrics([items[k] for k in idx], [predicted[k] for k in idx])
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
    else:
        dirty = " + uncommitted changes in verifiers/" if verifier["uncommitted_changes"] else ""
        ruleset = "default" if args.ruleset is None else args.ruleset
        print(f"seeds: {args.seeds}   verifier: {verifier['rev']}{dirty}   ruleset: {ruleset}")
        for split, m in report["splits"].items():
            print(render_text(split, m))
            print()
    if args.show_errors:
        if "heldout" in splits:
            print(
                "(held-out texts are not printed: the split must stay unseen by whoever tunes the verifier)"
            )
        if "tuning" in splits:
            idx = [k for k, i in enumerate(items) if i["split"] == "tuning"]
            print(
                render_errors(
                    [items[k] for k in idx], [predicted[k] for k in idx], args.show_errors
                )
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
