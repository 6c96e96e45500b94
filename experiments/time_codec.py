"""Time a codec's parts in play: ``observe`` and ``encode_actions`` per step, old against new.

    python experiments/time_codec.py --rev main --rulesets wwn --rounds 10

Plays the same seeded games of random masked play (:func:`benchmark_env.play`, 3 games a round)
with the env and codec of ``--rev`` and with today's (loaded as :mod:`benchmark_env_ab` does:
only ``envs/aec.py`` and the codec modules come from ``--rev``; the rules are today's in both),
the two in turns (the order swapped every round), and times (process CPU time) every call of the
codec's ``observe`` and ``encode_actions``. Prints microseconds per step of each and of the whole
step, and the median over rounds of the new / old time per step. Caches of a codec must be timed
like this, in play: repeated calls at one state always hit them.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from benchmark_env import play
from benchmark_env_ab import makers, revision_parser

PARTS = ("observe", "encode_actions")


def timed(env: Any, totals: dict[str, float]) -> None:
    """Wrap ``env.codec``'s parts so that their CPU time adds up in ``totals``; a codec's own
    ``observation`` (the new array an env asks for, where the base class calls ``observe``)
    counts as ``observe``."""
    from factionsim.envs.codec import Codec

    codec = env.codec
    for name in PARTS:
        setattr(codec, name, _timing(getattr(codec, name), name, totals))
    if getattr(type(codec), "observation", Codec.observation) is not Codec.observation:
        codec.observation = _timing(codec.observation, "observe", totals)


def _timing(call: Any, name: str, totals: dict[str, float]) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.process_time()
        try:
            return call(*args, **kwargs)
        finally:
            totals[name] += time.process_time() - t0
    return wrapper


def main(argv: list[str] | None = None) -> None:
    parser = revision_parser(__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        envs = makers(args.rev, args.rulesets.split(","), args.max_turns, Path(folder))
        for ruleset in args.rulesets.split(","):
            tags = ("old", "new")
            built = {t: envs[f"{ruleset}-{t}"]() for t in tags}
            totals = {t: dict.fromkeys((*PARTS, "step"), 0.0) for t in tags}
            steps = dict.fromkeys(tags, 0)
            for t in tags:
                timed(built[t], totals[t])
                play(built[t], np.random.default_rng(99), 99)  # warm caches, uncounted
                totals[t].update(dict.fromkeys(totals[t], 0.0))
            ratios = []
            for r in range(args.rounds):
                per_step = {}
                for t in tags if r % 2 == 0 else tags[::-1]:
                    rng = np.random.default_rng(r)
                    t0 = time.process_time()
                    n = sum(play(built[t], rng, 10 * r + g) for g in range(3))
                    spent = time.process_time() - t0
                    totals[t]["step"] += spent
                    steps[t] += n
                    per_step[t] = spent / n
                ratios.append(per_step["new"] / per_step["old"])
            for t in tags:
                figures = ", ".join(f"{k} {v / steps[t] * 1e6:.1f}" for k, v in totals[t].items())
                print(f"{ruleset}-{t}: {steps[t]} steps; µs per step: {figures}")
            print(f"{ruleset}: new / old time per step, median of {args.rounds} rounds: "
                  f"{statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
