"""The operating-system sandbox around every agent-controlled process (dbt, in episodes and in
grading): bubblewrap namespaces plus resource limits.

Why: dbt is a general-purpose program. It runs agent-written Jinja, reads whatever paths a
project file names and writes compiled output wherever a node's path points. Python path checks
(``replicas.sandbox.project``) refuse the known tricks; this module is the wall behind them, so
the tricks nobody imagined yet still meet a read-only system with nothing of value in it.

What the child sees (``bwrap``; mount, PID, IPC, UTS, network and user namespaces unshared):

* the system (``/usr``, the dynamic loader cache) and the Python installation, read-only; the
  kit's own package directory inside site-packages is masked;
* the bound directories the caller names (an episode's sandbox at ``/sandbox``, its dbt profile
  at ``/profiles``) — nothing else of the host: not ``REPLICAS_HOME`` (the snapshot cache), not
  the kit's sources, not other sandboxes, not ``$HOME``;
* a private, size-capped ``/tmp``, fresh ``/proc`` and ``/dev``, no network, a cleared
  environment; it dies with its parent and gets its own session (no terminal injection).

Limits (``setrlimit`` before ``exec``, inherited by everything inside): address space, file
size, CPU time, open files, and — for non-root callers — process count. The wall-clock timeout
kills the whole process group.

Without bubblewrap (macOS, a container without user namespaces) :func:`require` refuses, unless
the user opted out explicitly with ``REPLICAS_UNSAFE_NO_OS_SANDBOX=1`` (the CLI's
``--unsafe-no-os-sandbox``); every result then says ``mode="unsafe-none"`` so runs record it.
A foundation module: it imports nothing of the kit.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "UNSAFE_ENV",
    "Bind",
    "OsSandboxUnavailable",
    "ProcessLimits",
    "SandboxedResult",
    "allocated_bytes",
    "isolation_mode",
    "probe",
    "read_bounded",
    "require",
    "run_sandboxed",
    "spawn_sandboxed",
]

#: Set to ``1`` to run agent-controlled processes without an OS sandbox (loudly recorded).
UNSAFE_ENV = "REPLICAS_UNSAFE_NO_OS_SANDBOX"
MiB = 1 << 20
#: Captured output kept per stream (the head and the tail); the rest is dropped, not buffered.
OUTPUT_KEEP_BYTES = 256 * 1024


class OsSandboxUnavailable(RuntimeError):
    """No OS sandbox on this machine and no explicit opt-out."""


@dataclass(frozen=True)
class ProcessLimits:
    """Hard limits of one sandboxed process tree (rlimits; the timeout is wall-clock)."""

    address_space_bytes: int = 3072 * MiB
    file_size_bytes: int = 512 * MiB
    cpu_seconds: int = 600
    open_files: int = 1024
    processes: int = 512
    tmp_bytes: int = 64 * MiB

    def __post_init__(self) -> None:
        for name in ("address_space_bytes", "file_size_bytes", "cpu_seconds", "open_files"):
            if getattr(self, name) <= 0:
                raise ValueError(f"ProcessLimits.{name} must be positive")


@dataclass(frozen=True)
class Bind:
    """Host ``source`` visible at ``target`` inside the sandbox (read-only unless ``writable``)."""

    source: Path
    target: str
    writable: bool = False

    def __post_init__(self) -> None:
        if not self.target.startswith("/") or ".." in Path(self.target).parts:
            raise ValueError(f"bind target must be an absolute path, got {self.target!r}")


@dataclass(frozen=True)
class SandboxedResult:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    wall_s: float
    mode: str  # "bubblewrap", "unsafe-none" or "trusted-none"
    killed_by: str | None = field(default=None)  # a signal name when the child died of one
    #: why the run was stopped before it ended (``disk_limit_bytes`` passed), else ``None``
    stopped: str | None = field(default=None)


# ---- availability ------------------------------------------------------------------------------


def _system_binds() -> list[str]:
    """Read-only binds of the system and the running Python (sys.prefix and base prefix)."""
    args: list[str] = []
    for top in ("/usr", "/etc/alternatives"):
        if os.path.isdir(top):
            args += ["--ro-bind", top, top]
    # merged-/usr systems: /bin, /lib… are symlinks; otherwise bind the real directories
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for etc in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/ssl/certs"):
        if os.path.exists(etc):
            args += ["--ro-bind", etc, etc]
    prefixes = sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})
    for prefix in prefixes:
        if not prefix.startswith("/usr/") and prefix != "/usr":
            args += ["--ro-bind", prefix, prefix]
    # a venv's python is a symlink into the base installation: bind both ends
    exe = os.path.realpath(sys.executable)
    exe_dir = os.path.dirname(exe)
    if not any(exe_dir == p or exe_dir.startswith(p + "/") for p in [*prefixes, "/usr"]):
        args += ["--ro-bind", exe_dir, exe_dir]
    # site-packages outside the installation that a .pth file put on sys.path (a venv borrowing
    # another's packages): dbt is imported from there too; their ``replicas`` is masked
    for site in _path_site_dirs():
        if not any(site == p or site.startswith(p + "/") for p in [*prefixes, "/usr"]):
            args += ["--ro-bind", site, site]
    return args


def _path_site_dirs() -> list[str]:
    """Directories on ``sys.path`` that are package directories (``site-packages`` /
    ``dist-packages``), never a source tree such as the kit's own checkout."""
    dirs = {
        os.path.realpath(p)
        for p in sys.path
        if p and os.path.isabs(p) and os.path.basename(p) in ("site-packages", "dist-packages")
    }
    return sorted(d for d in dirs if os.path.isdir(d))


def _masked_kit() -> list[str]:
    """Hide the kit's installed package (its dbt projects are the pristine answers)."""
    args: list[str] = []
    for site in sorted({*_site_dirs(), *_path_site_dirs()}):
        kit = os.path.join(site, "replicas")
        if os.path.isdir(kit):
            args += ["--tmpfs", kit]
    return args


def _site_dirs() -> list[str]:
    import site  # stdlib; imported here because only the sandbox layout needs it

    dirs = list(site.getsitepackages())
    with contextlib.suppress(AttributeError):
        dirs.append(site.getusersitepackages())
    return [os.path.realpath(d) for d in dirs if os.path.isdir(d)]


def _bwrap() -> str | None:
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=1)
def probe() -> str | None:
    """``None`` when bubblewrap works here; otherwise why not (cached per process)."""
    bwrap = _bwrap()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    argv = [bwrap, *_base_args(64 * MiB), sys.executable, "-c", "print('ok')"]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    if proc.returncode != 0 or proc.stdout.strip() != "ok":
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        reason = detail[-1] if detail else f"exit {proc.returncode}"
        return f"bubblewrap cannot create a sandbox here ({reason}); user namespaces may be off"
    return None


def unsafe_opt_out() -> bool:
    return os.environ.get(UNSAFE_ENV, "") == "1"


def isolation_mode() -> str:
    """``"bubblewrap"``, ``"unsafe-none"`` (explicit opt-out), or :class:`OsSandboxUnavailable`."""
    reason = probe()
    if reason is None:
        return "bubblewrap"
    if unsafe_opt_out():
        return "unsafe-none"
    raise OsSandboxUnavailable(
        f"dbt tasks need an OS sandbox and none is available: {reason}. To run them anyway, "
        f"without isolation, pass --unsafe-no-os-sandbox (or set {UNSAFE_ENV}=1)."
    )


def require() -> str:
    """Alias of :func:`isolation_mode` for call sites that only need the check."""
    return isolation_mode()


# ---- running -----------------------------------------------------------------------------------


def _base_args(tmp_bytes: int) -> list[str]:
    args = [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        # the private /tmp first: a Python installation under /tmp (a venv in a checkout there)
        # is bound read-only on top of it, not hidden by it
        "--size",
        str(tmp_bytes),
        "--tmpfs",
        "/tmp",
        *_system_binds(),
        *_masked_kit(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--clearenv",
    ]
    if os.geteuid() == 0:
        args += ["--cap-drop", "ALL"]
    return args


def _limit_child(limits: ProcessLimits) -> None:
    """Runs in the child between fork and exec (async-signal-safe calls only)."""
    resource.setrlimit(resource.RLIMIT_AS, (limits.address_space_bytes,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_bytes,) * 2)
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # RLIMIT_NPROC counts every process of the real uid; for root it is not enforced at all and
    # for a normal user it would count their other processes too: set it only for non-root.
    if os.geteuid() != 0:
        used = limits.processes
        resource.setrlimit(resource.RLIMIT_NPROC, (used, used))


def read_bounded(path: Path) -> str:
    """Head and tail of a captured stream (the middle of a flood is dropped, never loaded)."""
    size = path.stat().st_size
    with open(path, "rb") as fh:
        if size <= 2 * OUTPUT_KEEP_BYTES:
            data = fh.read()
        else:
            head = fh.read(OUTPUT_KEEP_BYTES)
            fh.seek(size - OUTPUT_KEEP_BYTES)
            tail = fh.read()
            skipped = size - 2 * OUTPUT_KEEP_BYTES
            data = head + f"\n… [{skipped} bytes of output dropped]\n".encode() + tail
    return data.decode("utf-8", errors="replace")


def _command(
    argv: Sequence[str],
    binds: Sequence[Bind],
    workdir: str,
    env: Mapping[str, str],
    limits: ProcessLimits,
    mode: str | None,
) -> tuple[list[str], dict[str, str], str | None, str]:
    """The command line, environment and working directory that run ``argv`` in ``mode``."""
    mode = isolation_mode() if mode is None else mode
    if mode not in ("bubblewrap", "unsafe-none", "trusted-none"):
        raise ValueError(f"unknown isolation mode {mode!r}")
    if mode == "bubblewrap":
        bwrap = _bwrap()
        assert bwrap is not None  # probe() succeeded
        cmd = [bwrap, *_base_args(limits.tmp_bytes)]
        for bind in binds:
            flag = "--bind" if bind.writable else "--ro-bind"
            cmd += [flag, str(Path(bind.source).resolve()), bind.target]
        for key, value in env.items():
            cmd += ["--setenv", key, value]
        cmd += ["--chdir", workdir, "--", *argv]
        return cmd, {}, None, mode
    return list(argv), dict(env), workdir, mode


def _popen(
    cmd: list[str],
    child_env: dict[str, str],
    cwd: str | None,
    limits: ProcessLimits,
    *,
    stdin: Any,
    stdout: Any,
    stderr: Any,
) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in its own session (a kill takes its whole group) under ``limits``."""
    return subprocess.Popen(
        cmd,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        env=child_env,
        cwd=cwd,
        start_new_session=True,
        preexec_fn=functools.partial(_limit_child, limits),
    )


def spawn_sandboxed(
    argv: Sequence[str],
    *,
    binds: Sequence[Bind],
    workdir: str,
    env: Mapping[str, str],
    limits: ProcessLimits,
    stderr: Any,
    mode: str | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``argv`` like :func:`run_sandboxed` (same walls, same limits) but do not wait: the
    caller talks to it over pipes (stdin, stdout) and must kill its process group when done.
    Returns the process and the isolation mode it runs in."""
    cmd, child_env, cwd, mode = _command(argv, binds, workdir, env, limits, mode)
    proc = _popen(
        cmd, child_env, cwd, limits, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
    )
    return proc, mode


def allocated_bytes(roots: Sequence[Path]) -> int:
    """Bytes allocated to the files under ``roots`` (links not followed; vanished files skipped)."""
    total = 0
    for root in roots:
        for dirpath, _dirnames, filenames in os.walk(root, followlinks=False):
            for name in filenames:
                with contextlib.suppress(OSError):
                    total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
    return total


#: How often a run with a ``disk_limit_bytes`` measures its writable binds (seconds).
DISK_CHECK_EVERY_S = 0.5


def _wait_within_disk_limit(
    proc: subprocess.Popen[bytes], timeout_s: float, roots: Sequence[Path], limit: int
) -> str | None:
    """Wait for ``proc`` like ``proc.wait(timeout_s)`` (raising ``TimeoutExpired``), measuring
    ``roots`` meanwhile; the reason to stop it when they grew past ``limit`` bytes."""
    deadline = time.monotonic() + timeout_s
    start = allocated_bytes(roots)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise subprocess.TimeoutExpired(proc.args, timeout_s)
        try:
            proc.wait(timeout=min(left, DISK_CHECK_EVERY_S))
            return None
        except subprocess.TimeoutExpired:
            pass
        grown = allocated_bytes(roots) - start
        if grown > limit:
            # no byte count: what a model writes can be made to depend on data it must not leak
            return f"it wrote more than the {limit} bytes a run may write"


def run_sandboxed(
    argv: Sequence[str],
    *,
    binds: Sequence[Bind],
    workdir: str,
    env: Mapping[str, str],
    limits: ProcessLimits,
    timeout_s: float,
    mode: str | None = None,
    disk_limit_bytes: int | None = None,
) -> SandboxedResult:
    """Run ``argv`` in the OS sandbox, or unsandboxed in ``mode`` ``"unsafe-none"`` (the user's
    explicit opt-out) or ``"trusted-none"`` (the kit's own code, no sandbox available).

    ``mode=None`` asks :func:`isolation_mode`. Outside bubblewrap binds are not applied: build
    ``argv`` and ``workdir`` with :func:`path_inside`, which gives the right path in each mode.
    Resource limits and the timeout apply in every mode. ``disk_limit_bytes``: the run is
    stopped (``stopped`` says why) once its writable binds grew by more than that — RLIMIT_FSIZE
    bounds one file, not how many files a run writes (dbt writes each model's compiled SQL
    twice, and a model can render hundreds of megabytes of it).
    """
    cmd, child_env, cwd, mode = _command(argv, binds, workdir, env, limits, mode)
    out_dir = Path(tempfile.mkdtemp(prefix="replicas-osbox-"))
    started = time.monotonic()
    sources = {Path(b.source).resolve() for b in binds if b.writable}
    # a bind inside another (grading's project inside its warehouse directory) is counted once
    writable = sorted(p for p in sources if not any(q in p.parents for q in sources))
    stopped: str | None = None
    try:
        with open(out_dir / "out", "wb") as out, open(out_dir / "err", "wb") as err:
            proc = _popen(
                cmd, child_env, cwd, limits, stdin=subprocess.DEVNULL, stdout=out, stderr=err
            )
            timed_out = False
            try:
                if disk_limit_bytes is None or not writable:
                    proc.wait(timeout=timeout_s)
                else:
                    stopped = _wait_within_disk_limit(proc, timeout_s, writable, disk_limit_bytes)
            except subprocess.TimeoutExpired:
                timed_out = True
            if timed_out or stopped is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        returncode = proc.returncode
        killed_by = None
        if returncode is not None and returncode < 0:
            with contextlib.suppress(ValueError):
                killed_by = signal.Signals(-returncode).name
        return SandboxedResult(
            returncode=returncode if returncode is not None else -1,
            stdout=read_bounded(out_dir / "out"),
            stderr=read_bounded(out_dir / "err"),
            timed_out=timed_out,
            wall_s=time.monotonic() - started,
            mode=mode,
            killed_by=killed_by,
            stopped=stopped,
        )
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


def path_inside(bind: Bind, mode: str, *parts: str) -> str:
    """The path the child sees for ``bind.source / parts`` in ``mode``."""
    root = bind.target if mode == "bubblewrap" else str(Path(bind.source).resolve())
    return str(Path(root, *parts))
