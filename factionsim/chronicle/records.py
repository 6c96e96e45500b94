"""The chronicle blocks of the GM's records (``factionsim record``, see
:mod:`factionsim.core.records`).

>>> from factionsim.core.names import Names
>>> from factionsim.core.records import gm_event
>>> ev = gm_event(3, "note", {"text": ["The party burned the granary."]},
...               "The party burned the granary.", public=True)
>>> print(record_blocks(Names(), (3, 1), [ev], None)["players"], end="")
## After Turn 3: at the table
<BLANKLINE>
- The party burned the granary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.records import GM_RECORD
from factionsim.core.text import markdown_text

from .views import render_turn, visible_events

__all__ = ["record_blocks"]


def record_blocks(names: Names, step: tuple[int, int], events: Sequence[Event],
                  before: dict[str, Any] | None) -> dict[str, str]:
    """The chronicle blocks (``{"gm": ..., "players": ...}``) of the GM's record ``step``
    (``(turn, n)``: record ``n`` after turn ``turn``); ``before``: the campaign data before it
    (what the players could know then).

    The GM reads the summary, the GM's own sentence and everything the rules did; the players
    read the GM's sentence (the summary of a note) and what they may see of the rules' events,
    only when the record is not secret; an empty players' block means no block at all."""
    head = next((e for e in events if e.kind == GM_RECORD), None)
    data = head.data if head is not None else {}
    rest = [e for e in events if e is not head]
    title = f"## After {names.markdown().turn_title(step[0])}: at the table"
    summary, text = str(data.get("summary", "")), str(data.get("text", ""))
    note = data.get("record") == "note"
    said = [f"At the table: {text}"] if text else []
    told = {"gm": ([summary if note else f"GM's record: {summary}"] if summary else []) + said,
            "players": ([summary] if note and summary else []) + ([text] if text else [])}
    out: dict[str, str] = {}
    for view in ("gm", "players"):
        lines = [f"- {markdown_text(line)}" for line in told[view]]
        if rest and (view == "gm" or data.get("public", True)):
            lines += _told(rest, names, view, before)
        if view == "players" and (not data.get("public", True) or not lines):
            out[view] = ""
            continue
        out[view] = f"{title}\n\n" + "\n".join(lines) + "\n"
    return out


def _told(events: Sequence[Event], names: Names, audience: str,
          before: dict[str, Any] | None) -> list[str]:
    """What the rules did in a record, one line per event as the GM's chronicle tells it, and
    only the events ``audience`` may know of (:func:`~factionsim.chronicle.views.visible_events`):
    a record is told as it happened, not as the turn's rumours, and without the turn's heading."""
    shown = visible_events(names.ruleset, events, audience, before) if names.ruleset \
        else list(events)
    text = render_turn(shown, names, "gm", before) if shown else ""
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
