"""Batch histories: N independent plays of one campaign, and what they have in common.

Run ``r`` plays ``turns`` turns of the campaign (by default its own ``max_turns``, else
:data:`DEFAULT_TURNS`) with the agents the campaign names, its dice seeded from ``(seed, r)``
(:func:`factionsim.core.dice.seeded_dice`, as tournament games), so the
runs, their chronicles and the statistics are identical for any backend and number of workers
(:mod:`factionsim.backends`). Works for every ruleset: the per-turn numbers are the numeric
fields of the ruleset's faction summary (WWN: ``hp``, ``treasure``, ``xp``).

Statistics (``summary.json``), per faction over the runs:

- ``survival_rate``: share of runs in which it is still standing at the end;
- ``win_rate``: share of runs in which it has the best ``scores()`` (a tie shares the win);
- ``goals_completed_mean`` / ``goals_met_rate``: goals completed during the run (mean; share of
  runs with at least one) where the ruleset counts them (WWN ``goals_completed``), else null;
- ``final``: the mean of each numeric summary field after the last turn;
- ``curves``: the mean of each numeric field after every turn (turn 0 = the campaign as loaded);
  a run that ended early (fewer than two factions standing) keeps its last values.

``behaviour`` (:mod:`factionsim.behaviour`): how the factions played, counted from the events,
per faction (``by_faction``), per agent (``by_agent``), per temperament (``by_temperament``) and
over ``all``: stall rate, goals completed per 10 turns (and per window of 20 turns), turns to the
first goal, share of factions with no goal in N turns, each kind of action's share of the
actions and the kinds never chosen (``action_share``, ``unused_actions``), and the ruleset's own
counts (WWN: attacks, creations and expansions per turn, Treasure unspent against income, assets
lost to rivals and to upkeep...; houses, engagements, conflict: see their ``behaviour`` modules);
``behaviour.metrics`` says what each number means.

``endings``: the share of runs by how they stopped (:func:`factionsim.core.ending.how_it_ended`:
``turn-limit`` or ``cap``, ``last-standing``, a conflict's ``fell``, ``fled``...); each run's in
``per_run``.

``summary.html`` shows the same as a page to open in a browser: the table of rates and one chart
per curve, a line per faction.

>>> s = run_batch(None, runs=2, turns=1)
>>> s["runs"], sorted(s["factions"]["iron-legion"])[:3]
(2, ['curves', 'final', 'goals_completed_mean'])
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factionsim.core.ruleset import DEFAULT_RULESET
from factionsim.runner import CampaignTemplate

#: Turns per run for a campaign without its own ``max_turns``.
DEFAULT_TURNS = 12


def _numeric(summary: dict[str, Any]) -> dict[str, float]:
    return {k: float(v) for k, v in summary.items()
            if isinstance(v, int | float) and not isinstance(v, bool)}


@dataclass(frozen=True)
class BatchJob:
    """What every run of a batch shares (sent once to each worker; the item of a job is the run
    number)."""

    template: CampaignTemplate
    turns: int
    seed: int
    title: str


def play_run(job: BatchJob, run: int) -> dict[str, Any]:
    """Play run ``run``; return its numbers, chronicle and event log (plain data)."""
    from factionsim.behaviour import tally_run
    from factionsim.chronicle import Names, render_markdown
    from factionsim.core.ending import how_it_ended
    from factionsim.runner import agents_from_campaign, event_lines, play

    state = job.template.new_game(job.seed, run)
    start = state.turn
    state.max_turns = start + job.turns
    goals_before = state.goals_completed()
    frames = [{fid: _numeric(v) for fid, v in state.faction_summary().items()}]
    start_data = state.to_dict()

    def on_turn(_turn: int) -> None:
        frames.append({fid: _numeric(v) for fid, v in state.faction_summary().items()})

    agents = agents_from_campaign(state)
    events = play(state, job.turns, agents, on_turn=on_turn)
    final = {fid: _numeric(v) for fid, v in state.faction_summary().items()}
    if final != frames[-1]:  # the game ended within a turn (fewer than two factions standing)
        frames.append(final)
    scores = {k: round(float(v), 6) for k, v in state.scores().items()}
    best = max(scores.values())
    goals_after = state.goals_completed()
    goals = ({k: goals_after[k] - goals_before[k] for k in goals_after}
             if goals_after is not None and goals_before is not None else None)
    chronicle = render_markdown(events, Names.from_state(state),
                                f"{job.title}: run {run}, turns {start + 1}-{state.turn}",
                                frame=start_data)
    return {"run": run, "seed": int(state.seed), "turns": state.turn - start, "scores": scores,
            "winners": [k for k, v in scores.items() if v == best],
            "alive": {fid: bool(f.alive) for fid, f in state.factions.items()},
            "goals": goals, "frames": frames, "chronicle": chronicle,
            "ending": how_it_ended(events, state),
            "behaviour": tally_run(state, events, start_data, start + 1, agents),
            "events": "".join(line + "\n" for line in event_lines(events))}


def run_dir_name(run: int, runs: int) -> str:
    """``run-0007``: zero-padded to at least four digits."""
    return f"run-{run:0{max(4, len(str(runs - 1)))}d}"


def aggregate(results: list[dict[str, Any]], turns: int, **meta: Any) -> dict[str, Any]:
    """The statistics of the runs (in run order); see the module docstring."""
    results = sorted(results, key=lambda r: r["run"])
    n = len(results)
    factions = list(results[0]["frames"][0]) if results else []
    out: dict[str, Any] = {}
    for fid in factions:
        fields = list(results[0]["frames"][0][fid])
        curves: dict[str, list[float]] = {k: [] for k in fields}
        for t in range(turns + 1):
            for k in fields:
                total = 0.0
                for r in results:
                    frames = r["frames"]
                    total += frames[min(t, len(frames) - 1)][fid].get(k, 0.0)
                curves[k].append(round(total / n, 6))
        goals = [r["goals"][fid] for r in results if r["goals"] is not None]
        wins = sum(1 / len(r["winners"]) for r in results if fid in r["winners"])
        out[fid] = {
            "survival_rate": round(sum(r["alive"][fid] for r in results) / n, 6),
            "win_rate": round(wins / n, 6),
            "goals_completed_mean": round(sum(goals) / n, 6) if goals else None,
            "goals_met_rate": round(sum(g > 0 for g in goals) / n, 6) if goals else None,
            "final": {k: v[-1] for k, v in curves.items()},
            "curves": curves,
        }
    behaviour = None
    if results and "behaviour" in results[0]:
        from factionsim.behaviour import summarise_runs

        behaviour = summarise_runs([r["behaviour"] for r in results], meta.get("ruleset", DEFAULT_RULESET))
    endings = Counter(r["ending"] for r in results)
    return {**meta, "runs": n, "turns": turns, "factions": out, "behaviour": behaviour,
            "endings": {k: round(v / n, 6) for k, v in sorted(endings.items())},
            "per_run": [{"run": r["run"], "seed": r["seed"], "turns": r["turns"],
                         "ending": r["ending"], "winners": r["winners"],
                         "scores": r["scores"]} for r in results]}


def curves_csv(summary: dict[str, Any]) -> str:
    """The mean curves, one row per faction and turn: ``faction,turn,<field>...``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header_done = False
    for fid, f in summary["factions"].items():
        fields = list(f["curves"])
        if not header_done:
            w.writerow(["faction", "turn", *fields])
            header_done = True
        for t in range(summary["turns"] + 1):
            w.writerow([fid, t, *[f["curves"][k][t] for k in fields]])
    return buf.getvalue()


def goals_and_finals(stats: dict[str, Any]) -> tuple[str, str]:
    """A faction's mean goals completed ("-" where not counted) and mean final numbers, as text."""
    goals = stats["goals_completed_mean"]
    finals = ", ".join(f"{k} {v:.1f}" for k, v in stats["final"].items())
    return ("-" if goals is None else f"{goals:.2f}"), finals


def summary_html(summary: dict[str, Any], names: dict[str, str], title: str) -> str:
    """The summary as one self-contained HTML page: per-faction rates and the mean curves."""
    from factionsim.chronicle.html import page_head
    from factionsim.chronicle.report import CSS, faction_colors, legend_html, line_chart

    fids = list(summary["factions"])
    colors = faction_colors(fids)
    turns = list(range(summary["turns"] + 1))
    rows = []
    for fid, f in summary["factions"].items():
        goals, finals = goals_and_finals(f)
        rows.append(f'<tr><td><span class="dot" style="background:{colors[fid]}"></span>'
                    f"{html.escape(names.get(fid, fid))}</td><td>{f['survival_rate']:.1%}</td>"
                    f"<td>{f['win_rate']:.1%}</td><td>{goals}</td><td>{html.escape(finals)}</td></tr>")
    fields = list(next(iter(summary["factions"].values()))["curves"]) if fids else []
    behaviour = ""
    if summary.get("behaviour"):
        from factionsim.behaviour import behaviour_html

        behaviour = ("<h2>How they played</h2>"
                     + behaviour_html(summary["behaviour"], names))
    charts = "".join(
        line_chart(f"{field} (mean of {summary['runs']} runs)", turns,
                   {fid: summary["factions"][fid]["curves"][field] for fid in fids},
                   colors, names, field)
        for field in fields)
    endings = ", ".join(f"{k} {v:.0%}" for k, v in summary.get("endings", {}).items())
    page = page_head("{title}: batch", "{css} .cursor {{ display: none; }}") + _BODY
    return page.format(
        css=CSS, title=html.escape(title), legend=legend_html(fids, names, colors),
        sub=f"{summary['runs']} runs of {summary['turns']} turns, master seed {summary['seed']}",
        rows="".join(rows), charts=charts, behaviour=behaviour,
        endings=html.escape(endings or "-"))


_BODY = """<body>
<header>
<h1>{title}</h1>
<p class="sub">{sub}. Made by factionsim.</p>
<div>{legend}</div>
</header>
<main>
<h2>Over all runs</h2>
<table><tr><th>faction</th><th>survival</th><th>wins</th><th>goals completed (mean)</th>
<th>final means</th></tr>
{rows}</table>
<p>Runs end: {endings}</p>
{behaviour}
<h2>Mean after each turn</h2>
<div class="charts">{charts}</div>
</main>
</body>
</html>
"""


def run_batch(campaign: str | None, runs: int, turns: int | None = None, seed: int = 0,
              out: str | Path | None = None, backend: str = "local", workers: int | None = 1,
              address: str | None = None, progress: Callable[[], None] | None = None,
              ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
    """Play ``runs`` histories of ``campaign`` (default: ``ruleset``'s bundled campaign) for
    ``turns`` turns each (default: the campaign's own ``max_turns``, else
    :data:`DEFAULT_TURNS`); write OUT/run-XXXX/{chronicle.md,events.jsonl} as they arrive and
    OUT/summary.json, OUT/curves.csv and OUT/summary.html at the end (with ``out``); return the
    summary."""
    from factionsim.backends import map_jobs
    from factionsim.chronicle import Names
    from factionsim.core.files import write_atomic
    from factionsim.models.trust import carry_trust
    from factionsim.runner import agents_from_campaign, turns_to_play

    template = CampaignTemplate.load(campaign, ruleset)
    start = template.state_class.from_dict(template.data)
    # every faction's agent can be made (a policy's model file exists...): one clear error here,
    # naming the file and faction, before any run starts in a worker
    agents_from_campaign(start, source=campaign)
    title = template.data.get("name") or (Path(campaign).stem if campaign else "campaign")
    job = BatchJob(template, turns_to_play(start, turns, DEFAULT_TURNS), seed, title)
    kept: list[dict[str, Any]] = []
    out = Path(out) if out is not None else None
    for _i, r in map_jobs(carry_trust(play_run), range(runs), shared=job, backend=backend, workers=workers,
                          address=address):
        if out is not None:
            d = out / run_dir_name(r["run"], runs)
            d.mkdir(parents=True, exist_ok=True)
            write_atomic(d / "chronicle.md", r["chronicle"])
            write_atomic(d / "events.jsonl", r["events"])
        del r["chronicle"], r["events"]  # thousands of runs: keep only the numbers
        kept.append(r)
        if progress is not None:
            progress()
    summary = aggregate(kept, job.turns, campaign=campaign, ruleset=start.ruleset, seed=seed)
    if out is not None:
        write_atomic(out / "summary.json", json.dumps(summary, indent=2) + "\n")
        write_atomic(out / "curves.csv", curves_csv(summary))
        names = Names.from_state(start).factions
        write_atomic(out / "summary.html", summary_html(summary, names, title))
    return summary
