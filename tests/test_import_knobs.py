"""Deployment knobs of imported projects (``replicas_knobs.yml``) and ``NAME.mutant_fix-v2``.

An imported project's v1 fix task is solved by writing the project's own file back (red team,
session 10: ``byo_shop.mutant_fix-v1.s1.0`` and ``byo_saas.mutant_fix-v1.s1.0`` scored 1.0 for
``restore_shipped_project``). A project that declares its business-rule knobs gets v2 tasks, on
each seed's deployment: asserted here on both example projects with real imports, real dbt
builds and episodes through ``env.step``.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from replicas.cli import build_app
from replicas.env import Env
from replicas.factory.deploy import deployment, knobs_for
from replicas.factory.deployed import DEPLOYED_STAGES
from replicas.importer.knobs import KNOBS_FILE, KnobsError, check_files, load_knobs, parse_knobs
from replicas.tasks import Task, build_task, get_family
from tests.byo_support import PROJECTS, home_for_imports
from tests.deploy_support import assert_every_alternative_tests_clean_and_moves_a_mart
from tests.episode_support import assert_every_defect_needs_its_fix, play
from tests.episode_support import step as _step
from tests.episode_support import submit_done as _submit

SEED = 1


@pytest.fixture(scope="module")
def imported(module_registries: None) -> Iterator[dict[str, Any]]:
    with home_for_imports():
        from tests.byo_support import import_all

        yield import_all()


# --------------------------------------------------------------------------------------------
# the file: schema and text checks, no dbt

_GOOD = """
version: 1
knobs:
  - name: rule
    model: m
    shipped: as shipped
    choices:
      - label: a
        edits: [{path: models/m.sql, old: "x > 1", new: "x > 2"}]
      - label: b
        edits: [{path: models/m.sql, old: "x > 1", new: "x > 3"}]
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("version: 1\nknobs: [\n", "not valid YAML"),
        (_GOOD.replace("version: 1", "version: 2"), "version"),
        (_GOOD.replace("    shipped: as shipped\n", ""), "shipped"),
        (_GOOD.replace("label: a", "label: a\n        colour: red"), "colour"),
        (_GOOD.split("      - label: b")[0], "choices"),
        (_GOOD.replace("path: models/m.sql, old", "path: ../elsewhere.sql, old", 1), "inside it"),
        (_GOOD.replace("path: models/m.sql, old", "path: /etc/passwd, old", 1), "relative"),
        (_GOOD.replace("label: b", "label: a"), "distinct labels"),
        (_GOOD + _GOOD.split("knobs:\n")[1], "distinct"),
    ],
)
def test_a_bad_knobs_file_is_refused_with_its_problem_named(text: str, message: str) -> None:
    with pytest.raises(KnobsError, match=message) as caught:
        parse_knobs(text)
    assert str(caught.value).startswith(KNOBS_FILE)


def test_a_good_file_reads_as_knobs_and_a_var_rule_carries_its_compiled_effect() -> None:
    (knob,) = parse_knobs(_GOOD)
    assert knob.name == "rule" and [c.label for c in knob.choices] == ["a", "b"]
    shop = load_knobs(PROJECTS["byo_shop"])
    statuses = next(k for k in shop if k.name == "revenue_statuses")
    var_edit = statuses.choices[0].edits[0]
    assert var_edit.path == "dbt_project.yml" and var_edit.model == "fct_orders"
    assert var_edit.compiled_old == "'placed', 'shipped', 'completed'"
    assert load_knobs(Path(__file__).parent) == ()  # no file: no knobs


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "models").mkdir(parents=True)
    (root / "models" / "m.sql").write_text("select 1 as x where x > 1\n")
    (root / "models" / "m.yml").write_text("models:\n  - name: m\n    description: over one\n")
    return root


def test_every_edit_must_find_its_text_and_keep_yaml_readable(tmp_path: Path) -> None:
    root = _project(tmp_path)
    check_files(root, parse_knobs(_GOOD), {"m"})
    with pytest.raises(KnobsError, match="no model 'n'"):
        check_files(root, parse_knobs(_GOOD.replace("model: m", "model: n")), {"m"})
    stale = _GOOD.replace('old: "x > 1", new: "x > 3"', 'old: "x >= 1", new: "x > 3"')
    with pytest.raises(KnobsError, match=r"knob rule \(b\): models/m.sql holds 'x >= 1' 0 time"):
        check_files(root, parse_knobs(stale), {"m"})
    broken_yaml = (
        _GOOD.replace("models/m.sql", "models/m.yml")
        .replace('"x > 1"', '"over one"')
        .replace('"x > 2"', '"over: one"')
    )
    with pytest.raises(KnobsError, match=r"models/m\.yml is not valid YAML"):
        check_files(root, parse_knobs(broken_yaml), {"m"})
    # two knobs that edit the same text: the second cannot apply after the first
    second = _GOOD.split("knobs:\n")[1].replace("name: rule", "name: other")
    with pytest.raises(KnobsError, match="after the edits of"):
        check_files(root, parse_knobs(_GOOD + second), {"m"})


def test_the_cli_refuses_a_stale_knob_and_imports_nothing(
    imported: dict[str, Any], tmp_path: Path
) -> None:
    project = tmp_path / "shop"
    shutil.copytree(PROJECTS["byo_shop"], project)
    knobs = project / KNOBS_FILE
    knobs.write_text(knobs.read_text().replace("cast(ordered_at as date) as order_date", "nope"))
    with home_for_imports() as home:
        result = CliRunner().invoke(
            build_app(("imports",)), ["import", "dbt", str(project), "--name", "stale_shop"]
        )
        assert result.exit_code == 2, result.output
        assert "knob trading_day_cutoff" in result.output and "'nope'" in result.output
        assert not (home / "imports" / "stale_shop").exists()
        assert not [p for p in (home / "imports").iterdir() if "stale_shop" in p.name]


# --------------------------------------------------------------------------------------------
# the example projects' knobs, on real builds


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_the_import_registers_the_deployed_family(imported: dict[str, Any], replica: str) -> None:
    result = imported[replica]
    declared = load_knobs(PROJECTS[replica])
    assert list(result.knobs) == [k.name for k in declared]
    assert f"{replica}.mutant_fix-v2" in result.to_dict()["families"]
    with home_for_imports():
        assert knobs_for(replica) == declared
        assert get_family(f"{replica}.mutant_fix-v2").replica == replica
        picks = {s: dict(deployment(replica, s).picks) for s in range(1, 13)}
    for knob in declared:  # every knob takes two or more forms over the seeds
        assert len({p[knob.name] for p in picks.values()}) >= 2, knob.name


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_every_alternative_keeps_the_tests_passing_and_moves_a_mart(
    imported: dict[str, Any], replica: str
) -> None:
    """As for ecommerce's knobs: on the visible data and every hidden dataset each alternative
    alone passes the project's data tests downstream of it; on the visible data it changes a
    mart, also against the project's own model files under the seed's dbt_project.yml when the
    knob edits a model file."""
    with home_for_imports():
        assert_every_alternative_tests_clean_and_moves_a_mart(replica, SEED)


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_the_factory_makes_v2_tasks_by_default(
    imported: dict[str, Any], replica: str, tmp_path: Path
) -> None:
    out = tmp_path / "factory"
    with home_for_imports():
        result = CliRunner().invoke(
            build_app(("factory",)),
            ["factory", replica, "--seeds", str(SEED), "--max-candidates", "6", "--out", str(out)],
        )
    assert result.exit_code == 0, result.output
    funnel = json.loads((out / "funnel.json").read_text())
    deployed = funnel["deployed"]
    assert deployed["family"] == f"{replica}.mutant_fix-v2"
    counts = [deployed[s] for s in DEPLOYED_STAGES]
    assert counts == sorted(counts, reverse=True)
    ids = (out / "suite.txt").read_text().split()
    assert ids == deployed["task_ids"] and len(ids) >= 1
    assert all(i.startswith(f"{replica}.mutant_fix-v2.s{SEED}.") for i in ids)


def _task(replica: str) -> Task:
    with home_for_imports():
        return build_task(f"{replica}.mutant_fix-v2.s{SEED}.0")


@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_v2_sandbox_states_the_seeds_rules_and_holds_raw_data_only(
    imported: dict[str, Any], replica: str
) -> None:
    task = _task(replica)
    with home_for_imports():
        rules = deployment(replica, SEED)
    assert task.metadata["rules"] == rules.rules()
    for path, text in rules.files.items():
        assert task.sandbox_patch.get(path, text) != "", path
    with home_for_imports(), Env.from_task(task) as env:
        env.reset()
        tables = _step(
            env, "sql", query="select distinct table_schema from information_schema.tables"
        )
        project_yml = _step(env, "read_file", path="dbt_project.yml")
        listing = _step(env, "list_files", path=".")
        obs, _, _, _, info = env.step({"name": "read_file", "arguments": {"path": KNOBS_FILE}})
    # the knobs (every deployment's rules) are the kit's, kept out of the sandbox's project
    assert KNOBS_FILE not in listing and info["error"], obs
    assert [ln.strip() for ln in tables.splitlines()[2:-1]] == ["raw"], tables
    if "dbt_project.yml" in rules.files:
        assert rules.files["dbt_project.yml"].strip().splitlines()[-1] in project_yml


@pytest.mark.slow
@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_v2_oracle_one_null_zero_and_the_projects_own_files_zero(
    imported: dict[str, Any], replica: str
) -> None:
    """The restore-from-memory hack that solved v1: every model file of the user's project (and
    then dbt_project.yml too) written back builds the project's shipped rules, not the seed's."""
    task = _task(replica)
    (mart,) = task.verifier.dbt_models
    own = PROJECTS[replica]
    with home_for_imports():
        assert play(task, task.oracle[:-1]) == 1.0
        assert play(task, []) == 0.0
        for extra in ((), ("dbt_project.yml",)):
            with Env.from_task(replace(task, limits=replace(task.limits, max_steps=100))) as env:
                env.reset()
                for path in [*sorted(own.glob("models/**/*.sql")), *(own / e for e in extra)]:
                    rel = path.relative_to(own).as_posix()
                    text = path.read_text()
                    if rel == "dbt_project.yml":  # the staged copy's profile line, as imported
                        text = env_text(env, rel, text)
                    _step(env, "write_file", path=rel, content=text)
                _step(env, "dbt", command=f"run --select +{mart}")
                reward, verdict = _submit(env)
            assert reward == 0.0, (extra, verdict["feedback"])


def env_text(env: Env, path: str, own: str) -> str:
    """``own`` (the user's dbt_project.yml) with the sandbox's profile line, so dbt runs."""
    current = _step(env, "read_file", path=path)
    profile = next(ln for ln in current.splitlines() if ln.startswith("profile:"))
    return "\n".join(profile if ln.startswith("profile:") else ln for ln in own.splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("replica", sorted(PROJECTS))
def test_the_audits_adversary_gets_nothing_from_an_imported_v2_task(
    imported: dict[str, Any], replica: str
) -> None:
    from replicas.audit import audit_tasks

    task_id = f"{replica}.mutant_fix-v2.s{SEED}.0"
    with home_for_imports():
        report = audit_tasks([task_id], checks=["adversary"])
    check = report.task(task_id).check("adversary")
    assert not check.failed, check.evidence
    assert check.data["strategies"]["restore_shipped_project"]["score"] == 0.0


# --------------------------------------------------------------------------------------------
# combined tasks of imported projects (mutant_fix_multi-v1 and -v2)


@pytest.mark.parametrize("version", [1, 2])
def test_the_factory_combines_an_imported_projects_survivors(
    imported: dict[str, Any], version: int, tmp_path: Path
) -> None:
    """``--combine`` works on an imported project: v1 combinations, and at v2 the ones that
    pass the deployment screen, listed after the single tasks."""
    out = tmp_path / "factory"
    args = ["factory", "byo_shop", "--seeds", str(SEED), "--max-candidates", "12", "--combine", "2"]
    args += ["--family-version", str(version), "--out", str(out)]
    with home_for_imports():
        result = CliRunner().invoke(build_app(("factory",)), args)
    assert result.exit_code == 0, result.output
    funnel = json.loads((out / "funnel.json").read_text())
    combined = funnel["combined"]
    assert combined["family"] == f"byo_shop.mutant_fix_multi-v{version}"
    ids = (out / "suite.txt").read_text().split()
    multi = [i for i in ids if ".mutant_fix_multi-" in i]
    expected = combined["deployed"]["task_ids"] if version == 2 else combined["task_ids"]
    assert multi == expected and len(multi) >= 1, combined
    assert multi[0] == f"byo_shop.mutant_fix_multi-v{version}.s{SEED}.0"


@pytest.mark.slow
def test_imported_multi_v2_oracle_one_and_each_fix_alone_zero(imported: dict[str, Any]) -> None:
    with home_for_imports():
        task = build_task(f"byo_shop.mutant_fix_multi-v2.s{SEED}.0")
        restores = [c for c in task.oracle if c.name == "write_file"]
        assert "replicas" not in task.instruction and all(
            r.arguments["path"] not in task.instruction for r in restores
        )
        assert_every_defect_needs_its_fix(task)
