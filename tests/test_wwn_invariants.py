"""Random play of the bundled default campaign: the state stays sound, turn after turn.

Several seeds, 1,000 turns each (or until one faction is left), uniform random choices.
"""

from __future__ import annotations

import numpy as np
import pytest

import factionsim
from factionsim.agents import make_agent
from factionsim.agents.simple import KeeperAgent
from factionsim.configs import default_campaign_path

TURNS = 1000


def check_invariants(s) -> None:
    for f in s.factions.values():
        assert 0 <= f.hp <= f.max_hp, (f.id, f.hp, f.max_hp)
        assert f.treasure >= 0, (f.id, f.treasure)
        assert 1 <= f.force <= 8 and 1 <= f.cunning <= 8 and 1 <= f.wealth <= 8
        if not f.alive:
            assert f.hp == 0 and not s.assets_of(f.id), f.id
        elif not f.headquarters_lost:  # (a destroyed headquarters is not rebuilt)
            hq = s.headquarters_base(f.id)
            assert hq is not None and hq.max_hp == f.max_hp, (f.id, hq)
        # A living faction may have lost its headquarters: Repair Asset heals the faction's HP
        # apart from its Bases ("also be used to repair damage done to the faction"), so the
        # headquarters Base can fall while the faction still has HP left.
    ask = s.ctx.get("ask") if s.phase == "react" else None
    # an asset brought to 0 HP stays in play while its owner decides whether to save it (Healers)
    saving = ask["args"].get("defender") if ask and ask.get("then") == "attack-save" else None
    for a in s.assets.values():
        assert 1 <= a.hp <= a.max_hp or (a.hp == 0 and a.id == saving), a
        assert a.location in s.map.locations, a
        assert s.factions[a.owner].alive, a
        assert a.is_base == (a.type == "base-of-influence"), a
    for fid in s.factions:  # the asset table's index by owner agrees with the assets
        assert list(s.assets_of(fid)) == [a for a in s.assets.values() if a.owner == fid], fid


@pytest.mark.parametrize("agent, seed", [("random", 0), ("random", 1), ("random", 2),
                                         ("keeper", 3), ("keeper", 4), ("keeper", 5)])
def test_random_play_keeps_the_state_sound(agent, seed):
    s = factionsim.load_campaign(default_campaign_path())
    s.rng = np.random.default_rng(seed)
    s.max_turns = TURNS
    agents = {fid: make_agent("random", "wwn") if agent == "random" else KeeperAgent()
              for fid in s.factions}
    rng = np.random.default_rng(1000 + seed)
    check_invariants(s)
    decisions = 0
    while True:
        actor = s.current_actor()
        if actor is None:
            break
        assert s.factions[actor].alive, actor          # the dead never act
        legal = s.legal_actions()
        assert legal
        s.apply(agents[actor].act(s.view(actor), legal, rng))
        decisions += 1
        check_invariants(s)                            # after every decision, so every turn
    check_invariants(s)
    assert s.is_over()
    assert s.turn == TURNS or sum(f.alive for f in s.factions.values()) < 2
    assert decisions > s.turn  # factions really decided things


def test_uniform_choice_with_a_copy_round_trip_stays_sound():
    """Also the plain loop of the engine contract, saving and reloading every 50 turns."""
    s = factionsim.load_campaign(default_campaign_path())
    s.rng = np.random.default_rng(99)
    s.max_turns = 300
    rng = np.random.default_rng(7)
    while (actor := s.current_actor()) is not None:
        assert s.factions[actor].alive
        legal = s.legal_actions()
        turn = s.turn
        s.apply(legal[int(rng.integers(len(legal)))])
        if s.turn != turn:
            check_invariants(s)
            if s.turn % 50 == 0:
                s = s.copy()
                check_invariants(s)
    assert s.turn == 300 or sum(f.alive for f in s.factions.values()) < 2


def test_a_state_mid_game_survives_pickling():
    """Worker processes (SubprocVecEnv, tournaments) receive states by pickle: the asset table
    must unpickle (its change counter is restored after its items) and play on identically."""
    import pickle

    s = factionsim.load_campaign(default_campaign_path())
    s.rng = np.random.default_rng(5)
    rng = np.random.default_rng(6)
    for _ in range(60):
        legal = s.legal_actions()
        s.apply(legal[int(rng.integers(len(legal)))])
    t = pickle.loads(pickle.dumps(s))
    assert t.to_dict() == s.to_dict() and t.assets.version == s.assets.version
    for _ in range(60):
        legal, legal_t = s.legal_actions(), t.legal_actions()
        assert legal == legal_t
        i = int(rng.integers(len(legal)))
        s.apply(legal[i])
        t.apply(legal_t[i])
    assert t.to_dict() == s.to_dict()


@pytest.mark.parametrize("cut", [1, 7, 40, 133])
def test_saved_mid_turn_continues_exactly(cut):
    """A campaign saved at a decision inside a turn (phase, order, initiative, context and dice
    written in ``in_progress`` and ``rng``) loads and plays on exactly as the original."""
    from factionsim.core.campaign import dump_campaign_text

    s = factionsim.load_campaign(default_campaign_path())
    s.rng = np.random.default_rng(11)
    keeper, rng = KeeperAgent(), np.random.default_rng(12)
    for _ in range(cut):
        actor = s.current_actor()
        s.apply(keeper.act(s.view(actor), s.legal_actions(), rng))
    s.current_actor()  # at the next decision, inside a turn
    assert "in_progress" in s.to_dict()
    copy = type(s).from_dict(s.to_dict())
    assert dump_campaign_text(copy) == dump_campaign_text(s)
    rng_a, rng_b = np.random.default_rng(13), np.random.default_rng(13)
    for _ in range(100):
        actor = s.current_actor()
        assert copy.current_actor() == actor
        if actor is None:
            break
        a = keeper.act(s.view(actor), s.legal_actions(), rng_a)
        b = keeper.act(copy.view(actor), copy.legal_actions(), rng_b)
        assert str(a) == str(b)
        assert [e.to_dict() for e in s.apply(a)] == [e.to_dict() for e in copy.apply(b)]
    assert dump_campaign_text(copy) == dump_campaign_text(s)


def test_a_turn_saved_with_purchase_discounts_pending_loads():
    """A campaign saved mid-turn after Usurers earmarked themselves and a Merchant Prince rolled
    its discount (``in_progress.ctx.usurers`` / ``prince_discounts``) loads again: the
    validator knows both fields (it refused them as unknown)."""
    from wwn_helpers import faction, make_state, play_to

    from factionsim.rules.wwn import turn as T
    from factionsim.rulesets import build_campaign

    s = make_state([faction("us", wealth=6, assets=[{"type": "usurers", "location": "a"},
                                                    {"type": "merchant-prince", "location": "a"}]),
                    faction("them", headquarters="c")])
    play_to(s, T.ACTION, "us")
    s.ctx["usurers"] = ["usurers#1"]
    s.ctx["prince_discounts"] = [{"source": "merchant-prince#2", "faction": "us",
                                  "location": "a", "amount": 3}]
    again = build_campaign(s.to_dict(), {}, "saved mid-turn")
    assert again.ctx["usurers"] == ["usurers#1"]
    assert again.ctx["prince_discounts"][0]["amount"] == 3
