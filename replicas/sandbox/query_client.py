"""The worker's side of the query server (:mod:`replicas.sandbox.query_server`).

Each worker thread gets its own server, started on its first query; a server that is killed or
dies is replaced at once (the agent's next query then need not wait for DuckDB to import).
The worker never runs agent SQL itself and never holds more of a result than one bounded
response line, so nothing an agent sends can grow the worker:

* it waits ``timeout_s`` + :data:`GRACE_S` for an answer, then SIGKILLs the server's process
  group and reports a timeout (the server interrupts its own query at ``timeout_s``; the kill is
  for queries that do not stop);
* a server that dies mid-query (its address-space limit, the kernel's OOM killer, a crash)
  becomes "the query exceeded its memory limit" (or its CPU time limit, on SIGXCPU);
* a response line longer than :data:`MAX_RESPONSE_BYTES` kills the server too;
* while it waits, it polls the server's resident memory every :data:`RSS_POLL_S` and kills it
  past :data:`SERVER_RSS_LIMIT_BYTES` (the server's address-space limit is the hard bound; this
  keeps what it actually occupies lower, at the price of a read of ``/proc`` per poll).

:func:`close_database` makes every server of this process drop its connection to a file (a
sandbox's writable warehouse, before dbt takes the write lock).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "GRACE_S",
    "QueryFailed",
    "QueryResult",
    "close_database",
    "run_query",
    "server_stats",
]

#: How long past its timeout a query may take to report before its server is killed.
GRACE_S = 1.0
#: Starting the server imports DuckDB and pyarrow: ~0.3 s idle, seconds on a loaded machine.
START_TIMEOUT_S = 60.0
#: No legitimate response comes near this: rows are capped and cells rendered server-side.
MAX_RESPONSE_BYTES = 16 * 2**20
_CLOSE_TIMEOUT_S = 10.0
SERVER_RSS_LIMIT_BYTES = int(1.25 * 2**30)
RSS_POLL_S = 0.01
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
_IMPORT_ROOT = str(Path(__file__).resolve().parents[2])
_SERVER_ENV = frozenset(
    {"PATH", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "HOME", "TMPDIR", "TZ", "LANG"}
    | {"REPLICAS_HOME"}  # only so the server can scrub it from error messages
)


class QueryFailed(Exception):
    """The query did not produce a result; ``kind`` says why, ``message`` is for the agent.

    Kinds: ``refused``, ``timeout``, ``memory``, ``cpu``, ``too_large``, ``error``.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class QueryResult:
    """Column names, rows of rendered cells (at most the requested number) and whether the
    query had more rows than were sent."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    more: bool

    def __post_init__(self) -> None:
        width = len(self.columns)
        if any(len(row) != width for row in self.rows):
            raise ValueError("every row must have one cell per column")


class _ServerGone(Exception):
    pass


class _NoAnswer(Exception):
    pass


class _TooBig(Exception):
    pass


def _resident_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE_SIZE
    except (OSError, ValueError, IndexError):
        return 0  # gone or unreadable: the pipe tells the rest


def _terminate(proc: subprocess.Popen[bytes], owner_pid: int) -> None:
    """End a server (only from the process that started it: a forked child must not kill its
    parent's server)."""
    if os.getpid() != owner_pid:
        return
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.close()


class QueryClient:
    """One query server and the request/response exchange with it (one at a time)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._ready = False
        self._spawned_at = 0.0
        self._buffer = bytearray()
        self._open: set[str] = set()
        self._next_id = 0
        self.starts = 0
        self.last_start_s: float | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    def _spawn(self) -> None:
        """Start a server without waiting for it: it imports DuckDB while the caller goes on."""
        # Only what Python and DuckDB need: the worker's environment may hold an agent
        # harness's API keys, and no SQL function should ever be one step away from them.
        env = {k: v for k, v in os.environ.items() if k in _SERVER_ENV or k.startswith("LC_")}
        # glibc reserves 64 MB of address space per thread arena; the server's RLIMIT_AS must
        # count memory it uses, not reservations.
        env["MALLOC_ARENA_MAX"] = "2"
        self._spawned_at = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "replicas.sandbox.query_server", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: a kill takes all of it
            close_fds=True,
            # ``-m`` puts the working directory first on sys.path: run where ``replicas`` itself
            # lives (the source tree or site-packages), never wherever the worker happens to be.
            cwd=_IMPORT_ROOT,
            env=env,
            bufsize=0,
        )
        self._proc = proc
        self._ready = False
        self._buffer.clear()
        self._open.clear()
        self._finalizer = weakref.finalize(self, _terminate, proc, self.pid)

    def _await_ready(self) -> None:
        try:
            ready = json.loads(self._read_line(self._spawned_at + START_TIMEOUT_S))
        except (_ServerGone, _NoAnswer, _TooBig, ValueError):
            ready = None
        if not isinstance(ready, dict) or not ready.get("ready"):
            self._stop()
            raise QueryFailed("error", "the query server could not be started")
        self._ready = True
        self.starts += 1
        self.last_start_s = time.monotonic() - self._spawned_at

    def _stop(self) -> None:
        """Kill the server (if any) and forget its state; the next query starts a new one."""
        if self._finalizer is not None:
            self._finalizer()
        self._finalizer = None
        self._proc = None
        self._ready = False
        self._buffer.clear()
        self._open.clear()

    def _replace(self) -> None:
        """Kill the server and start the next one now: the agent's next query, seconds away,
        should not wait for DuckDB to import."""
        self._stop()
        with contextlib.suppress(OSError):
            self._spawn()

    def _running(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            self._stop()
            self._spawn()
        if not self._ready:
            self._await_ready()
        assert self._proc is not None  # set by _spawn, kept by _await_ready
        return self._proc

    def shutdown(self) -> None:
        with self._lock:
            self._stop()

    @property
    def server_pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    # -- exchange ----------------------------------------------------------------------------

    def _read_line(self, deadline: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None  # set by _spawn
        fd = proc.stdout.fileno()
        # poll(), not select(): select() refuses descriptors >= 1024 (FD_SETSIZE), which a
        # long-lived worker's pipes reach, and every later server then "could not start".
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > MAX_RESPONSE_BYTES:
                raise _ServerGone("response too long")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _NoAnswer
            readable = poller.poll(max(1, int(min(remaining, RSS_POLL_S) * 1000)))
            if not readable:
                if _resident_bytes(proc.pid) > SERVER_RSS_LIMIT_BYTES:
                    raise _TooBig
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise _ServerGone("end of output")
            self._buffer += chunk

    def _exchange(self, request: dict[str, Any], wait_s: float) -> dict[str, Any]:
        proc = self._running()
        assert proc.stdin is not None  # created with stdin=PIPE
        if request.get("op") == "query":
            self._open.add(str(request["db"]))  # from now on this server may hold the file
        self._next_id += 1
        request = {**request, "id": self._next_id}
        data = json.dumps(request).encode("utf-8") + b"\n"
        try:
            view = memoryview(data)
            while view:
                written = proc.stdin.write(view)
                view = view[written or 0 :]
            reply = json.loads(self._read_line(time.monotonic() + wait_s))
        except (BrokenPipeError, ConnectionResetError, _ServerGone):
            raise _ServerGone from None
        except ValueError:
            self._replace()
            raise QueryFailed("error", "the query server sent a malformed answer") from None
        if not isinstance(reply, dict) or reply.get("id") != request["id"]:
            self._replace()
            raise QueryFailed("error", "the query server sent a malformed answer")
        if reply.get("restart"):
            self._replace()
        return reply

    def _died(self) -> QueryFailed:
        proc = self._proc
        code = None
        if proc is not None:
            with contextlib.suppress(Exception):
                os.killpg(proc.pid, signal.SIGKILL)  # a broken pipe may leave it running
            with contextlib.suppress(Exception):
                code = proc.wait(timeout=10)
        self._replace()
        if code == -signal.SIGXCPU:
            return QueryFailed("cpu", "the query exceeded its CPU time limit")
        return QueryFailed("memory", "the query exceeded its memory limit")

    # -- operations --------------------------------------------------------------------------

    def query(
        self, db: str, sql: str, *, timeout_s: float, max_rows: int, max_chars: int
    ) -> QueryResult:
        request = {
            "op": "query",
            "db": db,
            "sql": sql,
            "timeout_s": timeout_s,
            "max_rows": max_rows,
            "max_chars": max_chars,
        }
        with self._lock:
            try:
                reply = self._exchange(request, timeout_s + GRACE_S)
            except _NoAnswer:
                self._replace()
                raise QueryFailed("timeout", f"query timed out after {timeout_s:g} s") from None
            except _TooBig:
                self._replace()
                raise QueryFailed("memory", "the query exceeded its memory limit") from None
            except _ServerGone:
                raise self._died() from None
        if not reply.get("ok"):
            raise QueryFailed(str(reply.get("kind", "error")), str(reply.get("message", "")))
        columns = tuple(str(c) for c in reply.get("columns", []))
        rows = tuple(tuple(str(c) for c in row) for row in reply.get("rows", []))
        return QueryResult(columns=columns, rows=rows, more=bool(reply.get("more")))

    def close_database(self, db: str) -> None:
        with self._lock:
            if db not in self._open:
                return
            self._open.discard(db)
            if self._proc is None or self._proc.poll() is not None:
                return
            try:
                self._exchange({"op": "close", "db": db}, _CLOSE_TIMEOUT_S)
            except (_NoAnswer, _ServerGone, _TooBig, QueryFailed):
                self._stop()  # a dead server holds no lock either


_LOCAL = threading.local()
_CLIENTS: weakref.WeakSet[QueryClient] = weakref.WeakSet()
_CLIENTS_LOCK = threading.Lock()


def thread_client() -> QueryClient:
    """This thread's client (created on first use; a forked child gets its own)."""
    client: QueryClient | None = getattr(_LOCAL, "client", None)
    if client is None or client.pid != os.getpid():
        client = QueryClient()
        _LOCAL.client = client
        with _CLIENTS_LOCK:
            _CLIENTS.add(client)
    return client


def run_query(
    db: str | os.PathLike[str], sql: str, *, timeout_s: float, max_rows: int, max_chars: int
) -> QueryResult:
    """Run one (already checked) agent query on ``db`` in this thread's query server."""
    return thread_client().query(
        str(Path(db)), sql, timeout_s=timeout_s, max_rows=max_rows, max_chars=max_chars
    )


def close_database(db: str | os.PathLike[str]) -> None:
    """Make every query server of this process close its connection to ``db``."""
    path = str(Path(db))
    with _CLIENTS_LOCK:
        clients = [c for c in _CLIENTS if c.pid == os.getpid()]
    for client in clients:
        client.close_database(path)


def server_stats() -> dict[str, Any]:
    """This thread's server: its pid, how often it was started and the last start time (s)."""
    client = thread_client()
    return {
        "pid": client.server_pid,
        "starts": client.starts,
        "last_start_s": client.last_start_s,
    }
