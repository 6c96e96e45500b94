"""The generic PettingZoo adapter: any ruleset's state + its codec -> an ``AECEnv``.

The env knows nothing of a ruleset's rules: it drives the engine contract
(``current_actor``/``legal_actions``/``apply``/``is_over``/``scores``) and asks the codec for
spaces, observations and action indices. See :mod:`factionsim.envs` for the documentation of
spaces, rewards and versions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv

from factionsim.core.dice import reseed
from factionsim.core.game import FactionsimError


class FactionEnv(AECEnv):
    """Agents are the campaign's factions; ``agent_selection`` is ``state.current_actor()``."""

    #: ``name`` becomes ``factionsim_<ruleset>_v<the codec's ENV_VERSION>`` for each env
    metadata = {"render_modes": ["ansi"], "name": "factionsim", "is_parallelizable": False}

    def __init__(self, state: Any, codec_factory: Any, *, max_turns: int | None = 30,
                 shaping: float = 0.1, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._template = state.to_dict()
        self._state_cls = type(state)
        self.ruleset: str = state.ruleset  #: the ruleset name (for ``make_agent``...)
        self._campaign_seed = state.seed
        self.max_turns = max_turns
        self.shaping = float(shaping)
        self.codec = codec_factory(state)
        self.metadata = {**self.metadata,
                         "name": f"factionsim_{self.ruleset}_v{self.codec.ENV_VERSION}"}
        self.possible_agents = [fid for fid, f in state.factions.items() if f.alive]
        self.action_spaces = {a: self.codec.action_space for a in self.possible_agents}
        self.observation_spaces = {a: self.codec.observation_space for a in self.possible_agents}
        self._seed_rng: np.random.Generator | None = None
        self.state: Any = None
        self._views: dict[str, Any] = {}  # each faction's view of the game in play
        self._actor: str | None = None  # state.current_actor() at the last selection
        self._last_decision: tuple[str, Any] | None = None  # (agent, action), for render()

    # spaces: one cached object for every agent
    def observation_space(self, agent: str) -> Any:
        return self.codec.observation_space

    def action_space(self, agent: str) -> Any:
        return self.codec.action_space

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        elif self._seed_rng is None:
            self._seed_rng = np.random.default_rng(self._campaign_seed)
        s = self._state_cls.from_dict(self._template)
        reseed(s, int(self._seed_rng.integers(2**31 - 1)))
        if self.max_turns is not None:
            s.max_turns = s.turn + self.max_turns
        self.state = s
        # a view reads its state as the game goes on: one per faction and game
        self._views = {fid: s.view(fid) for fid in s.factions}
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal_key = -1
        self._decisions = 0
        self._finished = 0  # agents terminated or truncated this game
        self._scores: tuple[int, dict[str, float]] = (-1, {})  # (decision, its scores)
        self._potential = {a: self._phi(a) for a in self.agents}
        self._last_decision = None
        self._select()

    def _select(self) -> None:
        self._actor = actor = self.state.current_actor()
        if actor is None and self.agents:
            actor = self.agents[0]
        self.agent_selection = actor
        if self._finished:  # (PettingZoo's own scan, needed only once an agent is out)
            self._deads_step_first()

    def _legal(self) -> tuple[list[Any], list[int]]:
        """Legal actions of the current decision and their catalogue indices, -1 for one the
        catalogue leaves out (cached per decision)."""
        if self._legal_key != self._decisions:
            actor = self._actor
            legal = self.state.legal_actions() if actor is not None else []
            if actor is not None and not legal:
                raise FactionsimError(f"{actor} must decide in phase {self.state.phase} but has "
                                      "no legal action (an engine bug)")
            self._legal_actions = legal
            self._legal_indices = self.codec.encode_actions(self._views[actor], legal) \
                if legal else []
            self._mask_indices = [i for i in self._legal_indices if i >= 0] \
                if -1 in self._legal_indices else self._legal_indices
            self._legal_key = self._decisions
        return self._legal_actions, self._legal_indices

    def step_or_lowest(self, action: int) -> bool:
        """Step with catalogue index ``action`` if it is legal now, otherwise with the lowest
        legal index (for samplers that ignore the mask); returns whether ``action`` was illegal."""
        self._legal()
        illegal = int(action) not in self._mask_indices
        self.step(min(self._mask_indices) if illegal else int(action))
        return illegal

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """int8 mask of ``agent``'s legal actions (all zero when it is not deciding now).

        Written into a ``bytearray`` one index at a time and handed out as an int8 array over
        it (a decision has a few dozen legal actions: cheaper than numpy converting the list of
        indices for one fancy-index write)."""
        agent = self.agent_selection if agent is None else agent
        if (agent == self.agent_selection and agent == self._actor
                and not self.terminations.get(agent) and not self.truncations.get(agent)):
            self._legal()
            mask = bytearray(self.codec.n_actions)
            for i in self._mask_indices:
                mask[i] = 1
            return np.frombuffer(mask, np.int8)
        return np.zeros(self.codec.n_actions, dtype=np.int8)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self.codec.observation(self._views[agent], self.current_scores())
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def view(self, agent: str) -> Any:
        """``agent``'s view of the game in play (``state.view(agent)``, made once per game)."""
        return self._views[agent]

    def legal_action(self, index: int) -> Any:
        """The engine action behind catalogue ``index`` at this decision."""
        legal, indices = self._legal()
        index = int(index)
        if index >= 0:
            try:
                return legal[indices.index(index)]
            except ValueError:
                pass
        raise FactionsimError(f"action index {index} is not legal for {self.agent_selection} "
                              f"now (legal: {sorted(self._mask_indices)[:12]})")

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._apply(agent, self.legal_action(action))

    def step_action(self, action: Any) -> None:
        """Step with an engine action of the deciding agent (agents from the registry play this
        way: any legal action, also one the catalogue leaves out)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise FactionsimError(f"{agent} is out of the game; step it with None")
        self._apply(agent, action)

    def _apply(self, agent: str, act: Any) -> None:
        self.state.apply(act)
        self._decisions += 1
        self._last_decision = (agent, act)
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        # shaped reward: change of the actor's standing since its previous decision
        phi = self._phi(agent)
        rewards[agent] = self.shaping * (phi - self._potential[agent])
        self._potential[agent] = phi
        over = self.state.is_over()
        factions = self.state.factions
        finished = self._finished
        for a in self.agents:
            if not factions[a].alive and not self.terminations[a]:
                self._finish(a, -1.0, truncated=False)
        if over:
            capped = sum(f.alive for f in factions.values()) >= 2
            for a, outcome in self.outcomes().items():
                if a in self.agents and not (self.terminations[a] or self.truncations[a]):
                    self._finish(a, outcome, truncated=capped)
        if self._finished == finished:
            # only the actor's reward can be other than 0.0 (adding 0.0 to the others' sums
            # changes none: a sum is never -0.0, as it starts at 0.0)
            self._cumulative_rewards[agent] += rewards[agent]
        else:
            self._accumulate_rewards()
        self._select()

    def _finish(self, agent: str, outcome: float, truncated: bool) -> None:
        phi = self._phi(agent)
        self.rewards[agent] += self.shaping * (phi - self._potential[agent]) + outcome
        self._potential[agent] = phi
        (self.truncations if truncated else self.terminations)[agent] = True
        self._finished += 1
        self.infos[agent] = {"outcome": outcome, "score": self.current_scores()[agent]}

    def current_scores(self) -> dict[str, float]:
        """``state.scores()`` now, computed once per decision (the env's state changes only
        through ``step``/``step_action``/``reset``)."""
        key, scores = self._scores
        if key != self._decisions:
            scores = self.state.scores()
            self._scores = (self._decisions, scores)
        return scores

    def _phi(self, agent: str) -> float:
        """Standing: own score minus the best rival's score."""
        scores = self.current_scores()
        own = scores[agent]
        best = max(scores.values())
        if own < best:  # (most calls: then a rival holds the best score)
            return own - best
        rivals = [v for k, v in scores.items() if k != agent]
        return own - (max(rivals) if rivals else 0.0)

    # ------------------------------------------------------------------ results
    def scores(self) -> dict[str, float]:
        """The ruleset's scores; the winner is the faction with the highest."""
        return dict(self.state.scores())

    def winners(self) -> list[str]:
        scores = self.scores()
        best = max(scores.values())
        return [a for a, v in scores.items() if v == best]

    def outcomes(self) -> dict[str, float]:
        """+1 the sole top score, 0 a shared top score, -1 everyone else."""
        win = self.winners()
        return {a: (1.0 if len(win) == 1 else 0.0) if a in win else -1.0
                for a in self.possible_agents}

    def render(self) -> str | None:
        """Text of the last decision and every faction's standing (``render_mode="ansi"``), with
        the codec's ``render_faction(view)`` line for each (its own view)."""
        if self.render_mode is None:
            return None
        s = self.state
        scores = s.scores()
        last = "game start" if self._last_decision is None else "{}: {}".format(*self._last_decision)
        lines = [f"turn {s.turn + 1} | {last} | next: {s.current_actor()} ({s.phase})"]
        for fid, f in s.factions.items():
            if not f.alive:
                lines.append(f"  {fid}: out of the game")
                continue
            numbers = self.codec.render_faction(s.view(fid))
            lines.append(f"  {fid}: {numbers + ' ' if numbers else ''}score {scores[fid]:.2f}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
