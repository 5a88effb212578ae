"""Ruleset 3 is frozen: its verdicts are byte-identical to the verifier before rulesets existed.

The "before" is not a stored list: the ``verifiers/`` tree of git revision ``BEFORE_RULESETS``
(the last commit before ruleset 4) is extracted from git into a temporary directory and run in a
subprocess (``benchmarks/compliance_eval/score.load_verifier_rev``); the checkout's verifier runs
with ``ruleset=3`` in another subprocess on the same texts, and the two sets of verdicts (each
serialised as sorted-key JSON) must be equal byte for byte. Texts: both splits of the evalset
(seeds 1-3; only counts and ids are ever reported, no held-out text), every compliant and
violating text of the verifier's test corpora (under no customer and under customer C1), the
new ruleset-4 cases, and the throughput benchmark's typical and dense answers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BEFORE_RULESETS = "ecd2f56d9237b5095af7657e75f39eafb627046e"

_SCRIPT = r"""
import ast, hashlib, json, sys
sys.path.insert(0, sys.argv[1])
rev, out = sys.argv[2], sys.argv[3]
from benchmarks.compliance_eval.score import load_verifier_rev
extra = {}
if rev != "checkout":
    load_verifier_rev(rev)
else:
    extra = {"ruleset": 3}
from replicas.build import ensure_snapshot
from replicas.verifiers.compliance import Catalog, verify_response
from benchmarks.compliance_eval.build import build_items
from tests.compliance_cases import CARDS, ELIGIBILITY

def case_texts():
    # read from the test modules' source (importing them would import today's verifier API)
    texts = []
    for name in ("compliance_cases", "test_compliance", "test_compliance_v2",
                 "test_compliance_v3", "test_compliance_ruleset"):
        tree = ast.parse(open(f"{sys.argv[1]}/tests/{name}.py", encoding="utf-8").read())
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

records = {}
hand = Catalog.from_records(CARDS, ELIGIBILITY)
for text in case_texts():
    for customer in (None, "C1"):
        v = verify_response(text, hand, customer_id=customer, **extra)
        records[f"case:{customer}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"] = v.to_dict()
catalogs = {}
for item in build_items([1, 2, 3], None):
    seed = item["seed"]
    if seed not in catalogs:
        catalogs[seed] = Catalog.from_snapshot(ensure_snapshot("credit_cards", seed).path)
    v = verify_response(item["text"], catalogs[seed], customer_id=item["customer_id"], **extra)
    records[item["id"]] = v.to_dict()
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_compliance import dense_response, typical_response
for i in range(40):
    for name, make in (("typical", typical_response), ("dense", dense_response)):
        v = verify_response(make(catalogs[1], i, 800), catalogs[1], **extra)
        records[f"bench:{name}:{i}"] = v.to_dict()
with open(out, "w", encoding="utf-8") as fh:
    json.dump({k: json.dumps(v, sort_keys=True) for k, v in records.items()}, fh)
"""


def _verdicts(rev: str, out: Path) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(REPO), rev, str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data: dict[str, str] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _have_revision() -> bool:
    done = subprocess.run(
        ["git", "-C", str(REPO), "cat-file", "-e", f"{BEFORE_RULESETS}^{{commit}}"],
        capture_output=True,
    )
    return done.returncode == 0


@pytest.mark.slow
def test_ruleset_3_verdicts_are_byte_identical_to_the_revision_before_rulesets(
    tmp_path: Path,
) -> None:
    if not _have_revision():
        pytest.fail(f"git revision {BEFORE_RULESETS} is not in this clone (a shallow clone?)")
    before = _verdicts(BEFORE_RULESETS, tmp_path / "before.json")
    after = _verdicts("checkout", tmp_path / "after.json")
    assert before.keys() == after.keys()
    assert len(before) > 1400  # 900 evalset items, ~290 case texts twice, 80 bench answers
    changed = sorted(k for k in before if before[k] != after[k])
    # ids only: a held-out item's text is never printed
    assert not changed, f"{len(changed)} verdicts changed under ruleset 3: {changed[:20]}"
    flagged = sum('"passed": false' in v for v in before.values())
    assert flagged > 300  # the corpora exercise the violation paths, not only compliant text
