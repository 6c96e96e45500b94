"""Tournaments: agents play whole games of a campaign with seats rotated; who wins how often.

- Seats: in game ``g`` the faction at position ``i`` (campaign order) is played by
  ``agents[(i + g) % len(agents)]``, so over ``len(agents)`` games every agent sits at every
  position.
- A game ends after ``turns`` turns (or when fewer than two factions stand). The **winner** is
  the faction with the best ``state.scores()``; when several tie for the best score the win is
  shared: each tied faction's agent gets ``1/k`` of a win (an agent holding two tied seats gets
  ``2/k``).
- Win rates come with Wilson 95% confidence intervals (``games`` = games the agent took part in).
- Pairwise: "A vs B" is the share of the games with both in which A's best seat finished above
  B's best seat (ties count half).
- Ratings: OpenSkill (Plackett-Luce) updated game by game in game order, each agent one team
  ranked by its best seat.
- Seeds: game ``g`` uses ``numpy.random.SeedSequence([seed, g])``, so the results are identical
  for any number of workers and either backend (local processes or Ray,
  :mod:`factionsim.backends`).

>>> r = run_tournament(["idle", "random"], games=2, turns=2, workers=1)
>>> sorted(r["agents"]), r["games"]
(['idle', 'random'], 2)
>>> wilson(8, 10)[0] < 0.8 < wilson(8, 10)[1]
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_TURNS = 20


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes out of ``n`` (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def seat_agents(factions: list[str], agents: list[str], game: int) -> dict[str, str]:
    """Which agent plays which faction in game ``game``."""
    return {fid: agents[(i + game) % len(agents)] for i, fid in enumerate(factions)}


def load_template(campaign: str | None) -> tuple[type, dict[str, Any]]:
    """A campaign parsed once: its state class and ``to_dict()`` (what workers rebuild games from)."""
    from factionsim.configs import default_campaign_path
    from factionsim.core.campaign import load_campaign

    state = load_campaign(Path(campaign) if campaign else default_campaign_path())
    return type(state), state.to_dict()


def seeded_state(template: tuple[type, dict[str, Any]], seed: int, game: int) -> Any:
    """A fresh state of the template whose dice come from ``SeedSequence([seed, game])``."""
    import numpy as np

    state_cls, data = template
    state = state_cls.from_dict(data)
    seq = np.random.SeedSequence([seed, game])
    state.seed = int(seq.generate_state(1)[0])
    state.rng = np.random.default_rng(seq)
    return state


def play_game(campaign: str | None, agents: list[str], game: int, seed: int, turns: int,
              agent_options: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play one game; returns its seats, scores and winners (plain data)."""
    return _game_job((load_template(campaign), agents, seed, turns, agent_options), game)


def _game_job(shared: tuple, game: int) -> dict[str, Any]:
    """One game from the shared inputs ``(template, agents, seed, turns, agent_options)``."""
    from factionsim.agents import make_agent
    from factionsim.runner import play

    template, agents, seed, turns, agent_options = shared
    state = seeded_state(template, seed, game)
    state.max_turns = state.turn + turns
    seats = seat_agents(list(state.factions), agents, game)
    players = {}
    for fid, name in seats.items():
        options = {**state.factions[fid].agent_options, **(agent_options or {}).get(name, {})}
        players[fid] = make_agent(name, **options)
    play(state, turns, players)
    scores = {k: round(float(v), 6) for k, v in state.scores().items()}
    best = max(scores.values())
    winners = [fid for fid, v in scores.items() if v == best]
    return {"game": game, "seats": seats, "scores": scores, "winners": winners,
            "turns": state.turn}


def run_tournament(agents: list[str], games: int, campaign: str | None = None,
                   turns: int = DEFAULT_TURNS, seed: int = 0, workers: int | None = 1,
                   agent_options: dict[str, dict[str, Any]] | None = None,
                   progress: Callable[[], None] | None = None, backend: str = "local",
                   address: str | None = None) -> dict[str, Any]:
    """Play ``games`` games and aggregate them (see the module docstring).

    ``backend``/``workers``/``address``: where the games run (:mod:`factionsim.backends`); the
    campaign is parsed once here and shared with every worker."""
    from factionsim.backends import run_jobs
    from factionsim.models.trust import carry_trust
    from factionsim.runner import agent_for_campaign

    template = load_template(campaign)
    start = template[0].from_dict(template[1])
    for name in dict.fromkeys(agents):  # fail early and clearly on an agent that cannot play
        for fid, f in start.factions.items():  # every agent sits at every seat
            options = {**f.agent_options, **(agent_options or {}).get(name, {})}
            agent_for_campaign(start, fid, name, options, campaign or "the bundled campaign")
    shared = (template, list(agents), seed, turns, agent_options)
    results = run_jobs(carry_trust(_game_job), range(games), shared=shared, backend=backend,
                       workers=workers, address=address, progress=progress)
    return aggregate(results, list(dict.fromkeys(agents)), turns=turns, seed=seed,
                     campaign=campaign)


def aggregate(results: list[dict[str, Any]], names: list[str], **meta: Any) -> dict[str, Any]:
    """Win rates, pairwise table and ratings from the per-game results (in game order)."""
    from openskill.models import PlackettLuce

    stats = {n: {"games": 0, "wins": 0.0, "seats": 0} for n in names}
    pair = {a: {b: [0.0, 0] for b in names if b != a} for a in names}
    model = PlackettLuce()
    ratings = {n: model.rating(name=n) for n in names}
    for r in sorted(results, key=lambda r: r["game"]):
        seats, scores = r["seats"], r["scores"]
        best = {}
        for fid, name in seats.items():
            stats[name]["seats"] += 1
            best[name] = max(best.get(name, -1.0), scores[fid])
        for name in best:
            stats[name]["games"] += 1
        share = 1 / len(r["winners"])
        for fid in r["winners"]:
            stats[seats[fid]]["wins"] += share
        for a in best:
            for b in best:
                if a != b:
                    pair[a][b][0] += 1.0 if best[a] > best[b] else 0.5 if best[a] == best[b] else 0
                    pair[a][b][1] += 1
        if len(best) > 1:
            order = list(best)
            new = model.rate([[ratings[n]] for n in order], scores=[best[n] for n in order])
            for n, team in zip(order, new, strict=True):
                ratings[n] = team[0]
    out_agents = {}
    for n in names:
        s = stats[n]
        lo, hi = wilson(s["wins"], s["games"])
        rate = s["wins"] / s["games"] if s["games"] else 0.0
        out_agents[n] = {"games": s["games"], "seats": s["seats"], "wins": round(s["wins"], 4),
                         "win_rate": round(rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
                         "rating_mu": round(ratings[n].mu, 3),
                         "rating_sigma": round(ratings[n].sigma, 3),
                         "rating": round(ratings[n].ordinal(), 3)}
    pairwise = {a: {b: {"share": round(v[0] / v[1], 4) if v[1] else None, "games": v[1]}
                    for b, v in row.items()} for a, row in pair.items()}
    return {"games": len(results), **meta, "agents": out_agents, "pairwise": pairwise,
            "results": results}


def format_table(result: dict[str, Any]) -> str:
    """The results as plain text: win rates with CIs and ratings, then the pairwise table."""
    names = list(result["agents"])
    lines = [f"{result['games']} games, {result.get('turns')} turns each",
             f"{'agent':<16}{'games':>6}{'wins':>8}{'win rate':>10}  {'95% CI':<15}{'rating':>8}"]
    for n, a in result["agents"].items():
        lo, hi = a["ci95"]
        lines.append(f"{n:<16}{a['games']:>6}{a['wins']:>8.1f}{a['win_rate']:>10.1%}  "
                     f"[{lo:.1%}, {hi:.1%}]".ljust(55) + f"{a['rating']:>8.2f}")
    if len(names) > 1:
        lines += ["", "pairwise: share of games the row agent finished above the column agent"]
        lines.append(" " * 16 + "".join(f"{b:>14}" for b in names))
        for a in names:
            cells = "".join(f"{'-':>14}" if a == b else
                            f"{_share(result['pairwise'][a][b]):>14}" for b in names)
            lines.append(f"{a:<16}{cells}")
    return "\n".join(lines)


def _share(cell: dict[str, Any]) -> str:
    return "n/a" if cell["share"] is None else f"{cell['share']:.1%}"


def to_csv(result: dict[str, Any]) -> str:
    """One row per agent: win rates, CI, rating, then its pairwise shares."""
    import csv
    import io

    names = list(result["agents"])
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["agent", "games", "seats", "wins", "win_rate", "ci95_low", "ci95_high",
                "rating", "rating_mu", "rating_sigma", *[f"above_{b}" for b in names]])
    for n, a in result["agents"].items():
        shares = ["" if n == b else result["pairwise"][n][b]["share"] for b in names]
        w.writerow([n, a["games"], a["seats"], a["wins"], a["win_rate"], *a["ci95"], a["rating"],
                    a["rating_mu"], a["rating_sigma"], *shares])
    return buf.getvalue()
