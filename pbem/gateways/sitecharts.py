"""SVG charts for the game site: line charts over rounds or turns, and paired bars per battle.

Drawn by hand rather than with a charting library: the charts are a few polylines and rectangles,
the output must be byte-identical on every machine (a library's version would change the bytes),
and the map already draws SVG the same way.  Every chart reads without JavaScript and scales to a
phone's width through its viewBox.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 24, 44


@dataclass(frozen=True)
class Series:
    name: str
    colour: str
    points: tuple[float | None, ...]  # one value per x position; None leaves a gap
    band: tuple[tuple[float, float], ...] = ()  # optional (low, high) per x position, drawn shaded


def _nice_step(span: float) -> float:
    """A round tick step giving four to eight ticks over `span`."""
    if span <= 0:
        return 1.0
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _fmt(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def line_chart(title: str, x_labels: Sequence[str], series: Sequence[Series], *, y_label: str = "",
               zero_line: bool = False) -> str:
    """A line chart with a legend at the right; x positions are evenly spaced and labelled."""
    values = [v for s in series for v in s.points if v is not None]
    values += [v for s in series for band in s.band for v in band]
    low = min(values + ([0.0] if zero_line or not values else []))
    high = max(values + [low + 1.0])
    step = _nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = max(len(x_labels), 1)

    def x(i: int) -> float:
        return LEFT + (plot_w * (i + 0.5) / n)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / (high - low))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
           f'aria-label="{escape(title)}" font-family="sans-serif" font-size="11">',
           f'<title>{escape(title)}</title>',
           f'<text x="{LEFT}" y="15" font-size="13" font-weight="bold">{escape(title)}</text>']
    tick = low
    while tick <= high + step / 2:
        ty = y(tick)
        out.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{LEFT + plot_w}" y2="{ty:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{_fmt(tick)}</text>')
        tick += step
    if zero_line and low < 0 < high:
        out.append(f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{LEFT + plot_w}" y2="{y(0):.1f}" stroke="#888"/>')
    every = max(1, math.ceil(n / 16))
    for i, label in enumerate(x_labels):
        if i % every == 0:
            out.append(f'<text x="{x(i):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{escape(label)}</text>')
    if y_label:
        out.append(f'<text x="12" y="{TOP + plot_h / 2:.1f}" transform="rotate(-90 12 {TOP + plot_h / 2:.1f})" '
                   f'text-anchor="middle">{escape(y_label)}</text>')
    for s in series:
        if s.band:
            upper = " ".join(f"{x(i):.1f},{y(hi):.1f}" for i, (_, hi) in enumerate(s.band))
            lower = " ".join(f"{x(i):.1f},{y(lo):.1f}" for i, (lo, _) in reversed(list(enumerate(s.band))))
            out.append(f'<polygon points="{upper} {lower}" fill="{s.colour}" fill-opacity="0.12" stroke="none"/>')
    for s in series:
        runs: list[list[str]] = [[]]
        for i, v in enumerate(s.points):
            if v is None:
                runs.append([])
            else:
                runs[-1].append(f"{x(i):.1f},{y(v):.1f}")
        for run in runs:
            if len(run) > 1:
                out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="{s.colour}" stroke-width="2"/>')
            elif run:
                cx, cy = run[0].split(",")
                out.append(f'<circle cx="{cx}" cy="{cy}" r="2.5" fill="{s.colour}"/>')
    for k, s in enumerate(series):
        ly = TOP + 14 * k + 6
        out.append(f'<rect x="{WIDTH - RIGHT + 12}" y="{ly - 8}" width="10" height="10" fill="{s.colour}"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 26}" y="{ly + 1}">{escape(s.name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def paired_bars(title: str, labels: Sequence[str], pairs: Sequence[tuple[float, float]],
                names: tuple[str, str] = ("attacker", "defender"),
                colours: tuple[str, str] = ("#b5534b", "#4b6fb5")) -> str:
    """Two bars per label (e.g. each battle's unit value lost by attacker and defender), horizontal,
    so long labels read and the chart grows downwards with the game."""
    row, left, bar_w = 22, 260, 300
    height = TOP + row * max(len(labels), 1) + 30
    top = max([max(a, b) for a, b in pairs] + [1.0])
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
           f'aria-label="{escape(title)}" font-family="sans-serif" font-size="11">',
           f'<title>{escape(title)}</title>',
           f'<text x="8" y="15" font-size="13" font-weight="bold">{escape(title)}</text>']
    for i, (label, (a, b)) in enumerate(zip(labels, pairs)):
        ty = TOP + row * i
        out.append(f'<text x="{left - 6}" y="{ty + 14}" text-anchor="end">{escape(label)}</text>')
        for k, (value, colour) in enumerate(((a, colours[0]), (b, colours[1]))):
            w = bar_w * value / top
            out.append(f'<rect x="{left}" y="{ty + 2 + 9 * k}" width="{w:.1f}" height="8" fill="{colour}"/>')
            out.append(f'<text x="{left + w + 4:.1f}" y="{ty + 10 + 9 * k}">{_fmt(value)}</text>')
    legend_y = TOP + row * max(len(labels), 1) + 14
    for k, (name, colour) in enumerate(zip(names, colours)):
        out.append(f'<rect x="{left + 120 * k}" y="{legend_y - 8}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{left + 120 * k + 14}" y="{legend_y + 1}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def colours_for(powers: Mapping[str, str]) -> dict[str, str]:
    """Each power's colour from the ruleset, darkened where a pale colour would vanish on white."""
    out = {}
    for name, colour in powers.items():
        c = colour.lstrip("#")
        if len(c) == 6:
            r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
            if 0.299 * r + 0.587 * g + 0.114 * b > 170:  # too light for a line on white
                r, g, b = (int(v * 0.6) for v in (r, g, b))
            out[name] = f"#{r:02x}{g:02x}{b:02x}"
        else:
            out[name] = "#555555"
    return out
