"""Learner throughput of ``factionsim train --method league``: learner decisions per second,
games and PPO updates included (issue 21 item 4's ">= 1,000 learner steps/s on 2 cores").

    python experiments/benchmark_learner.py                       # WWN, 3 updates vs heuristic
    python experiments/benchmark_learner.py --ruleset houses --league random
    python experiments/benchmark_learner.py --hidden 128,128 --entity 32 --head 64  # shipped size

A learner step is one decision of a learner seat (what MaskablePPO counts as a timestep in
``--method ppo``). One update = rollouts of ``--rollout-decisions`` decisions shared among
``--workers`` processes (every network decision of a worker's games batched into one numpy
forward pass; the league's agents act inline) + one PPO update of the set-based network
(``--n-epochs`` passes, minibatches of ``--batch-size``). The first update is left out of the
figure (worker start-up: one import of factionsim per process). Prints one JSON object:
``steps_per_s`` (all included), ``rollout_steps_per_s`` and ``update_steps_per_s`` (each part
alone), and the machine's load average, which matters on a shared machine; ``cpu_*`` are the
same figures over CPU time instead of wall time (a rollout: its busiest worker's CPU time; the
update: the main process's), i.e. what the two cores would give if nothing else ran on them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@dataclasses.dataclass
class Bench:
    ruleset: str = "wwn"
    league: str = "heuristic"
    updates: int = 3  # measured (after one warm-up update)
    rollout_decisions: int = 8192
    workers: int = 2
    batch_size: int = 512
    n_epochs: int = 3
    max_turns: int = 20
    torch_threads: int = 1
    seed: int = 0
    hidden: str = "256,256"  # the network's shape (``--hidden``, ``--entity``, ``--head`` of
    entity: int = 64  # ``factionsim train``); the shipped policy's: 128,128 / 32 / 64
    head: int = 128


def measure(b: Bench) -> dict[str, float]:
    import torch

    from factionsim.envs import make_codec
    from factionsim.training import Args
    from factionsim.training.evaluate import run_campaign
    from factionsim.training.graph import TorchGraph
    from factionsim.training.league import (
        PPOSettings,
        RolloutTask,
        ValueHead,
        ppo_optimizer,
        ppo_update,
        rollout,
    )
    from factionsim.training.league_run import _Pool, _split, league_members
    from factionsim.training.nets import NetShape, build_network
    from factionsim.training.samples import SampleBuffer

    torch.set_num_threads(b.torch_threads)
    state, _ = run_campaign(Args(ruleset=b.ruleset))
    codec = make_codec(state)
    hidden = [int(h) for h in b.hidden.split(",")]
    spec, arrays = build_network(codec, "set", seed=b.seed,
                                 shape=NetShape(hidden=hidden, entity=b.entity, head=b.head))
    graph = TorchGraph(spec, arrays, codec.obs_size)
    value = ValueHead(hidden[-1])
    optimizer = ppo_optimizer(graph, value, 1e-4)
    settings = PPOSettings(batch_size=b.batch_size, epochs=b.n_epochs)
    league = league_members([b.league])
    rng = np.random.default_rng(b.seed)
    pool = _Pool(b.workers)
    totals = {"decisions": 0, "rollout_s": 0.0, "update_s": 0.0, "rollout_cpu": 0.0,
              "update_cpu": 0.0}
    try:
        for update in range(b.updates + 1):
            t0 = time.perf_counter()
            tasks = [RolloutTask(b.ruleset, None, 0.0, b.max_turns, (spec, graph.arrays()),
                                 league, {}, (1, 2), n, int(rng.integers(1 << 31)))
                     for n in _split(b.rollout_decisions, b.workers)]
            results = pool.map(rollout, tasks)
            buf = SampleBuffer(codec.obs_size, codec.n_actions, capacity=1 << 62)
            for res in results:
                buf.extend(res.samples)
            t1, c1 = time.perf_counter(), time.process_time()
            ppo_update(graph, value, optimizer, buf,
                       np.concatenate([r.rewards for r in results]),
                       np.concatenate([r.dones for r in results]), settings, rng)
            t2, c2 = time.perf_counter(), time.process_time()
            if update:  # the first one pays the workers' start-up
                totals["decisions"] += len(buf)
                totals["rollout_s"] += t1 - t0
                totals["update_s"] += t2 - t1
                # the busiest worker's CPU time: what the rollout takes on free cores
                totals["rollout_cpu"] += max(r.cpu_seconds for r in results)
                totals["update_cpu"] += c2 - c1
    finally:
        pool.close()
    n = totals["decisions"]
    return {"ruleset": b.ruleset, "league": b.league, "workers": b.workers, "hidden": b.hidden,
            "entity": b.entity, "head": b.head,
            "learner_steps": n,
            "steps_per_s": round(n / (totals["rollout_s"] + totals["update_s"]), 1),
            "rollout_steps_per_s": round(n / totals["rollout_s"], 1),
            "update_steps_per_s": round(n / totals["update_s"], 1),
            "cpu_steps_per_s": round(n / (totals["rollout_cpu"] + totals["update_cpu"]), 1),
            "cpu_rollout_steps_per_s": round(n / totals["rollout_cpu"], 1),
            "cpu_update_steps_per_s": round(n / totals["update_cpu"], 1),
            "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for f in dataclasses.fields(Bench):
        parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=type(f.default),
                            default=f.default)
    print(json.dumps(measure(Bench(**vars(parser.parse_args(argv))))))


if __name__ == "__main__":
    main()
