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

from factionsim.chronicle.markdown import describe
from factionsim.chronicle.report import _inline
from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.text import markdown_line

#: event kinds that structure the chronicle rather than tell something
_FRAME_KINDS = frozenset({"initiative", "round", "faction-turn", "turn-end", "decision"})
#: data keys that name the other faction an event concerns
_OTHER_FACTION_KEYS = ("owner", "target_faction", "rival")
_MARK = re.compile(r'data-factionsim-turn="(\d+)"')


def concerns(event: Event, faction: str) -> bool:
    """Whether ``event`` is the faction's doing or happens to it."""
    return event.faction == faction or any(event.data.get(k) == faction
                                           for k in _OTHER_FACTION_KEYS)


def faction_lines(events: Iterable[Event], names: Names, faction: str) -> list[str]:
    """The chronicle's sentences (markdown) of ``events`` that concern ``faction``; names are
    plain text, escaped as the chronicle escapes them (:meth:`Names.markdown`)."""
    names = names.markdown()
    out = []
    for e in events:
        if e.kind in _FRAME_KINDS or not concerns(e, faction):
            continue
        text = markdown_line(describe(e, names))
        if e.faction not in (faction, None):
            text = f"({names.faction(e.faction)}) {text}"
        out.append(text)
    return out


def turn_entry(turn: int, events: Iterable[Event], names: Names, faction: str) -> str | None:
    """Turn ``turn``'s log entry for ``faction`` (``None`` when nothing concerned it)."""
    lines = faction_lines(events, names, faction)
    if not lines:
        return None
    items = "".join(f"<li>{_inline(line)}</li>" for line in lines)
    return (f'<div class="factionsim-log" data-factionsim-turn="{turn}"><p><strong>'
            f"{html.escape(names.turn_title(turn), quote=False)}</strong></p><ul>{items}</ul></div>")


def logged_turn(log: list[str]) -> int | None:
    """The last turn the log already has an entry of (from an earlier export), else ``None``."""
    turns = [int(m.group(1)) for entry in log for m in _MARK.finditer(entry)]
    return max(turns) if turns else None
