"""The options of a training run: one dataclass, one ``--option`` per field (CleanRL style).

Importing this module imports neither torch nor stable-baselines3 (``factionsim --help`` and
``factionsim train --help`` stay fast).

>>> import argparse
>>> p = argparse.ArgumentParser(); add_arguments(p)
>>> a = args_from_namespace(p.parse_args(["--timesteps", "1000", "--opponents", "random",
...                                       "heuristic", "--progress", "false"]))
>>> a.timesteps, a.opponents, a.progress, a.out_dir()
(1000, ['random', 'heuristic'], False, 'runs/wwn_ppo')
>>> command_line(Args(timesteps=1000))[:6]
['factionsim', 'train', '--ruleset', 'wwn', '--timesteps', '1000']
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from factionsim.core.game import FactionsimError


class OptionError(FactionsimError, ValueError):
    """A training option outside its allowed values: ``factionsim train`` prints the message
    (it names the option and what is allowed) as one line and exits with status 2."""


#: fields that default to "none" (their option takes a text value)
_OPTIONAL_TEXT = ("campaign", "out", "eval_only", "convert", "advantage_data", "value_data",
                  "leaf_data")
#: list fields that hold integers although empty by default
_INT_LISTS = ("generated_seeds", "leaf_turns")


@dataclass
class Args:
    """A training run (or, with ``eval_only`` / ``convert``, an evaluation or a conversion)."""

    ruleset: str = "wwn"  # which rules the env plays (its bundled campaign unless --campaign)
    campaign: str | None = None  # a campaign file (default: the ruleset's bundled one)
    timesteps: int = 400_000  # learner decisions
    opponents: list[str] = field(default_factory=lambda: ["random"])  # one drawn per seat
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    seed: int = 0
    n_envs: int = 8
    vec: str = "dummy"  # "workers": `workers` processes step the envs; "subproc": one per env
    out: str | None = None  # run folder (default runs/<ruleset>_ppo)
    max_turns: int = 30
    learning_rate: float = 3e-4
    n_steps: int = 256  # per env between updates (8 x 256 = 2048 a rollout)
    batch_size: int = 512
    n_epochs: int = 4
    gamma: float = 0.995
    ent_coef: float = 0.01
    trunk: int = 128  # units of the first layer, shared by policy and value (0: not shared)
    net_arch: list[int] = field(default_factory=lambda: [128])  # per head, after the trunk
    eval_every: int = 50_000  # 0: no evaluation during training
    eval_games: int = 40  # per opponent at each evaluation
    final_eval_games: int = 100  # per opponent at the end (eval.json "final")
    torch_threads: int = 2
    eval_deterministic: bool = False  # sample from the policy (argmax play is much weaker)
    eval_only: str | None = None  # a policy (.json; a .zip with --trust-model), "trained" or
    # "random": only evaluate it, eval_games games against each of eval_opponents
    convert: str | None = None  # a stable-baselines3 zip (needs --trust-model): write it as
    # OUT/policy.json + policy.npz for the ruleset/campaign, then stop
    weights_dtype: str = "float32"  # how policy.npz stores the weights (float16: half the size)
    progress: bool = True  # progress bars (training steps with win rates, evaluation games)
    method: str = "ppo"  # "ppo": MaskablePPO (sb3-contrib) on the flat observation; "league":
    # imitation of --expert (behaviour cloning, DAgger) then PPO against --league
    # (factionsim.training.league_run); "advantage": a residual network regressing the planner's
    # rollout values as advantages over the heuristic (factionsim.training.advantage; wwn);
    # "value": a learned evaluator of afterstates, played by one-ply search (.value; wwn);
    # "leaf": the planner's search with a learned evaluator of its rollouts' ends (.leaf; wwn)
    # "tune": the heuristic's weights tuned by the cross-entropy method (.tune; wwn)
    # --method league only (see factionsim.training.league_run):
    arch: str = "set"  # "set": per-entity layers pooled over the asset rows; "flat": dense
    hidden: list[int] = field(default_factory=lambda: [256, 256])  # the context's layers
    entity: int = 64  # set: width of the per-asset encoder
    head: int = 128  # set: width of the per-asset action head
    prior: str = "none"  # "heuristic": a residual policy, logits = the heuristic's choice (a
    # one-hot times --prior-weight) + the network's correction (factionsim.models.prior)
    prior_weight: float = 5.0
    expert: str = "heuristic"  # the agent imitated (options: planner@budget=4)
    expert_labels: str = "all"  # "searched": label only the decisions the expert searches (the
    # planner's faction action and goal; the policy plays the others, unlabelled, so nothing
    # holds its choices there: see .imitation and docs/training.md)
    imitation_opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    learner_seats: list[int] = field(default_factory=lambda: [1, 2])  # seats held: min max
    bc_games: int = 400  # behaviour cloning: games the expert plays the learner's seats
    dagger_rounds: int = 3
    dagger_games: int = 200  # per DAgger round
    dagger_beta: float = 0.5  # chance the expert's action is played (halved each round)
    fit_steps: int = 600  # minibatches fitted after each imitation round
    imitation_lr: float = 1e-3
    buffer: int = 400_000  # labelled decisions kept (the oldest go first)
    generated: float = 0.5  # wwn: share of games on a freshly generated campaign of that shape
    generated_seeds: list[int] = field(default_factory=list)  # LO HI: generated campaigns'
    # seeds drawn from LO to HI (those of `factionsim new --seed S`); none: any seed
    ppo_decisions: int = 0  # learner decisions of PPO against the league (0: no PPO)
    league: list[str] = field(default_factory=lambda: ["heuristic", "self"])  # NAME or NAME*W
    rollout_decisions: int = 8192  # learner decisions per PPO update
    freeze_every: int = 5  # PPO updates between refreshes of the frozen "self"
    critic_warmup: int = 2  # first PPO updates that train the value head only
    workers: int = 2  # processes playing the games of each round (league; --vec workers: envs)
    # --method advantage only (see factionsim.training.advantage): --bc-games heuristic games
    # (--learner-seats of them valued), a fit of --fit-steps minibatches; --prior-weight is the
    # margin (in logits: a margin of W / scale in rollout value)
    expert_rollouts: int = 2  # rollouts per planner candidate (the same dice for each)
    advantage_scale: float = 10.0  # logits per unit of advantage (XP of rollout value)
    advantage_holdout: float = 0.1  # share of the games' decisions held out to judge margins
    advantage_data: str | None = None  # an advantage_data.npz of an earlier run: fit on its
    # valued decisions instead of playing games (to try other fits of the same data)
    # --method value only (see factionsim.training.value): --bc-games heuristic games valued
    # with --expert-rollouts rollouts per candidate, a fit of --fit-steps minibatches
    search_samples: int = 4  # afterstates sampled per candidate when the policy plays
    search_margin: float = 0.1  # value by which a candidate must beat the heuristic's choice
    value_data: str | None = None  # a value_data.npz of an earlier run: fit it, play no games
    value_horizon: int = 1  # turns the data rollouts play after the current one (the planner's horizon)
    # --method leaf only (see factionsim.training.leaf): --bc-games heuristic self-play games,
    # --value-horizon the search's horizon, --search-margin its margin in XP of rollout value
    leaf_turns: list[int] = field(default_factory=lambda: [20, 30])  # LO HI: a data game's turns
    search_budget: int = 4  # rollouts per searched decision of the policy (the planner's budget)
    leaf_data: str | None = None  # a leaf_data.npz of an earlier run: fit it, play no games
    leaf_model: str = "anchored"  # "anchored": rollout_value + learned standing terms; "network"
    calibration_games: int = 3  # "network": heuristic games whose searches set the margin (0: none)
    # --method tune only (see factionsim.training.tune): the cross-entropy method over the WWN
    # heuristic's tuning, on campaigns of --generated-seeds, games of --max-turns turns
    tune_generations: int = 20  # generations of candidates
    tune_population: int = 16  # candidates per generation (the first: the current mean)
    tune_elites: int = 4  # the fittest candidates the next distribution follows
    tune_games: int = 64  # games each candidate plays per generation (the same for all)
    tune_sigma: float = 0.5  # the first spread of each number (attack_floor: a fifth of it)
    generated_hostile: float = 0.0  # share of generated campaigns played with every pair they
    # do not list at war (relations_default: hostile, as hand-made campaigns often have it)
    tune_search: str = "cem"  # "cem": the cross-entropy method; "es": antithetic evolution strategy
    tune_step: float = 0.3  # "es" only: the step, in spreads per unit of normalised gradient
    tune_features: str = "constant"  # "faction", "sheet", "relations": what it reads (tuning.READINGS)
    tune_seating: str = "split"  # "split": every second faction; "alone": one faction a game
    tune_fitness: str = "win"  # "win": share of the win; "margin": the score margin (clipped)

    def out_dir(self) -> str:
        return self.out or f"runs/{self.ruleset}_{self.method}"


def _default(f: dataclasses.Field) -> Any:
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _bool(text: str) -> bool:
    if text.lower() in ("1", "true", "yes"):
        return True
    if text.lower() in ("0", "false", "no"):
        return False
    raise argparse.ArgumentTypeError(f"{text!r}: use true or false")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--option`` per field of :class:`Args` (lists take several values)."""
    for f in dataclasses.fields(Args):
        default = _default(f)
        flag = _flag(f.name)
        if isinstance(default, list):
            kind = (int if f.name in _INT_LISTS or (default and isinstance(default[0], int))
                    else str)
            parser.add_argument(flag, dest=f.name, nargs="*" if not default else "+", type=kind,
                                default=default)
        elif f.name in _OPTIONAL_TEXT:
            parser.add_argument(flag, dest=f.name, default=None)
        elif isinstance(default, bool):
            parser.add_argument(flag, dest=f.name, default=default, type=_bool,
                                help=f"true/false, default {default}")
        else:
            parser.add_argument(flag, dest=f.name, type=type(default), default=default,
                                help=f"default {default}")


def args_from_namespace(ns: argparse.Namespace) -> Args:
    return Args(**{f.name: getattr(ns, f.name) for f in dataclasses.fields(Args)})


def command_line(args: Args) -> list[str]:
    """``factionsim train`` with every option spelled out: runs ``args`` again exactly."""
    out = ["factionsim", "train"]
    for f in dataclasses.fields(Args):
        value = getattr(args, f.name)
        if value is None:
            continue
        if isinstance(value, list):
            out += [_flag(f.name), *(str(v) for v in value)]
        else:
            out += [_flag(f.name), str(value).lower() if isinstance(value, bool) else str(value)]
    return out
