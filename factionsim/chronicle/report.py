"""The campaign report: one self-contained HTML file (inline SVG, CSS and a little JS; no network).

It shows the factions now (a table), their numbers over time as line charts (WWN: HP, Treasure,
assets), a map of the locations with each faction's Bases and assets at every recorded turn for
a ruleset with places (a slider steps through the history), the key events of each turn, a
timeline and the chronicle. What it shows of a campaign comes from its ruleset's presentation
(:class:`factionsim.core.presentation.Presentation`); the data from the history beside the
campaign (:mod:`factionsim.core.history`): one snapshot per turn and the events of each turn.

>>> g = {"a": ["b"], "b": ["a", "c"], "c": ["b"]}
>>> layout(g) == layout(g), all(0 <= v <= 1 for p in layout(g).values() for v in p)
(True, True)
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

from factionsim.core.calendar import campaign_calendar
from factionsim.core.game import Event
from factionsim.core.history import chronicle_paths
from factionsim.core.names import Names
from factionsim.core.presentation import MapFrame
from factionsim.core.text import markdown_line
from factionsim.rulesets import get_ruleset, load_campaign

from .markdown import describe
from .views import players_events, render_turn, stealthed_assets

PALETTE = ("#c0392b", "#2471a3", "#7d3c98", "#d68910", "#138d75", "#5d6d7e", "#a04000", "#1e8449")
MAP_W, MAP_H = 760, 560


# ------------------------------------------------------------------ layout
def layout(adjacency: dict[str, list[str]], seed: int = 7,
           steps: int = 400) -> dict[str, tuple[float, float]]:
    """A deterministic force-directed layout (Fruchterman-Reingold) in the unit square."""
    ids = list(adjacency)
    n = len(ids)
    if n == 1:
        return {ids[0]: (0.5, 0.5)}
    index = {k: i for i, k in enumerate(ids)}
    rng = np.random.default_rng(seed)
    angle = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pos = np.stack([np.cos(angle), np.sin(angle)], 1) * 0.5 + rng.normal(0, 0.02, (n, 2))
    edges = {(min(index[a], index[b]), max(index[a], index[b]))
             for a, ns in adjacency.items() for b in ns if b in index and a != b}
    k = math.sqrt(1.0 / n)
    temp = 0.1
    for _ in range(steps):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=-1), 1e-3)
        force = (delta / dist[..., None]) * (k * k / dist)[..., None]
        disp = force.sum(1)
        for i, j in edges:
            d = pos[i] - pos[j]
            dl = max(float(np.linalg.norm(d)), 1e-3)
            f = d / dl * (dl * dl / k)
            disp[i] -= f
            disp[j] += f
        length = np.maximum(np.linalg.norm(disp, axis=-1), 1e-9)
        pos += disp / length[:, None] * np.minimum(length, temp)[:, None]
        temp = max(temp * 0.985, 0.002)
    lo, hi = pos.min(0), pos.max(0)
    span = np.where(hi - lo < 1e-9, 1.0, hi - lo)
    pos = (pos - lo) / span
    return {ids[i]: (float(pos[i, 0]), float(pos[i, 1])) for i in range(n)}


# ------------------------------------------------------------------ markdown -> html
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # markdown's backslash escapes
_HOLE = "\ue000"


def _inline(text: str) -> str:
    """Inline markdown -> HTML: code, bold, italic; a backslash-escaped character (how the
    chronicle writes names) stays that character, never markup."""
    literals: list[str] = []

    def hold(m: re.Match[str]) -> str:
        literals.append(m.group(1))
        return f"{_HOLE}{len(literals) - 1}{_HOLE}"

    text = html.escape(_ESCAPED.sub(hold, text.replace(_HOLE, "")), quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"(?<![*\w])\*([^*]+)\*(?!\*)", r"<em>\1</em>", text)
    return re.sub(f"{_HOLE}(\\d+){_HOLE}", lambda m: html.escape(literals[int(m.group(1))]), text)


def markdown_to_html(md: str) -> str:
    """The small markdown the chronicle uses: headings, bullet lists, paragraphs, bold/italic/code."""
    out: list[str] = []
    in_list = False
    para: list[str] = []

    def flush() -> None:
        nonlocal in_list
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if in_list:
            out.append("</ul>")
            in_list = False

    for line in md.splitlines():
        s = line.strip()
        if s.startswith("<!--"):
            m = re.match(r"<!-- factionsim turn (\d+) -->", s)
            if m:
                flush()
                out.append(f'<a id="turn-{m.group(1)}"></a>')
            continue
        h = re.match(r"^(#{1,4}) (.*)$", s)
        if h:
            flush()
            level = min(len(h.group(1)) + 1, 5)
            out.append(f"<h{level}>{_inline(h.group(2))}</h{level}>")
        elif s.startswith("- "):
            if para:
                out.append(f"<p>{_inline(' '.join(para))}</p>")
                para.clear()
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{_inline(s[2:])}</li>")
        elif not s:
            flush()
        else:
            para.append(s)
    flush()
    return "\n".join(out)


# ------------------------------------------------------------------ data
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


def _map_svg(frames: list[MapFrame], colors: dict[str, str], fnames: dict[str, str]) -> str:
    """The map at every recorded turn (one ``<g>`` per frame, the last one shown): places laid
    out from the last frame's roads, each frame's rulers, coasts and faction badges."""
    last = frames[-1]
    lnames = {p.id: p.name for p in last.places}
    adj: dict[str, list[str]] = {p.id: [] for p in last.places}
    for p in last.places:
        for n in p.neighbors:
            adj[p.id].append(n)
            adj.setdefault(n, []).append(p.id)
    pos01 = layout(adj)
    pad_x, pad_y = 90, 60
    pos = {k: (pad_x + v[0] * (MAP_W - 2 * pad_x), pad_y + v[1] * (MAP_H - 2 * pad_y - 40))
           for k, v in pos01.items()}
    parts = [f'<svg id="map" viewBox="0 0 {MAP_W} {MAP_H}" role="img" aria-label="map">']
    seen = set()
    for a, ns in adj.items():
        for b in ns:
            if (b, a) in seen or (a, b) in seen:
                continue
            seen.add((a, b))
            parts.append(f'<line x1="{pos[a][0]:.1f}" y1="{pos[a][1]:.1f}" x2="{pos[b][0]:.1f}" '
                         f'y2="{pos[b][1]:.1f}" class="road"/>')
    for fi, frame in enumerate(frames):
        rulers = {p.id: p.ruler for p in frame.places}
        coasts = {p.id for p in frame.places if p.coastal}
        parts.append(f'<g class="frame" data-frame="{fi}"' + ("" if fi == len(frames) - 1
                                                               else ' style="display:none"') + ">")
        for lid, (px, py) in pos.items():
            ruler = rulers.get(lid)
            fill = colors.get(ruler, "#ffffff") if ruler else "#ffffff"
            coastal = lid in coasts
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="11" fill="#fff"/>')
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="11" fill="{fill}" '
                         f'fill-opacity="{0.35 if ruler else 1}" class="place'
                         f'{" coast" if coastal else ""}"><title>{html.escape(lnames[lid])}'
                         + (f", ruled by {html.escape(fnames.get(ruler, ruler))}" if ruler else "")
                         + ("; coastal" if coastal else "") + "</title></circle>")
            parts.append(f'<text x="{px:.1f}" y="{py - 16:.1f}" class="plabel" '
                         f'text-anchor="middle">{html.escape(lnames[lid])}</text>')
        for lid, badges in frame.badges.items():
            if lid not in pos:
                continue
            px, py = pos[lid]
            for k, badge in enumerate(badges):
                bx, by = px - 26, py + 15 + k * 17
                parts.append(f'<g class="badge"><title>{html.escape(badge.tip)}</title>'
                             f'<rect x="{bx:.1f}" y="{by:.1f}" width="52" height="15" rx="3" '
                             f'fill="{colors.get(badge.faction, "#888")}"/>')
                parts.append(f'<text x="{bx + 26:.1f}" y="{by + 11.5:.1f}" class="blabel" '
                             f'text-anchor="middle">{html.escape(badge.label)}</text></g>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _event_html(e: Event, names: Names, colors: dict[str, str]) -> str:
    dot = f'<span class="dot" style="background:{colors.get(e.faction or "", "#999")}"></span>'
    who = f"<b>{html.escape(names.faction(e.faction))}</b>: " if e.faction else ""
    return f"<li>{dot}{who}{_inline(markdown_line(describe(e, names.markdown())))}</li>"


def build_report(campaign: str | Path, view: str = "gm") -> str:
    """The report of a campaign file and its history, as one HTML document: what is shown comes
    from the ruleset's presentation (``RulesetInfo.present``). The campaign and every snapshot
    are loaded as campaigns (validated), so the report reads one shape of data only."""
    from factionsim.core.history import History

    path = Path(campaign)
    history = History(path)
    current = load_campaign(path).to_dict()
    present = get_ruleset(current["ruleset"]).present
    turn_now = current["turn"]
    frames = report_frames(history, current)
    names = present.names(current)
    fids = list(names.factions)
    colors = faction_colors(fids)
    names.calendar = campaign_calendar(current)
    turns = [t for t, _ in frames]
    snapshots = dict(frames)
    events_by_turn: dict[int, list[Event]] = {}
    for t in turns:
        if t == 0:
            continue
        evs = history.events(t)
        if view == "players":
            evs = players_events(evs, stealthed_assets(snapshots.get(t - 1)))
        events_by_turn[t] = evs
    per_frame = [present.series(d) for _, d in frames]
    charts = "".join(
        line_chart(title, turns, {f: [s.get(f, {}).get(key) for s in per_frame] for f in fids},
                   colors, names.factions, key)
        for key, title in present.charts)
    if present.map is not None:
        map_title = "The map, turn by turn"
        map_svg = _map_svg([present.map(d, names, view == "players") for _, d in frames], colors,
                           names.factions)
    else:
        map_title, map_svg = "Turn by turn", ""
    # per-turn panels and the timeline
    timeline_kinds = present.timeline_kinds or present.key_kinds
    panels, timeline = [], []
    for fi, t in enumerate(turns):
        key = [e for e in events_by_turn.get(t, []) if e.kind in present.key_kinds]
        body = "".join(_event_html(e, names, colors) for e in key) or "<li>(nothing of note)</li>"
        heading = "Before the first turn" if t == 0 else names.turn_title(t)
        panels.append(f'<div class="panel" data-frame="{fi}"'
                      + ("" if fi == len(turns) - 1 else ' style="display:none"')
                      + f"><h3>{html.escape(heading)}</h3><ul class=\"events\">{body}</ul></div>")
        marked = [e for e in key if e.kind in timeline_kinds]
        if marked:
            when = html.escape(names.turn_title(t))
            timeline.append(f'<li class="tturn"><span class="tnum">{when}</span><ul>'
                            + "".join(_event_html(e, names, colors) for e in marked) + "</ul></li>")
    # the chronicle: the file beside the campaign, else rendered from the history
    chron_path = chronicle_paths(path)["players" if view == "players" else "gm"]
    if chron_path.is_file():
        chronicle_md = chron_path.read_text(encoding="utf-8")
    else:
        chronicle_md = "".join(render_turn(events_by_turn[t], names, "gm") + "\n"
                               for t in turns if t in events_by_turn)
    headers, rows = present.table(current)
    dots = [f'<span class="dot" style="background:{colors[f]}"></span>' for f in fids] \
        if present.colour_rows else [""] * len(rows)
    table_rows = "".join(
        "<tr>" + "".join(f"<td>{dot if i == 0 else ''}{html.escape(str(c))}</td>"
                         for i, c in enumerate(row)) + "</tr>"
        for dot, row in zip(dots, rows, strict=True))
    title = current.get("name") or path.stem
    data_js = json.dumps({"turns": turns, **_frame_dates(names.calendar, turns)}).replace("<", "\\u003c")
    subtitle = "the players' view" if view == "players" else "the GM's view"
    return _TEMPLATE.format(
        title=html.escape(title), subtitle=subtitle, turn=turn_now,
        legend=legend_html(fids, names.factions, colors), charts=charts,
        table_head="".join(f"<th>{html.escape(h)}</th>" for h in headers), map_title=map_title,
        map=map_svg, panels="".join(panels), last=len(turns) - 1, first_turn=turns[0],
        timeline="".join(timeline) or "<li>No key events yet.</li>", table_rows=table_rows,
        chronicle=markdown_to_html(chronicle_md), data=data_js, css=CSS, js=_JS)


def report_frames(history: Any, current: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """``(turn, campaign data)`` of every snapshot up to the campaign's turn, then the campaign
    ``current`` itself unless the last snapshot is of its turn. Each snapshot is loaded as a
    campaign (validated: a broken one is a :class:`CampaignError` naming it) and written back
    as the engine writes it, so the report reads one shape of data only."""
    frames = []
    for t in history.turns():
        text = history.snapshot(t) if t <= current["turn"] else None
        if text:
            frames.append((t, load_campaign(history.snapshot_path(t), text).to_dict()))
    if not frames or frames[-1][0] != current["turn"]:
        frames.append((current["turn"], current))
    return frames


def _frame_dates(calendar: Any, turns: list[int]) -> dict[str, list[str]]:
    """``{"dates": [...]}`` for the slider with a calendar: the state after turn ``t`` is the
    state on the date turn ``t + 1`` begins (before turn 1: the start date); ``{}`` without."""
    return {} if calendar is None else {"dates": [calendar.label(t + 1) for t in turns]}



CSS = """
:root { --ink:#222; --muted:#667; --line:#dde; --bg:#fbfaf7; }
* { box-sizing: border-box; }
body { font: 15px/1.5 Georgia, 'Times New Roman', serif; color: var(--ink); background: var(--bg);
       margin: 0; }
header { padding: 18px 32px 8px; border-bottom: 1px solid var(--line); background: #fff; }
h1 { margin: 0; font-size: 28px; } .sub { color: var(--muted); margin: 2px 0 6px; }
main { max-width: 1240px; margin: 0 auto; padding: 12px 24px 40px; }
h2 { font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
.legend { margin-right: 16px; white-space: nowrap; font-family: sans-serif; font-size: 13px; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px;
       vertical-align: baseline; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 12px; }
.chart { width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
.chart .grid { stroke: #eee; } .chart .tick { font: 10px sans-serif; fill: var(--muted); }
.chart .ctitle { font: bold 13px sans-serif; fill: var(--ink); }
.cursor { stroke: #999; stroke-dasharray: 3 3; }
.mapwrap { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); gap: 16px;
           align-items: start; }
#map { width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
#map .road { stroke: #b9b2a3; stroke-width: 2; }
#map .place { stroke: #555; stroke-width: 1.5; } #map .place.coast { stroke: #2e86c1; stroke-width: 3; }
#map .plabel { font: bold 12px sans-serif; fill: #333; paint-order: stroke; stroke: #fff;
               stroke-width: 3px; }
#map .blabel { font: bold 10px sans-serif; fill: #fff; }
.controls { font-family: sans-serif; margin: 8px 0; display: flex; align-items: center; gap: 10px; }
.controls input[type=range] { flex: 1; }
.controls button { font: 13px sans-serif; padding: 3px 10px; }
#frame-label { font-weight: bold; min-width: 140px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px;
         max-height: 520px; overflow: auto; }
.panel h3 { margin: 4px 0; }
ul.events { padding-left: 4px; list-style: none; margin: 0; } ul.events li { margin: 4px 0; }
.timeline { list-style: none; padding: 0; border-left: 3px solid var(--line); margin-left: 8px; }
.tturn { margin: 0 0 10px 0; padding-left: 14px; position: relative; }
.tturn::before { content: ''; position: absolute; left: -8px; top: 6px; width: 13px; height: 13px;
                 border-radius: 50%; background: #fff; border: 3px solid #b9b2a3; }
.tnum { font: bold 14px sans-serif; } .tturn ul { list-style: none; padding-left: 0; margin: 2px 0; }
table { border-collapse: collapse; font-family: sans-serif; font-size: 14px; background: #fff; }
td, th { border: 1px solid var(--line); padding: 4px 10px; text-align: left; }
.chronicle { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 24px;
             max-height: 900px; overflow: auto; }
.chronicle h2 { font-size: 22px; } .chronicle h3 { font-size: 18px; margin-bottom: 2px; }
.chronicle h4 { font-size: 15px; margin: 12px 0 2px; } .chronicle ul { margin-top: 2px; }
code { font-size: 13px; background: #f3f1ec; padding: 0 3px; border-radius: 3px; }
.keyhelp { font: 12px sans-serif; color: var(--muted); }
"""

_JS = """
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var slider = document.getElementById('frame');
  var label = document.getElementById('frame-label');
  function show(i) {
    i = Number(i);
    document.querySelectorAll('[data-frame]').forEach(function (el) {
      el.style.display = Number(el.getAttribute('data-frame')) === i ? '' : 'none';
    });
    var t = data.turns[i];
    label.textContent = (t === 0 ? 'Before turn 1' : 'After turn ' + t)
      + (data.dates ? ' (' + data.dates[i] + ')' : '');
    document.querySelectorAll('.cursor').forEach(function (c) {
      var d = c.dataset;
      var x = Number(d.x0) + (t - Number(d.t0)) / Number(d.span) * Number(d.pw);
      c.setAttribute('x1', x); c.setAttribute('x2', x);
    });
  }
  slider.addEventListener('input', function () { show(slider.value); });
  var timer = null;
  document.getElementById('play').addEventListener('click', function (ev) {
    if (timer) { clearInterval(timer); timer = null; ev.target.textContent = 'Play'; return; }
    ev.target.textContent = 'Pause';
    if (Number(slider.value) >= Number(slider.max)) { slider.value = 0; show(0); }
    timer = setInterval(function () {
      if (Number(slider.value) >= Number(slider.max)) { clearInterval(timer); timer = null;
        ev.target.textContent = 'Play'; return; }
      slider.value = Number(slider.value) + 1; show(slider.value);
    }, 900);
  });
  show(slider.value);
})();
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: campaign report</title>
<style>{css}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="sub">Campaign report after turn {turn}, {subtitle}. Made by factionsim.</p>
<div>{legend}</div>
</header>
<main>
<h2>The factions now</h2>
<table><tr>{table_head}</tr>
{table_rows}</table>
<h2>Over time</h2>
<div class="charts">{charts}</div>
<h2>{map_title}</h2>
<div class="controls"><button id="play" type="button">Play</button>
<input id="frame" type="range" min="0" max="{last}" value="{last}" step="1" aria-label="turn">
<span id="frame-label"></span></div>
<p class="keyhelp">Each badge is a faction at that place: &#9632;N is a Base of Influence with N HP,
+N (or N) its other assets. A place filled with a faction's colour is ruled by it; a blue ring marks
the coast. Hover for details.</p>
<div class="mapwrap">{map}<div>{panels}</div></div>
<h2>Timeline</h2>
<ul class="timeline">{timeline}</ul>
<h2>Chronicle</h2>
<div class="chronicle">{chronicle}</div>
</main>
<script type="application/json" id="report-data">{data}</script>
<script>{js}</script>
</body>
</html>
"""

