"""Run dbt as a subprocess against one DuckDB file.

Why a subprocess: an in-process dbt run keeps the DuckDB file locked and imports ~1 s of modules
into the caller; a child process isolates both, can be killed on timeout, and sees a scrubbed
environment (so a model's ``env_var()`` reveals nothing of the host).

The profile is generated per call into a private temporary directory, outside the project, so the
project directory an agent edits can never redirect dbt to another database. External file access
is disabled at connection time (``config_options``), which makes ``read_csv('/etc/passwd')`` or
``ATTACH`` inside a model fail just as they do in the ``sql`` tool.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROFILE_NAME = "replica"

# Only what dbt needs to run; everything else of the host environment stays out of the child.
_PASSTHROUGH_ENV = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT", "TMPDIR")


@dataclass(frozen=True)
class DbtResult:
    """Outcome of one dbt invocation; ``summary`` lists failures first, then the counts."""

    ok: bool
    returncode: int
    summary: str
    log: str
    results: list[dict[str, Any]] = field(default_factory=list)
    timed_out: bool = False

    @property
    def failed_nodes(self) -> list[dict[str, Any]]:
        return [r for r in self.results if r.get("status") in {"error", "fail", "runtime error"}]


def profiles_yaml(warehouse: Path, *, threads: int = 2) -> str:
    """The profiles.yml text pointing dbt at ``warehouse`` with external access disabled."""
    path = json.dumps(str(Path(warehouse).resolve()))
    return (
        f"{PROFILE_NAME}:\n"
        "  target: dev\n"
        "  outputs:\n"
        "    dev:\n"
        "      type: duckdb\n"
        f"      path: {path}\n"
        f"      threads: {threads}\n"
        "      config_options:\n"
        "        enable_external_access: false\n"
        "        lock_configuration: true\n"
        "        autoinstall_known_extensions: false\n"
        "        autoload_known_extensions: false\n"
    )


def dbt_env(home: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in _PASSTHROUGH_ENV if k in os.environ}
    env.update(
        HOME=str(home),
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
        DO_NOT_TRACK="1",
        DBT_USE_COLORS="false",
        DBT_PRINTER_WIDTH="100",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def run_dbt(
    project_dir: Path,
    warehouse: Path,
    args: list[str],
    *,
    timeout_s: float = 300.0,
    threads: int = 2,
) -> DbtResult:
    """Run ``dbt <args>`` for ``project_dir`` against ``warehouse``; never raises on dbt failure."""
    project_dir = Path(project_dir).resolve()
    scratch = Path(tempfile.mkdtemp(prefix="replicas-dbt-"))
    try:
        (scratch / "profiles.yml").write_text(profiles_yaml(warehouse, threads=threads))
        run_results = project_dir / "target" / "run_results.json"
        run_results.unlink(missing_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "dbt.cli.main",
            *args,
            "--project-dir",
            str(project_dir),
            "--profiles-dir",
            str(scratch),
        ]
        try:
            proc = subprocess.run(
                cmd,
                cwd=project_dir,
                env=dbt_env(scratch),
                capture_output=True,
                text=True,
                timeout=timeout_s,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout if isinstance(exc.stdout, str) else (exc.stdout or b"").decode()
            return DbtResult(
                ok=False,
                returncode=-1,
                summary=f"dbt timed out after {timeout_s:.0f} s",
                log=out,
                timed_out=True,
            )
        log = proc.stdout + proc.stderr
        results = _read_results(run_results)
        return DbtResult(
            ok=proc.returncode == 0,
            returncode=proc.returncode,
            summary=summarise(results, log, proc.returncode),
            log=log,
            results=results,
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _read_results(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return []
    out = []
    for r in data.get("results", []):
        out.append(
            {
                "unique_id": r.get("unique_id", ""),
                "status": str(r.get("status", "")),
                "message": r.get("message") or "",
                "failures": r.get("failures"),
                "execution_time": r.get("execution_time"),
            }
        )
    return out


def summarise(results: list[dict[str, Any]], log: str, returncode: int) -> str:
    """Failures first (what the reader must act on), then one line of counts."""
    bad = [r for r in results if r["status"] in {"error", "fail", "runtime error"}]
    warn = [r for r in results if r["status"] == "warn"]
    lines: list[str] = []
    for r in bad:
        msg = " ".join(str(r["message"]).split())[:400]
        lines.append(f"FAIL {r['unique_id']}: {msg}")
    for r in warn:
        lines.append(f"WARN {r['unique_id']}: {' '.join(str(r['message']).split())[:200]}")
    if results:
        counts: dict[str, int] = {}
        for r in results:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        lines.append("counts: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    elif returncode != 0:
        # Compile/parse errors produce no run_results: surface the error lines of the log.
        err = [ln for ln in log.splitlines() if "rror" in ln or "not found" in ln]
        lines.extend(ln.strip()[:400] for ln in err[-15:])
        if not err:
            lines.extend(ln.strip()[:400] for ln in log.splitlines()[-15:])
    lines.append("dbt " + ("succeeded" if returncode == 0 else f"failed (exit {returncode})"))
    return "\n".join(lines)
