"""The engine never writes a campaign its own validator refuses (issue 17, item 4).

Random games of every ruleset (every bundled campaign, a few seeds, a few turns; each decision
drawn at random from the legal actions, so rarely taken paths come up too) are saved at every
turn's end and every few decisions in the middle of a turn; each saved text must load back
through the validator (``load_campaign`` of the text: the YAML limits, the field checks, the check
a turn saved in progress can go on) into a state that saves to the very same text.
"""

from __future__ import annotations

import numpy as np
import pytest

from factionsim.configs import default_campaign_path
from factionsim.core.campaign import dump_campaign_text
from factionsim.rulesets import RULESETS, load_campaign

TURNS = 3
MID_TURN_EVERY = 7  # decisions between two mid-turn saves
MID_TURN_SAVES = 4  # at most, per game (a houses season has a few hundred decisions)


def _check_save(state, label: str) -> None:
    text = dump_campaign_text(state)
    reloaded = load_campaign(label, text)
    assert dump_campaign_text(reloaded) == text, f"{label}: save -> load -> save changed the text"


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_save_of_a_random_game_validates(ruleset, seed):
    state = load_campaign(default_campaign_path(ruleset))
    state.rng = np.random.default_rng(seed)
    choose = np.random.default_rng(1000 + seed)
    decisions, saves, mid = 0, 0, 0
    start = state.turn
    while state.turn < start + TURNS:
        actor = state.current_actor()
        if actor is None:
            break
        legal = state.legal_actions()
        turn = state.turn
        state.apply(legal[int(choose.integers(len(legal)))])
        decisions += 1
        mid_turn = state.turn == turn and decisions % MID_TURN_EVERY == 0 and mid < MID_TURN_SAVES
        if state.turn != turn or mid_turn:
            _check_save(state, f"{ruleset} seed {seed} turn {state.turn} decision {decisions}")
            saves += 1
            mid += mid_turn
    assert saves >= TURNS, f"{ruleset}: only {saves} saves checked in {decisions} decisions"
