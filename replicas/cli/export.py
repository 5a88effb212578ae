"""``replicas export sft``: write a fine-tuning dataset from run directories and/or oracle demos;
``replicas export harbor``: write Harbor task directories (``replicas.integrations.harbor``).

Mounted by ``replicas.cli`` through its ``SUBAPPS`` registry entry
``("replicas.cli_export", "export_app", "export")``.

    replicas export sft --run runs/core-v1-gpt --min-score 1.0 --format trl --out sft/
    replicas export sft --oracle --suite core-v1 --seeds 5 --split-by seed \\
        --exclude-suite core-v1 --format sharegpt --out sft-oracle/
    replicas export sft --oracle --suite core-v1 --format trl,openai,sharegpt --workers 2 \\
        --out sft-all/            # sft-all/trl/, sft-all/openai/, sft-all/sharegpt/

Demonstrations and re-grades are played once for every format, in ``--workers`` processes;
solved plays are kept in ``--cache-dir`` (default ``$REPLICAS_HOME/export/episodes``) and reused
by later exports (``--no-cache``: play everything). Neither changes a byte of the output.

Exit codes: 0 written; 1 nothing survived the filters (the message says what was dropped and
why; nothing is written); 2 bad input (unknown format/suite/family, a --run path that is not a
run directory, an existing --out without --force, out-of-range options); 130 interrupted
(nothing is written: the dataset is staged in a temp directory and renamed at the end).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from replicas.cli.common import (
    FAILED,
    INTERRUPTED,
    UnsafeNoOsSandbox,
    allow_unsandboxed,
    err_console,
    fail,
    out_console,
    sigterm_as_interrupt,
)
from replicas.export import ExportConfig, ExportError, OracleSpec, export_sft, fresh_seeds
from replicas.suite import get_suite
from replicas.tasks import family_names, get_family
from replicas.tasks.base import TaskId

DEFAULT_SEED_START = 100
#: Episodes mostly wait on dbt and DuckDB; two processes keep a 2-core machine busy.
DEFAULT_WORKERS = max(1, min(2, os.cpu_count() or 1))

export_app = typer.Typer(
    help="Export supervised fine-tuning datasets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _suite_seeds(name: str | None) -> set[int]:
    if not name:
        return set()

    return {TaskId.parse(t).seed for t in get_suite(name).task_ids}


def _oracle_families(suite: str, families: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """Explicit --family names (all must exist), or the suite's registered families."""

    if families:
        for name in families:
            get_family(name)  # ValueError naming close matches
        return tuple(dict.fromkeys(families)), []

    registered = set(family_names())
    listed = get_suite(suite).families()
    missing = [f for f in listed if f not in registered]
    return tuple(f for f in listed if f in registered), missing


def _print_summary(result: Any) -> None:
    if len(result.parts) > 1:
        for part in result.parts.values():
            _print_summary(part)
        return
    manifest = result.manifest
    splits = list(manifest["counts"]["written"])
    table = Table("family", *splits, title=f"SFT export ({manifest['format']}) → {result.out}")
    for family, per_split in manifest["by_family"].items():
        table.add_row(family, *(str(per_split.get(s, 0)) for s in splits))
    table.add_row("[bold]all", *(str(manifest["counts"]["written"][s]) for s in splits))
    out_console().print(table)
    counts = manifest["counts"]
    out_console().print(
        f"collected {counts['collected']}; exact duplicates {counts['exact_duplicates']}, "
        f"near duplicates {counts['near_duplicates']}",
        highlight=False,
    )
    if result.skips.counts:
        out_console().print(
            f"[yellow]left out:[/yellow] {escape(result.skips.summary())}", highlight=False
        )
    for note in result.notes:
        out_console().print(f"[yellow]note:[/yellow] {escape(note)}", highlight=False)


@export_app.command("sft")
def sft(
    out: Annotated[Path, typer.Option("--out", help="Output directory (must not exist).")],
    run: Annotated[
        list[Path] | None,
        typer.Option("--run", help="Run directory to take verified episodes from (repeatable)."),
    ] = None,
    oracle: Annotated[
        bool, typer.Option("--oracle", help="Add oracle demonstrations on fresh seeds.")
    ] = False,
    suite: Annotated[
        str, typer.Option("--suite", help="Suite whose families --oracle demonstrates.")
    ] = "core-v1",
    family: Annotated[
        list[str] | None,
        typer.Option("--family", help="Demonstrate these families instead of --suite's."),
    ] = None,
    seeds: Annotated[int, typer.Option("--seeds", help="Fresh seeds per family (--oracle).")] = 3,
    seed_start: Annotated[
        int, typer.Option("--seed-start", help="First fresh seed (suite seeds are skipped).")
    ] = DEFAULT_SEED_START,
    variants: Annotated[
        int | None, typer.Option("--variants", help="Variants per seed (default: all).")
    ] = None,
    scale: Annotated[float, typer.Option("--scale", help="Data scale of the demos.")] = 0.01,
    min_score: Annotated[
        float, typer.Option("--min-score", help="Keep run episodes scoring at least this.")
    ] = 1.0,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help=(
                "openai | trl | sharegpt, or several separated by commas (each written to "
                "--out/<format>/ from one set of demonstrations)."
            ),
        ),
    ] = "openai",
    split_by: Annotated[
        str, typer.Option("--split-by", help="Group key of the split: family | seed | task.")
    ] = "seed",
    eval_fraction: Annotated[
        float, typer.Option("--eval-fraction", help="Share of groups held out as test.")
    ] = 0.1,
    exclude_suite: Annotated[
        str | None,
        typer.Option("--exclude-suite", help="Drop anything overlapping this suite's tasks."),
    ] = None,
    near_dup_threshold: Annotated[
        float, typer.Option("--near-dup-threshold", help="Jaccard similarity of near duplicates.")
    ] = 0.9,
    ngram: Annotated[
        int, typer.Option("--ngram", help="Word n-gram length of the decontamination check.")
    ] = 13,
    prose_turn: Annotated[
        bool | None,
        typer.Option(
            "--prose-turn/--no-prose-turn",
            help=(
                "Emit the final answer's prose as its own assistant turn before the submit call "
                "(default: on for trl, off for openai; sharegpt never carries it)."
            ),
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option("--workers", help="Processes playing demonstrations and re-grades."),
    ] = DEFAULT_WORKERS,
    cache: Annotated[
        bool,
        typer.Option(
            "--cache/--no-cache",
            help="Reuse solved episodes of earlier exports ($REPLICAS_HOME/export/episodes).",
        ),
    ] = True,
    cache_dir: Annotated[
        Path | None,
        typer.Option("--cache-dir", help="Where reused episodes live (default: see --cache)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON.")] = False,
    unsafe_no_os_sandbox: UnsafeNoOsSandbox = False,
) -> None:
    """Build an SFT dataset (JSONL + Parquet + dataset card + manifest) in --out."""
    allow_unsandboxed(unsafe_no_os_sandbox)

    try:
        spec = None
        missing: list[str] = []
        if oracle:
            families, missing = _oracle_families(suite, list(family or []))
            if not families:
                raise ValueError(f"suite {suite} has no registered family to demonstrate")
            avoid = _suite_seeds(None if family else suite) | _suite_seeds(exclude_suite)
            spec = OracleSpec(
                families=families,
                seeds=fresh_seeds(seeds, seed_start, avoid),
                variants_per_seed=variants,
                scale=scale,
            )
        elif family:
            raise ValueError("--family needs --oracle")
        config = ExportConfig(
            out=out,
            format=fmt,
            run_dirs=tuple(run or ()),
            oracle=spec,
            min_score=min_score,
            split_by=split_by,
            eval_fraction=eval_fraction,
            exclude_suite=exclude_suite,
            near_dup_threshold=near_dup_threshold,
            ngram=ngram,
            force=force,
            prose_turn=prose_turn,
            workers=workers,
            cache_episodes=cache,
            episode_cache_dir=cache_dir,
        )
        if exclude_suite:
            _suite_seeds(exclude_suite)  # unknown suite -> usage error before any work
        for name in missing:
            err_console.print(
                f"[yellow]warning:[/yellow] {name} is in suite {suite} but not registered; "
                "no demonstrations for it",
                highlight=False,
            )
        with sigterm_as_interrupt():
            if sys.stderr.isatty():
                with err_console.status("exporting…", spinner="dots") as status:
                    result = export_sft(config, lambda s, d: status.update(f"{s}: {d}"))
            else:
                result = export_sft(config)
    except ExportError as exc:
        raise fail(str(exc), FAILED) from None
    except (ValueError, FileExistsError, FileNotFoundError) as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise fail("interrupted; nothing was written", INTERRUPTED) from None
    if as_json:
        typer.echo(json.dumps(result.manifest, indent=2, sort_keys=True))
    else:
        _print_summary(result)


@export_app.command("harbor")
def harbor(
    out: Annotated[Path, typer.Option("--out", help="Output directory (must not exist).")],
    suite: Annotated[str, typer.Option("--suite", help="Suite whose tasks to export.")] = "core-v1",
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Export only these tasks (repeatable).")
    ] = None,
    kit_requirement: Annotated[
        str | None,
        typer.Option(
            "--kit-requirement",
            help="What the verifier image pip-installs (default: replica-kit==<this version>).",
        ),
    ] = None,
    image: Annotated[str, typer.Option("--image", help="Base image of the environment.")] = (
        "python:3.11-slim"
    ),
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out.")] = False,
    unsafe_no_os_sandbox: UnsafeNoOsSandbox = False,
) -> None:
    """Write one Harbor task directory per task (task.toml, instruction, environment, tests
    that call the kit's verifier, oracle solution)."""
    # imported here: the Harbor exporter opens episodes, which `export sft --help` need not pay
    from replicas.integrations.harbor import export_harbor

    allow_unsandboxed(unsafe_no_os_sandbox)
    try:
        ids = list(task or [])
        for task_id in ids:
            TaskId.parse(task_id)
        get_suite(suite)
        result = export_harbor(
            out,
            suite=suite,
            task_ids=ids,
            kit_requirement=kit_requirement,
            image=image,
            force=force,
            progress=(lambda t: err_console.print(f"  {t}", highlight=False, markup=False)),
        )
    except (ValueError, FileExistsError, FileNotFoundError) as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise fail("interrupted; nothing was written", INTERRUPTED) from None
    out_console().print(
        f"wrote {len(result.task_dirs)} Harbor task directories to {result.out}", highlight=False
    )


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
