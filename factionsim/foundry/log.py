"""The chronicle's lines as entries of a Foundry faction log (``system.log``).

The sheet's Log tab prints each entry as HTML, oldest first. The export appends one entry per
turn played since the import, holding that turn's chronicle lines that concern the faction: what
it did, and what others did to it (prefixed with their name, as in the chronicle). Lines are
HTML-escaped, the chronicle's ``**bold**``/``*italic*`` become ``<strong>``/``<em>``, and the
entry is marked with its turn (``data-factionsim-turn``), so a later import knows how far the
log already goes::

    <div class="factionsim-log" data-factionsim-turn="3"><p><strong>Turn 3 (1 Frost 1203)</strong>
    </p><ul><li>Earns 5 Treasure (now 14).</li>...</ul></div>

(one line in the file).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from factionsim.chronicle.html import inline
from factionsim.chronicle.story import concerns, faction_lines
from factionsim.core.game import Event
from factionsim.core.names import Names

__all__ = ["concerns", "entry_html", "faction_lines", "logged_turn", "turn_entry"]

_MARK = re.compile(r'data-factionsim-turn="(\d+)"')


def turn_entry(turn: int, events: Iterable[Event], names: Names, faction: str) -> str | None:
    """Turn ``turn``'s log entry for ``faction`` (``None`` when nothing concerned it)."""
    return entry_html(turn, faction_lines(events, names, faction), names)


def entry_html(turn: int, lines: list[str], names: Names) -> str | None:
    """A log entry of markdown ``lines`` (``None`` without lines)."""
    if not lines:
        return None
    items = "".join(f"<li>{inline(line)}</li>" for line in lines)
    return (f'<div class="factionsim-log" data-factionsim-turn="{turn}"><p><strong>'
            f"{html.escape(names.turn_title(turn), quote=False)}</strong></p><ul>{items}</ul></div>")


def logged_turn(log: list[str]) -> int | None:
    """The last turn the log already has an entry of (from an earlier export), else ``None``."""
    turns = [int(m.group(1)) for entry in log for m in _MARK.finditer(entry)]
    return max(turns) if turns else None
