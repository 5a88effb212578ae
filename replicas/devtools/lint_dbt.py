"""Lint the shipped dbt projects: dbt-score on their metadata, sqlfluff (dbt templater) on their SQL.

``python -m replicas.devtools.lint_dbt [PROJECT_DIR ...]`` (no argument: every project under
``dbt_projects/``). Each project is copied to a temporary directory (dbt writes ``target/`` and
``logs/`` next to the project; the repository tree stays untouched) with a DuckDB profile that
points at an empty throwaway warehouse: ``dbt parse`` and the templater's compile need a profile
and an adapter, never data. Then

* ``dbt parse`` → ``dbt-score lint`` with the rule set and thresholds of ``[tool.dbt-score]`` in
  the repository's ``pyproject.toml`` (the project fails under ``fail_project_under``);
* ``sqlfluff lint`` over the project's model, test, macro, snapshot and analysis paths under the
  ``.sqlfluff`` committed with the project (a project without one fails).

The jobs (two per project) run in parallel; the exit status is 0 when every project passes, 1
when one fails a linter (a summary names each finding), 2 when the runner cannot run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import yaml

from replicas.dbt import PROFILE_NAME, profiles_yaml

__all__ = ["ProjectReport", "lint_project", "lint_projects", "main", "shipped_projects"]

REPO = Path(__file__).resolve().parents[2]
PROJECTS_DIR = REPO / "dbt_projects"
#: Build output and packaging that is never linted (and never copied).
_SKIP = ("target", "logs", "dbt_packages", "__pycache__", "__init__.py", ".user.yml")
_SQL_PATH_KEYS = {
    "model-paths": ["models"],
    "test-paths": ["tests"],
    "macro-paths": ["macros"],
    "snapshot-paths": ["snapshots"],
    "analysis-paths": ["analyses"],
}
TIMEOUT_S = 1800
#: The linters, longest first (sqlfluff's templater compiles every model: it starts first)
LINTERS = ("sqlfluff", "dbt-score")


class LintSetupError(RuntimeError):
    """The runner cannot lint (a missing project, tool or config): exit 2, not a lint finding."""


@dataclass
class ProjectReport:
    """What both linters found in one project."""

    name: str
    score: float | None = None
    score_threshold: float | None = None
    score_passed: bool = False
    #: dbt-score items (models, macros, …) below 10, with the rules they break
    weak_items: list[dict[str, Any]] = field(default_factory=list)
    sql_files: int = 0
    violations: list[dict[str, Any]] = field(default_factory=list)
    sqlfluff_passed: bool = False
    errors: list[str] = field(default_factory=list)
    #: linters left out of this run (``--only``): they count as passed
    skipped: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.score_passed and self.sqlfluff_passed and not self.errors


def shipped_projects() -> list[Path]:
    """Every dbt project the kit ships (a directory of ``dbt_projects/`` with a dbt_project.yml)."""
    return sorted(p.parent for p in PROJECTS_DIR.glob("*/dbt_project.yml"))


def score_config() -> dict[str, Any]:
    """``[tool.dbt-score]`` of the repository's pyproject.toml (dbt-score reads it from its cwd)."""
    pyproject = REPO / "pyproject.toml"
    if not pyproject.is_file():
        raise LintSetupError(f"{pyproject} not found: the dbt lint runs from a source checkout")
    config = tomllib.loads(pyproject.read_text()).get("tool", {}).get("dbt-score")
    if not isinstance(config, dict) or "fail_project_under" not in config:
        raise LintSetupError(f"{pyproject} has no [tool.dbt-score] fail_project_under")
    return config


def _copy_project(project: Path, dest: Path) -> Path:
    shutil.copytree(project, dest, ignore=shutil.ignore_patterns(*_SKIP))
    # dbt finds profiles.yml through --profiles-dir / DBT_PROFILES_DIR; the copy is throwaway
    (dest / "profiles.yml").write_text(
        profiles_yaml(str(dest.parent / f"{dest.name}.duckdb"), threads=1, memory_limit=None)
    )
    return dest


def _env(profiles_dir: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")}
    env.update(
        DBT_PROFILES_DIR=str(profiles_dir),
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
        DO_NOT_TRACK="1",
        DBT_USE_COLORS="false",
        HOME=str(home),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
    )


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _profile_of(project: Path) -> str:
    doc = yaml.safe_load((project / "dbt_project.yml").read_text()) or {}
    return str(doc.get("profile") or PROFILE_NAME)


def _dbt_score(project: Path, work: Path, report: ProjectReport) -> None:
    """``dbt parse`` a copy of ``project``, then ``dbt-score lint`` its manifest."""
    started = time.perf_counter()
    copy = _copy_project(project, work / "score" / project.name)
    profile = _profile_of(copy)
    if profile != PROFILE_NAME:  # the kit's profile text names PROFILE_NAME
        report.errors.append(f"dbt_project.yml profile '{profile}' is not '{PROFILE_NAME}'")
        return
    env = _env(copy, work / "home")
    parse = _run(
        [sys.executable, "-m", "dbt.cli.main", "parse", "--project-dir", str(copy), "--quiet"],
        cwd=copy,
        env=env,
    )
    manifest = copy / "target" / "manifest.json"
    if parse.returncode != 0 or not manifest.is_file():
        report.errors.append(f"dbt parse failed:\n{_tail(parse.stdout + parse.stderr)}")
        return
    report.seconds["dbt_parse"] = time.perf_counter() - started
    started = time.perf_counter()
    # cwd = the repository: dbt-score reads [tool.dbt-score] from the pyproject.toml it finds there
    lint = _run(
        [sys.executable, "-m", "dbt_score", "lint", "-m", str(manifest), "--format", "json"],
        cwd=REPO,
        env=env,
    )
    report.seconds["dbt_score"] = time.perf_counter() - started
    try:
        result = json.loads(lint.stdout)
    except json.JSONDecodeError:
        report.errors.append(f"dbt-score failed (exit {lint.returncode}):\n{_tail(lint.stderr)}")
        return
    report.score = float(result["project"]["score"])
    report.score_passed = bool(result["project"]["pass"]) and lint.returncode == 0
    for name, item in sorted(result["evaluables"].items()):
        broken = {
            rule.rsplit(".", 1)[-1]: r.get("message") or r["result"]
            for rule, r in item["results"].items()
            if r["result"] != "OK"
        }
        if broken:
            report.weak_items.append({"item": name, "score": item["score"], "rules": broken})


def _sql_paths(project: Path) -> list[str]:
    doc = yaml.safe_load((project / "dbt_project.yml").read_text()) or {}
    paths: list[str] = []
    for key, default in _SQL_PATH_KEYS.items():
        for rel in doc.get(key) or default:
            if (project / rel).is_dir() and rel not in paths:
                paths.append(rel)
    return paths


def _sqlfluff(project: Path, work: Path, report: ProjectReport) -> None:
    """``sqlfluff lint`` a copy of ``project`` under its committed ``.sqlfluff``."""
    started = time.perf_counter()
    if not (project / ".sqlfluff").is_file():
        report.errors.append(f"{project.name}/.sqlfluff missing: sqlfluff's config ships with it")
        return
    copy = _copy_project(project, work / "fluff" / project.name)
    lint = _run(
        [sys.executable, "-m", "sqlfluff", "lint", *_sql_paths(copy), "--format", "json"],
        cwd=copy,
        env=_env(copy, work / "home"),
    )
    report.seconds["sqlfluff"] = time.perf_counter() - started
    try:
        files = json.loads(lint.stdout)
    except json.JSONDecodeError:
        report.errors.append(f"sqlfluff failed (exit {lint.returncode}):\n{_tail(lint.stderr)}")
        return
    report.sql_files = len(files)
    for entry in files:
        for v in entry["violations"]:
            report.violations.append(
                {
                    "file": entry["filepath"],
                    "line": v.get("start_line_no"),
                    "code": v.get("code"),
                    "description": v.get("description"),
                }
            )
    # 0: clean, 1: violations; anything else is sqlfluff failing to run
    if lint.returncode not in (0, 1):
        report.errors.append(f"sqlfluff exit {lint.returncode}:\n{_tail(lint.stderr)}")
    report.sqlfluff_passed = lint.returncode == 0 and not report.violations


def lint_project(project: Path, work: Path) -> ProjectReport:
    """Both linters on one project, one after the other (scratch space under ``work``)."""
    return lint_projects([project], jobs=1, work=work)[0]


def lint_projects(
    projects: Sequence[Path],
    *,
    jobs: int = 2,
    work: Path | None = None,
    linters: Sequence[str] = LINTERS,
) -> list[ProjectReport]:
    """``linters`` (both by default) on every project, ``jobs`` linter runs at a time.

    A linter left out counts as passed in the reports (``--only`` is for iterating on one).
    """
    for project in projects:
        if not (project / "dbt_project.yml").is_file():
            raise LintSetupError(f"{project}: not a dbt project (no dbt_project.yml)")
    score_config()
    missing = [m for m in ("dbt_score", "sqlfluff", "sqlfluff_templater_dbt") if not find_spec(m)]
    if missing:
        raise LintSetupError(f"{', '.join(missing)} not installed: pip install -e '.[dev]'")
    reports = [ProjectReport(name=p.name) for p in projects]
    with tempfile.TemporaryDirectory(prefix="lint-dbt-", dir=work) as tmp:
        scratch = Path(tmp)
        (scratch / "home").mkdir()
        runs = {"sqlfluff": _sqlfluff, "dbt-score": _dbt_score}
        tasks = []
        for linter in LINTERS:
            for p, r in zip(projects, reports, strict=True):
                if linter in linters:
                    tasks.append((runs[linter], p, r))
                else:
                    r.skipped.append(linter)
                    if linter == "sqlfluff":
                        r.sqlfluff_passed = True
                    else:
                        r.score_passed = True
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for future in [pool.submit(fn, p, scratch, r) for fn, p, r in tasks]:
                future.result()
    return reports


def summary(reports: Sequence[ProjectReport], *, limit: int = 40) -> str:
    """A readable report: one line per project, then each finding of the failing ones."""
    lines = []
    for r in reports:
        score = "n/a" if r.score is None else f"{r.score:.2f}"
        parts = []
        if "dbt-score" not in r.skipped:
            parts.append(f"dbt-score {score} ({'pass' if r.score_passed else 'fail'})")
        if "sqlfluff" not in r.skipped:
            parts.append(f"sqlfluff {len(r.violations)} violation(s) in {r.sql_files} file(s)")
        parts += [f"{k} {v:.1f}s" for k, v in sorted(r.seconds.items())]
        lines.append(f"{'ok  ' if r.passed else 'FAIL'} {r.name}: " + ", ".join(parts))
    for r in reports:
        if r.passed:
            continue
        lines += [f"  {r.name}: {e}" for e in r.errors]
        if not r.score_passed:
            lines += [
                f"  {r.name}: {w['item']} scores {w['score']:.1f}: "
                + "; ".join(f"{k}: {m}" for k, m in w["rules"].items())
                for w in r.weak_items[:limit]
            ]
        lines += [
            f"  {r.name}/{v['file']}:{v['line']} {v['code']} {v['description']}"
            for v in r.violations[:limit]
        ]
        if len(r.violations) > limit:
            lines.append(f"  … {len(r.violations) - limit} more sqlfluff violation(s)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m replicas.devtools.lint_dbt", description=__doc__
    )
    parser.add_argument("projects", nargs="*", type=Path, help="dbt project dirs (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="linter runs at a time (default 2)")
    parser.add_argument("--only", choices=LINTERS, help="run one linter (default: both)")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        reports = lint_projects(
            args.projects or shipped_projects(),
            jobs=args.jobs,
            linters=[args.only] if args.only else LINTERS,
        )
    except LintSetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{**r.__dict__, "passed": r.passed} for r in reports], indent=2))
    else:
        print(summary(reports))
        print(f"dbt lint: {time.perf_counter() - started:.1f}s wall, {len(reports)} project(s)")
    return 0 if all(r.passed for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
