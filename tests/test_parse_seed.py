"""The starting project's dbt parse, made by the kit and copied into episodes and grading rebuilds
(``replicas.sandbox.parse_seed``): what it may hold, when grading uses it, and that dbt really
skips the full parse with it and still builds the agent's SQL. Real dbt, real bubblewrap."""

from __future__ import annotations

import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from replicas.dbt import run_dbt
from replicas.env import Env
from replicas.sandbox import parse_seed as ps
from replicas.tasks import grading
from tests.toy_families import BUGGY_MODEL, TOY_MODEL, fix_episode, register_toy, sandbox_of

FULL_PARSE = "Unable to do partial parsing"


@pytest.fixture(scope="module", autouse=True)
def _toy(module_registries: None) -> None:
    register_toy()  # module_registries restores the registries afterwards


@pytest.fixture()
def env() -> Iterator[Env]:
    yield from fix_episode()


def step(env: Env, name: str, **arguments: str) -> tuple[str, bool]:
    obs, _reward, _terminated, _truncated, info = env.step({"name": name, "arguments": arguments})
    return obs, bool(info["error"])


def test_the_seed_is_the_starting_projects_parse_never_the_pristine_one(env: Env) -> None:
    """A fix task's patch replaces a pristine model: the seed holds the patched (broken) model
    the agent is given and not one byte sequence of the pristine model it must recreate."""
    sandbox = sandbox_of(env)
    seed = ps.parse_seed(sandbox.start_template)
    assert seed is not None
    pristine = (Path(env._snapshot.dbt_project) / TOY_MODEL).read_text()
    assert pristine != BUGGY_MODEL
    assert BUGGY_MODEL.strip().encode() in seed  # dbt keeps a model's code without the last \n
    assert pristine.strip().encode() not in seed
    # the cache holds exactly those bytes, compressed, under the kit's home
    key = ps.seed_key(ps._files_digest(ps._project_files(sandbox.start_template)))
    assert zlib.decompress(ps._cache_path(key).read_bytes()) == seed
    # a worker meets thousands of tasks: it remembers where a seed is, not its megabytes
    assert ps._SEEDS[str(sandbox.start_template)] == ps._cache_path(key)
    assert ps.parse_seed(sandbox.start_template) == seed


def test_an_episode_run_skips_the_full_parse_and_builds_the_agents_sql(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    sandbox = sandbox_of(env)
    graded: list[bool] = []

    def spy(project: Path, template: Path | None) -> bool:  # the real function, observed
        graded.append(ps.seed_for_grading(project, template))
        return graded[-1]

    monkeypatch.setattr(grading, "seed_for_grading", spy)
    cache = ps._cache_path(ps.seed_key(ps._files_digest(ps._project_files(sandbox.start_template))))
    fixed = env.task.oracle[0].arguments["content"]
    marked = fixed.rstrip().rstrip(";") + "\n-- the agent's edit\n"
    obs, error = step(env, "write_file", path=TOY_MODEL, content=marked)
    assert not error, obs
    assert not (sandbox.project_dir / ps.SEED_FILE).exists()
    obs, error = step(env, "dbt", command="run --select thing_totals")
    assert not error, obs
    cached = cache.read_bytes()
    # dbt rewrote the project's own parse state (with the agent's edit); the cache is untouched
    written = (sandbox.project_dir / ps.SEED_FILE).read_bytes()
    assert b"the agent's edit" in written
    assert b"the agent's edit" not in zlib.decompress(cached)
    obs, _ = step(env, "sql", query="select sum(total) from main.thing_totals")
    raw, _ = step(env, "sql", query="select sum(value) from raw.things")
    assert obs.split()[-1] == raw.split()[-1], (obs, raw)  # the fixed SQL ran, not the seed's
    _, reward, terminated, _, info = env.step({"name": "submit", "arguments": {"answer": "x"}})
    assert terminated and reward == 1.0, info["verdict"]
    assert graded == [True]  # the grading rebuild started from the seed too


def test_a_seeded_run_parses_only_the_changed_files(env: Env, tmp_path: Path) -> None:
    """dbt itself says whether it parsed in full: with the seed it does not, without it does,
    and both build the same table from the edited model."""
    template = sandbox_of(env).start_template
    fixed = env.task.oracle[0].arguments["content"]
    outputs = []
    for seeded in (True, False):
        project, db = tmp_path / f"p{seeded}", tmp_path / f"db{seeded}"
        shutil.copytree(template, project)
        for path in project.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        (project / TOY_MODEL).write_text(fixed)
        assert ps.seed_for_grading(project, template if seeded else None) is seeded
        db.mkdir()
        shutil.copyfile(env._snapshot.warehouse, db / "warehouse.duckdb")
        (db / "warehouse.duckdb").chmod(0o644)
        result = run_dbt(project, db / "warehouse.duckdb", ["run", "--select", "thing_totals"])
        assert result.ok, result.summary
        assert (FULL_PARSE in result.log) is not seeded, result.log[-800:]
        con = duckdb.connect(str(db / "warehouse.duckdb"), read_only=True)
        outputs.append(con.execute("select * from main.thing_totals order by kind").fetchall())
        con.close()
    assert outputs[0] == outputs[1]


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.mark.parametrize(
    ("change", "seeded"),
    [
        ({"models/a.sql": "select 2 as x"}, True),  # an edited model
        ({"models/sub/new.sql": "select 3 as y"}, True),  # a new model
        ({"models/a.sql": None}, True),  # a deleted model
        ({"models/a.yml": "version: 2\nmodels:\n  - name: a\n    description: z\n"}, False),
        ({"macros/m.sql": "{% macro m() %}2{% endmacro %}"}, False),  # macros: full parse
        ({"tests/t.sql": "select 1 where false"}, False),
        ({"analyses/q.sql": "select 1"}, False),  # .sql outside the model paths
        ({"dbt_project.yml": "name: p\nprofile: replica\nmodel-paths: ['models', 'x']\n"}, False),
        ({"seeds/s.csv": "a\n1\n"}, False),
    ],
)
def test_grading_uses_the_seed_only_when_just_model_sql_changed(
    tmp_path: Path, change: dict[str, str | None], seeded: bool
) -> None:
    start = {
        "dbt_project.yml": "name: p\nprofile: replica\n",
        "models/a.sql": "select 1 as x",
        "models/a.yml": "version: 2\nmodels:\n  - name: a\n    description: y\n",
        "macros/m.sql": "{% macro m() %}1{% endmacro %}",
    }
    template = _tree(tmp_path / "start", start)
    project = _tree(tmp_path / "mine", start)
    for rel, text in change.items():
        if text is None:
            (project / rel).unlink()
        else:
            _tree(project, {rel: text})
    assert ps.sql_model_changes_only(project, template) is seeded
    # build output of the agent's own runs is not part of the comparison
    _tree(project, {"target/run/x.sql": "select 9", "logs/dbt.log": "x"})
    assert ps.sql_model_changes_only(project, template) is seeded


def test_without_the_os_sandbox_nothing_is_seeded(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Paths inside and outside differ per episode without bubblewrap, so a seed could never
    match dbt's state check: none is made or placed, and dbt parses in full as before."""
    monkeypatch.setattr(ps, "isolation_mode", lambda: "unsafe-none")
    monkeypatch.setattr(ps, "_SEEDS", {})
    sandbox = sandbox_of(env)
    assert ps.parse_seed(sandbox.start_template) is None
    assert ps.seed_for_episode(sandbox.project_dir, sandbox.start_template) is False
    assert not (sandbox.project_dir / ps.SEED_FILE).exists()


def test_a_starting_project_dbt_cannot_parse_is_tried_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some tasks start from a project that does not compile (the bug is the compile error):
    no seed exists for it, and later episodes do not pay for another attempt."""
    template = _tree(
        tmp_path / "start",
        {
            "dbt_project.yml": "name: p\nprofile: replica\nconfig-version: 2\n",
            "models/a.sql": "select {% if %} as x",  # a Jinja syntax error,
        },
    )
    assert ps.parse_seed(template) is None
    key = ps.seed_key(ps._files_digest(ps._project_files(template)))
    marker = ps._cache_path(key).with_name(ps._cache_path(key).name + ".failed")
    assert marker.exists() and not ps._cache_path(key).exists()
    ps._SEEDS.clear()
    made: list[Path] = []
    original = ps._make_seed

    def counting(t: Path) -> bytes | None:
        made.append(t)
        return original(t)

    monkeypatch.setattr(ps, "_make_seed", counting)
    assert ps.parse_seed(template) is None
    assert made == []


def test_the_seed_is_never_written_through_a_link(env: Env, tmp_path: Path) -> None:
    """The seed is written from the host into the agent's project: a ``target`` that is a
    symlink (dbt never makes one, and the project checks refuse links elsewhere) is left alone
    and nothing appears where it points."""
    sandbox = sandbox_of(env)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (sandbox.project_dir / "target").symlink_to(elsewhere)
    assert ps.seed_for_episode(sandbox.project_dir, sandbox.start_template) is False
    assert list(elsewhere.iterdir()) == []
    # and dbt does not run on such a project (the kit reads run_results.json there)
    obs, error = step(env, "dbt", command="run --select thing_totals")
    assert error and "target: symlinks are not allowed" in obs, obs
    assert list(elsewhere.iterdir()) == []
