"""``factionsim train``: train a WWN faction with MaskablePPO (``experiments/train_wwn_ppo.py``).

The options are the fields of the script's ``Args`` dataclass. torch, stable-baselines3 and
sb3-contrib are imported only when the command runs (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from factionsim.core.game import FactionsimError

SCRIPT = Path(__file__).resolve().parents[2] / "experiments" / "train_wwn_ppo.py"


def load_script() -> ModuleType | None:
    """The training script as a module (``None`` when this install has no experiments/)."""
    if "factionsim_train_wwn_ppo" in sys.modules:
        return sys.modules["factionsim_train_wwn_ppo"]
    if not SCRIPT.exists():
        return None
    spec = importlib.util.spec_from_file_location("factionsim_train_wwn_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "train", help="train a faction policy with MaskablePPO (needs the rl extra)",
        description="Train one WWN faction with MaskablePPO against registry opponents; writes "
        "OUT/model.zip (play it with 'agent: policy:OUT/model.zip'), OUT/eval.json and "
        "TensorBoard logs in OUT/tb. With --eval-only MODEL (or random) it only evaluates. Same "
        "options as experiments/train_wwn_ppo.py.")
    script = load_script()
    if script is not None:
        script.add_arguments(p)
    p.set_defaults(func=_cmd_train)


def _cmd_train(args: argparse.Namespace) -> int:
    script = load_script()
    if script is None:
        raise FactionsimError(f"training script not found at {SCRIPT}; use a source checkout")
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise FactionsimError("factionsim train needs the rl extra: pip install torch==2.13.0 "
                              "&& pip install -e '.[rl]'") from exc
    script.run(script.args_from_namespace(args))  # trains, or evaluates with --eval-only
    return 0
