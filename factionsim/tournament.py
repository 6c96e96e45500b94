"""Tournaments: agents play whole games of a campaign with seats rotated; who wins how often.

- Seats: in game ``g`` the faction at position ``i`` (campaign order) is played by
  ``agents[(i + g) % len(agents)]``, so over ``len(agents)`` games every agent sits at every
  position.
- A game ends after ``turns`` turns (by default the campaign's own ``max_turns``, else
  :data:`DEFAULT_TURNS`), or when fewer than two factions stand. The **winner** is
  the faction with the best ``state.scores()``; when several tie for the best score the win is
  shared: each tied faction's agent gets ``1/k`` of a win (an agent holding two tied seats gets
  ``2/k``).
- Win rates come with Wilson 95% confidence intervals (``games`` = games the agent took part in).
- Pairwise: "A vs B" is the share of the games with both in which A's best seat finished above
  B's best seat (ties count half).
- Ratings: OpenSkill (Plackett-Luce) updated game by game in game order, each agent one team
  ranked by its best seat.
- Seeds: game ``g``'s dice come from ``(seed, g)`` (:func:`factionsim.core.dice.seeded_dice`:
  ``numpy.random.SeedSequence([seed, g])``), so the results are identical
  for any number of workers and either backend (local processes or Ray,
  :mod:`factionsim.backends`).

- Options: ``agent_options`` gives an agent its options in every seat it holds, over the
  campaign's own ``agent_options`` for that agent (``factionsim tournament --agent-options
  AGENT:OPTION=VALUE``: :func:`parse_agent_options`); each is checked against the options the
  agent declares before any game.

>>> r = run_tournament(["idle", "random"], games=2, turns=2, workers=1)
>>> sorted(r["agents"]), r["games"]
(['idle', 'random'], 2)
>>> wilson(8, 10)[0] < 0.8 < wilson(8, 10)[1]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from factionsim.core.game import CampaignError
from factionsim.core.ruleset import DEFAULT_RULESET
from factionsim.core.stats import wilson
from factionsim.runner import CampaignTemplate

#: Turns per game for a campaign without its own ``max_turns``.
DEFAULT_TURNS = 20


#: how ``--agent-options`` is written (in error messages)
OPTION_USAGE = "AGENT:OPTION=VALUE (e.g. trained:deterministic=true, planner:budget=8)"


def parse_agent_options(texts: Iterable[str]) -> dict[str, dict[str, Any]]:
    """``AGENT:OPTION=VALUE`` texts as options per agent. AGENT is written as in ``--agents``
    (``policy:PATH`` included: the option is the name after the last ``:`` before the ``=``);
    VALUE is read as YAML (``true``, ``8``, ``0.5``, ``[a, b]``, text). Raises
    :class:`CampaignError` for a text of another form; whether the agent takes the option is
    checked by :func:`prepare`.

    >>> parse_agent_options(["trained:deterministic=true", "planner:budget=8",
    ...                      "policy:runs/a.json:deterministic=false"])
    {'trained': {'deterministic': True}, 'planner': {'budget': 8}, \
'policy:runs/a.json': {'deterministic': False}}
    """
    from factionsim.core.safeyaml import parse_yaml

    out: dict[str, dict[str, Any]] = {}
    for text in texts:
        head, equals, value = text.partition("=")
        agent, colon, option = head.rpartition(":")
        if not (equals and colon and agent.strip() and option.strip()):
            raise CampaignError(f"--agent-options {text!r}: write {OPTION_USAGE}")
        out.setdefault(agent.strip(), {})[option.strip()] = parse_yaml(
            value, f"--agent-options {text!r}")
    return out


def check_agent_options(agent_options: dict[str, dict[str, Any]], agents: Iterable[str],
                        ruleset: Any) -> None:
    """Every agent given options plays in the tournament and takes those options (as the
    ``agent`` / ``agent_options`` of a campaign file are checked); raises
    :class:`CampaignError` naming the agent and option and what is allowed."""
    from factionsim.core.ruleset import agent_problem

    playing = list(dict.fromkeys(agents))
    for name, options in agent_options.items():
        if name not in playing:
            raise CampaignError(f"agent options for {name!r}, which does not play in this "
                                f"tournament (agents: {', '.join(playing)})")
        problem = agent_problem(name, options, ruleset.offered_agents(), ruleset.name)
        if problem is not None:
            raise CampaignError(f"agent options for {name!r}: {problem[1]}")


def seat_agents(factions: list[str], agents: list[str], game: int) -> dict[str, str]:
    """Which agent plays which faction in game ``game``."""
    return {fid: agents[(i + game) % len(agents)] for i, fid in enumerate(factions)}


@dataclass(frozen=True)
class TournamentJob:
    """What every game of a tournament shares (sent once to each worker; the item of a job is
    the game number)."""

    template: CampaignTemplate
    agents: tuple[str, ...]
    seed: int
    turns: int
    agent_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def seat_options(self, state: Any, faction: str, agent: str) -> dict[str, Any]:
        """The options of ``agent`` at ``faction``'s seat: the campaign's ``agent_options`` of
        that faction when the campaign names the same agent there, then the tournament's own
        options for ``agent``."""
        f = state.factions[faction]
        own = f.agent_options if f.agent == agent else {}
        return {**own, **self.agent_options.get(agent, {})}


def play_game(job: TournamentJob, game: int) -> dict[str, Any]:
    """Play game ``game`` of a tournament; returns its seats, scores and winners (plain data)."""
    from factionsim.agents import make_agent
    from factionsim.runner import play

    state = job.template.new_game(job.seed, game)
    state.max_turns = state.turn + job.turns
    seats = seat_agents(list(state.factions), list(job.agents), game)
    players = {fid: make_agent(name, state.ruleset, **job.seat_options(state, fid, name))
               for fid, name in seats.items()}
    play(state, job.turns, players)
    scores = {k: round(float(v), 6) for k, v in state.scores().items()}
    best = max(scores.values())
    winners = [fid for fid, v in scores.items() if v == best]
    return {"game": game, "seats": seats, "scores": scores, "winners": winners,
            "turns": state.turn}


def prepare(agents: list[str], campaign: str | None = None, ruleset: str = DEFAULT_RULESET,
            turns: int | None = None, seed: int = 0,
            agent_options: dict[str, dict[str, Any]] | None = None) -> TournamentJob:
    """Parse the campaign once and check every agent against its ruleset and at every seat,
    since every agent sits at every seat (an unknown agent, one the ruleset does not offer, bad
    options, or a trained policy that does not fit the campaign fail here, before any game)."""
    from factionsim.rulesets import ruleset_of
    from factionsim.runner import CampaignTemplate, agent_for_campaign, turns_to_play

    template = CampaignTemplate.load(campaign, ruleset)
    start = template.state_class.from_dict(template.data)
    check_agent_options(dict(agent_options or {}), agents, ruleset_of(start))
    job = TournamentJob(template, tuple(agents), seed, turns_to_play(start, turns, DEFAULT_TURNS),
                        dict(agent_options or {}))
    for name in dict.fromkeys(agents):
        for fid in start.factions:
            agent_for_campaign(start, fid, name, job.seat_options(start, fid, name),
                               campaign or "the bundled campaign")
    return job


def run_tournament(agents: list[str], games: int, campaign: str | None = None,
                   turns: int | None = None, seed: int = 0, workers: int | None = 1,
                   agent_options: dict[str, dict[str, Any]] | None = None,
                   progress: Callable[[], None] | None = None, backend: str = "local",
                   address: str | None = None, ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
    """Play ``games`` games and aggregate them (see the module docstring).

    ``campaign``: a campaign file (default: ``ruleset``'s bundled one); ``turns``: per game
    (default: the campaign's own ``max_turns``, else :data:`DEFAULT_TURNS`).
    ``backend``/``workers``/``address``: where the games run (:mod:`factionsim.backends`); the
    campaign is parsed once here and shared with every worker."""
    from factionsim.backends import run_jobs
    from factionsim.models.trust import carry_trust

    job = prepare(agents, campaign, ruleset, turns, seed, agent_options)
    results = run_jobs(carry_trust(play_game), range(games), shared=job, backend=backend, workers=workers,
                       address=address, progress=progress)
    return aggregate(results, list(dict.fromkeys(agents)), turns=job.turns, seed=seed,
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
    """The results as plain text: win rates with CIs and ratings, then the pairwise table (the
    columns as wide as the longest agent name needs: ``policy:runs/.../policy.json``...)."""
    names = list(result["agents"])
    first = max(16, max(map(len, names), default=0) + 2)  # the agent column
    width = {b: max(14, len(b) + 2) for b in names}  # each pairwise column, by its agent
    lines = [f"{result['games']} games, {result.get('turns')} turns each",
             f"{'agent':<{first}}{'games':>6}{'wins':>8}{'win rate':>10}  {'95% CI':<17}"
             f"{'rating':>8}"]
    for n, a in result["agents"].items():
        lo, hi = a["ci95"]
        lines.append(f"{n:<{first}}{a['games']:>6}{a['wins']:>8.1f}{a['win_rate']:>10.1%}  "
                     + f"[{lo:.1%}, {hi:.1%}]".ljust(17) + f"{a['rating']:>8.2f}")
    if len(names) > 1:
        lines += ["", "pairwise: share of games the row agent finished above the column agent"]
        lines.append(" " * first + "".join(f"{b:>{width[b]}}" for b in names))
        for a in names:
            cells = "".join(f"{'-':>{width[b]}}" if a == b else
                            f"{_share(result['pairwise'][a][b]):>{width[b]}}" for b in names)
            lines.append(f"{a:<{first}}{cells}")
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
