"""Random play against the engine contract (:mod:`factionsim.core.game`), for any ruleset
descriptor: what ``tests/test_contract.py`` runs over every registered ruleset, and a crash hunt.

Each game starts from the ruleset's bundled campaign, its dice reseeded as game ``g`` of a master
seed (:func:`~factionsim.core.dice.reseed`), every faction played by uniformly random legal
actions, and the turn cap lowered to :data:`TURNS` so that a game ends. Every decision is checked
against the contract (:func:`checked_step`); :func:`play_reloading` also saves and reloads the
game at every decision, :func:`check_copy` and :func:`check_views` look at copies and views.

A long hunt (counts the games that raised, by exception and place)::

    python tests/contract_play.py --games 2000              # every registered ruleset
    python tests/contract_play.py --games 5000 --ruleset houses --seed 7
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from factionsim.core.campaign import dump_campaign_text, load_campaign_data
from factionsim.core.dice import reseed, seeded_dice
from factionsim.core.game import Action, Event, GameState, View
from factionsim.core.ruleset import RulesetInfo
from factionsim.rulesets import RULESETS, build_campaign, load_campaign

#: turns a random game lasts at most (a bundled campaign's own cap is kept when it is lower)
TURNS = 10
#: decisions one game may take before it counts as never ending
MAX_DECISIONS = 20_000


#: ruleset name -> the campaign its games start from, for a ruleset with no bundled campaign
#: (a test's toy); the others start from their bundled one
CAMPAIGNS: dict[str, Path] = {}


@cache
def _campaign_data(name: str, path: Path) -> dict[str, Any]:
    return load_campaign(path).to_dict()


def new_game(info: RulesetInfo, seed: int, game: int, turns: int = TURNS) -> GameState:
    """Game ``game`` of master ``seed``: the bundled campaign, reseeded, at most ``turns`` long."""
    path = CAMPAIGNS.get(info.name) or info.default_campaign_path()
    state = info.state_class.from_dict(_campaign_data(info.name, path))
    reseed(state, seed, game)
    cap = state.turn + turns
    state.max_turns = cap if state.max_turns is None else min(state.max_turns, cap)
    return state


def chooser(seed: int, game: int) -> np.random.Generator:
    """The random player's own dice (apart from the game's)."""
    return seeded_dice(seed, game, 0xC0DE)[1]


def checked_step(state: GameState, choose: np.random.Generator) -> tuple[Action, list[Event]] | None:
    """One decision by a uniformly random player, checked against the contract: the actor is a
    faction, the legal actions a non-empty list of :class:`Action` with a text form, ``apply``
    returns :class:`Event` objects. ``None`` when the game is over (then checked too)."""
    actor = state.current_actor()
    if actor is None:
        check_over(state)
        return None
    assert actor in state.factions, actor  # (a game over mid-turn may play its turn out)
    legal = state.legal_actions()
    assert isinstance(legal, list) and legal, f"{actor} must decide but has no legal action"
    for a in legal:
        assert isinstance(a, Action) and str(a), a
    assert len({str(a) for a in legal}) == len(legal), "two legal actions with the same text"
    action = legal[int(choose.integers(len(legal)))]
    events = state.apply(action)
    assert isinstance(events, list) and all(isinstance(e, Event) for e in events), events
    return action, events


def check_over(state: GameState) -> None:
    """A finished game: over, nobody to decide, a finite score for every faction."""
    assert state.is_over() and state.current_actor() is None
    scores = state.scores()
    assert list(scores) == list(state.factions), (scores, list(state.factions))
    for fid, score in scores.items():
        assert isinstance(score, int | float) and not isinstance(score, bool), (fid, score)
        assert math.isfinite(score), (fid, score)


def decisions(state: GameState, choose: np.random.Generator) -> Iterator[tuple[Action, list[Event]]]:
    """Play to the end by uniformly random legal decisions (each checked by
    :func:`checked_step`), yielding each decision's action and events (the automatic steps'
    before it included)."""
    for _ in range(MAX_DECISIONS):
        step = checked_step(state, choose)
        if step is None:
            return
        yield step
    raise AssertionError(f"no end after {MAX_DECISIONS} decisions (turn {state.turn})")


def play_game(info: RulesetInfo, seed: int, game: int, turns: int = TURNS) -> int:
    """A random game to its end; returns the number of decisions."""
    state = new_game(info, seed, game, turns)
    return sum(1 for _ in decisions(state, chooser(seed, game)))


def data_text(data: dict[str, Any]) -> str:
    """Campaign data as compact text, key order included (cheaper than YAML, as exact)."""
    return json.dumps(data, default=repr)


def reload(info: RulesetInfo, text: str, where: str) -> GameState:
    """A game loaded from campaign text as ``factionsim`` loads a file (validation included)."""
    data, lines = load_campaign_data(where, list(RULESETS), text)
    return build_campaign(data, lines, where)


def skip_to(info: RulesetInfo, seed: int, game: int, start: int, turns: int = TURNS
            ) -> tuple[GameState, np.random.Generator]:
    """Game ``game`` after ``start`` random decisions (fewer if it ends first), and its player."""
    state, choose = new_game(info, seed, game, turns), chooser(seed, game)
    for _ in range(start):
        if checked_step(state, choose) is None:
            break
    return state, choose


def play_reloading(info: RulesetInfo, seed: int, game: int, start: int = 0, count: int = MAX_DECISIONS,
                   turns: int = TURNS) -> int:
    """From decision ``start`` of a game, ``count`` decisions played twice: continuously, and by
    a game saved to YAML text and loaded back (validation included) before every decision. Both
    must give the same actions and events, and the same campaign data all along; a loaded game
    saves to the very data it was loaded from. Returns the decisions compared."""
    state, choose = skip_to(info, seed, game, start, turns)
    twin, choose_twin = state.copy(), copy.deepcopy(choose)
    for n in range(count):
        where = f"{info.name} game {game}, decision {start + n}"
        text = dump_campaign_text(twin)
        twin = reload(info, text, where)
        saved = data_text(twin.to_dict())
        assert saved == data_text(state.to_dict()), f"{where}: continuous play and save/load part"
        assert saved == data_text(load_campaign_data(where, (), text)[0]), (
            f"{where}: load -> save changes the file")
        step, step_twin = checked_step(state, choose), checked_step(twin, choose_twin)
        if step is None or step_twin is None:
            assert step is step_twin is None, f"{where}: one game ended, not the other"
            return n
        assert str(step[0]) == str(step_twin[0]), where
        assert [e.to_dict() for e in step[1]] == [e.to_dict() for e in step_twin[1]], where
    return count


def check_copy(state: GameState, choose: np.random.Generator, steps: int = 3) -> None:
    """``copy()`` has the same data, and playing the copy leaves the original untouched."""
    before = data_text(state.to_dict())
    twin = state.copy()
    assert twin is not state and twin.rng is not state.rng
    assert data_text(twin.to_dict()) == before
    for _ in range(steps):
        if checked_step(twin, choose) is None:
            break
    assert data_text(state.to_dict()) == before, "playing a copy changed the original"


def check_views(state: GameState, choose: np.random.Generator) -> int:
    """Every faction's view hides what its ruleset hides: for a lookalike state (what the faction
    may not see redrawn, :meth:`View.lookalike`), ``view.to_state`` gives the same state and the
    faction, when it is to decide, the same legal actions. A view changes nothing, and its
    ``to_state`` is a game that plays on. Returns how many lookalikes differed from the state
    (0 for a ruleset that hides nothing: then the check cannot bite)."""
    before = data_text(state.to_dict())
    actor = state.current_actor()
    varied = 0
    for fid in state.factions:
        view = state.view(fid)
        assert isinstance(view, View) and view.faction_id == fid
        assert view.faction is state.factions[fid] and view.turn == state.turn
        known = view.to_state(np.random.default_rng(0))
        other = view.lookalike(choose)
        assert isinstance(known, GameState) and isinstance(other, GameState)
        varied += data_text(other.to_dict()) != before
        seen_other = other.view(fid).to_state(np.random.default_rng(0))
        assert data_text(known.to_dict()) == data_text(seen_other.to_dict()), (
            f"{fid}'s view of turn {state.turn} shows what it may not see")
        if fid == actor:
            assert other.current_actor() == fid
            assert list(map(str, other.legal_actions())) == list(map(str, state.legal_actions())), (
                f"{fid}'s legal actions depend on what it may not see")
        for _ in range(2):
            if checked_step(known, choose) is None:
                break
    assert data_text(state.to_dict()) == before, "looking at views changed the game"
    return varied


def check_texts(info: RulesetInfo, state: GameState) -> None:
    """Every legal action's text is unique, and its ruleset's action table reads it back as
    the same action (where the ruleset declares one)."""
    texts = [str(a) for a in state.legal_actions()]
    assert len(set(texts)) == len(texts), f"two legal actions share a text: {texts}"
    if info.actions is not None:
        for action, text in zip(state.legal_actions(), texts, strict=True):
            assert info.actions.parse(text) == action, (text, action)


def play_inspecting(info: RulesetInfo, seed: int, game: int, start: int = 0,
                    count: int = MAX_DECISIONS, turns: int = TURNS) -> tuple[int, int]:
    """From decision ``start`` of a game, :func:`check_texts`, :func:`check_copy` and
    :func:`check_views` before each of ``count`` decisions. Returns the decisions inspected and
    the lookalikes that differed."""
    state, choose = skip_to(info, seed, game, start, turns)
    probe = seeded_dice(seed, game, 0x1EA)[1]
    varied = 0
    for n in range(count):
        if state.current_actor() is not None:
            check_texts(info, state)
            check_copy(state, probe)
            varied += check_views(state, probe)
        if checked_step(state, choose) is None:
            return n, varied
    return count, varied


def hunt(info: RulesetInfo, games: int, seed: int, turns: int = TURNS
         ) -> tuple[int, Counter[str], dict[str, int]]:
    """Play ``games`` random games; returns (decisions, problems by kind and place, first game of
    each kind)."""
    problems: Counter[str] = Counter()
    first: dict[str, int] = {}
    total = 0
    for game in range(games):
        try:
            total += play_game(info, seed, game, turns)
        except Exception as exc:  # noqa: BLE001 - a hunt counts every kind
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            kind = f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"
            problems[kind] += 1
            first.setdefault(kind, game)
    return total, problems, first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--ruleset", choices=list(RULESETS), action="append")
    args = parser.parse_args(argv)
    bad = 0
    for name in args.ruleset or list(RULESETS):
        start = time.perf_counter()
        total, problems, first = hunt(RULESETS[name], args.games, args.seed, args.turns)
        took = time.perf_counter() - start
        print(f"{name}: {args.games} games, {total} decisions, {sum(problems.values())} raised, "
              f"{took:.0f} s")
        for kind, count in problems.most_common():
            print(f"  {count:5d}  {kind}  (first: game {first[kind]} of seed {args.seed})")
        bad += sum(problems.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
