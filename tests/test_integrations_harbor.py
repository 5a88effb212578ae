"""``replicas export harbor``: the task directories' layout, and each task's own test script run
locally (``tests/test.sh`` with its paths pointed at a temp workspace) against the oracle
(``solution/solve.sh``) and the null answer.

Harbor itself needs Python >= 3.12 and Docker for a trial; where ``harbor`` is installed its
``lint`` runs on the export too. On Python 3.11 (CI here) the layout is checked directly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from replicas.integrations.harbor import ANSWER_FILE, _task_toml, agent_requirements
from replicas.tasks import Limits, task_from_id
from tests.tiers import slow

TASKS = (
    "ecommerce.revenue_period-v1.s1.0",
    "credit_cards.card_terms_qa-v1.s1.0",
    "ecommerce.dbt_fix-v1.s1.0",
)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("harbor") / "tasks"
    cmd = [sys.executable, "-m", "replicas.cli", "export", "harbor", "--out", str(out)]
    for task_id in TASKS:
        cmd += ["--task", task_id]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return out


def _run_tests(task_dir: Path, workspace: Path, logs: Path) -> float:
    env = {
        **os.environ,
        "REPLICAS_WORKSPACE": str(workspace),
        "REPLICAS_VERIFIER_LOGS": str(logs),
        "REPLICAS_PYTHON": sys.executable,
    }
    proc = subprocess.run(
        ["bash", str(task_dir / "tests" / "test.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads((logs / "verdict.json").read_text())
    reward = float((logs / "reward.txt").read_text())
    assert report["reward"] == reward and report["task_id"] == task_dir.name
    return reward


def test_layout(exported: Path) -> None:
    assert sorted(p.name for p in exported.iterdir()) == sorted(TASKS)
    for task_id in TASKS:
        task = task_from_id(task_id)
        root = exported / task_id
        config = tomllib.loads((root / "task.toml").read_text())
        assert config["task"]["name"] == f"replicas/{task_id}"
        assert config["metadata"]["task_id"] == task_id
        assert config["verifier"]["environment_mode"] == "separate"
        assert config["verifier"]["timeout_sec"] == 1800.0  # v1 tasks: unchanged
        assert config["artifacts"] == ["/workspace"]
        assert config["environment"]["network_mode"] == "no-network"
        assert task.instruction in (root / "instruction.md").read_text()
        agent_image = (root / "environment" / "Dockerfile").read_text()
        assert "COPY workspace/ /workspace/" in agent_image
        assert all(req in agent_image for req in agent_requirements())
        assert "replica-kit" not in agent_image  # the kit could rebuild the answer
        assert "replica-kit==" in (root / "tests" / "Dockerfile").read_text()
        for script in ("tests/test.sh", "solution/solve.sh"):
            assert os.access(root / script, os.X_OK)
        assert json.loads((root / "tests" / "task.json").read_text()) == {"task_id": task_id}
        workspace = root / "environment" / "workspace"
        assert (workspace / "project" / "dbt_project.yml").is_file()
        with duckdb.connect(str(workspace / "warehouse.duckdb"), read_only=True) as con:
            tables = {
                r[0]
                for r in con.execute("select table_name from information_schema.tables").fetchall()
            }
        # the agent's world is the episode's sandbox: withheld/graded models are absent
        for model in task.sandbox_spec().drop_models:
            assert model not in tables
        assert tables  # and the data is there
        # the expected answer is nowhere in the agent's files
        assert not (workspace / ANSWER_FILE).exists()


@pytest.mark.parametrize("task_id", [slow(t) if ".dbt_" in t else t for t in TASKS])
def test_oracle_scores_one_and_null_scores_zero(
    exported: Path, task_id: str, tmp_path: Path
) -> None:
    root = exported / task_id
    oracle_ws = tmp_path / "oracle"
    shutil.copytree(root / "environment" / "workspace", oracle_ws)
    subprocess.run(
        ["bash", str(root / "solution" / "solve.sh")],
        env={**os.environ, "REPLICAS_WORKSPACE": str(oracle_ws)},
        check=True,
        timeout=120,
    )
    task = task_from_id(task_id)
    assert (oracle_ws / ANSWER_FILE).read_text() == task.oracle[-1].arguments["answer"]
    assert _run_tests(root, oracle_ws, tmp_path / "oracle-logs") == 1.0

    null_ws = tmp_path / "null"
    shutil.copytree(root / "environment" / "workspace", null_ws)
    assert _run_tests(root, null_ws, tmp_path / "null-logs") == 0.0
    report = json.loads((tmp_path / "null-logs" / "verdict.json").read_text())
    assert report["verdict"]["passed"] is False


@pytest.mark.skipif(shutil.which("harbor") is None, reason="harbor needs Python >= 3.12")
def test_harbor_lint_passes(exported: Path) -> None:
    proc = subprocess.run(
        ["harbor", "lint", *(str(exported / t) for t in TASKS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_existing_out_is_a_usage_error(exported: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "replicas.cli", "export", "harbor", "--out", str(exported)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and "exists" in proc.stderr


def test_the_verifier_outlasts_a_tasks_own_grading_budget() -> None:
    """A task with its own grading budget (the -v2 enterprise families: 1800 s) gets a Harbor
    verifier timeout of setup plus that budget, so Harbor never stops a grading the kit would
    still finish."""
    task = task_from_id("ecommerce.revenue_period-v1.s1.0")
    for budget in (60.0, 1800.0, 7200.0):
        limited = replace(task, limits=Limits(grading_wall_s=budget))
        timeout = tomllib.loads(_task_toml(limited))["verifier"]["timeout_sec"]
        assert timeout >= budget + 600, (budget, timeout)
        assert timeout >= 1800.0
