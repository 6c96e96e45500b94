"""A policy's *prior*: an agent's own choice, given to the network beside the observation.

A residual policy (Silver et al. 2018, "Residual Policy Learning") plays ``logits = prior +
correction``: the prior is the heuristic's choice at the decision (a one-hot vector over the
action catalogue, ``weight`` at the heuristic's action, 0 elsewhere) and the network learns a
correction. At initialisation (a correction near 0) it plays like the heuristic; training
teaches it where to differ.

The env's spaces do not change: :class:`PriorCodec` wraps a ruleset's codec and writes the
prior *after* the env's observation, so the network reads ``obs_size + n_actions`` values (the
policy file's ``prior`` field says so, and ``spaces`` stay the env's). The prior is computed
beside the env, from the faction's view, by the same agent a campaign's ``agent: heuristic``
plays (with its default options: the faction's own temperament, no steering). It needs no torch.

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> from factionsim.envs import make_codec
>>> import numpy as np
>>> state = load_campaign(default_campaign_path())
>>> from factionsim.rulesets import ruleset_of
>>> codec = PriorCodec(make_codec(state), ruleset_of(state), "heuristic", 5.0)
>>> fid = state.current_actor()
>>> out = codec.observe(state.view(fid), np.zeros(codec.obs_size, np.float32))
>>> codec.obs_size == codec.base.obs_size + codec.n_actions, float(out[codec.base.obs_size:].max())
(True, 5.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .network import ModelFileError

#: agents a prior may come from
PRIOR_AGENTS = ("heuristic",)
#: whose candidates an *advantage* policy chooses among (the prior field's ``candidates``)
CANDIDATE_SOURCES = ("planner",)


def check_prior(prior: Any, source: Any) -> dict[str, Any]:
    """The policy file's ``prior`` field if well-formed (``{"agent": "heuristic", "weight": W}``,
    optionally with ``"candidates": "planner"``: an advantage policy, see :class:`PriorCodec`),
    else :class:`ModelFileError` naming the file and field."""
    if not isinstance(prior, Mapping) or not {"agent", "weight"} <= set(prior) <= {
            "agent", "weight", "candidates"}:
        raise ModelFileError(f"{source}: prior: must be {{\"agent\": NAME, \"weight\": NUMBER}}"
                             f" (agents: {', '.join(PRIOR_AGENTS)}), optionally with "
                             "\"candidates\": SOURCE")
    if "candidates" in prior and prior["candidates"] not in CANDIDATE_SOURCES:
        raise ModelFileError(f"{source}: prior.candidates: {prior['candidates']!r}; allowed: "
                             f"{', '.join(CANDIDATE_SOURCES)}")
    if prior["agent"] not in PRIOR_AGENTS:
        raise ModelFileError(f"{source}: prior.agent: {prior['agent']!r}; allowed: "
                             f"{', '.join(PRIOR_AGENTS)}")
    w = prior["weight"]
    if isinstance(w, bool) or not isinstance(w, int | float) or not 0 < w <= 100:
        raise ModelFileError(f"{source}: prior.weight: {w!r}; must be a number above 0, at most "
                             "100")
    return dict(prior)


class PriorCodec:
    """``base`` (a ruleset's env codec) with the prior of ``agent`` (the agent of that name
    ``ruleset``, a :class:`~factionsim.core.ruleset.RulesetInfo`, offers) appended to every
    observation: ``obs_size`` is ``base.obs_size + base.n_actions``; the action catalogue
    (``n_actions``, ``encode_actions``), ``limits`` and ``ENV_VERSION`` are the base codec's.

    ``candidates="planner"`` (an *advantage* policy, ``factionsim train --method advantage``):
    at each decision it also notes in ``last_candidates`` the catalogue indices of the actions
    the ruleset's planner would search there (its faction-action and goal candidates, the
    heuristic's choice among them), or ``[]`` where the planner does not search (its
    heuristic's choice is played there). The policy chooses among those candidates only; its
    logits there are ``weight`` at the heuristic's choice plus the network's estimate of each
    candidate's advantage, so ``weight`` is the margin by which a candidate must look better
    than the heuristic's choice to be played instead."""

    def __init__(self, base: Any, ruleset: Any, agent: str = "heuristic", weight: float = 5.0,
                 candidates: str | None = None):
        if agent not in PRIOR_AGENTS:
            raise ValueError(f"prior agent {agent!r}; allowed: {', '.join(PRIOR_AGENTS)}")
        if candidates is not None and candidates not in CANDIDATE_SOURCES:
            raise ValueError(f"prior candidates {candidates!r}; allowed: "
                             f"{', '.join(CANDIDATE_SOURCES)}")
        if candidates is not None and candidates not in ruleset.offered_agents():
            raise ValueError(f"the {ruleset.name} ruleset has no {candidates} to take "
                             "candidates from")
        self.candidates = candidates
        self._searcher: Any = None
        self.last_candidates: list[int] | None = None
        self.base = base
        self.agent_name = agent
        self.weight = float(weight)
        self._ruleset = ruleset
        self._agent: Any = None
        self._rng = np.random.default_rng(0)  # the heuristic draws nothing; kept apart anyway
        self.last_index = -1

    @property
    def n_actions(self) -> int:
        return int(self.base.n_actions)

    @property
    def ENV_VERSION(self) -> int:  # noqa: N802 (the codecs' name)
        return int(self.base.ENV_VERSION)

    @property
    def limits(self) -> Any:
        return self.base.limits

    @property
    def obs_size(self) -> int:
        return int(self.base.obs_size) + int(self.base.n_actions)

    @property
    def prior(self) -> dict[str, Any]:
        """The policy file's ``prior`` field."""
        field = {"agent": self.agent_name, "weight": self.weight}
        if self.candidates:
            field["candidates"] = self.candidates
        return field

    def agent(self, view: Any) -> Any:
        """The agent whose choice is the prior (made once, for ``view``'s ruleset)."""
        if self._agent is None:
            ruleset = self._ruleset
            self._agent = ruleset.offered_agents()[self.agent_name].load().for_ruleset(ruleset)
        return self._agent

    def prior_index(self, view: Any) -> int:
        """The catalogue index of the agent's choice at ``view``'s decision (-1: the catalogue
        leaves it out)."""
        legal = view.legal_actions()
        if not legal:
            return -1
        choice = self.agent(view).act(view, legal, self._rng)
        return int(self.base.encode_actions(view, [choice])[0])

    def observe(self, view: Any, out: np.ndarray, scores: Any = None) -> np.ndarray:
        n = int(self.base.obs_size)
        self.base.observe(view, out[:n], scores)
        out[n:] = 0.0
        k = self.prior_index(view)
        self.last_index = k  # the agent's choice at the decision just observed
        if k >= 0:
            out[n + k] = self.weight
        if self.candidates:
            self.last_candidates = self.candidate_indices(view, k)
        return out

    def candidate_indices(self, view: Any, prior: int) -> list[int]:
        """Catalogue indices of the actions the ``candidates`` agent would search at ``view``'s
        decision, ``prior`` (the heuristic's choice) among them; ``[]`` where it searches
        nothing."""
        if self._searcher is None:
            ruleset = self._ruleset
            self._searcher = ruleset.offered_agents()[self.candidates].load().for_ruleset(ruleset)
        legal = view.legal_actions()
        found = self._searcher.candidates(view, legal)
        if len(found) < 2:
            return []
        indices = [k for k in self.base.encode_actions(view, found) if k >= 0]
        if prior >= 0 and prior not in indices:
            indices.append(prior)
        return indices if len(indices) >= 2 else []

    def encode_actions(self, view: Any, legal: list[Any]) -> list[int]:
        return self.base.encode_actions(view, legal)
