"""``replicas factory``: mutate a replica's dbt project into validated fix tasks.

Writes ``DIR/suite.txt`` (the usable tasks' ids, one per line: ``replicas audit --suite
DIR/suite.txt`` screens them), ``DIR/funnel.json`` (counts ``candidates``, ``built``,
``changed_output``, ``unique``, ``usable`` overall, per operator and per seed, and the
validation rate) and ``DIR/funnel.md`` (the same as a markdown table). ``--combine 2|3`` also
validates combinations of 2..N survivors in different layers (``<replica>.mutant_fix_multi-v1``):
their ids follow the single ones in ``suite.txt`` and their funnel is ``combined`` in
``funnel.json``. ``--executor ray`` runs the seeds' validations as Ray tasks (a local
``ray.init()``, or the cluster at ``--ray-address``) with the same outputs but for timings. Every
file is written to a temporary name and renamed. Bad input exits 2 and writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from replicas.atomicio import write_json_atomic, write_text_atomic
from replicas.build import parse_seeds
from replicas.cli.common import INTERRUPTED, fail, out_console, sigterm_as_interrupt
from replicas.factory.run import render_markdown, run_factory
from replicas.replica import get_replica
from replicas.tasks import get_family

#: The family whose task k on seed s is survivor k of the seed's funnel.
FAMILY = "{replica}.mutant_fix-v1"
#: The family whose task k on seed s is the seed's k-th usable combination of survivors.
COMBINED_FAMILY = "{replica}.mutant_fix_multi-v1"
#: The family whose task k on seed s is the k-th survivor that the seed's deployment (its own
#: documented business rules) leaves a task: v1's fix is the kit's shipped file, memorisable.
DEPLOYED_FAMILY = "{replica}.mutant_fix-v2"
#: Its combined twin: the usable combinations that pass under the seed's deployment.
DEPLOYED_COMBINED_FAMILY = "{replica}.mutant_fix_multi-v2"


def _registered(name: str) -> bool:
    try:
        get_family(name)
    except ValueError:
        return False
    return True


def factory(
    replica: Annotated[str, typer.Argument(help="Replica whose dbt project is mutated.")],
    out: Annotated[Path, typer.Option("--out", help="Directory for suite.txt and the funnel.")],
    seeds: Annotated[str, typer.Option(help="Seeds, e.g. 1-20 or 1,3,5-7.")] = "1-3",
    operators: Annotated[
        str | None,
        typer.Option(help="Comma-separated mutation operators (default: all)."),
    ] = None,
    max_per_model: Annotated[
        int | None,
        typer.Option("--max-per-model", help="Validate at most N candidates of each model."),
    ] = None,
    max_candidates: Annotated[
        int | None,
        typer.Option(
            "--max-candidates", help="Validate only the first N candidates of each seed's order."
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (one seed each).")] = 1,
    combine: Annotated[
        int | None,
        typer.Option(
            "--combine",
            help="Also combine 2..N (2 or 3) survivors in different layers into harder tasks.",
        ),
    ] = None,
    executor: Annotated[
        str, typer.Option("--executor", help="Where seeds are validated: local or ray.")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help="Ray cluster to join (default: a local ray.init())."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print funnel.json to stdout instead of the table.")
    ] = False,
    family_version: Annotated[
        int | None,
        typer.Option(
            "--family-version",
            help="1: v1 tasks (the fix is the shipped file); 2: tasks under each seed's "
            "deployment (default when the replica has one).",
        ),
    ] = None,
) -> None:
    """Validate mutants of REPLICA's project on seeds; list the survivors as a suite."""
    try:
        get_replica(replica)
        family = FAMILY.format(replica=replica)
        try:
            get_family(family)
        except ValueError:
            raise ValueError(
                f"replica {replica!r} has no factory family ({family} is not registered)"
            ) from None
        deployed = DEPLOYED_FAMILY.format(replica=replica)
        version = family_version or (2 if _registered(deployed) else 1)
        if version not in (1, 2):
            raise ValueError(f"--family-version must be 1 or 2, got {version}")
        if version == 2 and not _registered(deployed):
            raise ValueError(
                f"replica {replica!r} has no deployed factory family ({deployed} is not "
                "registered: its project registers no deployment knobs); use --family-version 1"
            )
        combo_family = None
        if combine is not None:
            if combine not in (2, 3):
                raise ValueError(f"--combine must be 2 or 3, got {combine}")
            combo_family = (COMBINED_FAMILY if version == 1 else DEPLOYED_COMBINED_FAMILY).format(
                replica=replica
            )
            try:
                get_family(combo_family)
            except ValueError:
                raise ValueError(
                    f"replica {replica!r} has no combined factory family "
                    f"({combo_family} is not registered)"
                ) from None
        seed_list = parse_seeds(seeds)
        chosen = [o.strip() for o in operators.split(",") if o.strip()] if operators else None
        if operators is not None and not chosen:
            raise ValueError("--operators names no operator")
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {out} exists and is not a directory")
        with sigterm_as_interrupt():
            report = run_factory(
                replica,
                family,
                seed_list,
                operators=chosen,
                max_per_model=max_per_model,
                max_candidates=max_candidates,
                workers=workers,
                combine=combine or 0,
                combo_family=combo_family,
                executor=executor,
                ray_address=ray_address,
                deployed_family=deployed if version == 2 else None,
            )
    except KeyboardInterrupt:
        raise fail("interrupted; nothing was written", INTERRUPTED) from None
    except (ValueError, RuntimeError) as exc:
        raise fail(str(exc)) from None
    data = report.to_dict()
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "suite.txt", "".join(f"{t}\n" for t in report.suite_ids))
    write_json_atomic(out / "funnel.json", data)
    write_text_atomic(out / "funnel.md", render_markdown(report))
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    console = out_console()
    console.print(render_markdown(report), highlight=False, markup=False)
    console.print(f"wrote {out / 'suite.txt'}, {out / 'funnel.json'}, {out / 'funnel.md'}")


def register(app: typer.Typer) -> None:
    app.command("factory")(factory)
