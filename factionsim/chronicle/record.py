"""A campaign file and its history as one audience knows them: what the report, the faction
sheets, ``show --players`` and ``events --players`` read (:class:`CampaignRecord`).

Everything it gives passes through the ruleset's notion of who may see what
(:mod:`factionsim.chronicle.views`): the campaign data of every recorded turn, each turn's
events and their stories, the display names.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from factionsim.core.calendar import campaign_calendar
from factionsim.core.game import Event
from factionsim.core.history import History
from factionsim.core.names import Names
from factionsim.core.visibility import check_audience
from factionsim.rulesets import get_ruleset, load_campaign

from .story import TurnStory, stories
from .views import recorded_data, visible_events, visible_frame


class CampaignRecord:
    """A campaign (``path``) and its history, as ``audience`` (``"gm"`` or ``"players"``)
    knows them. The campaign and every snapshot are loaded as campaigns (validated: a broken
    snapshot is a :class:`~factionsim.core.game.CampaignError` naming it)."""

    def __init__(self, path: str | Path, audience: str = "gm", state: Any = None):
        self.path = Path(path)
        self.audience = check_audience(audience)
        self.state = state if state is not None else load_campaign(self.path)
        self.info = get_ruleset(self.state.ruleset)
        self.history = History(self.path)
        self.now = self.state.turn

    # ------------------------------------------------------------------ the GM's data
    @cached_property
    def _gm_frames(self) -> dict[int, dict[str, Any]]:
        frames = {t: d for t in self.history.turns() if t <= self.now
                  and (d := recorded_data(self.history, t, strict=True))}
        frames[self.now] = self.state.to_dict()
        return dict(sorted(frames.items()))

    # ------------------------------------------------------------------ the audience's
    @property
    def turns(self) -> list[int]:
        """The turns with a recorded state, the campaign's own turn last."""
        return list(self._gm_frames)

    def frame(self, turn: int | None = None) -> dict[str, Any] | None:
        """The campaign data after ``turn`` (default: now) as the audience knows it."""
        data = self._gm_frames.get(self.now if turn is None else turn)
        return None if data is None else visible_frame(data, self.audience)

    def events(self, turn: int) -> list[Event]:
        """The events of ``turn`` the audience may know (none when the history has none)."""
        return visible_events(self.state.ruleset, self.history.events(turn), self.audience,
                              self._gm_frames.get(turn - 1))

    @cached_property
    def names(self) -> Names:
        """Display names (from the audience's data now), the calendar and the seed."""
        names = self.info.present.names(self.frame() or {})
        names.calendar = campaign_calendar(self._gm_frames[self.now])
        names.seed = self.state.seed
        return names

    def story(self, turn: int) -> TurnStory | None:
        """Turn ``turn`` told to the audience (``None`` when no events were recorded)."""
        events = self.events(turn)
        if not events:
            return None
        told = stories(events, self.names, self.audience, self.frame(turn - 1))
        return told[0] if told else None

    def missing_history(self) -> str | None:
        """Why a campaign past turn 0 shows no turn, when none of its turns was recorded beside
        it (no ``NAME.yaml.history/``: a campaign written by ``factionsim run --out``, or copied
        without that folder), else ``None``: the report and ``events`` then have only the
        campaign as it stands, and say so."""
        if self.now == 0 or self.turns != [self.now] or self.history.events(self.now):
            return None
        return (f"This campaign is at turn {self.now}, but none of its turns was recorded beside "
                f"it (no {self.history.dir.name}/ folder): a campaign written by 'factionsim run "
                "--out' keeps its turns in events.jsonl and chronicle.md instead, and one copied "
                "without its history folder loses them. Only the campaign as it stands now can be "
                "shown; 'factionsim turn' records every turn.")

    def played_turns(self) -> list[int]:
        """The turns played (1..now) that have events in the history."""
        return [t for t in range(1, self.now + 1) if self.history.events(t)]
