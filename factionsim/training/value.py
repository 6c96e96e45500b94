"""``--method value`` (WWN): a learned evaluator of afterstates, played by one-ply search.

1. **Data** (:mod:`.value_data`): ``--bc-games`` heuristic games on campaigns generated with
   seeds from ``--generated-seeds`` (``--max-turns`` turns); at every faction action the planner
   would search, each of its candidates and the heuristic's choice get ``--expert-rollouts``
   rollouts with common dice (to the end of the next turn, the planner's
   :func:`~factionsim.agents.planner.rollout_value`), each noting the features of its afterstate.
   Written to ``OUT/value_data.npz`` (``--value-data FILE`` fits an earlier run's instead).
2. **Fit** (:mod:`.value_fit`): a dense ``tanh`` network over the features (``--hidden``),
   ``--fit-steps`` minibatches of ``--batch-size`` pairs (Adam, ``--imitation-lr``), regressing
   the difference of each candidate's value and the heuristic choice's with the same dice. The
   last ``--advantage-holdout`` share of the games is held out; ``eval.json`` says how greedy play
   would do on them at several margins, beside the planner's hand-made value of the afterstate
   (what the search would be without training).
3. **The policy** ``OUT/policy.json``: the network, with ``search`` ``{"kind":
   "afterstate-value", "features": ..., "candidates": "planner", "samples":
   --search-samples, "margin": --search-margin}`` (:mod:`factionsim.agents.value_search`). The
   margin and the samples can be changed in the file after training (the network does not
   depend on them). Beside it ``OUT/untrained.json``: the same search scored by the planner's
   hand-made :func:`~factionsim.agents.planner.rollout_value` of the afterstate (a one-layer
   network over the same features), the control that says what the training adds.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from .args import Args, OptionError
from .league_run import check_holdout, generated_seeds

#: the margins ``eval.json`` judges the fit at
MARGINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)


def check_value(args: Args) -> None:
    """``--method value``'s options, or :class:`ValueError` naming the bad one.

    >>> check_value(Args(method="value", search_samples=0))
    Traceback (most recent call last):
    ...
    factionsim.training.args.OptionError: --search-samples 0: from 1 to 64
    """
    if args.ruleset != "wwn":
        raise OptionError("--method value searches the WWN planner's candidates; the "
                          f"{args.ruleset} ruleset has none")
    if not 1 <= args.search_samples <= 64:
        raise OptionError(f"--search-samples {args.search_samples}: from 1 to 64")
    if not 0 <= args.search_margin <= 100:
        raise OptionError(f"--search-margin {args.search_margin:g}: from 0 to 100")
    check_holdout(args)
    if args.value_horizon < 0:
        raise OptionError(f"--value-horizon {args.value_horizon}: at least 0")
    generated_seeds(args)


def start_run(args: Args) -> tuple[Path, dict[str, Any], float, tuple[int, int]]:
    """A search method's run begun (``--method value``, ``leaf`` or ``tune``): torch's threads
    set, the run folder made with its record; ``(folder, record, start time, campaign seeds LO
    HI)``."""
    import torch

    from .record import write_run_record

    torch.set_num_threads(args.torch_threads)
    out = Path(args.out_dir())
    out.mkdir(parents=True, exist_ok=True)
    record = write_run_record(out, args)
    return out, record, time.time(), generated_seeds(args) or (0, (1 << 31) - 1)


def search_policy_header(seeds: tuple[int, int], observation: int, actions: int = 1,
                         base: str | None = None, hostile: float = 0.0) -> dict[str, Any]:
    """The first fields of a WWN search policy's description (``--method value``, ``leaf``,
    ``tune``): its ruleset, the env version it was made under (the version decides nothing
    for it: it reads the game, not the env's observation), its network's sizes and the
    campaigns it was trained on (it plays any shape; ``base``: the other campaign its games
    were played on, if any; ``hostile``: the share of the generated ones played at war, see
    :class:`~factionsim.training.games.Campaigns`)."""
    from factionsim.envs import env_version

    return {"ruleset": "wwn", "env_version": env_version("wwn"),
            "spaces": {"observation": observation, "actions": actions},
            "codec": {"limits": {}},
            "trained_on": {"campaign": f"campaigns generated with seeds {seeds[0]}-{seeds[1]}"
                                       + (f" ({hostile:.0%} of them with every pair they do not "
                                          "list at war)" if hostile else "")
                                       + (f" and {base}" if base else ""),
                           "shape": "any"}}


def train_value(args: Args) -> Path:
    """Train as the module docstring says; returns the path of ``OUT/policy.json``."""

    from factionsim.agents.afterstate import FEATURE_SET, FEATURES
    from factionsim.core.files import write_atomic
    from factionsim.models import write_policy

    from .value_data import collect, load_rows, save_rows
    from .value_fit import baseline_network, baseline_value, fit_value, margin_table, split_games

    check_value(args)
    out, record, started, seeds = start_run(args)
    if args.value_data:
        rows = load_rows(args.value_data)
    else:
        def progress(rows: dict[str, np.ndarray], games: int) -> None:
            if args.progress:
                print(f"data: {games}/{args.bc_games} games, {len(rows['x'])} rollouts, "
                      f"{time.time() - started:.0f} s", flush=True)

        rows = collect(args.seed, args.bc_games, seeds, args.max_turns, args.expert_rollouts,
                       args.workers, progress, args.value_horizon)
        save_rows(out / "value_data.npz", rows)
    data_s = time.time() - started
    train, held = split_games(rows, args.advantage_holdout)
    network, arrays, fitted = fit_value(rows, train, args.hidden, args.fit_steps,
                                        args.batch_size, args.imitation_lr, args.seed)
    description = {
        **search_policy_header(seeds, len(FEATURES)),
        "network": network,
        "search": {"kind": "afterstate-value", "features": FEATURE_SET, "candidates": "planner",
                   "samples": int(args.search_samples), "margin": float(args.search_margin)},
        "training": {"algorithm": "afterstate value regression on the planner's rollout "
                                  "values, played by one-ply search",
                     "command": record["command"], "versions": record["versions"],
                     "git": record.get("git"), "features": list(FEATURES),
                     "decisions": int(len(np.unique(rows["decision"]))),
                     "rollouts": int(len(rows["x"])), "fit": fitted},
        "notes": "plays the heuristic except at the planner's faction-action decisions, where "
                 "it plays the candidate whose afterstate this network values best (by the "
                 "margin over the heuristic's choice)",
    }
    path = out / "policy.json"
    policy = write_policy(path, description, arrays, dtype=args.weights_dtype)
    untrained_net, untrained_arrays = baseline_network()
    write_policy(out / "untrained.json", {
        **description, "network": untrained_net,
        "training": {"algorithm": "none: the planner's rollout_value of the afterstate (the "
                                  "control of this run's policy)"}}, untrained_arrays)
    judged = {"fit": margin_table(rows, held, policy.network, MARGINS),
              "untrained (the planner's rollout_value of the afterstate)":
                  margin_table(rows, held, baseline_value, MARGINS)}
    summary = {"method": "value", "data_seconds": data_s,
               "seconds": time.time() - started,
               "decisions": int(len(np.unique(rows["decision"]))), "rollouts": int(len(rows["x"])),
               "held_out_games": int(len(np.unique(rows["game"][held]))),
               "fit": fitted, "held_out": judged}
    write_atomic(out / "eval.json", json.dumps(summary, indent=2) + "\n")
    if args.progress:
        for name, table in judged.items():
            print(f"held out, {name}: " + json.dumps(table))
    print(f"wrote {path} (play it with agent: policy:{path})")
    return path


def policy_search(path: Any) -> dict[str, Any]:
    """The ``search`` field of the policy file at ``path`` (to edit its margin or samples)."""
    return dict(json.loads(Path(path).read_text())["search"])
