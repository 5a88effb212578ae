"""``replicas audit`` on the command line: exit codes, JSON output, audit.json, fix hints.

Runs the real command in-process (typer's runner), so the test-only defective families
registered by tests/defective_families.py are visible; subprocess runs check the module entry
point itself and ``--import``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replicas.cli.audit import audit_app
from tests.paths import REPO_ROOT as REPO

BROKEN = "ecommerce.defect_wrong_oracle-v1.s1.0"
SOUND = "ecommerce.sound_item_revenue-v1.s1.0"
CHEAP = "oracle,null,discrimination"


@pytest.fixture(scope="module", autouse=True)
def _defective(module_registries: None) -> None:
    # Imported here, inside the registry restore: importing the module registers its families.
    from tests.defective_families import register_defective

    register_defective()


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def test_json_output_and_exit_1_when_not_usable(runner: CliRunner) -> None:
    result = runner.invoke(
        audit_app, ["--tasks", BROKEN, "--checks", CHEAP, "--json", "--workers", "1"]
    )
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["schema_version"] == 1
    assert data["summary"]["statuses"]["broken"] == 1
    (task,) = data["tasks"]
    assert task["task_id"] == BROKEN and task["status"] == "broken"
    assert task["failed_checks"] == ["oracle"]
    assert list(task["checks"]) == ["oracle", "null", "discrimination"]
    assert f"audited 1/1 {BROKEN}: broken (" in result.stderr  # stdout stays pure JSON


def test_table_out_dir_and_exit_0_when_usable(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "audit"
    result = runner.invoke(audit_app, ["--tasks", SOUND, "--checks", CHEAP, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "all 1 tasks are usable" in result.stdout
    # not a terminal: one progress line per task on stderr, none on stdout
    assert f"audited 1/1 {SOUND}: usable (" in result.stderr
    assert "audited 1/1" not in result.stdout
    data = json.loads((out / "audit.json").read_text())
    assert data["tasks"][0]["status"] == "usable"
    assert data["config"]["tasks"] == SOUND


def test_fix_hints_say_what_to_change(runner: CliRunner) -> None:
    result = runner.invoke(audit_app, ["--tasks", BROKEN, "--checks", "oracle", "--fix-hints"])
    assert result.exit_code == 1
    assert "tasks that are not usable" in result.stdout
    assert "ecommerce.defect_wrong_oracle-v1 · oracle" in result.stdout
    assert "fix:" in result.stdout and "oracle" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--suite", "no-such-suite"], "unknown suite"),
        (["--tasks", "nothing.matches-v9.*"], "matches"),
        (["--tasks", "ecommerce.no_such_family-v1.s1.0"], "unknown task family"),
        (["--tasks", SOUND, "--seeds", "-1"], "--seeds"),
        (["--tasks", SOUND, "--checks", "oracle,nope"], "unknown audit check"),
        (["--tasks", SOUND, "--workers", "0"], "--workers"),
    ],
)
def test_bad_input_exits_2(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(audit_app, args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_import_option_registers_families_in_a_fresh_process(tmp_path: Path) -> None:
    """A user's own family, imported with --import, is audited by the real entry point."""
    proc = subprocess.run(
        [
            sys.executable, "-m", "replicas.cli", "audit",
            "--import", "tests.defective_families",
            "--tasks", BROKEN, "--checks", "oracle", "--json",
        ],
        capture_output=True, text=True, cwd=REPO, env={**os.environ}, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["tasks"][0]["status"] == "broken"
    missing = subprocess.run(
        [sys.executable, "-m", "replicas.cli", "audit", "--import", "no_such_module_xyz"],
        capture_output=True, text=True, cwd=REPO, env={**os.environ}, timeout=120,
    )  # fmt: skip
    assert missing.returncode == 2 and "no_such_module_xyz" in missing.stderr


def test_mounted_as_replicas_audit(runner: CliRunner) -> None:
    from replicas.cli import app

    result = runner.invoke(app, ["audit", "--tasks", BROKEN, "--checks", "oracle", "--json"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["summary"]["statuses"]["broken"] == 1
    assert runner.invoke(app, ["audit", "--suite", "no-such-suite"]).exit_code == 2


def test_module_entry_point_exits_2_on_unknown_suite() -> None:
    env = {**os.environ}
    proc = subprocess.run(
        [sys.executable, "-m", "replicas.cli", "audit", "--suite", "no-such-suite"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert "core-v1" in proc.stderr  # the error lists the known suites
