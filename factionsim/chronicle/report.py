"""The campaign report: one self-contained HTML file (inline SVG, CSS and a little JS; no network).

It shows the factions now (a table), their numbers over time as line charts (WWN: HP, Treasure,
assets), a map of the locations with each faction's Bases and assets at every recorded turn for
a ruleset with places (a slider steps through the history), the key events of each turn, a
timeline and the chronicle. What it shows of a campaign comes from its ruleset's presentation
(:class:`factionsim.core.presentation.Presentation`), and all of it from what its audience may
know (:class:`~factionsim.chronicle.record.CampaignRecord`): the players' report is made from
the players' data and events alone (no Stealthed asset, no Treasure chart, rumours for a
chronicle).

It reads at any size: on a narrow screen (a phone) the map takes the full width and pans
sideways, a tap on a place or badge shows its details under the map, the tables stack each
row as a card, and the dice of the GM's chronicle are folded until tapped.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from factionsim.core.game import Event
from factionsim.core.history import chronicle_paths
from factionsim.core.names import Names
from factionsim.core.prose import told
from factionsim.core.text import markdown_line

from .charts import PALETTE, band_chart, faction_colors, ink_on, legend_html, line_chart
from .html import dice_html, inline, markdown_to_html, page_head, story_html
from .mapview import layout, map_svg
from .record import CampaignRecord
from .story import TurnStory, describe

__all__ = ["CSS", "PALETTE", "band_chart", "build_report", "faction_colors", "ink_on", "layout",
           "legend_html", "line_chart", "markdown_to_html", "table_html"]

#: the old private name, kept for callers outside the chronicle
_inline = inline


def _event_html(e: Event, names: Names, colors: dict[str, str]) -> str:
    """A key event in the GM's words, its dice folded."""
    dot = f'<span class="dot" style="background:{colors.get(e.faction or "", "#999")}"></span>'
    who = f"<b>{html.escape(names.faction(e.faction))}</b>: " if e.faction else ""
    t = told(describe(e, names.markdown()))
    dice = f" {dice_html(markdown_line(t.dice))}" if t.dice else ""
    return f"<li>{dot}{who}{inline(markdown_line(t.text))}{dice}</li>"


def _rumour_items(story: TurnStory | None, kinds: Any, colors: dict[str, str],
                  skip_top: bool = False) -> list[str]:
    """The key events of a turn as the players heard them (the rumours of those events);
    ``skip_top``: not the one the headline tells."""
    if story is None:
        return []
    out = []
    for fact, text in story.facts:
        if fact.kind in kinds and not (skip_top and fact is story.top):
            colour = colors.get(fact.factions[0] if fact.factions else "", "#999")
            out.append(f'<li><span class="dot" style="background:{colour}"></span>'
                       f"<b>{inline(fact.place)}</b>: {inline(text)}.</li>")
    return out


def table_html(headers: list[str], rows: list[list[Any]], dots: list[str] | None = None) -> str:
    """A table that stacks each row as a card on a narrow screen (each cell labelled)."""
    dots = dots or [""] * len(rows)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f'<td data-label="{html.escape(h)}">{dot if i == 0 else ""}'
                         f"{html.escape(str(c))}</td>"
                         for i, (h, c) in enumerate(zip(headers, row, strict=True))) + "</tr>"
        for dot, row in zip(dots, rows, strict=True))
    return f'<table class="stack"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _preface(path: Path, audience: str) -> str:
    """What the GM wrote above the first turn of the chronicle file (the title left out)."""
    chron = chronicle_paths(path)[audience]
    if not chron.is_file():
        return ""
    text = chron.read_text(encoding="utf-8").split("<!-- factionsim turn", 1)[0]
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return markdown_to_html("\n".join(lines))


def build_report(campaign: str | Path, view: str = "gm",
                 record: CampaignRecord | None = None) -> str:
    """The report of a campaign file and its history for ``view`` (``"gm"`` or ``"players"``),
    as one HTML document: what is shown comes from the ruleset's presentation
    (``RulesetInfo.present``), of what that audience may know. ``record``: the campaign's
    :class:`CampaignRecord` for ``view`` when the caller has it already."""
    path = Path(campaign)
    rec = record if record is not None else CampaignRecord(path, view)
    present = rec.info.present
    names = rec.names
    fids = list(names.factions)
    colors = faction_colors(fids)
    turns = rec.turns
    frames = [rec.frame(t) or {} for t in turns]
    per_frame = [present.series(d) for d in frames]
    charts = ""
    for key, title in present.charts:
        values = {f: [s.get(f, {}).get(key) for s in per_frame] for f in fids}
        if any(v is not None for vs in values.values() for v in vs):  # a secret: no chart
            charts += line_chart(title, turns, values, colors, names.factions, key)
    if present.map is not None:
        map_title = "The map, turn by turn"
        map_html = _MAP_BLOCK.format(map=map_svg(
            [present.map(d, names, view == "players") for d in frames], colors, names.factions))
    else:
        map_title, map_html = "Turn by turn", ""
    stories = {t: rec.story(t) for t in turns if t > 0}
    timeline_kinds = present.timeline_kinds or present.key_kinds
    panels, timeline = [], []
    for fi, t in enumerate(turns):
        if view == "players":
            items = _rumour_items(stories.get(t), present.key_kinds, colors, skip_top=True)
            marked = _rumour_items(stories.get(t), timeline_kinds, colors)
        else:
            key = [e for e in rec.events(t) if e.kind in present.key_kinds] if t else []
            items = [_event_html(e, names, colors) for e in key]
            marked = [_event_html(e, names, colors) for e in key if e.kind in timeline_kinds]
        story = stories.get(t)
        headline = (f'<p class="headline">{inline(story.headline)}</p>'
                    if story is not None and story.headline else "")
        heading = "Before the first turn" if t == 0 else names.turn_title(t)
        panels.append(f'<div class="panel" data-frame="{fi}"'
                      + ("" if fi == len(turns) - 1 else ' style="display:none"')
                      + f"><h3>{html.escape(heading)}</h3>{headline}<ul class=\"events\">"
                      + ("".join(items) or "<li>(nothing of note)</li>") + "</ul></div>")
        if marked:
            when = html.escape(names.turn_title(t))
            timeline.append(f'<li class="tturn"><span class="tnum">{when}</span><ul>'
                            + "".join(marked) + "</ul></li>")
    chronicle = _preface(path, view) + "".join(
        story_html(s) for t, s in stories.items() if s is not None)
    headers, rows = present.table(frames[-1])
    dots = [f'<span class="dot" style="background:{colors[f]}"></span>' for f in fids] \
        if present.colour_rows and len(rows) == len(fids) else None
    title = rec.state.name or path.stem
    data_js = json.dumps({"turns": turns, **_frame_dates(names.calendar, turns)}).replace("<", "\\u003c")
    subtitle = "the players' view" if view == "players" else "the GM's view"
    missing = rec.missing_history()
    return _TEMPLATE.format(
        title=html.escape(title), subtitle=subtitle, turn=rec.now,
        legend=legend_html(fids, names.factions, colors), charts=charts,
        table=table_html(headers, rows, dots), map_title=map_title,
        map=map_html, panels="".join(panels), last=len(turns) - 1,
        timeline="".join(timeline) or f"<li>{html.escape(missing or 'No key events yet.')}</li>",
        chronicle=chronicle or f"<p>{html.escape(missing or 'No turn played yet.')}</p>",
        data=data_js, css=CSS, js=_JS)


def _frame_dates(calendar: Any, turns: list[int]) -> dict[str, list[str]]:
    """``{"dates": [...]}`` for the slider with a calendar: the state after turn ``t`` is the
    state on the date turn ``t + 1`` begins (before turn 1: the start date); ``{}`` without."""
    return {} if calendar is None else {"dates": [calendar.label(t + 1) for t in turns]}


CSS = """
:root { --ink:#222; --muted:#5f6070; --line:#dde; --bg:#fbfaf7; }
* { box-sizing: border-box; }
body { font: 15px/1.5 Georgia, 'Times New Roman', serif; color: var(--ink); background: var(--bg);
       margin: 0; }
header { padding: 18px 32px 8px; border-bottom: 1px solid var(--line); background: #fff; }
h1 { margin: 0; font-size: 28px; } .sub { color: var(--muted); margin: 2px 0 6px; }
main { max-width: 1240px; margin: 0 auto; padding: 12px 24px 40px; }
h2 { font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
.legend { margin-right: 16px; white-space: nowrap; font-family: sans-serif; font-size: 13px;
          display: inline-block; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px;
       vertical-align: baseline; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; }
.chart { width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
.chart .grid { stroke: #eee; } .chart .tick { font: 10px sans-serif; fill: var(--muted); }
.chart .ctitle { font: bold 13px sans-serif; fill: var(--ink); }
.cursor { stroke: #999; stroke-dasharray: 3 3; }
.mapwrap { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); gap: 16px;
           align-items: start; }
.mapwrap > :only-child { grid-column: 1 / -1; }  /* no map: the turn's events take the width */
.mapscroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
#map { width: 100%; display: block; background: #fff; border: 1px solid var(--line);
       border-radius: 6px; }
#map .road { stroke: #b9b2a3; stroke-width: 2; }
#map .node { stroke: #555; stroke-width: 1.5; } #map .node.coast { stroke: #0072B2; stroke-width: 3.5; }
#map .plabel { font: bold 12px sans-serif; fill: #222; paint-order: stroke; stroke: #fff;
               stroke-width: 4px; stroke-linejoin: round; pointer-events: none; }
#map .blabel { font: bold 10px sans-serif; pointer-events: none; }
#map .place, #map .badge { cursor: pointer; outline: none; }
#map .selected rect, #map .selected .node { stroke: #000; stroke-width: 2.5; }
#map-info { font: 13px/1.4 sans-serif; white-space: pre-line; background: #fff; margin-top: 6px;
            border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; min-height: 2.2em; }
.controls { font-family: sans-serif; margin: 8px 0; display: flex; align-items: center; gap: 10px;
            flex-wrap: wrap; }
.controls input[type=range] { flex: 1; min-width: 140px; }
.controls button { font: 14px sans-serif; padding: 4px 12px; }
#frame-label { font-weight: bold; min-width: 140px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px;
         max-height: 560px; overflow: auto; }
.panel h3 { margin: 4px 0; }
p.headline { font-weight: bold; border-left: 4px solid #b9b2a3; padding-left: 8px; margin: 6px 0; }
ul.events { padding-left: 4px; list-style: none; margin: 0; } ul.events li { margin: 4px 0; }
.timeline { list-style: none; padding: 0; border-left: 3px solid var(--line); margin-left: 8px; }
.tturn { margin: 0 0 10px 0; padding-left: 14px; position: relative; }
.tturn::before { content: ''; position: absolute; left: -8px; top: 6px; width: 13px; height: 13px;
                 border-radius: 50%; background: #fff; border: 3px solid #b9b2a3; }
.tnum { font: bold 14px sans-serif; } .tturn ul { list-style: none; padding-left: 0; margin: 2px 0; }
table { border-collapse: collapse; font-family: sans-serif; font-size: 14px; background: #fff; }
td, th { border: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
.chronicle { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 24px;
             max-height: 900px; overflow: auto; }
.chronicle h2 { font-size: 22px; } .chronicle h3 { font-size: 19px; margin-bottom: 2px; }
.chronicle h4 { font-size: 15px; margin: 12px 0 2px; } .chronicle ul { margin-top: 2px; }
.chronicle .order { color: var(--muted); font-size: 14px; }
ul.why { font-style: italic; color: var(--muted); margin: 0; padding-left: 18px; }
ul.rumours li { margin: 4px 0; }
details.dice { display: inline; } details.dice summary { display: inline; cursor: pointer;
    list-style: none; font: 11px sans-serif; color: var(--muted); border: 1px solid var(--line);
    border-radius: 3px; padding: 0 4px; }
details.dice summary::-webkit-details-marker { display: none; }
details.dice[open] { font: 12px monospace; color: var(--muted); }
code { font-size: 13px; background: #f3f1ec; padding: 0 3px; border-radius: 3px; }
.keyhelp { font: 12px sans-serif; color: var(--muted); }
@media (max-width: 820px) {
  header { padding: 12px 14px 6px; } main { padding: 8px 12px 32px; }
  .mapwrap { grid-template-columns: minmax(0, 1fr); }
  .chronicle { padding: 4px 12px; }
}
@media (max-width: 600px) {
  h1 { font-size: 23px; }
  #map { min-width: 640px; }
  #map .plabel { font-size: 14px; } #map .blabel { font-size: 11px; }
  table.stack thead { display: none; }
  table.stack, table.stack tbody, table.stack tr { display: block; width: 100%; }
  table.stack tr { margin-bottom: 8px; border: 1px solid var(--line); border-radius: 6px;
                   padding-bottom: 4px; }
  table.stack td { display: inline-block; border: none; padding: 2px 10px 0 10px; }
  table.stack td:first-child { display: block; font-weight: bold; background: #f7f5f0;
                               padding: 3px 10px; }
  table.stack td:not(:first-child)::before { content: attr(data-label) ": "; color: var(--muted); }
}
@media print {
  .controls, .keyhelp, #map-info { display: none; }
  .chronicle, .panel { max-height: none; overflow: visible; }
  details.dice > *:not(summary) { display: inline; }
}
"""

#: the map with how to read it and its details box (a ruleset without a map has neither)
_MAP_BLOCK = """<div><p class="keyhelp">Each badge is a faction at that place: &#9632;N is a Base of Influence
with N HP, +N (or N) its other assets. A place filled with a faction's colour is ruled by it; a
blue ring marks the coast. Tap (or hover over) a place or a badge for its details; on a small
screen the map pans sideways.</p>
<div class="mapscroll">{map}</div>
<div id="map-info"
 data-empty="Tap a place or a badge for its details.">Tap a place or a badge for its details.</div></div>"""

_JS = """
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var slider = document.getElementById('frame');
  var label = document.getElementById('frame-label');
  var info = document.getElementById('map-info');
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
    if (info) { info.textContent = info.getAttribute('data-empty'); }
  }
  function pick(el) {
    document.querySelectorAll('#map .selected').forEach(function (s) { s.classList.remove('selected'); });
    el.classList.add('selected');
    info.textContent = el.getAttribute('data-tip');
  }
  document.querySelectorAll('#map [data-tip]').forEach(function (el) {
    el.addEventListener('click', function (ev) { ev.stopPropagation(); pick(el); });
    el.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { pick(el); } });
  });
  if (slider) {
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
  }
})();
"""

_TEMPLATE = page_head("{title}: campaign report") + """<body>
<header>
<h1>{title}</h1>
<p class="sub">Campaign report after turn {turn}, {subtitle}. Made by factionsim.</p>
<div>{legend}</div>
</header>
<main>
<h2>The factions now</h2>
{table}
<h2>Over time</h2>
<div class="charts">{charts}</div>
<h2>{map_title}</h2>
<div class="controls"><button id="play" type="button">Play</button>
<input id="frame" type="range" min="0" max="{last}" value="{last}" step="1" aria-label="turn">
<span id="frame-label"></span></div>
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
