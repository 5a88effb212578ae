"""Isolation: one test per attack class of the red team's report, replayed through ``env.step``
(and, for the OS wall, straight against ``run_dbt`` with the policy checks bypassed).

Every test asserts what must hold whatever the agent does: nothing outside its sandbox changed
(the pristine snapshot, the kit's own dbt projects, other episodes), no reward was earned, and
the episode ended within its stated limits.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from replicas import osbox
from replicas.dbt import run_dbt
from replicas.env import Env
from replicas.osbox import ProcessLimits
from replicas.sandbox import SandboxSpec
from replicas.tasks import build_task
from tests.toy_families import (
    BUGGY_MODEL,
    TOY_MODEL,
    sandbox_of,
    toy_families_registered,
)

REPO = Path(__file__).resolve().parent.parent
KIT_PROJECTS = REPO / "dbt_projects"
MARKER = "ISOLATION-MARKER-7f3a"


_toy = pytest.fixture(scope="module", autouse=True)(toy_families_registered)


def tree_digest(root: Path) -> str:
    """sha256 over every path and file's bytes below ``root`` (what "unchanged" means)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if "__pycache__" in path.parts:
            continue
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def make_env(task_id: str = "toy.fix-v1.s1.0", **limits: Any) -> Env:
    task = build_task(task_id)
    task = replace(task, limits=replace(task.limits, max_steps=60, **limits))
    return Env.from_task(task)


@pytest.fixture()
def guarded() -> Iterator[dict[str, Any]]:
    """A dbt episode, with the pristine snapshot and the kit's projects hashed around it."""
    env = make_env()
    env.reset()
    snapshot = Path(env._snapshot.path)
    before = (tree_digest(snapshot), tree_digest(KIT_PROJECTS))
    started = time.monotonic()
    yield {"env": env, "snapshot": snapshot}
    env.close()
    assert (tree_digest(snapshot), tree_digest(KIT_PROJECTS)) == before, "host files changed"
    assert time.monotonic() - started < env.task.limits.wall_s + 120


def call(env: Env, name: str, **arguments: Any) -> tuple[str, bool]:
    obs, reward, terminated, _truncated, info = env.step({"name": name, "arguments": arguments})
    assert reward == 0.0 and not terminated
    return obs, bool(info["error"])


def submit_scores_zero(env: Env) -> dict[str, Any]:
    _, reward, terminated, truncated, info = env.step(
        {"name": "submit", "arguments": {"answer": "done"}}
    )
    assert (terminated or truncated) and reward == 0.0
    return dict(info["verdict"])


def plant(env: Env, rel: str, content: str) -> None:
    """Write a file straight into the sandbox's project, bypassing ``write_file`` (as if a
    policy hole let it through): the layers behind must still hold."""
    assert env.sandbox is not None
    path = sandbox_of(env).project_dir / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)


def evil_package(target_dir: Path) -> str:
    return (
        "name: evil\nversion: '1.0.0'\nconfig-version: 2\n"
        f"analysis-paths: ['{target_dir}']\nmodel-paths: ['{target_dir}']\n"
    )


#: A table that does not compress: ~70 bytes per row of hashes and random doubles.
INCOMPRESSIBLE = (
    "{{{{ config(materialized='table') }}}}select md5(i::varchar) || md5((i * 7)::varchar) as s, "
    "random() as r from range({rows}) t(i)"
)

REF_OVERRIDE = (
    "{% macro ref(name) %}{% do return(builtins.ref(name)) %}{% endmacro %}\n"
    "{% macro source(a, b) %}" + MARKER + "{% endmacro %}\n"
)


# ---- 1-3: package-path write, analysis-path read, ref override -------------------------------


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("dbt_packages/evil/dbt_project.yml", "name: evil"),
        ("dbt_packages/evil/models/x.sql", "select 1"),
        ("models/nested/dbt_project.yml", "name: nested"),
        ("macros/overrides.sql", REF_OVERRIDE),
        ("macros/mat.sql", "{% materialization table, adapter='duckdb' %}{% endmaterialization %}"),
        ("packages.yml", "packages: []"),
        ("selectors.yml", "selectors: []"),
        ("target/run/x.sql", "select 1"),
        (
            "models/ext.sql",
            "{{ config(materialized='external', location='/tmp/out.csv') }}select 1",
        ),
        ("models/src.yml", "sources:\n  - name: s\n    meta:\n      external_location: /etc/x\n"),
    ],
)
def test_write_file_refuses_every_dangerous_project_file(
    guarded: dict[str, Any], path: str, content: str
) -> None:
    env = guarded["env"]
    obs, error = call(env, "write_file", path=path, content=content)
    assert error and obs.startswith("ERROR"), obs
    assert not (sandbox_of(env).project_dir / path).exists()
    submit_scores_zero(env)


def test_planted_package_and_absolute_paths_never_reach_dbt(guarded: dict[str, Any]) -> None:
    env, snapshot = guarded["env"], guarded["snapshot"]
    victim = snapshot / "dbt" / "models"
    plant(env, "dbt_packages/evil/dbt_project.yml", evil_package(victim))
    plant(env, "macros/overrides.sql", REF_OVERRIDE)
    obs, error = call(env, "dbt", command="compile")
    assert error and "macro may not redefine" in obs, obs
    assert not (sandbox_of(env).project_dir / "dbt_packages").exists()  # removed before the call
    (sandbox_of(env).project_dir / "macros" / "overrides.sql").unlink()
    project_yml = sandbox_of(env).project_dir / "dbt_project.yml"
    project_yml.write_text(project_yml.read_text() + f"analysis-paths: ['{victim}']\n")
    obs, error = call(env, "dbt", command="compile")
    assert error and "relative paths inside the project" in obs, obs
    submit_scores_zero(env)


def _toy_project(tmp_path: Path, env: Env) -> tuple[Path, Path]:
    """A copy of the episode's project and warehouse in ``tmp_path`` (for direct run_dbt)."""
    assert env.sandbox is not None
    root = tmp_path / "sbx"
    shutil.copytree(sandbox_of(env).project_dir, root / "project")
    shutil.copyfile(sandbox_of(env).warehouse, root / "warehouse.duckdb")
    return root / "project", root / "warehouse.duckdb"


def test_os_wall_holds_when_the_policy_is_bypassed(guarded: dict[str, Any], tmp_path: Path) -> None:
    """The red team's write-anywhere chain, handed to dbt directly: a package with absolute
    analysis/model paths over a victim directory, and a model copying every parsed node's code
    into a table. Inside the OS sandbox the victim paths do not exist."""
    env = guarded["env"]
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "secret.sql").write_text(f"select '{MARKER}' as leaked\n")
    before = tree_digest(victim)
    project, warehouse = _toy_project(tmp_path, env)
    pkg = project / "dbt_packages" / "evil"
    pkg.mkdir(parents=True)
    (pkg / "dbt_project.yml").write_text(evil_package(victim))
    (project / "models" / "copy_graph.sql").write_text(
        "select '{{ graph.nodes.values() | map(attribute='raw_code') | join(' ') "
        "| replace(\"'\", '') }}' as code\n"
    )
    result = run_dbt(project, warehouse, ["run"], timeout_s=300)
    assert result.isolation == "bubblewrap"
    assert tree_digest(victim) == before
    assert MARKER not in result.log
    if result.ok:  # dbt may or may not tolerate the missing paths; either way nothing leaked
        import duckdb

        con = duckdb.connect(str(warehouse), read_only=True)
        try:
            code = con.execute("select code from main.copy_graph").fetchall()[0][0]
        finally:
            con.close()
        assert MARKER not in code


# ---- 4-5: cross-episode tamper, cache poisoning ---------------------------------------------


def test_sandboxes_share_no_file_with_each_other_or_the_template(guarded: dict[str, Any]) -> None:
    env_a = guarded["env"]
    with make_env() as env_b:
        env_b.reset()
        a = sandbox_of(env_a).project_dir / "dbt_project.yml"
        b = sandbox_of(env_b).project_dir / "dbt_project.yml"
        assert os.stat(a).st_ino != os.stat(b).st_ino and os.stat(a).st_nlink == 1
        before_b = b.read_bytes()
        with open(a, "a") as fh:  # an in-place write, as dbt's compiler would make one
            fh.write(f"# {MARKER}\n")
        assert b.read_bytes() == before_b
        with make_env() as env_c:
            env_c.reset()
            assert MARKER not in (sandbox_of(env_c).project_dir / "dbt_project.yml").read_text()
    submit_scores_zero(env_a)


def test_a_tampered_snapshot_is_never_graded_against() -> None:
    with make_env() as env:
        env.reset()
        snapshot = Path(env._snapshot.path)
        model = snapshot / "dbt" / TOY_MODEL
        original = model.read_bytes()
        mode = model.stat().st_mode
        os.chmod(model.parent, 0o755)
        os.chmod(model, 0o644)
        try:
            model.write_text(BUGGY_MODEL)
            call(env, "write_file", path=TOY_MODEL, content=env.task.oracle[0].arguments["content"])
            verdict = submit_scores_zero(env)
            assert [r["code"] for r in verdict["reasons"]] == ["snapshot_tampered"]
        finally:
            model.write_bytes(original)
            os.chmod(model, mode)


# ---- 6-7: memory / timeout blow-up, disk fill --------------------------------------------------


def test_a_runaway_model_is_stopped_within_the_dbt_timeout(guarded: dict[str, Any]) -> None:
    env = make_env(dbt_timeout_s=25.0)
    env.reset()
    try:
        call(
            env,
            "write_file",
            path="models/forever.sql",
            content=(
                "with recursive r(n) as (select 1 union all select n + 1 from r) "
                "select count(*) as n from r"
            ),
        )
        started = time.monotonic()
        obs, error = call(env, "dbt", command="run --select forever")
        assert error and time.monotonic() - started < 25.0 + 15.0, obs
    finally:
        env.close()


def test_a_memory_bomb_in_a_model_fails_inside_the_sandbox(guarded: dict[str, Any]) -> None:
    env = guarded["env"]
    call(
        env,
        "write_file",
        path="models/bomb.sql",
        content="select string_agg(repeat('x', 100000), '') as s from range(100000)",
    )
    obs, error = call(env, "dbt", command="run --select bomb")
    assert error and ("Out of Memory" in obs or "memory" in obs.lower() or "killed" in obs), obs
    obs, error = call(env, "sql", query="select 1 as still_alive")
    assert not error and "still_alive" in obs
    submit_scores_zero(env)


def test_filling_the_disk_ends_the_episode(guarded: dict[str, Any]) -> None:
    env = guarded["env"]
    sandbox = env.sandbox
    sandbox.spec = replace(sandbox.spec, disk_quota_bytes=8 << 20)  # 8 MB for this test
    call(
        env,
        "write_file",
        path="models/filler.sql",
        content=INCOMPRESSIBLE.format(rows=300_000),
    )
    obs, reward, terminated, truncated, info = env.step(
        {"name": "dbt", "arguments": {"command": "run --select filler"}}
    )
    assert truncated and not terminated and reward == 0.0, obs
    assert info["verdict"]["reasons"][0]["code"] == "disk_quota"


def test_file_size_limit_binds_dbt_directly(guarded: dict[str, Any], tmp_path: Path) -> None:
    project, warehouse = _toy_project(tmp_path, guarded["env"])
    (project / "models" / "big.sql").write_text(INCOMPRESSIBLE.format(rows=1_000_000))
    limits = ProcessLimits(file_size_bytes=16 << 20)
    result = run_dbt(project, warehouse, ["run", "--select", "big"], limits=limits)
    assert not result.ok
    assert warehouse.stat().st_size <= 16 << 20


# ---- 8-9: grading-only misbehaviour, path disclosure -------------------------------------------


@pytest.mark.slow  # waits out a grading budget; the runaway-model test binds the dbt timeout
def test_grading_cannot_outlast_the_episode_budget() -> None:
    """A model that runs forever only when dbt *runs* it (as grading does) — the agent itself
    only compiles. Grading gets the episode's remaining time, not a fresh 300 s."""
    env = make_env(wall_s=60.0, dbt_timeout_s=120.0)
    env.reset()
    started = time.monotonic()
    try:
        trap = (
            "{% if flags.WHICH == 'run' %}"
            "with recursive r(n) as (select 1 union all select n + 1 from r) "
            "select 'a' as kind, count(*) as n, sum(n) as total from r"
            "{% else %}select 'a' as kind, 1 as n, 1.0 as total{% endif %}"
        )
        call(env, "write_file", path=TOY_MODEL, content=trap)
        call(env, "dbt", command="compile --select thing_totals")
        verdict = submit_scores_zero(env)
        assert verdict["reasons"][0]["code"] in {"dbt_build_failed", "time_limit"}
        assert time.monotonic() - started < 60.0 + 20.0
        assert env.trajectory()["grading_s"] is not None
    finally:
        env.close()


@pytest.mark.slow
def test_dbt_sees_the_same_neutral_paths_in_episodes_and_grading(guarded: dict[str, Any]) -> None:
    """What a model can learn about where it runs: fixed mount points, never a host path, and a
    model that keys its output on the location behaves the same when graded."""
    env, snapshot = guarded["env"], guarded["snapshot"]
    probe = (
        "select '{{ target.path }}|{{ flags.PROJECT_DIR }}|{{ env_var('HOME', '') }}|"
        "{{ invocation_args_dict | tojson | replace(\"'\", '') }}' as where_am_i"
    )
    call(env, "write_file", path="models/whereabouts.sql", content=probe)
    obs, error = call(env, "dbt", command="run --select whereabouts")
    assert not error, obs
    obs, _ = call(env, "sql", query="select where_am_i from main.whereabouts")
    assert "/sandbox/db/warehouse.duckdb" in obs and "/sandbox/project" in obs
    root = str(sandbox_of(env).root)
    for secret in (str(snapshot), root, os.environ["REPLICAS_HOME"], str(REPO)):
        assert secret not in obs
    # a model that breaks itself unless it sees the episode's paths still passes grading
    fixed = env.task.oracle[0].arguments["content"]
    keyed = (
        "{% if target.path != '/sandbox/db/warehouse.duckdb' %}select 1/0 as boom"
        "{% else %}" + fixed + "{% endif %}"
    )
    call(env, "write_file", path=TOY_MODEL, content=keyed)
    _, reward, terminated, _, info = env.step({"name": "submit", "arguments": {"answer": "x"}})
    assert terminated and reward == 1.0, info["verdict"]


def test_unsandboxed_runs_are_refused_unless_opted_out(
    guarded: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    env = guarded["env"]
    monkeypatch.setattr(osbox, "probe", lambda: "bubblewrap is missing (simulated)")
    monkeypatch.delenv(osbox.UNSAFE_ENV, raising=False)
    obs, error = call(env, "dbt", command="compile")
    assert error and "--unsafe-no-os-sandbox" in obs
    assert env.trajectory()["isolation"] == "unavailable"
    monkeypatch.setenv(osbox.UNSAFE_ENV, "1")
    assert env.trajectory()["isolation"] == "unsafe-none"
    submit_scores_zero(env)


def test_sandbox_spec_rejects_a_nonsense_quota() -> None:
    with pytest.raises(ValueError, match="disk_quota_bytes"):
        SandboxSpec(disk_quota_bytes=0)
