"""Players: every agent is ``act(view, legal_actions, rng) -> action``.

>>> agent = make_agent("random")
>>> import numpy as np
>>> agent.act(None, ["a", "b"], np.random.default_rng(0)) in ("a", "b")
True

Agents are named in campaign files (``agent: random``) and on the command line. ``make_agent``
imports each agent's module only when asked for, so a GM's run never imports torch.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

from factionsim.core.game import CampaignError


class Agent(Protocol):
    """Chooses one of ``legal_actions``; ``rng`` is the only source of randomness it may use."""

    name: str

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any: ...


#: name -> "module:Class" (imported lazily)
REGISTRY = {
    "random": "factionsim.agents.simple:RandomAgent",
    "idle": "factionsim.agents.simple:IdleAgent",
    "heuristic": "factionsim.agents.wwn_heuristic:HeuristicAgent",
    "planner": "factionsim.agents.planner:PlannerAgent",
    "manual": "factionsim.agents.manual:ManualAgent",
    "policy": "factionsim.agents.policy:PolicyAgent",
}
#: agents the campaign format knows that arrive with later versions
PLANNED = ("policy",)


def available_agents() -> list[str]:
    return list(REGISTRY)


def make_agent(name: str, **options: Any) -> Agent:
    """Build the agent called ``name`` (``random``, ``idle``...) with its options."""
    key = name.split(":", 1)[0]
    if key not in REGISTRY:
        hint = " (not available in this version yet)" if key in PLANNED else ""
        raise CampaignError(
            f"unknown agent {name!r}{hint}; available agents: {', '.join(REGISTRY)}"
        )
    module, cls = REGISTRY[key].split(":")
    factory = getattr(import_module(module), cls)
    if ":" in name:
        options = {**options, "path": name.split(":", 1)[1]}
    return factory(**options)
