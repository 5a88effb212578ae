"""What every ``replicas`` command shares: consoles, exit codes and the one error printer.

Bad input is one red line on stderr and exit code 2 (``USAGE_ERROR``); a failed job (build,
export, executor) exits 1 (``FAILED``); Ctrl-C exits 130 (``INTERRUPTED``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from replicas.osbox import UNSAFE_ENV

__all__ = [
    "FAILED",
    "INTERRUPTED",
    "USAGE_ERROR",
    "UnsafeNoOsSandbox",
    "allow_unsandboxed",
    "default_workers",
    "err_console",
    "fail",
    "out_console",
    "sigterm_as_interrupt",
    "warn",
]

USAGE_ERROR = 2
FAILED = 1
INTERRUPTED = 130

err_console = Console(stderr=True)


def out_console() -> Console:
    """A stdout console sized at print time: piped output (CI logs, ``| less``) gets 120
    columns instead of Rich's 80, a terminal its own width."""
    return Console(width=None if sys.stdout.isatty() or "COLUMNS" in os.environ else 120)


def fail(message: str, code: int = USAGE_ERROR) -> typer.Exit:
    """Print ``error: message`` on stderr; ``raise fail(...) from None`` exits with ``code``.

    The message is escaped: it quotes user input (names, paths, patterns), and Rich would read
    ``[a-z]`` as a style and crash on an unmatched ``[/x]``."""
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def warn(message: str) -> None:
    err_console.print(
        f"[yellow]warning:[/yellow] {escape(message)}", highlight=False, soft_wrap=True
    )


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM behaves like Ctrl-C: ``KeyboardInterrupt`` unwinds the job, so
    its worker pools are stopped and its staged output removed (a default SIGTERM would kill
    the parent at once and leave busy workers running). No-op off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def default_workers() -> int:
    """Two workers, or one on a single-core machine."""
    return max(1, min(2, os.cpu_count() or 1))


UnsafeNoOsSandbox = Annotated[
    bool,
    typer.Option(
        "--unsafe-no-os-sandbox",
        help=(
            "Run dbt tasks even where no OS sandbox (bubblewrap) is available. The agent's dbt "
            "project then runs with your user's rights; recorded in run.json and every "
            "trajectory. Only for agents you trust."
        ),
    ),
]


def allow_unsandboxed(flag: bool) -> None:
    """Apply ``--unsafe-no-os-sandbox`` (through the environment, so worker processes see it)."""
    if flag:
        os.environ[UNSAFE_ENV] = "1"
        warn("--unsafe-no-os-sandbox: dbt tasks run WITHOUT an OS sandbox where none is available")
