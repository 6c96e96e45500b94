"""A forecast as one self-contained HTML page (inline SVG and CSS, no script, no network): the
chances per faction, the most likely headlines, the places likely to change hands, and a fan
chart (median and 10-90% band) of each of the ruleset's numbers. The colours, styles and chart
frame are the campaign report's (:mod:`.report`), so a faction looks the same in both.
"""

from __future__ import annotations

import html
from typing import Any

from factionsim.core.stats import share_text

from .html import page_head
from .report import CSS, band_chart, faction_colors, legend_html

#: Headlines listed on the page (the JSON has them all).
PAGE_HEADLINES = 25

_EXTRA_CSS = """
.bar { display: inline-block; height: 10px; background: #b9b2a3; vertical-align: middle;
       margin-right: 8px; border-radius: 2px; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.note { font: 13px sans-serif; color: var(--muted); }
"""


def _share(share: dict[str, Any] | None) -> str:
    return "-" if share is None else html.escape(share_text(share))


def _end(fan: dict[str, list[float | None]]) -> str:
    lo, mid, hi = fan["p10"][-1], fan["median"][-1], fan["p90"][-1]
    return "-" if mid is None else f"{mid:g} ({lo:g}-{hi:g})"


def forecast_html(forecast: dict[str, Any], title: str) -> str:
    """The page of a forecast (:func:`factionsim.forecast.run_forecast`'s result)."""
    fids = list(forecast["factions"])
    colors = faction_colors(fids)
    names = {fid: f["name"] for fid, f in forecast["factions"].items()}
    charts = forecast["charts"]
    start, turns = forecast["start_turn"], forecast["turns"]
    asked = [(key, head) for key, head in (("goal", "completes a goal"),
                                           ("headquarters_lost", "loses its headquarters"))
             if any(f[key] is not None for f in forecast["factions"].values())]
    head = ["faction", *(h for _k, h in asked), "collapses",
            *(f"{t} after turn {start + turns}" for _k, t in charts)]
    rows = []
    for fid, f in forecast["factions"].items():
        cells = [*(_share(f[key]) for key, _h in asked),
                 _share(f["collapse"]) if f["alive_now"] else "collapsed",
                 *(html.escape(_end(f["fan"][k])) for k, _t in charts)]
        rows.append(f'<tr><td><span class="dot" style="background:{colors[fid]}"></span>'
                    f"{html.escape(f['name'])}</td>" + "".join(f'<td class="num">{c}</td>' for c in cells)
                    + "</tr>")
    headlines = "".join(
        f'<li><span class="bar" style="width:{h["p"] * 160:.0f}px"></span><b>{_share(h)}</b> '
        f"{html.escape(h['text'])}</li>" for h in forecast["headlines"][:PAGE_HEADLINES]
    ) or "<li>Nothing of note in any future.</li>"
    places = []
    for fid, f in forecast["factions"].items():
        for h in f["holdings"]:
            places.append(f'<tr><td><span class="dot" style="background:{colors[fid]}"></span>'
                          f"{html.escape(f['name'])}</td><td>{html.escape(h['label'])}</td>"
                          f"<td>{'held now' if h['held_now'] else 'not held now'}</td>"
                          f'<td>{h["change"]}</td><td class="num">{_share(h)}</td></tr>')
    turn_axis = list(range(start, start + turns + 1))
    fans = "".join(
        band_chart(f"{t}: median and 10-90%", turn_axis,
                   {fid: (f["fan"][k]["p10"], f["fan"][k]["median"], f["fan"][k]["p90"])
                    for fid, f in forecast["factions"].items()}, colors, names)
        for k, t in charts)
    places_html = (
        "<table><tr><th>faction</th><th>place</th><th>now</th><th>at the end</th><th>chance</th></tr>"
        + "".join(places) + "</table>") if places else "<p>No place changes hands in any future.</p>"
    sub = (f"{forecast['runs']} futures of turns {start + 1}-{start + turns} from the campaign as it "
           f"stands after turn {start} (seed {forecast['seed']}); each chance with its 95% interval")
    return _PAGE.format(
        css=CSS + _EXTRA_CSS, title=html.escape(title), sub=html.escape(sub),
        legend=legend_html(fids, names, colors),
        head="".join(f"<th>{html.escape(h)}</th>" for h in head), rows="".join(rows),
        headlines=headlines, places=places_html, fans=fans, shown=PAGE_HEADLINES)


_PAGE = page_head("{title}: forecast") + """<body>
<header>
<h1>{title}: what will probably happen</h1>
<p class="sub">{sub}. Made by factionsim.</p>
<div>{legend}</div>
</header>
<main>
<h2>The factions</h2>
<table><tr>{head}</tr>
{rows}</table>
<p class="note">Numbers at the end: the median of the futures, then the 10% and 90% quantiles.</p>
<h2>Most likely events</h2>
<p class="note">The chance each happens at least once (the {shown} likeliest).</p>
<ul class="events">{headlines}</ul>
<h2>Places that may change hands</h2>
{places}
<h2>Over the turns</h2>
<div class="charts">{fans}</div>
</main>
</body>
</html>
"""
