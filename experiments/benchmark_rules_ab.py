"""Did a rules change make a ruleset faster? Its decision module at a git revision against the
working tree's, in one process, by the rules alone.

    python experiments/benchmark_rules_ab.py --rev main --ruleset conflict
    python experiments/benchmark_rules_ab.py --rev HEAD~1 --ruleset engagements --repeats 15

``benchmark_env_ab.py`` swaps the env and the codecs; this script swaps the rules: it loads
``factionsim/rules/<ruleset>/turn.py`` as it was at ``--rev`` (read with ``git show``, imported
under another name inside today's package, so its relative imports are today's modules) and
measures the ``engine`` loop of :func:`benchmark_env.measure` (``legal_actions`` / ``apply`` on
the env's state, random choices) with the state class's ``decision_module`` set to the old
module and to today's in turns, interleaved and rotated. It prints the median steps/s of each
and the median of the repeats' ``new / old`` (1.05 = 5% faster). Only ``turn.py`` comes from
``--rev``: the other modules of the ruleset (and what ``turn.py`` imports from them) are today's.
Run it with ``--rev HEAD`` on an unchanged tree to see the noise of the machine: identical code
read 0.94 at a load average of 10 on the development VM.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from types import ModuleType

from benchmark_env import measure
from benchmark_env_ab import file_at


def decision_module_at(rev: str, ruleset: str, folder: Path) -> ModuleType:
    """``factionsim/rules/<ruleset>/turn.py`` as of ``rev``, imported as
    ``factionsim.rules.<ruleset>._at_rev_turn``."""
    return file_at(rev, f"factionsim/rules/{ruleset}/turn.py",
                   f"factionsim.rules.{ruleset}._at_rev_turn", folder)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="main")
    parser.add_argument("--ruleset", default="conflict")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--max-turns", type=int, default=30)
    args = parser.parse_args(argv)
    from factionsim.envs import make_env

    def make() -> object:
        return make_env(ruleset=args.ruleset, max_turns=args.max_turns)

    env = make_env(ruleset=args.ruleset, max_turns=args.max_turns)
    env.reset(seed=0)
    state_class = type(env.state)
    new = state_class.decision_module
    with tempfile.TemporaryDirectory() as folder:
        old = decision_module_at(args.rev, args.ruleset, Path(folder))
    runs: dict[str, list[float]] = {"old": [], "new": []}
    try:
        for r in range(args.repeats):
            order = [("old", old), ("new", new)]
            for label, module in order[r % 2:] + order[:r % 2]:
                state_class.decision_module = module
                runs[label].append(measure(make, "engine", args.seconds, r)["steps_per_s"])
    finally:
        state_class.decision_module = new
    ratios = [n / o for n, o in zip(runs["new"], runs["old"], strict=True)]
    print(f"{args.ruleset} rules, engine loop, {args.repeats} interleaved repeats of "
          f"{args.seconds:g} s CPU (old = {args.rev}):")
    for label in ("old", "new"):
        print(f"  {label}: {statistics.median(runs[label]):,.0f} steps/s (median)")
    print(f"  new / old {statistics.median(ratios):.3f} (median; repeats "
          f"{min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
