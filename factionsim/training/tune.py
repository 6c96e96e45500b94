"""``--method tune`` (WWN): the heuristic's weights tuned against the heuristic itself by the
cross-entropy method (Rubinstein 1999; Szita and Lorincz 2006, for Tetris controllers).

**What is learnt**: a :class:`~factionsim.agents.wwn_heuristic.tuning.Tuning`, 22 numbers that
shift how strongly the WWN heuristic weighs blows, defence, income, each Faction Action, passing
and each goal, on top of the faction's own temperament (all 0: the heuristic itself). The policy
decides as fast as the heuristic (no network at play time beyond reading the numbers).

**How**: a search distribution over the numbers, independent normals (mean 0, spread
``--tune-sigma``: ``attack_floor`` a fifth of it, being a chance). Each of ``--tune-generations``
generations:

1. ``--tune-population`` candidates are drawn (the first is the mean itself);
2. every candidate plays the same ``--tune-games`` games, in mirrored pairs: games ``2p`` and
   ``2p + 1`` of generation ``k`` are one campaign with the same dice, from ``(--seed, k, p)``:
   with probability ``--generated`` a campaign generated from a seed in ``--generated-seeds``
   (``factionsim new --seed S``'s generator, the shape of the run's campaign; with probability
   ``--generated-hostile`` played at war, every pair it does not list hostile), otherwise the
   run's campaign itself (``--campaign``, else the bundled one); the candidate plays every second
   faction (the first, third... in the even game, the others in the odd one: a campaign's
   strong seats count for both sides), the default heuristic the rest, for ``--max-turns``
   turns. Its fitness is the
   tournament's pairwise share: 1 where its best faction's score is above the heuristic's best,
   0.5 for equal scores, else 0 (common dice for all candidates: their differences are not the
   dice's). With ``--tune-seating alone`` the candidate plays **one** faction of each game (game
   ``g``: the campaign's faction ``g`` modulo their number, so a pair plays two seats and the
   pairs go round them all), the heuristic every other, and its fitness is that faction's share
   of the win (1, ``1/k`` when ``k`` factions share the best score, else 0): every seat counts,
   where with ``split`` a game is mostly decided by who holds the strongest faction. With
   ``--tune-fitness margin`` a game scores not who won but by how much: ``0.5 + margin / 20``,
   the margin (its best score less the best of the others', in score points) clipped to 10
   either way (:func:`margin_fitness`), so a game a faction loses by less counts too;
3. the ``--tune-elites`` fittest candidates' mean and spread move the distribution halfway
   towards theirs (smoothing keeps a generation's lucky draw from taking over), the spread never
   below a tenth of the first one.

``--tune-search es`` replaces steps 1 and 3 with an antithetic evolution strategy (Salimans et
al. 2017), steadier where a game's outcome is far noisier than the differences between
candidates: ``--tune-population`` / 2 directions ``e`` are drawn, and the mean plus and minus
``spread * e`` play the same games; the mean moves by ``--tune-step * spread`` times the
average of ``e`` weighted by each pair's difference of shares (divided by those differences'
root mean square), so what the dice do to both sides of a pair cancels. The spread stays
``--tune-sigma``'s; ``--tune-elites`` is not used.

The run writes ``OUT/policy.json`` + ``policy.npz`` (the distribution's final mean, a search
policy of kind ``tuned-heuristic``: its one-layer network turns a constant 1 into the 22
numbers, :mod:`factionsim.agents.tuned`), ``OUT/eval.json`` (every generation; then
``--final-eval-games`` fresh games of the final mean against the heuristic, on training seeds),
``OUT/tb/`` (TensorBoard: ``tune/share_*``) and the run record. The final games are always
seated ``split`` (the tournament's pairwise share: comparable between runs). A seeded run gives
the same file for any number of ``--workers``.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .args import Args, OptionError

#: fitness shares are written with this many digits
_DIGITS = 4
#: ``--tune-search``'s choices and the algorithm each names in the policy file
_ALGORITHMS = {"cem": "the cross-entropy method", "es": "an antithetic evolution strategy"}
SEARCHES = tuple(_ALGORITHMS)
#: ``--tune-seating``'s choices and the fitness each names in the policy file
_SEATINGS = {"split": "its pairwise share against the heuristic",
             "alone": "its faction's share of the win, seated alone at one faction a game"}
SEATINGS = tuple(_SEATINGS)
#: ``--tune-fitness``'s choices and what each names in the policy file
_FITNESSES = {"win": "", "margin": " (by the score margin: 0.5 + margin / 20, the margin "
                                   "clipped to 10 points either way)"}
FITNESSES = tuple(_FITNESSES)
#: ``--tune-fitness margin``: a margin of this many points or more counts as a sure win (or loss)
MARGIN_CAP = 10.0


def check_tune(args: Args) -> None:
    """``--method tune``'s options, or :class:`ValueError` naming the bad one.

    >>> check_tune(Args(method="tune", tune_elites=20, tune_population=16))
    Traceback (most recent call last):
    ...
    factionsim.training.args.OptionError: --tune-elites 20: from 1 to --tune-population (16)
    """
    from factionsim.agents.wwn_heuristic.tuning import TUNING_INPUTS

    from .league_run import generated_seeds, generated_share, share_option

    if args.ruleset != "wwn":
        raise OptionError(f"--method tune tunes the WWN heuristic; the {args.ruleset} ruleset "
                          "has none to tune")
    for name, lo in (("tune_generations", 1), ("tune_population", 2), ("tune_games", 2)):
        if getattr(args, name) < lo:
            raise OptionError(f"--{name.replace('_', '-')} {getattr(args, name)}: at least {lo}")
    if not 1 <= args.tune_elites <= args.tune_population:
        raise OptionError(f"--tune-elites {args.tune_elites}: from 1 to --tune-population "
                          f"({args.tune_population})")
    if not 0 < args.tune_sigma <= 5:
        raise OptionError(f"--tune-sigma {args.tune_sigma:g}: above 0, at most 5")
    if args.tune_search not in SEARCHES:
        raise OptionError(f"--tune-search {args.tune_search!r}; allowed: {', '.join(SEARCHES)}")
    if args.tune_search == "es" and args.tune_population % 2:
        raise OptionError(f"--tune-population {args.tune_population}: --tune-search es plays "
                          "candidates in pairs (plus and minus one direction); give an even number")
    if not 0 < args.tune_step <= 5:
        raise OptionError(f"--tune-step {args.tune_step:g}: above 0, at most 5")
    generated_share(args)
    share_option(args, "generated_hostile", "the share of generated campaigns played at war")
    if args.tune_seating not in SEATINGS:
        raise OptionError(f"--tune-seating {args.tune_seating!r}; allowed: {', '.join(SEATINGS)}")
    if args.tune_fitness not in FITNESSES:
        raise OptionError(f"--tune-fitness {args.tune_fitness!r}; allowed: {', '.join(FITNESSES)}")
    if args.tune_features not in TUNING_INPUTS:
        raise OptionError(f"--tune-features {args.tune_features!r}; allowed: "
                          f"{', '.join(TUNING_INPUTS)}")
    generated_seeds(args)


def first_spread(sigma: float, inputs: int = 1) -> np.ndarray:
    """The search distribution's first spread over a tuning's weights (one row of ``inputs``
    per name, flattened row by row): ``sigma`` for every number but ``attack_floor``'s (a chance
    to hit: a fifth of it)."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES

    return np.repeat([sigma / 5 if n == "attack_floor" else sigma for n in TUNING_NAMES], inputs)


def tuning_of(values: tuple[float, ...], features: str = "constant") -> Any:
    """The tuning a candidate's weights describe: 22 numbers (``features="constant"``), or 22 rows
    of one weight per feature of the reading ``features`` (``--tune-features faction`` or
    ``sheet``), flattened row by row."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES, ReadingTuning, Tuning

    if features == "constant":
        return Tuning.from_vector(values)
    return ReadingTuning.linear(np.reshape(values, (len(TUNING_NAMES), -1)), features)


@lru_cache(maxsize=4)
def _campaigns(campaign: str | None, seeds: tuple[int, int], generated: float,
               hostile: float = 0.0) -> Any:
    from .games import Campaigns

    return Campaigns("wwn", campaign, generated=generated, seeds=seeds, hostile=hostile)


def tune_game(seed: int, campaign: str | None, seeds: tuple[int, int], turns: int,
              task: tuple[int, int, tuple[float, ...]], generated: float = 1.0,
              features: str = "constant", hostile: float = 0.0, seating: str = "split",
              fitness: str = "win") -> float:
    """The candidate's fitness in game ``task = (generation, game, tuning values)`` (see the
    module docstring; ``generated``: ``--generated``; ``features``: ``--tune-features``;
    ``hostile``: ``--generated-hostile``; ``seating``: ``--tune-seating``; ``fitness``:
    ``--tune-fitness``): ``split``, its pairwise share, 1, 0.5 or 0; ``alone``, its one faction's
    share of the win; with ``fitness="margin"``, :func:`margin_fitness` of its best score over
    the best of the others (``split``: its factions' best over the heuristic's best)."""
    from factionsim.agents.wwn_heuristic import HeuristicAgent
    from factionsim.core.stats import win_shares
    from factionsim.runner import play

    generation, game, values = task
    pair = np.random.default_rng([seed, generation, game // 2])
    state = _campaigns(campaign, seeds, generated, hostile).draw(pair)
    tuned = tuning_of(values, features)
    factions = list(state.factions)
    if seating == "alone":
        mine = {factions[game % len(factions)]}
    else:
        mine = {f for i, f in enumerate(factions) if (i + game) % 2 == 0}
    agents = {f: HeuristicAgent(tuning=tuned if f in mine else None) for f in factions}
    play(state, turns, agents)
    scores = state.scores()
    ours = max(scores[f] for f in mine)
    theirs = max(scores[f] for f in factions if f not in mine)
    if fitness == "margin":
        return margin_fitness(ours - theirs)
    if seating == "alone":
        (seat,) = mine
        return win_shares(scores)[seat]
    return 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0


def margin_fitness(margin: float) -> float:
    """``--tune-fitness margin``: a score margin as a number from 0 to 1, 0.5 for level scores,
    the margin clipped to :data:`MARGIN_CAP` points either way (a WWN score is 1 + XP earned
    from goals + the HP fraction left: a point is about one goal's XP).

    >>> margin_fitness(0.0), margin_fitness(2.5), margin_fitness(-30.0)
    (0.5, 0.625, 0.0)
    """
    return 0.5 + max(-MARGIN_CAP, min(MARGIN_CAP, margin)) / (2 * MARGIN_CAP)


def tuned_heuristic_fields(features: str = "constant") -> dict[str, Any]:
    """The ``network`` and ``search`` fields of a tuned-heuristic policy file: one dense layer
    (weight ``tuning``, one row per name) turning a constant 1 (``features="faction"``,
    ``"sheet"`` or ``"relations"``: that reading's features,
    :data:`~factionsim.agents.wwn_heuristic.tuning.READINGS`) into this version's
    :data:`~factionsim.agents.wwn_heuristic.tuning.TUNING_NAMES`."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_NAMES

    return {"network": {"layers": [{"type": "dense", "weight": "tuning", "bias": None,
                                    "activation": None}]},
            "search": {"kind": "tuned-heuristic", "features": features,
                       "parameters": list(TUNING_NAMES)}}


def named_weights(weights: np.ndarray, features: str = "constant") -> dict[str, Any]:
    """A tuning's weights by name for the record: ``{name: value}`` for a constant tuning,
    ``{name: {feature: weight}}`` for one that reads the faction's place (the reading
    ``features``)."""
    from factionsim.agents.wwn_heuristic.tuning import READINGS, TUNING_NAMES

    if features == "constant":
        return {n: round(float(w[0]), 6) for n, w in zip(TUNING_NAMES, weights, strict=True)}
    return {n: {f: round(float(x), 6) for f, x in zip(READINGS[features][0], w, strict=True)}
            for n, w in zip(TUNING_NAMES, weights, strict=True)}


class _Games:
    """Plays lists of tasks with ``workers`` spawned processes kept for the whole run."""

    def __init__(self, args: Args, seeds: tuple[int, int]):
        from functools import partial

        self.play = partial(tune_game, args.seed, args.campaign, seeds, args.max_turns,
                            generated=args.generated, features=args.tune_features,
                            hostile=args.generated_hostile, seating=args.tune_seating,
                            fitness=args.tune_fitness)
        self.play_split = partial(self.play, seating="split", fitness="win")  # (the final games)
        self.pool: Any = None
        if args.workers > 1:
            import multiprocessing as mp

            self.pool = mp.get_context("spawn").Pool(args.workers)

    def shares(self, tasks: list[tuple[int, int, tuple[float, ...]]],
               split: bool = False) -> np.ndarray:
        """Each task's fitness (``split``: the pairwise share, seated ``split``, whatever
        ``--tune-seating`` and ``--tune-fitness`` say)."""
        play = self.play_split if split else self.play
        if self.pool is None:
            return np.asarray([play(t) for t in tasks])
        return np.asarray(self.pool.map(play, tasks, chunksize=4))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool.join()


def cem_step(mean: np.ndarray, spread: np.ndarray, candidates: np.ndarray, fitness: np.ndarray,
             elites: int, floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The next ``(mean, spread)``: halfway from the current ones towards the mean and spread of
    the ``elites`` fittest ``candidates`` (ties: the earlier candidate first), the spread at
    least ``floor``.

    >>> m, s = cem_step(np.zeros(1), np.ones(1), np.array([[1.0], [3.0], [-2.0]]),
    ...                 np.array([0.6, 0.7, 0.1]), 2, np.full(1, 0.1))
    >>> float(m[0]), float(s[0])
    (1.0, 1.0)
    """
    best = np.argsort(-fitness, kind="stable")[:elites]
    chosen = candidates[best]
    new_mean = 0.5 * mean + 0.5 * chosen.mean(axis=0)
    new_spread = np.maximum(0.5 * spread + 0.5 * chosen.std(axis=0), floor)
    return new_mean, new_spread


def es_step(mean: np.ndarray, spread: np.ndarray, directions: np.ndarray,
            plus: np.ndarray, minus: np.ndarray, step: float) -> np.ndarray:
    """The next mean of the antithetic evolution strategy: ``mean + step * spread * g``, ``g``
    the average of the ``directions`` weighted by each pair's difference of fitness
    (``plus - minus``) divided by those differences' root mean square (no move when every pair
    tied).

    >>> m = es_step(np.zeros(2), np.ones(2), np.array([[1.0, 0.0], [0.0, 1.0]]),
    ...             np.array([0.6, 0.5]), np.array([0.4, 0.5]), 0.5)
    >>> [round(float(x), 4) for x in m]
    [0.3536, 0.0]
    """
    differences = plus - minus
    scale = float(np.sqrt(np.mean(differences ** 2)))
    if scale == 0:
        return mean.copy()
    gradient = (differences / scale) @ directions / len(directions)
    return mean + step * spread * gradient


class _Search:
    """One generation of ``--tune-search``: the candidates to play, then the next distribution
    from their fitness."""

    def __init__(self, args: Args, rng: np.random.Generator, mean: np.ndarray,
                 spread: np.ndarray):
        self.args, self.rng, self.mean, self.spread = args, rng, mean, spread
        self.floor = spread / 10
        self.directions = np.zeros((0, len(mean)))

    def candidates(self) -> np.ndarray:
        if self.args.tune_search == "es":
            self.directions = self.rng.standard_normal((self.args.tune_population // 2,
                                                        len(self.mean)))
            steps = self.directions * self.spread
            return np.vstack([self.mean + steps, self.mean - steps])
        noise = self.rng.standard_normal((self.args.tune_population - 1, len(self.mean)))
        return np.vstack([self.mean, self.mean + noise * self.spread])

    def update(self, candidates: np.ndarray, fitness: np.ndarray) -> dict[str, float]:
        """Moves the distribution; the generation's figures for the log (``es`` does not play
        the mean itself: no ``share_of_mean``)."""
        figures = {"share_best": float(fitness.max()), "share_population": float(fitness.mean())}
        if self.args.tune_search == "es":
            plus, minus = np.split(fitness, 2)
            self.mean = es_step(self.mean, self.spread, self.directions, plus, minus,
                                self.args.tune_step)
        else:
            figures = {"share_of_mean": float(fitness[0]), **figures}
            self.mean, self.spread = cem_step(self.mean, self.spread, candidates, fitness,
                                              self.args.tune_elites, self.floor)
        return {**figures, "spread": float(self.spread.mean())}


def train_tune(args: Args) -> Path:
    """Tune as the module docstring says; returns the path of ``OUT/policy.json``."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_INPUTS, TUNING_NAMES
    from factionsim.core.files import write_atomic
    from factionsim.core.stats import wilson
    from factionsim.models import write_policy

    from .league_run import _Log
    from .value import search_policy_header, start_run

    check_tune(args)
    out, record, started, seeds = start_run(args)
    log = _Log(out, args.progress)
    if args.tune_seating == "alone" and args.tune_fitness == "win":
        log.line("seated alone: a share below is the candidate's faction's share of the win (the "
                 "heuristic's own averages 1 / the campaign's factions); the final games are "
                 "seated split")
    if args.tune_fitness == "margin":
        log.line("fitness by the score margin: a share below is 0.5 + the candidate's margin / 20 "
                 f"({'its faction' if args.tune_seating == 'alone' else 'its best faction'}'s "
                 "score less the best of the others'; level scores 0.5); the final games are "
                 "seated split and scored by the win")
    inputs = TUNING_INPUTS[args.tune_features]
    search = _Search(args, np.random.default_rng([args.seed, 0x7E5]),
                     np.zeros(len(TUNING_NAMES) * inputs), first_spread(args.tune_sigma, inputs))
    history: list[dict[str, Any]] = []
    games = _Games(args, seeds)
    try:
        for k in range(args.tune_generations):
            candidates = search.candidates()
            tasks = [(k, g, tuple(c)) for c in candidates for g in range(args.tune_games)]
            fitness = games.shares(tasks).reshape(len(candidates), args.tune_games).mean(axis=1)
            figures = search.update(candidates, fitness)
            row = {"generation": k + 1, "games": len(tasks),
                   **{key: round(v, _DIGITS) for key, v in figures.items()},
                   "seconds": round(time.time() - started, 1)}
            history.append(row)
            log.scalars(k + 1, {f"tune/{key}": v for key, v in row.items()
                                if key.startswith(("share", "spread"))})
            mean_share = (f"the mean's share {row['share_of_mean']:.1%}, "
                          if "share_of_mean" in row else "")
            log.line(f"generation {k + 1}/{args.tune_generations}: {mean_share}best "
                     f"{row['share_best']:.1%}, population {row['share_population']:.1%} "
                     f"({len(tasks)} games, {row['seconds']:.0f} s)")
        mean = search.mean
        final: dict[str, Any] = {}
        if args.final_eval_games:
            shares = games.shares([(args.tune_generations, g, tuple(mean))
                                   for g in range(args.final_eval_games)], split=True)
            lo, hi = wilson(float(shares.sum()), len(shares))
            final = {"opponent": "heuristic", "games": len(shares),
                     "share": round(float(shares.mean()), _DIGITS),
                     "ci95": [round(lo, _DIGITS), round(hi, _DIGITS)]}
            log.line(f"final: the tuned heuristic's pairwise share against the heuristic "
                     f"{final['share']:.1%} ({lo:.1%}-{hi:.1%}) of {len(shares)} games")
    finally:
        games.close()
        log.close()
    weights = mean.reshape(len(TUNING_NAMES), inputs)
    tuning = named_weights(weights, args.tune_features)
    reads = ("a constant 1" if inputs == 1 else f"the faction's place (the reading "
             f"{args.tune_features}: factionsim.agents.wwn_heuristic.tuning.READINGS)")
    description = {
        **search_policy_header(seeds, inputs, len(TUNING_NAMES), base=None if args.generated >= 1
                               else f"{1 - args.generated:.0%} of games on "
                                    f"{args.campaign or 'the bundled campaign'}",
                               hostile=args.generated_hostile),
        **tuned_heuristic_fields(args.tune_features),
        "training": {"algorithm": f"{_ALGORITHMS[args.tune_search]} over the heuristic's "
                                  f"tuning, fitness {_SEATINGS[args.tune_seating]}"
                                  f"{_FITNESSES[args.tune_fitness]}",
                     "command": record["command"], "versions": record["versions"],
                     "git": record.get("git"), "tuning": tuning, "final": final},
        "notes": "plays the WWN heuristic with these shifts of its weights "
                 f"(factionsim.agents.wwn_heuristic.tuning); the network turns {reads} "
                 "into them",
    }
    path = out / "policy.json"
    write_policy(path, description, {"tuning": weights}, dtype="float64")
    summary = {"method": "tune", "search": args.tune_search, "seconds": round(time.time() - started, 1),
               "generations": history, "final": final, "tuning": tuning}
    write_atomic(out / "eval.json", json.dumps(summary, indent=2) + "\n")
    print(f"wrote {path} (play it with agent: policy:{path})")
    return path
