"""``factionsim train``: train a faction policy with MaskablePPO (:mod:`factionsim.training`).

The options are the fields of :class:`factionsim.training.Args`. torch, stable-baselines3 and
sb3-contrib are imported only when the command runs (``pip install 'factionsim[rl]'``);
``--eval-only POLICY`` and ``--eval-only trained`` evaluate with numpy alone.
"""

from __future__ import annotations

import argparse

from factionsim.commands.options import add_command
from factionsim.core.game import FactionsimError
from factionsim.models.trust import add_trust_argument
from factionsim.training.args import add_arguments, args_from_namespace


def add_parser(subparsers) -> None:
    p = add_command(subparsers, "train")
    add_arguments(p)
    add_trust_argument(p)
    p.set_defaults(func=_cmd_train)


def _cmd_train(args: argparse.Namespace) -> int:
    from factionsim.training import run

    options = args_from_namespace(args)
    needs_torch = not options.eval_only or options.eval_only.endswith(".zip")
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401

        if needs_torch:
            import sb3_contrib  # noqa: F401
            import torch  # noqa: F401
    except ImportError as exc:
        raise FactionsimError(f"factionsim train needs the rl extra ({exc.name} is missing): "
                              "pip install torch==2.13.0 && pip install 'factionsim[rl]'") from None
    run(options)  # trains, converts, or evaluates with --eval-only
    return 0
