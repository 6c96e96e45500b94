"""The ``planner`` agent: looks ahead with the rules engine as its forward model.

At the decisions that shape a turn (which faction action, which goal, whether to bribe) it tries
each candidate in rollouts: a state rebuilt from its *own view* (``view.to_state(rng)``: rivals'
Stealthed assets are unknown to it and the dice are its own), the candidate applied, then every
faction played by the heuristic for ``horizon`` more turns. The candidate with the best mean
outcome is chosen (see :func:`rollout_value`: its score, goal progress and wealth against the
best rival, with goal XP discounted by how late it came). Every other decision is the
heuristic's. Options:

- ``budget`` — rollouts per searched decision, shared among the candidates (default 16; at
  horizon 1 a faction turn of the bundled campaign took about 0.35 s on average on one core of a
  2-core laptop-class machine, under 1 s at the most; at the default horizon 2 about 1.5 times
  as long: ``docs/agents.md``, "The planner");
- ``search`` — how the budget is shared: ``even`` (default) or ``halving`` (successive halving:
  the better half of the candidates goes on after each round; before the discount it did no
  better than ``even``: 53.2% of 200 games against the heuristic at budget 24, 56.2% even);
- ``horizon`` — turns simulated after the current one (default 2: rollouts to the end of the
  turn after next. With 1 the rollouts end with the next turn and the planner took 58.1% of
  160 games against the heuristic on unseen campaigns; with 2, the figures in
  ``docs/agents.md``, "The planner". With 0, 36%);
- ``width`` — candidates searched at most, the heuristic's favourites first (default 4);
- ``discount`` — what goal XP earned one turn later is worth against XP earned now (default
  0.7). Without it the planner procrastinates: a rollout in which the heuristic plants the Base
  *next* turn scores the same XP at the horizon as planting it now and keeps the Treasure
  longer, so "wait" wins every turn and the Base is never planted;
- ``margin`` — how much better (in rollout value, XP) another candidate must look than the
  heuristic's own choice to be taken instead (default 0.1): with a small budget each candidate
  gets one or two rollouts, and the best-looking of several noisy estimates is more often lucky
  than good;
- ``temperament`` — passed to its heuristic;
- ``leaf`` (from Python only, not a campaign option) — what scores a rollout's last state
  instead of :func:`rollout_value`: ``leaf(state, faction)``, in the same units (XP), the
  discount still applied; e.g. a learned evaluator of the game's final outcome (a policy file's
  ``rollout-leaf`` search, :mod:`factionsim.agents.leaf_search`);
- the steering options ``focus``, ``enemy``, ``protect``, ``avoid``, ``story``
  (:mod:`factionsim.agents.wwn_heuristic.steering`) — honoured as the heuristic honours them: the
  candidates it searches are only those the steering allows, its own faction plays the rollouts
  with them, and the reasons say so.

Goals: the planner keeps its goal whenever its heuristic would (a goal it can complete is not
searched against easier ones: abandoning costs a turn of paralysis, which a one-turn lookahead
undervalues), and searches only when the heuristic would abandon it: then keeping it is one of
the candidates.

The same dice seeds are used for every candidate (common random numbers), so differences come
from the choice, not from luck.

>>> from factionsim import load_campaign
>>> from factionsim.configs import default_campaign_path
>>> import numpy as np
>>> s = load_campaign(default_campaign_path())
>>> planner = PlannerAgent(budget=4)
>>> fid = s.current_actor()
>>> planner.act(s.view(fid), s.legal_actions(), np.random.default_rng(0)) in s.legal_actions()
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from factionsim.agents.afterstate import action_over
from factionsim.agents.wwn_heuristic import HeuristicAgent, explain
from factionsim.agents.wwn_heuristic.personality import TEMPERAMENTS
from factionsim.agents.wwn_heuristic.steering import STEERING_OPTIONS
from factionsim.core.game import Agent, OptionSpec
from factionsim.rules.wwn import turn as T
from factionsim.rules.wwn.actions import Bribe, ChooseAction, ChooseGoal, KeepGoal

#: Ways of sharing the rollout budget among the candidates (see ``PlannerAgent._search``).
SEARCHES = ("even", "halving")


class PlannerAgent(Agent):
    name = "planner"
    OPTIONS = {
        "budget": OptionSpec(int, "rollouts per searched decision", minimum=1),
        "search": OptionSpec(str, "how the budget is shared among the candidates", choices=SEARCHES),
        "horizon": OptionSpec(int, "turns simulated after the current one", minimum=0),
        "width": OptionSpec(int, "candidates searched at most", minimum=1),
        "discount": OptionSpec(float, "what goal XP one turn later is worth against XP now",
                               above=0, maximum=1),
        "margin": OptionSpec(float, "rollout value by which another choice must beat the "
                                    "heuristic's own", minimum=0),
        "temperament": OptionSpec(str, "passed to its heuristic", choices=TEMPERAMENTS),
        **STEERING_OPTIONS,
    }

    def __init__(self, budget: int = 16, horizon: int = 2, width: int = 4, search: str = "even",
                 discount: float = 0.7, margin: float = 0.1, temperament: str | None = None,
                 leaf: Callable[[Any, str], float] | None = None, **options: Any):
        if budget < 1 or horizon < 0 or width < 1 or not 0 <= discount <= 1:
            raise ValueError("planner needs budget >= 1, horizon >= 0, width >= 1, "
                             "0 <= discount <= 1")
        if search not in SEARCHES:
            raise ValueError(f"planner search must be one of {', '.join(SEARCHES)}, not {search!r}")
        self.budget, self.horizon, self.width = int(budget), int(horizon), int(width)
        self.search = search
        self.discount = float(discount)
        self.margin = float(margin)
        self.leaf = leaf
        self.heuristic = HeuristicAgent(temperament=temperament, **options)
        self.options = options
        self.last_reason: str | None = None
        self._rollout_agents: dict[tuple[str, bool], HeuristicAgent] = {}

    def temperament_of(self, faction: Any) -> str:
        """The temperament of its heuristic for ``faction`` (see ``HeuristicAgent``)."""
        return self.heuristic.temperament_of(faction)

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        candidates = self._candidates(view, legal_actions)
        if len(candidates) < 2:
            choice = self.heuristic.act(view, legal_actions, rng)
            self.last_reason = self.heuristic.last_reason
            return choice
        values = self._search(view, candidates, rng)
        best = max(values, key=lambda c: values[c])  # ties: the heuristic's order
        own = self._heuristic_choice(view, legal_actions, rng)
        if own in values and values[best] < values[own] + self.margin:
            best = own  # a few rollouts are noisy: the heuristic's choice unless clearly beaten
        why = explain(self.heuristic, view, best)
        self.last_reason = (f"{why} (looked {self.horizon + 1} turn(s) ahead: {values[best]:+.2f} "
                            f"against {len(candidates) - 1} other option(s))")
        return best

    def searches(self, view: Any, legal_actions: list[Any]) -> bool:
        """Whether :meth:`act` would search this decision (two candidates or more: a faction
        action, or a goal its heuristic would abandon); elsewhere it plays its heuristic's
        choice. Imitation uses this to take the planner's labels only where it looks ahead
        (``factionsim train --expert-labels searched``)."""
        return len(self._candidates(view, legal_actions)) >= 2

    def candidates(self, view: Any, legal_actions: list[Any]) -> list[Any]:
        """The actions :meth:`act` would try in rollouts at this decision (fewer than two: it
        does not search, its heuristic decides). An advantage policy chooses among these
        (``factionsim train --method advantage``)."""
        return self._candidates(view, legal_actions)

    def _heuristic_choice(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        """What its heuristic would do here (its reason kept aside)."""
        reason = self.heuristic.last_reason
        choice = self.heuristic.act(view, legal_actions, rng)
        self.heuristic.last_reason = reason
        return choice

    def _search(self, view: Any, candidates: list[Any], rng: Any) -> dict[Any, float]:
        """Mean rollout value of the candidates still in the race at the end.

        ``search="even"``: one round, the budget split evenly. ``"halving"`` (successive
        halving): the budget is split evenly over ``ceil(log2(candidates))`` rounds, and after
        each round but the last only the better half (rounded up) goes on. Every round gives each
        candidate in it the same number of rollouts (at least one, so a budget smaller than the
        candidates is exceeded) with the same dice seeds."""
        totals = {c: 0.0 for c in candidates}
        counts = {c: 0 for c in candidates}
        alive = list(candidates)
        rounds = 1 if self.search == "even" else max(1, math.ceil(math.log2(len(alive))))
        for r in range(rounds):
            n = max(1, (self.budget // rounds) // len(alive))
            seeds = [int(x) for x in rng.integers(0, 2**63 - 1, size=n)]
            for c in alive:
                totals[c] += sum(self._rollout(view, c, seed) for seed in seeds)
                counts[c] += n
            if r < rounds - 1:
                ranked = sorted(alive, key=lambda c: -totals[c] / counts[c])  # stable: ties keep
                alive = [c for c in alive if c in ranked[:math.ceil(len(alive) / 2)]]  # order
        return {c: totals[c] / counts[c] for c in alive}

    # ------------------------------------------------------------------ which decisions
    def _candidates(self, view: Any, legal: list[Any]) -> list[Any]:
        if view.phase == T.ACTION:
            scores = self.heuristic.action_scores(view, legal)
            ranked = sorted(scores, key=lambda a: -scores[a])
            top = ranked[:self.width]
            stay = ChooseAction("pass")  # doing nothing is always worth comparing against
            return top + ([stay] if stay in legal and stay not in top else [])
        if view.phase == T.GOAL:
            verdict = self.heuristic.goal_verdict(view, legal)
            if isinstance(verdict, (KeepGoal, Bribe)):
                return [verdict]  # a goal its heuristic keeps is kept (no search)
            fixed = [a for a in legal if isinstance(a, (KeepGoal, Bribe))]
            scores = self.heuristic.goal_scores(view, legal)
            goals = sorted(scores, key=lambda a: -scores[a])[:self.width]
            return fixed + [g for g in goals if isinstance(g, ChooseGoal)]
        return []

    # ------------------------------------------------------------------ one rollout
    def _rollout(self, view: Any, action: Any, seed: int,
                 afterstate: Callable[[Any], None] | None = None) -> float:
        """One rollout's value (see the module docstring). ``afterstate``, if given, is called
        once with the rollout's state when the faction's own action is over (its sub-steps
        played by the heuristic: :func:`factionsim.agents.afterstate.action_over`); training
        a learned evaluator of such states records them (``factionsim train --method
        value``). It does not change the rollout."""
        me = view.faction_id
        state, rng = self._rebuilt(view, seed)
        start, earned, late = state.turn, state.factions[me].xp_earned, 0.0
        state.apply(action)
        stop = state.turn + 1 + self.horizon
        for _ in range(5000):
            if afterstate is not None and action_over(state, me, start):
                afterstate(state)
                afterstate = None
            gained = state.factions[me].xp_earned - earned
            if gained:  # XP k turns from now is worth discount**k of XP now
                late += gained * (1.0 - self.discount ** (state.turn - start))
                earned += gained
            if state.is_over() or state.turn >= stop or not self._advance(state, me, rng):
                break
        if afterstate is not None:  # the game ended within the action
            afterstate(state)
        value = rollout_value(state, me) if self.leaf is None else float(self.leaf(state, me))
        return value - late

    def afterstate(self, view: Any, action: Any, seed: int) -> Any:
        """The state a rollout of ``action`` with dice ``seed`` reaches when the faction's action
        is over (the one :meth:`_rollout` hands its ``afterstate`` callback): rebuilt from
        ``view`` with the same dice, the action's own steps played by the same heuristics."""
        me = view.faction_id
        state, rng = self._rebuilt(view, seed)
        start = state.turn
        state.apply(action)
        for _ in range(5000):
            if action_over(state, me, start) or not self._advance(state, me, rng):
                break
        return state

    @staticmethod
    def _rebuilt(view: Any, seed: int) -> tuple[Any, np.random.Generator]:
        """A rollout's start: the game rebuilt from ``view`` (what the faction knows) with dice
        ``seed`` of its own, and the generator its heuristics draw from."""
        return view.to_state(np.random.default_rng(seed)), np.random.default_rng(seed ^ 0x5EED)

    def _advance(self, state: Any, me: str, rng: Any) -> bool:
        """One decision of a rollout, made by the heuristic that plays its actor (False when
        nobody is to decide)."""
        actor = state.current_actor()
        if actor is None:
            return False
        agent = self._rollout_agent(actor, actor == me)
        state.apply(agent.act(state.view(actor), state.legal_actions(), rng))
        return True

    def _rollout_agent(self, faction: str, mine: bool) -> HeuristicAgent:
        """The heuristic that plays ``faction`` in rollouts: for its own faction, with its
        temperament and steering; for the others, as they would play by default."""
        key = (faction, mine)
        if key not in self._rollout_agents:
            self._rollout_agents[key] = HeuristicAgent(
                temperament=self.heuristic.temperament, **self.options) if mine \
                else HeuristicAgent()
        return self._rollout_agents[key]


def rollout_value(state: Any, me: str) -> float:
    """How good ``state`` is for faction ``me``, in XP: its score (1 + goal XP earned + the share
    of its HP left), half the XP of its current goal in proportion to the progress made, its
    wealth at 0.02 XP per Treasure (Treasure in hand plus what its assets cost, scaled by the HP
    they have left: buying an asset is not a loss), 0.05 per unspent XP; minus half the best
    rival's score."""
    scores = state.scores()
    f = state.factions[me]
    own = scores[me]
    if f.alive:
        g = f.goal
        if g is not None and g.needed:
            own += 0.5 * min(1.0, g.progress / g.needed) * (g.difficulty or 1)
        holdings = sum(a.kind.cost * a.hp / max(1, a.max_hp) for a in state.assets_of(me))
        own += 0.02 * (f.treasure + holdings) + 0.05 * f.xp
    rival = max((v for k, v in scores.items() if k != me), default=0.0)
    return own - 0.5 * rival
