"""``--method leaf`` (WWN): the planner's search with a **learned leaf**: an evaluator of the
state its rollouts end in, learnt from how heuristic games ended.

1. **Data** (:mod:`.leaf_data`): ``--bc-games`` heuristic self-play games on campaigns generated
   with seeds from ``--generated-seeds``, ``--leaf-turns LO HI`` turns each; every faction's
   :func:`~factionsim.agents.leaf_search.leaf_features` at the end of every turn, labelled with
   its final pairwise share. Written to ``OUT/leaf_data.npz`` (``--leaf-data FILE`` fits an
   earlier run's instead).
2. **Fit** (:mod:`.leaf_fit`): on all but the last ``--advantage-holdout`` share of the games, a
   linear fit and, with ``--hidden``, a ``tanh`` network (``--fit-steps`` minibatches of
   ``--batch-size``, ``--imitation-lr``); ``eval.json`` judges both on the held-out games beside
   the hand-made :func:`~factionsim.agents.planner.rollout_value`.
3. **The policy** ``OUT/policy.json``: the network (the linear fit without ``--hidden``) and
   ``search`` ``{"kind": "rollout-leaf", "features": ..., "candidates": "planner", "budget":
   --search-budget, "horizon": --value-horizon, "margin": M}``
   (:mod:`factionsim.agents.leaf_search`). ``--search-margin`` is given in the planner's units
   (XP of rollout value: its own margin is 0.1) and written as ``M`` = that times the slope of
   the final share on the hand-made value over the training rows, the same margin in the units
   of the learned value. Budget, horizon and margin can be edited in the file after training.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from .args import Args
from .league_run import check_holdout, generated_seeds


def check_leaf(args: Args) -> None:
    """``--method leaf``'s options, or :class:`ValueError` naming the bad one.

    >>> check_leaf(Args(method="leaf", leaf_turns=[30, 20]))
    Traceback (most recent call last):
    ...
    ValueError: --leaf-turns 30 20: give LO HI with 1 <= LO <= HI
    """
    if args.ruleset != "wwn":
        raise ValueError("--method leaf plays the WWN planner's search; the "
                         f"{args.ruleset} ruleset has none")
    if len(args.leaf_turns) != 2 or not 1 <= args.leaf_turns[0] <= args.leaf_turns[1]:
        raise ValueError(f"--leaf-turns {' '.join(map(str, args.leaf_turns))}: give LO HI with "
                         "1 <= LO <= HI")
    if not 1 <= args.search_budget <= 256:
        raise ValueError(f"--search-budget {args.search_budget}: from 1 to 256")
    if not 0 <= args.value_horizon <= 8:
        raise ValueError(f"--value-horizon {args.value_horizon}: from 0 to 8")
    if not 0 <= args.search_margin <= 100:
        raise ValueError(f"--search-margin {args.search_margin:g}: from 0 to 100")
    check_holdout(args)
    generated_seeds(args)


def train_leaf(args: Args) -> Path:
    """Train as the module docstring says; returns the path of ``OUT/policy.json``."""
    import torch

    from factionsim.agents.leaf_search import LEAF_FEATURE_SET, LEAF_FEATURES
    from factionsim.core.files import write_atomic
    from factionsim.models import write_policy
    from factionsim.models.network import Network

    from .leaf_data import collect, load_rows, save_rows
    from .leaf_fit import affine, fit_linear, fit_mlp, judge
    from .record import write_run_record
    from .value_fit import split_games

    check_leaf(args)
    torch.set_num_threads(args.torch_threads)
    out = Path(args.out_dir())
    out.mkdir(parents=True, exist_ok=True)
    record = write_run_record(out, args)
    started = time.time()
    seeds = generated_seeds(args) or (0, (1 << 31) - 1)
    turns = (int(args.leaf_turns[0]), int(args.leaf_turns[1]))
    if args.leaf_data:
        rows = load_rows(args.leaf_data)
    else:
        def progress(games: int) -> None:
            if args.progress and (games % 50 == 0 or games == args.bc_games):
                print(f"data: {games}/{args.bc_games} games, {time.time() - started:.0f} s",
                      flush=True)

        rows = collect(args.seed, args.bc_games, seeds, turns, args.workers, progress)
        save_rows(out / "leaf_data.npz", rows)
    data_s = time.time() - started
    train, held = split_games(rows, args.advantage_holdout)
    x, y = rows["x"][train], rows["share"][train]
    n_in = len(LEAF_FEATURES)
    linear = Network.from_spec(*fit_linear(x, y), n_in)
    hidden = [h for h in args.hidden if h > 0]
    fitted: dict[str, Any] = {"rows": int(train.sum())}
    if hidden:
        spec, arrays, fitted["loss"] = fit_mlp(x, y, hidden, args.fit_steps, args.batch_size,
                                               args.imitation_lr, args.seed)
    else:
        spec, arrays = fit_linear(x, y)
    slope, intercept = affine(rows["handmade"][train], y)
    handmade = slope * rows["handmade"] + intercept
    judged = {"handmade (rollout_value, affine to the share)": judge(handmade, rows, held),
              "linear": judge(linear, rows, held)}
    if hidden:
        judged[f"mlp {'-'.join(map(str, hidden))}"] = judge(
            Network.from_spec(spec, arrays, n_in), rows, held)
    margin = float(args.search_margin) * slope
    description = {
        "ruleset": "wwn", "env_version": 1,
        "spaces": {"observation": n_in, "actions": 1},
        "codec": {"limits": {}},
        "trained_on": {"campaign": f"campaigns generated with seeds {seeds[0]}-{seeds[1]}",
                       "shape": "any"},
        "network": spec,
        "search": {"kind": "rollout-leaf", "features": LEAF_FEATURE_SET,
                   "candidates": "planner", "budget": int(args.search_budget),
                   "horizon": int(args.value_horizon), "margin": round(margin, 6)},
        "training": {"algorithm": "the final pairwise share of heuristic self-play games "
                                  "regressed on the features of every turn's end; played as "
                                  "the planner's leaf",
                     "command": record["command"], "versions": record["versions"],
                     "git": record.get("git"), "features": list(LEAF_FEATURES),
                     "games": int(len(np.unique(rows["game"]))), "rows": int(len(rows["x"])),
                     "margin_xp": float(args.search_margin), "share_per_xp": slope,
                     "fit": fitted},
        "notes": "plays the planner (budget, horizon, margin of its search field), its "
                 "rollouts' last states scored by this network's estimate of the faction's "
                 "final pairwise share",
    }
    path = out / "policy.json"
    write_policy(path, description, arrays, dtype=args.weights_dtype)
    summary = {"method": "leaf", "data_seconds": data_s, "seconds": time.time() - started,
               "games": int(len(np.unique(rows["game"]))), "rows": int(len(rows["x"])),
               "held_out_games": int(len(np.unique(rows["game"][held]))),
               "share_per_xp": slope, "margin": margin, "fit": fitted, "held_out": judged}
    write_atomic(out / "eval.json", json.dumps(summary, indent=2) + "\n")
    if args.progress:
        for name, figures in judged.items():
            print(f"held out, {name}: " + json.dumps({k: round(v, 4) for k, v in figures.items()}))
    print(f"wrote {path} (play it with agent: policy:{path})")
    return path
