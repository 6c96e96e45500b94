"""Trained policies as players: ``agent: policy:PATH`` and ``agent: trained``.

- ``policy:PATH``: a policy description written by ``factionsim train`` (``OUT/policy.json``
  and its ``OUT/policy.npz`` weights; ``PATH`` may also be the folder). A relative PATH is read
  from the folder factionsim runs in. A stable-baselines3 ``.zip`` is refused unless the
  command was given ``--trust-model`` (loading one unpickles code, see
  :mod:`factionsim.models.trust`).
- ``trained``: the policy that ships inside factionsim for the campaign's ruleset
  (:func:`factionsim.models.shipped_policy_path`); a ruleset without one is refused when the
  agent is made. Every ruleset with an env codec offers both (``factionsim.rules.POLICY`` and
  ``TRAINED``).

Both play with numpy alone (no torch, no gymnasium): the faction's view is encoded by its
ruleset's env codec (the descriptor's ``RulesetInfo.codec``, handed to the agent when
``make_agent`` makes it for the ruleset: :meth:`PolicyAgent.for_ruleset`), the network gives a
probability to each legal action, and the agent samples one with the turn's generator (reproducible with the
campaign seed), as in training; ``agent_options: {deterministic: true}`` takes the most probable
action instead (weaker for the bundled policies: argmax play can loop on re-choosing goals).
Each decision's reason (shown in the chronicle and by ``turn --interactive``) is the probability
the policy gave it.

A policy plays only a campaign whose spaces are those it was trained on: the same ruleset and env
version, the same observation size and number of actions (for WWN: the same number of factions
and locations, within the codec limits it was trained with). :meth:`PolicyAgent.check_fits`
raises :class:`CampaignError` saying why and what fits; the commands call it when they make a
campaign's agents (:func:`factionsim.runner.agent_for_campaign`), before anything is played. If a
game later outgrows the codec limits (a faction with more assets than the policy has slots for),
that decision is the heuristic's, and its reason says so.

A policy file with a ``prior`` (a *residual* policy, :mod:`factionsim.models.prior`) also needs
the heuristic's choice at every decision: the agent asks the ruleset's heuristic (default
options) and hands its choice to the network beside the observation.
With ``"candidates": "planner"`` in its prior (an *advantage* policy, ``factionsim train
--method advantage``) it plays the heuristic's choice wherever the planner would not search, and
elsewhere chooses among the planner's candidates only (:class:`factionsim.models.prior.PriorCodec`).
A file with a ``search`` field plays no codec and any campaign of its ruleset: a *value-search*
policy (kind ``afterstate-value``, ``factionsim train --method value``) scores each of the
planner's faction-action candidates' afterstate with its network
(:mod:`factionsim.agents.value_search`), elsewhere the heuristic decides; a *rollout-leaf*
policy (``factionsim train --method leaf``) plays the planner, its rollouts' last states scored
by its network (:mod:`factionsim.agents.leaf_search`); a *tuned-heuristic* policy
(``factionsim train --method tune``) plays the heuristic with the learned shifts of its weights
the file holds (:mod:`factionsim.agents.tuned`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from factionsim.core.game import Agent, CampaignError, FactionsimError, GameState, OptionSpec
from factionsim.core.ruleset import RulesetInfo
from factionsim.envs.codec import Codec


def fit_codec(model: Any, state: GameState, label: str, codec: type[Codec]) -> Codec:
    """The ``codec`` (the ruleset's codec class) through which ``model`` (a
    :class:`factionsim.models.PolicyModel`) plays ``state``; :class:`CampaignError` (``label``
    names the policy) saying why it does not fit and what would."""
    from factionsim.models import campaign_shape

    ruleset = state.ruleset
    trained = model.description.get("trained_on") or {}
    fits = (f"it fits {model.ruleset} campaigns of env version {model.env_version} whose "
            f"observation has {model.obs_size} values and whose catalogue has "
            f"{model.n_actions} actions"
            + (f" (e.g. {trained['shape']}, like {trained.get('campaign', 'its campaign')})"
               if trained.get("shape") else ""))
    if model.ruleset not in (ruleset, "any"):  # any: a zip converted as it loads
        raise CampaignError(f"{label} was trained for the {model.ruleset} ruleset; this is a "
                            f"{ruleset} campaign")
    if model.ruleset != "any" and model.env_version != codec.ENV_VERSION:
        raise CampaignError(f"{label} was trained on {model.ruleset} env version "
                            f"{model.env_version}; this factionsim encodes {ruleset} games with "
                            f"version {codec.ENV_VERSION} (the spaces changed: retrain it with "
                            f"'factionsim train --ruleset {ruleset}', see docs/training.md)")
    try:
        encoder = codec.for_campaign(state, **model.limits)
    except (FactionsimError, ValueError, TypeError) as exc:
        raise CampaignError(f"{label} cannot encode this campaign ({exc}); {fits}") from None
    if (encoder.obs_size, encoder.n_actions) != (model.obs_size, model.n_actions):
        raise CampaignError(
            f"{label} does not fit this campaign: {fits}; this campaign has "
            f"{campaign_shape(state)}, an observation of {encoder.obs_size} values and "
            f"{encoder.n_actions} actions. Train a policy on it (factionsim train --campaign "
            "FILE) or choose another agent")
    return encoder


def _search_for(model: Any, label: str) -> Any:
    """The searcher a policy file's ``search`` field asks for: one-ply search over afterstates
    (``afterstate-value``), the planner's rollouts scored by a learned leaf (``rollout-leaf``)
    or the heuristic with learned weights (``tuned-heuristic``)."""
    if model.search["kind"] == "rollout-leaf":
        from factionsim.agents.leaf_search import LeafSearch

        return LeafSearch(model, label)
    if model.search["kind"] == "tuned-heuristic":
        from factionsim.agents.tuned import TunedHeuristic

        return TunedHeuristic(model, label)
    from factionsim.agents.value_search import ValueSearch

    return ValueSearch(model, label)


class PolicyAgent(Agent):
    """Plays a policy file (:func:`factionsim.models.load_policy`) through the codec of
    ``ruleset`` (its :class:`~factionsim.core.ruleset.RulesetInfo`: ``make_agent`` passes it).

    ``model``: an already-loaded :class:`factionsim.models.PolicyModel` to play instead of the
    file at ``path`` (training evaluates the policy it is learning this way); ``path`` then only
    names it in reasons and errors. ``label``: how reasons name the player (default
    ``policy PATH``)."""

    name = "policy"
    OPTIONS = {"deterministic": OptionSpec(bool, "take the most probable action instead of "
                                                 "sampling one")}

    @classmethod
    def for_ruleset(cls, ruleset: RulesetInfo, **options: Any) -> PolicyAgent:
        return cls(ruleset=ruleset, **options)

    def __init__(self, path: str | None = None, deterministic: bool = False, *,
                 ruleset: RulesetInfo, model: Any = None, label: str | None = None):
        if model is None and (not path or not str(path).strip()):
            raise CampaignError("agent 'policy' needs a policy file: agent: policy:PATH (a "
                                "policy.json written by factionsim train)")
        if not isinstance(deterministic, bool):
            raise CampaignError(f"agent_options.deterministic: {deterministic!r}; allowed: true "
                                "or false")
        if ruleset.codec is None:
            raise CampaignError(f"agent {self.name!r}: the {ruleset.name} ruleset has no "
                                "environment codec for a policy to play through")
        self.ruleset = ruleset
        self.path = str(path)
        self.label = label or f"policy {self.path}"
        self.deterministic = deterministic
        self.last_reason: str | None = None
        # a missing, untrusted or broken file is an error now, not mid-game
        self.model = model if model is not None else self._load()
        self._search: Any = None
        if getattr(self.model, "search", None):  # a search policy: its network scores states
            self._search = _search_for(self.model, self.label)
        self._codec: Codec | None = None
        self._codec_key: tuple[Any, ...] | None = None
        self._fallback: Agent | None = None

    def _load(self) -> Any:
        from factionsim.models import ModelFileError, load_policy

        try:
            return load_policy(self.path)
        except ModelFileError as exc:
            raise CampaignError(f"{self._who()}: {exc}") from None

    def _who(self) -> str:
        """How errors name this agent."""
        return f"agent policy:{self.path}"

    # ------------------------------------------------------------------ fitting a campaign
    def check_fits(self, state: GameState) -> None:
        """:class:`CampaignError` unless the policy can play ``state``'s factions (a
        value-search policy: any campaign of its ruleset, its features do not depend on the
        campaign's size)."""
        if self._search is not None:
            if self.model.ruleset != state.ruleset:
                raise CampaignError(f"{self.label} was trained for the {self.model.ruleset} "
                                    f"ruleset; this is a {state.ruleset} campaign")
            return
        self._codec_for((state.ruleset, tuple(state.factions), state.location_ids()),
                        lambda: state)

    def _codec_for(self, key: tuple[str, tuple[str, ...], tuple[str, ...]],
                   campaign: Callable[[], GameState]) -> Codec:
        """The codec for campaigns of ``key`` (ruleset, factions, places), built from
        ``campaign()`` when the key is new (the campaign checked by :meth:`check_fits`, or
        what a view knows of it)."""
        if self._codec is None or self._codec_key != key:
            if key[0] != self.ruleset.name:
                raise CampaignError(f"agent {self.name!r} was made for {self.ruleset.name} "
                                    f"campaigns; this is a {key[0]} campaign")
            codec = fit_codec(self.model, campaign(), self.label, self.ruleset.codec())
            prior = getattr(self.model, "prior", None)
            if prior:  # a residual policy: the network also reads the heuristic's choice
                from factionsim.models.prior import PriorCodec

                codec = PriorCodec(codec, self.ruleset, prior["agent"], prior["weight"],
                                   prior.get("candidates"))
            self._codec = codec
            self._obs = np.zeros(self._codec.obs_size, dtype=np.float32)
            self._codec_key = key
        return self._codec

    # ------------------------------------------------------------------ playing
    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        if len(legal_actions) == 1:
            self.last_reason = None
            return legal_actions[0]
        if self._search is not None:
            return self._search_act(view, legal_actions, rng)
        codec = self._codec_for((view.ruleset, view.faction_ids, view.location_ids),
                                lambda: view.to_state(np.random.default_rng(0)))
        try:
            indices = self._indices(codec, view, legal_actions)
            obs = codec.observe(view, self._obs)
        except FactionsimError as exc:  # the game outgrew the codec's limits
            return self._heuristic(view, legal_actions, rng, exc)
        playable = [i for i, k in enumerate(indices) if k >= 0]
        prior = getattr(codec, "last_index", None)  # a residual policy: the heuristic's choice
        candidates = getattr(codec, "last_candidates", None)  # an advantage policy's choices
        if candidates is not None:
            allowed = [i for i in playable if indices[i] in candidates]
            if not allowed:  # nothing searched here (or no candidate among the actions offered)
                return self._heuristic_choice(view, legal_actions, indices, prior, rng)
            playable = allowed
        probs = self.model.probabilities(obs, [indices[i] for i in playable])
        pick = int(np.argmax(probs) if self.deterministic else rng.choice(len(playable), p=probs))
        ranked = 1 + int((probs > probs[pick]).sum())
        agrees = "" if prior is None else (
            "; the heuristic's choice" if indices[playable[pick]] == prior
            else "; not the heuristic's choice")
        self.last_reason = (f"{self.label}: {probs[pick]:.0%} for this action (ranked {ranked} "
                            f"of {len(playable)}{agrees})")
        return legal_actions[playable[pick]]

    def _search_act(self, view: Any, legal: list[Any], rng: Any) -> Any:
        """A value-search policy's decision: its search's choice where it searches, the
        heuristic's elsewhere."""
        # (a GM's narrowed plan: the heuristic, unless the searcher plays any list of actions)
        if getattr(self._search, "plays_narrowed", False) \
                or len(view.legal_actions()) == len(legal):
            choice = self._search.choose(view, legal, rng)
            if choice is not None and choice in legal:
                self.last_reason = self._search.last_reason
                return choice
        action = self._fallback_agent().act(view, legal, rng)
        self.last_reason = f"{self.label}: the heuristic's choice (nothing searched here)"
        return action

    def _heuristic_choice(self, view: Any, legal: list[Any], indices: list[int],
                          prior: int | None, rng: Any) -> Any:
        """An advantage policy where it does not choose: the heuristic's choice (the prior's,
        when it is among ``legal``; otherwise the heuristic asked about ``legal`` itself)."""
        if prior is not None and prior in indices:
            self.last_reason = f"{self.label}: the heuristic's choice (nothing searched here)"
            return legal[indices.index(prior)]
        action = self._fallback_agent().act(view, legal, rng)
        self.last_reason = f"{self.label}: the heuristic's choice among the actions offered"
        return action

    def _fallback_agent(self) -> Agent:
        """The ruleset's heuristic (default options), made once; a tuned heuristic's own."""
        if self._search is not None and hasattr(self._search, "agent"):
            return self._search.agent
        if self._fallback is None:
            spec = self.ruleset.offered_agents()["heuristic"]
            self._fallback = spec.load().for_ruleset(self.ruleset)
        return self._fallback

    def _indices(self, codec: Codec, view: Any, legal: list[Any]) -> list[int]:
        """Catalogue index of each of ``legal`` (-1: beyond the catalogue). When ``legal`` is part
        of the decision's actions (a GM asked for another plan), the indices are those the
        actions have among all of them (some blocks number actions by their rank)."""
        full = view.legal_actions()
        if len(full) == len(legal):
            return codec.encode_actions(view, legal)
        encoded = codec.encode_actions(view, full)
        return [encoded[full.index(a)] if a in full else -1 for a in legal]

    def _heuristic(self, view: Any, legal: list[Any], rng: Any, why: Exception) -> Any:
        """The ruleset's heuristic decides what the policy cannot see."""
        action = self._fallback_agent().act(view, legal, rng)
        self.last_reason = f"beyond what {self.label} can see ({why}); the heuristic decided"
        return action


class TrainedAgent(PolicyAgent):
    """``agent: trained``: the policy shipped for the campaign's ruleset (refused, when the agent
    is made, for a ruleset none ships for). A network policy plays its most probable action
    unless ``agent_options: {deterministic: false}`` (the advantage policy shipped before, sampled,
    lost to the heuristic on the bundled campaign where its most probable action was level with
    it; docs/training.md). The WWN policy shipped now is a search policy (the heuristic tuned to
    read the faction's place): it plays under the same label and decides the same either way."""

    name = "trained"
    OPTIONS = {"deterministic": OptionSpec(bool, "take the most probable action (the default: the "
                                                 "shipped policy plays best so); false samples one")}

    def __init__(self, deterministic: bool = True, *, ruleset: RulesetInfo):
        from factionsim.models import shipped_policy_path, shipped_rulesets

        path = shipped_policy_path(ruleset.name)
        if path is None:
            raise CampaignError(
                f"agent 'trained': no trained policy ships for the {ruleset.name} ruleset yet "
                f"(shipped: {', '.join(shipped_rulesets()) or 'none'}); train one with "
                f"'factionsim train --ruleset {ruleset.name}' and play it with "
                "agent: policy:OUT/policy.json")
        super().__init__(str(path), deterministic, ruleset=ruleset,
                         label=f"trained policy ({ruleset.name})")

    def _who(self) -> str:
        return "agent 'trained'"  # its file failing to load: a damaged install
