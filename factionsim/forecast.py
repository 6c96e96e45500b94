"""Forecasts: many futures of a campaign from where it stands, and the chances of what a GM asks
("what will probably happen if I leave them alone for six turns?").

Future ``r`` plays ``turns`` turns of the campaign as it stands, with the agents the campaign
names (a faction played by hand, ``manual``, by the default agent: :func:`stand_ins`), its dice
seeded from ``(seed, r)`` (``numpy.random.SeedSequence([seed, r])``, through
:meth:`factionsim.runner.CampaignTemplate.new_game`): it is exactly run ``r`` of ``factionsim
batch`` with the same campaign, seed and turns (no faction played by hand), and the forecast is
identical for any backend and number of workers (:mod:`factionsim.backends`). The campaign file
and its own dice are never touched: a forecast does not reveal the dice of the next real turn,
and does not use them up.

For each faction over the futures (each a share with its Wilson 95% interval, :mod:`.core.stats`):

- ``goal``: completes at least one goal (rulesets whose factions pursue goals, else null);
- ``collapse``: a faction standing now is out of the game at the end;
- ``headquarters_lost``: it does not hold its headquarters at the end (it held them now;
  rulesets with headquarters, :class:`~factionsim.core.forecasting.Forecasting`);
- ``holdings``: each place held now and lost at the end, or not held now and gained (WWN: a Base
  at L, assets at L), where that happens in at least one future;
- ``fan``: for each chart of the ruleset's report (WWN: HP, Treasure, assets), the 10%, 50%
  (median) and 90% quantiles and the mean after each turn (turn 0: now); a future that ended
  early (fewer than two factions standing) keeps its last numbers.

And over all factions, ``headlines``: the events worth a probability of their own, the chance
each happens at least once (WWN: assets destroyed, collapses, goals achieved, Bases planted,
ratings raised; other rulesets: their report's key events, per faction); ``futures``: each
future's number, seed (as ``factionsim batch`` records it) and turns played.

>>> f = run_forecast(None, runs=2, turns=1)
>>> f["runs"], sorted(f["factions"]["iron-legion"])[:3]
(2, ['alive_now', 'collapse', 'fan'])
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from factionsim.core.forecasting import Forecasting, Headline, key_event_headline
from factionsim.core.game import Event, FactionsimError, GameState
from factionsim.core.names import Names
from factionsim.core.ruleset import DEFAULT_AGENT, DEFAULT_RULESET
from factionsim.core.stats import proportion, quantiles
from factionsim.runner import CampaignTemplate

DEFAULT_RUNS = 500
DEFAULT_TURNS = 6
#: The quantiles of the fan charts: the band and its middle line.
BANDS = (0.1, 0.5, 0.9)


#: Agents that wait for a person at the terminal: in a forecast or odds (thousands of decisions,
#: in worker processes) their factions are played by the ruleset's default agent instead.
ASKS_A_PERSON = ("manual",)


def stand_ins(state: GameState) -> dict[str, str]:
    """Faction -> the agent that plays it in forecasts instead of one that asks a person."""
    return {fid: DEFAULT_AGENT for fid, f in state.factions.items()
            if str(f.agent).partition(":")[0] in ASKS_A_PERSON}


def forecast_agents(state: GameState, source: Any = None) -> dict[str, Any]:
    """The campaign's agents (:func:`~factionsim.runner.agents_from_campaign`), a faction played
    by hand (``manual``) played by the default agent (:func:`stand_ins`)."""
    from factionsim.runner import agents_from_campaign

    return agents_from_campaign(state, overrides=stand_ins(state), source=source)


@dataclass(frozen=True)
class ForecastJob:
    """What every future of a forecast shares (sent once to each worker; the item of a job is
    the future's number)."""

    template: CampaignTemplate
    turns: int
    seed: int


def _facts(state: GameState) -> tuple[Forecasting, Any]:
    from factionsim.rulesets import ruleset_of

    info = ruleset_of(state)
    return info.forecasting or Forecasting(), info.present


def _headlines(events: list[Event], facts: Forecasting, key_kinds: Any,
               names: Names) -> dict[str, str]:
    """Headline key -> text of the headlines among ``events`` (each once, first text kept)."""
    out: dict[str, str] = {}
    for e in events:
        h: Headline | None
        if facts.headline is not None:
            h = facts.headline(e, names)
        else:
            h = key_event_headline(e, names) if e.kind in key_kinds else None
        if h is not None and h.key not in out:
            out[h.key] = h.text
    return out


def play_future(job: ForecastJob, run: int) -> dict[str, Any]:
    """Play future ``run``; return what the forecast counts of it (plain data)."""
    from factionsim.runner import play

    state = job.template.new_game(job.seed, run)
    facts, present = _facts(state)
    start = state.turn
    state.max_turns = start + job.turns  # as a batch run: the campaign's own end does not cut it
    goals_before = state.goals_completed()
    series = [present.series(state.to_dict())]
    events = play(state, job.turns, forecast_agents(state),
                  on_turn=lambda _t: series.append(present.series(state.to_dict())))
    final = present.series(state.to_dict())
    if final != series[-1]:  # it ended within a turn (fewer than two factions standing)
        series.append(final)
    series += [series[-1]] * (job.turns + 1 - len(series))
    goals_after = state.goals_completed()
    return {
        "run": run, "seed": int(state.seed), "turns": state.turn - start, "series": series,
        "alive": {fid: bool(f.alive) for fid, f in state.factions.items()},
        "goals": ({k: goals_after[k] - goals_before[k] for k in goals_after}
                  if goals_after is not None and goals_before is not None else None),
        "headquarters": facts.headquarters(state) if facts.headquarters else None,
        "holdings": facts.holdings(state) if facts.holdings else None,
        "headlines": _headlines(events, facts, present.key_kinds, Names.from_state(state)),
    }


def _holdings(fid: str, now: dict[str, str], results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each place ``fid`` holds now and loses, or gains, in at least one future."""
    labels = dict(now)
    for r in results:
        for key, label in r["holdings"][fid].items():
            labels.setdefault(key, label)
    out = []
    for key, label in labels.items():
        held_now = key in now
        at_end = sum(key in r["holdings"][fid] for r in results)
        changed = len(results) - at_end if held_now else at_end
        if changed:
            out.append({"key": key, "label": label, "held_now": held_now,
                        "change": "lost" if held_now else "gained",
                        **proportion(changed, len(results))})
    return sorted(out, key=lambda h: (-h["count"], h["key"]))


def _fan(fid: str, key: str, turns: int, results: list[dict[str, Any]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"p10": [], "median": [], "p90": [], "mean": []}
    for t in range(turns + 1):
        values = [v for r in results if (v := r["series"][t].get(fid, {}).get(key)) is not None]
        lo, mid, hi = quantiles(values, BANDS) if values else (None, None, None)
        out["p10"].append(lo)
        out["median"].append(mid)
        out["p90"].append(hi)
        out["mean"].append(round(sum(values) / len(values), 6) if values else None)
    return out


def summarize(start: GameState, results: list[dict[str, Any]], turns: int,
              **meta: Any) -> dict[str, Any]:
    """The forecast of ``results`` (the futures, in run order) from the state ``start``."""
    results = sorted(results, key=lambda r: r["run"])
    n = len(results)
    facts, present = _facts(start)
    names = Names.from_state(start)
    hq_now = facts.headquarters(start) if facts.headquarters else None
    held_now = facts.holdings(start) if facts.holdings else None
    summary_now = start.faction_summary()
    factions: dict[str, Any] = {}
    for fid, f in start.factions.items():
        entry: dict[str, Any] = {"name": names.faction(fid), "alive_now": bool(f.alive)}
        entry["collapse"] = proportion(sum(f.alive and not r["alive"][fid] for r in results), n)
        entry["goal_now"] = summary_now.get(fid, {}).get("goal")
        entry["goal"] = (proportion(sum(r["goals"][fid] > 0 for r in results), n)
                         if results and results[0]["goals"] is not None else None)
        entry["headquarters_lost"] = (
            proportion(sum(not r["headquarters"][fid] for r in results), n)
            if hq_now is not None and hq_now.get(fid) else None)
        entry["holdings"] = _holdings(fid, held_now[fid], results) if held_now is not None else []
        entry["fan"] = {key: _fan(fid, key, turns, results) for key, _title in present.charts}
        factions[fid] = entry
    counts: dict[str, int] = {}
    texts: dict[str, str] = {}
    for r in results:
        for key, text in r["headlines"].items():
            counts[key] = counts.get(key, 0) + 1
            texts.setdefault(key, text)
    headlines = [{"key": k, "text": texts[k], **proportion(c, n)}
                 for k, c in sorted(counts.items(), key=lambda kc: (-kc[1], kc[0]))]
    return {**meta, "ruleset": start.ruleset, "name": start.name, "runs": n, "turns": turns,
            "start_turn": start.turn, "charts": [list(c) for c in present.charts],
            "factions": factions, "headlines": headlines,
            "futures": [{"run": r["run"], "seed": r["seed"], "turns": r["turns"]} for r in results]}


def run_forecast(campaign: str | os.PathLike[str] | None, runs: int = DEFAULT_RUNS,
                 turns: int = DEFAULT_TURNS, seed: int = 0, backend: str = "local",
                 workers: int | None = 1, address: str | None = None,
                 progress: Callable[[], None] | None = None,
                 ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
    """Play ``runs`` futures of ``turns`` turns of ``campaign`` (default: ``ruleset``'s bundled
    campaign) and return the forecast (see the module docstring); ``progress()`` is called as
    each future ends. Reads the campaign file, never writes it."""
    from factionsim.backends import run_jobs

    if runs < 1 or turns < 1:
        raise FactionsimError("a forecast needs at least 1 run (--runs) of at least 1 turn (--turns)")
    template = CampaignTemplate.load(campaign, ruleset)
    start = template.state_class.from_dict(template.data)
    if sum(f.alive for f in start.factions.values()) < 2:
        raise FactionsimError(f"{campaign or 'the campaign'}: the game is over (fewer than two "
                              "factions standing): there is no future to forecast")
    forecast_agents(start, source=campaign)  # one clear error before any future is played
    job = ForecastJob(template, turns, seed)
    results = run_jobs(play_future, range(runs), shared=job, backend=backend, workers=workers,
                       address=address, progress=progress)
    return summarize(start, results, turns, campaign=None if campaign is None else str(campaign),
                     seed=seed, stand_ins=stand_ins(start))
