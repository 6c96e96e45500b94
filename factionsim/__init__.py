"""factionsim: factions that play themselves, for tabletop campaigns.

Scripts and notebooks::

    import factionsim, numpy as np
    from factionsim.agents import make_agent

    s = factionsim.load_campaign("campaign.yaml")
    agents = {fid: make_agent("random") for fid in s.factions}
    rng = np.random.default_rng(0)
    while not s.is_over():
        f = s.current_actor()
        s.apply(agents[f].act(s.view(f), s.legal_actions(), rng))
    factionsim.save_campaign(s, "campaign.yaml")

(set ``s.max_turns`` or use :func:`factionsim.runner.play` to stop after a number of turns).
"""

from __future__ import annotations

from factionsim.core.campaign import load_campaign, save_campaign
from factionsim.core.game import CampaignError, Event, FactionsimError, IllegalActionError

__version__ = "0.1.0"
__all__ = ["load_campaign", "save_campaign", "CampaignError", "Event", "FactionsimError",
           "IllegalActionError", "__version__"]
