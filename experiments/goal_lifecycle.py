"""What becomes of the goals factions adopt, early and late in long games (issue 24 item 3).

    python experiments/goal_lifecycle.py --campaigns 20 --seed 910000 --workers 2
    python experiments/goal_lifecycle.py --campaigns 20 --locations 10   # every map ten places

Plays the generated campaigns :mod:`behaviour_stats` plays (``factionsim new`` with 4 to 8
factions, ``new``'s number of places or ``--locations``, every faction ``--agent``) and follows
every goal from its adoption (``goal-chosen``, or the goal a campaign starts with) to its end: done, failed
(Eliminate Target's three turns ran out), abandoned (with the reason the agent gave), ended by
the faction's collapse (fell), or still open when the history ends. Reported per goal and per
window (adopted in turns 1-20 or 21-40): how many, how they ended, the mean turns to done and,
for the goals the heuristic chose, the mean turns it estimated when it chose them (of those
done; a campaign's starting goals have none); the share of faction turns each goal held;
goals and XP per faction per 10 turns with 95% intervals bootstrapped over campaigns; each
goal's completions per faction per 10 turns in both windows with the change and its interval,
and the same for all goals but Wealth of Kingdoms; the reasons given for abandoning goals.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from typing import Any

import numpy as np

WINDOWS = (("turns 1-20", 1, 20), ("turns 21-40", 21, 40))
#: the events that end a goal, and how
ENDINGS = {"goal-complete": "complete", "goal-failed": "failed", "goal-abandoned": "abandoned",
           "collapse": "fell"}


def _estimating(agent: Any, estimates: dict[str, list[float]]) -> None:
    """Make a heuristic ``agent`` note in ``estimates`` the turns it estimated for each goal it
    chooses (faction id -> those turns, in the order of its choices); other agents are left
    alone."""
    from factionsim.agents.wwn_heuristic import HeuristicAgent
    from factionsim.agents.wwn_heuristic import goals as goal_ai
    from factionsim.rules.wwn.actions import ChooseGoal

    if not isinstance(agent, HeuristicAgent):
        return
    act = agent.act

    def act_and_note(view: Any, legal: list[Any], rng: Any) -> Any:
        choice = act(view, legal, rng)
        if isinstance(choice, ChooseGoal):
            e = goal_ai.estimate(agent.situation(view), choice.goal, choice.target)
            estimates.setdefault(view.faction.id, []).append(e.turns)
        return choice

    agent.act = act_and_note


def play_one(job: dict[str, Any], index: int) -> dict[str, Any]:
    """Play campaign ``index``; return its goal spans, per-window counts and abandon reasons."""
    from behaviour_stats import generated

    from factionsim.runner import agents_from_campaign, play

    state = generated(job, index)
    opened = {f.id: (f.goal.id, 0, None) for f in state.factions.values() if f.goal is not None}
    agents = agents_from_campaign(state)
    estimates: dict[str, list[float]] = {}
    for agent in agents.values():
        _estimating(agent, estimates)
    events = play(state, job["turns"], agents)
    spans: list[tuple[str, int, int, str, float | None]] = []  # (goal, adopted, ended, how,
    # turns estimated when chosen)
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for e in events:
        w = "early" if e.turn <= 20 else "late"
        if e.kind == "faction-turn":
            counts[w + " turns"] += 1
        elif e.kind == "goal-complete":
            counts[w + " goals"] += 1
            counts[w + " xp"] += e.data["xp"]
            counts[f"{w} done {e.data['goal']}"] += 1
        elif e.kind == "decision" and e.data.get("reason", "").startswith("abandons "):
            m = re.match(r"abandons .*? \((.*?)\) for", e.data["reason"])
            reasons[re.sub(r"\d+", "N", m.group(1)) if m else "?"] += 1
        if e.kind in ENDINGS and e.faction in opened:
            goal, start, guess = opened.pop(e.faction)
            spans.append((goal, start, e.turn, ENDINGS[e.kind], guess))
        if e.kind == "goal-chosen":
            noted = estimates.get(e.faction)
            opened[e.faction] = (e.data["goal"], e.turn, noted.pop(0) if noted else None)
    spans += [(goal, start, job["turns"], "open", guess) for goal, start, guess in opened.values()]
    return {"spans": spans, "counts": dict(counts), "reasons": dict(reasons)}


def _boot(rows: list[tuple[float, float]], seed: int = 0) -> str:
    """``ratio per 10 [low, high]`` of summed numerators over denominators, by campaign; ``-``
    when no campaign reached the window (no turns to divide by)."""
    a = np.array(rows, dtype=float).reshape(-1, 2)
    if a[:, 1].sum() == 0:
        return "- (no turns in this window)"
    idx = np.random.default_rng(seed).integers(0, len(a), size=(2000, len(a)))
    num, den = a[idx, 0].sum(1), a[idx, 1].sum(1)
    r = 10 * num[den > 0] / den[den > 0]
    return (f"{10 * a[:, 0].sum() / a[:, 1].sum():.2f} "
            f"[{np.percentile(r, 2.5):.2f}, {np.percentile(r, 97.5):.2f}]")


def _boot_change(rows: list[tuple[float, float, float, float]], seed: int = 0) -> str:
    """``early -> late, change [low, high]`` per 10 turns from campaigns' ``(early count, early
    turns, late count, late turns)``: the change late minus early with its 95% interval,
    bootstrapped over campaigns (each resample takes both windows of the same campaigns);
    ``-`` when a window has no turns."""
    a = np.array(rows, dtype=float).reshape(-1, 4)
    if a[:, 1].sum() == 0 or a[:, 3].sum() == 0:
        return "- (a window has no turns)"
    idx = np.random.default_rng(seed).integers(0, len(a), size=(2000, len(a)))
    early, late = a[idx, 0].sum(1), a[idx, 2].sum(1)
    e_turns, l_turns = a[idx, 1].sum(1), a[idx, 3].sum(1)
    ok = (e_turns > 0) & (l_turns > 0)
    change = 10 * late[ok] / l_turns[ok] - 10 * early[ok] / e_turns[ok]
    e, l_ = 10 * a[:, 0].sum() / a[:, 1].sum(), 10 * a[:, 2].sum() / a[:, 3].sum()
    return (f"{e:.2f} -> {l_:.2f}, change {l_ - e:+.2f} "
            f"[{np.percentile(change, 2.5):+.2f}, {np.percentile(change, 97.5):+.2f}]")


def _goal_rates(results: list[dict[str, Any]]) -> None:
    """Each goal's completions per faction per 10 turns in turns 1-20 and 21-40, and the change
    (what a fall of all goals together is made of), then all goals but Wealth of Kingdoms (open
    again only once Wealth has risen, so most factions complete it early)."""
    done = sorted({k.split(" ", 2)[2] for r in results for k in r["counts"] if " done " in k})
    print("\ngoals done per faction per 10 turns, turns 1-20 -> 21-40 (change, 95% CI over "
          "campaigns):")

    def rows(count) -> list[tuple[float, float, float, float]]:
        return [(count(r, "early"), r["counts"].get("early turns", 0),
                 count(r, "late"), r["counts"].get("late turns", 0)) for r in results]

    for goal in done:
        print(f"  {goal:<28} " + _boot_change(rows(
            lambda r, w, g=goal: r["counts"].get(f"{w} done {g}", 0))))
    print(f"  {'all but wealth-of-kingdoms':<28} " + _boot_change(rows(
        lambda r, w: r["counts"].get(f"{w} goals", 0)
        - r["counts"].get(f"{w} done wealth-of-kingdoms", 0))))


def report(results: list[dict[str, Any]]) -> None:
    for name, key in (("goals", "goals"), ("XP", "xp")):
        line = [f"{name} per faction per 10 turns:"]
        for label, w in (("turns 1-20", "early"), ("turns 21-40", "late")):
            rows = [(r["counts"].get(f"{w} {key}", 0), r["counts"].get(f"{w} turns", 0))
                    for r in results]
            line.append(f"{label} {_boot(rows)}")
        print("  ".join(line))
    stats: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    took: dict[tuple[str, str], list[int]] = defaultdict(list)
    guessed: dict[tuple[str, str], list[float]] = defaultdict(list)  # estimates of those done
    held: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        for goal, start, end, how, guess in r["spans"]:
            w = "early" if start <= 20 else "late"
            stats[(goal, w)][how] += 1
            if how == "complete":
                took[(goal, w)].append(end - start)
                if guess is not None and guess < float("inf"):
                    guessed[(goal, w)].append(guess)
            for t in range(start + 1, end + 1):
                for label, lo, hi in WINDOWS:
                    if lo <= t <= hi:
                        held[label][goal] += 1
    print(f"\n{'goal':<24} {'adopted in':<12} {'n':>4} {'done':>5} {'failed':>6} "
          f"{'abandoned':>9} {'fell':>4} {'open':>5} {'turns to done':>13} {'estimated':>9}")
    for goal, w in sorted(stats):
        s, t, g = stats[(goal, w)], took[(goal, w)], guessed[(goal, w)]
        mean = f"{sum(t) / len(t):.1f}" if t else "-"
        guess = f"{sum(g) / len(g):.1f}" if g else "-"
        label = "turns 1-20" if w == "early" else "turns 21-40"
        print(f"{goal:<24} {label:<12} {sum(s.values()):>4} {s['complete']:>5} {s['failed']:>6} "
              f"{s['abandoned']:>9} {s['fell']:>4} {s['open']:>5} {mean:>13} {guess:>9}")
    for label, _, _ in WINDOWS:
        total = sum(held[label].values()) or 1
        print(f"\nshare of faction turns each goal held, {label}: " + (", ".join(
            f"{g} {100 * n / total:.0f}%" for g, n in held[label].most_common())
            or "- (no turns in this window)"))
    _goal_rates(results)
    reasons: Counter[str] = Counter()
    for r in results:
        reasons.update(r["reasons"])
    print("\nabandoned because: " + "; ".join(f"{k} ({n})" for k, n in reasons.most_common()))


def main() -> int:
    from behaviour_stats import run_histories

    report(run_histories(__doc__, play_one, campaigns=20, seed=910000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
