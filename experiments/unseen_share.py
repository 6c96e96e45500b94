"""A tuned heuristic's pairwise share against the heuristic on campaigns no tuning run saw (the
"wide protocol" of docs/training.md).

    python experiments/unseen_share.py factionsim/models/shipped/wwn.npz      # 800 games
    python experiments/unseen_share.py runs/tune-faction/policy.npz --games 200

Game ``g`` is ``--method tune``'s game ``(0, g)`` seated ``split`` and scored by the win
(:func:`factionsim.training.tune.tune_game`), with the seed ``--seed`` (424242) and campaigns
generated from seeds in ``--seeds`` (5000-5999; the shipped recipe tunes on 1000-1999), so games
``2p`` and ``2p + 1`` are one campaign and its dice with the seats swapped. Every tuning measured
this way plays the same games, and its share is comparable with another's to within the
interval. Printed: the share, its 95% Wilson interval and the number of games; then one JSON
object.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, fields
from functools import partial
from typing import Any


@dataclass
class Args:
    weights: str = ""  # a tuned-heuristic policy's .npz (its "tuning" array)
    features: str = "faction"  # what the tuning reads (--tune-features of its run)
    games: int = 800
    turns: int = 20
    seed: int = 424242
    seeds: tuple[int, int] = (5000, 5999)
    workers: int = 2


def play_one(play: Any, task: tuple[int, int, tuple[float, ...]]) -> float:
    """One game: ``play`` is ``tune_game`` with everything but the task given."""
    return play(task)


def unseen_share(args: Args, progress: Any = None) -> dict[str, Any]:
    """The share of ``args.weights`` over ``args.games`` games (``progress()`` after each)."""
    import numpy as np

    from factionsim.backends import run_jobs
    from factionsim.core.stats import wilson
    from factionsim.training.tune import tune_game

    values = tuple(np.load(args.weights)["tuning"].reshape(-1).tolist())
    play = partial(tune_game, args.seed, None, tuple(args.seeds), args.turns, generated=1.0,
                   features=args.features)
    shares = run_jobs(play_one, [(0, g, values) for g in range(args.games)], shared=play,
                      workers=args.workers, progress=progress)
    lo, hi = wilson(sum(shares), len(shares))
    return {"args": asdict(args), "games": len(shares),
            "share": round(sum(shares) / len(shares), 4), "ci95": [round(lo, 4), round(hi, 4)]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights")
    for f in fields(Args):
        if f.name == "weights":
            continue
        if f.name == "seeds":
            parser.add_argument("--seeds", type=int, nargs=2, default=list(f.default))
        else:
            parser.add_argument(f"--{f.name}", type=type(f.default), default=f.default)
    args = Args(**vars(parser.parse_args(argv)))
    from pathlib import Path

    import numpy as np

    if not Path(args.weights).is_file():
        parser.error(f"{args.weights}: no such file (give a tuned-heuristic policy's .npz)")
    with np.load(args.weights) as weights:
        if "tuning" not in weights.files:
            parser.error(f"{args.weights}: no 'tuning' array (not a tuned-heuristic policy's "
                         f".npz; it holds {', '.join(weights.files) or 'nothing'})")
    from tqdm import tqdm

    with tqdm(total=args.games, desc="games", unit="game") as bar:
        report = unseen_share(args, progress=bar.update)
    lo, hi = report["ci95"]
    print(f"{args.weights}: {report['share']:.1%} ({lo:.1%}-{hi:.1%}) of {report['games']} games")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
