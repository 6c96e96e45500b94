"""factionsim: factions that play themselves, for tabletop campaigns.

Scripts and notebooks::

    import factionsim, numpy as np
    from factionsim.agents import make_agent

    s = factionsim.load_campaign("campaign.yaml")
    agents = {fid: make_agent("random", s.ruleset) for fid in s.factions}
    rng = np.random.default_rng(0)
    while not s.is_over():
        f = s.current_actor()
        s.apply(agents[f].act(s.view(f), s.legal_actions(), rng))
    factionsim.save_campaign(s, "campaign.yaml")

(set ``s.max_turns`` or use :func:`factionsim.runner.play` to stop after a number of turns).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from factionsim.core.campaign import save_campaign
from factionsim.core.game import CampaignError, Event, FactionsimError, IllegalActionError

if TYPE_CHECKING:
    from factionsim.core.game import GameState

__version__ = "0.1.0"


def load_campaign(path: str | os.PathLike[str]) -> GameState:
    """Load, validate and build the game state of a campaign file (of any ruleset): see
    :func:`factionsim.rulesets.load_campaign` (imported on first use, so that ``import
    factionsim`` stays light)."""
    from factionsim.rulesets import load_campaign as load

    return load(path)

__all__ = ["load_campaign", "save_campaign", "CampaignError", "Event", "FactionsimError",
           "IllegalActionError", "__version__"]
