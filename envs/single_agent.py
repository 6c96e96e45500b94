"""One faction learns, the others are played by registry agents: a gymnasium env for SB3.

>>> from factionsim.envs.single_agent import SingleAgentEnv
>>> env = SingleAgentEnv(opponents="random")
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape and bool(env.action_masks().any())
True

- ``learner``: the faction that learns (``None``: a seat drawn at random each episode, so one
  policy learns to play every faction).
- ``opponents``: an agent name for all others (``"random"``, ``"heuristic"``, ``"policy:PATH"``
  for a frozen earlier policy in self-play) or a list of names, one drawn per opponent per
  episode.
- Observations are the AEC env's ``"observation"`` vector; ``action_masks()`` (the sb3-contrib
  convention) is the learner's legal-action mask. The reward of a step is everything the AEC env
  credited to the learner up to its next decision (its shaped reward and, at the end, its
  outcome). The episode ends when the learner's game ends (collapse, last faction standing or
  the turn cap; all reported as ``terminated``, the outcome being decided). ``info`` then holds
  ``outcome`` (+1 win, 0 shared win, -1 loss) and ``won``. An index outside the mask (unmasked
  sampling, ``check_env``) plays the lowest legal index instead and is reported as
  ``info["illegal_action"]``.

Picklable construction (``SubprocVecEnv``): pass :func:`env_factory` results.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium as gym
import numpy as np

from factionsim.agents import make_agent
from factionsim.core.ruleset import DEFAULT_RULESET

from . import make_env


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, campaign: Any = None, ruleset: str = DEFAULT_RULESET, learner: str | None = None,
                 opponents: str | list[str] = "random", render_mode: str | None = None,
                 **options: Any):
        super().__init__()
        self.aec = make_env(campaign, ruleset, render_mode=render_mode, **options)
        self.render_mode = render_mode
        self.codec = self.aec.codec
        self.observation_space = self.codec.observation_space["observation"]
        self.action_space = self.codec.action_space
        if learner is not None and learner not in self.aec.possible_agents:
            raise ValueError(f"learner {learner!r} is not a faction of the campaign; factions: "
                             f"{', '.join(self.aec.possible_agents)}")
        self.fixed_learner = learner
        self.opponent_names = [opponents] if isinstance(opponents, str) else list(opponents)
        self._agent_cache: dict[str, Any] = {}
        self.learner: str = learner or self.aec.possible_agents[0]
        self.opponents: dict[str, Any] = {}
        self._obs = np.zeros(self.codec.obs_size, dtype=np.float32)

    def _agent(self, name: str) -> Any:
        if name not in self._agent_cache:
            self._agent_cache[name] = make_agent(name, self.aec.ruleset)
        return self._agent_cache[name]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31 - 1))
        self.aec.reset(seed=game_seed)
        agents = self.aec.possible_agents
        self.learner = self.fixed_learner or agents[int(self.np_random.integers(len(agents)))]
        names = self.opponent_names
        self.opponents = {a: self._agent(names[int(self.np_random.integers(len(names)))])
                          for a in agents if a != self.learner}
        reward, done, info = self._advance()
        return self._observation(), {"learner": self.learner}

    def _advance(self) -> tuple[float, bool, dict[str, Any]]:
        """Play opponents (and remove collapsed factions) until the learner decides or is done."""
        env = self.aec
        me = self.learner
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                if agent == me:
                    return env._cumulative_rewards[me], True, dict(env.infos[me])
                env.step(None)
                continue
            if agent == me:
                return env._cumulative_rewards[me], False, {}
            legal = env.state.legal_actions()  # opponents need no catalogue indices
            env.step_action(self.opponents[agent].act(env.state.view(agent), legal,
                                                      self.np_random))
        return 0.0, True, {}

    def _observation(self) -> np.ndarray:
        return self.codec.observe(self.aec.state.view(self.learner), self._obs,
                                  self.aec.current_scores()).copy()

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once its game is over)."""
        return self.aec.action_mask(self.learner).astype(bool)

    def step(self, action: int):
        illegal = self.aec.step_or_lowest(action)
        reward, done, info = self._advance()
        if illegal:
            info = {**info, "illegal_action": int(action)}
        if done:
            outcome = info.get("outcome", -1.0)
            info = {**info, "outcome": outcome, "won": outcome > 0,
                    "scores": self.aec.scores(), "learner": self.learner}
        return self._observation(), float(reward), done, False, info

    def render(self) -> str | None:
        return self.aec.render()


def env_factory(**kwargs: Any) -> Any:
    """A picklable zero-argument constructor (for ``SubprocVecEnv`` / ``make_vec_env``)."""
    return functools.partial(SingleAgentEnv, **kwargs)
