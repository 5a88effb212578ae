"""``replicas list`` and ``replicas build``: the replicas the kit knows and cached snapshots."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from replicas.build import (
    ENGINES,
    EXECUTORS,
    BuildError,
    FarmReport,
    Snapshot,
    build_info,
    build_many,
    build_timings,
    ensure_snapshot,
    export_snapshot,
    is_cached,
    parse_seeds,
    rich_farm_progress,
    rich_steps,
)
from replicas.cli.common import (
    FAILED,
    INTERRUPTED,
    default_workers,
    fail,
    out_console,
    sigterm_as_interrupt,
)
from replicas.replica import all_replicas, get_replica


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
    out_console().print(table)


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
    out_console().print(table)
    dbt = manifest["dbt"]
    out_console().print(f"dbt: {dbt['status_counts']}  nodes: {dbt['node_counts']}")
    timings = build_timings(snapshot)
    if cache_hit:
        out_console().print("[green]cache hit[/green] (already built)")
    elif timings:
        out_console().print(
            "timings: " + ", ".join(f"{k.removesuffix('_s')} {v:.2f}s" for k, v in timings.items())
        )
        info = build_info(snapshot)
        why = f" ({info['fallback_reason']})" if info.get("fallback_reason") else ""
        out_console().print(f"engine: {info.get('engine')}{why}", highlight=False)
    out_console().print(f"snapshot: {snapshot.path}")


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
    engine: Annotated[
        str,
        typer.Option(help="replay: compiled SQL straight in DuckDB (dbt when unsupported); dbt."),
    ] = "replay",
    seeds: Annotated[
        str | None,
        typer.Option(help="Build many seeds (a resumable farm): e.g. 1-500 or 1,5,9-12."),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Farm workers (default 2, or 1 on one core).")
    ] = None,
    executor: Annotated[
        str | None, typer.Option(help="Farm executor: local (process pool) or ray.")
    ] = None,
    ray_address: Annotated[
        str | None, typer.Option(help="Join this Ray cluster (default: a local Ray).")
    ] = None,
) -> None:
    """Generate, load and dbt-build a replica into a cached snapshot (or many: --seeds)."""
    if engine not in ENGINES:
        raise fail(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if seeds is not None:
        _farm(
            replica, seeds, scale, seed, out, force, as_json, engine, workers, executor, ray_address
        )
        return
    if workers is not None or executor is not None or ray_address is not None:
        raise fail("--workers, --executor and --ray-address apply to --seeds farms")
    try:
        spec = get_replica(replica)
        if out is not None and out.exists() and not force:
            _check_out_dir(out, replica, seed, spec.default_scale if scale is None else scale)
        cache_hit = not force and is_cached(replica, seed, scale)
        step_hook, stop = None, None
        if not as_json and sys.stderr.isatty() and not cache_hit:
            step_hook, stop = rich_steps()
        try:
            with sigterm_as_interrupt():
                snapshot = ensure_snapshot(
                    replica, seed, scale, force=force, step=step_hook, engine=engine
                )
        finally:
            if stop is not None:
                stop()
        if out is not None:
            snapshot = export_snapshot(snapshot, out, force=force)
    except BuildError as exc:
        raise fail(str(exc), FAILED) from None
    except (ValueError, FileExistsError, FileNotFoundError) as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise fail("interrupted; no snapshot was written", INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps({"path": str(snapshot.path), **snapshot.manifest}, indent=2))
    else:
        _print_snapshot(snapshot, cache_hit)


def _farm(
    replica: str,
    seeds: str,
    scale: float | None,
    seed: int,
    out: Path | None,
    force: bool,
    as_json: bool,
    engine: str,
    workers: int | None,
    executor: str | None,
    ray_address: str | None,
) -> None:
    """``replicas build REPLICA --seeds 1-500``: build_many with a progress bar."""
    if out is not None:
        raise fail("--out applies to one seed; a farm's snapshots stay in the cache")
    if seed != 0:
        raise fail("pass either --seed or --seeds, not both")
    executor = executor or "local"
    if executor not in EXECUTORS:
        raise fail(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    workers = default_workers() if workers is None else workers
    stop = None
    try:
        seed_list = parse_seeds(seeds)
        progress = None
        if not as_json and sys.stderr.isatty():
            progress, stop = rich_farm_progress(len(seed_list), label=replica)
        try:
            with sigterm_as_interrupt():
                report = build_many(
                    replica,
                    seed_list,
                    scale,
                    workers=workers,
                    executor=executor,
                    ray_address=ray_address,
                    engine=engine,
                    force=force,
                    progress=progress,
                )
        finally:
            if stop is not None:
                stop()
    except ValueError as exc:
        raise fail(str(exc)) from None
    except RuntimeError as exc:  # Ray missing or unreachable, a worker process died
        raise fail(str(exc), FAILED) from None
    except KeyboardInterrupt:
        raise fail("interrupted; finished seeds are cached, rerun to resume", INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
    else:
        _print_farm(report)
    if not report.ok:
        raise typer.Exit(FAILED)


def _print_farm(report: FarmReport) -> None:
    doc = report.to_dict()
    out_console().print(
        f"{report.replica} scale={report.scale:g}: {len(report.outcomes)} seeds — "
        f"{report.built} built {doc['built_by_engine']}, {report.cached} cached, "
        f"{report.failed} failed in {report.wall_s:.1f}s ({report.seeds_per_min:.1f} seeds/min, "
        f"{report.workers} {report.executor} workers)",
        highlight=False,
    )
    for outcome in report.outcomes:
        if outcome.status == "failed":
            first = str(outcome.error).splitlines()[0][:300]
            out_console().print(f"[red]seed {outcome.seed} failed:[/red] {first}", highlight=False)


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


def register(app: typer.Typer) -> None:
    app.command("list")(list_cmd)
    app.command("build")(build)
