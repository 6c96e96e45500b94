"""A trained policy as a player: ``agent: policy:PATH`` in a campaign file.

PATH is a MaskablePPO model saved by ``experiments/train_wwn_ppo.py`` (``factionsim train``).
torch and sb3-contrib are imported only when the agent is built. The policy sees what the
faction sees (the env codec's observation of ``view``) and samples a legal action from the
policy's distribution with the agent's generator (reproducible with the campaign seed), as in
training; ``agent_options: {deterministic: true}`` takes the most probable action instead (much
weaker for the bundled policies: argmax play can loop on re-choosing goals).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from factionsim.core.game import Agent, CampaignError, OptionSpec

_MODELS: dict[str, Any] = {}


def load_model(path: str | Path) -> Any:
    """Load (once per process) a saved MaskablePPO model."""
    key = str(Path(path).resolve())
    if key not in _MODELS:
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise CampaignError("agent 'policy' needs the rl extra: pip install "
                                "'factionsim[rl]'") from exc
        p = Path(path)
        if not p.exists() and not p.with_suffix(".zip").exists():
            raise CampaignError(f"agent policy:{path}: no saved model at {path}")
        _MODELS[key] = MaskablePPO.load(str(p), device="cpu")
    return _MODELS[key]


class PolicyAgent(Agent):
    """Plays a saved MaskablePPO model over the env codec of the faction's ruleset."""

    name = "policy"
    OPTIONS = {"deterministic": OptionSpec(bool, "take the most probable action instead of "
                                                 "sampling one")}

    def __init__(self, path: str | None = None, deterministic: bool = False, **options: Any):
        if not path:
            raise CampaignError("agent 'policy' needs a model path: agent: policy:PATH")
        self.path = path
        self.deterministic = deterministic
        self.options = options
        self.model = load_model(path)
        self._codec: Any = None
        self._codec_key: tuple[Any, ...] | None = None

    def _codec_for(self, state: Any) -> Any:
        key = (tuple(state.factions), tuple(state.map.locations))
        if self._codec_key != key:
            from factionsim.envs.wwn_codec import WwnCodec

            self._codec = WwnCodec(state)
            want = self.model.observation_space.shape
            if (self._codec.obs_size,) != tuple(want):
                raise CampaignError(f"policy {self.path} was trained for observations of shape "
                                    f"{tuple(want)}, this campaign gives ({self._codec.obs_size},)"
                                    " (a different number of factions or locations)")
            self._codec_key = key
        return self._codec

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        state, me = view.state, view.faction_id
        codec = self._codec_for(state)
        obs = codec.observe(state, me, np.zeros(codec.obs_size, dtype=np.float32))
        indices = codec.encode_actions(state, me, legal_actions)
        mask = np.zeros(codec.n_actions, dtype=bool)
        mask[[i for i in indices if i >= 0]] = True
        if self.deterministic:
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            return legal_actions[indices.index(int(action))]
        import torch

        with torch.no_grad():
            obs_t, _ = self.model.policy.obs_to_tensor(obs)
            dist = self.model.policy.get_distribution(obs_t, action_masks=mask[None])
            probs = dist.distribution.probs[0].numpy()[indices].astype(float)
        probs /= probs.sum()
        return legal_actions[int(rng.choice(len(legal_actions), p=probs))]
