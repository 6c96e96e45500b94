"""Where the stalls of long games come from (issue 24: which actions, which situations).

    python experiments/stall_sources.py --campaigns 20 --seed 950000 --workers 2

Plays the generated campaigns :mod:`behaviour_stats` plays and sorts every stalled faction turn
(as ``factionsim batch`` counts them, :mod:`factionsim.rules.wwn.behaviour`) by its source:

- **paralysed**: the turn after the faction abandoned a goal, by the goal it gave up and the
  reason it gave (``its target Base is gone``, ``nothing it has can bring it about``...);
- **idle pass, chosen**: the agent chose to pass (and bribed nothing), by the reason it gave;
- **idle pass, forced**: ``pass`` was the only legal Faction Action, so the rules applied it
  without asking the agent (a faction left with no asset at all: no Base to buy at, nothing to
  move). Not an agent choice;
- **empty action**: a Faction Action that changed nothing;
- **shuffle**: a Move whose moves only traded places (assets back where their previous turn's
  move took them from, or swapped with assets of the same type), completing no goal, by the
  reason the agent gave.

Reported: each source's share of all faction turns (turns 1-20 and 21-40), and the stall rate
with and without forced passes, with 95% intervals bootstrapped over campaigns.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from behaviour_stats import bootstrap, generated, run_histories


def _source(fid: str, events: list[Any], abandoned: dict[str, str],
            previous: Sequence[Any] = ()) -> str | None:
    """The stall source of one faction turn (None: it did not stall), from the batch's own
    classification (:func:`factionsim.rules.wwn.behaviour.turn_stall`; ``previous``: the
    faction's moves in its previous turn)."""
    from factionsim.rules.wwn.behaviour import turn_stall

    stall = turn_stall(fid, events, previous)
    if stall is None:
        return None
    if stall == "paralysed":
        return "paralysed: " + abandoned.get(fid, "?")
    i, action = next((i, e.data.get("action")) for i, e in enumerate(events)
                     if e.kind == "action" and e.faction == fid)
    before = events[i - 1] if i else None
    chosen = before is not None and before.kind == "decision" and before.faction == fid
    reason = re.sub(r"\d+", "N", before.data.get("reason", "?")) if chosen else ""
    if stall == "shuffles":
        return "shuffle (moves that only traded places): " + reason
    if stall == "idle_passes":
        return ("idle pass, chosen: " + reason if chosen
                else "idle pass, forced (pass was the only legal action)")
    return f"empty action: {action}"


def play_one(job: dict[str, Any], index: int) -> dict[str, Any]:
    """Play campaign ``index``; return its faction turns and stalls by source and window."""
    from factionsim.core.behaviour import faction_turns
    from factionsim.rules.wwn.behaviour import moves_of
    from factionsim.runner import agents_from_campaign, play

    state = generated(job, index)
    events = play(state, job["turns"], agents_from_campaign(state))
    abandoned: dict[str, str] = {}  # the goal each faction last gave up, and why
    out: Counter[str] = Counter()
    last_moves: dict[str, list[Any]] = {}  # each faction's moves in its previous turn
    for fid, turn, turn_events in faction_turns(events):
        w = "early" if turn <= 20 else "late"
        out[f"{w} turns"] += 1
        source = _source(fid, turn_events, abandoned, last_moves.get(fid, []))
        last_moves[fid] = moves_of(fid, turn_events)
        if source is not None:
            out[f"{w}|{source}"] += 1
        for e in turn_events:  # an abandon in this turn's goal step paralyses the next turn
            m = re.match(r"abandons (.*?) \((.*?)\) for", e.data.get("reason", "")) \
                if e.kind == "decision" and e.faction == fid else None
            if m:
                abandoned[fid] = f"{m.group(1)} ({re.sub(r'[0-9]+', 'N', m.group(2))})"
    return dict(out)


def report(results: list[dict[str, Any]]) -> None:
    turns = [r.get("early turns", 0) + r.get("late turns", 0) for r in results]
    sources: Counter[str] = Counter()
    for r in results:
        for k, v in r.items():
            if "|" in k:
                sources[k.split("|", 1)[1]] += v

    def stalls(r: dict[str, Any], forced: bool) -> int:
        return sum(v for k, v in r.items() if "|" in k and (forced or "forced" not in k))

    for label, forced in (("stall rate", True), ("stall rate without forced passes", False)):
        v = bootstrap([(stalls(r, forced), t) for r, t in zip(results, turns, strict=True)])
        print(f"{label:<34} {100 * v[0]:.2f}% [{100 * v[1]:.2f}, {100 * v[2]:.2f}]")
    total = sum(turns) or 1
    print(f"\n{'share of faction turns':>8}  turns 1-20  21-40  source ({total} faction turns)")
    for source, n in sources.most_common():
        early = sum(r.get(f"early|{source}", 0) for r in results)
        print(f"{100 * n / total:7.2f}%  {early:10d}  {n - early:5d}  {source}")


def main() -> int:
    report(run_histories(__doc__, play_one, campaigns=20, seed=950000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
