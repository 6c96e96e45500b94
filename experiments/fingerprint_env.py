"""Fingerprints of env games: did a change to the env or the rules change any trajectory?

    python experiments/fingerprint_env.py [--games 4] [--max-turns 12] [--rulesets wwn,houses]

Plays ``games`` games of each ruleset's AEC env with random masked actions (fixed seeds) and
prints, per ruleset, a SHA-256 of every observation vector, one of every mask, and one of the
rest (acting agent, the chosen engine action's text, rewards, terminations, truncations,
infos). A speed-up must leave all three unchanged; a new env version changes the observations and
perhaps the masks' indices, but a catalogue that keeps its blocks' order leaves the random
choices, and so the rest, unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json

import numpy as np

RULESETS = ("wwn", "engagements", "houses", "conflict")


def fingerprint(ruleset: str, games: int, max_turns: int) -> dict[str, str | int]:
    from factionsim.envs import make_env

    env = make_env(ruleset=ruleset, max_turns=max_turns)
    digests = {"observations": hashlib.sha256(), "masks": hashlib.sha256(),
               "rest": hashlib.sha256()}
    steps = 0
    for game in range(games):
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            digests["observations"].update(obs["observation"].tobytes())
            digests["masks"].update(obs["action_mask"].tobytes())
            if term or trunc:
                choice = None
                text = ""
            else:
                legal = np.flatnonzero(obs["action_mask"])
                choice = int(legal[rng.integers(len(legal))])
                text = str(env.legal_action(choice))
            digests["rest"].update(repr((agent, text, round(reward, 12), term, trunc,
                                         sorted(info.items()))).encode())
            env.step(choice)
            steps += 1
    return {"steps": steps, **{k: d.hexdigest()[:16] for k, d in digests.items()}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--max-turns", type=int, default=12)
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    args = parser.parse_args(argv)
    print(json.dumps({r: fingerprint(r, args.games, args.max_turns)
                      for r in args.rulesets.split(",")}, indent=1))


if __name__ == "__main__":
    main()
