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
    "trained": "factionsim.agents.policy:TrainedAgent",
}
#: agents the campaign format knows that arrive with later versions
PLANNED = ("policy",)
#: (agent name, ruleset) -> "module:Class": the implementation of that agent for states of that
#: ruleset; ``REGISTRY`` names the default (WWN) one. See :class:`DispatchingAgent`.
RULESET_AGENTS: dict[tuple[str, str], str] = {
    ("heuristic", "engagements"): "factionsim.agents.engagements_heuristic:Heuristic",
    ("heuristic", "conflict"): "factionsim.agents.conflict_heuristic:Heuristic",
    ("heuristic", "houses"): "factionsim.agents.houses_heuristic:Heuristic",
}


def _load(ref: str) -> Any:
    module, cls = ref.split(":")
    return getattr(import_module(module), cls)


class DispatchingAgent:
    """An agent with one implementation per ruleset: each ``act`` uses the one for
    ``view.state.ruleset`` (built on first use with the same options); attributes such as
    ``last_reason`` are those of the implementation used last (the default one before)."""

    def __init__(self, name: str, default: Any, options: dict[str, Any]):
        self.name = name
        self._options = options
        self._impls: dict[str, Any] = {"wwn": default}
        self._current = default

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        ruleset = getattr(getattr(view, "state", None), "ruleset", "wwn")
        impl = self._impls.get(ruleset)
        if impl is None:
            ref = RULESET_AGENTS.get((self.name, ruleset))
            impl = _load(ref)(**self._options) if ref else self._impls["wwn"]
            self._impls[ruleset] = impl
        self._current = impl
        return impl.act(view, legal_actions, rng)

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        return getattr(self._current, attr)


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
    if any(k == key for k, _ in RULESET_AGENTS):
        return DispatchingAgent(key, factory(**options), options)  # type: ignore[return-value]
    return factory(**options)
