"""factionsim as a PettingZoo AEC environment (installed as ``factionsim.envs``; needs ``.[rl]``).

>>> from factionsim.envs import make_env
>>> env = make_env()                       # the bundled WWN campaign
>>> env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum()) > 0
True

``make_env(campaign=None, ruleset="wwn", **options)``: ``campaign`` is a campaign file path or an
already-loaded state; with none, the ruleset's bundled default. The codec is the one the
ruleset's descriptor names (``RulesetInfo.codec``, see :class:`factionsim.envs.codec.Codec`).
Options: ``max_turns`` (turn cap, default 30, ``None`` for none), ``shaping`` (weight of the
shaped reward, default 0.1),
``render_mode`` (``None`` or ``"ansi"``), and the codec's limits (WWN: ``own_assets``,
``other_assets``, ``options``; see :class:`factionsim.envs.wwn_codec.Limits`).

Agents
    The campaign's factions (``possible_agents``, fixed, in campaign order). The acting agent
    (``agent_selection``) is ``state.current_actor()``: a faction decides during its own turn and
    also in other factions' turns (which of its assets defends, whether to hit a new rival Base).
    A faction that collapses is terminated and removed (it is stepped once with ``None``). When
    fewer than two remain the rest are terminated; when the turn cap is reached they are
    truncated.

Observation
    ``{"observation": float32[N_obs] in [0, 1], "action_mask": int8[N_act]}``. The vector is a
    sequence of named pieces, ``codec.observation_layout()`` (``codec.layout``, a
    :class:`~factionsim.envs.codec.Layout`: ``(name, rows, width)`` each, laid out in order;
    ``layout.view(obs, name)`` is a piece as a ``(rows, width)`` view). A piece with one row is
    global; one with several rows is an *entity set* (assets, locations, factions, pillars,
    characters...) whose rows each start with a presence flag (1.0: the row holds an entity),
    so a policy can treat it as a set. For WWN (:mod:`factionsim.envs.wwn_codec` lists the
    pieces): the decision point (phase, whose turn, the location being expanded into, the
    attacker being met), the observer's own sheet (ratings, Treasure, HP, XP, magic, tags, goal
    and progress), every faction's public stats (alive, ratings, HP, relation, XP earned,
    score), every location (ruler, coast, Bases per faction, asset counts), every asset it can
    see: its own first, one row per action slot, then other factions' visible assets (enemy
    Stealthed assets are absent), each with owner (relation and seat), its type's stat line
    (:mod:`factionsim.envs.wwn_asset_features`: attribute, rating, cost, HP, attack and
    counterattack dice, qualities, upkeep, kinds of ability; never its name), location, hit
    points and state (Stealthed, exposed, subtle, already used this turn); and the table of
    asset types a faction can create, by their stats (the rows of the create actions).
    Factions are numbered relative to the observer (seat 0 = itself). Spaces are sized from the
    campaign and cached: every agent gets the same objects. The mask is all zeros for an agent
    that is not deciding now and never empty for the one that is.

Action
    ``Discrete(N_act)``: a catalogue of action kinds x slots (see
    :mod:`factionsim.envs.wwn_codec`); each legal action has its own index.

Rewards (to the faction that acted)
    Shaped: after each of its decisions a faction receives ``shaping x (Phi_now - Phi_prev)``,
    where ``Phi = own score - best rival score`` (``state.scores()``) and ``Phi_prev`` is its value
    after the faction's previous decision; what rivals did in between is credited on its next
    decision, so the shaped rewards of a game sum to ``shaping x (Phi_end - Phi_start)``.
    Terminal outcome, when the faction's game ends: -1 for collapsing; at the end of the game
    (one faction left or turn cap) +1 for the sole highest score, 0 for a shared highest score,
    -1 otherwise. ``env.scores()`` are the ruleset's scores; the winner has the highest.
    ``infos[agent]`` holds ``outcome`` and ``score`` when its game ends.

Rendering
    ``render_mode="ansi"``: ``render()`` returns the last decision and every faction's HP,
    Treasure, XP and score as text.

Version history
    Each ruleset's spaces have their own version, its codec's ``ENV_VERSION``
    (:func:`env_version`; the env's ``metadata["name"]`` is ``factionsim_<ruleset>_v<N>``). A
    trained policy records the version it was trained on and plays only on the same one: an
    older one is refused with a clear error (retrain it).

    * v0: initial release (WWN codec: slot catalogue, relative seats, ability options by source).
    * v1: WWN goal block sized per goal (each goal has room for its own kind of target only:
      3,420 -> 2,317 actions on the bundled campaign); the ``react`` phase (a rule asking
      mid-way) has its own phase flag (observation 3,796 -> 3,797). Policies trained on v0 do
      not fit v1 spaces.
    * Still v1 (one number for every ruleset then, and WWN's spaces did not change): issue 20
      added catalogue entries to the houses (``both``, ``oppose``), engagements
      (``commission``) and conflict (``proceed``, and a ``replan`` phase flag) codecs. Their
      action counts changed, so a policy trained on those rulesets before is refused by its
      sizes.
    * Versions per ruleset from here on (houses, engagements, conflict: v1; their spaces did
      not change, their observations gained named pieces only).
    * WWN v2 (issue 22 item 2): an asset is described by its type's stat line
      (:data:`~factionsim.envs.wwn_asset_features.TYPE_FEATURES`: attack and counterattack
      dice as numbers, qualities, upkeep, kinds of ability), not by the type's position in
      the table, so a policy can play asset types a campaign defines; a new ``asset_types``
      piece lists the types a faction can create by their stats, and the create block has a
      row for each of its ``Limits.asset_types`` (96) rows (homebrew types take the spare
      ones); each location row starts with a presence flag. On the bundled campaign the
      observation grows from 3,797 to 9,855 values and the catalogue from 2,317 to 2,457
      actions; v1 policies (the policy shipped until then) are refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from factionsim.core.ruleset import DEFAULT_RULESET

from .codec import Codec, EncodingError, Layout, Piece

if TYPE_CHECKING:
    from .aec import FactionEnv

#: make_env's own options; the others are the codec's ``Limits``.
ENV_OPTIONS = ("max_turns", "shaping", "render_mode")


def make_env(campaign: Any = None, ruleset: str = DEFAULT_RULESET, **options: Any) -> FactionEnv:
    """Build the AEC env over a campaign (path, loaded state, or ``ruleset``'s bundled one)."""
    from factionsim.rulesets import get_ruleset, load_campaign

    from .aec import FactionEnv

    if campaign is None:
        campaign = get_ruleset(ruleset).default_campaign_path()
    state = load_campaign(Path(campaign)) if isinstance(campaign, str | Path) else campaign
    env_opts = {k: v for k, v in options.items() if k in ENV_OPTIONS}
    limits = {k: v for k, v in options.items() if k not in ENV_OPTIONS}
    return FactionEnv(state, lambda s: make_codec(s, **limits), **env_opts)


def make_codec(state: Any, **limits: Any) -> Codec:
    """The codec of ``state``'s ruleset (its descriptor's ``RulesetInfo.codec``), with its
    ``Limits`` raised or lowered by ``limits`` (numpy only: no gymnasium or pettingzoo needed
    until its spaces are asked for)."""
    from factionsim.rulesets import RULESETS, ruleset_of

    info = ruleset_of(state)
    if info.codec is None:
        raise ValueError(f"no environment codec for ruleset {info.name!r}; available: "
                         f"{', '.join(name for name, r in RULESETS.items() if r.codec)}")
    return info.codec().for_campaign(state, **limits)


def env_version(ruleset: str = DEFAULT_RULESET) -> int:
    """The version of ``ruleset``'s env spaces (its codec's ``ENV_VERSION``; see "Version
    history" above)."""
    from factionsim.rulesets import get_ruleset

    info = get_ruleset(ruleset)
    if info.codec is None:
        raise ValueError(f"no environment codec for ruleset {ruleset!r}")
    return info.codec().ENV_VERSION


def __getattr__(name: str) -> Any:
    if name == "FactionEnv":  # pettingzoo is imported only when the env itself is wanted
        from .aec import FactionEnv

        return FactionEnv
    raise AttributeError(name)


__all__ = ["ENV_OPTIONS", "Codec", "EncodingError", "FactionEnv", "Layout", "Piece", "env_version",
           "make_codec", "make_env"]
