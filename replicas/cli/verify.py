"""``replicas verify ...``: run a verifier on a response from the command line.

Mounted by ``replicas.cli`` as the ``verify`` sub-command. Exit codes: 0 the response is
compliant, 1 it has violations, 2 bad input (missing snapshot, unknown customer, unreadable file).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from replicas.cli.common import fail, out_console
from replicas.verifiers.verdict import Verdict

verify_app = typer.Typer(
    help="Check a response against a replica snapshot's hidden ground truth.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@verify_app.callback()
def _verify_group() -> None:
    """Verifiers you can run on a response file (one sub-command per verifier)."""


PASSED = 0
VIOLATIONS = 1
MAX_RESPONSE_BYTES = 8 * 1024 * 1024


def _read_response(source: str) -> str:
    """The response text from a file path or ``-`` (stdin), as UTF-8."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_RESPONSE_BYTES + 1)
        else:
            path = Path(source)
            if not path.is_file():
                raise FileNotFoundError(f"response file {source} does not exist")
            with path.open("rb") as handle:
                data = handle.read(MAX_RESPONSE_BYTES + 1)
    except OSError as exc:
        raise FileNotFoundError(f"cannot read response {source}: {exc}") from None
    if len(data) > MAX_RESPONSE_BYTES:
        raise ValueError(f"response {source} is larger than {MAX_RESPONSE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"response {source} is not UTF-8 text: {exc}") from None


def _print_verdict(verdict: Verdict) -> None:
    console = out_console()
    status = "[green]COMPLIANT[/green]" if verdict.passed else "[red]NOT COMPLIANT[/red]"
    console.print(f"{status}  score={verdict.score:g}")
    if verdict.reasons:
        table = Table("code", "span", "expected", "found", title="violations")
        for reason in verdict.reasons:
            span = reason.span.text if reason.span is not None else ""
            expected = (
                ", ".join(map(str, reason.expected))
                if isinstance(reason.expected, list)
                else str(reason.expected if reason.expected is not None else "")
            )
            table.add_row(reason.code, span, expected, str(reason.found or ""))
        console.print(table)
    scores = "  ".join(f"{k}={v:g}" for k, v in verdict.objective_scores.items())
    console.print(f"objectives: {scores}")
    console.print(verdict.feedback, highlight=False)


@verify_app.command("compliance")
def verify_compliance_command(
    source: Annotated[
        str, typer.Argument(metavar="[FILE|-]", help="Response text file, or - for stdin.")
    ] = "-",
    snapshot: Annotated[
        Path | None,
        typer.Option("--snapshot", help="A built credit_cards snapshot directory."),
    ] = None,
    customer: Annotated[
        str | None,
        typer.Option("--customer", help="Customer id; enables the eligibility rule."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    ruleset: Annotated[
        int | None,
        typer.Option(
            "--ruleset",
            help="Compliance ruleset version (default: the library's DEFAULT_RULESET; "
            "--json reports which one ran).",
        ),
    ] = None,
) -> None:
    """Check a response for compliance violations against the snapshot's card catalog."""
    # imported here: the compliance lexicon is built at import, which other commands need not pay
    from replicas.verifiers.compliance import Catalog, get_ruleset, verify_response

    if snapshot is None:
        raise fail("--snapshot DIR is required (build one with `replicas build credit_cards`)")
    try:
        rules = get_ruleset(ruleset)
        catalog = Catalog.from_snapshot(snapshot)
        text = _read_response(source)
        verdict = verify_response(text, catalog, customer_id=customer, ruleset=rules)
    except (ValueError, FileNotFoundError) as exc:
        raise fail(str(exc)) from None
    if as_json:
        payload = {**verdict.to_dict(), "ruleset": rules.version}
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        out_console().print(f"compliance ruleset {rules.version}", highlight=False)
        _print_verdict(verdict)
    raise typer.Exit(PASSED if verdict.passed else VIOLATIONS)


def register(app: typer.Typer) -> None:
    app.add_typer(verify_app, name="verify")
