"""The CLI as a new user meets it: wrong arguments get one clear line and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "replicas.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {}), "COLUMNS": "200"},
        timeout=600,
    )


def test_list_names_both_replicas() -> None:
    proc = run_cli("list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "ecommerce" in proc.stdout and "credit_cards" in proc.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("build", "ecomerce"), "known replicas: credit_cards, ecommerce"),
        (("build", "ecommerce", "--seed", "-3"), "non-negative integer"),
        (("build", "ecommerce", "--scale", "0"), "positive"),
        (("build", "ecommerce", "--scale", "-1"), "positive"),
        (("build", "ecommerce", "--scale", "1e9"), "too large"),
        (("build", "ecommerce", "--seed", "abc"), "Invalid value for '--seed'"),
    ],
)
def test_bad_build_arguments_exit_2(args: tuple[str, ...], fragment: str) -> None:
    proc = run_cli(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert fragment in " ".join(proc.stderr.split()), proc.stderr
    assert "Traceback" not in proc.stderr


def test_out_dir_with_foreign_content_is_refused_untouched(tmp_path: Path) -> None:
    out = tmp_path / "x"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    proc = run_cli("build", "ecommerce", "--seed", "7", "--out", str(out))
    assert proc.returncode == 2
    assert "--force" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # Rich markup in an error message: an unmatched closing tag used to crash the printer
        # (MarkupError traceback, exit 1), and a character class used to vanish as a "style".
        ("[/x]", "got '[/x]'"),
        ("[bold]x", "got '[bold]x'"),
    ],
)
def test_error_messages_print_user_input_verbatim(tmp_path: Path, name: str, shown: str) -> None:
    proc = run_cli("import", "dbt", str(tmp_path), "--name", name)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert shown in proc.stderr and "[a-z][a-z0-9_]*" in proc.stderr, proc.stderr
