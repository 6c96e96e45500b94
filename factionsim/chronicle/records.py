"""The chronicle blocks of the GM's records (``factionsim record``, see
:mod:`factionsim.core.records`).

>>> from factionsim.core.names import Names
>>> from factionsim.core.records import gm_event
>>> ev = gm_event(3, "note", {"text": ["The party burned the granary."]},
...               "The party burned the granary.", public=True)
>>> print(record_blocks(Names(), (3, 1), [ev], set())["players"], end="")
## After Turn 3: at the table
<BLANKLINE>
- The party burned the granary.
"""

from __future__ import annotations

from collections.abc import Sequence

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.records import GM_RECORD
from factionsim.core.text import markdown_text

from .views import render_turn

__all__ = ["record_blocks"]


def record_blocks(names: Names, step: tuple[int, int], events: Sequence[Event],
                  hidden: set[str]) -> dict[str, str]:
    """The chronicle blocks (``{"gm": ..., "players": ...}``) of the GM's record ``step``
    (``(turn, n)``: record ``n`` after turn ``turn``); ``hidden``: the assets Stealthed before it.

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
            shown = render_turn(list(rest), names, view, hidden).strip()
            lines += [line for line in shown.splitlines() if line.strip()]
        if view == "players" and (not data.get("public", True) or not lines):
            out[view] = ""
            continue
        out[view] = f"{title}\n\n" + "\n".join(lines) + "\n"
    return out
