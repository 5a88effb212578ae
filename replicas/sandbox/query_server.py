"""The query server: agent SQL runs here, in a child process with hard resource limits.

DuckDB's ``memory_limit`` covers its buffer pool, not strings it builds, Arrow batches or Python
objects, and an interrupt is only seen between chunks; so agent SQL never runs in the worker.
Each worker thread owns one server (:mod:`replicas.sandbox.query_client` starts it as
``python -m replicas.sandbox.query_server``), which

* runs under ``RLIMIT_AS`` (whatever a query builds, the process cannot grow past it; DuckDB
  answers OutOfMemory or the kernel kills the server, never the worker) and ``RLIMIT_CPU``
  re-armed per query as a backstop;
* holds read-only, locked-down DuckDB connections keyed by warehouse path (no spilling to disk:
  ``temp_directory`` is empty, so no setting names a path);
* checks every query against the allow-list of :mod:`replicas.sandbox.sql_policy` on DuckDB's
  own parse tree (``json_serialize_sql``), with the warehouse's catalog at hand: relations must
  exist in ``raw``/``main``, views stored in the warehouse are checked the same way (an agent's
  dbt model may be a view over ``duckdb_settings()``), macros stored there may not be called;
* interrupts its own query at the timeout (a watchdog thread);
* streams the result through Arrow in small batches, refusing past a byte budget *before*
  converting anything to Python (a 16 MB list cell never becomes Python objects), and sends back
  at most ``max_rows`` rows of cells already rendered as capped strings.

Protocol: JSON lines, one request at a time, stdout carries protocol lines only (fd 1 is pointed
at stderr so stray output cannot corrupt it). At start the server writes ``{"ready": true}``.

* ``{"id", "op": "query", "db", "sql", "timeout_s", "max_rows", "max_chars"}`` →
  ``{"id", "ok": true, "columns": [...], "rows": [[str, ...]], "more": bool}`` or
  ``{"id", "ok": false, "kind": refused|timeout|memory|too_large|error, "message"}``;
* ``{"id", "op": "close", "db"}`` → ``{"id", "ok": true}`` (dbt needs the write lock next).

A response may carry ``"restart": true``: the server exits after sending it (after running out of
memory, or when it grew large), and the client starts a fresh one on the next query.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import json
import math
import os
import resource
import signal
import sys
import threading
import time
from typing import Any, BinaryIO

import duckdb
import pyarrow as pa

from replicas.db import SAFE_DUCKDB_CONFIG
from replicas.sandbox.query_check import (
    Database,
    Refused,
    check_query,
    file_identity,
    load_catalog,
)
from replicas.sandbox.query_render import (
    TooLarge,
    collect_rows,
)

#: Address space of the server. DuckDB, pyarrow and glibc reserve address space they never
#: touch (~0.5 GB with ``MALLOC_ARENA_MAX=2``, which the client sets). Measured: at 1.75 GiB a
#: COUNT(DISTINCT) over 5M strings or list() of 10M values already fails; at 2.5 GiB they pass
#: and the attacks peak at ~1 GB resident; at 3 GiB a 1 GB string is built (2 GB resident).
ADDRESS_SPACE_BYTES = int(2.5 * 2**30)
DUCKDB_MEMORY_LIMIT = "1GB"
#: One thread: each worker thread has its own server on a machine of few cores, and a second
#: DuckDB thread makes every small query hand work across threads. Measured on a loaded 2-core
#: machine (median of 300): a one-row COUNT 1.1 ms at 1 thread vs 1.5-4.2 ms at 2, the
#: json_serialize_sql check 1.4 ms vs 3.4-7.0 ms.
DUCKDB_THREADS = 1
BATCH_ROWS = 16
MAX_OPEN_DATABASES = 4
#: A server whose peak resident size passed this restarts after answering (glibc and jemalloc
#: rarely hand memory back, so one heavy query would otherwise keep it large).
RESTART_RSS_BYTES = 768 * 2**20

SERVER_CONFIG: dict[str, Any] = {
    **SAFE_DUCKDB_CONFIG,
    "threads": DUCKDB_THREADS,
    "memory_limit": DUCKDB_MEMORY_LIMIT,
    "temp_directory": "",
    "python_enable_replacements": False,
}


# ---- the server ----------------------------------------------------------------------------


def _stream(cur: duckdb.DuckDBPyConnection, sql: str) -> pa.RecordBatchReader:
    """Run ``sql`` as a stream of small Arrow batches (nothing is materialised up front)."""
    submit = getattr(cur, "_submit", None)
    if submit is not None:
        # DuckDB 2.0's engine call behind ``cur.sql(sql).to_arrow_reader(n)``, which would first
        # parse and bind the statement a second time just to build a relation object (~1 ms,
        # a third of a small query's round trip).
        return submit(sql, None, "stream", BATCH_ROWS).arrow_reader()
    return cur.sql(sql).to_arrow_reader(BATCH_ROWS)


class _Watchdog:
    """Interrupts the running query at its deadline.

    It polls instead of being notified: arming is then a plain assignment, whereas a notified
    thread must be scheduled (and take the lock back) on every query, which costs milliseconds
    on a loaded machine. The price is up to :data:`_WATCHDOG_TICK_S` of lateness.
    """

    def __init__(self) -> None:
        self._armed: tuple[float, duckdb.DuckDBPyConnection] | None = None
        threading.Thread(target=self._loop, name="query-watchdog", daemon=True).start()

    def arm(self, cur: duckdb.DuckDBPyConnection, timeout_s: float) -> None:
        self._armed = (_now() + timeout_s, cur)

    def disarm(self) -> None:
        self._armed = None

    def _loop(self) -> None:
        while True:
            time.sleep(_WATCHDOG_TICK_S)
            armed = self._armed
            if armed is not None and _now() >= armed[0]:
                self._armed = None
                with contextlib.suppress(Exception):
                    armed[1].interrupt()


_WATCHDOG_TICK_S = 0.05


def _now() -> float:
    return time.monotonic()


def _peak_rss_bytes() -> int:
    """This process's own peak resident size (VmHWM).

    Not ``getrusage().ru_maxrss``: Linux carries that across ``exec`` from the address space the
    server was forked from, so a server started by a large worker would read "past the restart
    threshold" from its first query on and be replaced after every query.
    """
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # no /proc: macOS, in bytes
    return maxrss if sys.platform == "darwin" else maxrss * 1024


class QueryServer:
    def __init__(self) -> None:
        self._dbs: collections.OrderedDict[str, Database] = collections.OrderedDict()
        self._watchdog = _Watchdog()

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        reply: dict[str, Any]
        if op == "close":
            self.close(str(request.get("db", "")))
            reply = {"ok": True}
        elif op == "query":
            reply = self.query(request)
            # A failed heavy query (timeout, too large) leaves the server as large as a
            # successful one: restart after either, not only after the next success.
            if _peak_rss_bytes() > RESTART_RSS_BYTES:
                reply["restart"] = True
        elif op == "ping":
            reply = {"ok": True}
        else:
            reply = {"ok": False, "kind": "error", "message": f"unknown op {op!r}"}
        reply["id"] = request.get("id")
        return reply

    def close(self, path: str) -> None:
        db = self._dbs.pop(path, None)
        if db is not None:
            with contextlib.suppress(Exception):
                db.con.close()

    def _database(self, path: str) -> Database:
        identity = file_identity(path)
        db = self._dbs.get(path)
        if db is not None and db.identity == identity:
            self._dbs.move_to_end(path)
            return db
        self.close(path)  # a rebuilt file: DuckDB would hand back the old instance otherwise
        while len(self._dbs) >= MAX_OPEN_DATABASES:
            self.close(next(iter(self._dbs)))
        con = duckdb.connect(path, read_only=True, config=dict(SERVER_CONFIG))
        try:
            db = load_catalog(con, identity)
        except BaseException:
            con.close()
            raise
        self._dbs[path] = db
        return db

    def query(self, request: dict[str, Any]) -> dict[str, Any]:
        path = str(request.get("db", ""))
        sql = str(request.get("sql", ""))
        timeout_s = float(request.get("timeout_s", 10.0))
        max_rows = max(1, int(request.get("max_rows", 50)))
        max_chars = max(200, int(request.get("max_chars", 8000)))
        try:
            try:
                db = self._database(path)
            except OSError as exc:
                return _fail("error", f"the warehouse could not be opened ({exc.strerror})", path)
            cur = db.con.cursor()
            self._arm_cpu_limit(timeout_s)
            self._watchdog.arm(cur, timeout_s)
            try:
                check_query(cur, db, sql)
                reader = _stream(cur, sql)
                try:
                    columns = list(reader.schema.names)
                    rows, more = collect_rows(reader, max_rows, max_chars)
                finally:
                    reader.close()
            finally:
                self._watchdog.disarm()
                with contextlib.suppress(Exception):
                    cur.close()
        except Refused as exc:
            return _fail("refused", str(exc), path)
        except TooLarge as exc:
            return _fail("too_large", str(exc), path)
        except Exception as exc:
            return _failure(exc, timeout_s, path)
        return {"ok": True, "columns": columns, "rows": rows, "more": more}

    @staticmethod
    def _arm_cpu_limit(timeout_s: float) -> None:
        # Backstop behind the watchdog and the client's kill: SIGXCPU ends a query that ignores
        # both. The hard limit stays unlimited so the soft one can be re-armed per query.
        usage = resource.getrusage(resource.RUSAGE_SELF)
        used = usage.ru_utime + usage.ru_stime
        soft = math.ceil(used + timeout_s * DUCKDB_THREADS + 10)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))


_MEMORY_WORDS = ("Out of Memory Error", "bad_alloc", "Allocation failure", "failed to allocate")


def _failure(exc: Exception, timeout_s: float, path: str) -> dict[str, Any]:
    """The reply for a query that raised. Memory errors also come from Arrow (as OSError or
    ArrowMemoryError) and from Python; the server restarts after any of them."""
    message = str(exc)
    if isinstance(exc, duckdb.InterruptException) or message.startswith("INTERRUPT Error"):
        return _fail("timeout", f"query timed out after {timeout_s:g} s", path)
    from_engine = isinstance(exc, (duckdb.Error, OSError, pa.ArrowException))
    if isinstance(exc, (duckdb.OutOfMemoryException, MemoryError)) or (
        from_engine and any(message.startswith(w) or f": {w}" in message for w in _MEMORY_WORDS)
    ):
        reply = _fail("memory", "the query exceeded its memory limit", path)
        return {**reply, "restart": True}
    if isinstance(exc, duckdb.Error):
        return _fail("error", message, path)
    # A result the renderer cannot handle must not end the server.
    return _fail("error", f"{type(exc).__name__}: {message}", path)


def _scrub(message: str, path: str) -> str:
    """Error text without the warehouse path or the kit's cache directory."""
    secrets = {path, os.path.realpath(path) if path else "", os.path.dirname(path)}
    home = os.environ.get("REPLICAS_HOME")
    if home:
        secrets |= {home, os.path.realpath(home)}
    for secret in sorted((s for s in secrets if len(s) > 1), key=len, reverse=True):
        message = message.replace(secret, "<warehouse>")
    return message


def _fail(kind: str, message: str, path: str) -> dict[str, Any]:
    return {"ok": False, "kind": kind, "message": _scrub(message, path)[:2000]}


# ---- process setup -------------------------------------------------------------------------


def _apply_limits() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = (
        ADDRESS_SPACE_BYTES if hard == resource.RLIM_INFINITY else min(hard, ADDRESS_SPACE_BYTES)
    )
    # macOS refuses RLIMIT_AS; there the client's polling of resident memory is the only bound.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _die_with_parent(parent_pid: int) -> None:
    """SIGKILL this server when the worker thread that started it goes away."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if parent_pid and os.getppid() != parent_pid:
        os._exit(0)


def _send(out: BinaryIO, message: dict[str, Any]) -> None:
    text = json.dumps(message, ensure_ascii=False, default=str)
    out.write(text.encode("utf-8", "replace") + b"\n")
    out.flush()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # DuckDB or a library printing to fd 1 must not corrupt the protocol
    sys.stdout = sys.stderr
    _die_with_parent(int(args[0]) if args else 0)
    _apply_limits()
    server = QueryServer()
    _send(protocol, {"ready": True, "pid": os.getpid()})
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("not an object")
            reply = server.handle(request)
        except (ValueError, TypeError) as exc:
            reply = {"ok": False, "kind": "error", "message": f"bad request: {exc}"}
        except Exception as exc:  # whatever went wrong, the client gets an answer, not a hang-up
            reply = {"ok": False, "kind": "error", "message": f"{type(exc).__name__}: {exc}"}
        _send(protocol, reply)
        if reply.get("restart"):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
