"""How often a player wins: games against registry opponents, its seat in rotation.

The games are played by the one game loop every command uses (:func:`factionsim.runner.play`,
as ``run``, ``batch`` and ``tournament`` play theirs), so an evaluation plays exactly what a
campaign would. The *player* is an :class:`~factionsim.core.game.Agent`: the policy being
trained (a :class:`~factionsim.agents.policy.PolicyAgent` over the network in memory, as the
file will hold it), or for ``--eval-only`` the agent the registry makes (``trained``,
``random``, ``policy:PATH``). Every other seat is played by ``opponent``, made by the registry
for the run's ruleset.

- Game ``g`` starts from the run's campaign with its dice from ``(seed, g)``
  (:meth:`~factionsim.runner.CampaignTemplate.new_game`, as a tournament's game ``g``), lasts
  ``max_turns`` turns (or until fewer than two factions stand), and the player sits at the
  ``g``-th seat in rotation; the agents draw from the turn's generator
  (:func:`~factionsim.runner.agent_rng`). An evaluation is therefore reproducible.
- A win is the sole highest score at the end; a shared highest score is counted apart; a player
  whose faction collapsed lost (the outcome the env gives a learner, see
  :mod:`factionsim.envs`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from factionsim.core.game import Agent


def outcome(scores: Mapping[str, float], faction: str, alive: bool = True) -> float:
    """``faction``'s result: +1 the sole highest score, 0 a shared highest score, -1 otherwise
    (and -1 when it collapsed).

    >>> outcome({"a": 3, "b": 1}, "a"), outcome({"a": 3, "b": 3}, "b"), outcome({"a": 3}, "a", False)
    (1.0, 0.0, -1.0)
    """
    best = max(scores.values())
    if not alive or scores[faction] < best:
        return -1.0
    return 1.0 if sum(v == best for v in scores.values()) == 1 else 0.0


def evaluate(player: Agent, args: Any, opponent: str, games: int, seed: int = 10_000,
             progress: bool = False) -> dict[str, Any]:
    """Win rate (with its Wilson 95% interval) of ``player`` over ``games`` games of the run's
    campaign (``args``: :class:`factionsim.training.Args`) against ``opponent`` in every other
    seat (``progress``: a bar of the games on stderr)."""
    from tqdm import tqdm

    from factionsim.runner import CampaignTemplate, agent_for_campaign, play
    from factionsim.tournament import wilson

    t0 = time.perf_counter()
    template = CampaignTemplate.load(args.campaign, args.ruleset)
    start = template.new_game(seed, 0)
    seats = [fid for fid, f in start.factions.items() if f.alive]
    player.check_fits(start)
    rivals = {fid: agent_for_campaign(start, fid, opponent, {}) for fid in start.factions}
    wins = shared = 0
    per_seat = {s: [0, 0] for s in seats}
    for g in tqdm(range(games), desc=f"evaluating vs {opponent}", unit="game", file=sys.stderr,
                  leave=False, disable=not progress):
        seat = seats[g % len(seats)]
        state = template.new_game(seed, g)
        state.max_turns = state.turn + args.max_turns
        play(state, args.max_turns, {**rivals, seat: player})
        result = outcome(state.scores(), seat, state.factions[seat].alive)
        wins += result > 0
        shared += result == 0
        per_seat[seat][0] += result > 0
        per_seat[seat][1] += 1
    low, high = wilson(wins, games)
    return {"opponent": opponent, "games": games, "win_rate": wins / games,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "shared_win_rate": shared / games,
            "win_rate_by_seat": {s: w / n for s, (w, n) in per_seat.items() if n},
            "seconds": round(time.perf_counter() - t0, 1)}


def run_campaign(args: Any) -> tuple[Any, str]:
    """The run's starting state and how to name its campaign."""
    from factionsim.rulesets import get_ruleset, load_campaign

    path = Path(args.campaign) if args.campaign else get_ruleset(args.ruleset).default_campaign_path()
    name = args.campaign or f"{path.name} (bundled)"
    return load_campaign(path), name


def policy_agent(policy: Any, label: str, args: Any, state: Any) -> Any:
    """The agent that plays ``policy`` (a :class:`factionsim.models.PolicyModel` in memory) in
    ``state``'s ruleset, as ``agent: policy:PATH`` plays the file."""
    from factionsim.agents.policy import PolicyAgent
    from factionsim.rulesets import ruleset_of

    return PolicyAgent(label, args.eval_deterministic, ruleset=ruleset_of(state), model=policy)
