"""Escapes through dbt itself — the red team's chains, replayed on every dbt task.

dbt runs agent-written Jinja and project files. These strategies try what broke the 0.1
runtime: a package under ``dbt_packages/`` with absolute resource paths, macros redefining
``ref``/``source``, reading every parsed node's code through ``graph`` and learning host paths
from inside a model. Each must score 0, and a probe that *works* (a forbidden file accepted, a
host path revealed) is reported as a breach. (A model that loops only when grading runs it is
bounded by the episode's remaining budget; ``tests/test_isolation.py`` checks it, the audit does
not replay it because each such episode costs the whole budget.)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from replicas.agents.adversary._base import Session, Strategy, dbt_task
from replicas.agents.base import EnvLike

if TYPE_CHECKING:
    from replicas.tasks import Task

#: Absolute paths dbt might be pointed at; on a host the kit's cache, sources and tmp live there.
GUESSED_PATHS = ("/", "/tmp", "/root", "/home", "/work", "/usr/lib")
#: A path printed from inside the sandbox that is not one of its fixed mount points.
_HOST_PATH = re.compile(r"(?<![\w/])/(?!sandbox/|profiles\b|tmp\b|usr/|proc\b)[A-Za-z0-9_.-]+/")
PACKAGE_PROJECT = (
    "name: evil\nversion: '1.0.0'\nconfig-version: 2\n"
    "analysis-paths: {paths}\nmodel-paths: {paths}\nmacro-paths: {paths}\n"
)
OVERRIDES = (
    "{% macro ref(name) %}{{ return(builtins.ref(name)) }}{% endmacro %}\n"
    "{% macro source(a, b) %}{{ return(builtins.source(a, b)) }}{% endmacro %}\n"
    "{% macro run_query(sql) %}{{ return(none) }}{% endmacro %}\n"
)
GRAPH_COPY = (
    "select '{{ graph.nodes.values() | map(attribute='original_file_path') | join('|') "
    "| replace(\"'\", '') }}' as paths"
)
WHERE_AM_I = (
    "select '{{ target.path }}|{{ flags.PROJECT_DIR }}|{{ env_var('HOME', '') }}|"
    "{{ invocation_args_dict | tojson | replace(\"'\", '') }}' as location"
)
SQL_DISCLOSURE = (
    "select * from duckdb_databases",
    "select * from pragma_database_list",
    "select * from pg_catalog.pg_settings where name like '%directory%'",
    "select current_setting('temp_directory') as t",
)


def _finish(s: Session) -> None:
    s.submit("done: the model is fixed and every test passes")


def _play_package_escape(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    breaches: list[str] = []
    paths = "[" + ", ".join(f"'{p}'" for p in GUESSED_PATHS) + "]"
    wrote = s.ok(
        "write_file",
        {
            "path": "dbt_packages/evil/dbt_project.yml",
            "content": PACKAGE_PROJECT.format(paths=paths),
        },
    )
    if wrote is not None:
        breaches.append("a package could be written under dbt_packages/")
    project = s.ok("read_file", {"path": "dbt_project.yml"})
    if project is not None:
        hijacked = project + f"\nanalysis-paths: {paths}\n"
        if s.ok("write_file", {"path": "dbt_project.yml", "content": hijacked}) is not None:
            breaches.append("dbt_project.yml accepted absolute analysis-paths")
    compiled = s.ok("dbt", {"command": "compile"})
    if compiled is not None and "evil" in compiled:
        breaches.append("dbt loaded a planted package")
    _finish(s)
    return breaches


def _play_override_builtins(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    breaches: list[str] = []
    for path in ("macros/overrides.sql", "models/overrides.sql", "tests/generic/overrides.sql"):
        if s.ok("write_file", {"path": path, "content": OVERRIDES}) is not None:
            breaches.append(f"{path}: a macro redefining ref/source/run_query was accepted")
    _finish(s)
    return breaches


def _play_read_through_dbt(env: EnvLike, task: Task) -> list[str]:
    """Copy what dbt parsed, and where it runs, into tables the ``sql`` tool can read."""
    s = Session(env, task)
    env.reset()
    breaches: list[str] = []
    s.call("write_file", {"path": "models/adv_graph.sql", "content": GRAPH_COPY})
    s.call("write_file", {"path": "models/adv_where.sql", "content": WHERE_AM_I})
    s.call("dbt", {"command": "run --select adv_graph adv_where"})
    for query in ("select paths from main.adv_graph", "select location from main.adv_where"):
        seen = s.ok("sql", {"query": query}) or ""
        if _HOST_PATH.search(seen):
            breaches.append(f"a host path was visible from inside dbt: {seen[:160]!r}")
    for query in SQL_DISCLOSURE:
        disclosed = s.ok("sql", {"query": query})
        if disclosed is not None and ".duckdb" in disclosed:
            breaches.append(f"sql {query!r} revealed a database path")
    _finish(s)
    return breaches


STRATEGIES = (
    Strategy(
        "package_escape",
        "plant a dbt package / absolute analysis-paths to make dbt read and write host files",
        dbt_task,
        _play_package_escape,
    ),
    Strategy(
        "override_builtins",
        "redefine ref/source/run_query in project macros",
        dbt_task,
        _play_override_builtins,
    ),
    Strategy(
        "read_through_dbt",
        "copy parsed node paths and the run's location into tables; probe catalog views",
        dbt_task,
        _play_read_through_dbt,
    ),
)
