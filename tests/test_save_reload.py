"""Issue 17: "saving and reloading an engagements campaign reorders keys (not byte-identical to
continuous play)". The project's standard: "same campaign + seed -> byte-identical outputs, also
after save/load".

For every bundled campaign, one game is played on continuously while a second copy is saved and
reloaded every few decisions (mid-turn too: the files then carry ``in_progress``) and at every
turn boundary; at each reload both must save to the same text, and saving the reloaded file
again must give it back unchanged. (Seen before the fix: engagements wrote its pools in the
order they were opened, which an emptied pool loses on reload; conflict kept the last check's
context across rounds, which a saved file does not.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from factionsim.configs import default_campaign_path
from factionsim.core.campaign import dump_campaign_text
from factionsim.rulesets import load_campaign
from factionsim.runner import agent_rng, agents_from_campaign

#: decisions played per game (the failures seen came after ~18 to ~50 decisions)
DECISIONS = 60
#: the copy is saved and reloaded every EVERY decisions, and at every new turn
EVERY = 4


def step(state, agents) -> bool:
    actor = state.current_actor()
    if actor is None or state.is_over():
        return False
    state.apply(agents[actor].act(state.view(actor), state.legal_actions(), agent_rng(state)))
    return True


@pytest.mark.parametrize("ruleset,seed", [("wwn", 1), ("engagements", 1), ("houses", 1),
                                          ("conflict", 1)])
def test_continuous_play_equals_save_and_reload(ruleset: str, seed: int, tmp_path: Path) -> None:
    source = default_campaign_path(ruleset)
    continuous = load_campaign(source)
    continuous.seed, continuous.rng = seed, np.random.default_rng(seed)
    agents = agents_from_campaign(continuous, source=source)
    file = tmp_path / "c.yaml"
    file.write_text(dump_campaign_text(continuous), encoding="utf-8")
    copy = load_campaign(file)
    reloads, turn = 0, continuous.turn
    for decision in range(1, DECISIONS + 1):
        if not step(continuous, agents):
            break
        assert step(copy, agents)
        if decision % EVERY and continuous.turn == turn:
            continue
        turn = continuous.turn
        saved = dump_campaign_text(copy)
        assert dump_campaign_text(continuous) == saved, (ruleset, decision)
        file.write_text(saved, encoding="utf-8")
        copy = load_campaign(file)
        assert dump_campaign_text(copy) == saved, (ruleset, decision)  # save -> load -> save
        reloads += 1
    assert reloads >= DECISIONS // EVERY // 2
