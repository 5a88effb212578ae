"""``replicas import dbt``: both example projects import, build on two seeds with every dbt test
passing, synthesise data that keeps the declared constraints, are deterministic across processes,
persist for later processes, and bad projects are refused with exit 2 (real dbt and DuckDB)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from replicas.build import code_fingerprint, ensure_snapshot, forget_fingerprints
from replicas.cli import build_app
from replicas.importer import ImportRefused, import_dbt_project, load_spec
from replicas.replica import get_replica
from tests.byo_support import PROJECTS, SEEDS_PROJECT, SOURCES_PROJECT, home_for_imports

ROOT = Path(__file__).resolve().parent.parent
SEEDS = (1, 2)


@pytest.fixture(scope="module")
def imported(module_registries: None) -> Iterator[dict[str, Any]]:
    with home_for_imports():
        from tests.byo_support import import_all

        yield import_all()


def _raw(snapshot_warehouse: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(snapshot_warehouse), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_import_reads_seeds_sources_types_and_tests(imported: dict[str, Any]) -> None:
    shop, saas = load_spec("byo_shop"), load_spec("byo_saas")
    # seeds used as raw data: one raw table each, tests moved from the seed and staging models
    assert {t.name for t in shop.tables} == {
        "raw_customers", "raw_orders", "raw_order_lines", "raw_payments", "raw_products"
    }  # fmt: skip
    lines = shop.table("raw_order_lines")
    assert lines.column("order_id").references == ("raw_orders", "id")  # via stg_order_lines
    assert lines.column("product_id").references == ("raw_products", "id")
    assert (lines.column("quantity").min_value, lines.column("quantity").max_value) == (1, 20)
    assert shop.table("raw_orders").column("id").unique
    assert shop.table("raw_customers").column("country").values[:2] == ("GB", "US")
    # unique on a GROUP BY model (int_order_payments.order_id) says nothing about raw payments
    assert not shop.table("raw_payments").column("order_id").unique
    assert shop.table("raw_payments").checks == ('"amount" > 0',)
    assert shop.table("raw_orders").column("ordered_at").type == "TIMESTAMP"  # from CSV values
    # sources.yml: declared data types, source tests, two schemas renamed into raw
    events = saas.table("usage_events")
    assert events.column("event_id").type == "BIGINT" and events.column("event_id").unique
    assert events.column("account_id").references == ("accounts", "account_id")
    assert saas.table("subscriptions").column("plan_id").references == ("plans", "plan_id")
    assert saas.table("plans").column("monthly_price_cents").min_value == 500
    assert saas.table("subscriptions").column("status").values == (
        "trialing", "active", "past_due", "canceled"
    )  # fmt: skip
    # computed columns' tests are listed, not silently dropped
    assert any("mrr is computed" in note for note in saas.notes)
    project = get_replica("byo_shop").dbt_project
    assert (project / "models" / "_seed_data" / "raw_orders.sql").is_file()
    assert not (project / "seeds").exists() and not (project / "profiles.yml").exists()
    sources = (get_replica("byo_saas").dbt_project / "models/staging/_sources.yml").read_text()
    assert "schema: raw" in sources and "saas_app" not in sources
    for result in imported.values():
        own = result.models - sum(t.origin.startswith("seed ") for t in result.spec.tables)
        assert 5 <= own <= 15, result.models
        assert result.checked["dbt"]["ok"]


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_builds_on_two_seeds_with_every_test_passing(
    imported: dict[str, Any], replica: str
) -> None:
    with home_for_imports():
        for seed in SEEDS:
            snapshot = ensure_snapshot(replica, seed, 0.01)
            dbt = snapshot.manifest["dbt"]
            assert dbt["ok"], dbt
            assert set(dbt["status_counts"]) <= {"pass", "success"}, dbt
            assert dbt["node_counts"]["test"] == imported[replica].tests
            raw = snapshot.manifest["tables"]["raw"]
            assert all(info["rows"] >= 25 for info in raw.values()), raw
        spec = load_spec(replica)
        one = ensure_snapshot(replica, SEEDS[0], 0.01)
        two = ensure_snapshot(replica, SEEDS[1], 0.01)
        assert one.manifest["tables"]["raw"] != two.manifest["tables"]["raw"]
        # every declared reference holds on the synthesised data (not only where a test is)
        for table in spec.tables:
            for col in table.columns:
                if col.references:
                    parent, key = col.references
                    orphans = _raw(
                        one.warehouse,
                        f'select count(*) from raw."{table.name}" c where c."{col.name}" is not '
                        f'null and c."{col.name}" not in (select "{key}" from raw."{parent}")',
                    )
                    assert orphans == [(0,)], (table.name, col.name)


def _digests(home: Path, keys: list[tuple[str, int]]) -> list[str]:
    """sha256 of every raw table each (replica, seed) generates at scale 0.02, in a new process."""
    code = (
        "import hashlib, json, sys\n"
        "from replicas.replica import get_replica\n"
        "out = []\n"
        "for replica, seed in json.loads(sys.argv[1]):\n"
        "    tables = get_replica(replica).load_generator()(seed, 0.02)\n"
        "    h = hashlib.sha256()\n"
        "    for name in sorted(tables):\n"
        "        h.update(name.encode() + tables[name].write_csv().encode())\n"
        "    out.append(h.hexdigest())\n"
        "print(json.dumps(out))\n"
    )
    env = {**os.environ, "REPLICAS_HOME": str(home), "PYTHONHASHSEED": "random"}
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(keys)],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    digests: list[str] = json.loads(out.stdout)
    return digests


def test_synthesis_is_deterministic_across_processes(imported: dict[str, Any]) -> None:
    keys = [(replica, seed) for replica in sorted(PROJECTS) for seed in (7, 8)]
    with home_for_imports() as home:
        first, second = _digests(home, keys), _digests(home, keys)
    assert first == second
    assert len(set(first)) == len(keys)  # another seed or project: other data


def test_later_process_builds_the_import_from_the_cache(imported: dict[str, Any]) -> None:
    """The import persists: a new process finds it (registry loader), computes the same cache
    key and serves the snapshot built here."""
    with home_for_imports() as home:
        built = ensure_snapshot("byo_saas", SEEDS[0], 0.01)
        env = {**os.environ, "REPLICAS_HOME": str(home)}
        out = subprocess.run(
            [sys.executable, "-m", "replicas.cli", "build", "byo_saas", "--seed", str(SEEDS[0]),
             "--json"],
            env=env, cwd=ROOT, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        manifest = json.loads(out.stdout)
        assert manifest["code_fingerprint"] == built.manifest["code_fingerprint"]
        assert manifest["tables"] == built.manifest["tables"]


# ---- refusals ---------------------------------------------------------------------------------


def _copy(tmp_path: Path, project: Path = SEEDS_PROJECT) -> Path:
    dest = tmp_path / "project"
    shutil.copytree(project, dest)
    return dest


def _invoke(args: list[str]) -> Any:
    return CliRunner().invoke(build_app(("imports",)), ["import", "dbt", *args])


def _packages(tmp_path: Path) -> list[str]:
    project = _copy(tmp_path)
    (project / "packages.yml").write_text(
        "packages:\n  - package: dbt-labs/dbt_utils\n    version: 1.3.0\n"
        "  - git: https://github.com/acme/dbt-helpers.git\n    revision: main\n"
    )
    return [str(project), "--name", "byo_refused"]


def _postgres(tmp_path: Path) -> list[str]:
    project = _copy(tmp_path)
    (project / "profiles.yml").write_text(
        "fernhill:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n"
        "      host: db.internal\n"
    )
    return [str(project), "--name", "byo_refused"]


def _not_dbt(tmp_path: Path) -> list[str]:
    (tmp_path / "models").mkdir()
    return [str(tmp_path), "--name", "byo_refused"]


def _python_model(tmp_path: Path) -> list[str]:
    project = _copy(tmp_path)
    (project / "models" / "marts" / "forecast.py").write_text("def model(dbt, session): ...\n")
    return [str(project), "--name", "byo_refused"]


@pytest.mark.parametrize(
    ("make_args", "expected"),
    [
        (lambda p: [str(p / "nowhere"), "--name", "byo_refused"], "no such directory"),
        (lambda p: [str(SEEDS_PROJECT / "dbt_project.yml"), "--name", "x1"], "not a directory"),
        (_not_dbt, "is not a dbt project"),
        (lambda p: [str(SEEDS_PROJECT), "--name", "ecommerce"], "clashes with a shipped replica"),
        (lambda p: [str(SEEDS_PROJECT), "--name", "Bad-Name"], "must match"),
        (_postgres, "'postgres' adapter"),
        (_packages, "dbt-labs/dbt_utils, https://github.com/acme/dbt-helpers.git"),
        (_python_model, "Python models are not supported"),
    ],
    ids=[
        "missing",
        "file",
        "not-dbt",
        "shipped-name",
        "bad-name",
        "postgres",
        "packages",
        "python",
    ],
)
def test_refusals_exit_2_with_one_line(
    tmp_path: Path, make_args: Any, expected: str, registries: None
) -> None:
    with home_for_imports() as home:
        result = _invoke(make_args(tmp_path))
        assert result.exit_code == 2, result.output
        assert expected in " ".join(result.output.split())
        assert not (home / "imports" / "byo_refused").exists()


def test_packages_message_says_how_to_vendor(tmp_path: Path, registries: None) -> None:
    with home_for_imports(), pytest.raises(ImportRefused) as info:
        import_dbt_project(Path(_packages(tmp_path)[0]), "byo_refused")
    message = str(info.value)
    assert "\n" not in message
    assert "dbt deps" in message and "dbt_packages/" in message and "macros/vendor" in message


@pytest.mark.slow
def test_failing_test_is_named_with_its_column(tmp_path: Path, registries: None) -> None:
    """A test synthesised data cannot meet (a range on a computed column) fails the check build;
    the error names the test and the model column, and the import is withdrawn."""
    project = _copy(tmp_path)
    marts = project / "models" / "marts" / "_marts.yml"
    marts.write_text(
        marts.read_text().replace(
            "      - name: order_status\n",
            "      - name: units\n        data_tests:\n          - accepted_range:\n"
            "              arguments:\n                max_value: 0\n"
            "      - name: order_status\n",
        )
    )
    with home_for_imports() as home:
        result = _invoke([str(project), "--name", "byo_failing"])
        assert result.exit_code == 2, result.output
        assert "accepted_range_fct_orders_units" in result.output
        assert "fct_orders.units" in result.output
        assert not (home / "imports" / "byo_failing").exists()


@pytest.mark.slow
def test_reimporting_a_changed_project_changes_the_cache_key(
    tmp_path: Path, registries: None
) -> None:
    project = _copy(tmp_path, SOURCES_PROJECT)
    with home_for_imports():
        import_dbt_project(project, "byo_changing", check=False)
        before = code_fingerprint(get_replica("byo_changing"))
        model = project / "models" / "marts" / "fct_monthly_billing.sql"
        model.write_text(
            model.read_text().replace("round(avg(days_to_pay), 1)", "avg(days_to_pay)")
        )
        import_dbt_project(project, "byo_changing", check=False)
        forget_fingerprints()
        after = code_fingerprint(get_replica("byo_changing"))
        assert before != after
        copied = get_replica("byo_changing").dbt_project / "models/marts/fct_monthly_billing.sql"
        assert "round(avg(days_to_pay), 1)" not in copied.read_text()
        digest = hashlib.sha256(copied.read_bytes()).hexdigest()
        assert digest == hashlib.sha256(model.read_bytes()).hexdigest()


def test_vendored_package_becomes_project_macros(tmp_path: Path) -> None:
    """A package kept in dbt_packages/ is accepted: its macros move to macros/vendor/<pkg>/ and
    the ``<pkg>.`` prefixes go (episode sandboxes allow no packages directory)."""
    from replicas.importer.steps.project import check_project, stage_copy

    project = _copy(tmp_path)
    (project / "packages.yml").write_text("packages:\n  - package: acme/shop_utils\n")
    vendored = project / "dbt_packages" / "shop_utils"
    (vendored / "macros").mkdir(parents=True)
    (vendored / "dbt_project.yml").write_text("name: shop_utils\nversion: '1.0'\n")
    (vendored / "macros" / "money.sql").write_text(
        "{% macro to_money(col) %}round({{ col }}, 2){% endmacro %}\n"
    )
    model = project / "models" / "staging" / "stg_payments.sql"
    model.write_text(
        model.read_text().replace(
            "        amount,", "        {{ shop_utils.to_money('amount') }} as amount,"
        )
    )
    facts = check_project(project)
    assert facts.vendored == ("shop_utils",)
    staged = tmp_path / "staged"
    stage_copy(facts, staged)
    assert (staged / "macros" / "vendor" / "shop_utils" / "money.sql").is_file()
    assert "{{ to_money('amount') }}" in (staged / "models/staging/stg_payments.sql").read_text()
    assert not (staged / "dbt_packages").exists() and not (staged / "packages.yml").exists()
    assert "profile: replica" in (staged / "dbt_project.yml").read_text()
