"""The ``replicas`` command line: one module per command group, mounted here.

Each sub-command is a thin shell over a library call; bad input (``ValueError``,
``FileExistsError``, ``FileNotFoundError``) becomes one line on stderr and exit code 2, a failed
job exit code 1, Ctrl-C exit code 130 (``replicas.cli.common``).

Every command module exposes ``register(app)``. The console script mounts only the module of
the command it was asked for — importing the runner, the audit and the exporters costs seconds
that ``replicas suite list`` should not pay — and all of them for ``--help`` or a command it
does not know (so typer lists every command). ``replicas.cli.app`` is the full application.
"""

from __future__ import annotations

import importlib
import sys
from functools import cache
from typing import Any

import typer

__all__ = ["COMMANDS", "app", "build_app", "main"]

#: command → the module of ``replicas.cli`` that registers it.
COMMANDS: dict[str, str] = {
    "list": "build",
    "build": "build",
    "suite": "suite",
    "run": "run",
    "report": "report",
    "compare": "report",
    "audit": "audit",
    "export": "export",
    "verify": "verify",
    "demo": "demo",
    "serve": "serve",
    "factory": "factory",
    "import": "imports",
}
HELP = "replica-kit: RL environments that replicate enterprise systems."
_ORDER = (
    "build",
    "suite",
    "run",
    "report",
    "audit",
    "export",
    "verify",
    "demo",
    "serve",
    "factory",
    "imports",
)


def build_app(modules: tuple[str, ...] = _ORDER) -> typer.Typer:
    """A ``replicas`` application with the commands of ``modules`` mounted."""
    application = typer.Typer(
        help=HELP, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False
    )
    # A root callback keeps the application a command *group* even with one command mounted
    # (typer would otherwise run that command without its name).
    application.callback()(_root)
    for name in modules:
        # imported on demand: each command module pulls in its own heavy dependencies
        importlib.import_module(f"replicas.cli.{name}").register(application)
    return application


def _root() -> None:
    """replica-kit: RL environments that replicate enterprise systems."""


@cache
def _full_app() -> typer.Typer:
    return build_app()


def __getattr__(name: str) -> Any:
    if name == "app":
        return _full_app()
    raise AttributeError(f"module 'replicas.cli' has no attribute {name!r}")


def _module_for(argv: list[str]) -> str | None:
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    return COMMANDS.get(command) if command is not None else None


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    module = _module_for(args)
    application = build_app((module,)) if module is not None else _full_app()
    application(args=args, standalone_mode=True)
