"""The observation layout every codec declares (named pieces, entity sets with a presence flag),
and WWN assets encoded by their stats, not their names (issue 22 item 2, the env's part)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from factionsim import load_campaign  # noqa: E402
from factionsim.configs import default_campaign_path  # noqa: E402
from factionsim.envs import Layout, env_version, make_codec, make_env  # noqa: E402
from factionsim.envs.wwn_asset_features import (  # noqa: E402
    ABILITY_KINDS,
    TYPE_FEATURES,
    TYPE_WIDTH,
    type_features,
)
from factionsim.rules.wwn.data import ASSET_TYPES, AssetType, AttackLine  # noqa: E402
from factionsim.rules.wwn.hooks import HOOK_POINTS  # noqa: E402

RULESETS = ("wwn", "engagements", "houses", "conflict")


def observations(ruleset: str, games: int = 2, max_turns: int = 4, every: int = 3):
    """(env, agent, observation) along random masked games, for every living agent now and then."""
    env = make_env(ruleset=ruleset, max_turns=max_turns)
    for game in range(games):
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        for step, _agent in enumerate(env.agent_iter()):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if step % every == 0:
                for viewer in env.agents:
                    yield env, viewer, env.observe(viewer)["observation"]
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pieces_tile_the_observation_in_order(ruleset):
    codec = make_env(ruleset=ruleset).codec
    pieces = codec.observation_layout()
    assert codec.obs_size == sum(rows * width for _, rows, width in pieces)
    assert codec.observation_space["observation"].shape == (codec.obs_size,)
    position = 0
    for piece in pieces:
        assert codec.layout.start[piece.name] == position
        position += piece.size
    assert len({p.name for p in pieces}) == len(pieces)
    assert codec.layout.entity_sets(), "every ruleset has at least one entity set"


#: ruleset -> entity set -> the entities its rows hold, as (game state, observer) -> count
def _wwn_counts(state, me):
    visible = [a for a in state.assets.values() if a.owner != me and not a.stealth]
    return {"own_assets": len(state.assets_of(me)), "other_assets": len(visible),
            "locations": len(state.map.locations),
            "factions": sum(f.alive for f in state.factions.values())}


def _seat_counts(state, me, owners, piece, count):
    order = list(owners)
    k = order.index(me)
    seated = order[k:] + order[:k]
    return {f"{piece}@{i}": count(state, fid) for i, fid in enumerate(seated)}


COUNTS = {
    "wwn": _wwn_counts,
    "houses": lambda s, me: {"houses": sum(h.alive for h in s.houses.values()),
                             **_seat_counts(s, me, s.houses, "assets",
                                            lambda s, h: len(s.assets_of(h)))},
    "engagements": lambda s, me: {"factions": sum(f.alive for f in s.factions.values()),
                                  **_seat_counts(s, me, s.factions, "pillars",
                                                 lambda s, f: len(s.factions[f].pillars))},
    "conflict": lambda s, me: {"characters": len(s.chars)},
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_entity_row_starts_with_its_presence_flag(ruleset):
    """The first value of an entity set's row is 1.0 when it holds an entity and 0.0 when empty;
    filled rows come first, and an empty row is all zeros."""
    checked = 0
    for env, viewer, obs in observations(ruleset):
        counts = COUNTS[ruleset](env.state, viewer)
        for piece in env.codec.layout.entity_sets():
            rows = env.codec.layout.view(obs, piece.name)
            flags = rows[:, 0]
            assert set(np.unique(flags)) <= {0.0, 1.0}, piece.name
            if piece.name in counts:
                assert int(flags.sum()) == counts[piece.name], piece.name
            if piece.name not in ("factions", "houses"):  # a collapsed faction keeps its row
                filled = int(flags.sum())
                assert flags[:filled].all(), piece.name
                assert not rows[filled:].any(), piece.name
            checked += 1
    assert checked > 20


def test_wwn_asset_types_piece_lists_every_type_a_faction_can_create():
    codec = make_env().codec
    table = codec.layout.view(np.asarray(codec._base_template), "asset_types")
    assert table.shape == (codec.limits.asset_types, TYPE_WIDTH)
    assert int(table[:, 0].sum()) == len(codec.types) == len(ASSET_TYPES) - 1  # not the Base
    for i, t in enumerate(codec.types):
        assert np.array_equal(table[i], type_features(ASSET_TYPES[t]))


def test_views_are_named_shaped_and_share_memory():
    layout = Layout([("phase", 1, 3), ("units", 2, 2)])
    obs = np.zeros(layout.size, np.float32)
    layout.view(obs, "units")[1, 0] = 1.0
    assert obs.tolist() == [0, 0, 0, 0, 0, 1, 0]
    batch = np.arange(14, dtype=np.float32).reshape(2, 7)
    assert layout.view(batch, "units").shape == (2, 2, 2)
    assert layout.views(batch)["phase"].tolist() == [[[0, 1, 2]], [[7, 8, 9]]]
    assert layout.to_list() == [["phase", 1, 3], ["units", 2, 2]]
    with pytest.raises(ValueError, match="two pieces named 'units'"):
        Layout([("units", 1, 1), ("units", 2, 1)])


def test_each_codec_has_its_own_env_version():
    assert env_version("wwn") == 2  # v2: assets encoded by their stats
    assert {r: env_version(r) for r in RULESETS[1:]} == {r: 1 for r in RULESETS[1:]}
    assert make_env().metadata["name"] == "factionsim_wwn_v2"
    assert make_env(ruleset="houses").metadata["name"] == "factionsim_houses_v1"


# ----------------------------------------------------------------------------- WWN asset stats
def _kind(type_id: str, **changes) -> AssetType:
    return dataclasses.replace(ASSET_TYPES["infantry"], id=type_id, name=type_id.title(),
                               **changes)


def test_two_asset_types_with_equal_stats_encode_equally():
    """No name, no id: what a policy sees of an asset type is its stat line (and the kinds of
    its ability)."""
    assert np.array_equal(type_features(_kind("footmen")), type_features(_kind("pikemen")))
    assert np.array_equal(type_features(_kind("footmen")), type_features(ASSET_TYPES["infantry"]))
    assert not np.array_equal(type_features(_kind("footmen")),
                              type_features(_kind("footmen", cost=7)))


@pytest.mark.parametrize("type_id, expected", [
    # "Infantry ... Force 3, HP 6, cost 6, Force vs. Force, 1d8 damage, counterattack 1d6"
    ("infantry", {"force": 1, "rating": 3 / 8, "hp": 6 / 20, "cost": 6 / 40, "attack": 1,
                  "attacker_force": 1, "defender_force": 1, "damage_dice": 1 / 4,
                  "damage_die": 8 / 12, "damage_bonus": 0, "counter": 1, "counter_dice": 1 / 4,
                  "counter_die": 6 / 12, "subtle": 0, "ability": 0}),
    # "War Machines ... 2d10+4 damage, counterattack 1d10", Medium magic
    ("war-machines", {"damage_dice": 2 / 4, "damage_die": 10 / 12, "damage_bonus": 4 / 10,
                      "counter_die": 10 / 12, "magic": 2 / 3}),
    # "Seditionists ... Special" attack, no counterattack, Subtle
    ("seditionists", {"cunning": 1, "attack": 1, "attack_special": 1, "damage_dice": 0,
                      "counter": 0, "subtle": 1, "ability": 1, "ability_attack": 1}),
    # "Informers ... Cunning vs. Cunning, Special"
    ("informers", {"attack": 1, "attack_special": 0, "attacker_cunning": 1,
                   "defender_cunning": 1, "damage_special": 1}),
    # Free Company: upkeep 1 Treasure a turn; Hired Legion 2 and cannot be sold
    ("free-company", {"upkeep": 1 / 5, "ability_economy": 1, "unsellable": 0}),
    ("hired-legion", {"upkeep": 2 / 5, "unsellable": 1}),
    ("base-of-influence", {"base": 1, "attack": 0, "counter": 0}),
])
def test_asset_type_features_from_the_stat_line(type_id, expected):
    features = dict(zip(TYPE_FEATURES, type_features(ASSET_TYPES[type_id]).tolist(), strict=True))
    assert features["present"] == 1.0
    for name, value in expected.items():
        assert features[name] == pytest.approx(value), name
    assert all(0.0 <= v <= 1.0 for v in features.values())


def test_every_hook_point_has_an_ability_kind():
    kinds = {hook for hooks in ABILITY_KINDS.values() for hook in hooks}
    assert kinds == set(HOOK_POINTS)


def test_a_campaign_defined_asset_type_is_observed_and_created_by_its_stats(monkeypatch):
    """A type the rules do not know, defined for one campaign: the codec encodes assets of it
    from its stat line and offers a create slot for it (a row of the asset_types piece)."""
    homebrew = AssetType(id="river-pirates", name="River Pirates", attribute="force", rating=2,
                         hp=5, cost=4, magic="none",
                         attack=AttackLine("force", "wealth", "1d6+1"), counter="1d4",
                         subtle=True, ability=False)
    monkeypatch.setitem(ASSET_TYPES, homebrew.id, homebrew)
    state = load_campaign(default_campaign_path())
    codec = make_codec(state)
    me = state.current_actor()
    home = state.factions[me].headquarters
    pirates = state.new_asset(homebrew.id, me, home)
    obs = codec.observe(state.view(me), np.empty(codec.obs_size, np.float32))
    own = codec.layout.view(obs, "own_assets")
    row = own[[a.id for a in state.assets_of(me)].index(pirates.id)]
    o_type = 1 + 4 + codec.F
    assert np.array_equal(row[o_type:o_type + TYPE_WIDTH - 1], type_features(homebrew)[1:])
    table = codec.layout.view(obs, "asset_types")
    k = codec.types.index(homebrew.id)
    assert np.array_equal(table[k], type_features(homebrew))
    from factionsim.rules.wwn.actions import Create

    (index,) = codec.encode_actions(state.view(me), [Create(homebrew.id, home)])
    assert index == codec.offset["create"] + k * codec.L + codec.loc[home]


def test_too_many_asset_types_is_a_clear_error(monkeypatch):
    from factionsim.envs import EncodingError

    with pytest.raises(EncodingError, match="asset_types limit is 10"):
        make_codec(load_campaign(default_campaign_path()), asset_types=10)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_docs_env_md_lists_each_bundled_layout(ruleset):
    """docs/env.md's table of a ruleset's pieces is its codec's layout on the bundled campaign."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "env.md").read_text(encoding="utf-8")
    table = doc.split(f"<!-- layout:{ruleset} -->", 1)[1].split("<!-- /layout -->", 1)[0]
    rows = [[name, int(r), int(w)]
            for name, r, w in re.findall(r"^\| `([\w@]+)` \| (\d+) \| (\d+) \|$", table, re.M)]
    codec = make_env(ruleset=ruleset).codec
    assert rows == codec.layout.to_list()
    assert f"{codec.obs_size:,} values, {codec.n_actions:,} actions" in table



def test_float32s_gives_numpys_float32_numbers():
    """The fast path observations write their values through: the same bits as numpy's own
    conversion, for floats of every scale (rounding to float32 included), ints and bools."""
    from factionsim.envs.codec import float32s

    rng = np.random.default_rng(7)
    floats = (rng.standard_normal(500) * 10.0 ** rng.integers(-40, 38, 500)).tolist()
    values = floats + [1 / 3, 0.1, 2 / 3, 1 + 2**-24, 1 + 3 * 2**-25, -0.0, 0, 1, 7, True, False]
    for n in (0, 1, 64, len(values)):
        got = float32s(values[:n])
        assert got.dtype == np.float32 and got.shape == (n,)
        assert got.tobytes() == np.asarray(values[:n], np.float32).tobytes()


@pytest.mark.parametrize("ruleset, module, limit", [("wwn", "wwn_codec", "_BANK_ROWS"),
                                                    ("houses", "houses_codec", "_SEAT_ROWS")])
def test_a_full_bank_of_encoded_rows_is_emptied_and_observations_stay_the_same(
        ruleset, module, limit, monkeypatch):
    """The codecs keep already-encoded rows in a bank that is emptied when full: observations
    are the same with a bank that fills up all the time."""
    import importlib

    def play():
        return [obs.tobytes() for _, _, obs in observations(ruleset, games=2, max_turns=3,
                                                            every=1)]

    plain = play()
    monkeypatch.setattr(importlib.import_module(f"factionsim.envs.{module}"), limit, 4)
    assert play() == plain


#: tests/data/wwn_homebrew.yaml's types -> what their stat lines say (the campaign's own words:
#: "ability: {effect: income, ...}", "qualities: [subtle, stealth]", "upkeep: 1"...)
HOMEBREW_FEATURES = {
    "toll-bridge": {"ability": 1, "ability_economy": 1},
    "river-barges": {"subtle": 1, "upkeep": 1 / 5, "ability_economy": 1,
                     "ability_free_action": 1},
    "shield-wall": {"ability_defense": 1},
    "berserkers": {"ability_attack": 1},
    "whisper-network": {"subtle": 1, "stealthed_on_entry": 1, "ability_checks": 1},
}


def test_a_homebrew_campaign_is_encoded_by_its_own_stats_and_plays():
    """The env reads a campaign's own asset types (its ``asset_types:`` block) and their
    abilities from the game's hook tables: each is a row of the asset_types piece, encoded from
    its stat line, and random games play through the env."""
    from pathlib import Path

    path = Path(__file__).parent / "data" / "wwn_homebrew.yaml"
    state = load_campaign(path)
    env = make_env(path, max_turns=3)
    codec = env.codec
    table = codec.layout.view(np.asarray(codec._base_template), "asset_types")
    for type_id, expected in HOMEBREW_FEATURES.items():
        row = dict(zip(TYPE_FEATURES, table[codec.types.index(type_id)].tolist(), strict=True))
        assert row == pytest.approx({**row, **expected}), type_id
        assert np.array_equal(table[codec.types.index(type_id)],
                              type_features(state.asset_types[type_id], state.hooks))
    # the book's upkeep still counts (Free Company: 1 Treasure a turn)
    assert table[codec.types.index("free-company")][TYPE_FEATURES.index("upkeep")] == \
        pytest.approx(1 / 5)
    steps = 0
    for game in range(2):
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            assert env.observation_space(_agent).contains(obs)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(legal[rng.integers(len(legal))]))
            steps += 1
    assert steps > 20
