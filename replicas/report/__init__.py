"""Run reports: ``summary.json``, ``report.md``, ``report.html`` and two-run comparisons.

Public surface (the runner calls :func:`write_summary` at the end of every run):

- :func:`write_summary` / :func:`build_summary` — every number about a run, as one dict;
- :func:`write_report` — summary + markdown + self-contained HTML into the run directory;
- :func:`compare_runs` / :func:`render_compare_markdown` — two runs side by side;
- :func:`load_run` and :class:`ReportInputError` — the tolerant results reader (episodes are
  :class:`replicas.records.EpisodeRecord`, the model the runner writes).
"""

from __future__ import annotations

from replicas.report._load import (
    SUPPORTED_RESULT_SCHEMAS,
    LoadedRun,
    ReportInputError,
    load_run,
)
from replicas.report.compare import compare_runs, render_compare_markdown
from replicas.report.html import REPORT_HTML, render_html
from replicas.report.markdown import REPORT_MD, render_markdown
from replicas.report.summary import (
    SUMMARY_FILE,
    SUMMARY_SCHEMA_VERSION,
    build_summary,
    summarise,
    write_summary,
)
from replicas.report.writer import ReportFiles, write_report

__all__ = [
    "REPORT_HTML",
    "REPORT_MD",
    "SUMMARY_FILE",
    "SUMMARY_SCHEMA_VERSION",
    "SUPPORTED_RESULT_SCHEMAS",
    "LoadedRun",
    "ReportFiles",
    "ReportInputError",
    "build_summary",
    "compare_runs",
    "load_run",
    "render_compare_markdown",
    "render_html",
    "render_markdown",
    "summarise",
    "write_report",
    "write_summary",
]
