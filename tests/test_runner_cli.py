"""``replicas run`` as a user meets it: exit codes, Ctrl-C, and ``--resume`` finishing the run."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from replicas.cli.run import run_app
from replicas.runner import read_results, read_run_config

SCRIPT = Path(__file__).parent / "fixtures" / "script_agent.py"
GLOB = "ecommerce.revenue_period-v1.*"


def cli(*args: str, **kw: object) -> list[str]:
    return [sys.executable, "-m", "replicas.cli", "run", *args]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cli(*args),
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        timeout=300,
    )


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--agent", "orcle"), "did you mean oracle"),
        (("--agent", "oracle", "--suite", "core-v0"), "unknown suite 'core-v0'"),
        (
            ("--agent", "oracle", "--tasks", "nothing.like-v1.*"),
            "no task of suite 'core-v1' matches",
        ),
        (("--agent", "oracle", "--resume"), "--resume needs --out"),
        (("--agent", "oracle", "--executor", "slurm"), "unknown executor 'slurm'"),
        (("--agent", "oracle", "--attempts", "0"), "--attempts must be an int >= 1"),
        (("--agent", "oracle", "--ray-address", "x:1"), "only applies to --executor ray"),
        (("--agent", "openai:m", "--base-url", "ftp://x"), "http:// or https://"),
        (("--agent", "adversary:nope"), "unknown adversary strategies"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(
    tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    out = () if "--resume" in args else ("--out", str(tmp_path / "run"))
    result = CliRunner().invoke(run_app, [*args, *out])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert fragment in result.stderr.replace("\n", " ")
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "run").exists()


def test_bad_input_exit_code_from_a_real_process(tmp_path: Path) -> None:
    proc = run_cli("--agent", "orcle", "--out", str(tmp_path / "run"))
    assert proc.returncode == 2 and "did you mean oracle" in proc.stderr


def test_interrupt_then_resume_finishes_without_duplicates(tmp_path: Path) -> None:
    out = tmp_path / "run"
    agent = "cmd:" + shlex.join([sys.executable, str(SCRIPT), "--mode", "slow", "--sleep", "0.4"])
    args = ("--agent", agent, "--tasks", GLOB, "--workers", "1", "--out", str(out))
    proc = subprocess.Popen(
        cli(*args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: SIGINT to the group is a terminal's Ctrl-C
        # An ignored SIGINT is inherited through exec (as a shell's background job has it); this
        # xdist worker may carry one from a library, so the CLI starts as it would in a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        results = out / "results.jsonl"
        if results.exists() and results.read_text().count("\n") >= 2:
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "--resume" in stderr and "Traceback" not in stderr
    before = read_results(out)
    planned = read_run_config(out)["episodes_planned"]  # type: ignore[index]
    assert 2 <= len(before.records) < planned and not before.bad_lines
    # and a crash mid-write would have left a torn line
    with open(out / "results.jsonl", "ab") as fh:
        fh.write(b'{"schema_version": 1, "task_id": "ecommerce.rev')

    done = run_cli(*args, "--resume", "--json")
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["complete"] and outcome["already_done"] == len(before.records)
    assert outcome["ran"] == planned - len(before.records)
    after = read_results(out)
    assert not after.torn_tail and not after.bad_lines
    lines = (out / "results.jsonl").read_text().splitlines()
    keys = [(r["task_id"], r["attempt"]) for r in map(json.loads, lines)]
    assert len(keys) == len(set(keys)) == planned == 9
    assert all(r["agent"] == agent and not r["passed"] for r in after.records)
    assert (out / "summary.json").exists() == _report_available()


def _report_available() -> bool:
    try:
        from replicas.report import write_summary  # noqa: F401
    except ImportError:
        return False
    return True


def test_a_finished_run_prints_a_summary_and_refuses_reuse(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = run_cli(
        "--agent",
        "oracle",
        "--tasks",
        "ecommerce.top_n-v1.s1.*",
        "--workers",
        "0",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    assert "ecommerce.top_n-v1" in proc.stdout and "100%" in proc.stdout
    assert len(read_results(out).records) == 3
    again = run_cli("--agent", "oracle", "--tasks", "ecommerce.top_n-v1.s1.*", "--out", str(out))
    assert again.returncode == 2 and "already holds a run" in again.stderr
    other = run_cli("--agent", "null", "--out", str(out), "--resume")
    assert other.returncode == 2 and "different agent" in other.stderr
