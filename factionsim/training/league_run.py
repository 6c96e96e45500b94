"""``factionsim train --method league``: imitation of an expert, then PPO against a league.

The network is one of :mod:`.nets` (``--arch set``: per-entity layers pooled over the asset
rows, a pointer-style head per asset; ``flat``: dense layers), trained in torch
(:class:`.graph.TorchGraph`) and written as the policy file format, so what is trained is what
``agent: policy:OUT/policy.json`` plays with numpy. Every ruleset trains this way (the set
encoder needs the codec's layout; a codec without one is read as one vector).

1. **Behaviour cloning** (round 0): ``--bc-games`` games in which the learner holds
   ``--learner-seats`` seats and ``--imitation-opponents`` the others; the ``--expert`` plays the
   learner's seats and every decision it takes is a label (:func:`.imitation.collect`).
2. **DAgger** (rounds 1..``--dagger-rounds``): ``--dagger-games`` games each in which the
   learner's seats play the *policy's* sample, except with probability ``--dagger-beta`` (halved
   each round) the expert's choice; the expert labels every decision. The labels of all rounds
   (up to ``--buffer`` decisions) are fitted after each round (``--fit-steps`` minibatches of
   the masked cross-entropy).
3. **PPO against a league** (``--ppo-decisions`` learner decisions, 0: none): rollouts of
   ``--rollout-decisions`` decisions in which the learner holds ``--learner-seats`` seats and one
   member of ``--league`` holds the others (a registry agent such as ``heuristic`` or
   ``planner@budget=4``, or ``self``: a frozen copy of the learner, refreshed every
   ``--freeze-every`` updates), then a clipped PPO update (:mod:`.league`).

Games come from the run's campaign, and for WWN with probability ``--generated`` from a campaign
generated with a fresh seed of the same shape (so the policy learns to play any map of that
shape), or with ``--generated-seeds LO HI`` a seed from LO to HI (the campaigns ``factionsim new
--seed S`` makes: those a policy is measured on can be kept out of its training). The work of
each round is shared among ``--workers`` processes.

What the run folder holds is what ``--method ppo`` writes (``policy.json`` + ``.npz`` rewritten
after every round, ``eval.json`` with every round in ``history`` and the final evaluation,
``run.json`` / ``command.txt``, TensorBoard curves in ``tb/``: ``imitation/*`` per round,
``league/share_vs_<member>`` per update, ``eval/win_rate_vs_<opponent>`` at the end).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .args import Args, OptionError
from .evaluate import evaluate, policy_agent, run_campaign
from .imitation import AgentRef, CollectTask, collect, fit
from .league import (
    Opponent,
    PPOSettings,
    RolloutTask,
    ValueHead,
    ppo_optimizer,
    ppo_update,
    rollout,
)
from .samples import SampleBuffer


class _Pool:
    """``map`` over worker processes (``workers`` > 1) or in this process."""

    def __init__(self, workers: int):
        self.pool = None
        if workers > 1:
            import multiprocessing

            self.pool = multiprocessing.get_context("spawn").Pool(workers)

    def map(self, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> list[Any]:
        return self.pool.map(fn, tasks) if self.pool is not None else [fn(t) for t in tasks]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()


def _split(total: int, parts: int) -> list[int]:
    """``total`` as ``parts`` near-equal whole shares (none empty unless ``total`` < ``parts``).

    >>> _split(10, 3), _split(1, 2)
    ([4, 3, 3], [1])
    """
    base, extra = divmod(total, parts)
    return [n for n in (base + (i < extra) for i in range(parts)) if n > 0]


def league_members(names: Sequence[str]) -> list[Opponent]:
    """``--league`` as opponents: ``self`` is the frozen copy, anything else a registry agent
    (``planner@budget=4``); ``NAME*W`` weighs a member ``W`` (default 1).

    >>> [(o.label, o.weight, o.network) for o in league_members(["heuristic*2", "self"])]
    [('heuristic', 2.0, None), ('self', 1.0, 'self')]
    """
    out = []
    for text in names:
        name, _, weight = text.partition("*")
        w = float(weight) if weight else 1.0
        if name == "self":
            out.append(Opponent("self", w, network="self"))
        else:
            out.append(Opponent(name, w, agent=AgentRef.parse(name)))
    return out


class _Log:
    """TensorBoard scalars (when tensorboard is installed) and one printed line per round."""

    def __init__(self, out: Path, progress: bool):
        self.progress = progress
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.writer: Any = SummaryWriter(str(out / "tb"))
        except ImportError:  # pragma: no cover - tensorboard is part of the rl extra
            self.writer = None

    def scalars(self, step: int, values: dict[str, float]) -> None:
        if self.writer is not None:
            for key, value in values.items():
                self.writer.add_scalar(key, value, step)
            self.writer.flush()

    def line(self, text: str) -> None:
        if self.progress:
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def train_league(args: Args) -> Path:
    """Train as the module docstring says; returns the path of ``OUT/policy.json``."""
    import torch

    from factionsim.core.campaign import write_atomic
    from factionsim.envs import make_codec
    from factionsim.models import write_policy

    from .export import description
    from .graph import TorchGraph
    from .nets import NetShape, build_network
    from .record import write_run_record

    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    # the options first: a bad one fails before any folder or game
    advantage = args.method == "advantage"
    if advantage:
        check_advantage(args)
    if args.prior != "none" and not advantage:
        from factionsim.models.prior import PRIOR_AGENTS

        if args.prior not in PRIOR_AGENTS:
            raise OptionError(f"--prior {args.prior!r}; allowed: none, {', '.join(PRIOR_AGENTS)}")
    generated = generated_share(args) if args.ruleset == "wwn" else 0.0
    generated_seeds(args)
    searched_only = expert_labels(args)
    out = Path(args.out_dir())
    out.mkdir(parents=True, exist_ok=True)
    record = write_run_record(out, args)
    state, campaign = run_campaign(args)
    codec = make_codec(state)
    prior = None
    if args.prior != "none" or advantage:
        from factionsim.models.prior import PriorCodec
        from factionsim.rulesets import ruleset_of

        codec = PriorCodec(codec, ruleset_of(state), "heuristic" if advantage else args.prior,
                           args.prior_weight, "planner" if advantage else None)
        prior = codec.prior
    shape = NetShape(arch=args.arch, hidden=list(args.hidden), entity=args.entity,
                     head=args.head)
    spec, arrays = build_network(codec, args.arch, seed=args.seed, shape=shape)
    graph = TorchGraph(spec, arrays, codec.obs_size)
    rng = np.random.default_rng(args.seed)
    log = _Log(out, args.progress)
    pool = _Pool(args.workers)
    seats = (int(args.learner_seats[0]), int(args.learner_seats[-1]))
    history: list[dict[str, Any]] = []
    training = {"algorithm": ("advantage regression on the planner's rollout values"
                              if advantage else
                              "imitation (behaviour cloning, DAgger) then PPO against a league"),
                "command": record["command"], "versions": record["versions"],
                "git": record["git"], "expert": args.expert, "league": args.league}
    t0 = time.perf_counter()

    def save(extra: dict[str, Any] | None = None, path: Path = out / "policy.json") -> Any:
        d = description(getattr(codec, "base", codec), state, spec,
                        {**training, **(extra or {})}, campaign)
        if prior:
            d["prior"] = prior
        return write_policy(path, d, graph.arrays(), dtype=args.weights_dtype)

    def seed() -> int:
        return int(rng.integers(1 << 31))

    try:
        # 1-2. behaviour cloning, then DAgger
        buf = SampleBuffer(codec.obs_size, codec.n_actions, capacity=args.buffer)
        optimizer = torch.optim.Adam(graph.parameters(), lr=args.imitation_lr)
        betas = [1.0] * (args.bc_games > 0) + [args.dagger_beta / 2 ** r
                                               for r in range(args.dagger_rounds)]
        if advantage:  # instead of imitation: the advantage regression
            betas = []
            _advantage_phase(args, graph, codec, generated, seats, pool, rng, log, history,
                             save, t0)
        for r, beta in enumerate(betas):
            games = args.bc_games if r == 0 and args.bc_games > 0 else args.dagger_games
            network = None if beta >= 1.0 else (spec, graph.arrays())
            tasks = [CollectTask(args.ruleset, args.campaign, generated, args.max_turns,
                                 network, AgentRef.parse(args.expert),
                                 [AgentRef.parse(o) for o in args.imitation_opponents], seats,
                                 beta, n, seed(), prior=prior,
                                 generated_seeds=generated_seeds(args),
                                 searched_only=searched_only)
                     for n in _split(games, args.workers)]
            results = pool.map(collect, tasks)
            for res in results:
                buf.extend(res.samples)
            stats = fit(graph, optimizer, buf, args.fit_steps, args.batch_size, rng,
                        prior_offset=codec.base.obs_size if prior else None)
            played = sum(res.games for res in results)
            decisions = sum(res.decisions for res in results)
            labels = sum(len(res.samples) for res in results)
            phase = "bc" if beta >= 1.0 else "dagger"
            entry = {"phase": phase, "round": r, "beta": beta,
                     "policy": f"rounds/{phase}{r}.json", "games": played, "labels": len(buf),
                     "loss": stats["loss"], "accuracy": stats["accuracy"],
                     "agreement": (sum(res.agree for res in results) / decisions
                                   if network is not None and decisions else None),
                     "share": sum(res.wins for res in results) / max(1, played),
                     "seconds": round(time.perf_counter() - t0, 1)}
            if prior:  # how often the expert's labels of the round are the prior's choice
                entry["round_labels"] = labels
                entry["prior_agreement"] = (sum(res.prior_agree for res in results) / labels
                                            if labels else None)
                entry["departures"] = stats["departures"]
                entry["departure_accuracy"] = stats["departure_accuracy"]
            history.append(entry)
            log.scalars(r, {f"imitation/{k}": v for k, v in entry.items()
                            if isinstance(v, float)})
            log.line(f"{phase} round {r}: {played} games, {len(buf)} labels, loss "
                     f"{stats['loss']:.3f}, accuracy {stats['accuracy']:.3f}, learner's share "
                     f"{entry['share']:.3f} ({entry['seconds']:.0f} s)"
                     + (f"; labels agreeing with the prior {entry['prior_agreement']:.3f}, "
                        f"fitted accuracy on departures {entry['departure_accuracy']}"
                        if prior and labels else ""))
            save()
            save(path=out / entry["policy"])  # the policy as this round left it, kept
        # 3. PPO against the league
        if args.ppo_decisions > 0:
            _ppo_phase(args, graph, spec, codec, generated, seats, pool, rng, log, history,
                       save, t0)
    finally:
        pool.close()
    elapsed = time.perf_counter() - t0
    written = save()
    player = policy_agent(written, str(out / "policy.json"), args, state)
    final = [evaluate(player, args, opp, args.final_eval_games, seed=50_000,
                      progress=args.progress)
             for opp in args.eval_opponents if args.final_eval_games > 0]
    for r in final:
        log.scalars(len(history), {f"eval/win_rate_vs_{r['opponent']}": r["win_rate"]})
        print(f"final vs {r['opponent']}: win rate {r['win_rate']:.3f} (95% CI "
              f"{r['win_rate_ci95'][0]:.3f}-{r['win_rate_ci95'][1]:.3f}) over {r['games']} games")
    log.close()
    summary = {"seconds": round(elapsed, 1), "final": final, "history": history}
    write_atomic(out / "eval.json", json.dumps(summary, indent=2) + "\n")
    save({"seconds": summary["seconds"],
          "final_eval": [{k: r[k] for k in ("opponent", "games", "win_rate", "win_rate_ci95",
                                            "shared_win_rate")} for r in final]})
    print(f"trained in {elapsed:.0f} s; wrote {out / 'policy.json'} (play it with agent: "
          f"policy:{out / 'policy.json'})")
    return out / "policy.json"


def check_advantage(args: Args) -> None:
    """``--method advantage``'s options, or :class:`ValueError` naming the bad one.

    >>> check_advantage(Args(method="advantage", advantage_scale=0))
    Traceback (most recent call last):
    ...
    factionsim.training.args.OptionError: --advantage-scale 0: must be above 0
    """
    if args.ruleset != "wwn":
        raise OptionError(f"--method advantage values the WWN planner's candidates; the "
                          f"{args.ruleset} ruleset has no planner")
    if args.expert_rollouts < 1:
        raise OptionError(f"--expert-rollouts {args.expert_rollouts}: at least 1")
    if not args.advantage_scale > 0:
        raise OptionError(f"--advantage-scale {args.advantage_scale:g}: must be above 0")
    check_holdout(args)
    if args.bc_games < 1 or args.fit_steps < 1:
        raise OptionError("--method advantage needs --bc-games and --fit-steps of at least 1")


def check_holdout(args: Args) -> None:
    """``--advantage-holdout`` (``advantage`` and ``value``): a share from 0 up to, not
    including, 1, or :class:`ValueError`."""
    if not 0 <= args.advantage_holdout < 1:
        raise OptionError(f"--advantage-holdout {args.advantage_holdout:g}: from 0 up to, not "
                          "including, 1")


#: margins (XP of rollout value) whose greedy play eval.json reports on the held-out decisions
MARGINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)


def _advantage_phase(args: Args, graph: Any, codec: Any, generated: float,
                     seats: tuple[int, int], pool: _Pool, rng: np.random.Generator, log: _Log,
                     history: list[dict[str, Any]], save: Callable[..., Any], t0: float) -> None:
    """``--bc-games`` heuristic games valued by the planner's rollouts, then the regression
    (:mod:`.advantage`); the decisions of the last ``--advantage-holdout`` share of games are
    held out of the fit and judge the margins (``history``'s entry ``margins``)."""
    import torch

    from .advantage import (
        VALUE_EXPERT,
        ValueStore,
        fit_advantage,
        load_data,
        margin_table,
        save_data,
    )

    expert = AgentRef(VALUE_EXPERT, {"rollouts": args.expert_rollouts})
    tasks = [CollectTask(args.ruleset, args.campaign, generated, args.max_turns, None, expert,
                         [AgentRef.parse(o) for o in args.imitation_opponents], seats, 1.0, n,
                         int(rng.integers(1 << 31)), prior=codec.prior,
                         generated_seeds=generated_seeds(args), valued=True)
             for n in _split(args.bc_games, args.workers)]
    games = 0
    if args.advantage_data:  # an earlier run's valued decisions
        buf, store = load_data(args.advantage_data)
        if (buf.obs_size, buf.n_actions) != (codec.obs_size, codec.n_actions):
            raise OptionError(f"--advantage-data {args.advantage_data}: its decisions have "
                              f"{buf.obs_size} observation values and {buf.n_actions} actions; "
                              f"this run's {codec.obs_size} and {codec.n_actions}")
    else:
        results = pool.map(collect, tasks)
        buf = SampleBuffer(codec.obs_size, codec.n_actions, capacity=1 << 62)
        store = ValueStore()
        for res in results:
            buf.extend(res.samples)
            store.extend(res.values)
            games += res.games
        save_data(Path(args.out_dir()) / "advantage_data.npz", buf, store)
    collected = time.perf_counter() - t0
    n = len(buf)
    held = int(round(n * args.advantage_holdout))  # the last decisions: whole games, mostly
    fit_ids, held_ids = np.arange(n - held), np.arange(n - held, n)
    offset = codec.base.obs_size
    optimizer = torch.optim.Adam(graph.parameters(), lr=args.imitation_lr)
    stats = fit_advantage(graph, optimizer, buf, store, fit_ids, args.fit_steps, args.batch_size,
                          rng, args.advantage_scale, offset)
    table = margin_table(graph, buf, store, held_ids, args.advantage_scale, offset, MARGINS)
    entry = {"phase": "advantage", "round": 0, "policy": "rounds/advantage0.json",
             "games": games, "data": args.advantage_data, "valued_decisions": n,
             "held_out": held, "loss": stats["loss"], "held_out_table": table,
             "collect_seconds": round(collected, 1),
             "seconds": round(time.perf_counter() - t0, 1)}
    history.append(entry)
    log.scalars(0, {"advantage/loss": stats["loss"]})
    log.line(f"advantage: {entry['games']} games, {n} valued decisions ({held} held out), loss "
             f"{stats['loss']:.3f}; held out: " + json.dumps(table))
    save()
    save(path=Path(args.out_dir()) / entry["policy"])


def expert_labels(args: Args) -> bool:
    """``--expert-labels``: ``all`` (every decision of the learner's seats is a label) or
    ``searched`` (only those the expert searches: it needs an expert that says where it searches,
    the planner); true for ``searched``.

    >>> expert_labels(Args()), expert_labels(Args(expert="planner@budget=4",
    ...                                           expert_labels="searched"))
    (False, True)
    """
    if args.expert_labels not in ("all", "searched"):
        raise OptionError(f"--expert-labels {args.expert_labels!r}; allowed: all, searched")
    if args.expert_labels == "all":
        return False
    expert = AgentRef.parse(args.expert).make(args.ruleset)
    if not hasattr(expert, "searches"):
        raise OptionError(f"--expert-labels searched needs an expert that searches some decisions "
                          f"(planner); {args.expert!r} does not")
    return True


def generated_share(args: Args) -> float:
    """``--generated``, the share of games on generated campaigns (from 0 to 1).

    >>> generated_share(Args(generated=0.25))
    0.25
    >>> generated_share(Args(generated=1.5))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    factionsim.training.args.OptionError: --generated 1.5: the share of games on ... from 0 to 1
    """
    return share_option(args, "generated", "the share of games on generated campaigns")


def share_option(args: Args, name: str, meaning: str) -> float:
    """The option ``name`` (an ``Args`` field) as a share from 0 to 1, or :class:`OptionError`
    saying ``--NAME VALUE: MEANING, from 0 to 1``."""
    value = getattr(args, name)
    if not 0 <= value <= 1:
        raise OptionError(f"--{name.replace('_', '-')} {value:g}: {meaning}, from 0 to 1")
    return float(value)


def generated_seeds(args: Args) -> tuple[int, int] | None:
    """``--generated-seeds LO HI`` as a range (both included), or ``None`` (no option: any seed).

    >>> generated_seeds(Args(generated_seeds=[1000, 1999])), generated_seeds(Args())
    ((1000, 1999), None)
    """
    if not args.generated_seeds:
        return None
    if len(args.generated_seeds) != 2 or not 0 <= args.generated_seeds[0] <= args.generated_seeds[1]:
        raise OptionError(f"--generated-seeds {' '.join(map(str, args.generated_seeds))}: give "
                          "two seeds LO HI with 0 <= LO <= HI")
    return int(args.generated_seeds[0]), int(args.generated_seeds[1])


def _ppo_phase(args: Args, graph: Any, spec: dict[str, Any], codec: Any, generated: float,
               seats: tuple[int, int], pool: _Pool, rng: np.random.Generator, log: _Log,
               history: list[dict[str, Any]], save: Callable[[], Any], t0: float) -> None:
    """PPO updates against ``args.league`` until ``args.ppo_decisions`` learner decisions."""

    league = league_members(args.league)
    value = ValueHead(args.hidden[-1])
    settings = PPOSettings(learning_rate=args.learning_rate, batch_size=args.batch_size,
                           epochs=args.n_epochs, gamma=args.gamma, ent_coef=args.ent_coef)
    optimizer = ppo_optimizer(graph, value, settings.learning_rate)
    frozen = {"self": (spec, graph.arrays())}
    done = update = 0
    while done < args.ppo_decisions:
        learner = (spec, graph.arrays())
        if update and update % args.freeze_every == 0:
            frozen = {"self": learner}
        tasks = [RolloutTask(args.ruleset, args.campaign, generated, args.max_turns, learner,
                             league, frozen, seats, n, int(rng.integers(1 << 31)),
                             prior=getattr(codec, "prior", None),
                             generated_seeds=generated_seeds(args))
                 for n in _split(args.rollout_decisions, args.workers)]
        results = pool.map(rollout, tasks)
        buf = SampleBuffer(codec.obs_size, codec.n_actions, capacity=1 << 62)
        for res in results:
            buf.extend(res.samples)
        rewards = np.concatenate([res.rewards for res in results])
        dones = np.concatenate([res.dones for res in results])
        # the critic learns alone first: its first estimates would only add noise
        settings.value_only = update < args.critic_warmup
        stats = ppo_update(graph, value, optimizer, buf, rewards, dones, settings, rng)
        done += len(buf)
        shares: dict[str, list[float]] = {}
        for res in results:
            for label, values in res.shares.items():
                shares.setdefault(label, []).append(values)
        entry = {"phase": "ppo", "update": update, "decisions": done,
                 "games": sum(res.games for res in results),
                 **{f"share_vs_{k}": float(np.mean(np.concatenate(v)))
                    for k, v in shares.items()},
                 **stats, "seconds": round(time.perf_counter() - t0, 1)}
        history.append(entry)
        log.scalars(done, {f"league/{k}": v for k, v in entry.items()
                           if isinstance(v, float) and k != "seconds"})
        log.line(f"ppo update {update}: {done} decisions, "
                 + ", ".join(f"{k} {v:.3f}" for k, v in entry.items() if k.startswith("share"))
                 + f", entropy {stats['entropy']:.3f} ({entry['seconds']:.0f} s)")
        if (update + 1) % args.freeze_every == 0:  # the policy as this update left it, kept
            entry["policy"] = f"rounds/ppo{update + 1}.json"
            save(path=Path(args.out_dir()) / entry["policy"])
        save()
        update += 1
