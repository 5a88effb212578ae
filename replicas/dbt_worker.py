"""One episode's dbt process, kept between the agent's dbt calls (inside the same OS sandbox).

Why: a fresh ``dbt`` process pays, on every call, for importing dbt (≈ 2.8 s on a quiet machine:
mashumaro compiles its serialisers at import) and for building the JSON schemas that validate
configs (≈ 1.4 s) before it reads a single model. An agent that fixes a model calls dbt several
times; from its second call on, a process that stays up pays neither. dbt's own partial parsing
(``target/partial_parse.msgpack``, rewritten by every call) picks up what the agent changed in
between, exactly as a new process reading the same file would.

What does not change: the walls and the paths. The worker is started with
:func:`replicas.osbox.spawn_sandboxed` — the same bubblewrap layout, binds
(``/sandbox/project``, ``/sandbox/db``, ``/profiles``), environment and rlimits as
:func:`replicas.dbt.run_dbt` — so a model cannot tell a worker from a one-shot process. It only
ever runs the agent's own episode: one worker per :class:`~replicas.sandbox.core.Sandbox`, never
shared, and grading never uses it (grading copies the project and runs its own processes), so
whatever agent Jinja does to the worker's memory reaches no one but the agent itself.

Limits per call: the wall-clock timeout kills the worker's process group (the next call starts a
new one). RLIMIT_CPU counts the worker's whole life, so a worker that has used a fifth of the CPU
budget, or whose peak memory passed half the address-space limit, is retired after its call: a
call always starts with at least four fifths of the budget a fresh process has. After each call the
driver closes dbt-duckdb's DuckDB instance, so the episode's ``sql`` tool can open the warehouse.

The protocol: one JSON line per request on the worker's stdin, one per answer on a private copy of
its stdout; the driver points file descriptor 1 at stderr first, so nothing dbt or a model prints
can reach the protocol stream. Answers are bounded (the log keeps head and tail) and shape-checked.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from replicas.dbt import (
    DB_MOUNT,
    DBT_LIMITS,
    DRIVER_RELEASE_DUCKDB,
    PROFILES_MOUNT,
    PROJECT_MOUNT,
    DbtResult,
    dbt_env,
    profiles_yaml,
    read_results,
    summarise,
)
from replicas.osbox import (
    OUTPUT_KEEP_BYTES,
    Bind,
    OsSandboxUnavailable,
    ProcessLimits,
    isolation_mode,
    path_inside,
    read_bounded,
    spawn_sandboxed,
)

__all__ = ["STOPPED", "DbtWorker", "worker_enabled"]

#: ``REPLICAS_DBT_WORKER=0`` makes every agent dbt call a fresh process again (A/B, debugging).
WORKER_ENV = "REPLICAS_DBT_WORKER"
#: Largest answer line accepted from a worker (its log is capped well below this).
_MAX_ANSWER_BYTES = 8 << 20
#: How often a running call's ``watch`` is asked whether to stop it (seconds).
WATCH_EVERY_S = 0.5
#: How the summary of a call stopped by its ``watch`` begins.
STOPPED = "dbt was stopped while it ran"

_DRIVER = (
    r"""
import contextlib, io, json, os, resource, sys
proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)
common = json.loads(sys.argv[1])
keep = int(sys.argv[2])
from dbt.cli.main import dbtRunner
"""
    + DRIVER_RELEASE_DUCKDB
    + r"""for line in sys.stdin:
    args = json.loads(line)
    buf = io.StringIO()
    code, error = 2, None
    try:
        with contextlib.redirect_stdout(buf):
            res = dbtRunner().invoke([*args, *common])
        code = 0 if res.success else (1 if res.exception is None else 2)
        if res.exception is not None:
            error = f"{type(res.exception).__name__}: {res.exception}"
    except BaseException as exc:
        error = f"{type(exc).__name__}: {exc}"
    finally:
        release_duckdb()
    log = buf.getvalue()
    if error:
        log += "\n" + error
    if len(log) > 2 * keep:
        log = log[:keep] + f"\n... [{len(log) - 2 * keep} characters of output dropped]\n" + log[-keep:]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    answer = {"returncode": code, "log": log, "cpu_s": usage.ru_utime + usage.ru_stime,
              "max_rss_bytes": usage.ru_maxrss * 1024}
    proto.write(json.dumps(answer) + "\n")
    proto.flush()
"""
)


def worker_enabled() -> bool:
    """Agent dbt calls go through a per-episode worker unless ``REPLICAS_DBT_WORKER=0``."""
    return os.environ.get(WORKER_ENV, "1") != "0"


class DbtWorker:
    """A dbt process serving one project and warehouse; :meth:`run` is ``run_dbt`` without the
    start-up. Not thread-safe by design of use (one episode, one call at a time), but guarded."""

    def __init__(
        self,
        project_dir: Path,
        warehouse: Path,
        *,
        threads: int = 2,
        limits: ProcessLimits = DBT_LIMITS,
    ) -> None:
        self.project_dir = Path(project_dir).resolve()
        self.warehouse = Path(warehouse).resolve()
        self.threads = threads
        self.limits = limits
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._scratch: Path | None = None
        self._stderr: IO[bytes] | None = None
        self._mode = ""
        self._buffer = bytearray()
        #: processes started and calls served (tests and benchmarks read them)
        self.starts = 0
        self.calls = 0

    # -- lifecycle -------------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _start(self) -> None:
        mode = isolation_mode()  # raises OsSandboxUnavailable: the caller reports it
        scratch = Path(tempfile.mkdtemp(prefix="replicas-dbtw-"))
        (scratch / "profiles").mkdir()
        (scratch / "home").mkdir()
        project = Bind(self.project_dir, PROJECT_MOUNT, writable=True)
        database = Bind(self.warehouse.parent, DB_MOUNT, writable=True)
        profiles = Bind(scratch / "profiles", PROFILES_MOUNT)
        (scratch / "profiles" / "profiles.yml").write_text(
            profiles_yaml(path_inside(database, mode, self.warehouse.name), threads=self.threads)
        )
        common = [
            "--project-dir",
            path_inside(project, mode),
            "--profiles-dir",
            path_inside(profiles, mode),
        ]
        stderr = open(scratch / "stderr", "wb")  # noqa: SIM115 - lives as long as the worker
        home = "/tmp" if mode == "bubblewrap" else str(scratch / "home")
        try:
            proc, mode = spawn_sandboxed(
                [sys.executable, "-c", _DRIVER, json.dumps(common), str(OUTPUT_KEEP_BYTES)],
                binds=[project, database, profiles],
                workdir=path_inside(project, mode),
                env=dbt_env(home),
                limits=self.limits,
                stderr=stderr,
                mode=mode,
            )
        except BaseException:
            stderr.close()
            shutil.rmtree(scratch, ignore_errors=True)
            raise
        os.set_blocking(proc.stdout.fileno(), False)  # type: ignore[union-attr]
        self._proc, self._scratch, self._stderr, self._mode = proc, scratch, stderr, mode
        self._buffer.clear()
        self.starts += 1

    def close(self) -> None:
        """Kill the worker (its whole process group) and remove its scratch directory."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                proc.wait(timeout=10)
            for stream in (proc.stdin, proc.stdout):
                with contextlib.suppress(Exception):
                    if stream is not None:
                        stream.close()
        if self._stderr is not None:
            with contextlib.suppress(Exception):
                self._stderr.close()
            self._stderr = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def __del__(self) -> None:  # a forgotten worker must not outlive its owner
        with contextlib.suppress(Exception):
            self.close()

    # -- one call --------------------------------------------------------------------------------

    def run(
        self,
        args: list[str],
        *,
        timeout_s: float = 300.0,
        watch: Callable[[], str | None] | None = None,
    ) -> DbtResult:
        """``dbt <args>`` in the worker (started if needed); never raises on dbt failure.

        ``watch`` is called about every :data:`WATCH_EVERY_S` while the call runs; a text it
        returns stops the call there (the worker is killed, the summary starts with
        :data:`STOPPED` and that text). Why: the sandbox's disk quota is otherwise checked only
        after a call, and one call can write gigabytes (a model rendering 100 MB of SQL is
        written twice, under ``target/compiled`` and ``target/run``)."""
        with self._lock:
            started = time.monotonic()
            try:
                if not self.alive:
                    self.close()
                    self._start()
            except OsSandboxUnavailable as exc:
                return DbtResult(False, -1, str(exc), "", isolation="unavailable")
            proc = self._proc
            assert proc is not None and proc.stdin is not None
            run_results = self.project_dir / "target" / "run_results.json"
            run_results.unlink(missing_ok=True)
            self.calls += 1
            try:
                proc.stdin.write((json.dumps(list(args)) + "\n").encode())
                proc.stdin.flush()
            except (BrokenPipeError, OSError):
                return self._died(time.monotonic() - started)
            line, timed_out, stopped = self._read_line(started + timeout_s, watch)
            wall = time.monotonic() - started
            if stopped is not None:
                mode = self._mode
                self.close()
                return DbtResult(
                    ok=False,
                    returncode=-1,
                    summary=f"{STOPPED}: {stopped}",
                    log="",
                    isolation=mode,
                    wall_s=wall,
                )
            if timed_out:
                self.close()
                return DbtResult(
                    ok=False,
                    returncode=-1,
                    summary=f"dbt timed out after {timeout_s:.0f} s",
                    log="",
                    timed_out=True,
                    isolation=self._mode,
                    wall_s=wall,
                )
            answer = _parse_answer(line)
            if answer is None:
                return self._died(wall)
            returncode, log, cpu_s, max_rss = answer
            results = read_results(run_results)
            if cpu_s > self.limits.cpu_seconds / 5 or max_rss > self.limits.address_space_bytes / 2:
                self.close()  # retire: the next call gets a fresh budget
            return DbtResult(
                ok=returncode == 0,
                returncode=returncode,
                summary=summarise(results, log, returncode),
                log=log,
                results=results,
                isolation=self._mode,
                wall_s=wall,
                cpu_s=cpu_s,
            )

    def _read_line(
        self, deadline: float, watch: Callable[[], str | None] | None = None
    ) -> tuple[bytes | None, bool, str | None]:
        """The next answer line, ``None`` at end of stream; ``(None, True, None)`` past
        ``deadline``; ``(None, False, why)`` when ``watch`` said why the call must stop."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        next_watch = time.monotonic() + WATCH_EVERY_S
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                now = time.monotonic()
                left = deadline - now
                if left <= 0:
                    return None, True, None
                if watch is not None and now >= next_watch:
                    stop = watch()
                    if stop is not None:
                        return None, False, stop
                    # a slow check (a tree of many files) runs less often: at most ~1/5 of
                    # the call's wall time goes to watching
                    spent = time.monotonic() - now
                    next_watch = time.monotonic() + max(WATCH_EVERY_S, 4 * spent)
                wait = left if watch is None else min(left, max(next_watch - now, 0.0))
                if not selector.select(timeout=wait):
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    return None, False, None
                self._buffer += chunk
                if len(self._buffer) > _MAX_ANSWER_BYTES:
                    return None, False, None
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer[:] = rest
        return line, False, None

    def _died(self, wall: float) -> DbtResult:
        """The worker ended without answering (a resource limit, a crash): report it as
        ``run_dbt`` reports a process that died, and start afresh next call."""
        proc = self._proc
        returncode = -1
        killed_by = None
        if proc is not None:
            with contextlib.suppress(Exception):
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGKILL)
                returncode = proc.wait(timeout=10)
            # bubblewrap exits with 128 + N when the process inside died of signal N
            signum = -returncode if returncode < 0 else returncode - 128
            if returncode < 0 or (self._mode == "bubblewrap" and 128 < returncode < 160):
                with contextlib.suppress(ValueError):
                    killed_by = signal.Signals(signum).name
        stderr = ""
        if self._scratch is not None and self._stderr is not None:
            with contextlib.suppress(Exception):
                self._stderr.flush()
                stderr = read_bounded(self._scratch / "stderr")
        mode = self._mode
        self.close()
        results = read_results(self.project_dir / "target" / "run_results.json")
        summary = summarise(results, stderr, returncode if returncode else 1)
        if killed_by is not None:
            summary += f"\ndbt was killed by {killed_by} (a resource limit was reached)"
        return DbtResult(
            ok=False,
            returncode=returncode,
            summary=summary,
            log=stderr,
            results=results,
            isolation=mode,
            wall_s=wall,
        )


def _parse_answer(line: bytes | None) -> tuple[int, str, float, float] | None:
    """An answer from the (agent-influenced) worker, shape-checked; ``None`` if malformed."""
    if line is None:
        return None
    try:
        data: Any = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    code, log = data.get("returncode"), data.get("log")
    cpu, rss = data.get("cpu_s"), data.get("max_rss_bytes")
    if not isinstance(code, int) or isinstance(code, bool) or not isinstance(log, str):
        return None
    if not isinstance(cpu, (int, float)) or not isinstance(rss, (int, float)):
        return None
    return code, log, float(cpu), float(rss)
