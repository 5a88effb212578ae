"""The audit screens what it claims to: each deliberately defective family gets its status.

The defective families (tests/defective_families.py) are real ecommerce questions with exactly
one defect each; a sound control family and a shipped family must come out ``usable``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replicas.audit import (
    PRECEDENCE,
    SCHEMA_VERSION,
    STATUSES,
    AuditReport,
    CheckResult,
    audit_tasks,
    check_names,
    combine_status,
    read_report,
)
from replicas.verifiers.config import VerifierConfig
from replicas.verifiers.forms import (
    find_collection,
    find_numbers,
    is_distinctive,
    number_forms,
    parse_number_text,
)

SEED = 1
#: The status each defective family of tests/defective_families.py must get.
DEFECTIVE: dict[str, str] = {
    "ecommerce.defect_leaky_instruction-v1": "leaky",
    "ecommerce.defect_candidates_verifier-v1": "hackable",
    "ecommerce.defect_seed_independent-v1": "leaky",
    "ecommerce.defect_ambiguous_reading-v1": "ambiguous",
    "ecommerce.defect_wrong_oracle-v1": "broken",
    "ecommerce.defect_flaky_grader-v1": "flaky",
    "ecommerce.defect_mart_lookup-v1": "leaky",
    "ecommerce.defect_mart_answer_lookup-v1": "leaky",
    "ecommerce.defect_hidden_id_oracle-v1": "broken",
    "ecommerce.defect_first_line_grader-v1": "hackable",
    "ecommerce.defect_hedge_blind_grader-v1": "hackable",
}
#: dbt defects (audited with the checks that judge them: each grading is a dbt rebuild).
DEFECTIVE_DBT: dict[str, str] = {
    "ecommerce.defect_visible_data_grading-v1": "hackable",
    "ecommerce.defect_constant_reference-v1": "hackable",
    "ecommerce.defect_reference_fails_hidden-v1": "broken",
}
SOUND = "ecommerce.sound_item_revenue-v1"
SHIPPED = "ecommerce.revenue_period-v2"


def tid(family: str, variant: int = 0) -> str:
    return f"{family}.s{SEED}.{variant}"


@pytest.fixture(scope="module", autouse=True)
def _defective(module_registries: None) -> None:
    # Imported here, inside the registry restore: importing the module registers its families.
    from tests.defective_families import register_defective

    register_defective()


@pytest.fixture(scope="module")
def report() -> AuditReport:
    """One full audit (every check) of every defective family, the control and a shipped family."""
    ids = [tid(f) for f in DEFECTIVE] + [tid(SOUND), tid(SHIPPED)]
    return audit_tasks(ids, workers=1, extra_seeds=2)


@pytest.mark.parametrize("family", sorted(DEFECTIVE))
def test_defective_family_gets_its_status(report: AuditReport, family: str) -> None:
    audit = report.task(tid(family))
    assert audit.status == DEFECTIVE[family], [(c.name, c.evidence) for c in audit.failed_checks]


@pytest.mark.parametrize("family", [SOUND, SHIPPED])
def test_sound_families_are_usable(report: AuditReport, family: str) -> None:
    audit = report.task(tid(family))
    assert audit.status == "usable", [(c.name, c.evidence) for c in audit.failed_checks]
    outcomes = {c.name: c.outcome for c in audit.checks}
    assert outcomes["dbt"] == "skip"
    # core tasks state their definitions in the instruction: the definitions check skips them
    assert outcomes["definitions"] == "skip"
    assert all(outcomes[n] == "pass" for n in check_names() if n not in ("dbt", "definitions"))


def test_leak_evidence_says_where(report: AuditReport) -> None:
    check = report.task(tid("ecommerce.defect_leaky_instruction-v1")).check("leakage")
    assert check.failed and check.status == "leaky"
    assert any(e.startswith("the instruction contains") and "," in e for e in check.evidence)


def test_a_mart_holding_the_answer_table_is_a_leak(report: AuditReport) -> None:
    check = report.task(tid("ecommerce.defect_mart_lookup-v1")).check("leakage")
    assert check.failed
    assert any(
        e.startswith("main.dim_products (product_id, net_sales_usd)") for e in check.evidence
    )


def test_hack_evidence_names_the_strategy(report: AuditReport) -> None:
    check = report.task(tid("ecommerce.defect_candidates_verifier-v1")).check("adversary")
    assert check.failed and check.status == "hackable"
    assert "candidate_numbers" in check.data["winning_strategies"]
    assert any("candidate_numbers" in e for e in check.evidence)


def test_memorisable_is_caught_by_seed_sensitivity(report: AuditReport) -> None:
    audit = report.task(tid("ecommerce.defect_seed_independent-v1"))
    assert [c.name for c in audit.failed_checks] == ["seed_sensitivity"]
    check = audit.check("seed_sensitivity")
    assert len(check.data["seeds"]) == 2 and SEED not in check.data["seeds"]
    assert check.data["same_on_seeds"] == check.data["seeds"]


def test_ambiguity_names_the_reading(report: AuditReport) -> None:
    check = report.task(tid("ecommerce.defect_ambiguous_reading-v1")).check("discrimination")
    assert check.data["results"]["refunds_ignored"]["within_tolerance"] is True
    assert check.data["results"]["cancelled_included"]["within_tolerance"] is False


def test_broken_and_flaky_come_from_their_checks(report: AuditReport) -> None:
    broken = report.task(tid("ecommerce.defect_wrong_oracle-v1"))
    assert [c.name for c in broken.failed_checks] == ["oracle"]
    flaky = report.task(tid("ecommerce.defect_flaky_grader-v1"))
    assert [c.name for c in flaky.failed_checks] == ["determinism"]
    assert flaky.check("determinism").data["gradings"] == 5


def test_a_mart_keyed_by_the_named_customer_is_a_one_query_answer(report: AuditReport) -> None:
    audit = report.task(tid("ecommerce.defect_mart_answer_lookup-v1"))
    assert [c.name for c in audit.failed_checks] == ["trivial"]
    check = audit.check("trivial")
    assert any("main.dim_customers where customer_id =" in e for e in check.evidence)


def test_an_oracle_using_an_id_nobody_revealed_is_broken(report: AuditReport) -> None:
    audit = report.task(tid("ecommerce.defect_hidden_id_oracle-v1"))
    assert [c.name for c in audit.failed_checks] == ["demonstration"]
    assert any(
        "product_id" not in e and "step 0 (sql)" in e for e in audit.failed_checks[0].evidence
    )


@pytest.mark.parametrize(
    ("family", "strategy"),
    [
        ("ecommerce.defect_first_line_grader-v1", "second_answer_line"),
        ("ecommerce.defect_hedge_blind_grader-v1", "hedge_in_words"),
        ("ecommerce.defect_hedge_blind_grader-v1", "hedge_digit_groups"),
    ],
)
def test_hedging_graders_lose_to_their_strategy(
    report: AuditReport, family: str, strategy: str
) -> None:
    check = report.task(tid(family)).check("adversary")
    assert check.failed and strategy in check.data["winning_strategies"]


def test_the_sound_control_resists_the_new_strategies(report: AuditReport) -> None:
    strategies = report.task(tid(SOUND)).check("adversary").data["strategies"]
    for name in ("second_answer_line", "hedge_in_words", "hedge_digit_groups"):
        assert strategies[name]["score"] == 0.0, (name, strategies[name])


@pytest.fixture(scope="module")
def dbt_report() -> AuditReport:
    """The dbt defects under the checks that judge them (oracle, null, dbt)."""
    return audit_tasks([tid(f) for f in DEFECTIVE_DBT], checks=["oracle", "null", "dbt"])


@pytest.mark.slow  # the dbt defects are audited through real dbt episodes (minutes)
@pytest.mark.parametrize("family", sorted(DEFECTIVE_DBT))
def test_dbt_defects_get_their_status(dbt_report: AuditReport, family: str) -> None:
    audit = dbt_report.task(tid(family))
    assert audit.status == DEFECTIVE_DBT[family], [
        (c.name, c.evidence) for c in audit.failed_checks
    ]
    assert [c.name for c in audit.failed_checks] == ["dbt"]


@pytest.mark.slow
def test_dbt_defect_evidence_names_the_cause(dbt_report: AuditReport) -> None:
    visible = dbt_report.task(tid("ecommerce.defect_visible_data_grading-v1")).check("dbt")
    assert any("visible raw data only" in e for e in visible.evidence)
    constant = dbt_report.task(tid("ecommerce.defect_constant_reference-v1")).check("dbt")
    assert any("every hidden reference equals the visible one" in e for e in constant.evidence)
    empty = dbt_report.task(tid("ecommerce.defect_reference_fails_hidden-v1")).check("dbt")
    assert any("is empty on hidden dataset" in e for e in empty.evidence)


@pytest.mark.slow
def test_dbt_patch_that_breaks_nothing_is_hackable() -> None:
    """The dbt check reuses the null (broken project) and oracle (fixed project) episodes."""
    result = audit_tasks([tid("ecommerce.defect_noop_patch-v1")], checks=["null", "dbt"])
    audit = result.tasks[0]
    assert audit.status == "hackable"
    dbt_check = audit.check("dbt")
    assert dbt_check.status == "hackable" and dbt_check.data["fixed_passes"] is True
    assert any("broken project passes" in e for e in dbt_check.evidence)


def test_process_pool_gives_the_same_statuses(report: AuditReport) -> None:
    ids = [tid("ecommerce.defect_wrong_oracle-v1"), tid("ecommerce.defect_ambiguous_reading-v1")]
    pooled = audit_tasks(ids, workers=2, checks=["oracle", "discrimination"])
    assert [t.task_id for t in pooled.tasks] == ids  # input order, whatever finished first
    assert {t.task_id: t.status for t in pooled.tasks} == {
        ids[0]: "broken",
        ids[1]: "ambiguous",
    }


def test_a_task_that_does_not_build_is_broken() -> None:
    result = audit_tasks([f"{SOUND}.s{SEED}.99"], checks=["oracle"])
    audit = result.tasks[0]
    assert audit.status == "broken"
    assert audit.failed_checks[0].name == "build"
    assert "variants" in audit.failed_checks[0].evidence[0]


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="workers"):
        audit_tasks([tid(SOUND)], workers=0)
    with pytest.raises(ValueError, match="unknown audit check"):
        audit_tasks([tid(SOUND)], checks=["oracel"])
    with pytest.raises(ValueError, match="twice"):
        audit_tasks([tid(SOUND), tid(SOUND)])
    with pytest.raises(ValueError, match="extra_seeds"):
        audit_tasks([tid(SOUND)], extra_seeds=-1)
    with pytest.raises(ValueError, match="grade_repeats"):
        audit_tasks([tid(SOUND)], grade_repeats=1)


def test_no_extra_seeds_skips_seed_sensitivity() -> None:
    result = audit_tasks([tid("ecommerce.defect_seed_independent-v1")], extra_seeds=0,
                         checks=["seed_sensitivity"])  # fmt: skip
    audit = result.tasks[0]
    assert audit.status == "usable" and audit.check("seed_sensitivity").outcome == "skip"


# ---- the report ----------------------------------------------------------------------------


def test_status_precedence() -> None:
    def fail(name: str, status: str) -> CheckResult:
        return CheckResult(name, "fail", status, ("x",))

    assert combine_status([]) == "usable"
    assert combine_status([CheckResult("a", "pass"), CheckResult("b", "skip", None, ("n/a",))]) == (
        "usable"
    )
    for i, status in enumerate(PRECEDENCE):
        lower = [fail(f"c{j}", s) for j, s in enumerate(PRECEDENCE[i:])]
        assert combine_status(list(reversed(lower))) == status
    assert combine_status([CheckResult("a", "error", "ambiguous", ("boom",))]) == "ambiguous"


def test_check_result_is_validated() -> None:
    with pytest.raises(ValueError):
        CheckResult("a", "fail", None, ("a failure must name a status",))
    with pytest.raises(ValueError):
        CheckResult("a", "pass", "broken")
    with pytest.raises(ValueError):
        CheckResult("a", "maybe")  # type: ignore[arg-type]


def test_json_schema_and_round_trip(report: AuditReport, tmp_path: Path) -> None:
    path = report.write(tmp_path / "out")
    assert path.name == "audit.json" and not list(path.parent.glob(".tmp-*"))
    data = json.loads(path.read_text())
    assert data["schema_version"] == SCHEMA_VERSION and data["kind"] == "replicas.audit"
    assert set(data) == {
        "schema_version",
        "kind",
        "kit_version",
        "config",
        "summary",
        "timings",
        "tasks",
    }
    summary = data["summary"]
    assert set(summary["statuses"]) == set(STATUSES)
    assert sum(summary["statuses"].values()) == summary["tasks"] == len(data["tasks"])
    assert summary["usable"] == 2 and summary["all_usable"] is False
    assert data["config"]["extra_seeds"] == 2 and data["config"]["seed_pool"] == {"ecommerce": [1]}
    for task in data["tasks"]:
        assert task["status"] in STATUSES
        assert list(task["checks"]) == check_names()
        for name, check in task["checks"].items():
            assert check["outcome"] in ("pass", "fail", "error", "skip")
            assert (check["status"] is not None) == (check["outcome"] in ("fail", "error"))
            assert isinstance(check["evidence"], list) and check["wall_s"] >= 0
            assert (name in task["failed_checks"]) == (check["outcome"] in ("fail", "error"))
    assert set(data["timings"]["checks_s"]) == set(check_names())
    again = read_report(path.parent)
    assert again.to_dict()["tasks"] == data["tasks"]


# ---- the forms the leak check looks for ------------------------------------------------------


def test_small_or_round_numbers_are_not_distinctive() -> None:
    assert not is_distinctive(3.0, 0) and not is_distinctive(0.25, 2) and not is_distinctive(2.5, 1)
    assert is_distinctive(4521.0, 0) and is_distinctive(12.5, 1) and is_distinctive(123456.78, 2)
    assert number_forms(3.0) == [] and number_forms(0.25, VerifierConfig(abs_tol=0.01)) == []


def test_number_renderings_are_found_as_whole_numbers() -> None:
    forms = number_forms(123456.78, VerifierConfig(abs_tol=0.01))
    assert find_numbers("the total was $123,456.78.", forms) == ["123,456.78"]
    assert find_numbers("ids 1123456.78 and 123456.789", forms) == []
    assert find_numbers("about 123456.8 in all", forms) == ["123456.8 (rounded to 1 dp)"]
    share = number_forms(0.1234)
    assert find_numbers("a share of 12.34% of orders", share) == ["12.34% (as a percentage (x100))"]
    assert find_numbers("in 2025 and 2024", number_forms(2025.0)) == []  # years are everywhere


def test_collections_and_number_texts() -> None:
    assert find_collection('answer: ["b", "a"]', ["b", "a"]) == '["b", "a"]'
    assert find_collection("a, b", ["b", "a"]) == "a, b"
    assert find_collection("codes: a, c, b", ["a", "b"]) is None
    assert parse_number_text("29.99%") == 29.99 and parse_number_text("$1,234.50") == 1234.5
    assert parse_number_text("none") is None
