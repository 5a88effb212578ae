"""report.html is self-contained and renders: static checks plus a real headless-Chromium render.

Chromium comes from Debian (`apt-get install -y chromium`; CI installs it the same way). The render
test fails, rather than skips, when no browser is found: an unrendered report is an untested one.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from replicas.report import render_html, write_report
from tests.report_runs import make_run_dir

CHART_IDS = ("chart-success", "chart-cost", "chart-failures")
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WINDOW = (1200, 1600)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _parse(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Collector()
    parser.feed(html)
    return parser.tags


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    run = make_run_dir(tmp_path_factory.mktemp("html") / "run", seed=13)
    files = write_report(run.path)
    return files.html, files.html.read_text(encoding="utf-8")


def test_html_is_self_contained(report: tuple[Path, str]) -> None:
    _, html = report
    tags = _parse(html)
    names = [tag for tag, _ in tags]
    for banned in ("script", "link", "img", "iframe", "object", "embed"):
        assert banned not in names, f"<{banned}> in a self-contained report"
    for tag, attrs in tags:
        for key, value in attrs.items():
            assert "://" not in (value or ""), f"external reference in <{tag} {key}={value!r}>"
    style = html.split("<style>", 1)[1].split("</style>", 1)[0]
    assert "url(" not in style and "@import" not in style
    svg_ids = [attrs.get("id") for tag, attrs in tags if tag == "svg"]
    assert svg_ids == list(CHART_IDS)


def test_html_escapes_run_supplied_text(report: tuple[Path, str]) -> None:
    _, html = report
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>" not in html


def test_success_chart_draws_one_bar_and_whisker_per_family(report: tuple[Path, str]) -> None:
    _, html = report
    success_svg = html.split("id='chart-success'", 1)[1].split("</svg>", 1)[0]
    tags = _parse("<svg " + success_svg)
    assert sum(tag == "rect" for tag, _ in tags) == 4
    for family in ("ecommerce.revenue_period-v1", "credit_cards.recommend-v1"):
        assert family in success_svg


def test_page_without_failures_or_costs_still_renders(tmp_path: Path) -> None:
    run = make_run_dir(
        tmp_path / "oracle",
        agent="oracle",
        pass_prob={
            f: 1.0
            for f in (
                "ecommerce.revenue_period-v1",
                "ecommerce.fix_fct_orders-v1",
                "credit_cards.card_terms-v1",
                "credit_cards.recommend-v1",
            )
        },
        error_rate=0.0,
        seed=1,
    )
    html = write_report(run.path).html.read_text(encoding="utf-8")
    assert "No verifier rejections" in html
    assert "steps per episode" in html  # scripted agents: no cost or tokens → steps on the x axis
    svg_ids = [a.get("id") for t, a in _parse(html) if t == "svg"]
    assert svg_ids == ["chart-success", "chart-cost"]


def _browser() -> str:
    override = os.environ.get("REPLICAS_CHROMIUM")
    found = [override] if override else [p for b in BROWSERS if (p := shutil.which(b))]
    if not found:
        pytest.fail("no headless browser found: install one with `apt-get install -y chromium`")
    return str(found[0])


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    profile = tempfile.mkdtemp(prefix="replicas-chromium-")
    try:
        return subprocess.run(
            [
                _browser(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _png_rows(path: Path) -> tuple[int, int, list[bytes]]:
    """(width, height, filtered scanlines) — enough to tell a blank page from a drawn one."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError("screenshot is not a PNG")
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        header = body if kind == b"IHDR" else header
        idat += body if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, color_type = struct.unpack(">IIBB", header[:10])
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    stride = 1 + width * channels * depth // 8
    raw = zlib.decompress(idat)
    return width, height, [raw[i * stride : (i + 1) * stride] for i in range(height)]


def _drawn_row_share(rows: list[bytes]) -> float:
    """Share of scanlines that differ from their left/upper neighbours (blank rows filter to 0)."""
    drawn = sum(1 for row in rows[1:] if row[0] != 0 and any(row[1:]))
    return drawn / max(1, len(rows) - 1)


@pytest.mark.browser
def test_chromium_renders_the_report_with_its_charts(
    report: tuple[Path, str], tmp_path: Path
) -> None:
    html_path, _ = report
    url = html_path.resolve().as_uri()
    shot = tmp_path / "report.png"
    result = _chromium(f"--screenshot={shot}", f"--window-size={WINDOW[0]},{WINDOW[1]}", url)
    assert shot.is_file(), result.stderr[-2000:]
    width, height, rows = _png_rows(shot)
    assert (width, height) == WINDOW
    assert _drawn_row_share(rows) > 0.3, "the screenshot is (nearly) blank"

    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>", encoding="utf-8")
    blank_shot = tmp_path / "blank.png"
    _chromium(f"--screenshot={blank_shot}", "--window-size=400,300", blank.as_uri())
    assert _drawn_row_share(_png_rows(blank_shot)[2]) < 0.05, "the blankness check cannot tell"

    dom = _chromium("--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    for chart_id in CHART_IDS:
        assert f'id="{chart_id}"' in dom.stdout
    assert dom.stdout.count("<svg") == len(CHART_IDS)
    assert "<rect" in dom.stdout and "<circle" in dom.stdout


def test_render_html_is_a_pure_function_of_the_summary(report: tuple[Path, str]) -> None:
    html_path, html = report
    summary: dict[str, Any] = json.loads((html_path.parent / "summary.json").read_text("utf-8"))
    assert render_html(summary) == html


def test_scatter_spreads_coincident_points_and_count_axes_use_whole_numbers() -> None:
    from replicas.report._svg import ScatterPoint, nice_ticks, scatter

    points = [ScatterPoint(f"family-{i}", 2.0, 0.0, 0.0, 0.4) for i in range(3)]
    svg = scatter(points, "t", "steps", "chart-x")
    centres = [a["cx"] for t, a in _parse(svg) if t == "circle" and a.get("r") == "6"]
    assert len(set(centres)) == 3
    assert all(tick == int(tick) for tick in nice_ticks(12, integer=True))
    assert 2.5 in nice_ticks(12)
    with pytest.raises(ValueError):
        ScatterPoint("bad", 1.0, 1.5, 0.0, 1.0)
