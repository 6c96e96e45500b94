"""Trained policies as players: ``agent: policy:PATH`` and ``agent: trained``.

- ``policy:PATH``: a policy description written by ``factionsim train`` (``OUT/policy.json``
  and its ``OUT/policy.npz`` weights; ``PATH`` may also be the folder). A relative PATH is read
  from the folder factionsim runs in. A stable-baselines3 ``.zip`` is refused unless the
  command was given ``--trust-model`` (loading one unpickles code, see
  :mod:`factionsim.models.trust`).
- ``trained``: the policy that ships inside factionsim for the campaign's ruleset
  (:func:`factionsim.models.shipped_policy_path`); a ruleset without one is refused.

Both play with numpy alone (no torch, no gymnasium): the faction's view is encoded by its
ruleset's env codec (:func:`factionsim.envs.make_codec`), the network gives a probability to
each legal action, and the agent samples one with the turn's generator (reproducible with the
campaign seed), as in training; ``agent_options: {deterministic: true}`` takes the most probable
action instead (weaker for the bundled policies: argmax play can loop on re-choosing goals).
Each decision's reason (shown in the chronicle and by ``turn --interactive``) is the probability
the policy gave it.

A policy plays only a campaign whose spaces are those it was trained on: the same ruleset and env
version, the same observation size and number of actions (for WWN: the same number of factions
and locations, within the codec limits it was trained with). :meth:`PolicyAgent.check_fits`
raises :class:`CampaignError` saying why and what fits; commands call it before playing. If a
game later outgrows the codec limits (a faction with more assets than the policy has slots for),
that decision is the heuristic's, and its reason says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factionsim.core.game import CampaignError, FactionsimError


def campaign_shape(state: Any) -> str:
    """``"4 factions, 10 locations"``: what sizes a campaign's spaces, in words."""
    parts = [f"{len(state.factions)} factions"]
    locations = getattr(getattr(state, "map", None), "locations", None)
    if locations is not None:
        parts.append(f"{len(locations)} locations")
    return ", ".join(parts)


def fit_codec(model: Any, state: Any, label: str) -> Any:
    """The codec through which ``model`` (a :class:`factionsim.models.PolicyModel`) plays
    ``state``; :class:`CampaignError` (``label`` names the policy) saying why it does not fit and
    what would."""
    from factionsim.envs import ENV_VERSION, make_codec

    ruleset = getattr(state, "ruleset", "wwn")
    trained = model.description.get("trained_on") or {}
    fits = (f"it fits {model.ruleset} campaigns of env version {model.env_version} whose "
            f"observation has {model.obs_size} values and whose catalogue has "
            f"{model.n_actions} actions"
            + (f" (e.g. {trained['shape']}, like {trained.get('campaign', 'its campaign')})"
               if trained.get("shape") else ""))
    if model.ruleset not in (ruleset, "any"):  # any: a zip converted as it loads
        raise CampaignError(f"{label} was trained for the {model.ruleset} ruleset; this is a "
                            f"{ruleset} campaign")
    if model.env_version != ENV_VERSION:
        raise CampaignError(f"{label} was trained on env version {model.env_version}; this "
                            f"factionsim encodes games with version {ENV_VERSION} (the spaces "
                            "changed: retrain it)")
    try:
        codec = make_codec(state, **model.limits)
    except (FactionsimError, ValueError, TypeError) as exc:
        raise CampaignError(f"{label} cannot encode this campaign ({exc}); {fits}") from None
    if (codec.obs_size, codec.n_actions) != (model.obs_size, model.n_actions):
        raise CampaignError(
            f"{label} does not fit this campaign: {fits}; this campaign has "
            f"{campaign_shape(state)}, an observation of {codec.obs_size} values and "
            f"{codec.n_actions} actions. Train a policy on it (factionsim train --campaign "
            "FILE) or choose another agent")
    return codec


class PolicyAgent:
    """Plays a policy file (:func:`factionsim.models.load_policy`) through its ruleset's codec."""

    name = "policy"

    def __init__(self, path: str | None = None, deterministic: bool = False, **options: Any):
        if not path or not str(path).strip():
            raise CampaignError("agent 'policy' needs a policy file: agent: policy:PATH (a "
                                "policy.json written by factionsim train)")
        if not isinstance(deterministic, bool):
            raise CampaignError(f"agent_options.deterministic: {deterministic!r}; allowed: true "
                                "or false")
        self.path = str(path)
        self.label = f"policy {self.path}"
        self.deterministic = deterministic
        self.options = options
        self.last_reason: str | None = None
        self._model: Any = None
        self._codec: Any = None
        self._codec_key: tuple[Any, ...] | None = None
        self._fallback: Any = None
        self.model_for("")  # a missing, untrusted or broken file is an error now, not mid-game

    def model_for(self, ruleset: str) -> Any:
        """The policy (``ruleset``: the campaign's, for agents that pick one per ruleset)."""
        from factionsim.models import ModelFileError, load_policy

        if self._model is None:
            try:
                self._model = load_policy(self.path)
            except ModelFileError as exc:
                raise CampaignError(f"agent policy:{self.path}: {exc}") from None
        return self._model

    # ------------------------------------------------------------------ fitting a campaign
    def check_fits(self, state: Any) -> None:
        """:class:`CampaignError` unless the policy can play ``state``'s factions."""
        self._codec_for(state)

    def _codec_for(self, state: Any) -> Any:
        locations = getattr(getattr(state, "map", None), "locations", ())
        key = (getattr(state, "ruleset", "wwn"), tuple(state.factions), tuple(locations))
        if self._codec_key != key:
            self._codec = self._fit(state)
            self._codec_key = key
        return self._codec

    def _fit(self, state: Any) -> Any:
        codec = fit_codec(self.model_for(getattr(state, "ruleset", "wwn")), state, self.label)
        self._obs = np.zeros(codec.obs_size, dtype=np.float32)
        return codec

    # ------------------------------------------------------------------ playing
    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        if len(legal_actions) == 1:
            self.last_reason = None
            return legal_actions[0]
        state, me = view.state, view.faction_id
        codec = self._codec_for(state)
        try:
            indices = self._indices(codec, state, me, legal_actions)
            obs = codec.observe(state, me, self._obs)
        except FactionsimError as exc:  # the game outgrew the codec's limits
            return self._heuristic(view, legal_actions, rng, exc)
        playable = [i for i, k in enumerate(indices) if k >= 0]
        model = self.model_for(getattr(state, "ruleset", "wwn"))
        probs = model.probabilities(obs, [indices[i] for i in playable])
        pick = int(np.argmax(probs) if self.deterministic else rng.choice(len(playable), p=probs))
        ranked = 1 + int((probs > probs[pick]).sum())
        self.last_reason = (f"{self.label}: {probs[pick]:.0%} for this action (ranked {ranked} "
                            f"of {len(playable)})")
        return legal_actions[playable[pick]]

    def _indices(self, codec: Any, state: Any, me: str, legal: list[Any]) -> list[int]:
        """Catalogue index of each of ``legal`` (-1: beyond the catalogue). When ``legal`` is part
        of the decision's actions (a GM asked for another plan), the indices are those the
        actions have among all of them (some blocks number actions by their rank)."""
        full = state.legal_actions()
        if len(full) == len(legal):
            return codec.encode_actions(state, me, legal)
        encoded = codec.encode_actions(state, me, full)
        return [encoded[full.index(a)] if a in full else -1 for a in legal]

    def _heuristic(self, view: Any, legal: list[Any], rng: Any, why: Exception) -> Any:
        if self._fallback is None:
            from factionsim.agents import make_agent

            self._fallback = make_agent("heuristic")
        action = self._fallback.act(view, legal, rng)
        self.last_reason = f"beyond what {self.label} can see ({why}); the heuristic decided"
        return action


class TrainedAgent(PolicyAgent):
    """``agent: trained``: the policy shipped for the campaign's ruleset."""

    name = "trained"

    def __init__(self, deterministic: bool = False, **options: Any):
        options.pop("path", None)
        super().__init__(path="trained", deterministic=deterministic, **options)
        self._models: dict[str, Any] = {}

    def model_for(self, ruleset: str) -> Any:
        if not ruleset:  # nothing to load before the campaign's ruleset is known
            return None
        if ruleset not in self._models:
            from factionsim.models import ModelFileError, load_policy, shipped_policy_path, shipped_rulesets

            path = shipped_policy_path(ruleset)
            if path is None:
                raise CampaignError(
                    f"agent 'trained': no trained policy ships for the {ruleset} ruleset yet "
                    f"(shipped: {', '.join(shipped_rulesets()) or 'none'}); train one with "
                    f"'factionsim train --ruleset {ruleset}' and play it with "
                    "agent: policy:OUT/policy.json")
            try:
                self._models[ruleset] = load_policy(path)
            except ModelFileError as exc:  # a damaged install
                raise CampaignError(f"agent 'trained': {exc}") from None
            self.label = f"trained policy ({ruleset})"
        return self._models[ruleset]
