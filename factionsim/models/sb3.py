"""Reading a stable-baselines3 policy into the policy file's numpy network (torch and
sb3-contrib, the ``rl`` extra; imported only when a trusted zip loads, or by training).

The actor of an sb3-contrib ``MaskableActorCriticPolicy`` is: the features extractor (SB3's
``FlattenExtractor``, or our shared :class:`factionsim.envs.features.LinearTrunk`), then the
policy half of the ``MlpExtractor`` (``Linear`` + activation per ``net_arch`` entry), then
``action_net`` (``Linear`` to one logit per action). :func:`network_from_sb3` writes exactly
that as ``dense`` layers (see :mod:`factionsim.models.network`); anything else is refused with
:class:`UnsupportedPolicy` rather than guessed. The value head is not read: playing needs only
the actor.

:func:`load_sb3_zip` UNPICKLES a zip (it may run code): :func:`factionsim.models.load_policy`
calls it only when the command was given ``--trust-model``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from .files import PolicyModel, check_description
from .network import ModelFileError, Network

#: torch activation module -> its name in a description
TORCH_ACTIVATIONS = {nn.ReLU: "relu", nn.Tanh: "tanh"}


class UnsupportedPolicy(ModelFileError):
    """A stable-baselines3 policy whose actor is not a plain sequence of Linear layers."""


def _sequential(module: nn.Module, where: str, layers: list[dict], arrays: dict) -> None:
    """Append ``module``'s Linear layers (each with the activation that follows it)."""
    for child in module.children() if isinstance(module, nn.Sequential) else [module]:
        if isinstance(child, nn.Sequential):
            _sequential(child, where, layers, arrays)
        elif isinstance(child, nn.Linear):
            name = f"layer{len(layers)}"
            arrays[f"{name}.weight"] = child.weight.detach().cpu().numpy().copy()
            bias = None
            if child.bias is not None:
                bias = f"{name}.bias"
                arrays[bias] = child.bias.detach().cpu().numpy().copy()
            layers.append({"type": "dense", "weight": f"{name}.weight", "bias": bias,
                           "activation": None})
        elif type(child) in TORCH_ACTIVATIONS and layers and layers[-1]["activation"] is None:
            layers[-1]["activation"] = TORCH_ACTIVATIONS[type(child)]
        elif not isinstance(child, nn.Flatten | nn.Identity):
            raise UnsupportedPolicy(f"{where}: cannot export a {type(child).__name__} layer "
                                    "(only Linear layers with ReLU or Tanh)")


def network_from_sb3(policy: Any) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``(network description, arrays)`` of the actor of a MaskablePPO ``policy``."""
    from stable_baselines3.common.torch_layers import FlattenExtractor, MlpExtractor

    from factionsim.envs.features import LinearTrunk

    space = policy.observation_space
    if getattr(space, "shape", None) is None or len(space.shape) != 1:
        raise UnsupportedPolicy(f"observation space {space}: only flat vectors are supported")
    extractor = getattr(policy, "pi_features_extractor", policy.features_extractor)
    layers: list[dict[str, Any]] = []
    arrays: dict[str, np.ndarray] = {}
    if isinstance(extractor, LinearTrunk):
        _sequential(extractor.layer, "features extractor", layers, arrays)
    elif not isinstance(extractor, FlattenExtractor):
        raise UnsupportedPolicy(f"features extractor {type(extractor).__name__}: only SB3's "
                                "FlattenExtractor and factionsim's LinearTrunk are supported")
    if type(policy.mlp_extractor) is not MlpExtractor:
        raise UnsupportedPolicy(f"{type(policy.mlp_extractor).__name__}: only SB3's "
                                "MlpExtractor is supported")
    _sequential(policy.mlp_extractor.policy_net, "policy net", layers, arrays)
    _sequential(policy.action_net, "action net", layers, arrays)
    network = {"input": "observation",
               "output": "one logit per action of the catalogue",
               "masking": "illegal actions get probability 0; softmax over the legal ones",
               "layers": layers}
    return network, arrays


def load_sb3_zip(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray], tuple[int, int]]:
    """``(network, arrays, (observation size, actions))`` of a stable-baselines3 MaskablePPO zip.
    UNPICKLES the file: callers check trust first (:func:`factionsim.models.load_policy`)."""
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except Exception as exc:  # a foreign file: whatever it raises, say which file
        raise ModelFileError(f"{path}: not a MaskablePPO model stable-baselines3 can load "
                             f"({type(exc).__name__}: {exc})") from None
    network, arrays = network_from_sb3(model.policy)
    return network, arrays, (int(model.observation_space.shape[0]), int(model.action_space.n))


def policy_from_sb3_zip(path: str | Path) -> PolicyModel:
    """A stable-baselines3 zip as a numpy policy (UNPICKLES it, see :func:`load_sb3_zip`). It
    fits any ruleset whose spaces match (``ruleset: any``)."""
    network, arrays, (n_obs, n_actions) = load_sb3_zip(path)
    # ruleset "any": its env version is unknown (1 is a placeholder); it plays where its sizes fit
    d = {"format": "factionsim-policy", "format_version": 1, "ruleset": "any",
         "env_version": 1, "spaces": {"observation": n_obs, "actions": n_actions},
         "codec": {"limits": {}}, "network": network,
         "weights": {"file": "converted.npz", "sha256": ""},
         "training": {"converted_from": str(path)}}
    check_description(d, path)
    net = Network.from_spec(network, arrays, n_obs, where=f"{path}: network")
    return PolicyModel(d, net, str(path))
