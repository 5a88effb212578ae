"""Tiny inline-SVG chart primitives for the offline HTML report.

Written by hand instead of pulling a charting library so the report is one file that opens with no
network and no JavaScript: three chart kinds (bars with interval whiskers, a scatter with vertical
error bars, count bars) are all the report needs. Every label goes through ``html.escape``; chart
text comes from task and reason names, which a run directory controls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 760
ROW_H = 26
FONT = "font-family='system-ui,-apple-system,Segoe UI,Roboto,sans-serif'"
INK = "#1f2937"
MUTED = "#6b7280"
GRID = "#e5e7eb"
BAR = "#4f7cff"
WHISKER = "#111827"
FAIL = "#e4572e"
PALETTE = (
    "#4f7cff",
    "#e4572e",
    "#17a398",
    "#f2a541",
    "#8e6c8a",
    "#3d5a80",
    "#c44569",
    "#6a994e",
    "#ff7f11",
    "#2b2d42",
)


@dataclass(frozen=True)
class IntervalBar:
    """A proportion in [0, 1] with its confidence interval and a caption (e.g. ``7/10``)."""

    label: str
    value: float
    low: float
    high: float
    caption: str = ""

    def __post_init__(self) -> None:
        for name in ("value", "low", "high"):
            v = getattr(self, name)
            if not (math.isfinite(v) and 0.0 <= v <= 1.0):
                raise ValueError(f"{name} must lie in [0, 1], got {v}")
        if not self.low <= self.value <= self.high:
            raise ValueError("need low <= value <= high")


@dataclass(frozen=True)
class ScatterPoint:
    label: str
    x: float
    y: float
    low: float
    high: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.x) and self.x >= 0):
            raise ValueError(f"x must be a finite number >= 0, got {self.x}")
        for name in ("y", "low", "high"):
            v = getattr(self, name)
            if not (math.isfinite(v) and 0.0 <= v <= 1.0):
                raise ValueError(f"{name} must lie in [0, 1], got {v}")


def _text(
    x: float,
    y: float,
    body: str,
    *,
    anchor: str = "start",
    size: int = 12,
    fill: str = INK,
    weight: str = "normal",
) -> str:
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' font-size='{size}' "
        f"font-weight='{weight}' fill='{fill}'>{escape(body)}</text>"
    )


def _svg(height: float, body: list[str], title: str, chart_id: str) -> str:
    return (
        f"<svg class='chart' id='{escape(chart_id)}' role='img' aria-label='{escape(title)}' "
        f"viewBox='0 0 {WIDTH} {height:.0f}' width='100%' preserveAspectRatio='xMinYMin meet' "
        f"{FONT}><title>{escape(title)}</title>" + "".join(body) + "</svg>"
    )


def _label_width(labels: Sequence[str]) -> float:
    longest = max((len(label) for label in labels), default=4)
    return min(330.0, max(90.0, 7.0 * longest + 16))


def nice_ticks(maximum: float, count: int = 5, *, integer: bool = False) -> list[float]:
    """Round tick values from 0 to at least ``maximum`` (steps of 1, 2, 2.5 or 5 × 10^n).

    ``integer`` ticks (for counts) never fall between whole numbers.
    """
    if not (math.isfinite(maximum) and maximum > 0):
        return [0.0, 1.0]
    raw = maximum / count
    if integer:
        raw = max(raw, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    multipliers = (1, 2, 5, 10) if integer else (1, 2, 2.5, 5, 10)
    step = next(m * magnitude for m in multipliers if m * magnitude >= raw)
    n = math.ceil(maximum / step - 1e-9)
    return [round(i * step, 12) for i in range(n + 1)]


def _pct_axis(x0: float, x1: float, y_top: float, y_bottom: float) -> list[str]:
    out = []
    for i in range(0, 101, 20):
        x = x0 + (x1 - x0) * i / 100
        out.append(
            f"<line x1='{x:.1f}' y1='{y_top:.1f}' x2='{x:.1f}' y2='{y_bottom:.1f}' "
            f"stroke='{GRID}'/>"
        )
        out.append(_text(x, y_bottom + 16, f"{i}%", anchor="middle", size=11, fill=MUTED))
    return out


def interval_bars(bars: Sequence[IntervalBar], title: str, chart_id: str) -> str:
    """Horizontal bars (rate) with Wilson-interval whiskers, one row per group."""
    left = _label_width([b.label for b in bars])
    right = WIDTH - 90
    top = 34
    height = top + ROW_H * max(1, len(bars)) + 30
    body = [_text(0, 18, title, size=14, weight="600")]
    body += _pct_axis(left, right, top - 4, top + ROW_H * len(bars))
    for i, bar in enumerate(bars):
        y = top + i * ROW_H
        mid = y + ROW_H / 2
        width = (right - left) * bar.value
        lo = left + (right - left) * bar.low
        hi = left + (right - left) * bar.high
        tip = f"{bar.label}: {100 * bar.value:.1f}% (95% CI {100 * bar.low:.1f}–{100 * bar.high:.1f}%)"
        body.append(
            f"<g><title>{escape(tip)}</title>"
            f"<rect x='{left:.1f}' y='{y + 5:.1f}' width='{max(width, 0.0):.1f}' "
            f"height='{ROW_H - 10}' rx='3' fill='{BAR}' fill-opacity='0.85'/>"
            f"<line x1='{lo:.1f}' y1='{mid:.1f}' x2='{hi:.1f}' y2='{mid:.1f}' "
            f"stroke='{WHISKER}' stroke-width='1.5'/>"
            f"<line x1='{lo:.1f}' y1='{mid - 6:.1f}' x2='{lo:.1f}' y2='{mid + 6:.1f}' "
            f"stroke='{WHISKER}' stroke-width='1.5'/>"
            f"<line x1='{hi:.1f}' y1='{mid - 6:.1f}' x2='{hi:.1f}' y2='{mid + 6:.1f}' "
            f"stroke='{WHISKER}' stroke-width='1.5'/></g>"
        )
        body.append(_text(left - 8, mid + 4, bar.label, anchor="end"))
        caption = f"{100 * bar.value:.0f}%" + (f"  {bar.caption}" if bar.caption else "")
        body.append(_text(right + 8, mid + 4, caption, size=11, fill=MUTED))
    return _svg(height, body, title, chart_id)


def _dodge(positions: list[tuple[float, float]], radius: float = 7.0) -> list[float]:
    """Horizontal offsets that spread points drawn on top of each other side by side."""
    offsets = [0.0] * len(positions)
    groups: list[list[int]] = []
    for i, (x, y) in enumerate(positions):
        for group in groups:
            gx, gy = positions[group[0]]
            if abs(gx - x) < radius and abs(gy - y) < radius:
                group.append(i)
                break
        else:
            groups.append([i])
    for group in groups:
        for j, i in enumerate(group):
            offsets[i] = (j - (len(group) - 1) / 2) * 2 * radius
    return offsets


def scatter(
    points: Sequence[ScatterPoint], title: str, x_label: str, chart_id: str, x_format: str = "{:g}"
) -> str:
    """Success (y, with interval) against a cost measure (x), one coloured point per group.

    Points that would cover each other (same cost and success, common for scripted agents) are
    spread sideways so every group stays visible; the tooltip keeps the exact values.
    """
    left, right, top, bottom, pad = 56.0, WIDTH - 250.0, 34.0, 300.0, 12.0
    height = max(bottom + 50, top + 18 * len(points) + 10)
    # headroom past the largest value so points (and their dodged neighbours) stay in the frame
    ticks = nice_ticks(1.08 * max((p.x for p in points), default=0.0))
    x_max = ticks[-1] or 1.0

    def px(value: float) -> float:
        return left + pad + (right - left - 2 * pad) * value / x_max

    def py(value: float) -> float:
        return bottom - pad - (bottom - top - 2 * pad) * value

    body = [_text(0, 18, title, size=14, weight="600")]
    for i in range(0, 101, 25):
        y = py(i / 100)
        body.append(f"<line x1='{left}' y1='{y:.1f}' x2='{right}' y2='{y:.1f}' stroke='{GRID}'/>")
        body.append(_text(left - 6, y + 4, f"{i}%", anchor="end", size=11, fill=MUTED))
    for tick in ticks:
        x = px(tick)
        body.append(
            f"<line x1='{x:.1f}' y1='{bottom}' x2='{x:.1f}' y2='{bottom + 5}' stroke='{MUTED}'/>"
        )
        body.append(
            _text(x, bottom + 18, x_format.format(tick), anchor="middle", size=11, fill=MUTED)
        )
    body.append(f"<line x1='{left}' y1='{bottom}' x2='{right}' y2='{bottom}' stroke='{MUTED}'/>")
    body.append(f"<line x1='{left}' y1='{top}' x2='{left}' y2='{bottom}' stroke='{MUTED}'/>")
    body.append(
        _text((left + right) / 2, bottom + 38, x_label, anchor="middle", size=12, fill=MUTED)
    )
    body.append(
        f"<text x='14' y='{(top + bottom) / 2:.1f}' font-size='12' fill='{MUTED}' "
        f"text-anchor='middle' transform='rotate(-90 14 {(top + bottom) / 2:.1f})'>success</text>"
    )
    offsets = _dodge([(px(p.x), py(p.y)) for p in points])
    for i, p in enumerate(points):
        color = PALETTE[i % len(PALETTE)]
        x = min(right - 6, max(left + 6, px(p.x) + offsets[i]))
        y = py(p.y)
        tip = f"{p.label}: {100 * p.y:.1f}% success, {x_label} {x_format.format(p.x)}"
        body.append(
            f"<g><title>{escape(tip)}</title>"
            f"<line x1='{x:.1f}' y1='{py(p.low):.1f}' x2='{x:.1f}' y2='{py(p.high):.1f}' "
            f"stroke='{color}' stroke-width='2' stroke-opacity='0.6'/>"
            f"<circle cx='{x:.1f}' cy='{y:.1f}' r='6' fill='{color}' stroke='white' "
            f"stroke-width='1.5'/></g>"
        )
        ly = top + 4 + i * 18
        body.append(f"<circle cx='{right + 24}' cy='{ly:.1f}' r='5' fill='{color}'/>")
        body.append(_text(right + 34, ly + 4, p.label, size=11))
    return _svg(height, body, title, chart_id)


def count_bars(
    rows: Sequence[tuple[str, int]], title: str, chart_id: str, color: str = FAIL
) -> str:
    """Horizontal bars of counts (failure modes), longest first as given."""
    left = _label_width([label for label, _ in rows])
    right = WIDTH - 60
    top = 34
    height = top + ROW_H * max(1, len(rows)) + 30
    ticks = nice_ticks(max((c for _, c in rows), default=0), integer=True)
    x_max = ticks[-1] or 1.0
    body = [_text(0, 18, title, size=14, weight="600")]
    for tick in ticks:
        x = left + (right - left) * tick / x_max
        body.append(
            f"<line x1='{x:.1f}' y1='{top - 4}' x2='{x:.1f}' y2='{top + ROW_H * len(rows)}' "
            f"stroke='{GRID}'/>"
        )
        body.append(
            _text(
                x, top + ROW_H * len(rows) + 16, f"{tick:g}", anchor="middle", size=11, fill=MUTED
            )
        )
    for i, (label, count) in enumerate(rows):
        y = top + i * ROW_H
        width = (right - left) * count / x_max
        body.append(
            f"<g><title>{escape(f'{label}: {count}')}</title><rect x='{left:.1f}' "
            f"y='{y + 5:.1f}' width='{width:.1f}' height='{ROW_H - 10}' rx='3' fill='{color}' "
            f"fill-opacity='0.85'/></g>"
        )
        body.append(_text(left - 8, y + ROW_H / 2 + 4, label, anchor="end"))
        body.append(_text(left + width + 6, y + ROW_H / 2 + 4, str(count), size=11, fill=MUTED))
    return _svg(height, body, title, chart_id)
