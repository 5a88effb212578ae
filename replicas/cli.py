"""The ``replicas`` command line.

Each sub-command is a thin shell over a library call; bad input (``ValueError``,
``FileExistsError``, ``FileNotFoundError``) becomes one line on stderr and exit code 2, a failed
build exit code 1. Sub-applications from other modules are mounted from a registry so this file
does not grow an if-chain per feature.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from replicas.build import BuildError, Snapshot, build_timings, ensure_snapshot, export_snapshot
from replicas.replica import all_replicas, get_replica

app = typer.Typer(
    help="replica-kit: RL environments that replicate enterprise systems.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

USAGE_ERROR = 2
BUILD_FAILED = 1

# (module, attribute, sub-command name): command groups mounted when the module is importable.
SUBAPPS: tuple[tuple[str, str, str], ...] = (
    ("replicas.cli_verify", "verify_app", "verify"),
    ("replicas.cli_suite", "suite_app", "suite"),
    ("replicas.cli_export", "export_app", "export"),
    ("replicas.cli_run", "run_app", "run"),
)
# Modules exposing ``register(app)`` that add top-level commands (report, compare, audit).
COMMAND_MODULES: tuple[str, ...] = (
    "replicas.cli_report",
    "replicas.cli_audit",
)


class UsageError(Exception):
    """Bad input from the user: printed without a traceback, exit code 2."""


def _fail(message: str, code: int = USAGE_ERROR) -> typer.Exit:
    err_console.print(f"[red]error:[/red] {message}", highlight=False)
    return typer.Exit(code)


@app.command("list")
def list_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the replicas the kit can build."""
    specs = all_replicas()
    if as_json:
        rows = [
            {"name": s.name, "description": s.description, "default_scale": s.default_scale}
            for s in specs
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table("replica", "default scale", "description")
    for s in specs:
        table.add_row(s.name, f"{s.default_scale:g}", s.description)
    console.print(table)


def _print_snapshot(snapshot: Snapshot, cache_hit: bool) -> None:
    manifest = snapshot.manifest
    table = Table(title=f"{snapshot.replica} seed={snapshot.seed} scale={snapshot.scale:g}")
    table.add_column("layer")
    table.add_column("table")
    table.add_column("rows", justify="right")
    table.add_column("sha256", overflow="fold")
    for layer in ("raw", "marts"):
        for name, fp in manifest["tables"][layer].items():
            table.add_row(layer, name, f"{fp['rows']:,}", fp["sha256"][:16])
    console.print(table)
    dbt = manifest["dbt"]
    console.print(f"dbt: {dbt['status_counts']}  nodes: {dbt['node_counts']}")
    timings = build_timings(snapshot)
    if cache_hit:
        console.print("[green]cache hit[/green] (already built)")
    elif timings:
        console.print(
            "timings: " + ", ".join(f"{k.removesuffix('_s')} {v:.2f}s" for k, v in timings.items())
        )
    console.print(f"snapshot: {snapshot.path}")


@app.command()
def build(
    replica: Annotated[str, typer.Argument(help="Replica name (see `replicas list`).")],
    seed: Annotated[int, typer.Option(help="Non-negative integer seed.")] = 0,
    scale: Annotated[
        float | None, typer.Option(help="Data scale; 1.0 ≈ 1M order items. Default per replica.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Also copy the snapshot to this directory.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Rebuild even if cached; replace --out.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON.")] = False,
) -> None:
    """Generate, load and dbt-build a replica into a cached snapshot."""
    from replicas.build import is_cached

    try:
        spec = get_replica(replica)
        if out is not None and out.exists() and not force:
            _check_out_dir(out, replica, seed, spec.default_scale if scale is None else scale)
        cache_hit = not force and is_cached(replica, seed, scale)
        step_hook, stop = None, None
        if not as_json and sys.stderr.isatty() and not cache_hit:
            from replicas.build import rich_steps

            step_hook, stop = rich_steps()
        try:
            snapshot = ensure_snapshot(replica, seed, scale, force=force, step=step_hook)
        finally:
            if stop is not None:
                stop()
        if out is not None:
            snapshot = export_snapshot(snapshot, out, force=force)
    except BuildError as exc:
        raise _fail(str(exc), BUILD_FAILED) from None
    except (ValueError, FileExistsError, FileNotFoundError) as exc:
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        raise _fail("interrupted; no snapshot was written", 130) from None
    if as_json:
        typer.echo(json.dumps({"path": str(snapshot.path), **snapshot.manifest}, indent=2))
    else:
        _print_snapshot(snapshot, cache_hit)


def _check_out_dir(out: Path, replica: str, seed: int, scale: float) -> None:
    """Refuse early (before any work) when --out holds something else."""
    try:
        existing = Snapshot.load(out)
    except ValueError:
        raise FileExistsError(
            f"--out {out} exists and is not a replica snapshot; pass --force to replace it"
        ) from None
    if (existing.replica, existing.seed, existing.scale) != (replica, seed, float(scale)):
        raise FileExistsError(
            f"--out {out} holds a snapshot of {existing.replica} seed={existing.seed} "
            f"scale={existing.scale:g}; pass --force to replace it"
        )


def _import_optional(module_name: str) -> Any:
    """The module, or None when it does not exist (a missing dependency inside it still raises)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return None


def _mount_subapps() -> None:
    for module_name, attr, name in SUBAPPS:
        module = _import_optional(module_name)
        if module is not None:
            app.add_typer(getattr(module, attr), name=name)
    for module_name in COMMAND_MODULES:
        module = _import_optional(module_name)
        if module is not None and hasattr(module, "register"):
            module.register(app)


_mount_subapps()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: maps library input errors to exit code 2."""
    try:
        app(args=argv, standalone_mode=True)
    except UsageError as exc:
        err_console.print(f"[red]error:[/red] {exc}", highlight=False)
        sys.exit(USAGE_ERROR)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
