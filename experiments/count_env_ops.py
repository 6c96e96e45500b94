"""Python operations per env step: a measure of an env change that no other process disturbs.

    python experiments/count_env_ops.py --rev main                  # old / new, every ruleset
    python experiments/count_env_ops.py --rev main --rulesets wwn --top 20   # and where they go

On a shared machine the timing benchmarks (``benchmark_env.py``, ``benchmark_env_ab.py``)
scatter by more than most speed-ups move them. This script counts instead: it plays the same
games of random masked play (:func:`benchmark_env.play`, fixed seeds) with the env and codecs
of ``--rev`` and with today's (loaded as :mod:`benchmark_env_ab` does: only ``envs/aec.py`` and
the codec modules come from ``--rev``), and counts the Python bytecodes executed (a
``sys.settrace`` opcode trace) and the calls into C functions (``sys.setprofile``) per step. The
counts are repeatable to the last digit; they leave out what happens inside C code (numpy's
work, a dict's hashing), so confirm a change that adds numpy calls with a timing as well. For
scale: PettingZoo's ``connect_four_v3`` (with its wrappers) runs about 3,100 opcodes and 106 C
calls per step in the same loop. ``--top N`` lists the N functions of today's env that run
the most opcodes per step.
"""

from __future__ import annotations

import collections
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from benchmark_env import play
from benchmark_env_ab import makers, revision_parser


class Counter:
    """Opcodes (per code object) and C calls while :meth:`run` plays."""

    def __init__(self) -> None:
        self.opcodes: collections.Counter = collections.Counter()
        self.c_calls = 0

    def _trace(self, frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        return self._opcode

    def _opcode(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "opcode":
            self.opcodes[frame.f_code] += 1
        return self._opcode

    def _profile(self, frame: Any, event: str, arg: Any) -> None:
        if event == "c_call":
            self.c_calls += 1

    def run(self, env: Any, games: int) -> int:
        """Play ``games`` games (seeds 0, 1, ...; one game first, uncounted, to warm caches);
        returns the steps counted."""
        play(env, np.random.default_rng(0), 10_000)
        rng = np.random.default_rng(0)
        steps = 0
        sys.setprofile(self._profile)
        sys.settrace(self._trace)
        try:
            for game in range(games):
                steps += play(env, rng, game)
        finally:
            sys.settrace(None)
            sys.setprofile(None)
        return steps


def main(argv: list[str] | None = None) -> None:
    parser = revision_parser(__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--top", type=int, default=0, help="list today's N busiest functions")
    args = parser.parse_args(argv)
    rulesets = args.rulesets.split(",")
    with tempfile.TemporaryDirectory() as folder:
        envs = makers(args.rev, rulesets, args.max_turns, Path(folder))
        for ruleset in rulesets:
            counted = {}
            for tag in ("old", "new"):
                counter = Counter()
                steps = counter.run(envs[f"{ruleset}-{tag}"](), args.games)
                counted[tag] = (steps, counter)
            (steps, old), (_, new) = counted["old"], counted["new"]
            o, n = sum(old.opcodes.values()) / steps, sum(new.opcodes.values()) / steps
            print(f"{ruleset}: {steps} steps; opcodes per step {o:,.0f} -> {n:,.0f} "
                  f"({n / o:.3f}); C calls per step {old.c_calls / steps:,.0f} -> "
                  f"{new.c_calls / steps:,.0f} ({new.c_calls / old.c_calls:.3f})")
            for code, count in new.opcodes.most_common(args.top):
                where = code.co_filename.rsplit("site-packages/", 1)[-1]
                print(f"  {count / steps:8.1f}  {where}:{code.co_firstlineno} {code.co_qualname}")


if __name__ == "__main__":
    main()
