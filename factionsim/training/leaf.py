"""``--method leaf`` (WWN): the planner's search with a **learned leaf**: an evaluator of the
state its rollouts end in, learnt from how heuristic games ended.

1. **Data** (:mod:`.leaf_data`): ``--bc-games`` heuristic self-play games on campaigns generated
   with seeds from ``--generated-seeds``, ``--leaf-turns LO HI`` turns each; every faction's
   :func:`~factionsim.agents.leaf_search.leaf_features` at the end of every turn, labelled with
   its final pairwise share. Written to ``OUT/leaf_data.npz`` (``--leaf-data FILE`` fits an
   earlier run's instead).
2. **Fit** (:mod:`.leaf_fit`), on all but the last ``--advantage-holdout`` share of the games:
   the *anchored* fit (the hand-made :func:`~factionsim.agents.planner.rollout_value` plus
   learned terms for the faction's standing: what a rank is worth as the game nears its end), a
   linear fit over every feature and, with ``--hidden``, a ``tanh`` network (``--fit-steps``
   minibatches of ``--batch-size``, ``--imitation-lr``); ``eval.json`` judges them on the
   held-out games beside the hand-made value alone.
3. **The policy** ``OUT/policy.json``: ``--leaf-model anchored`` (the default) or ``network``
   (the network over every feature; the linear fit without ``--hidden``), its output in XP of
   the hand-made value (the anchored fit: divided by its coefficient of ``rollout_value``; the
   network: by the slope of the share on ``rollout_value``), and ``search`` ``{"kind":
   "rollout-leaf", "features": ..., "candidates": "planner", "budget": --search-budget,
   "horizon": --value-horizon, "margin": M}`` (:mod:`factionsim.agents.leaf_search`). For the
   anchored leaf ``M`` is ``--search-margin`` (the planner's 0.1 XP). For the network, whose XP
   are only an average exchange rate, ``M`` is the margin at which its search leaves the
   heuristic's choice **as often as the planner does** at ``--search-margin``, on the same
   decisions of ``--calibration-games`` heuristic games of training campaigns (the first seeds
   of ``--generated-seeds``, ``--leaf-turns`` LO turns each; :func:`.leaf_fit.search_gaps`).
   Budget, horizon and margin can be edited in the file after training.
"""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from .args import Args, OptionError
from .league_run import check_holdout, generated_seeds

#: what ``--leaf-model`` may name: the hand-made value plus learned standing terms, or a network
#: over every leaf feature (``--hidden``; none: linear)
LEAF_MODELS = ("anchored", "network")


def check_leaf(args: Args) -> None:
    """``--method leaf``'s options, or :class:`ValueError` naming the bad one.

    >>> check_leaf(Args(method="leaf", leaf_turns=[30, 20]))
    Traceback (most recent call last):
    ...
    factionsim.training.args.OptionError: --leaf-turns 30 20: give LO HI with 1 <= LO <= HI
    """
    if args.ruleset != "wwn":
        raise OptionError("--method leaf plays the WWN planner's search; the "
                          f"{args.ruleset} ruleset has none")
    if len(args.leaf_turns) != 2 or not 1 <= args.leaf_turns[0] <= args.leaf_turns[1]:
        raise OptionError(f"--leaf-turns {' '.join(map(str, args.leaf_turns))}: give LO HI with "
                          "1 <= LO <= HI")
    if not 1 <= args.search_budget <= 256:
        raise OptionError(f"--search-budget {args.search_budget}: from 1 to 256")
    if not 0 <= args.value_horizon <= 8:
        raise OptionError(f"--value-horizon {args.value_horizon}: from 0 to 8")
    if not 0 <= args.search_margin <= 100:
        raise OptionError(f"--search-margin {args.search_margin:g}: from 0 to 100")
    if args.leaf_model not in LEAF_MODELS:
        raise OptionError(f"--leaf-model {args.leaf_model!r}; allowed: {', '.join(LEAF_MODELS)}")
    if not 0 <= args.calibration_games <= 100:
        raise OptionError(f"--calibration-games {args.calibration_games}: from 0 to 100")
    check_holdout(args)
    generated_seeds(args)


def train_leaf(args: Args) -> Path:
    """Train as the module docstring says; returns the path of ``OUT/policy.json``."""

    from factionsim.agents.leaf_search import LEAF_FEATURE_SET, LEAF_FEATURES
    from factionsim.core.files import write_atomic
    from factionsim.models import write_policy
    from factionsim.models.network import Network

    from .leaf_data import collect, load_rows
    from .leaf_fit import (
        affine,
        fit_anchored,
        fit_linear,
        fit_mlp,
        judge,
        matched_margin,
        scaled,
        search_gaps,
    )
    from .value import search_policy_header, start_run
    from .value_data import save_rows
    from .value_fit import split_games

    check_leaf(args)
    out, record, started, seeds = start_run(args)
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
    fitted: dict[str, Any] = {"rows": int(train.sum())}
    slope, intercept = affine(rows["handmade"][train], y)
    anchored_spec, anchored_arrays, fitted["anchored"] = fit_anchored(x, y)
    per_xp = fitted["anchored"]["handmade"]  # the anchored network is in XP: back to the share
    judged = {"handmade (rollout_value, affine to the share)":
                  judge(slope * rows["handmade"] + intercept, rows, held),
              "anchored": judge(Network.from_spec(*scaled(anchored_spec, anchored_arrays,
                                                           per_xp), n_in), rows, held),
              "linear": judge(Network.from_spec(*fit_linear(x, y), n_in), rows, held)}
    hidden = [h for h in args.hidden if h > 0]
    if hidden:
        spec, arrays, fitted["loss"] = fit_mlp(x, y, hidden, args.fit_steps, args.batch_size,
                                               args.imitation_lr, args.seed)
        judged[f"mlp {'-'.join(map(str, hidden))}"] = judge(
            Network.from_spec(spec, arrays, n_in), rows, held)
    else:
        spec, arrays = fit_linear(x, y)
    margin, departures = float(args.search_margin), None
    if args.leaf_model == "anchored":
        spec, arrays = anchored_spec, anchored_arrays
    else:  # the network's share in XP of the hand-made value; the margin matched on games
        spec, arrays = scaled(spec, arrays, 1.0 / slope)
        if args.calibration_games:
            trained = Network.from_spec(spec, arrays, n_in)
            calibration = [seeds[0] + k for k in range(args.calibration_games)]
            gaps = [search_gaps(leaf, calibration, turns[0], args.search_budget,
                                args.value_horizon, args.seed)
                    for leaf in (None, partial(_learned_value, trained))]
            margin, departures = matched_margin(gaps[1], gaps[0], float(args.search_margin))
            fitted["calibration"] = {"campaign_seeds": calibration, "turns": turns[0],
                                     "decisions": len(gaps[0]), "departure_rate": departures}
    description = {
        **search_policy_header(seeds, n_in),
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
                     "leaf_model": args.leaf_model, "share_per_xp": slope,
                     "departure_rate": departures,
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


def _learned_value(network: Any, state: Any, me: str) -> float:
    """``network``'s value of ``state`` for ``me`` (a leaf for :func:`.leaf_fit.search_gaps`)."""
    from factionsim.agents.leaf_search import leaf_features

    return float(network(leaf_features(state, me)[None])[0, 0])
