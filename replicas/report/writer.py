"""Write all report files of a run directory from one summary (each file atomically)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replicas.atomicio import write_json_atomic, write_text_atomic
from replicas.report.html import REPORT_HTML, render_html
from replicas.report.markdown import REPORT_MD, render_markdown
from replicas.report.summary import SUMMARY_FILE, summarise


@dataclass(frozen=True)
class ReportFiles:
    """Where the report landed, plus the summary it was rendered from."""

    summary_json: Path
    markdown: Path
    html: Path
    summary: dict[str, Any]


def write_report(run_dir: Path | str) -> ReportFiles:
    """Recompute ``summary.json`` and render ``report.md`` and ``report.html`` beside it."""
    run, summary = summarise(run_dir)
    paths = ReportFiles(
        run.run_dir / SUMMARY_FILE, run.run_dir / REPORT_MD, run.run_dir / REPORT_HTML, summary
    )
    write_json_atomic(paths.summary_json, summary)
    write_text_atomic(paths.markdown, render_markdown(summary))
    write_text_atomic(paths.html, render_html(summary))
    return paths
