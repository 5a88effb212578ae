"""The ``replicas`` command line: one module per command group, mounted here.

Each sub-command is a thin shell over a library call; bad input (``ValueError``,
``FileExistsError``, ``FileNotFoundError``) becomes one line on stderr and exit code 2, a failed
job exit code 1, Ctrl-C exit code 130 (``replicas.cli.common``).
"""

from __future__ import annotations

import sys

import typer

from replicas.cli import audit, build, demo, export, report, run, suite, verify
from replicas.cli.common import USAGE_ERROR, err_console

__all__ = ["app", "main"]

app = typer.Typer(
    help="replica-kit: RL environments that replicate enterprise systems.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
build.register(app)
app.add_typer(suite.suite_app, name="suite")
app.add_typer(run.run_app, name="run")
report.register(app)
audit.register(app)
app.add_typer(export.export_app, name="export")
app.add_typer(verify.verify_app, name="verify")
demo.register(app)


class UsageError(Exception):
    """Bad input from the user: printed without a traceback, exit code 2."""


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: maps library input errors to exit code 2."""
    try:
        app(args=argv, standalone_mode=True)
    except UsageError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False)
        sys.exit(USAGE_ERROR)
