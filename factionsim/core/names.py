"""Display names for the ids events carry (factions, locations, asset types), and the ruleset
whose prose tells the events: what a ruleset's ``prose`` sentence makers are given.

>>> n = Names({"iron-legion": "The Iron Legion"}, {"tarsis": "Tarsis"}, {"knights": "Knights"})
>>> n.asset("knights#3", "iron-legion"), n.place("tarsis"), n.faction(None)
("The Iron Legion's Knights", 'Tarsis', 'nobody')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from factionsim.core.calendar import Calendar, turn_title
from factionsim.core.text import markdown_text


@dataclass
class Names:
    """Display names for ids (factions, locations, asset types), the ruleset whose prose
    tells the events (``GameState.display_names()`` returns these keyword arguments), the
    campaign's ``calendar`` (in-game dates for turn headings) and ``notes``: lines for the
    chronicle's header under its title (a WWN campaign's house rules) and the campaign's
    ``seed`` (which words the rumours pick; see :mod:`factionsim.core.rumours`)."""

    factions: dict[str, str] = field(default_factory=dict)
    locations: dict[str, str] = field(default_factory=dict)
    asset_types: dict[str, str] = field(default_factory=dict)
    ruleset: str = ""
    calendar: Calendar | None = None
    notes: tuple[str, ...] = ()
    seed: int | None = None
    #: the names are escaped for markdown already (see :meth:`markdown`)
    escaped: bool = False

    @classmethod
    def from_state(cls, state: Any) -> Names:
        """The names of a game state (its ``display_names()``), with a last note that says who
        plays each faction (:func:`players_note`)."""
        names = cls(**{"seed": state.seed, **state.display_names()})
        played = players_note(state, names)
        if played:
            names.notes = (*names.notes, played)
        return names

    def markdown(self) -> Names:
        """These names escaped for markdown (:func:`~factionsim.core.text.markdown_text`): the
        campaign's names, ids shown for want of a name and calendar dates read as themselves.
        The ``notes`` are the ruleset's own text and are left as they are."""
        if self.escaped:
            return self

        def esc(table: dict[str, str]) -> dict[str, str]:
            return {k: markdown_text(v) for k, v in table.items()}

        return replace(self, factions=esc(self.factions), locations=esc(self.locations),
                       asset_types=esc(self.asset_types), escaped=True)

    def _own(self, text: str) -> str:
        """Text not from the tables (an id shown for want of a name, a date): escaped like
        the names."""
        return markdown_text(text) if self.escaped else text

    def turn_title(self, turn: int) -> str:
        """``"Turn 3"``, or ``"Turn 3 (1 Frost 1203)"`` with a calendar."""
        return self._own(turn_title(self.calendar, turn))

    def faction(self, fid: str | None) -> str:
        return self.factions.get(fid or "", self._own(fid or "nobody"))

    def place(self, lid: str) -> str:
        return self.locations.get(lid, self._own(lid))

    def asset(self, aid: str, owner: str | None = None) -> str:
        """``"the Iron Legion's Knights"`` for ``knights#3`` owned by iron-legion."""
        kind = self.asset_types.get(aid.rsplit("#", 1)[0], self._own(aid))
        return f"{self.faction(owner)}'s {kind}" if owner else kind


def players_note(state: Any, names: Names) -> str:
    """``"Played by: The Iron Legion (heuristic), ..."``: each faction's agent as its campaign
    entry names it (every ruleset's factions carry an ``agent``), empty if they carry none. A
    line of the chronicles' header: the names in it are escaped for markdown."""
    factions = state.factions
    shown = names.markdown()
    parts = [f"{shown.faction(fid)} ({markdown_text(str(f.agent))})" for fid, f in factions.items()
             if f.agent]
    return f"Played by: {', '.join(parts)}." if parts else ""
