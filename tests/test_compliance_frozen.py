"""Published rulesets are frozen: their verdicts are byte-identical to the revision that published them.

* Ruleset 3 against the verifier before rulesets existed (``BEFORE_RULESETS``, stop 19: the last
  commit before ruleset 4; it takes no ``ruleset`` argument).
* Ruleset 4 against the revision that published it as the default (``RULESET_4_PUBLISHED``,
  stop 20), run there with ``ruleset=4``.
* Ruleset 5 against the revision that published it as the default (``RULESET_5_PUBLISHED``,
  stop 21), run there with ``ruleset=5``.
* Ruleset 6 against the revision that published it opt-in (``RULESET_6_PUBLISHED``, ``108c5a5``),
  run there with ``ruleset=6``.
* Ruleset 7 against the revision that published it opt-in (``RULESET_7_PUBLISHED``, ``1e7a8a5``,
  stop 23), run there with ``ruleset=7``.
* Ruleset 8 against the revision that published it opt-in (``RULESET_8_PUBLISHED``, ``91b5288``),
  run there with ``ruleset=8``.
* Ruleset 9 against the revision that published it as the default (``RULESET_9_PUBLISHED``,
  ``0c36181``, stop 24), run there with ``ruleset=9``.
* Ruleset 10 against the revision that published it as the default (``RULESET_10_PUBLISHED``,
  ``0a8e533``, stop 25: the last change to ``verifiers/`` of that stop), run there with
  ``ruleset=10``.
* Ruleset 11 against the revision that published it opt-in (``RULESET_11_PUBLISHED``,
  ``c2e8940``, session 11: the last change to ``verifiers/`` of its author), run there with
  ``ruleset=11``; it became the default later in the same stop with no change to its code.
* Ruleset 12 against the revision that published it opt-in (``RULESET_12_PUBLISHED``,
  ``0801913``, session 12: the last change to ``verifiers/`` of its author), run there with
  ``ruleset=12``.
* Ruleset 13 against the revision that published it (``RULESET_13_PUBLISHED``, ``2ea99ce``,
  session 13: the last change to ``verifiers/`` of its author; the default since ``9759932``,
  which changed no verifier code), run there with ``ruleset=13``.
* Ruleset 14 against the revision that published it (``RULESET_14_PUBLISHED``, ``584441f``,
  session 14: the last change to ``verifiers/`` before it became the default, which changed no
  verifier code), run there with ``ruleset=14``.
* Ruleset 15 against the revision that published it (``RULESET_15_PUBLISHED``, ``29d30ec``,
  stop 30: the last change to ``verifiers/`` of its author), run there with ``ruleset=15``.
* Ruleset 16 against the revision that published it as the default (``RULESET_16_PUBLISHED``,
  ``89ed2ff``, stop 30), run there with ``ruleset=16``.
* Ruleset 17 against the revision that published it as the default (``RULESET_17_PUBLISHED``,
  ``556cfa7``, stop 31), run there with ``ruleset=17``.
* Ruleset 18 against the revision that published it as the default (``RULESET_18_PUBLISHED``,
  ``a52aab1``, stop 32: its last change to ``verifiers/``), run there with ``ruleset=18``.
* Ruleset 19 against the revision that published it as the default (``RULESET_19_PUBLISHED``,
  ``d446b9d``, stop 33: its last change to ``verifiers/``), run there with ``ruleset=19``.
* Ruleset 20 against the revision that published it as the default (``RULESET_20_PUBLISHED``,
  ``60695be``, stop 34: its last change to ``verifiers/``), run there with ``ruleset=20``.
* Ruleset 21 against the revision that published it as the default (``RULESET_21_PUBLISHED``,
  ``a526891``, stop 35: its last change to ``verifiers/``, the speed-up merge), run there with
  ``ruleset=21``.
* Ruleset 22 against the revision that published it opt-in (``RULESET_22_PUBLISHED``,
  ``19437cc``, stop 36: its last change to ``verifiers/``), run there with ``ruleset=22``.
* Ruleset 23 against the revision that published it as the default (``RULESET_23_PUBLISHED``,
  ``5eb1733``, stop 37: its last change to ``verifiers/``, a comment), run there with
  ``ruleset=23``.
* Ruleset 24 against the revision that published it as the default (``RULESET_24_PUBLISHED``,
  ``638d356``, stop 38: its last change to ``verifiers/``, a behaviour-identical refactor), run
  there with ``ruleset=24``.
* Ruleset 25 against the revision that published it as the default (``RULESET_25_PUBLISHED``,
  ``c069201``, stop 39: its last change to ``verifiers/``, a behaviour-identical module split),
  run there with ``ruleset=25``.
* Ruleset 26 against the revision that published it as the default (``RULESET_26_PUBLISHED``,
  ``95a8715``, stop 40: its last change to ``verifiers/``, a behaviour-identical refactor), run
  there with ``ruleset=26``.
* Ruleset 27 against the revision that published it as the default (``RULESET_27_PUBLISHED``,
  ``3a1cc9b``, stop 41: its last change to ``verifiers/``, a comment), run there with
  ``ruleset=27``.
* Ruleset 28 against the revision that published it as the default (``RULESET_28_PUBLISHED``,
  ``41bdc67``, stop 42: its last change to ``verifiers/``, a behaviour-identical refactor), run
  there with ``ruleset=28``.
* Ruleset 29 against the revision that published it as the default (``RULESET_29_PUBLISHED``,
  ``066a433``, stop 43: its last change to ``verifiers/``, a behaviour-identical speed-up), run
  there with ``ruleset=29``.
* Ruleset 30 against the revision that published it as the default (``RULESET_30_PUBLISHED``,
  ``72ecdc2``, stop 44: its last change to ``verifiers/``, held_30 closed to cards the customer may
  not get), run
  there with ``ruleset=30``.
* Ruleset 31 against the revision that published it as the default (``RULESET_31_PUBLISHED``,
  ``cc2d258``, stop 45: its last change to ``verifiers/``, the default set to 31), run there with
  ``ruleset=31``.
* Ruleset 32 against the revision that published it as the default (``RULESET_32_PUBLISHED``,
  ``0bb0fd8``, stop 46: its last change to the verdicts, after red teams P and Q), run
  there with ``ruleset=32``.
* Ruleset 33 against the revision that published it (``RULESET_33_PUBLISHED``, ``27110e2``, stop
  47: its last change to the verdicts, after red team Y; the default switch after it changed no
  verdict), run there with ``ruleset=33``.
* Ruleset 34 against the revision that published it (``RULESET_34_PUBLISHED``, ``ea10ffe``, stop
  48: its last change to the verdicts, after red team H and the first clean-clone CI run; the
  default switch before it changed no verdict), run there with ``ruleset=34``.

The "before" is not a stored list: the ``verifiers/`` tree of the git revision is extracted from
git into a temporary directory and run in a subprocess
(``benchmarks/compliance_eval/score.load_verifier_rev``); the checkout's verifier runs with the
same ruleset in another subprocess on the same texts, and the two sets of verdicts (each
serialised as sorted-key JSON) must be equal byte for byte. Texts: both splits of the evalset
(seeds 1-3; only counts and ids are ever reported, no held-out text), every compliant and
violating text of the verifier's test corpora (under no customer and under customer C1) -
including the ruleset-4 and ruleset-5 cases and both probe corpora, which exercise the phrasings
later rulesets read differently - and the throughput benchmark's typical and dense answers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BEFORE_RULESETS = "ecd2f56d9237b5095af7657e75f39eafb627046e"
RULESET_4_PUBLISHED = "6315072f0b0922a562b72752fdc003020e23097d"
RULESET_5_PUBLISHED = "c4737eba9b6a3300ee1dfd1f87095b13f116f56e"
RULESET_6_PUBLISHED = "108c5a5d627cd6e50c17b2205989b6a28f010d18"
RULESET_7_PUBLISHED = "1e7a8a5bcf6f365b0d3a4fd370b4b815daca8a0a"
RULESET_8_PUBLISHED = "91b528823b3019686dcad5cb13dc7ce5e6b461c9"
RULESET_9_PUBLISHED = "0c3618161d36aed4c04e4fbd996e38a0dd86cd2d"
RULESET_10_PUBLISHED = "0a8e5330105c507d6ca61ada9286edd18c30d88c"
RULESET_11_PUBLISHED = "c2e8940e1a617d29763d277a92d46c1bb31e9e34"
RULESET_12_PUBLISHED = "080191384fca5f6bb64e0e43918e1de3f964eafa"
RULESET_13_PUBLISHED = "2ea99cecc3fa505f5b9dc4c687d8a90e12f56610"
RULESET_14_PUBLISHED = "584441f42edcc400f9b8259997217f5744bba9c4"
RULESET_15_PUBLISHED = "29d30ec2c19ae5b92df149efb05924274fc035f0"
RULESET_16_PUBLISHED = "89ed2ff4bb96b1045d86ee439637b3cb421784ba"
RULESET_17_PUBLISHED = "556cfa770124c40fc1826ffbc41fa7fc48ba2081"
RULESET_18_PUBLISHED = "a52aab1f46942324ead6467dc73d88296ff9a4d4"
RULESET_19_PUBLISHED = "d446b9d19dd389b08cc7d71d9010dff00dcd6bfd"
RULESET_20_PUBLISHED = "60695be1b33a1932b0beb65bdec7063d8baf50a2"
RULESET_21_PUBLISHED = "a52689139ae440922cbc8328005acf22ccb9c2d2"
RULESET_22_PUBLISHED = "19437cc729054ae0665ecb8eb908fff454415045"
RULESET_23_PUBLISHED = "5eb173342ffaf2e0b0360bd07025f808dced6879"
RULESET_24_PUBLISHED = "638d3567d7674bd6171cc8fbf095ec7c304cb208"
RULESET_25_PUBLISHED = "c06920126957aabd4c330cc08c9eb35d5530bf56"
RULESET_26_PUBLISHED = "95a87153aaea9d571968d792803f175eacccd6cd"
RULESET_27_PUBLISHED = "3a1cc9be1102d0184dbc483aaa19b8902b887895"
RULESET_28_PUBLISHED = "41bdc67eed2ce83a15536ad81acf53374e86c256"
RULESET_29_PUBLISHED = "066a43399c6ac400fb728d03da99a529d26bebae"
RULESET_30_PUBLISHED = "72ecdc2cdb893bd036713563f8f359788e65b19d"
RULESET_31_PUBLISHED = "cc2d25819592401b4dc26a2ea3a7c26386db98f8"
RULESET_32_PUBLISHED = "0bb0fd8063efb2f17f091b4333506bf23ab85d99"
RULESET_33_PUBLISHED = "27110e241aa2a5fc746f2d37760401b56c68ccff"
RULESET_34_PUBLISHED = "ea10ffe60b77593bc7128c8844c1fcabdaa1b6f6"
RULESET_35_PUBLISHED = "020aec7c8f958b0e039c9f01ff7132b7c0e9a144"

_SCRIPT = r"""
import ast, hashlib, json, sys
sys.path.insert(0, sys.argv[1])
rev, out, ruleset = sys.argv[2], sys.argv[3], sys.argv[4]
from benchmarks.compliance_eval.score import load_verifier_rev
extra = {} if ruleset == "none" else {"ruleset": int(ruleset)}
if rev != "checkout":
    load_verifier_rev(rev)
from replicas.build import ensure_snapshot
from replicas.verifiers.compliance import Catalog, verify_response
from benchmarks.compliance_eval.build import build_items
from tests.compliance_cases import CARDS, ELIGIBILITY

def case_texts():
    # read from the test modules' source (importing them would import today's verifier API)
    texts = []
    for name in ("compliance_cases", "test_compliance", "test_compliance_v2",
                 "test_compliance_v3", "test_compliance_ruleset", "test_compliance_ruleset5",
                 "test_compliance_ruleset6", "test_compliance_ruleset7",
                 "test_compliance_ruleset8", "test_compliance_ruleset9",
                 "test_compliance_ruleset10", "test_compliance_ruleset11",
                 "test_compliance_ruleset12", "test_compliance_ruleset13",
                 "test_compliance_ruleset14", "test_compliance_ruleset15",
                 "test_compliance_ruleset16", "test_compliance_ruleset17"):
        try:
            source = open(f"{sys.argv[1]}/tests/{name}.py", encoding="utf-8").read()
        except FileNotFoundError:
            continue
        tree = ast.parse(source)
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
from tests.corpora.compliance_probe import PROBE_CARDS, PROBE_ELIGIBILITY, probe_items
from tests.corpora.compliance_probe_b import B_CARDS, B_ELIGIBILITY, probe_b_items
for cards, eligibility, items in ((PROBE_CARDS, PROBE_ELIGIBILITY, probe_items()),
                                  (B_CARDS, B_ELIGIBILITY, probe_b_items())):
    probe = Catalog.from_records(cards, eligibility)
    for item in items:
        for customer in sorted({None, item.customer_id}, key=str):
            v = verify_response(item.text, probe, customer_id=customer, **extra)
            records[f"probe:{item.item_id}:{customer}"] = v.to_dict()
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


def _verdicts(rev: str, out: Path, ruleset: int | None) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(REPO), rev, str(out), str(ruleset or "none")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data: dict[str, str] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _have_revision(rev: str) -> bool:
    done = subprocess.run(
        ["git", "-C", str(REPO), "cat-file", "-e", f"{rev}^{{commit}}"],
        capture_output=True,
    )
    return done.returncode == 0


def _assert_frozen(rev: str, rev_ruleset: int | None, ruleset: int, tmp_path: Path) -> None:
    if not _have_revision(rev):
        pytest.fail(f"git revision {rev} is not in this clone (a shallow clone?)")
    before = _verdicts(rev, tmp_path / "before.json", rev_ruleset)
    after = _verdicts("checkout", tmp_path / "after.json", ruleset)
    assert before.keys() == after.keys()
    # 900 evalset items, ~500 case texts twice, the probe corpus, 80 bench answers
    assert len(before) > 1800
    changed = sorted(k for k in before if before[k] != after[k])
    # ids only: a held-out item's text is never printed
    assert not changed, f"{len(changed)} verdicts changed under ruleset {ruleset}: {changed[:20]}"
    flagged = sum('"passed": false' in v for v in before.values())
    assert flagged > 300  # the corpora exercise the violation paths, not only compliant text


@pytest.mark.slow
def test_ruleset_3_verdicts_are_byte_identical_to_the_revision_before_rulesets(
    tmp_path: Path,
) -> None:
    _assert_frozen(BEFORE_RULESETS, None, 3, tmp_path)


#: ruleset -> the revision that published it (run there with the same ``ruleset=``)
PUBLISHED = {
    4: RULESET_4_PUBLISHED,
    5: RULESET_5_PUBLISHED,
    6: RULESET_6_PUBLISHED,
    7: RULESET_7_PUBLISHED,
    8: RULESET_8_PUBLISHED,
    9: RULESET_9_PUBLISHED,
    10: RULESET_10_PUBLISHED,
    11: RULESET_11_PUBLISHED,
    12: RULESET_12_PUBLISHED,
    13: RULESET_13_PUBLISHED,
    14: RULESET_14_PUBLISHED,
    15: RULESET_15_PUBLISHED,
    16: RULESET_16_PUBLISHED,
    17: RULESET_17_PUBLISHED,
    18: RULESET_18_PUBLISHED,
    19: RULESET_19_PUBLISHED,
    20: RULESET_20_PUBLISHED,
    21: RULESET_21_PUBLISHED,
    22: RULESET_22_PUBLISHED,
    23: RULESET_23_PUBLISHED,
    24: RULESET_24_PUBLISHED,
    25: RULESET_25_PUBLISHED,
    26: RULESET_26_PUBLISHED,
    27: RULESET_27_PUBLISHED,
    28: RULESET_28_PUBLISHED,
    29: RULESET_29_PUBLISHED,
    30: RULESET_30_PUBLISHED,
    31: RULESET_31_PUBLISHED,
    32: RULESET_32_PUBLISHED,
    33: RULESET_33_PUBLISHED,
    34: RULESET_34_PUBLISHED,
    35: RULESET_35_PUBLISHED,
}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(PUBLISHED))
def test_ruleset_verdicts_are_byte_identical_to_the_revision_that_published_it(
    ruleset: int, tmp_path: Path
) -> None:
    _assert_frozen(PUBLISHED[ruleset], ruleset, ruleset, tmp_path)
