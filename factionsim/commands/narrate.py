"""What a GM at the table sees while ``factionsim turn`` asks them (``--interactive``, or a
faction with ``agent: manual``): each thing that happens, as it happens (so the outcome of every
action the GM accepted follows it), and after each turn what was saved and where each faction
stands.

>>> from factionsim.configs import default_campaign_path
>>> from factionsim.core.game import Event
>>> from factionsim.rulesets import load_campaign
>>> n = Narrator(load_campaign(default_campaign_path()))
>>> n([Event(1, "faction-turn", "iron-legion", {}),
...    Event(1, "income", "iron-legion", {"amount": 4, "treasure": 14})])
<BLANKLINE>
-- The Iron Legion's turn
   Earns 4 Treasure (now 14).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factionsim.core.game import Event

#: kinds the GM does not need told as they happen (shown at the prompt, or bookkeeping)
_UNTOLD = frozenset({"decision", "turn-end", "gm-veto"})


class Narrator:
    """``on_events`` for :func:`factionsim.runner.play`: prints the events of ``state`` in its
    ruleset's prose; :meth:`turn_saved` prints the summary after each turn."""

    def __init__(self, state: Any):
        from factionsim.chronicle import Names
        from factionsim.rulesets import ruleset_of

        self.state = state
        self.names = Names.from_state(state)
        self.present = ruleset_of(state).present

    def __call__(self, events: list[Event]) -> None:
        from factionsim.chronicle.markdown import describe

        for e in events:
            if e.kind in _UNTOLD:
                continue
            if e.kind in ("initiative", "round"):
                order = ", ".join(self.names.faction(f) for f in e.data.get("order", []))
                print(f"\n== {self.names.turn_title(e.turn)}: {order} ==")
            elif e.kind == "faction-turn":
                print(f"\n-- {self.names.faction(e.faction)}'s turn")
            else:
                print(f"   {describe(e, self.names)}")

    def turn_saved(self, path: Path, start: int) -> None:
        """After turn ``state.turn`` was committed: what was saved, and each faction now."""
        print(f"\nTurn {self.state.turn} saved in {path} ('factionsim undo {path}' steps back; "
              f"{self.state.turn - start} turn(s) saved this session). Now:")
        for fid in self.state.factions:
            print(f"  {self.present.faction_line(self.state, fid)}")
