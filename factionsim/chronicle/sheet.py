"""Faction sheets: one printable page per faction, in HTML and markdown, like the sheets GMs
keep: its numbers and words, its assets with their stats and places, its goal (the GM's sheet),
and its recent history (the last turns' lines that concern it; for the players, the rumours,
or, in a ruleset without rumours, the events they may know told without dice).

What a sheet shows comes from the ruleset's presentation (``Presentation.faction_sheet``) of
what its audience may know (:class:`~factionsim.chronicle.record.CampaignRecord`): the players'
sheet is made from the players' data and rumours alone.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from factionsim.core.presentation import Sheet
from factionsim.core.text import markdown_text

from .charts import faction_colors, ink_on
from .html import inline, page_head
from .record import CampaignRecord
from .report import table_html
from .story import faction_lines

#: how many of the last played turns a sheet's history tells
RECENT_TURNS = 3


@dataclass
class FactionSheet:
    """One faction's sheet: its ``sheet`` (numbers, tables) and ``history`` (turn title,
    markdown lines), newest turn first."""

    faction: str
    name: str
    campaign: str
    turn: int
    audience: str
    sheet: Sheet
    history: list[tuple[str, list[str]]]
    colour: str


def faction_sheets(rec: CampaignRecord, factions: list[str] | None = None,
                   recent: int = RECENT_TURNS) -> list[FactionSheet]:
    """The sheets of ``factions`` (default: every faction) of a campaign record."""
    frame = rec.frame() or {}
    names = rec.names
    colours = faction_colors(list(names.factions))
    played = rec.played_turns()[-recent:][::-1] if recent else []
    out = []
    for fid in factions or list(names.factions):
        history = []
        for t in played:
            if rec.audience == "players" and rec.info.rumours is not None:  # WWN: rumours
                story = rec.story(t)
                lines = [] if story is None else [
                    f"{fact.place}: {text}." for fact, text in story.facts
                    if fid in fact.factions]
            else:  # the GM's lines, or the events the players may know, without dice
                lines = faction_lines(rec.events(t), names, fid, rec.audience)
            if lines:
                history.append((names.markdown().turn_title(t), lines))
        out.append(FactionSheet(fid, names.faction(fid), rec.state.name or rec.path.stem,
                                rec.now, rec.audience, rec.info.present.faction_sheet(frame, fid),
                                history, colours.get(fid, "#888888")))
    return out


def _cell(value: Any) -> str:
    text = str(value)
    return text if text == "-" else markdown_text(text).replace("|", "\\|")


def sheet_markdown(s: FactionSheet) -> str:
    """A sheet as markdown: the name, the numbers as a two-column table, the tables, the
    recent history."""
    who = "the players' sheet" if s.audience == "players" else "the GM's sheet"
    lines = [f"# {markdown_text(s.name)}", "",
             f"*{markdown_text(s.campaign)}, after turn {s.turn}: {who}.*", ""]
    if s.sheet.stats:
        lines += ["| | |", "|---|---|"]
        lines += [f"| **{_cell(k)}** | {_cell(v)} |" for k, v in s.sheet.stats]
        lines.append("")
    for table in s.sheet.tables:
        lines += [f"## {markdown_text(table.title)}", ""]
        if not table.rows:
            lines += ["(none)", ""]
            continue
        lines.append("| " + " | ".join(_cell(h) for h in table.headers) + " |")
        lines.append("|" + "---|" * len(table.headers))
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
        lines.append("")
    lines += ["## Recent history", ""]
    for title, told in s.history:
        lines += [f"### {title}", "", *(f"- {line}" for line in told), ""]
    if not s.history:
        lines.append("Nothing recorded yet.")
    return "\n".join(lines).rstrip() + "\n"


def sheet_html(s: FactionSheet) -> str:
    """A sheet as one self-contained, printable HTML page (no script, no network)."""
    who = "the players' sheet" if s.audience == "players" else "the GM's sheet"
    stats = "".join(f"<div class=\"stat\"><span>{html.escape(str(k))}</span>"
                    f"<b>{html.escape(str(v))}</b></div>" for k, v in s.sheet.stats)
    tables = "".join(f"<h2>{html.escape(t.title)}</h2>"
                     + (table_html(t.headers, t.rows) if t.rows else "<p>(none)</p>")
                     for t in s.sheet.tables)
    history = "".join(f"<h3>{inline(title)}</h3><ul>"
                      + "".join(f"<li>{inline(line)}</li>" for line in told) + "</ul>"
                      for title, told in s.history) or "<p>Nothing recorded yet.</p>"
    return _SHEET.format(
        name=html.escape(s.name), campaign=html.escape(s.campaign), turn=s.turn, who=who,
        colour=s.colour, ink=ink_on(s.colour), stats=stats, tables=tables, history=history,
        css=_CSS)


_CSS = """
* { box-sizing: border-box; }
body { font: 15px/1.45 Georgia, 'Times New Roman', serif; color: #222; background: #fbfaf7;
       margin: 0; }
.page { max-width: 900px; margin: 0 auto; padding: 18px 24px 32px; background: #fff;
        min-height: 100vh; }
.banner { padding: 10px 16px; border-radius: 6px; }
.banner h1 { margin: 0; font-size: 28px; } .banner p { margin: 2px 0 0; font: 13px sans-serif; }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 6px;
         margin: 14px 0; }
.stat { border: 1px solid #dde; border-radius: 6px; padding: 4px 10px; }
.stat span { display: block; font: 12px sans-serif; color: #5f6070; }
.stat b { font: bold 16px sans-serif; }
h2 { font-size: 19px; border-bottom: 1px solid #dde; padding-bottom: 3px; margin: 20px 0 8px; }
h3 { font-size: 15px; margin: 12px 0 2px; }
table { border-collapse: collapse; font: 14px sans-serif; width: 100%; }
td, th { border: 1px solid #dde; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f7f5f0; }
ul { margin: 2px 0; padding-left: 20px; } li { margin: 2px 0; }
@media (max-width: 600px) {
  .page { padding: 10px 10px 24px; }
  table.stack thead { display: none; }
  table.stack, table.stack tbody, table.stack tr { display: block; width: 100%; }
  table.stack tr { margin-bottom: 6px; border: 1px solid #dde; border-radius: 6px; }
  table.stack td { display: inline-block; border: none; padding: 2px 8px; }
  table.stack td:first-child { display: block; font-weight: bold; background: #f7f5f0; }
  table.stack td:not(:first-child)::before { content: attr(data-label) ": "; color: #5f6070; }
}
@media print {
  body { background: #fff; } .page { max-width: none; padding: 0; }
  .banner { border: 2px solid #222; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2, h3, tr { break-inside: avoid; }
}
"""

_SHEET = page_head("{name}: faction sheet") + """<body><div class="page">
<div class="banner" style="background:{colour};color:{ink}"><h1>{name}</h1>
<p>{campaign}, after turn {turn}: {who}. Made by factionsim.</p></div>
<div class="stats">{stats}</div>
{tables}
<h2>Recent history</h2>
{history}
</div></body>
</html>
"""
