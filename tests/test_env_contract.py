"""PettingZoo's own API and seeding tests on the environment of every ruleset (needs the rl extra)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from factionsim.envs import make_env  # noqa: E402

#: ruleset -> (api_test turn cap, cycles, seed_test turn cap, cycles)
RULESETS = {
    "wwn": (8, 400, 6, 300),
    "engagements": (8, 400, 6, 300),
    "houses": (4, 300, 3, 200),
    "conflict": (4, 300, 3, 200),
}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_api_test(ruleset: str) -> None:
    from pettingzoo.test import api_test

    turns, cycles, _, _ = RULESETS[ruleset]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make_env(ruleset=ruleset, max_turns=turns), num_cycles=cycles)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_seed_test(ruleset: str) -> None:
    from pettingzoo.test import seed_test

    _, _, turns, cycles = RULESETS[ruleset]
    seed_test(lambda: make_env(ruleset=ruleset, max_turns=turns), num_cycles=cycles)
