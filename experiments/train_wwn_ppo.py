"""Train one faction with MaskablePPO against registry opponents: ``factionsim train`` as a script.

    python experiments/train_wwn_ppo.py --timesteps 400000 --out runs/wwn_ppo
    python experiments/train_wwn_ppo.py --ruleset houses --timesteps 200000
    python experiments/train_wwn_ppo.py --eval-only runs/wwn_ppo/policy.json \
        --eval-opponents random heuristic --eval-games 200      # evaluate a saved policy

Every option is a field of :class:`factionsim.training.Args`; the training itself lives in
:mod:`factionsim.training.ppo` (so ``factionsim train`` works from an installed package). See
``docs/training.md``.
"""

from __future__ import annotations

import argparse

from factionsim.models.trust import add_trust_argument, trusting_pickled_models
from factionsim.training import Args, add_arguments, args_from_namespace, run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    add_trust_argument(parser)  # only for --convert / --eval-only of a stable-baselines3 zip
    ns = parser.parse_args(argv)
    args: Args = args_from_namespace(ns)
    with trusting_pickled_models(ns.trust_model):
        run(args)


if __name__ == "__main__":
    main()
