"""Many games at once, the networks' decisions batched: the engine of imitation and PPO.

A game is a Python generator (:func:`game`): it plays the rules until a seat played by a
*network* must decide, then yields a :class:`Decision` (the observation, the catalogue indices
of the legal actions, and, when an expert watches, the index the expert would choose) and waits
for the choice. Seats played by agents (``heuristic``, ``planner``...) act inline. A
:class:`Games` runs several such games side by side and answers all the decisions of one network
with one batched forward pass (learner and frozen opponents alike), starting a new game whenever
one ends.

Games are drawn by a :class:`Campaigns` source: the campaign of the run, or WWN campaigns made by
:func:`factionsim.rules.wwn.generate.generate_campaign` with a fresh seed each time, or a seed
drawn from a range (``seeds``: the campaigns ``factionsim new --seed S`` makes for those S; the
policy then plays any campaign of the same shape, not one map).

>>> import numpy as np
>>> from factionsim.agents import make_agent
>>> src = Campaigns("wwn", generated=1.0)
>>> state = src.draw(np.random.default_rng(0))
>>> seats = {fid: ("net", "me") if i == 0 else make_agent("heuristic", "wwn")
...          for i, fid in enumerate(state.factions)}
>>> g = game(state, src.codec_for(state), seats, np.random.default_rng(1), turns=2)
>>> d = next(g)
>>> d.network, len(d.legal) >= 2, d.obs.shape == (src.codec.obs_size,)
('me', True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factionsim.core.game import FactionsimError


@dataclass
class Decision:
    """A decision a network must take (what :func:`game` yields)."""

    seat: str  # the faction deciding
    network: str  # which network decides (a key of Games' networks)
    obs: np.ndarray  # float32 observation (a copy)
    legal: np.ndarray  # catalogue indices of the legal actions (those the catalogue holds)
    expert: int = -1  # position in ``legal`` of the expert's choice (-1: no expert / not held)
    phi: float = 0.0  # the seat's standing now: own score minus the best rival's
    game_id: int = 0
    phase: str = ""
    labelled: bool = True  # False: the expert does not label this decision (see ``game``)
    # an expert that values its candidates (``last_values``, .advantage.PlannerValues): their
    # catalogue indices and advantages over its own choice; None where it values nothing
    values: tuple[np.ndarray, np.ndarray] | None = None


@dataclass
class GameResult:
    """How a game ended for every faction: ``outcome`` +1 the sole best score, 0 a shared best
    score, -1 otherwise or collapsed; ``phi`` the final standing (see :class:`Decision`)."""

    outcome: dict[str, float]
    phi: dict[str, float]
    scores: dict[str, float]
    seats: dict[str, Any]
    game_id: int = 0
    turns: int = 0


def standing(scores: Mapping[str, float], faction: str) -> float:
    """Own score minus the best rival's (the env's shaping potential)."""
    rivals = [v for k, v in scores.items() if k != faction]
    return float(scores[faction] - (max(rivals) if rivals else 0.0))


#: What ``send`` answers to a :class:`Decision`: a position in ``legal`` (the action played), or
#: :data:`PLAY_EXPERT` (the expert's action is played, also one the catalogue does not hold).
PLAY_EXPERT = -1


def game(state: Any, codec: Any, seats: Mapping[str, Any], rng: np.random.Generator,
         turns: int, expert: Any = None, watched: frozenset[str] | set[str] = frozenset(),
         game_id: int = 0, searched_only: bool = False) -> Generator[Decision, int, GameResult]:
    """Play ``state`` for ``turns`` turns (or until it is over). ``seats[faction]`` is an agent
    (it acts inline) or ``("net", KEY)``: network ``KEY`` decides (the generator yields a
    :class:`Decision` and is sent the choice). ``expert``: an agent asked at the decisions of the
    ``watched`` network seats (its choice is the Decision's ``expert``); it draws from its own
    generator, so watching changes nothing else in the game. ``searched_only``: a Decision is
    ``labelled`` only where the expert searches (its ``searches(view, legal)`` is true: the
    planner's faction action and goal; every other decision of a planner is its heuristic's)."""
    state.max_turns = state.turn + turns
    buf = np.zeros(codec.obs_size, dtype=np.float32)
    expert_rng = np.random.default_rng(rng.integers(1 << 62))
    fallback: Any = None
    for _ in range(100_000):
        if state.is_over():
            break
        actor = state.current_actor()
        if actor is None:
            break
        legal = state.legal_actions()
        seat = seats[actor]
        if not (isinstance(seat, tuple) and seat[0] == "net"):
            action = seat.act(state.view(actor), legal, rng)
            state.apply(action)
            continue
        try:
            view = state.view(actor)
            indices = codec.encode_actions(view, legal)
            obs = codec.observe(view, buf).copy()
        except FactionsimError:  # beyond the codec's limits: the heuristic decides
            if fallback is None:
                from factionsim.agents import make_agent

                fallback = make_agent("heuristic", state.ruleset)
            state.apply(fallback.act(state.view(actor), legal, rng))
            continue
        playable = [i for i, k in enumerate(indices) if k >= 0]
        expert_pos, expert_action, labelled = -1, None, True
        if expert is not None and actor in watched:
            if searched_only:
                labelled = bool(expert.searches(state.view(actor), legal))
            expert_action = expert.act(state.view(actor), legal, expert_rng)
            k = next(i for i, a in enumerate(legal) if a is expert_action or a == expert_action)
            expert_pos = playable.index(k) if k in playable else -1
        decision = Decision(actor, seat[1], obs, np.asarray([indices[i] for i in playable]),
                            expert_pos, standing(state.scores(), actor), game_id, state.phase,
                            labelled, _valued(expert if expert_action is not None else None, codec,
                                                     state.view(actor), indices, legal))
        choice = yield decision
        if choice == PLAY_EXPERT and expert_action is not None:
            state.apply(expert_action)
        else:
            state.apply(legal[playable[choice]])
    scores = {k: float(v) for k, v in state.scores().items()}
    best = max(scores.values())
    n_best = sum(v == best for v in scores.values())
    outcome = {f: (-1.0 if not state.factions[f].alive or scores[f] < best
                   else 1.0 if n_best == 1 else 0.0) for f in scores}
    return GameResult(outcome, {f: standing(scores, f) for f in scores}, scores,
                      dict(seats), game_id, int(state.turn))


def _valued(expert: Any, codec: Any, view: Any, indices: list[int],
            legal: list[Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """The expert's ``last_values`` (action -> advantage) as catalogue indices and advantages,
    those the catalogue holds; ``None`` if it valued nothing (or fewer than two of them)."""
    values = getattr(expert, "last_values", None)
    if not values:
        return None
    pairs = [(indices[legal.index(a)], v) for a, v in values.items() if a in legal]
    pairs = [(k, v) for k, v in pairs if k >= 0]
    if len(pairs) < 2:
        return None
    return (np.array([k for k, _ in pairs], np.int64), np.array([v for _, v in pairs],
                                                                np.float32))


class Campaigns:
    """Where games come from: the ruleset's campaign (``campaign``: a file, or the bundled one)
    and, for WWN, with probability ``generated``, a campaign generated with a fresh seed of the
    same shape (factions, locations) as the base campaign: its seed drawn from ``seeds``
    (``(lo, hi)``, both included: training campaigns kept apart from those a policy is measured
    on) or, without, any seed below 2**31. ``hostile``: the share of generated campaigns played
    with the house rule ``relations_default: hostile`` instead of the generator's ``neutral``
    (every pair of factions the campaign does not list is at war, as in the bundled campaign; the
    listed rivals and allies stay as they are). ``prior``: the policy file's ``prior`` field of a
    residual policy (its networks read the heuristic's choice too).

    >>> from factionsim.rules.wwn.generate import generate_campaign
    >>> src = Campaigns("wwn", generated=1.0, seeds=(1000, 1001))
    >>> drawn = {src.draw(np.random.default_rng(k)).name for k in range(8)}
    >>> drawn == {generate_campaign(4, 10, s)["name"] for s in (1000, 1001)}
    True
    """

    def __init__(self, ruleset: str = "wwn", campaign: str | None = None, generated: float = 0.0,
                 prior: Mapping[str, Any] | None = None,
                 seeds: tuple[int, int] | None = None, hostile: float = 0.0):
        from factionsim.envs import make_codec
        from factionsim.runner import CampaignTemplate

        self.ruleset = ruleset
        self.template = CampaignTemplate.load(campaign, ruleset)
        self.base = self.template.state_class.from_dict(self.template.data)
        if generated > 0 and ruleset != "wwn":
            raise ValueError("generated campaigns exist for the wwn ruleset only")
        if seeds is not None and not 0 <= seeds[0] <= seeds[1]:
            raise ValueError(f"generated campaign seeds {seeds}: give LO HI with 0 <= LO <= HI")
        self.generated = float(generated)
        self.seeds = seeds
        self.hostile = float(hostile)
        self.prior = dict(prior) if prior else None
        self._make_codec = make_codec
        self.codec = self._codec(self.base)  # the base campaign's (the spaces of every game)
        self.shape = (len(self.base.factions), len(self.base.location_ids()))

    def codec_for(self, state: Any) -> Any:
        """The codec of ``state``'s campaign (the base campaign's, or a new one of the same
        spaces for a generated campaign)."""
        if state.name == self.base.name and list(state.factions) == list(self.base.factions):
            return self.codec
        return self._codec(state)

    def _codec(self, state: Any) -> Any:
        """``state``'s codec; with a ``prior``, wrapped to append it to every observation
        (:class:`factionsim.models.prior.PriorCodec`)."""
        codec = self._make_codec(state)
        if self.prior:
            from factionsim.models.prior import PriorCodec
            from factionsim.rulesets import ruleset_of

            codec = PriorCodec(codec, ruleset_of(state), self.prior["agent"],
                               self.prior["weight"])
        return codec

    def draw(self, rng: np.random.Generator) -> Any:
        """A fresh game state (its dice seeded from ``rng``)."""
        from factionsim.core.dice import reseed

        if self.generated and rng.random() < self.generated:
            from factionsim.rules.wwn.generate import generate_campaign
            from factionsim.rulesets import build_campaign

            lo, hi = self.seeds if self.seeds else (0, (1 << 31) - 1)
            seed = int(rng.integers(lo, hi + 1))
            data = generate_campaign(self.shape[0], self.shape[1], seed)
            if self.hostile and rng.random() < self.hostile:  # (no draw without: runs replay)
                data["house_rules"] = {**data.get("house_rules", {}), "relations_default": "hostile"}
            state = build_campaign(data, {}, f"generated campaign (seed {seed})")
        else:
            state = self.template.state_class.from_dict(self.template.data)
        reseed(state, int(rng.integers(1 << 62)))
        return state


#: A network's answer to a batch: ``decide(obs (n, obs_size), legal list) -> (positions, extra)``
Decider = Callable[[np.ndarray, list[np.ndarray]], tuple[np.ndarray, dict[str, np.ndarray]]]


@dataclass
class Running:
    gen: Generator[Decision, int, GameResult]
    pending: Decision | None = None
    decisions: list[tuple[Decision, int, dict[str, Any]]] = field(default_factory=list)


class Games:
    """``n`` games side by side (see the module docstring). ``new_game(rng, game_id)`` returns a
    fresh game generator; ``deciders[key]`` answers the decisions of network ``key``;
    ``choose(decision, position)`` may override what is played (DAgger's mixture plays the
    expert's action sometimes: return :data:`PLAY_EXPERT`)."""

    def __init__(self, n: int, new_game: Callable[[np.random.Generator, int], Any],
                 deciders: Mapping[str, Decider], rng: np.random.Generator,
                 choose: Callable[[Decision, int], int] | None = None):
        self.n, self.new_game, self.deciders, self.rng = n, new_game, deciders, rng
        self.choose = choose
        self.next_id = 0
        self.running: list[Running] = []

    def _start(self) -> Running:
        """A new game, run to its first network decision."""
        for _ in range(1000):
            gid = self.next_id
            self.next_id += 1
            r = Running(self.new_game(self.rng, gid))
            try:
                r.pending = next(r.gen)
                return r
            except StopIteration as stop:
                self.on_game_end(r.decisions, stop.value)
        raise FactionsimError("1000 games in a row without a decision for a network")

    def on_game_end(self, decisions: list[tuple[Decision, int, dict[str, Any]]],
                    result: GameResult) -> None:
        """Called with every network decision of a finished game (decision, position played,
        the decider's extras) and its result."""

    def run(self, stop_starting: Callable[[], bool]) -> None:
        """Play games, ``n`` at a time, starting new ones until ``stop_starting()`` is true, then
        finish those running (so every game played is whole)."""
        while True:
            while len(self.running) < self.n and not stop_starting():
                self.running.append(self._start())
            if not self.running:
                return
            groups: dict[str, list[Running]] = {}
            for r in self.running:
                groups.setdefault(r.pending.network, []).append(r)
            for key, rs in groups.items():
                obs = np.stack([r.pending.obs for r in rs])
                positions, extra = self.deciders[key](obs, [r.pending.legal for r in rs])
                for j, r in enumerate(rs):
                    d = r.pending
                    pos = int(positions[j])
                    if self.choose is not None:
                        pos = self.choose(d, pos)
                    r.decisions.append((d, pos, {k: v[j] for k, v in extra.items()}))
                    try:
                        r.pending = r.gen.send(pos)
                    except StopIteration as stop:
                        self.on_game_end(r.decisions, stop.value)
                        r.pending = None
            self.running = [r for r in self.running if r.pending is not None]
