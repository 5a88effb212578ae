"""The ``sql`` tool's real limits: attacks end within their limits and earn nothing, the worker
stays small whatever the agent sends, the query server dies instead and comes back, and the agent
reads only its replica's schemas and the documented ``information_schema`` views.

Everything goes through ``env.step`` on the toy replica (real DuckDB files, real query servers);
the server's own allow-list is also driven directly (``Sandbox.query``), past the sqlglot layer.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest

from replicas.env import Env
from replicas.sandbox.query_client import GRACE_S, QueryFailed, server_stats
from replicas.sandbox.query_render import MAX_NESTED_VALUES
from replicas.sandbox.query_server import ADDRESS_SPACE_BYTES
from replicas.sandbox.sql_policy import WHAT_IS_ALLOWED, format_value
from replicas.tasks import build_task
from tests.paths import REPO_ROOT
from tests.toy_families import sandbox_of, toy_families_registered

READ_TASK = "toy.total-v1.s1.0"
DBT_TASK = "toy.fix-v1.s1.0"
#: Short, so the attack test stays fast; the limits scale with it.
ATTACK_TIMEOUT_S = 3.0
#: Killing and reaping a server that holds a gigabyte takes a moment on a loaded machine.
KILL_SLACK_S = 2.0
WORKER_RSS_LIMIT_BYTES = 1.5e9


_toy = pytest.fixture(scope="module", autouse=True)(toy_families_registered)


def _env(task_id: str, **limits: Any) -> Env:
    task = build_task(task_id)
    return Env.from_task(replace(task, limits=replace(task.limits, max_steps=500, **limits)))


@pytest.fixture()
def read_env() -> Iterator[Env]:
    # Outputs big enough that nothing a probe returns is hidden by truncation.
    with _env(READ_TASK, max_output_rows=10_000, max_output_chars=2_000_000) as env:
        env.reset()
        yield env


@pytest.fixture()
def dbt_env() -> Iterator[Env]:
    with _env(DBT_TASK, max_output_rows=10_000, max_output_chars=2_000_000) as env:
        env.reset()
        yield env


def sql(env: Env, query: str) -> tuple[str, dict[str, Any]]:
    obs, reward, terminated, truncated, info = env.step(
        {"name": "sql", "arguments": {"query": query}}
    )
    assert reward == 0.0 and not terminated and not truncated
    return obs, info


def secrets_of(env: Env) -> list[str]:
    """Paths an observation must never contain."""
    found = [str(Path(env._snapshot.warehouse).parent), os.environ["REPLICAS_HOME"]]
    found.append(str(Path(os.environ["REPLICAS_HOME"]).resolve()))
    if sandbox_of(env).has_root:
        found.append(str(sandbox_of(env).root))
    return found


# --------------------------------------------------------------------------------------------
# attacks, in a fresh worker process whose peak RSS is measured

ATTACKS = {
    "list_cartesian": "select l from (select range(0, 2000000) l), range(50)",
    "giant_string": "select repeat('x', 1000000000)",
    "giant_string_length": "select length(repeat('x', 2000000000))",  # cannot fit at all
    "giant_list": "select range(0, 300000000) l",
    "wide_rows": "select repeat('y', 10000000) s from range(100)",
    "nested_struct": "select {'a': range(0, 5000000)} s from range(10)",
    "string_agg": "select string_agg(repeat('x', 1000), ',') from range(3000000)",
    "array_agg": "select array_agg(range) from range(300000000)",
    "cartesian": "select count(*) from range(1000000) a, range(1000000) b",
    "recursive_doubling": (
        "with recursive r(n, s) as (select 1, 'x' union all "
        "select n + 1, s || s from r where n < 64) select max(length(s)) from r"
    ),
    "recursive_endless": (
        "with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r"
    ),
    "order_by_random": "select * from range(1000000000) order by random() limit 5",
}

_EPISODE = r"""
import json, os, resource, sys, time
from dataclasses import replace
from replicas.env import Env
from replicas.sandbox.query_client import server_stats
from replicas.tasks import build_task
from tests.toy_families import register_toy

def server_peak_kb():
    pid = server_stats()["pid"]
    if not pid:
        return 0
    with open(f"/proc/{pid}/status") as fh:
        return max([int(l.split()[1]) for l in fh if l.startswith("VmHWM")] or [0])

register_toy()
task_id, timeout_s, attacks = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
task = build_task(task_id)
task = replace(task, limits=replace(task.limits, max_steps=500, sql_timeout_s=timeout_s))
report = {"attacks": {}, "server_peak_kb": 0}
with Env.from_task(task) as env:
    env.reset()
    env.step({"name": "sql", "arguments": {"query": "select 1"}})
    for name, query in attacks.items():
        t0 = time.monotonic()
        obs, reward, terminated, truncated, _ = env.step(
            {"name": "sql", "arguments": {"query": query}})
        seconds = time.monotonic() - t0
        report["server_peak_kb"] = max(report["server_peak_kb"], server_peak_kb())
        after, *_ = env.step({"name": "sql", "arguments": {"query": "select 41 + 1 as x"}})
        report["attacks"][name] = {
            "obs": obs[:300], "reward": reward, "terminated": terminated, "seconds": seconds,
            "next_query": after[:200]}
report["worker_maxrss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
report["server_peak_kb"] = max(
    report["server_peak_kb"], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps(report))
"""


def test_attacks_end_within_their_limits_and_the_worker_stays_small() -> None:
    build_task(READ_TASK)  # the snapshot is built here, not inside the measured process
    proc = subprocess.run(
        [sys.executable, "-c", _EPISODE, READ_TASK, str(ATTACK_TIMEOUT_S), json.dumps(ATTACKS)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    limit_s = ATTACK_TIMEOUT_S + GRACE_S + KILL_SLACK_S
    for name, outcome in report["attacks"].items():
        assert outcome["obs"].startswith("ERROR"), (name, outcome)
        assert outcome["reward"] == 0.0 and not outcome["terminated"], (name, outcome)
        assert outcome["seconds"] <= limit_s, (name, outcome)
        assert "42" in outcome["next_query"] and "ERROR" not in outcome["next_query"], name
    assert set(report["attacks"]) == set(ATTACKS)
    assert report["worker_maxrss_kb"] * 1024 < WORKER_RSS_LIMIT_BYTES, report
    assert report["server_peak_kb"] * 1024 <= ADDRESS_SPACE_BYTES, report


_MANY_FDS = r"""
import os, resource, sys
from replicas.env import Env
from replicas.tasks import build_task
from tests.toy_families import register_toy

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]  # a long-lived worker's fds
register_toy()
with Env.from_task(build_task(sys.argv[1])) as env:
    env.reset()
    obs, *_ = env.step({"name": "sql", "arguments": {"query": "select 41 + 1 as x"}})
print(obs)
"""


def test_a_worker_with_many_open_files_still_reaches_its_server() -> None:
    """The server's pipes get descriptors past 1024 in a worker that has run many episodes;
    select() refuses those (FD_SETSIZE), which made every later query fail to start."""
    out = _episode_in_fresh_worker(_MANY_FDS)
    assert "42" in out and "ERROR" not in out, out


def _episode_in_fresh_worker(script: str) -> str:
    """Run ``script`` (given READ_TASK as argv[1]) in a new interpreter; its stdout."""
    build_task(READ_TASK)  # the snapshot is built here, not in the measured process
    proc = subprocess.run(
        [sys.executable, "-c", script, READ_TASK],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


_BIG_WORKER = r"""
import sys
from replicas.env import Env
from replicas.sandbox.query_client import server_stats
from replicas.sandbox.query_server import RESTART_RSS_BYTES
from replicas.tasks import build_task
from tests.toy_families import register_toy

ballast = bytearray(RESTART_RSS_BYTES + (64 << 20))  # a worker that has grown past the threshold
for i in range(0, len(ballast), 4096):
    ballast[i] = 1
register_toy()
pids = set()
with Env.from_task(build_task(sys.argv[1])) as env:
    env.reset()
    for _ in range(3):
        obs, *_ = env.step({"name": "sql", "arguments": {"query": "select 41 + 1 as x"}})
        assert "42" in obs, obs
        pids.add(server_stats()["pid"])
print(len(pids), server_stats()["starts"])
"""


def test_a_large_worker_does_not_make_its_server_restart_after_every_query() -> None:
    """Linux carries ru_maxrss across exec from the forking worker: a server that judged its
    size by it restarted after every query once the worker was past the threshold."""
    out = _episode_in_fresh_worker(_BIG_WORKER)
    assert out.split() == ["1", "1"]  # one server, started once, for three queries


def test_a_huge_streamable_result_returns_its_first_rows_quickly(read_env: Env) -> None:
    t0 = time.monotonic()
    obs, info = sql(read_env, "select range as i from range(10000000000)")
    assert not info["error"] and "result truncated" in obs
    assert time.monotonic() - t0 < read_env.task.limits.sql_timeout_s


def test_the_server_runs_under_its_address_space_limit(read_env: Env) -> None:
    sql(read_env, "select 1")
    pid = server_stats()["pid"]
    assert pid is not None and pid != os.getpid()
    limits = Path(f"/proc/{pid}/limits").read_text().splitlines()
    line = next(ln for ln in limits if ln.startswith("Max address space"))
    assert int(line.split()[3]) == ADDRESS_SPACE_BYTES


def test_a_query_that_ignores_its_interrupt_is_killed() -> None:
    # A stopped server can neither interrupt itself nor answer: only the worker's kill ends it.
    with _env(READ_TASK, sql_timeout_s=1.0) as env:
        env.reset()
        _killed_after_its_timeout(env)


def _killed_after_its_timeout(env: Env) -> None:
    sql(env, "select 1")
    pid = server_stats()["pid"]
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    t0 = time.monotonic()
    obs, info = sql(env, "select 2")
    elapsed = time.monotonic() - t0
    assert info["error"] and "timed out after 1 s" in obs
    assert 1.0 <= elapsed <= 1.0 + GRACE_S + KILL_SLACK_S
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped
    obs, info = sql(env, "select 41 + 1 as x")
    assert not info["error"] and "42" in obs
    assert server_stats()["pid"] not in (None, pid)


def test_a_server_that_dies_mid_query_is_reported_and_replaced(read_env: Env) -> None:
    # Runs in its own thread, which gets its own server.
    results: queue.Queue[Any] = queue.Queue()

    def episode() -> None:
        sql(read_env, "select 1")
        results.put(server_stats()["pid"])
        results.put(sql(read_env, "select count(*) from range(100000000000) a"))
        results.put(sql(read_env, "select 41 + 1 as x"))
        results.put(server_stats()["pid"])

    thread = threading.Thread(target=episode)
    thread.start()
    pid = results.get(timeout=120)
    assert pid != server_stats()["pid"]  # not this thread's server
    time.sleep(0.5)
    os.kill(pid, signal.SIGKILL)
    thread.join(timeout=120)
    obs, info = results.get_nowait()
    assert info["error"] and "exceeded its memory limit" in obs
    obs, info = results.get_nowait()
    assert not info["error"] and "42" in obs
    assert results.get_nowait() not in (None, pid)


def test_release_connection_gives_the_write_lock_back(dbt_env: Env) -> None:
    warehouse = str(sandbox_of(dbt_env).warehouse)
    probe = [sys.executable, "-c", "import duckdb, sys; duckdb.connect(sys.argv[1]).close()"]
    # A server past its restart threshold (a heavy query of an earlier test on this thread)
    # is replaced after answering; the second query runs on a server that stays.
    for _ in range(2):
        obs, info = sql(dbt_env, "select count(*) from raw.things")
        assert not info["error"], obs
    # the server now holds the file read-only
    held = subprocess.run([*probe, warehouse], capture_output=True, text=True, timeout=120)
    assert held.returncode != 0 and "lock" in held.stderr.lower()
    sandbox_of(dbt_env).release_connection()
    free = subprocess.run([*probe, warehouse], capture_output=True, text=True, timeout=120)
    assert free.returncode == 0, free.stderr
    obs, info = sql(dbt_env, "select count(*) as n from raw.things")
    assert not info["error"] and "(1 row)" in obs


# --------------------------------------------------------------------------------------------
# what the agent may read

REFUSED = [
    "select * from duckdb_databases",
    "select * from duckdb_databases()",
    "select * from main.duckdb_databases",
    "select * from system.main.duckdb_databases",
    "select * from system.main.duckdb_databases()",
    "select * from pragma_database_list",
    "select * from pragma_database_size()",
    "select * from pg_catalog.pg_settings",
    "select * from pg_settings",
    "select * from duckdb_settings()",
    "select * from duckdb_extensions()",
    "select current_setting('temp_directory')",
    "select current_setting('home_directory')",
    "select system.main.current_setting('secret_directory')",
    "select getvariable('x')",
    "select pg_get_viewdef(1)",  # a built-in macro over duckdb_views()
    "select * from sqlite_master",
    "select * from temp.main.sqlite_master",
    "select * from information_schema.key_column_usage",
    "select * from query_table('raw.things')",
    "select * from query('select 1')",
    "select * from read_text('/etc/passwd')",
    "select * from '/etc/passwd'",
    "select json_execute_serialized_sql(json_serialize_sql('select 1'))",
    "with duckdb_databases as (select 1) select * from duckdb_databases",
    "with x as (select * from duckdb_databases()) select * from x",
    "select * from raw.things, (select * from duckdb_databases()) d",
    "select * from other_catalog.raw.things",
    "summarize duckdb_databases",
    "describe pg_catalog.pg_settings",
    "explain select * from duckdb_databases()",
]


@pytest.mark.parametrize("query", REFUSED)
def test_reading_outside_the_allow_list_is_refused_by_both_layers(
    read_env: Env, query: str
) -> None:
    obs, info = sql(read_env, query)
    assert info["error"] and obs.startswith("ERROR"), obs
    assert not any(secret in obs for secret in secrets_of(read_env))
    # The server's own check, past the sqlglot layer:
    with pytest.raises(QueryFailed) as refused:
        sandbox_of(read_env).query(query, timeout_s=10, max_rows=50, max_chars=8000)
    assert refused.value.kind in {"refused", "error"}, refused.value.message
    assert not any(secret in refused.value.message for secret in secrets_of(read_env))


@pytest.mark.parametrize(
    "query",
    [
        "select * from duckdb_databases",
        "select * from pg_catalog.pg_settings",
        "select * from query_table('raw.things')",
    ],
)
def test_a_refusal_says_what_is_allowed(read_env: Env, query: str) -> None:
    obs, _ = sql(read_env, query)
    assert WHAT_IS_ALLOWED in obs


PATH_PROBES = [
    "show all tables",
    "show tables",
    "select * from information_schema.tables",
    "select * from information_schema.columns",
    "select * from information_schema.schemata",
    "select * from information_schema.views",
    "describe raw.things",
    "summarize raw.things",
    "explain analyze select * from raw.things",
]


@pytest.mark.parametrize("query", PATH_PROBES)
def test_what_is_allowed_reveals_no_path(read_env: Env, dbt_env: Env, query: str) -> None:
    for env in (read_env, dbt_env):
        obs, info = sql(env, query)
        assert not info["error"], obs
        for secret in secrets_of(env):
            assert secret not in obs, (query, secret)


def test_what_only_the_server_would_answer_reveals_no_path(read_env: Env) -> None:
    # sqlglot cannot parse these, so the tool refuses them; the server alone would answer.
    for query in ("show databases", "describe"):
        result = sandbox_of(read_env).query(query, timeout_s=10, max_rows=1000, max_chars=10**6)
        text = repr(result)
        assert result.rows and not any(secret in text for secret in secrets_of(read_env))


ALLOWED = [
    "select count(*) from raw.things",
    "with t as (select kind from raw.things) select count(*) from t",
    "with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select sum(n) from r",
    "select * from range(3) a, generate_series(1, 2) b, unnest([1, 2]) c",
    "select * from (values (1, 'a'), (2, 'b')) v(n, s)",
    "from raw.things select kind limit 1",
    "select * from raw.things pivot (count(*) for kind in ('a', 'b'))",
    "select table_name from information_schema.columns where table_schema = 'raw'",
    "select count(*) from information_schema.tables",
    "select * from main.thing_totals",
    "explain select count(*) from raw.things",
    "describe raw.things",
    "show tables",
]


@pytest.mark.parametrize("query", ALLOWED)
def test_ordinary_queries_still_work(read_env: Env, query: str) -> None:
    obs, info = sql(read_env, query)
    assert not info["error"], obs


def test_three_part_names_must_name_the_warehouse_itself(read_env: Env) -> None:
    result = sandbox_of(read_env).query(
        "select current_database()", timeout_s=10, max_rows=5, max_chars=8000
    )
    catalog = result.rows[0][0]
    obs, info = sql(read_env, f"select count(*) as n from {catalog}.raw.things")
    assert not info["error"], obs
    obs, info = sql(read_env, f"select count(*) as n from {catalog}_other.raw.things")
    assert info["error"] and "another catalog" in obs


def test_pivot_statements_are_refused_with_an_explanation(read_env: Env) -> None:
    obs, info = sql(read_env, "pivot raw.things on kind using sum(value)")
    assert info["error"] and "PIVOT" in obs and "IN (" in obs


def test_views_and_macros_stored_in_a_writable_warehouse_are_checked_too(dbt_env: Env) -> None:
    # What an agent's dbt run could leave behind, written here directly (same file, same SQL).
    sandbox_of(dbt_env).release_connection()
    script = (
        "import duckdb, sys; con = duckdb.connect(sys.argv[1]); "
        "con.execute('create view main.leak as select * from duckdb_databases()'); "
        "con.execute('create view main.leak_again as select * from main.leak'); "
        "con.execute(\"create view main.setting as select current_setting('temp_directory') t\"); "
        "con.execute(\"create macro main.leakm() as current_setting('temp_directory')\"); "
        "con.execute('create view raw.kinds as select distinct kind from raw.things'); "
        "con.close()"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(sandbox_of(dbt_env).warehouse)], check=True, timeout=120
    )
    for query in [
        "select * from main.leak",
        "select * from leak_again",
        "select * from setting",
        "select leakm()",
        "select * from (with leak as (select 1) select * from leak) a, leak",
    ]:
        obs, info = sql(dbt_env, query)
        assert info["error"], (query, obs)
        assert not any(secret in obs for secret in secrets_of(dbt_env)), query
    obs, info = sql(dbt_env, "select count(*) as n from raw.kinds")
    assert not info["error"] and "3" in obs


# --------------------------------------------------------------------------------------------
# results: budgets and rendering


def test_cells_render_as_duckdb_values_would(read_env: Env) -> None:
    expressions = [
        "42",
        "-1.5::double",
        "1/3",
        "12.345::decimal(10, 3)",
        "12345678901234567890::hugeint",
        "true",
        "null::integer",
        "'multi\nline'",
        "date '2024-02-29'",
        "timestamp '2024-02-29 12:34:56.789'",
        "time '12:00:01'",
        "interval 3 month + interval 4 day",
        "[1, 2, null]",
        "[[1.5], []]",
        "{'a': 1, 'b': [true, false]}",
        "map([1, 2], ['x', 'y'])",
        "'\\x00\\x01'::blob",
        "'6a3b3b8a-0e7e-4c52-9a3c-6f1d7f0c2b11'::uuid",
    ]
    query = "select " + ", ".join(f"{e} as c{i}" for i, e in enumerate(expressions))
    result = sandbox_of(read_env).query(query, timeout_s=10, max_rows=5, max_chars=100_000)
    expected = [format_value(v) for v in duckdb.connect().execute(query).fetchall()[0]]
    assert list(result.rows[0]) == expected


def test_long_strings_are_cut_before_conversion_with_the_same_note(read_env: Env) -> None:
    text = "ab\ncd" * 3000
    result = sandbox_of(read_env).query(
        "select repeat('ab\ncd', 3000) as s", timeout_s=10, max_rows=5, max_chars=100_000
    )
    assert result.rows[0][0] == format_value(text)
    assert "characters truncated" in result.rows[0][0]


def test_results_past_the_byte_budget_are_refused_not_converted(read_env: Env) -> None:
    obs, info = sql(read_env, "select repeat('x', 9000000) as s")
    assert info["error"] and "result too large" in obs
    obs, info = sql(read_env, "select repeat('x', 5000000) as s")
    assert not info["error"] and "+4999000 characters truncated" in obs


def test_nested_cells_past_their_budget_are_refused(read_env: Env) -> None:
    obs, info = sql(read_env, f"select range(0, {MAX_NESTED_VALUES + 1}) as l")
    assert info["error"] and "result too large" in obs and "LIST/MAP/STRUCT" in obs
    obs, info = sql(read_env, f"select len(range(0, {MAX_NESTED_VALUES + 1})) as n")
    assert not info["error"] and str(MAX_NESTED_VALUES + 1) in obs


def test_rows_and_characters_are_capped() -> None:
    with _env(READ_TASK, max_output_rows=7, max_output_chars=2000) as env:
        env.reset()
        _capped(env)


def _capped(env: Env) -> None:
    obs, info = sql(env, "select range as i from range(1000)")
    assert not info["error"] and "truncated to the first 7 rows" in obs
    assert obs.count("\n") == 7 + 2  # header, rule, 7 rows, the note
    wide = ", ".join(f"repeat('z', 900) as c{i}" for i in range(300))
    t0 = time.monotonic()
    obs, info = sql(env, f"select {wide} from range(100)")
    assert not info["error"] and "truncated" in obs
    assert len(obs) <= 2000 + 200 and time.monotonic() - t0 < 10


def test_each_thread_has_its_own_server(read_env: Env) -> None:
    pids: queue.Queue[int | None] = queue.Queue()

    def run() -> None:
        sandbox_of(read_env).query("select 1", timeout_s=10, max_rows=5, max_chars=8000)
        pids.put(server_stats()["pid"])

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    sql(read_env, "select 1")
    seen = {pids.get_nowait(), pids.get_nowait(), server_stats()["pid"]}
    assert None not in seen and len(seen) == 3
