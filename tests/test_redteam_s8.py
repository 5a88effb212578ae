"""Red team, session 8: one regression test per attack that worked, replayed where the agent acts.

Each test fails on the code before its fix:

* a 450-byte YAML alias bomb ("billion laughs") in ``write_file`` froze the worker for minutes:
  the host's path check walked the alias-expanded tree (9**9 leaves took 658 s on the shipped
  ecommerce task; every dbt call and the grading copy would walk it again);
* a ``target-path`` inside the project put dbt's own output (``partial_parse.msgpack``,
  ``manifest.json``) where the grading copy does not skip it, so the agent's parse state could
  reach grading;
* the verdict cache's project fingerprint was ambiguous (files were not length-prefixed), so two
  different projects shared one cached verdict.
"""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import replicas
from replicas.env import Env
from replicas.sandbox import copy_project_safely
from replicas.tasks import build_task
from replicas.tasks.grading import _project_fingerprint
from tests.toy_families import toy_families_registered

REPO = Path(__file__).resolve().parent.parent


def alias_bomb(levels: int, leaf: str = "'x'") -> str:
    """A YAML document whose alias expansion has 9**levels leaves (a few hundred bytes)."""
    names = [f"l{i}" for i in range(levels + 1)]
    lines = [f"{names[0]}: &{names[0]} [{leaf}, " + ", ".join(["'x'"] * 8) + "]"]
    for prev, cur in itertools.pairwise(names):
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


_toy = pytest.fixture(scope="module", autouse=True)(toy_families_registered)


@pytest.fixture()
def dbt_env() -> Iterator[Env]:
    task = build_task("toy.fix-v1.s1.0")
    with Env.from_task(replace(task, limits=replace(task.limits, max_steps=50))) as env:
        env.reset()
        yield env


def call(env: Env, name: str, **arguments: Any) -> tuple[str, bool]:
    obs, reward, terminated, truncated, info = env.step({"name": name, "arguments": arguments})
    assert reward == 0.0 and not terminated and not truncated
    return str(obs), bool(info["error"])


def test_a_yaml_alias_bomb_is_checked_without_expanding_it() -> None:
    """The path check must visit each loaded object once. Run in a child process so the old
    walk (9**12 leaves: hours) is cut off by the guard instead of hanging the test run; the
    guard is a hang detector, not a timing goal (the fixed check takes milliseconds)."""
    bomb = alias_bomb(12, leaf="{location: '/etc/passwd'}")
    assert len(bomb) < 1000
    code = (
        "import sys\n"
        "from replicas.sandbox.project import refused_content\n"
        "print(refused_content('models/bomb.yml', sys.stdin.read()))\n"
    )
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code],
            input=bomb,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=REPO,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("checking a 1 KB YAML file did not finish in 120 s (alias expansion)")
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the bomb's one absolute path is still found, however often the aliases repeat it
    assert "location '/etc/passwd' must be a relative path inside the project" in proc.stdout


def test_write_file_answers_yaml_bombs_and_deep_nesting_with_an_error(dbt_env: Env) -> None:
    obs, error = call(
        dbt_env, "write_file", path="models/bomb.yml", content=alias_bomb(9, "{file: '/x'}")
    )
    assert error and "'/x' must be a relative path inside the project" in obs
    obs, error = call(
        dbt_env, "write_file", path="models/deep.yml", content="[" * 5000 + "]" * 5000
    )
    assert error and "nested too deeply" in obs
    obs, error = call(dbt_env, "write_file", path="models/loop.yml", content="a: &a [*a]\n")
    assert not error, obs  # a self-referencing alias is valid YAML with no path in it
    assert not (Path(dbt_env.sandbox.project_dir) / "models" / "bomb.yml").exists()  # type: ignore[union-attr]


@pytest.mark.parametrize("key", ["target-path", "log-path"])
def test_dbt_output_directories_cannot_move_into_the_graded_tree(dbt_env: Env, key: str) -> None:
    project = Path(dbt_env.sandbox.project_dir)  # type: ignore[union-attr]
    text = (project / "dbt_project.yml").read_text()
    obs, error = call(
        dbt_env, "write_file", path="dbt_project.yml", content=f"{text}\n{key}: build\n"
    )
    assert error and f"'{key}' must stay" in obs
    assert (project / "dbt_project.yml").read_text() == text


def test_the_agents_parse_state_never_reaches_a_grading_copy(tmp_path: Path) -> None:
    """What dbt wrote under a moved target-path (here planted directly, as dbt would have)."""
    src = tmp_path / "agent"
    (src / "models").mkdir(parents=True)
    (src / "models" / "m.sql").write_text("select 1 as x\n")
    (src / "dbt_project.yml").write_text("name: toy\nprofile: replica\ntarget-path: build\n")
    (src / "build").mkdir()
    (src / "build" / "partial_parse.msgpack").write_bytes(b"\x85agent-parse-state")
    refused = copy_project_safely(src, tmp_path / "grading")
    assert any("target-path" in why for why in refused), refused


def test_two_different_projects_never_share_a_verdict_key(tmp_path: Path) -> None:
    honest, forged = tmp_path / "honest", tmp_path / "forged"
    for root in (honest, forged):
        (root / "models").mkdir(parents=True)
        (root / "dbt_project.yml").write_text("name: toy\nprofile: replica\n")
    fixed = "select kind, count(*) as n, sum(value) as total from raw.things group by kind\n"
    (honest / "models" / "a_notes.md").write_text("notes")
    (honest / "models" / "thing_totals.sql").write_text(fixed)
    # one file, written with write_file (NUL bytes are allowed in a .md), swallowing the model
    (forged / "models" / "a_notes.md").write_text(f"notes\0models/thing_totals.sql\0{fixed}")
    assert _project_fingerprint(honest) != _project_fingerprint(forged)


def test_an_openenv_session_cannot_read_the_answer_and_resubmit_it() -> None:
    """Submit nonsense, read the verdict, reset into the same task, submit what it said: the
    verdict an agent-facing server sends must not carry the expected answer."""
    from replicas.integrations.openenv import ReplicaAction, ReplicaEnvironment

    task_id = "toy.total-v1.s1.0"
    expected = build_task(task_id).expected
    session = ReplicaEnvironment([task_id])
    try:
        session.reset(task_id=task_id)
        first = session.step(ReplicaAction(name="submit", arguments={"answer": "0.01"}))
        assert first.done and first.reward == 0.0 and first.verdict is not None
        assert first.verdict["reasons"], "a wrong answer's verdict names why"
        leaked = [r["expected"] for r in first.verdict["reasons"] if "expected" in r]
        assert leaked == [] and repr(expected) not in first.model_dump_json()
        session.reset(task_id=task_id)
        second = session.step(ReplicaAction(name="submit", arguments={"answer": "0.01"}))
        assert second.reward == 0.0
    finally:
        session.close()


def test_the_mcp_result_of_a_wrong_submission_hides_the_expected_answer() -> None:
    from replicas.integrations.mcp import step_result

    task_id = "toy.total-v1.s1.0"
    expected = build_task(task_id).expected
    with Env.from_task(build_task(task_id)) as env:
        env.reset()
        outcome = env.step({"name": "submit", "arguments": {"answer": "0.01"}})
        assert outcome[4]["verdict"]["reasons"][0]["expected"] == expected  # the runner keeps it
        result = step_result(*outcome)
    verdict = result.structured_content["verdict"]
    assert verdict["passed"] is False and verdict["reasons"]
    assert all("expected" not in r for r in verdict["reasons"])
    assert repr(expected) not in result.model_dump_json()


def test_an_openenv_session_cannot_read_table_answers_from_the_submit_text() -> None:
    from replicas.integrations.openenv import ReplicaAction, ReplicaEnvironment

    task_id = "ecommerce.aov_trend-v2.s2.1"
    expected = build_task(task_id).expected
    wrong = "month,aov_usd\n" + "\n".join(f"{row[0]},1" for row in expected["rows"])
    session = ReplicaEnvironment([task_id])
    try:
        session.reset(task_id=task_id)
        result = session.step(ReplicaAction(name="submit", arguments={"answer": wrong}))
        assert result.done and result.reward == 0.0
        shown = result.model_dump_json()
        assert [row[1] for row in expected["rows"] if f"{row[1]}" in shown] == []
    finally:
        session.close()


def test_grading_refuses_a_mart_far_larger_than_the_reference_without_loading_it(
    tmp_path: Path,
) -> None:
    import duckdb

    from replicas.tasks import VerifierConfig
    from replicas.tasks.grading import _compare_models

    warehouse = tmp_path / "warehouse.duckdb"
    rows = 1_000_000
    con = duckdb.connect(str(warehouse))
    con.execute(
        "create table main.thing_totals as "
        f"select 'a' as kind, 1 as n, 1.0 as total from range({rows})"
    )
    con.close()
    config = VerifierConfig(dbt_models=("thing_totals",), key_columns=("kind",), abs_tol=1e-6)
    reference = {"columns": ["kind", "n", "total"], "rows": [["a", 1, 1.0], ["b", 2, 2.0]]}
    reasons, objective = _compare_models(config, warehouse, lambda _sql: reference)
    assert objective == {"thing_totals": 0.0}
    assert [r.code for r in reasons] == ["too_many_rows"]
    assert f"{rows}" in reasons[0].message


def test_the_terminal_observation_withholds_the_reference_but_keeps_the_diagnosis() -> None:
    """What the red team's OpenEnv session read, seen through ``Env.step`` itself: the codes,
    counts and the agent's own values stay; no reference cell or example row does."""
    from replicas.tasks import build_task as build
    from replicas.verifiers.tables import REDACTED

    task_id = "ecommerce.aov_trend-v2.s2.1"
    expected = build(task_id).expected
    rows = expected["rows"]
    # every row wrong, and one month dropped: wrong_values and missing_rows both fire
    wrong = "month,aov_usd\n" + "\n".join(f"{row[0]},1" for row in rows[1:])
    env = replicas.make(task_id)
    try:
        env.reset()
        obs, reward, terminated, _trunc, info = env.step(
            {"name": "submit", "arguments": {"answer": wrong}}
        )
    finally:
        env.close()
    assert terminated and reward == 0.0
    full = info["verdict"]["feedback"]  # the runner's record keeps everything
    assert any(str(row[1]) in full for row in rows)
    assert REDACTED in obs and "got 1" in obs
    assert "expected keys missing" in obs or "expected rows not found" in obs
    assert [row[1] for row in rows if str(row[1]) in obs] == []
    assert str(rows[0][0]) not in obs  # the dropped month is not named either


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("read_file", {"path": "x" * 300}),
        ("list_files", {"path": "a/" * 2100}),
        ("write_file", {"path": "models/" + "é" * 200 + ".sql", "content": "select 1"}),
    ],
)
def test_a_failing_file_tool_names_no_host_path(
    dbt_env: Env, tool: str, arguments: dict[str, Any]
) -> None:
    """An OSError's message (``File name too long: '<path>'``) showed the sandbox's host
    directory; the agent sees the neutral ``/sandbox`` that dbt sees too."""
    root = dbt_env.sandbox.root  # type: ignore[union-attr]
    obs, error = call(dbt_env, tool, **arguments)
    assert error and "File name too long" in obs
    assert str(root) not in obs and str(root.resolve()) not in obs and "/sandbox/project/" in obs


def test_a_graded_view_cannot_run_unbounded_sql_in_the_worker(tmp_path: Path) -> None:
    import duckdb

    warehouse = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(warehouse))
    con.execute(
        "create view main.thing_totals as select 'a' as kind, count(*) as n, "
        "sum(a.range * b.range) * 0 + 1.0 as total from range(1000000) a, range(1000000) b"
    )
    con.close()
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from replicas.tasks import VerifierConfig\n"
        "from replicas.tasks.grading import _compare_models\n"
        "config = VerifierConfig(dbt_models=('thing_totals',), key_columns=('kind',))\n"
        "ref = {'columns': ['kind', 'n', 'total'], 'rows': [['a', 1, 1.0]]}\n"
        "from replicas.tasks.grading import GradeContext\n"
        "ctx = GradeContext(None, Path('.'), Path('.'), dbt_timeout_s=5.0)\n"
        "reasons, _ = _compare_models(config, Path(sys.argv[1]), lambda _sql: ref, ctx)\n"
        "print([r.code for r in reasons], ctx.ran_out_of_time)\n"
    )
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code, str(warehouse)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("reading one graded view kept the worker busy for over 60 s")
    assert proc.returncode == 0, proc.stderr[-2000:]
    # stopped at the grading deadline: fails as out of time, and such a verdict is not cached
    assert proc.stdout.strip().splitlines()[-1].endswith("['grading_time_limit'] True")
