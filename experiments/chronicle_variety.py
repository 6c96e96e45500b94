"""How varied the chronicles read: the share of distinct sentences per turn, over a long history.

    python experiments/chronicle_variety.py [--turns 40] [--seeds 8,9] [--factions 4]

For each seed a campaign is generated (``factionsim new``, heuristic agents) and played
``--turns`` turns with ``factionsim turn``; then, for each turn of each chronicle, its sentences
are counted from the chronicle's model (:mod:`factionsim.chronicle.story`): the players' (the
headline and each rumour) and the GM's (the headline, each event line without its dice, each
reason). The distinct share of a
turn is distinct sentences / sentences. Printed as one JSON object: per chronicle the mean and
the lowest per-turn share, the sentences per turn, and the sentences said most often over the
whole history (a sentence may come back on another turn: the words are varied, the events
repeat).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from factionsim.chronicle.record import CampaignRecord
from factionsim.cli import main


def turn_sentences(path: Path, audience: str) -> list[list[str]]:
    """Each played turn's sentences as ``audience`` reads them (see the module docstring)."""
    rec = CampaignRecord(path, audience)
    out = []
    for t in rec.played_turns():
        story = rec.story(t)
        if story is None:
            continue
        sentences = [story.headline.split(": ", 1)[-1].rstrip(".")] if story.headline else []
        if audience == "players":
            sentences += [x for _, told in story.places for x in told]
        else:
            for section in story.sections:
                for line in section.lines:
                    sentences += ([line.sentence()] if line.text else []) + line.reasons
        out.append(sentences)
    return out


def variety(turns: list[list[str]]) -> dict[str, object]:
    shares = [len(set(s)) / len(s) for s in turns if s]
    everything = Counter(s for t in turns for s in t)
    return {"turns_with_text": len(shares),
            "mean_distinct_share": round(statistics.mean(shares), 4) if shares else None,
            "lowest_distinct_share": round(min(shares), 4) if shares else None,
            "sentences_per_turn": round(statistics.mean(len(s) for s in turns), 1),
            "distinct_share_whole_history": round(len(everything) / max(1, sum(everything.values())), 4),
            "most_said": everything.most_common(5)}


def main_(argv: list[str] | None = None) -> dict[str, object]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--seeds", default="8,9")
    ap.add_argument("--factions", type=int, default=4)
    args = ap.parse_args(argv)
    result: dict[str, object] = {"turns": args.turns, "seeds": args.seeds}
    per: dict[str, list[list[str]]] = {"players": [], "gm": []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds.split(","):
            path = Path(tmp) / f"c{seed}.yaml"
            assert main(["new", str(path), "--seed", seed, "--factions", str(args.factions),
                         "--quiet"]) == 0
            assert main(["turn", str(path), "--turns", str(args.turns), "--quiet"]) == 0
            for audience, turns in per.items():
                turns += turn_sentences(path, audience)
    for audience, turns in per.items():
        result[audience] = variety(turns)
    return result


if __name__ == "__main__":
    print(json.dumps(main_(), indent=2))
