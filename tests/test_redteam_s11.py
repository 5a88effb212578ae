"""Red team, session 11: ``ecommerce.mutant_fix-v2`` / ``mutant_fix_multi-v2`` attacked with the
kit's source (the shipped project and the knob catalogue), acting only through ``env.step``.

Each test asserts the *safe* behaviour. The first two classes are strict xfails (open: the
README's "What a deployment does not stop"); the last two were closed in the same stop - the task
cache no longer stores a task built by a process whose sources changed after it imported them
(``replicas.tasks.loader._sources_changed_since_import``), and the revenue-status rule rewrites
the column docs that called the non-revenue case "cancelled" (the scripts and measured rewards
are in the session's report):

* **diff-restore** (the README's "What a deployment does not stop", measured): the knob
  catalogue turns "shipped project + the seed's rules" into a finite set of texts per file (128
  rule combinations), and the screen drops every mutant that overlaps a rule's text, so a
  sandbox model file that is none of them is exactly a broken file; writing back the catalogue's
  text (shipped + the alternatives the file's own rule hunks show) scores 1.0 on all six core
  targets (5 mutant_fix-v2 in core-v4 + mutant_fix_multi-v2.s1.0) in 7-18 steps of 30, without
  a single query of the data;
* **the size channel**: ``list_files`` prints sizes, and a deployment's documents are never
  mutated, so their sizes pick the seed's rules and the one ``.sql`` whose size no rule
  combination gives is the broken file - one call, no read (4 steps, reward 1.0 on 4 of 5
  single tasks; a length-preserving mutation, ``+`` -> ``-``, needs the reads above);
* **a stale task cache**: the task cache keys a task by its family's sources as they are on disk
  when the key is first computed (lazily, at the process's first build of that family), not by
  the code the process imported; a process that imported the old code and builds after an edit
  writes the OLD task under the NEW key, and every later process (the new code) reads it back.
  Session 11 hit it for real: ``mutant_fix_multi-v2.s1.0`` cached at 17:39 still said
  ``shipping_usd ... not revenue`` after commit 7c6d877 (removed by hand);
* **a document the rules contradict** (minor): under a ``revenue_statuses`` alternative, fct_orders'
  and dim_customers' column docs still define the non-revenue case as "cancelled" only.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from replicas.env import Env
from replicas.factory.deploy import deployed_with, deployment, knobs_for
from replicas.factory.project import load_project
from replicas.replica import get_replica
from replicas.tasks import Task, build_task
from tests.episode_support import step as _step

REPLICA = "ecommerce"
SHIPPED = Path(get_replica(REPLICA).dbt_project)
TARGETS = [
    "ecommerce.mutant_fix-v2.s1.0",
    "ecommerce.mutant_fix-v2.s1.1",
    "ecommerce.mutant_fix-v2.s2.0",
    "ecommerce.mutant_fix-v2.s2.1",
    "ecommerce.mutant_fix-v2.s3.0",
    "ecommerce.mutant_fix_multi-v2.s1.0",
]
_SIZE = re.compile(r"^(\S+)  \((\d+) bytes\)$", re.MULTILINE)


def _shipped(path: str) -> str:
    return (SHIPPED / path).read_text(encoding="utf-8")


@cache
def _catalogue() -> list[tuple[tuple[Any, ...], dict[str, str]]]:
    """Every combination of the knobs' alternatives with the files it deploys: what an
    attacker computes offline from the kit's source."""
    knobs = knobs_for(REPLICA)
    out = []
    for picks in itertools.product(*[k.choices for k in knobs]):
        files = dict(deployed_with(REPLICA, 0, list(zip(knobs, picks, strict=True))).files)
        out.append((picks, files))
    return out


def _texts_of(path: str) -> set[str]:
    return {files.get(path, _shipped(path)) for _, files in _catalogue()}


def _broken(task: Task) -> set[str]:
    """The files the oracle writes back: the mutated ones."""
    return {str(c.arguments["path"]) for c in task.oracle if c.name == "write_file"}


def _roomy(task: Task) -> Task:
    return replace(task, limits=replace(task.limits, max_steps=100))


@pytest.mark.parametrize("task_id", TARGETS)
@pytest.mark.xfail(
    strict=True,
    reason="hole: the knob catalogue gives every file's possible deployed texts and the screen "
    "drops mutants that overlap a rule, so the model files that are none of them are exactly "
    "the broken ones (README: 'What a deployment does not stop')",
)
def test_the_kits_source_does_not_single_out_the_broken_files(task_id: str) -> None:
    task = build_task(task_id)
    with Env.from_task(_roomy(task)) as env:
        env.reset()
        listing = _step(env, "list_files", path="models")
        sql = [p for p, _ in _SIZE.findall(listing) if p.endswith(".sql")]
        suspects = {
            p
            for p in sql
            if (SHIPPED / p).is_file() and _step(env, "read_file", path=p) not in _texts_of(p)
        }
    assert suspects != _broken(task), suspects


@pytest.mark.parametrize(
    "task_id", ["ecommerce.mutant_fix-v2.s1.0", "ecommerce.mutant_fix-v2.s3.0"]
)
@pytest.mark.xfail(
    strict=True,
    reason="hole: list_files prints sizes; the unmutated documents' sizes pick the seed's rules "
    "and the one .sql whose size no rule combination gives is the broken file (one call)",
)
def test_one_listing_does_not_point_at_the_broken_file(task_id: str) -> None:
    task = build_task(task_id)
    with Env.from_task(task) as env:
        env.reset()
        sizes = {p: int(n) for p, n in _SIZE.findall(_step(env, "list_files", path="."))}
    known = [p for p in sizes if (SHIPPED / p).is_file()]
    docs = [p for p in known if not p.endswith(".sql")]
    rules = [
        files
        for _, files in _catalogue()
        if all(len(files.get(p, _shipped(p)).encode()) == sizes[p] for p in docs)
    ]
    assert rules, "the documents' sizes fit no rule combination"
    odd = {
        p
        for p in known
        if p.endswith(".sql")
        and all(len(files.get(p, _shipped(p)).encode()) != sizes[p] for files in rules)
    }
    assert odd != _broken(task), odd


def _ancestors(mart: str) -> list[str]:
    project = load_project(REPLICA)
    seen: set[str] = set()
    todo = [mart]
    while todo:
        model = todo.pop()
        if model not in seen:
            seen.add(model)
            todo.extend(p for p in project.models[model].parents if p in project.models)
    return sorted(project.models[m].path for m in seen)


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="hole: diff-restore from the kit's source (shipped project + knob catalogue) scores "
    "1.0 without looking at the data",
)
def test_diff_restore_from_the_kits_source_scores_zero() -> None:
    """The attack as an agent plays it: read the mart's upstream model files, write back the
    catalogue's text for each file that is not one (shipped + the rule alternatives whose text
    it carries), build, submit."""
    task = build_task("ecommerce.mutant_fix-v2.s1.1")
    (mart,) = task.verifier.dbt_models
    with Env.from_task(task) as env:
        env.reset()
        for path in _ancestors(mart):
            text = _step(env, "read_file", path=path)
            if text in _texts_of(path):
                continue
            for picks, files in _catalogue():
                edits = [e for c in picks for e in c.edits if e.path == path]
                if all(e.new in text for e in edits):
                    _step(env, "write_file", path=path, content=files.get(path, _shipped(path)))
                    break
        _step(env, "dbt", command=f"run --select +{mart}")
        _, reward, terminated, _, _ = env.step({"name": "submit", "arguments": {"answer": "x"}})
    assert terminated
    assert reward == 0.0


@pytest.mark.parametrize("alternative", [0, 1])
def test_no_document_says_only_cancelled_orders_are_not_revenue(alternative: int) -> None:
    # a seed's whole deployment (every knob applies on every seed; the net-revenue rule rewrites
    # the net_revenue_usd column doc that the status rule would otherwise have to)
    knob = next(k for k in knobs_for(REPLICA) if k.name == "revenue_statuses")
    label = knob.choices[alternative].label
    seed = next(s for s in range(1, 100) if deployment(REPLICA, s).rules()[knob.name] == label)
    files = deployment(REPLICA, seed).files
    stale = [
        (path, phrase)
        for path, text in files.items()
        for phrase in ("0 for cancelled orders", "(cancelled orders count 0)")
        if phrase in " ".join(text.split())
    ]
    assert stale == []


_POISON = """
import pathlib
import replicas
assert replicas.__file__.startswith({repo!r}), replicas.__file__
from replicas.tasks.registry import family_names
family_names()  # the family's code is imported here
src = pathlib.Path({src!r})  # then someone edits it (a commit lands mid-run)
src.write_text(src.read_text().replace({old!r}, {new!r}))
from replicas.tasks import build_task
build_task({tid!r})  # built by the old code
"""

_READ = """
from replicas.tasks import build_task
print("EDITED" in build_task({tid!r}).instruction)
"""


def test_the_task_cache_never_serves_a_task_the_current_code_would_not_build(
    tmp_path: Path,
) -> None:
    main = Path(__file__).resolve().parents[1]
    repo = tmp_path / "repo"
    shutil.copytree(
        main / "replicas", repo / "replicas", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(
        main / "dbt_projects", repo / "dbt_projects", ignore=shutil.ignore_patterns("target")
    )
    home = tmp_path / "home"
    from replicas.paths import replicas_home

    for snap in (replicas_home() / "snapshots").glob("ecommerce-s1-x0.01-*"):
        shutil.copytree(snap, home / "snapshots" / snap.name)
    tid = "ecommerce.revenue_period-v1.s1.0"
    src = repo / "replicas/families/ecommerce/revenue_period.py"
    old, new = "Submit only the number.", "Submit only the number (EDITED)."
    assert old in src.read_text()
    env = {**os.environ, "PYTHONPATH": str(repo), "REPLICAS_HOME": str(home)}
    code = _POISON.format(repo=str(repo), src=str(src), old=old, new=new, tid=tid)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=tempfile.gettempdir())
    out = subprocess.run(
        [sys.executable, "-c", _READ.format(tid=tid)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    assert out.stdout.strip().splitlines()[-1] == "True", out.stdout
