"""Every verdict of the published rulesets on every text we have, for before/after comparisons.

Usage: ``python -m benchmarks.compliance_eval.dump_verdicts OUT.json [--rev REV] [--rulesets 3 4 5 6 7 8 9]``.

A speed-up of the verifier must not change one verdict. This writes, per ruleset, the verdict
(sorted-key JSON) of: both evalset splits on seeds 1-3, both probe corpora (with and without
their customer), every text of the verifier's test modules (under no customer and customer C1),
and 200 answers of each benchmark corpus (typical, varied - no sentence repeated - and dense).
``--rev REV`` runs the ``verifiers/`` tree of a git revision instead of the checkout (extracted
read-only with ``git archive``). Compare two dumps with ``--compare A.json B.json``: it prints the
number of verdicts per ruleset and the ids (never texts: held-out items stay unseen) of any that
differ, and exits 1 if one does.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
_CASE_MODULES = (
    "compliance_cases",
    "test_compliance",
    "test_compliance_v2",
    "test_compliance_v3",
    "test_compliance_ruleset",
    "test_compliance_ruleset5",
    "test_compliance_ruleset6",
    "test_compliance_ruleset7",
    "test_compliance_ruleset8",
    "test_compliance_ruleset9",
    "test_compliance_ruleset10",
    "test_compliance_ruleset11",
    "test_compliance_ruleset12",
)


def case_texts() -> list[str]:
    """The string literals (and first elements of tuples) of the test modules' list constants,
    read from their source so that an old verifier never imports today's test helpers."""
    texts: list[str] = []
    for name in _CASE_MODULES:
        path = REPO / "tests" / f"{name}.py"
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = getattr(node, "value", None)
            if not isinstance(value, ast.List):
                continue
            for element in value.elts:
                try:
                    entry = ast.literal_eval(element)
                except ValueError:
                    continue
                if isinstance(entry, str):
                    texts.append(entry)
                elif isinstance(entry, tuple) and entry and isinstance(entry[0], str):
                    texts.append(entry[0])
    return sorted(set(texts))


def dump(rulesets: list[int], responses: int) -> dict[str, dict[str, str]]:
    """``{ruleset: {item id: verdict JSON}}`` over every source (see the module docstring)."""
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_compliance import dense_response, typical_response, varied_response

    from benchmarks.compliance_eval.build import build_items
    from replicas.build import ensure_snapshot
    from replicas.verifiers.compliance import Catalog, verify_response
    from tests.compliance_cases import CARDS, ELIGIBILITY
    from tests.corpora.compliance_probe import PROBE_CARDS, PROBE_ELIGIBILITY, probe_items
    from tests.corpora.compliance_probe_b import B_CARDS, B_ELIGIBILITY, probe_b_items

    jobs: list[tuple[str, str, Any, Any]] = []  # (id, text, catalog, customer)
    corpora: list[tuple[Any, Any, list[Any], str]] = [
        (PROBE_CARDS, PROBE_ELIGIBILITY, list(probe_items()), "a"),
        (B_CARDS, B_ELIGIBILITY, list(probe_b_items()), "b"),
    ]
    for cards, eligibility, items, tag in corpora:
        probe = Catalog.from_records(cards, eligibility)
        for item in items:
            for customer in sorted({None, item.customer_id}, key=str):
                jobs.append((f"probe{tag}:{item.item_id}:{customer}", item.text, probe, customer))
    hand = Catalog.from_records(CARDS, ELIGIBILITY)
    for text in case_texts():
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        for customer in (None, "C1"):
            jobs.append((f"case:{customer}:{digest}", text, hand, customer))
    catalogs: dict[int, Any] = {}
    for item in build_items([1, 2, 3], None):
        seed = item["seed"]
        if seed not in catalogs:
            catalogs[seed] = Catalog.from_snapshot(ensure_snapshot("credit_cards", seed).path)
        jobs.append((item["id"], item["text"], catalogs[seed], item["customer_id"]))
    makers = (("typical", typical_response), ("varied", varied_response), ("dense", dense_response))
    for i in range(responses):
        for name, make in makers:
            jobs.append((f"bench:{name}:{i}", make(catalogs[1], i, 800), catalogs[1], None))
    out: dict[str, dict[str, str]] = {}
    for ruleset in rulesets:
        out[str(ruleset)] = {
            key: json.dumps(
                verify_response(text, catalog, customer_id=customer, ruleset=ruleset).to_dict(),
                sort_keys=True,
            )
            for key, text, catalog, customer in jobs
        }
    return out


def compare(first: Path, second: Path) -> int:
    a = json.loads(first.read_text(encoding="utf-8"))
    b = json.loads(second.read_text(encoding="utf-8"))
    status = 0
    for ruleset in sorted(set(a) | set(b)):
        if ruleset not in a or ruleset not in b:
            print(f"ruleset {ruleset}: only in {'B' if ruleset not in a else 'A'}, not compared")
            continue
        left, right = a[ruleset], b[ruleset]
        changed = sorted(k for k in set(left) | set(right) if left.get(k) != right.get(k))
        flagged = sum('"passed": false' in v for v in left.values())
        print(
            f"ruleset {ruleset}: {len(left)} vs {len(right)} verdicts ({flagged} not passed), "
            f"{len(changed)} differ{': ' + ', '.join(changed[:20]) if changed else ''}"
        )
        status |= bool(changed) or not left or left.keys() != right.keys()
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", help="write the dump here")
    parser.add_argument("--rev", default=None, help="dump this git revision's verifier")
    parser.add_argument("--rulesets", type=int, nargs="+", default=[3, 4, 5, 6, 7, 8, 9])
    parser.add_argument("--responses", type=int, default=200)
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    if not args.out:
        parser.error("give OUT (where to write the dump) or --compare A B")
    if args.rev:
        sys.path.insert(0, str(REPO))
        from benchmarks.compliance_eval.score import load_verifier_rev

        load_verifier_rev(args.rev)
    data = dump(args.rulesets, args.responses)
    target = Path(args.out)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(data), encoding="utf-8")
    partial.replace(target)
    for ruleset, verdicts in data.items():
        print(f"ruleset {ruleset}: {len(verdicts)} verdicts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
