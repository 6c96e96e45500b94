"""The engine contract (:mod:`factionsim.core.game`), checked on every registered ruleset by
random play (``tests/contract_play.py``): a ruleset added to the registry gets every check here
with no change to this file.

- random games end without an exception, every decision keeping the contract (an actor among
  the factions, a non-empty list of :class:`Action` with a text form, ``apply`` -> events), with
  a finite score for every faction at the end;
- a game saved to YAML text and loaded back (validation included) before *every* decision plays
  on exactly as the continuous game: the same events, the same saved text;
- ``copy()`` is independent of the original; legal actions have distinct texts, which the
  ruleset's action table (``RulesetInfo.actions``) reads back as the same actions;
- no view shows what its ruleset hides: ``view(f).to_state()`` and ``f``'s legal actions are the
  same for the true state and a lookalike whose hidden parts are redrawn (``View.lookalike``:
  WWN rivals' Stealthed assets, engagements rivals' faction dice and pools, conflict enemy plans
  whose category has not begun; houses hides nothing);
- the environment passes PettingZoo's ``api_test`` and ``seed_test`` (skipped without the rl
  extra).

The sizes here run in seconds per ruleset; ``FACTIONSIM_CONTRACT_GAMES=N`` plays N games in each
random-play test instead (and checks longer stretches of each), and
``python tests/contract_play.py --games 2000`` is the long crash hunt.
"""

from __future__ import annotations

import os
import warnings

import pytest
from contract_play import (
    TURNS,
    chooser,
    new_game,
    play_game,
    play_inspecting,
    play_reloading,
)

from factionsim.core.game import GameState, View
from factionsim.rulesets import RULESETS

#: games per ruleset of the plain random-play test (the others play fewer, heavier games)
GAMES = int(os.environ.get("FACTIONSIM_CONTRACT_GAMES", "0")) or None
SEED = 20261201

ruleset = pytest.mark.parametrize("name", list(RULESETS))


def _games(default: int) -> range:
    return range(GAMES or default)


def _games_from(game: int) -> range:
    """Game ``game`` alone, or with FACTIONSIM_CONTRACT_GAMES that many games from it."""
    return range(game, game + (GAMES or 1))


@ruleset
def test_the_state_and_its_views_are_the_declared_classes(name: str) -> None:
    info = RULESETS[name]
    state = new_game(info, SEED, 0)
    assert issubclass(info.state_class, GameState) and isinstance(state, GameState)
    assert state.ruleset == name
    assert not info.state_class.__abstractmethods__  # every method of the contract is there
    for fid in state.factions:
        assert isinstance(state.view(fid), View)


@ruleset
def test_random_games_end_cleanly_with_scores(name: str) -> None:
    decided = [play_game(RULESETS[name], SEED, g) for g in _games(12)]
    assert sum(decided) > 0


#: (game, first decision) of the stretches of play checked decision by decision: the start of
#: the campaign and three points further in (each game is a fresh random game). A short WWN game
#: (10 turns, 53-81 decisions of random play on the bundled campaign) has ended before decision
#: 90; (3, 40) is where its random play has Stealthed assets, so the view check has something to
#: hide there (windows without any, and a lookalike check that cannot bite, say nothing)
WINDOWS = ((0, 0), (1, 35), (2, 90), (3, 40))


@ruleset
def test_save_and_load_at_every_decision_continues_identically(name: str) -> None:
    count = 6 if GAMES is None else 60  # decisions per stretch
    compared = [play_reloading(RULESETS[name], SEED, game, start, count)
                for game, start in WINDOWS for game in _games_from(game)]
    assert sum(compared) > 0


@ruleset
def test_copies_are_independent_and_views_hide_what_the_rules_hide(name: str) -> None:
    count = 25 if GAMES is None else 250
    info = RULESETS[name]
    inspected = [play_inspecting(info, SEED, game, start, count)
                 for game, start in WINDOWS for game in _games_from(game)]
    assert sum(n for n, _ in inspected) > 0
    if _hides_something(info):
        assert sum(v for _, v in inspected) > 0, "no lookalike differed: the check did not bite"


def _hides_something(info) -> bool:
    """Whether the ruleset's view declares hidden information (overrides ``lookalike``)."""
    state = new_game(info, SEED, 0)
    return type(state.view(next(iter(state.factions)))).lookalike is not View.lookalike


@ruleset
def test_a_finished_game_stays_finished(name: str) -> None:
    """Once over, a game offers nobody a decision, and saving it does not revive it."""
    state = new_game(RULESETS[name], SEED, 3, turns=2)
    choose = chooser(SEED, 3)
    while state.current_actor() is not None:
        legal = state.legal_actions()
        state.apply(legal[int(choose.integers(len(legal)))])
    again = type(state).from_dict(state.to_dict())
    assert state.is_over() and again.is_over() and again.current_actor() is None
    assert again.scores() == state.scores()
    assert state.turn <= TURNS


def _env(name: str, turns: int):
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    if RULESETS[name].codec is None:
        pytest.skip(f"{name} has no environment")
    from factionsim.envs import make_env

    return make_env(ruleset=name, max_turns=turns)


@ruleset
def test_the_environment_passes_pettingzoo_api_test(name: str) -> None:
    env = _env(name, 4)
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=300)


@ruleset
def test_the_environment_passes_pettingzoo_seed_test(name: str) -> None:
    _env(name, 3)
    from pettingzoo.test import seed_test

    from factionsim.envs import make_env

    seed_test(lambda: make_env(ruleset=name, max_turns=3), num_cycles=200)
