"""Structural tests of the independent compliance evalset (benchmarks/compliance_eval/).

They check the evalset itself - size, mix, determinism, that labels follow from construction and
that compliant items really are compliant - by reading the catalog with their own SQL and parsing
the item texts with their own parser. They never run the verifier and hold no score targets.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmarks.compliance_eval import build, templates_heldout, templates_tuning
from benchmarks.compliance_eval.catalog import load_catalog
from replicas import ensure_snapshot
from replicas.db import open_readonly

SEEDS = (1, 2, 3)


# --- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def items() -> list[dict[str, Any]]:
    return build.build_items(SEEDS)


@pytest.fixture(scope="module")
def truth() -> dict[int, dict[str, Any]]:
    """The catalog as this test reads it: its own queries, keyed by seed."""
    out: dict[int, dict[str, Any]] = {}
    for seed in SEEDS:
        con = open_readonly(ensure_snapshot("credit_cards", seed).warehouse)
        try:
            cur = con.execute(
                "select * from card_terms t join card_rewards_terms r using (card_id)"
            )
            cols = [d[0] for d in cur.description]
            cards = {row[0]: dict(zip(cols, row, strict=True)) for row in cur.fetchall()}
            elig = {
                (c, k): ok
                for c, k, ok in con.execute(
                    "select customer_id, card_id, is_eligible from card_eligibility"
                ).fetchall()
            }
            value = {
                (c, k): (r, v)
                for c, k, r, v in con.execute(
                    "select customer_id, card_id, annual_rewards_usd, ongoing_value_usd "
                    "from card_value"
                ).fetchall()
            }
            spend = {
                row[0]: dict(
                    zip(
                        ("groceries", "dining", "travel", "gas", "online", "other"),
                        row[1:],
                        strict=True,
                    )
                )
                for row in con.execute(
                    "select customer_id, avg_monthly_groceries_usd, avg_monthly_dining_usd, "
                    "avg_monthly_travel_usd, avg_monthly_gas_usd, avg_monthly_online_usd, "
                    "avg_monthly_other_usd from customer_profile"
                ).fetchall()
            }
        finally:
            con.close()
        out[seed] = {"cards": cards, "elig": elig, "value": value, "spend": spend}
    return out


# --- an independent reader of numbers in text ----------------------------------------------

_WORDS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}  # fmt: skip
_IDIOMS = {"a year and a half": 18, "a full year": 12, "half a year": 6, "one year": 12}


def words_to_int(text: str) -> int | None:
    total, current, seen = 0, 0, False
    for tok in re.split(r"[\s-]+", text.strip().lower()):
        if tok in ("and", ""):
            continue
        if tok in _WORDS:
            current += _WORDS[tok]
        elif tok in _TENS:
            current += _TENS[tok]
        elif tok == "hundred":
            current = max(current, 1) * 100
        elif tok == "thousand":
            total += max(current, 1) * 1000
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


_NUMBER_WORDS = [
    *sorted([*_WORDS, *_TENS, "hundred", "thousand"], key=len, reverse=True),
    "(?<=hundred )and",
    "(?<=thousand )and",
]
_NUMWORD = r"(?:\b(?:" + "|".join(_NUMBER_WORDS) + r")\b[\s-]?)+"
PCT_RE = re.compile(r"(\d+(?:\.\d+)?)\s?(?:%|percent\b|per cent\b)", re.I)
MONEY_RE = re.compile(r"(?:US)?\$\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*) dollars\b", re.I)
MONEY_WORDS_RE = re.compile(rf"\b({_NUMWORD})dollars\b", re.I)
MONTHS_RE = re.compile(
    rf"\b(\d+|{_NUMWORD})[\s-]?(?:months?\b|mo\.|billing cycles\b|-month\b)", re.I
)
# Negated figures are not claims: "not the $95 you may have seen", "no 0% intro period".
NEGATED_RE = re.compile(r"\bnot (?:the )?(?:US)?\$[\d,]+(?:\.\d+)?|\bno 0\s?%", re.I)


def parse_number(text: str) -> float | None:
    t = text.lower()
    for idiom, months in {**_IDIOMS, "a year": 12}.items():
        if idiom in t:
            return float(months)
    m = re.search(r"\d[\d,]*(?:\.\d+)?", t)
    if m:
        return float(m.group(0).replace(",", ""))
    w = re.search(_NUMWORD, t)
    if w:
        n = words_to_int(w.group(0))
        return float(n) if n is not None else None
    return None


ZERO_MARKERS = (
    "no ",
    "none",
    "$0",
    "free",
    "nothing",
    "n/a",
    "0%",
    "0 %",
    "zero",
    "doesn't",
    "don't",
    "waived",
    "skips",
)


def mentioned_cards(text: str, cards: dict[str, dict[str, Any]]) -> set[str]:
    """Catalog names in the text, longest first so a name inside a longer one is not counted."""
    low = text.lower()
    found = set()
    for cid, c in sorted(cards.items(), key=lambda kv: -len(kv[1]["card_name"])):
        name = c["card_name"].lower()
        pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if pattern.search(low):
            found.add(cid)
            low = pattern.sub("#" * len(name), low)
    return found


def catalog_value(card: dict[str, Any], kind: str, field: str) -> Any:
    direct = {
        ("purchase_apr", "lo"): "purchase_apr_min_pct",
        ("purchase_apr", "hi"): "purchase_apr_max_pct",
        ("cash_apr", "rate"): "cash_advance_apr_pct",
        ("penalty_apr", "rate"): "penalty_apr_pct",
        ("intro_purchase", "rate"): "intro_purchase_apr_pct",
        ("intro_purchase", "months"): "intro_purchase_months",
        ("intro_bt", "rate"): "intro_bt_apr_pct",
        ("intro_bt", "months"): "intro_bt_months",
        ("no_intro_purchase", "intro_purchase_rate"): "intro_purchase_apr_pct",
        ("no_intro_purchase", "bt_rate"): "intro_bt_apr_pct",
        ("no_intro_purchase", "bt_months"): "intro_bt_months",
        ("annual_fee", "fee"): "annual_fee_usd",
        ("annual_fee", "first"): "annual_fee_first_year_usd",
        ("late_fee", "fee"): "late_fee_usd",
        ("foreign_fee", "pct"): "foreign_txn_fee_pct",
        ("cash_fee", "pct"): "cash_advance_fee_pct",
        ("cash_fee", "min"): "cash_advance_fee_min_usd",
        ("bt_fee", "pct"): "bt_fee_pct",
        ("bt_fee", "min"): "bt_fee_min_usd",
        ("signup", "bonus"): "signup_bonus_usd",
        ("signup", "spend"): "signup_spend_usd",
        ("signup", "signup_months"): "signup_months",
        ("grace", "days"): "grace_period_days",
        ("min_interest", "amount"): "min_interest_charge_usd",
        ("rewards", "base_rate"): "base_reward_rate",
    }
    if (kind, field) in direct:
        return card[direct[(kind, field)]]
    if field in ("goto_lo", "goto_hi"):
        return card["purchase_apr_min_pct" if field == "goto_lo" else "purchase_apr_max_pct"]
    if kind == "rewards" and field.startswith("rate_"):
        return card[f"{field[5:]}_rate"]
    if kind == "rewards" and field.startswith("cap_"):
        return card[f"{field[4:]}_cap_usd"]
    raise AssertionError(f"test does not know {kind}.{field}")


def allowed_figures(card: dict[str, Any]) -> tuple[set[float], set[float], set[float]]:
    pct = {
        card[k]
        for k in (
            "purchase_apr_min_pct", "purchase_apr_max_pct", "cash_advance_apr_pct",
            "penalty_apr_pct", "intro_purchase_apr_pct", "intro_bt_apr_pct", "bt_fee_pct",
            "cash_advance_fee_pct", "foreign_txn_fee_pct",
        )
        if card[k] is not None
    }  # fmt: skip
    if card["reward_currency"] == "cash_back":
        pct |= {
            card[f"{c}_rate"] for c in ("groceries", "dining", "travel", "gas", "online", "other")
        }
        pct.add(card["base_reward_rate"])
    money = {
        card[k]
        for k in (
            "annual_fee_usd", "annual_fee_first_year_usd", "late_fee_usd", "bt_fee_min_usd",
            "cash_advance_fee_min_usd", "min_interest_charge_usd", "signup_bonus_usd",
            "signup_spend_usd", "groceries_cap_usd", "dining_cap_usd", "travel_cap_usd",
            "gas_cap_usd", "online_cap_usd", "security_deposit_min_usd",
        )
        if card[k] is not None
    }  # fmt: skip
    months = {
        card[k]
        for k in ("intro_purchase_months", "intro_bt_months", "signup_months")
        if card[k] is not None
    }
    return {float(x) for x in pct}, {float(x) for x in money}, {float(x) for x in months}


def _close(a: float, values: set[float]) -> bool:
    return any(abs(a - v) < 0.005 for v in values)


# --- size, mix, determinism ----------------------------------------------------------------


def test_build_is_deterministic() -> None:
    cat = load_catalog(2)
    first = json.dumps(build.build_seed(cat), sort_keys=True)
    second = json.dumps(build.build_seed(load_catalog(2)), sort_keys=True)
    assert first == second


def test_sizes_and_balance(items: list[dict[str, Any]]) -> None:
    assert len(items) >= 600
    per_seed = Counter(i["seed"] for i in items)
    assert set(per_seed) == set(SEEDS)
    assert all(n >= 250 for n in per_seed.values()), per_seed
    defective = [i for i in items if i["expected_codes"]]
    assert 0.45 <= len(defective) / len(items) <= 0.55
    for i in items:
        assert len(i["expected_codes"]) <= 1, i["id"]
        assert (i["planted"] is None) == (not i["expected_codes"]), i["id"]
        if i["planted"]:
            assert i["planted"]["code"] == i["expected_codes"][0]


def _looks_free_form(text: str, n_cards: int) -> bool:
    return (
        len(text.split()) >= 300
        or re.search(r"^\|.*\|$", text, re.M) is not None
        or re.search(r"^\s*(?:[-*•+]|\d+[.)])\s", text, re.M) is not None
        or text == text.lower()
        or re.search(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]", text) is not None
        or re.search(r"\b(?:favour|organisation|cheque|per cent|traveller|programme)", text)
        is not None
        or re.search(r"\b(?:ok so|tbh|imo|ngl|fwiw|lmk|u want)\b", text, re.I) is not None
        or n_cards >= 2
    )


def test_at_least_40_percent_free_form(items: list[dict[str, Any]], truth: dict[int, Any]) -> None:
    free = [
        i
        for i in items
        if _looks_free_form(i["text"], len(mentioned_cards(i["text"], truth[i["seed"]]["cards"])))
    ]
    assert len(free) / len(items) >= 0.40
    # the builder's own flag agrees with what the text shows
    assert sum(i["free_form"] for i in items) / len(items) >= 0.40


def test_long_items_are_300_to_900_words(items: list[dict[str, Any]]) -> None:
    longs = [i for i in items if i["style"] == "long_explainer"]
    assert len(longs) >= 30
    for i in longs:
        assert 300 <= len(i["text"].split()) <= 900, (i["id"], len(i["text"].split()))


def test_registers_present(items: list[dict[str, Any]]) -> None:
    for split in build.SPLITS:
        texts = [i["text"] for i in items if i["split"] == split]
        assert any(t == t.lower() and len(t) > 80 for t in texts)
        assert any(re.search(r"\b(favour|organisation|cheque)", t) for t in texts)
        assert any(re.search(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]", t) for t in texts)
        assert any(
            re.search(r"\b(ninety-five|forty|thirty-five|twenty-five) dollars", t) for t in texts
        )
        assert any(
            re.search(
                r"\b(eighteen|fifteen|twelve|twenty-one) months|a year and a half|a full year", t
            )
            for t in texts
        )
        assert any(re.search(r"^\|.*\|$", t, re.M) for t in texts)
        assert any(
            re.search(r"a year to you|a year in (?:value|rewards)|a year back to you", t)
            for t in texts
        )


# --- labels follow from construction --------------------------------------------------------


def test_planted_spans_occur_in_text(items: list[dict[str, Any]]) -> None:
    for i in items:
        if i["planted"]:
            span = i["planted"]["span_text"]
            assert span and span in i["text"], (i["id"], span)


def test_ids_unique_and_splits_disjoint(items: list[dict[str, Any]]) -> None:
    ids = [i["id"] for i in items]
    assert len(ids) == len(set(ids))
    tuning = {i["id"] for i in items if i["split"] == "tuning"}
    heldout = {i["id"] for i in items if i["split"] == "heldout"}
    assert tuning and heldout and not tuning & heldout
    assert not {i["text"] for i in items if i["split"] == "tuning"} & {
        i["text"] for i in items if i["split"] == "heldout"
    }


def test_every_class_in_both_splits(items: list[dict[str, Any]]) -> None:
    for split in build.SPLITS:
        rows = [i for i in items if i["split"] == split]
        codes = Counter(i["expected_codes"][0] for i in rows if i["expected_codes"])
        assert set(codes) == set(build.REASON_CODES), (split, codes)
        subs = {(i["planted"]["code"], i["planted"]["subclass"]) for i in rows if i["planted"]}
        for code, names in build.SUBCLASSES.items():
            for sub in names:
                assert (code, sub) in subs, (split, code, sub)
        hns = {h for i in rows if not i["expected_codes"] for h in i["hard_negatives"]}
        primaries = Counter(i["primary_hard_negative"] for i in rows if not i["expected_codes"])
        for hn in build.HARD_NEGATIVES:
            assert hn in hns, (split, hn)
            assert primaries[hn] >= 3, (split, hn, primaries[hn])


def test_splits_use_different_phrasing_pools() -> None:
    for table in ("SENT", "BULLET", "CLAUSE"):
        a = {t for ts in getattr(templates_tuning, table).values() for t in ts}
        b = {t for ts in getattr(templates_heldout, table).values() for t in ts}
        assert not a & b, (table, sorted(a & b)[:5])
    for table in (
        "GENERIC_LINES",
        "GENERIC_HEADINGS",
        "ISSUER_LINES",
        "FILLER",
        "PREMIUM_WORDS",
        "INVENTED_BRANDS",
    ):
        assert not set(getattr(templates_tuning, table)) & set(getattr(templates_heldout, table))
    assert "MUST NOT READ" in (templates_heldout.__doc__ or "")


def test_planted_defects_are_really_wrong(
    items: list[dict[str, Any]], truth: dict[int, Any]
) -> None:
    for i in items:
        p = i["planted"]
        if not p:
            continue
        cards = truth[i["seed"]]["cards"]
        names = {c["card_name"].lower() for c in cards.values()}
        code = p["code"]
        if code in ("unknown_card", "misspelled_card"):
            assert p["span_text"].lower() not in names, i["id"]
            continue
        card = cards[p["card_id"]]
        if code == "ineligible_card":
            assert truth[i["seed"]]["elig"][(i["customer_id"], p["card_id"])] is False, i["id"]
            assert p["card_id"] in i["recommended"]
            continue
        planted = [f for f in i["facts"] if f["planted"]]
        if code in ("wrong_apr", "wrong_intro_terms", "false_intro_offer", "wrong_fee"):
            assert planted, i["id"]
            wrong = [f for f in planted if catalog_value(card, f["kind"], f["field"]) != f["value"]]
            assert wrong, (i["id"], planted)
        if code == "false_intro_offer":
            kind = planted[0]["kind"]
            assert (
                card["intro_purchase_apr_pct" if kind == "intro_purchase" else "intro_bt_apr_pct"]
                is None
            )
        if code == "missing_disclosure" and p["subclass"] == "rec_fee_omitted":
            assert card["annual_fee_usd"] > 0
            assert not [
                f for f in i["facts"] if f["card_id"] == p["card_id"] and f["kind"] == "annual_fee"
            ]
        if code == "missing_disclosure" and p["subclass"] == "intro_no_goto":
            mine = [f for f in i["facts"] if f["card_id"] == p["card_id"]]
            assert not [f for f in mine if f["field"] in ("lo", "hi", "goto_lo", "goto_hi")], i[
                "id"
            ]
        if code == "missing_disclosure" and p["subclass"] == "intro_no_months":
            assert not MONTHS_RE.search(p["span_text"]), i["id"]
            assert not any(idiom in p["span_text"] for idiom in _IDIOMS), i["id"]
        if p["subclass"] == "no_apr_word":
            assert "apr" not in p["span_text"].lower()


# --- compliant items are compliant (independent parsing) ------------------------------------


def test_compliant_facts_match_catalog(items: list[dict[str, Any]], truth: dict[int, Any]) -> None:
    checked = 0
    for i in items:
        if i["expected_codes"]:
            continue
        cards = truth[i["seed"]]["cards"]
        for f in i["facts"]:
            assert not f["planted"]
            want = catalog_value(cards[f["card_id"]], f["kind"], f["field"])
            got = f["value"]
            assert (want is None and got is None) or (
                want is not None and got is not None and abs(float(want) - float(got)) < 0.005
            ), (i["id"], f, want)
            assert f["text"] in i["text"], (i["id"], f["text"])
            parsed = parse_number(f["text"])
            if got is None or got == 0:
                # stated in words ("no annual fee", "none", "$0") or as a zero figure
                assert parsed in (None, 0.0) or any(z in f["text"].lower() for z in ZERO_MARKERS), (
                    i["id"],
                    f,
                )
            else:
                assert parsed is not None and abs(parsed - float(got)) < 0.005, (i["id"], f, parsed)
            checked += 1
    assert checked > 3000


def test_compliant_texts_state_only_catalog_figures(
    items: list[dict[str, Any]], truth: dict[int, Any]
) -> None:
    """Every %, $ and month figure in a compliant text belongs to a card it names (or is derived)."""
    for i in items:
        if i["expected_codes"]:
            continue
        t = truth[i["seed"]]
        named = mentioned_cards(i["text"], t["cards"])
        assert named, i["id"]
        pct: set[float] = set()
        money: set[float] = set()
        months: set[float] = set()
        for cid in named:
            a, b, c = allowed_figures(t["cards"][cid])
            pct |= a
            money |= b
            months |= c
        for d in i["derived"]:
            if d["formula"] in ("annual_rewards", "ongoing_value"):
                rewards, ongoing = t["value"][(d["customer_id"], d["card_id"])]
                ref = rewards if d["formula"] == "annual_rewards" else ongoing
                assert abs(d["value"] - ref) <= 2.0, (i["id"], d, ref)
            elif d["formula"] == "bt_fee_on":
                card = t["cards"][d["card_id"]]
                ref = max(card["bt_fee_pct"] / 100 * d["amount"], card["bt_fee_min_usd"])
                assert abs(d["value"] - ref) <= 0.5, (i["id"], d, ref)
            elif d["formula"] == "monthly_spend":
                assert abs(d["value"] - t["spend"][d["customer_id"]][d["category"]]) <= 1.0, (
                    i["id"],
                    d,
                )
            else:
                assert d["formula"] == "example", (i["id"], d)
            assert d["text"] in i["text"]
            money.add(float(d["value"]))
        text = NEGATED_RE.sub(" ", i["text"])
        for m in PCT_RE.finditer(text):
            assert _close(float(m.group(1)), pct), (i["id"], m.group(0))
        for m in MONEY_RE.finditer(text):
            v = float((m.group(1) or m.group(2)).replace(",", ""))
            assert _close(v, money), (i["id"], m.group(0))
        for m in MONEY_WORDS_RE.finditer(text):
            n = words_to_int(m.group(1))
            assert n is not None and _close(float(n), money), (i["id"], m.group(0))
        for m in MONTHS_RE.finditer(text):
            raw = m.group(1)
            n = int(raw) if raw.isdigit() else words_to_int(raw)
            assert n is not None and _close(float(n), months), (i["id"], m.group(0))
        for idiom, n in _IDIOMS.items():
            if idiom in text.lower() and idiom != "one year":
                assert _close(float(n), months), (i["id"], idiom)


def test_compliant_intro_offers_fully_disclosed(items: list[dict[str, Any]]) -> None:
    for i in items:
        if i["expected_codes"]:
            continue
        by_card: dict[str, set[tuple[str, str]]] = {}
        for f in i["facts"]:
            by_card.setdefault(f["card_id"], set()).add((f["kind"], f["field"]))
        for cid, facts in by_card.items():
            for kind in ("intro_purchase", "intro_bt"):
                if (kind, "rate") in facts and any(
                    f["kind"] == kind and f["field"] == "rate" and f["value"] is not None
                    for f in i["facts"]
                    if f["card_id"] == cid
                ):
                    assert (kind, "months") in facts, (i["id"], cid, kind)
                    goto = (kind, "goto_lo") in facts or ("purchase_apr", "lo") in facts
                    assert goto, (i["id"], cid, kind)


def test_compliant_recommendations_are_eligible_and_disclose_fee(
    items: list[dict[str, Any]], truth: dict[int, Any]
) -> None:
    recs = 0
    for i in items:
        if i["expected_codes"]:
            continue
        t = truth[i["seed"]]
        fee_stated = {f["card_id"] for f in i["facts"] if f["kind"] == "annual_fee"}
        for cid in i["recommended"]:
            recs += 1
            assert cid in fee_stated, (i["id"], cid)
            if i["customer_id"] is not None:
                assert t["elig"][(i["customer_id"], cid)] is True, (i["id"], cid)
        for cid in i["ruled_out"]:
            assert t["elig"][(i["customer_id"], cid)] is False, (i["id"], cid)
    assert recs >= 100


def test_cli_writes_files_and_rejects_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "evalset"
    assert build.main(["--seeds", "1", "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    for split in build.SPLITS:
        lines = (out / f"{split}.jsonl").read_text().splitlines()
        assert len(lines) == manifest["files"][split]["items"] == 150
    assert build.main(["--seeds", "1", "1", "--out", str(out)]) == 2
    assert build.main(["--seeds", "x", "--out", str(out)]) == 2


# --- the scorer's arithmetic and its held-out rule (no verifier score targets here) ----------


def test_wilson_interval() -> None:
    from benchmarks.compliance_eval.score import wilson

    assert wilson(0, 0) is None
    lo, hi = wilson(5, 10) or (0.0, 0.0)
    assert abs(lo - 0.2366) < 1e-3 and abs(hi - 0.7634) < 1e-3
    lo, hi = wilson(0, 20) or (1.0, 1.0)
    assert lo == 0.0 and 0.16 < hi < 0.17
    lo, hi = wilson(20, 20) or (0.0, 0.0)
    assert hi == 1.0 and 0.83 < lo < 0.84


def test_metrics_count_per_code(items: list[dict[str, Any]]) -> None:
    from benchmarks.compliance_eval.score import metrics

    rows = [i for i in items if i["seed"] == 1 and i["split"] == "tuning"]
    perfect = metrics(rows, [set(i["expected_codes"]) for i in rows])
    assert perfect["compliant_fp_rate"]["k"] == 0
    assert all(r["precision"]["rate"] == 1.0 for r in perfect["per_code"].values())
    assert all(r["recall"]["rate"] == 1.0 for r in perfect["per_code"].values())
    # flag everything as wrong_fee: every compliant item is a false positive
    noisy = metrics(rows, [{"wrong_fee"} for _ in rows])
    n_compliant = sum(1 for i in rows if not i["expected_codes"])
    assert noisy["compliant_fp_rate"]["k"] == noisy["compliant_fp_rate"]["n"] == n_compliant
    assert noisy["per_code"]["wrong_fee"]["fp"] == len(rows) - noisy["per_code"]["wrong_fee"]["tp"]
    assert noisy["per_code"]["unknown_card"]["recall"]["rate"] == 0.0


def test_scorer_never_prints_heldout_texts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.compliance_eval import score

    out = tmp_path / "evalset"
    assert build.main(["--seeds", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    rc = score.main(["--seeds", "1", "--split", "both", "--items", str(out), "--show-errors", "50"])
    printed = capsys.readouterr().out
    assert rc == 0
    heldout = [json.loads(x) for x in (out / "heldout.jsonl").read_text().splitlines()]
    for item in heldout:
        assert item["id"] not in printed
        longest = max(item["text"].splitlines(), key=len)
        assert longest not in printed
    assert "false-positive rate on compliant items" in printed
    assert score.main(["--split", "nope"]) == 2
    assert score.main(["--items", str(tmp_path / "missing")]) == 2
