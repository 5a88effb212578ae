"""Tests of the credit_cards generator and of its dbt marts on a real build.

Expected values are recomputed here independently (eligibility rule, card value formula) from the
raw tables, never copied from the generator or from the SQL.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from replicas.build import ensure_snapshot
from replicas.generators import credit_cards
from replicas.generators.credit_cards.catalog import MAX_CARDS, catalog_size

SEEDS = range(6)
CARD_TERMS_COLUMNS = [
    "card_id",
    "card_name",
    "issuer",
    "card_type",
    "min_credit_score",
    "annual_fee_usd",
    "purchase_apr_min_pct",
    "purchase_apr_max_pct",
    "apr_is_variable",
    "intro_purchase_apr_pct",
    "intro_purchase_months",
    "intro_bt_apr_pct",
    "intro_bt_months",
    "bt_fee_pct",
    "bt_fee_min_usd",
    "cash_advance_apr_pct",
    "cash_advance_fee_pct",
    "cash_advance_fee_min_usd",
    "penalty_apr_pct",
    "foreign_txn_fee_pct",
    "late_fee_usd",
    "grace_period_days",
    "min_interest_charge_usd",
]
ELIGIBILITY_DECLINES = {"student_only", "recent_bankruptcy", "credit_score_below_min"}
DISCRETIONARY_DECLINES = {"too_many_recent_inquiries", "insufficient_income", "high_utilisation"}


@pytest.fixture(scope="module")
def builds() -> dict[int, dict[str, pl.DataFrame]]:
    return {seed: credit_cards.generate(seed) for seed in SEEDS}


def _digest(tables: dict[str, pl.DataFrame]) -> dict[str, str]:
    return {
        name: hashlib.sha256(frame.write_csv(float_precision=12).encode()).hexdigest()
        for name, frame in tables.items()
    }


def _levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _reasons(customers: pl.DataFrame, cards: pl.DataFrame, pairs: pl.DataFrame) -> pl.DataFrame:
    """The documented eligibility rule (without holdings), written independently in polars."""
    joined = pairs.join(customers, on="customer_id").join(cards, on="card_id")
    return joined.with_columns(
        pl.when(pl.col("is_student_only") & ~pl.col("is_student"))
        .then(pl.lit("student_only"))
        .when((pl.col("months_since_bankruptcy") <= 24) & ~pl.col("is_secured"))
        .then(pl.lit("recent_bankruptcy"))
        .when(pl.col("credit_score") < pl.col("min_credit_score"))
        .then(pl.lit("credit_score_below_min"))
        .otherwise(pl.lit("ok"))
        .alias("rule_reason")
    )


# ------------------------------------------------------------------------------------------
# contract and determinism


def test_tables_are_returned_in_load_order(builds: dict[int, dict[str, pl.DataFrame]]) -> None:
    assert tuple(builds[0]) == credit_cards.TABLES
    assert all(frame.height > 0 for frame in builds[0].values())
    assert credit_cards.DESCRIPTION.strip()


@pytest.mark.parametrize(
    ("seed", "scale"),
    [(-1, 0.01), (1.5, 0.01), ("3", 0.01), (True, 0.01), (0, 0.0), (0, -1.0), (0, 20.5), (0, "x")],
)
def test_bad_arguments_raise_value_error(seed: object, scale: object) -> None:
    with pytest.raises(ValueError):
        credit_cards.generate(seed, scale)


def test_same_seed_is_byte_identical_in_process_and_in_a_subprocess(
    builds: dict[int, dict[str, pl.DataFrame]],
) -> None:
    again = _digest(credit_cards.generate(3))
    assert again == _digest(builds[3])
    code = (
        "import hashlib, json\n"
        "from replicas.generators import credit_cards\n"
        "t = credit_cards.generate(3)\n"
        "print(json.dumps({n: hashlib.sha256(f.write_csv(float_precision=12).encode())"
        ".hexdigest() for n, f in t.items()}))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert json.loads(out.stdout) == again


def test_different_seeds_give_different_catalogs_and_customers(
    builds: dict[int, dict[str, pl.DataFrame]],
) -> None:
    for table in ("cards", "customers", "card_spend", "applications"):
        digests = {_digest({table: builds[s][table]})[table] for s in SEEDS}
        assert len(digests) == len(SEEDS), table
    name_sets = [frozenset(builds[s]["cards"]["card_name"].to_list()) for s in SEEDS]
    assert len(set(name_sets)) == len(SEEDS)


# ------------------------------------------------------------------------------------------
# catalog


def test_catalog_size(builds: dict[int, dict[str, pl.DataFrame]]) -> None:
    for seed in SEEDS:
        assert 40 <= builds[seed]["cards"].height <= 80
        assert builds[seed]["cards"]["card_type"].n_unique() == 6  # every type in every catalog
    for seed in range(20):
        assert 40 <= catalog_size(seed, 0.01) <= 80
        assert catalog_size(seed, 0.01) <= catalog_size(seed, 1.0) <= catalog_size(seed, 20.0)
        assert catalog_size(seed, 20.0) <= MAX_CARDS


def test_card_terms_within_regulatory_ranges(builds: dict[int, dict[str, pl.DataFrame]]) -> None:
    for seed in SEEDS:
        cards = builds[seed]["cards"]
        for column in ("purchase_apr_min_pct", "purchase_apr_max_pct", "cash_advance_apr_pct"):
            assert cards[column].is_between(10, 36).all(), column
            assert (cards[column].round(2) == cards[column]).all(), column
        assert (cards["purchase_apr_min_pct"] <= cards["purchase_apr_max_pct"]).all()
        assert (cards["purchase_apr_max_pct"] <= cards["cash_advance_apr_pct"]).all()
        fixed = cards.filter(~pl.col("apr_is_variable"))
        assert (fixed["purchase_apr_min_pct"] == fixed["purchase_apr_max_pct"]).all()
        for column in ("intro_purchase_months", "intro_bt_months"):
            assert cards[column].drop_nulls().is_between(6, 21).all(), column
        assert cards["intro_purchase_months"].null_count() > 0  # many cards have no intro offer
        assert (
            cards["intro_purchase_apr_pct"].is_null() == cards["intro_purchase_months"].is_null()
        ).all()
        assert (cards["intro_bt_apr_pct"].is_null() == cards["intro_bt_months"].is_null()).all()
        assert cards["bt_fee_pct"].is_between(3, 5).all()
        assert cards["bt_fee_min_usd"].is_in([5.0, 10.0]).all()
        assert cards["foreign_txn_fee_pct"].is_between(0, 3).all()
        assert cards["annual_fee_usd"].is_between(0, 695).all()
        assert (cards["late_fee_usd"] <= 41).all()
        assert cards["grace_period_days"].is_between(21, 25).all()
        assert cards["min_interest_charge_usd"].is_between(0.5, 2.0).all()
        assert (cards["penalty_apr_pct"].drop_nulls() <= 29.99).all()
        assert cards["min_credit_score"].is_between(300, 850).all()


def test_fees_are_realistic_by_card_type(builds: dict[int, dict[str, pl.DataFrame]]) -> None:
    cards = pl.concat([builds[s]["cards"] for s in SEEDS])
    by_type = {t: cards.filter(pl.col("card_type") == t) for t in cards["card_type"].unique()}
    assert set(by_type) == {
        "cash_back",
        "travel",
        "balance_transfer",
        "student",
        "secured",
        "business",
    }
    assert (by_type["student"]["annual_fee_usd"] <= 39).all()
    assert (by_type["secured"]["annual_fee_usd"] <= 39).all()
    assert (by_type["business"]["annual_fee_usd"] <= 250).all()
    assert (by_type["travel"]["annual_fee_usd"] >= 395).any()  # premium travel cards exist
    assert (by_type["travel"]["foreign_txn_fee_pct"] == 0).mean() >= 0.75  # type: ignore[operator]
    assert by_type["balance_transfer"]["intro_bt_months"].null_count() == 0
    assert by_type["secured"]["is_secured"].all() and by_type["student"]["is_student_only"].all()


def test_card_names_unique_clean_and_confusable(builds: dict[int, dict[str, pl.DataFrame]]) -> None:
    allowed = re.compile(r"^[A-Za-z0-9' -]+$")
    for seed in SEEDS:
        names = builds[seed]["cards"]["card_name"].to_list()
        assert len({n.lower() for n in names}) == len(names)
        assert all(allowed.match(n) and n == n.strip() and "  " not in n for n in names)
        near = [
            (a, b)
            for i, a in enumerate(names)
            for b in names[i + 1 :]
            if a.lower().startswith(b.lower())
            or b.lower().startswith(a.lower())
            or (abs(len(a) - len(b)) <= 2 and _levenshtein(a.lower(), b.lower()) <= 2)
        ]
        assert len(near) >= 3, (seed, near)


def test_rewards_reference_cards_and_beat_the_base_rate(
    builds: dict[int, dict[str, pl.DataFrame]],
) -> None:
    for seed in SEEDS:
        cards, rewards = builds[seed]["cards"], builds[seed]["card_rewards"]
        assert rewards.select("card_id", "category").is_unique().all()
        joined = rewards.join(cards.select("card_id", "base_reward_rate"), on="card_id", how="left")
        assert joined["base_reward_rate"].null_count() == 0
        assert (joined["rate"] > joined["base_reward_rate"]).all()
        assert set(rewards["category"]) <= {"groceries", "dining", "travel", "gas", "online"}
        assert rewards["annual_cap_usd"].null_count() > 0  # some bonus categories are uncapped
        assert cards["issuer_id"].is_in(builds[seed]["issuers"]["issuer_id"].implode()).all()


# ------------------------------------------------------------------------------------------
# customers, spend, activity


def test_customers_and_spend_shape(builds: dict[int, dict[str, pl.DataFrame]]) -> None:
    tables = builds[0]
    customers, spend = tables["customers"], tables["card_spend"]
    assert 300 <= customers.height <= 1000
    assert customers["customer_id"].is_unique().all()
    assert customers["credit_score"].is_between(300, 850).all()
    median = customers["credit_score"].median()
    assert median is not None and 680 <= float(median) <= 760  # type: ignore[arg-type]
    assert (customers["credit_score"] < 580).mean() >= 0.05  # type: ignore[operator]
    assert (
        (customers["bankruptcies"] > 0).eq(customers["months_since_bankruptcy"].is_not_null()).all()
    )
    assert spend.height == customers.height * 24 * 6
    months = spend["month"].unique().sort()
    assert months.len() == 24 and str(months[0]) == "2024-07-01" and str(months[-1]) == "2026-06-01"
    assert (spend["amount_usd"] >= 0).all()
    per_band = (
        spend.group_by("customer_id")
        .agg(pl.col("amount_usd").sum())
        .join(customers, on="customer_id")
        .group_by("income_band")
        .agg(pl.col("amount_usd").median())
    )
    medians = dict(zip(per_band["income_band"], per_band["amount_usd"], strict=True))
    assert medians["150k_plus"] > 2 * medians["under_25k"]  # spend follows income


def test_scale_grows_customers_not_catalog() -> None:
    small, larger = credit_cards.generate(1, 0.01), credit_cards.generate(1, 0.05)
    assert larger["customers"].height == 5 * small["customers"].height
    assert 0 <= larger["cards"].height - small["cards"].height <= 10


def test_applications_follow_the_eligibility_rule_mostly(
    builds: dict[int, dict[str, pl.DataFrame]],
) -> None:
    for seed in SEEDS:
        tables = builds[seed]
        apps = _reasons(tables["customers"], tables["cards"], tables["applications"])
        ineligible = apps.filter(pl.col("rule_reason") != "ok")
        eligible = apps.filter(pl.col("rule_reason") == "ok")
        assert ineligible.height > 20 and eligible.height > 20
        consistent = (pl.col("decision") == "declined") & (
            pl.col("decline_reason") == pl.col("rule_reason")
        )
        share = ineligible.select(consistent.mean()).item()
        assert share >= 0.9, (seed, share)
        assert share < 1.0 or ineligible.height < 60  # exceptions exist: real, not perfect
        assert eligible.select((pl.col("decision") == "approved").mean()).item() >= 0.75
        eligible_declines = eligible.filter(pl.col("decision") == "declined")
        assert set(eligible_declines["decline_reason"]) <= DISCRETIONARY_DECLINES
        assert apps.select("customer_id", "card_id").is_unique().all()
        assert ((apps["decision"] == "approved") == apps["decline_reason"].is_null()).all()


def test_holdings_include_every_approved_application(
    builds: dict[int, dict[str, pl.DataFrame]],
) -> None:
    for seed in SEEDS:
        tables = builds[seed]
        held, apps = tables["existing_cards"], tables["applications"]
        assert held.select("customer_id", "card_id").is_unique().all()
        approved = apps.filter(pl.col("decision") == "approved")
        linked = approved.join(held, on=["customer_id", "card_id", "application_id"], how="inner")
        assert linked.height == approved.height
        assert (linked["opened_on"] >= linked["applied_on"]).all()
        before = held.filter(pl.col("application_id").is_null())
        assert (before["opened_on"].cast(pl.Utf8) < "2024-07-01").all()
        assert held["opened_on"].cast(pl.Utf8).max() <= "2026-06-30"  # type: ignore[operator]


# ------------------------------------------------------------------------------------------
# dbt marts on a real snapshot


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REPLICAS_HOME", str(tmp_path_factory.mktemp("replicas_home")))
        snapshot = ensure_snapshot("credit_cards", 0, 0.01)
    yield snapshot.warehouse


def _query(warehouse: Path, sql: str) -> pl.DataFrame:
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        return pl.from_arrow(con.sql(sql).to_arrow_table())  # type: ignore[return-value]
    finally:
        con.close()


def test_card_terms_mart_is_the_contract(warehouse: Path) -> None:
    terms = _query(warehouse, "select * from main.card_terms")
    assert terms.columns == CARD_TERMS_COLUMNS
    raw = credit_cards.generate(0)
    cards, issuers = raw["cards"], raw["issuers"]
    assert terms.height == cards.height
    expected = cards.join(issuers, on="issuer_id").rename({"issuer_name": "issuer"})
    merged = terms.join(expected, on="card_id", suffix="_raw")
    for column in CARD_TERMS_COLUMNS[1:]:
        left, right = merged[column], merged[f"{column}_raw"]
        same = (left == right) | (left.is_null() & right.is_null())
        assert same.all(), column


def test_eligibility_value_and_best_card_recomputed(warehouse: Path) -> None:
    raw = credit_cards.generate(0)
    customers, cards = raw["customers"], raw["cards"]
    pairs = customers.select("customer_id").join(cards.select("card_id"), how="cross")
    held = raw["existing_cards"].select("customer_id", "card_id").with_columns(held=pl.lit(True))
    rule = _reasons(customers, cards, pairs).join(held, on=["customer_id", "card_id"], how="left")
    rule = rule.with_columns(
        pl.when(pl.col("held"))
        .then(pl.lit("already_holds_card"))
        .otherwise("rule_reason")
        .alias("rule_reason")
    )
    mart = _query(warehouse, "select customer_id, card_id, reason from main.card_eligibility")
    checked = mart.join(rule, on=["customer_id", "card_id"])
    assert checked.height == customers.height * cards.height
    assert (checked["reason"] == checked["rule_reason"]).all()

    # Card value for every pair, from the raw spend and rewards tables.
    annual = (
        raw["card_spend"]
        .group_by("customer_id", "category")
        .agg((pl.col("amount_usd").sum() / 2).alias("spend"))
    )
    rates = (
        cards.select("card_id", "base_reward_rate", "point_value_usd")
        .join(annual.select("category").unique(), how="cross")
        .join(raw["card_rewards"], on=["card_id", "category"], how="left")
        .with_columns(pl.col("rate").fill_null(pl.col("base_reward_rate")))
    )
    cap = pl.col("annual_cap_usd")
    earned = (
        pl.when(cap.is_null())
        .then(pl.col("spend") * pl.col("rate"))
        .otherwise(
            pl.min_horizontal("spend", cap) * pl.col("rate")
            + (pl.col("spend") - cap).clip(lower_bound=0) * pl.col("base_reward_rate")
        )
    )
    value = (
        annual.join(rates, on="category")
        .group_by("customer_id", "card_id")
        .agg((earned * pl.col("point_value_usd")).sum().alias("rewards"), pl.col("spend").sum())
        .join(cards, on="card_id")
        .with_columns(
            ongoing=pl.col("rewards") - pl.col("annual_fee_usd"),
            bonus=pl.when(
                pl.col("spend") / 12 * pl.col("signup_months") >= pl.col("signup_spend_usd")
            )
            .then(pl.col("signup_bonus_usd"))
            .otherwise(0.0),
        )
        .with_columns(
            first_year=pl.col("rewards") - pl.col("annual_fee_first_year_usd") + pl.col("bonus")
        )
    )
    mart_value = _query(
        warehouse,
        "select customer_id, card_id, ongoing_value_usd, first_year_value_usd from main.card_value",
    )
    both = mart_value.join(value, on=["customer_id", "card_id"])
    assert both.height == customers.height * cards.height
    assert (both["ongoing_value_usd"] - both["ongoing"]).abs().max() <= 0.006  # type: ignore[operator]
    assert (both["first_year_value_usd"] - both["first_year"]).abs().max() <= 0.006  # type: ignore[operator]
    assert both.filter(pl.col("bonus") > 0).height > 0

    # Best card = highest stored ongoing value among eligible cards, ties -> smallest card_id.
    expected_best = (
        mart_value.join(checked.filter(pl.col("reason") == "ok"), on=["customer_id", "card_id"])
        .sort(["customer_id", "ongoing_value_usd", "card_id"], descending=[False, True, False])
        .group_by("customer_id", maintain_order=True)
        .first()
        .select("customer_id", pl.col("card_id").alias("expected_card_id"))
    )
    best = _query(warehouse, "select customer_id, card_id from main.best_card")
    assert best.height == customers.height
    compared = best.join(expected_best, on="customer_id", how="left")
    same = (compared["card_id"] == compared["expected_card_id"]) | (
        compared["card_id"].is_null() & compared["expected_card_id"].is_null()
    )
    assert same.all()
