"""``replicas import dbt PATH --name NAME``: register a replica from your own dbt project.

Copies the project into ``$REPLICAS_HOME/imports/NAME/`` (atomically), derives the synthesis
schema from its sources, seeds, column types and data tests, and builds seed 0 once to check that
every project test passes on synthesised data. Then ``replicas build NAME --seed N`` works like
for any replica, and the families ``NAME.mutant_fix-v1`` (``replicas factory NAME``) and
``NAME.mart_metric-v1`` exist. Bad input (missing path, not a dbt project, a shipped replica's
name, a non-duckdb profile, packages that are not vendored, a test that fails) exits 2.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Annotated

import typer

from replicas.cli.common import INTERRUPTED, fail, out_console

import_app = typer.Typer(
    help="Import an existing project as a replica.", no_args_is_help=True, add_completion=False
)


def _date(text: str, option: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise fail(f"{option} must be a date YYYY-MM-DD, got {text!r}") from None


@import_app.command("dbt")
def import_dbt(
    path: Annotated[Path, typer.Argument(help="Root of the dbt project (has dbt_project.yml).")],
    name: Annotated[str, typer.Option("--name", help="Replica name ([a-z][a-z0-9_]*).")],
    start: Annotated[str, typer.Option(help="First day of synthesised dates.")] = "2024-01-01",
    end: Annotated[str, typer.Option(help="Last day of synthesised dates.")] = "2025-12-31",
    check: Annotated[
        bool, typer.Option("--check/--no-check", help="Build seed 0 and run every test.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the import as JSON.")] = False,
) -> None:
    """Register a replica from the dbt-duckdb project at PATH."""
    from replicas.importer import ImportRefused, import_dbt_project

    first, last = _date(start, "--start"), _date(end, "--end")
    try:
        result = import_dbt_project(path, name, start=first, end=last, check=check)
    except KeyboardInterrupt:
        raise fail("interrupted; nothing was imported", INTERRUPTED) from None
    except ImportRefused as exc:
        raise fail(str(exc)) from None
    data = result.to_dict()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = out_console()
    console.print(
        f"imported {data['project']} as replica {name}: {data['models']} models, "
        f"{data['tests']} tests, {len(data['raw_tables'])} raw tables → {data['path']}",
        highlight=False,
        markup=False,
    )
    if result.checked is not None:
        counts = result.checked["dbt"].get("status_counts", {})
        console.print(f"seed 0 builds with every test passing ({counts})", markup=False)
    if result.knobs:
        console.print(
            f"{len(result.knobs)} deployment knob(s) ({', '.join(result.knobs)}): the factory "
            f"makes {name}.mutant_fix-v2 tasks, each on its seed's business rules",
            markup=False,
        )
    console.print(
        f"next: replicas build {name} --seed 1; replicas factory {name} --seeds 1-10 --out DIR",
        markup=False,
    )


def register(app: typer.Typer) -> None:
    app.add_typer(import_app, name="import")
