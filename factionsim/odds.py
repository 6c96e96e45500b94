"""The odds of one action, ``factionsim odds CAMPAIGN ACTION``: what the ruleset's
:class:`~factionsim.core.forecasting.Forecasting` computes (WWN: an Attack, exactly or by Monte
Carlo, :mod:`factionsim.rules.wwn.odds`), with the campaign's own agents answering the questions
a sampled rule asks (a faction played by hand by the default agent, as in forecasts). The
campaign file and its dice are not touched.

>>> from factionsim.configs import default_campaign_path
>>> r, text = campaign_odds(default_campaign_path(), "attack cavalry#4 -> ashen-flame")
>>> r["defenders"][0]["method"], r["defenders"][0]["outcomes"]["hit"]["exact"]
('exact', '909/1000')
"""

from __future__ import annotations

import os
from typing import Any

from factionsim.core.game import Action, FactionsimError, GameState


def campaign_odds(campaign: str | os.PathLike[str], action: str, *, method: str = "auto",
                  samples: int | None = None, seed: int = 0) -> tuple[dict[str, Any], str]:
    """The odds of ``action`` (its text, as the legal actions write it) in ``campaign`` now, as
    plain data and in the ruleset's words."""
    from factionsim.core.names import Names
    from factionsim.forecast import forecast_agents
    from factionsim.rulesets import load_campaign, ruleset_of

    state = load_campaign(campaign)
    facts = ruleset_of(state).forecasting
    if facts is None or facts.odds is None:
        from factionsim.rulesets import RULESETS

        able = [n for n, info in RULESETS.items() if info.forecasting and info.forecasting.odds]
        raise FactionsimError(f"odds are not available for the {state.ruleset} ruleset "
                              f"(only for: {', '.join(able)})")
    if samples is not None and samples < 1:
        raise FactionsimError("--samples must be at least 1")
    agents = forecast_agents(state, source=campaign)  # nobody is asked at the terminal

    def choose(s: GameState, faction: str, legal: list[Action], rng: Any) -> Action:
        return agents[faction].act(s.view(faction), legal, rng)

    options: dict[str, Any] = {"method": method, "seed": seed, "choose": choose}
    if samples is not None:
        options["samples"] = samples
    result = {"campaign": str(campaign), "turn": state.turn, **facts.odds(state, action, **options)}
    text = facts.odds_text(result, Names.from_state(state)) if facts.odds_text else ""
    return result, text
