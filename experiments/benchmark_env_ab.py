"""Did an env change make it faster? The env of a git revision against the working tree's, in one
process.

    python experiments/benchmark_env_ab.py --rev main                     # every ruleset
    python experiments/benchmark_env_ab.py --rev HEAD~3 --rulesets wwn --repeats 15

On a shared machine two benchmark runs minutes apart see different loads, and their ratios to
connect four scatter more than most speed-ups move them. This script loads ``envs/aec.py`` and
each ruleset's codec module **as they were at** ``--rev`` (read with ``git show``, imported
under other names next to today's), builds both envs over the same campaign, and measures them,
with connect four, by :func:`benchmark_env.measure` (the same random masked play, CPU time of
this process), interleaved and rotated as ``benchmark_env.py`` does. It prints each env's
median steps/s and ratio to connect four, and for each ruleset the median of the repeats'
``new / old`` ratios: the figure to read (1.05 = 5% faster).

Only the env and the codecs come from ``--rev``: the rules, ``envs/codec.py`` and everything
else are today's (so a revision whose codec needs something today's ``envs/codec.py`` lacks
cannot be loaded).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmark_env import RULESETS, connect_four, measure

ROOT = Path(__file__).resolve().parent.parent


def module_at(rev: str, name: str, folder: Path) -> ModuleType:
    """``envs/<name>.py`` as of ``rev``, imported as ``factionsim.envs._at_rev_<name>`` (its
    relative imports resolve to today's package)."""
    return file_at(rev, f"envs/{name}.py", f"factionsim.envs._at_rev_{name}", folder)


def file_at(rev: str, file: str, module_name: str, folder: Path) -> ModuleType:
    """The Python file ``file`` (a path in the repository) as of ``rev``, imported as
    ``module_name`` (a name inside a package of today's: its relative imports resolve there)."""
    source = subprocess.run(["git", "show", f"{rev}:{file}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = folder / Path(file).name
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def makers(rev: str, rulesets: list[str], max_turns: int, folder: Path) -> dict[str, Any]:
    """name -> env builder: connect four, then ``<ruleset>-old`` and ``<ruleset>-new``."""
    from factionsim.envs import aec, make_codec
    from factionsim.rulesets import get_ruleset, load_campaign

    old_aec = module_at(rev, "aec", folder)
    out: dict[str, Any] = {"connect_four_v3": connect_four}
    for ruleset in rulesets:
        state = load_campaign(get_ruleset(ruleset).default_campaign_path())
        new_codec = type(make_codec(state))
        module = new_codec.__module__.rsplit(".", 1)[1]
        old_codec = getattr(module_at(rev, module, folder), new_codec.__name__)
        for tag, env_cls, codec_cls in (("old", old_aec.FactionEnv, old_codec),
                                        ("new", aec.FactionEnv, new_codec)):
            out[f"{ruleset}-{tag}"] = (
                lambda s=state, e=env_cls, c=codec_cls:
                e(s, lambda st: c.for_campaign(st), max_turns=max_turns))
    return out


def revision_parser(doc: str) -> argparse.ArgumentParser:
    """The options every old-against-new measure of the env takes: ``--rev`` (the revision),
    ``--rulesets`` and ``--max-turns``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rev", default="main", help="the git revision to compare with")
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--max-turns", type=int, default=30)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = revision_parser(__doc__)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=0.5)
    args = parser.parse_args(argv)
    rulesets = args.rulesets.split(",")
    with tempfile.TemporaryDirectory() as folder:
        envs = makers(args.rev, rulesets, args.max_turns, Path(folder))
        names = list(envs)
        runs: dict[str, list[float]] = {n: [] for n in names}
        for r in range(args.repeats):
            k = r % len(names)
            for name in names[k:] + names[:k]:  # rotated, as benchmark_env.compare
                runs[name].append(measure(envs[name], "full", args.seconds,
                                          1000 * r)["steps_per_s"])
    c4 = runs["connect_four_v3"]
    print(f"{'env':>18} {'steps/s':>8} {'x c4':>6}   (medians of {args.repeats} interleaved "
          f"repeats, {args.seconds:g} s CPU each; old = {args.rev})")
    for name in names:
        ratio = statistics.median(a / b for a, b in zip(runs[name], c4, strict=True))
        print(f"{name:>18} {statistics.median(runs[name]):>8.0f} {ratio:>6.3f}")
    for ruleset in rulesets:
        gains = sorted(a / b for a, b in zip(runs[f"{ruleset}-new"], runs[f"{ruleset}-old"],
                                             strict=True))
        spread = (f"; repeats {gains[0]:.3f}-{gains[-1]:.3f}, quartiles "
                  + "-".join(f"{q:.3f}" for q in statistics.quantiles(gains, n=4)[::2])
                  if len(gains) > 1 else "")
        print(f"{ruleset}: new / old {statistics.median(gains):.3f}{spread}")


if __name__ == "__main__":
    main()
