"""What the WWN env keeps between decisions is never stale.

The codec keeps each observer's asset part (rows, counts, Base flags, and a copy of its template
with them written in), the faction rows, and the indices of the goal choices by object; the rules
keep each faction's goal options (``goals.options``, and where each choice stands among them for
``goals.options_besides``), its assets by attribute for upkeep (``economy.owned_by_attribute``,
kept with the tuple ``state.assets_of`` gave) and the assets of every location
(``state.assets_at``). They are reused while the assets' stamp
(``WwnView.assets_stamp``: the table's version and ``model.ASSET_CHANGES``) and their other
inputs are unchanged. These tests change the state through every rules path random play takes
and through direct writes, and compare each cached answer with one worked out afresh.
"""

from __future__ import annotations

import collections
import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from env_helpers import live_decisions  # noqa: E402

from factionsim.configs import default_campaign_path  # noqa: E402
from factionsim.envs import make_env  # noqa: E402
from factionsim.rules.wwn import actions as A  # noqa: E402
from factionsim.rules.wwn import economy, goals, relations  # noqa: E402
from factionsim.rules.wwn.data import ATTRIBUTES, BASE_OF_INFLUENCE  # noqa: E402
from factionsim.rules.wwn.model import ASSET_CHANGES, Asset, AssetStatus, Goal  # noqa: E402
from factionsim.rules.wwn.state import WwnState  # noqa: E402


def fresh_observation(env, viewer: str) -> np.ndarray:
    """``viewer``'s observation by a codec built for this state, with nothing cached."""
    codec = type(env.codec)(env.state)
    return codec.observe(env.state.view(viewer), np.empty(codec.obs_size, np.float32))


def assert_caches_fresh(env) -> None:
    """Every observer's observation, the mask's indices and the goal options equal what is
    worked out with nothing cached."""
    state = env.state
    for viewer in env.agents:
        got = env.observe(viewer)["observation"]
        assert np.array_equal(got, fresh_observation(env, viewer)), viewer
    actor = state.current_actor()
    if actor is not None:  # (worked out again: the engine keeps a decision's list until apply)
        legal = state.decision_module.legal_actions(state)
        codec = type(env.codec)(state)
        assert env.codec.encode_actions(state.view(actor), legal) == \
            codec.encode_actions(state.view(actor), legal)
    for loc in state.map.locations:  # (state.assets_at: an index kept per assets stamp)
        here = [a for a in state.assets.values() if a.location == loc]
        got = state.assets_at(loc)
        assert len(got) == len(here) and all(x is y for x, y in zip(got, here, strict=True)), loc
    for f in state.factions.values():
        assert state.hostile_factions(f.id) == [  # (kept per relations and who is alive)
            g for g in state.factions if state.factions[g].alive and state.hostile(f.id, g)], f.id
        hostile = set(state.hostile_factions(f.id))
        fresh = goals._options(state, f, hostile)
        assert goals.options(state, f) == fresh, f.id
        # the options a faction holding a goal may switch to: its own goal's, and others'
        for g in (f.goal, *(Goal(c.goal, c.target) for c in fresh[::4])):
            if g is not None:
                assert goals.options_besides(state, f, g) == [
                    c for c in fresh if c.goal != g.id or c.target != g.target], (f.id, g)
        grouped = economy.owned_by_attribute(state, f.id)
        for attr in ATTRIBUTES:
            expected = [a for a in state.assets.values()
                        if a.owner == f.id and not a.is_base and a.kind.attribute == attr]
            assert len(grouped[attr]) == len(expected), (f.id, attr)
            assert all(x is y for x, y in zip(grouped[attr], expected, strict=True)), (f.id, attr)


def _before_the_rebalance(tmp_path):
    """The bundled campaign as it was before issue 24's rebalance: only the Legion and the
    Veiled Hand neutral, every other pair hostile (the default), the Hand's goal Inside Enemy
    Territory; and the Legion starting wounded (20 HP, its Knights at 5)."""
    text = default_campaign_path().read_text()
    for line in ("  - [veiled-hand, silver-guild, neutral]\n",
                 "  - [veiled-hand, ashen-flame, neutral]\n"):
        assert line in text
        text = text.replace(line, "")
    i = text.index("  - id: veiled-hand")
    j = text.index("    goal: wealth-of-kingdoms\n", i)
    text = text[:j] + "    goal: inside-enemy-territory\n" + text[j + 29:]
    # and the Legion wounded (its HP and its Knights), so that repairs of both kinds are on
    # offer from the first turn: random play's own fights leave them to chance
    text = text.replace("    tags: [martial]\n", "    tags: [martial]\n    hp: 20\n", 1)
    text = text.replace("      - {type: knights, location: tarsis}\n",
                        "      - {type: knights, location: tarsis, hp: 5}\n", 1)
    path = tmp_path / "before.yaml"
    path.write_text(text)
    return path


def test_every_rules_path_of_random_play_leaves_no_stale_cache(tmp_path):
    """Random play, checked after every decision: attacks, defences, moves, purchases, repairs,
    hiding, selling, abilities, expansions, goals kept, adopted and bribed, relations changed by
    an attack on a neutral, and turn ends all change what the caches were built from. (Each
    decision picks a kind of action at random, then one action of that kind, so that the rarer
    kinds come up in a few games.) Two campaigns: the bundled one, whose Veiled Hand is neutral
    towards every faction, so that a strike on it turns a relation hostile mid-game; and the same
    with the relations it had before its rebalance, where random play fights (and repairs)
    enough: at peace with the Hand it never repaired in 12-turn games of seeds 0-15 (and with the
    Guild's Free Company in place of its Pleaders it did not restore a faction's HP in seeds 0-2
    even there, so that campaign starts the Legion wounded and plays six games: its seeds 0, 2
    and 5 repair)."""
    applied: collections.Counter = collections.Counter()
    turns_ended = relation_changes = 0
    for campaign, seeds in ((None, range(3)), (_before_the_rebalance(tmp_path), range(6))):
        env = make_env(campaign, max_turns=12)
        for rng in live_decisions(env, seeds):
            by_kind = collections.defaultdict(list)
            for i in np.flatnonzero(env.action_mask()):
                a = env.legal_action(int(i))
                by_kind[(type(a).__name__, getattr(a, "kind", ""))].append(int(i))
            kinds = sorted(by_kind)
            choices = by_kind[kinds[rng.integers(len(kinds))]]
            choice = choices[rng.integers(len(choices))]
            applied[type(env.legal_action(choice)).__name__] += 1
            turn, listed = env.state.turn, env.state.relations
            env.step(choice)
            turns_ended += env.state.turn != turn
            relation_changes += env.state.relations != listed
            assert_caches_fresh(env)
    for kind in (A.Attack, A.Defend, A.Move, A.Create, A.Repair, A.RepairFaction, A.Hide,
                 A.Sell, A.UseAbility, A.ExpandAt, A.ChooseGoal, A.KeepGoal, A.Bribe):
        assert applied[kind.__name__], f"random play never applied {kind.__name__}"
    assert turns_ended >= 60 and relation_changes


def _warm_env():
    env = make_env(max_turns=10)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(25):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    for viewer in env.agents:  # every observer's caches built
        env.observe(viewer)
    return env


def _rival_asset(env, viewer: str) -> Asset:
    return next(a for a in env.state.assets.values()
                if a.owner != viewer and not a.is_base and not a.stealth)


WRITES = {
    "hp": lambda s, a: setattr(a, "hp", max(1, a.hp - 1) if a.hp > 1 else a.max_hp),
    "max_hp": lambda s, a: setattr(a, "max_hp", a.max_hp + 2),
    "location": lambda s, a: setattr(a, "location", next(
        lid for lid in s.map.locations if lid != a.location)),
    "stealth": lambda s, a: setattr(a, "stealth", not a.stealth),
    "exposed": lambda s, a: setattr(a, "exposed", not a.exposed),
    "status subtle": lambda s, a: a.status.__setitem__("subtle", True),
    "status update": lambda s, a: a.status.update(subtle="x#1"),
    "status setdefault": lambda s, a: a.status.setdefault("subtle", True),
    "new owner": lambda s, a: s.assets.reassign(a, next(
        f for f in s.factions if f != a.owner)),
    "out of play": lambda s, a: s.assets.pop(a.id),
    "new asset": lambda s, a: s.new_asset(a.type, a.owner, a.location),
    "status dict replaced": lambda s, a: setattr(a, "status", {"subtle": True}),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_direct_write_to_an_asset_is_seen(write):
    """Whatever changes an asset (a field, its status entries, its owner, its being in play), the
    next observation of every faction and the goal options show it."""
    env = _warm_env()
    viewer = env.agents[0]
    WRITES[write](env.state, _rival_asset(env, viewer))
    assert_caches_fresh(env)


BASE_WRITES = {name: WRITES[name] for name in ("location", "new owner", "out of play")}
BASE_WRITES["new Base"] = lambda s, a: s.new_asset(BASE_OF_INFLUENCE, a.owner, next(
    lid for lid in s.map.locations if s.base_of(a.owner, lid) is None), max_hp=1)


@pytest.mark.parametrize("write", BASE_WRITES)
def test_a_base_moved_lost_or_given_is_seen(write):
    """The Base flags of the locations (one per seat) follow a Base that leaves a place, changes
    hands, leaves play or is added, also where the observer's kept observation is patched in
    place (only the flags that differ written again)."""
    env = _warm_env()
    viewer = env.agents[0]
    base = next(a for a in env.state.assets.values() if a.owner != viewer and a.is_base)
    BASE_WRITES[write](env.state, base)
    assert_caches_fresh(env)
    assert_caches_fresh(env)  # (and once more, from the patched observations)


def test_kept_asset_parts_brought_up_to_date_from_the_change_log(monkeypatch):
    """Where only fields of assets changed, each observer's kept asset part is brought up to
    date in place from ``model.ASSET_LOG`` (``WwnCodec._update_part``): own and rivals' assets
    moved, damaged, hidden and shown, another game's asset of the same id changed (skipped: this
    game's rows stay), a log emptied out in between (a new part is built). Every observation
    equals a fresh codec's, and the update path is the one taken where it can be."""
    from factionsim.envs.wwn_codec import WwnCodec
    from factionsim.rules.wwn import model

    # the log is the process's: start from an empty one, so that the earlier tests' entries
    # cannot make it empty itself in the middle of this one (a rebuild where an update is due)
    model.ASSET_LOG.empty()
    env = _warm_env()
    viewer = env.agents[0]
    state = env.state
    taken = collections.Counter()
    update = WwnCodec._update_part

    def spy(self, *args):
        done = update(self, *args)
        taken[done] += 1
        return done

    monkeypatch.setattr(WwnCodec, "_update_part", spy)
    own = next(a for a in state.assets.values() if a.owner == viewer and not a.is_base)
    rival = _rival_asset(env, viewer)
    other = next(lid for lid in state.map.locations if lid != rival.location)
    twin = copy.deepcopy(state)  # (its assets: the same ids, other objects)
    for write in (lambda: setattr(rival, "location", other),
                  lambda: setattr(own, "hp", max(1, own.hp - 1)),
                  lambda: setattr(own, "location", next(
                      lid for lid in state.map.locations if lid != own.location)),
                  lambda: setattr(twin.assets[rival.id], "hp", 1),
                  lambda: (setattr(rival, "exposed", not rival.exposed),
                           setattr(own, "stealth", not own.stealth)),
                  lambda: setattr(rival, "stealth", True),  # (hidden: a new part)
                  lambda: setattr(rival, "stealth", False)):  # (shown again: likewise)
        write()
        assert_caches_fresh(env)
    assert taken[True] >= 4 * len(env.agents) and taken[False] >= 2
    for hp in (1, 2) * 20:  # (a long window, as a planner's copies would log: built again)
        own.hp = hp
    taken.clear()
    assert_caches_fresh(env)
    assert taken[False] == len(env.agents) and taken[True] == 0
    monkeypatch.setattr(model, "LOG_SIZE", 2)
    for hp in (1, 2, 1):  # (three entries: the first one emptied out before it is read)
        own.hp = hp
    taken.clear()
    assert_caches_fresh(env)
    assert taken[False] == len(env.agents) and taken[True] == 0


def test_undoing_a_status_entry_is_seen():
    """A status entry removed again (del, pop, clear, popitem) counts as a change too."""
    env = _warm_env()
    asset = _rival_asset(env, env.agents[0])
    for undo in (lambda st: st.__delitem__("subtle"), lambda st: st.pop("subtle"),
                 lambda st: st.clear(), lambda st: st.popitem()):
        asset.status["subtle"] = True
        assert_caches_fresh(env)
        undo(asset.status)
        assert_caches_fresh(env)


def test_faction_changes_are_seen():
    """Ratings, HP, XP earned and the fall of a faction change the faction rows."""
    env = _warm_env()
    f = env.state.factions[env.agents[-1]]
    for field, value in (("force", min(8, f.force + 1)), ("hp", max(1, f.hp - 2)),
                         ("xp_earned", f.xp_earned + 3), ("wealth", min(8, f.wealth + 1))):
        setattr(f, field, value)
        env._scores = (-1, {})  # (the env's scores are per decision; these writes are not one)
        assert_caches_fresh(env)


def test_asset_changes_count_only_real_changes():
    """``ASSET_CHANGES`` counts a field set to a new value, every status write and every status
    removal that removes something; setting a field to the value it has is no change, nor is
    removing a status entry that is not there (``on_act``'s ``pop("until_acts", None)`` at
    every asset action) or a ``setdefault`` of an entry that is."""
    env = _warm_env()
    asset = _rival_asset(env, env.agents[0])
    before = ASSET_CHANGES.count
    asset.hp = asset.hp
    asset.exposed = bool(asset.exposed)
    assert ASSET_CHANGES.count == before
    asset.hp = asset.hp + 1
    assert ASSET_CHANGES.count == before + 1
    for write in (lambda st: st.__setitem__("k", 1), lambda st: st.update(k=2),
                  lambda st: st.setdefault("j", 1), lambda st: st.__ior__({"k": 3}),
                  lambda st: st.pop("k"), lambda st: st.__delitem__("j"),
                  lambda st: st.__setitem__("k", 1), lambda st: st.popitem(),
                  lambda st: st.__setitem__("k", 1), lambda st: st.clear()):
        count = ASSET_CHANGES.count
        write(asset.status)
        assert ASSET_CHANGES.count == count + 1
    asset.status["kept"] = 1
    count = ASSET_CHANGES.count
    for no_change in (lambda st: st.pop("absent", None), lambda st: st.setdefault("kept", 2)):
        no_change(asset.status)
        assert ASSET_CHANGES.count == count
    assert asset.status == {"kept": 1}
    del asset.status["kept"]
    count = ASSET_CHANGES.count
    asset.status.clear()  # (already empty)
    assert ASSET_CHANGES.count == count


def test_status_stays_counted_through_saves_and_copies():
    """An asset's status is an ``AssetStatus`` however the asset was made: new, loaded from a
    campaign, unpickled, deep-copied or given a plain dict; the campaign data holds plain dicts."""
    env = _warm_env()
    state = env.state
    asset = _rival_asset(env, env.agents[0])
    asset.status["subtle"] = True
    loaded = WwnState.from_dict(state.to_dict())
    for s in (state, loaded, pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert all(type(a.status) is AssetStatus for a in s.assets.values())
        assert s.assets[asset.id].status == {"subtle": True}
    data = state.to_dict()
    statuses = [a["status"] for f in data["factions"] for a in f.get("assets", ()) if "status" in a]
    assert statuses and all(type(st) is dict for st in statuses)
    asset.status = {"subtle": "x#1"}
    assert type(asset.status) is AssetStatus


def test_goal_options_come_back_as_new_lists_of_the_same_choices():
    """The cached goal options are handed out as a new list each time (a caller may change it)
    holding the same choice objects; a pickled state starts with no cache."""
    env = _warm_env()
    state = env.state
    f = next(iter(state.factions.values()))
    first, again = goals.options(state, f), goals.options(state, f)
    assert first == again and first is not again
    assert all(x is y for x, y in zip(first, again, strict=True))
    first.clear()
    assert goals.options(state, f) == again
    assert pickle.loads(pickle.dumps(state)).goal_options_cache == {}


def test_goal_options_besides_two_alike_choices():
    """Two Bases of one faction in one place give two alike Root Out the Enemy choices: switching
    away from that goal leaves both out (as comparing every choice with the goal does)."""
    env = _warm_env()
    state = env.state
    f = next(f for f in state.factions.values() if state.hostile_factions(f.id))
    rival = state.hostile_factions(f.id)[0]
    base = next(a for a in state.assets_of(rival) if a.is_base)
    state.new_asset(BASE_OF_INFLUENCE, rival, base.location, max_hp=1)
    target = f"{rival}@{base.location}"
    choices = goals.options(state, f)
    assert sum(c.goal == "root-out-the-enemy" and c.target == target for c in choices) == 2
    besides = goals.options_besides(state, f, Goal("root-out-the-enemy", target))
    assert besides == [c for c in choices
                       if (c.goal, c.target) != ("root-out-the-enemy", target)]
    assert len(besides) == len(choices) - 2


def test_upkeep_groups_follow_the_faction_assets():
    """``economy.owned_by_attribute`` hands back the same lists while the faction's assets are
    the same, and new ones once an asset of it enters play, leaves it or changes hands."""
    env = _warm_env()
    state = env.state
    fid = env.agents[0]
    first = economy.owned_by_attribute(state, fid)
    assert economy.owned_by_attribute(state, fid) is first
    mine = next(a for a in state.assets_of(fid) if not a.is_base)
    other = next(f for f in state.factions if f != fid)
    for change in (lambda: state.new_asset(mine.type, fid, mine.location),
                   lambda: state.assets.reassign(mine, other),
                   lambda: state.assets.pop(mine.id)):
        before = economy.owned_by_attribute(state, fid)
        change()
        after = economy.owned_by_attribute(state, fid)
        assert after is not before
        assert [a.id for attr in ATTRIBUTES for a in after[attr]] == [
            a.id for attr in ATTRIBUTES for a in state.assets.values()
            if a.owner == fid and not a.is_base and a.kind.attribute == attr]
    assert pickle.loads(pickle.dumps(state)).upkeep_cache == {}


@pytest.mark.parametrize("xp_cost", ["example", "table"])
def test_raise_options_shortcut_matches_every_attribute_checked(xp_cost):
    """The raise step skips checking each attribute when the lowest rating's next step costs
    more XP than the faction has (a step never costs less at a higher rating): the options are
    the same as checking each attribute with ``can_raise``, for every rating, XP and tag."""
    from factionsim.rules.wwn import turn
    from factionsim.rules.wwn.data import XP_AT_NEW_RATING, XP_TO_RAISE

    for table in (XP_TO_RAISE, XP_AT_NEW_RATING):
        assert list(table) == sorted(table)
    env = _warm_env()
    state = env.state
    state.house_rules.xp_cost = xp_cost
    f = turn.acting(state)
    for tags in ((), ("martial",), ("rich", "machiavellian")):
        for ratings in ((1, 1, 1), (3, 5, 2), (8, 8, 7), (8, 8, 8), (2, 8, 4)):
            for xp in (0, 1, 2, 3, 5, 9, 12, 16, 20, 40):
                f.tags, (f.force, f.cunning, f.wealth), f.xp = tags, ratings, xp
                expected = [A.RaiseRating(a) for a in ATTRIBUTES
                            if turn.can_raise(f, a, state.house_rules)] + [A.Done()]
                assert list(turn._raise_options(state)) == expected, (tags, ratings, xp)


def test_a_new_asset_counts_no_change_and_is_set_up_as_the_dataclass_was():
    """``Asset.__init__`` (written out, bypassing the counting ``__setattr__``) counts nothing,
    keeps an ``AssetStatus`` it is given, turns a plain dict or nothing into one, and works out
    ``kind`` (the standard table's when left out) and ``is_base`` from the type."""
    from factionsim.rules.wwn.data import ASSET_TYPES

    before = ASSET_CHANGES.count
    status = AssetStatus(subtle=True)
    kept = Asset("base-of-influence#1", BASE_OF_INFLUENCE, "f", "x", 2, 3, status=status)
    plain = Asset("scouts#2", "scouts", "f", "x", 1, 1, True, True, {"subtle": "y#3"})
    bare = Asset("scouts#3", "scouts", "f", "x", 1, 1)
    assert ASSET_CHANGES.count == before
    assert kept.status is status and kept.is_base and kept.kind is ASSET_TYPES[BASE_OF_INFLUENCE]
    assert type(plain.status) is AssetStatus and plain.status == {"subtle": "y#3"}
    assert (plain.stealth, plain.exposed, plain.is_base) == (True, True, False)
    assert type(bare.status) is AssetStatus and bare.status == {} and bare.kind.id == "scouts"
    assert bare.status is not Asset("scouts#4", "scouts", "f", "x", 1, 1).status
    bare.hp = 2
    assert ASSET_CHANGES.count == before + 1


def test_relations_changed_in_play_show_in_the_kept_observations():
    """A relation changed in play (``relations.set_relation``, the house rule
    ``relations_change: attacks``: "the attacked faction, if it was allied or neutral to the
    attacker, becomes hostile to it") shows in every observer's next observation and in the
    hostile factions, as a codec built afresh shows it: the codec keeps each observer's template
    (relations included) per relations dict, so the rules give the state a new dict."""
    env = _warm_env()
    state = env.state
    a, b = env.agents[0], env.agents[1]
    before = state.relations
    for relation in ("allied", "neutral", "hostile"):
        if state.relation(a, b) == relation:
            continue
        events: list = []
        relations.set_relation(state, a, b, relation, events)
        assert events and events[-1].kind == "relation"
        assert state.relation(a, b) == relation
        assert (b in state.hostile_factions(a)) == (relation == "hostile")
        assert_caches_fresh(env)
    assert state.relations is not before


def test_a_kept_observation_is_never_patched_with_rows_of_a_bank_started_afresh(monkeypatch):
    """The codec's bank of encoded asset rows, once full, is emptied and its rows reused: after
    that, a bank row number no longer stands for what it stood for, so an observer's kept
    observation must be built again, not patched by comparing row numbers. Here the same asset
    gets row 0 before and after the bank starts afresh, with a new location in between."""
    from factionsim.envs import wwn_codec

    env = _warm_env()
    codec, state = env.codec, env.state
    viewer = env.agents[0]
    view = state.view(viewer)

    def fill_the_bank():  # (the next miss finds it full: it starts afresh)
        monkeypatch.setattr(wwn_codec, "_BANK_ROWS", len(codec._bank))
        codec._row_of.update({("filler", i): (0, 0, -1) for i in range(len(codec._bank))})

    first = view.assets()[0]
    first.status["filler"] = 1  # (a change: the viewer's kept part misses)
    fill_the_bank()
    epoch = codec._bank_epoch
    env.observe(viewer)
    assert codec._bank_epoch == epoch + 1 and codec._parts[viewer].own_rows + \
        codec._parts[viewer].other_rows  # (rows numbered from 0 again)
    first.location = next(lid for lid in state.map.locations if lid != first.location)
    fill_the_bank()
    got = env.observe(viewer)["observation"]
    assert np.array_equal(got, fresh_observation(env, viewer))


def test_kept_observations_survive_a_bank_that_starts_afresh(monkeypatch):
    """The codec's bank of encoded asset rows, once full, is emptied and its rows reused for new
    rows: an observer's kept observation is then built again from the template, never patched
    with the rows' new contents. Played with a bank of room for one observation only, so it
    starts afresh many times, each observation checked against a fresh codec's."""
    from factionsim.envs import wwn_codec

    env = make_env(max_turns=4)
    monkeypatch.setattr(wwn_codec, "_BANK_ROWS", 2 * env.codec.asset_slots)
    started = env.codec._bank_epoch
    for rng in live_decisions(env, range(4)):  # (kept parts mostly brought up to date in place)
        for viewer in env.agents:
            got = env.observe(viewer)["observation"]
            assert np.array_equal(got, fresh_observation(env, viewer)), viewer
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    assert env.codec._bank_epoch >= started + 3


def test_hostile_factions_follow_relations_written_in_place_and_factions_falling():
    """``hostile_factions`` is kept per relations and living factions: a relation written into
    the dict in place (as a GM tool or a test may), a changed default for unlisted pairs and a
    faction that falls all change the answer at once."""
    env = _warm_env()
    state = env.state
    a, b = env.agents[0], env.agents[1]

    def fresh(fid):
        return [g for g in state.factions if state.factions[g].alive and state.hostile(fid, g)]

    assert state.hostile_factions(a) == fresh(a)
    for relation in ("allied", "hostile", "neutral"):
        state.relations[frozenset((a, b))] = relation
        assert state.hostile_factions(a) == fresh(a)
        assert (b in state.hostile_factions(a)) == (relation == "hostile")
    del state.relations[frozenset((a, b))]
    for default in ("neutral", "hostile"):
        state.house_rules.relations_default = default
        assert state.hostile_factions(a) == fresh(a)
    assert b in state.hostile_factions(a)
    state.factions[b].alive = False
    assert b not in state.hostile_factions(a) and state.hostile_factions(a) == fresh(a)
    got = state.hostile_factions(a)
    got.append("x")  # (a new list each time: the kept one is not the caller's)
    assert "x" not in state.hostile_factions(a)
