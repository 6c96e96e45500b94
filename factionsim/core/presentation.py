"""How a ruleset's campaigns are shown: what the HTML report, ``factionsim show`` and the
summaries of ``run`` and ``turn`` ask of a ruleset (:class:`Presentation`), and the plain-text
table they print (:func:`text_table`).

A *frame* is a campaign's data as saved (``state.to_dict()``, or a turn's snapshot in the
history), so the report can show any recorded turn without rebuilding the game.

>>> print(text_table(["a", "bb"], [["x", 1], ["yyy", 22]]))
a    bb
---  --
x     1
yyy  22
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from factionsim.core.names import Names

#: A campaign's data at one point in time (``to_dict()`` / a history snapshot).
Frame = dict[str, Any]


@dataclass(frozen=True)
class Place:
    """A location on the report's map, in one frame."""

    id: str
    name: str
    neighbors: tuple[str, ...] = ()
    ruler: str | None = None
    coastal: bool = False


@dataclass(frozen=True)
class Badge:
    """What one faction has at one place: a short ``label`` drawn in its colour, and a ``tip``
    (the details shown on hover)."""

    faction: str
    label: str
    tip: str


@dataclass(frozen=True)
class MapFrame:
    """The map at one recorded turn: the places, and the badges at each place (faction order)."""

    places: list[Place]
    badges: dict[str, list[Badge]] = field(default_factory=dict)


@dataclass(frozen=True)
class SheetTable:
    """A table of a faction sheet (its assets, its characters...)."""

    title: str
    headers: list[str]
    rows: list[list[Any]]


@dataclass(frozen=True)
class Sheet:
    """What a faction sheet shows of one faction in a frame: its numbers and words as
    ``stats`` (label, value), then ``tables``."""

    stats: list[tuple[str, Any]]
    tables: list[SheetTable] = field(default_factory=list)


def text_table(headers: list[str], rows: list[list[Any]]) -> str:
    """Plain-text columns; numbers right-aligned."""
    cells = [[str(c) for c in r] for r in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    numeric = [all(isinstance(r[i], int) for r in rows) and rows != [] for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        return "  ".join(c.rjust(w) if num else c.ljust(w)
                         for c, w, num in zip(row, widths, numeric, strict=True)).rstrip()

    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths), *map(fmt, cells)])


#: ``factionsim show`` fits a terminal this wide
SHOW_WIDTH = 100


def clip(text: object, width: int) -> str:
    """``text`` cut to ``width`` characters (``...`` at the end when cut).

    >>> clip("The Church of the Pale Dawn", 12)
    'The Churc...'
    """
    s = str(text)
    return s if len(s) <= width else s[:max(0, width - 3)] + "..."


def fitted_table(headers: list[str], rows: list[list[Any]], width: int = SHOW_WIDTH) -> str:
    """:func:`text_table` when it fits in ``width`` columns; else one block per row: its first
    cell, then its ``header: value`` pairs, as many to a line as fit (nothing is cut). Rows
    that follow one another with the same first cell (a side's characters) share one heading.

    >>> print(fitted_table(["house", "PP", "assets"], [["Aldren", 1, "Castle d10, Town d8"]],
    ...                    width=24))
    Aldren
      PP: 1
      assets: Castle d10,
        Town d8
    >>> print(fitted_table(["side", "who", "HP"], [["Wardens", "Ash", 13], ["Wardens", "Bryn", 12],
    ...                    ["Legion", "Vor", 11]], width=12))
    Wardens
      who: Ash
      HP: 13
    <BLANKLINE>
      who: Bryn
      HP: 12
    <BLANKLINE>
    Legion
      who: Vor
      HP: 11
    """
    table = text_table(headers, rows)
    if max(len(line) for line in table.splitlines()) <= width:
        return table
    blocks = []
    for i, row in enumerate(rows):
        pairs = [f"{h}: {c}" for h, c in zip(headers[1:], row[1:], strict=True)
                 if str(c) not in ("", "-")]
        heading = [] if i and rows[i - 1][0] == row[0] else [clip(row[0], width)]
        blocks.append("\n".join([*heading, *packed(pairs, width, "  ")]))
    return "\n\n".join(blocks)


def packed(items: list[str], width: int, indent: str = "") -> list[str]:
    """``items`` on lines of at most ``width`` characters, two spaces apart, each line starting
    with ``indent``; an item too long for a line is wrapped on its own (continued two spaces
    further in).

    >>> packed(["a: 1", "b: 2", "c: 3"], 10)
    ['a: 1  b: 2', 'c: 3']
    """
    import textwrap

    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + 2 + len(item) <= width:
            line += "  " + item
            continue
        if line:
            lines.append(line)
        line = indent + item
        if len(line) > width:
            *full, line = textwrap.wrap(line, width, subsequent_indent=indent + "  ",
                                        break_on_hyphens=False)
            lines += full
    if line:
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Presentation:
    """What a ruleset gives the report, ``show`` and the command summaries.

    Of a frame (any recorded turn):

    - ``names(frame)``: the display names (:class:`Names`);
    - ``table(frame)``: ``(headers, rows)``, the report's table of the factions now and the body
      of ``factionsim show`` (unless ``show`` is given); ``colour_rows``: each row is one
      faction, in campaign order (the report marks it with the faction's colour);
    - ``charts``: ``(key, title)`` of each chart over time; ``series(frame)``: faction -> key ->
      value (a faction missing from a frame has no point there);
    - ``key_kinds``: the event kinds the report's turn panels list; ``timeline_kinds`` those of
      its timeline (default: the same);
    - ``map(frame, names, hide_stealth)``: the report's map at that turn (:class:`MapFrame`), or
      ``None`` for a ruleset without places;
    - ``sheet(frame, faction)``: a faction's sheet (:class:`Sheet`); the default shows the
      faction's row(s) of ``table``.

    A frame may be the players' (:mod:`factionsim.core.visibility`): its secrets are absent,
    and what is built from it must leave them out (a column, a chart without values).

    Of the state now (each has a plain default built from the above):

    - ``show(state)`` / ``show_json(state)``: what ``factionsim show`` prints (in
      :data:`SHOW_WIDTH` columns: :func:`fitted_table`, :func:`clip`);
    - ``status(state)``: each faction's numbers in ``factionsim turn --json``;
      ``status_line(state, faction)``: its line in ``turn``'s printed summary;
    - ``describe(state)``: what ``factionsim validate`` says after "turn N, ";
    - ``action_note(state, action)``: a line on a legal action for the GM choosing it (cost,
      stats, odds: ``turn --interactive`` and ``agent: manual``), see :meth:`note`.
    """

    names: Callable[[Frame], Names]
    table: Callable[[Frame], tuple[list[str], list[list[Any]]]]
    charts: tuple[tuple[str, str], ...]
    series: Callable[[Frame], dict[str, dict[str, float | None]]]
    key_kinds: frozenset[str] | tuple[str, ...]
    timeline_kinds: frozenset[str] | tuple[str, ...] | None = None
    colour_rows: bool = False
    map: Callable[[Frame, Names, bool], MapFrame] | None = None
    show: Callable[[Any], str] | None = None
    show_json: Callable[[Any], dict[str, Any]] | None = None
    status: Callable[[Any], dict[str, dict[str, Any]]] | None = None
    status_line: Callable[[Any, str], str] | None = None
    describe: Callable[[Any], str] | None = None
    sheet: Callable[[Frame, str], Sheet] | None = None
    action_note: Callable[[Any, Any], str] | None = None

    def note(self, state: Any, action: Any) -> str:
        """One line on a legal action for the GM choosing it (cost, stats, odds), or ``""``."""
        if self.action_note is None:
            return ""
        try:
            return self.action_note(state, action)
        except Exception:  # noqa: BLE001 - a note is help, never a reason to stop the GM's turn
            return ""

    # ------------------------------------------------------------------ with their defaults
    def show_text(self, state: Any) -> str:
        """``factionsim show``: the name and turn, then :attr:`table` of the campaign now."""
        if self.show is not None:
            return self.show(state)
        headers, rows = self.table(state.to_dict())
        title = clip(f"{state.name or 'Campaign'}: after turn {state.turn}", SHOW_WIDTH)
        return f"{title}\n\n{fitted_table(headers, rows)}\n"

    def show_data(self, state: Any) -> dict[str, Any]:
        """``factionsim show --json``: the table's rows as objects keyed by the headers."""
        if self.show_json is not None:
            return self.show_json(state)
        headers, rows = self.table(state.to_dict())
        return {"name": state.name, "turn": state.turn, "seed": state.seed,
                "factions": [dict(zip(headers, r, strict=True)) for r in rows]}

    def faction_status(self, state: Any) -> dict[str, dict[str, Any]]:
        """Each faction's name and :meth:`GameState.faction_summary` numbers."""
        if self.status is not None:
            return self.status(state)
        return {fid: {"name": state.factions[fid].name, **v}
                for fid, v in state.faction_summary().items()}

    def faction_line(self, state: Any, faction: str) -> str:
        """``Name: key value, key value`` (``Name: collapsed`` for a faction out of the game)."""
        if self.status_line is not None:
            return self.status_line(state, faction)
        v = state.faction_summary()[faction]
        details = ", ".join(f"{k} {x}" for k, x in v.items() if k != "alive")
        return f"{state.factions[faction].name}: {details if v['alive'] else 'collapsed'}"

    def faction_sheet(self, frame: Frame, faction: str) -> Sheet:
        """A faction's sheet: :attr:`sheet`, else its row of :attr:`table` as numbers (or its
        rows as a table, where the table has several per faction)."""
        if self.sheet is not None:
            return self.sheet(frame, faction)
        headers, rows = self.table(frame)
        name = self.names(frame).faction(faction)
        mine = [r for r in rows if r and r[0] == name]
        if len(mine) == 1:
            return Sheet(list(zip(headers[1:], mine[0][1:], strict=True)))
        return Sheet([], [SheetTable(headers[1] if len(headers) > 1 else "", headers[1:],
                                     [r[1:] for r in mine])])

    def frame_text(self, frame: Frame, title: str) -> str:
        """``show --players``: ``title``, the table of the frame and, for a ruleset with a map,
        every place with its ruler and who is seen there."""
        import textwrap

        headers, rows = self.table(frame)
        lines = [title, "", text_table(headers, rows)]
        places = self.places(frame)
        if places:
            left = max(len(p["name"]) for p in places) + max(len(p["ruler"] or "-")
                                                             for p in places) + 4
            width = max(30, 100 - left)
            table = []
            for p in places:
                seen = [part for tip in p["seen"] or ["-"]
                        for part in textwrap.wrap(tip, width, subsequent_indent="  ")]
                table += [[p["name"] if i == 0 else "", (p["ruler"] or "-") if i == 0 else "",
                           part] for i, part in enumerate(seen)]
            lines += ["", "PLACES", text_table(["place", "ruled by", "who is seen there"], table)]
        return "\n".join(lines) + "\n"

    def frame_data(self, frame: Frame) -> dict[str, Any]:
        """``show --players --json``: the table's rows as objects, and the places."""
        headers, rows = self.table(frame)
        return {"name": frame.get("name"), "turn": frame.get("turn"),
                "factions": [dict(zip(headers, r, strict=True)) for r in rows],
                "places": self.places(frame)}

    def places(self, frame: Frame) -> list[dict[str, Any]]:
        """Each place of the map (none without one): name, ruler's name, what is seen there."""
        if self.map is None:
            return []
        names = self.names(frame)
        m = self.map(frame, names, True)
        return [{"name": p.name, "ruler": names.faction(p.ruler) if p.ruler else None,
                 "seen": [b.tip for b in m.badges.get(p.id, [])]} for p in m.places]

    def campaign_text(self, state: Any) -> str:
        """What ``validate`` reports of a valid campaign after its turn: ``N factions``..."""
        if self.describe is not None:
            return self.describe(state)
        return f"{len(state.factions)} factions"
