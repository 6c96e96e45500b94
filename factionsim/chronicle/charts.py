"""The report's pictures of numbers over time: faction colours, the legend, line charts and
fan charts (inline SVG; the report, ``batch`` and ``forecast`` pages share them).

The colours are Okabe and Ito's set, safe for the common colour-blindnesses, in an order that
keeps neighbours apart: eight factions get eight distinct colours (:data:`PALETTE`), and text
on a colour is dark or light as the colour needs (:func:`ink_on`).

>>> faction_colors(["a", "b"])
{'a': '#0072B2', 'b': '#D55E00'}
>>> ink_on("#F0E442"), ink_on("#0072B2")
('#000', '#fff')
"""

from __future__ import annotations

import html
import math

#: Okabe & Ito (2008), "Color Universal Design": blue, vermillion, bluish green, reddish purple,
#: orange, sky blue, yellow, black
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


def ink_on(colour: str) -> str:
    """Black or white: whichever reads better on ``colour`` (``#rrggbb``), by its luminance."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "#fff"


def faction_colors(fids: list[str]) -> dict[str, str]:
    """Each faction's colour in every chart and map (campaign order, :data:`PALETTE`)."""
    return {fid: PALETTE[i % len(PALETTE)] for i, fid in enumerate(fids)}


def legend_html(fids: list[str], names: dict[str, str], colors: dict[str, str]) -> str:
    """A coloured dot and the name of each faction."""
    return "".join(f'<span class="legend"><span class="dot" style="background:{colors[f]}"></span>'
                   f"{html.escape(names.get(f, f))}</span>" for f in fids)


class _Axes:
    """The frame every chart of the report draws in: size, margins, the y scale from 0 to a
    round ``top`` and the x scale over ``turns``; :meth:`grid` draws the title, grid and ticks."""

    W, H, ML, MR, MT, MB = 380, 230, 40, 12, 28, 30

    def __init__(self, turns: list[int], highest: float):
        top = max(highest, 1)
        self.top = int(math.ceil(top / 5.0) * 5) if top > 5 else top
        self.t0, self.t1 = (turns[0], turns[-1]) if turns else (0, 1)
        self.span = max(self.t1 - self.t0, 1)
        self.pw, self.ph = self.W - self.ML - self.MR, self.H - self.MT - self.MB

    def x(self, t: float) -> float:
        return self.ML + (t - self.t0) / self.span * self.pw

    def y(self, v: float) -> float:
        return self.MT + self.ph - v / self.top * self.ph

    def grid(self, title: str) -> list[str]:
        w, h, ml, mr = self.W, self.H, self.ML, self.MR
        parts = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{html.escape(title)}">',
                 f'<text x="{ml}" y="16" class="ctitle">{html.escape(title)}</text>']
        for i in range(5 + 1):
            v = self.top * i / 5
            parts.append(f'<line x1="{ml}" x2="{w - mr}" y1="{self.y(v):.1f}" y2="{self.y(v):.1f}" '
                         f'class="grid"/><text x="{ml - 5}" y="{self.y(v) + 4:.1f}" class="tick" '
                         f'text-anchor="end">{v:g}</text>')
        step = max(1, math.ceil(self.span / 10))
        for t in range(self.t0, self.t1 + 1, step):
            parts.append(f'<text x="{self.x(t):.1f}" y="{h - 12}" class="tick" '
                         f'text-anchor="middle">{t}</text>')
        parts.append(f'<text x="{w - mr}" y="{h - 1}" class="tick" text-anchor="end">turn</text>')
        return parts


def line_chart(title: str, turns: list[int], values: dict[str, list[float | None]],
               colors: dict[str, str], names: dict[str, str], chart_id: str) -> str:
    """An inline SVG line chart, one line per faction over ``turns`` (styled by :data:`CSS`)."""
    ax = _Axes(turns, max([v for vs in values.values() for v in vs if v is not None], default=1))
    parts = ax.grid(title)
    for fid, vs in values.items():
        pts = [(ax.x(t), ax.y(v)) for t, v in zip(turns, vs, strict=True) if v is not None]
        if not pts:
            continue
        d = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
        parts.append(f'<polyline points="{d}" fill="none" stroke="{colors[fid]}" stroke-width="2">'
                     f'<title>{html.escape(names[fid])}</title></polyline>')
        for (px, py), (t, v) in zip(pts, [(t, v) for t, v in zip(turns, vs, strict=True)
                                          if v is not None], strict=True):
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.6" fill="{colors[fid]}">'
                         f'<title>{html.escape(names[fid])}, turn {t}: {v:g}</title></circle>')
    parts.append(f'<line id="{chart_id}-cursor" class="cursor" x1="{ax.x(ax.t1):.1f}" '
                 f'x2="{ax.x(ax.t1):.1f}" y1="{ax.MT}" y2="{ax.MT + ax.ph}" data-x0="{ax.ML}" '
                 f'data-pw="{ax.pw}" data-t0="{ax.t0}" data-span="{ax.span}"/>')
    parts.append("</svg>")
    return "".join(parts)


def band_chart(title: str, turns: list[int], bands: dict[str, tuple[list[float | None], ...]],
               colors: dict[str, str], names: dict[str, str]) -> str:
    """An inline SVG fan chart: for each faction, ``bands[faction] = (low, middle, high)`` over
    ``turns`` drawn as a shaded band from low to high in its colour and a line through the
    middle (a forecast's 10-90% band and median)."""
    ax = _Axes(turns, max([v for b in bands.values() for v in b[2] if v is not None], default=1))
    parts = ax.grid(title)
    for fid, (low, mid, high) in bands.items():
        pts = [(t, lo, m, hi) for t, lo, m, hi in zip(turns, low, mid, high, strict=True)
               if lo is not None and m is not None and hi is not None]
        if not pts:
            continue
        edge = [f"{ax.x(t):.1f},{ax.y(hi):.1f}" for t, _, _, hi in pts]
        edge += [f"{ax.x(t):.1f},{ax.y(lo):.1f}" for t, lo, _, _ in reversed(pts)]
        name = html.escape(names.get(fid, fid))
        parts.append(f'<polygon points="{" ".join(edge)}" fill="{colors[fid]}" fill-opacity="0.18" '
                     f'stroke="none"><title>{name}: 10-90%</title></polygon>')
        line = " ".join(f"{ax.x(t):.1f},{ax.y(m):.1f}" for t, _, m, _ in pts)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colors[fid]}" '
                     f'stroke-width="2"><title>{name}: median</title></polyline>')
        for t, lo, m, hi in pts:
            parts.append(f'<circle cx="{ax.x(t):.1f}" cy="{ax.y(m):.1f}" r="2.6" fill="{colors[fid]}">'
                         f'<title>{name}, turn {t}: median {m:g} (10-90%: {lo:g} to {hi:g})</title>'
                         f'</circle>')
    parts.append("</svg>")
    return "".join(parts)
