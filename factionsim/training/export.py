"""Between torch and the policy file format: a trained MaskablePPO policy as a description plus
named arrays (what ``factionsim train`` writes), and a description back as a torch module.

The actor is read by :func:`factionsim.models.sb3.network_from_sb3` (which layers, and what is
refused); the value head is not exported: playing needs only the actor (resuming training uses
the SB3 checkpoint of the run).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import torch
from torch import nn

from factionsim.models import PolicyModel, campaign_shape, write_policy
from factionsim.models.network import Network
from factionsim.models.sb3 import TORCH_ACTIVATIONS, load_sb3_zip, network_from_sb3

__all__ = ["description", "export_sb3", "load_sb3_zip", "policy_in_memory", "torch_network"]

_TORCH = {name: cls for cls, name in TORCH_ACTIVATIONS.items()}


def description(codec: Any, state: Any, network: dict[str, Any], training: dict[str, Any],
                campaign: str | None = None) -> dict[str, Any]:
    """A policy description (without ``weights``) for a network trained on ``codec``'s spaces."""
    return {"ruleset": state.ruleset, "env_version": codec.ENV_VERSION,
            "spaces": {"observation": int(codec.obs_size), "actions": int(codec.n_actions)},
            "codec": {"limits": dataclasses.asdict(codec.limits)},
            "trained_on": {"campaign": campaign or "the bundled campaign",
                           "shape": campaign_shape(state)},
            "network": network, "training": training}


def export_sb3(model: Any, codec: Any, state: Any, path: str | Path, training: dict[str, Any],
               campaign: str | None = None, dtype: str = "float32") -> PolicyModel:
    """Write a MaskablePPO ``model``'s actor as ``path`` (``.json``) + ``.npz``."""
    network, arrays = network_from_sb3(model.policy)
    return write_policy(path, description(codec, state, network, training, campaign), arrays,
                        dtype=dtype)


def policy_in_memory(model: Any, codec: Any, state: Any) -> PolicyModel:
    """The numpy policy of a MaskablePPO ``model`` now (evaluations during training)."""
    network, arrays = network_from_sb3(model.policy)
    d = description(codec, state, network, {})
    return PolicyModel(d, Network.from_spec(network, arrays, codec.obs_size), "training")


def torch_network(policy: PolicyModel) -> nn.Module:
    """The policy's network as a torch module (float32): the same logits as numpy's forward pass,
    for tests and for training methods that start from a saved policy. A chain of dense layers
    is an ``nn.Sequential``; any other network (the set layers of ``--method league``) is its
    :class:`~factionsim.training.graph.TorchGraph`, with the weights read from the policy's
    ``.npz``."""
    if any(type(layer).__name__ != "Dense" for layer in policy.network.layers) \
            or any(name is not None for name in policy.network.names):
        from factionsim.models.files import read_arrays

        from .graph import TorchGraph

        d, source = policy.description, Path(policy.source)
        arrays = read_arrays(source.parent / d["weights"]["file"], d["weights"]["sha256"],
                             source)
        return TorchGraph(d["network"], arrays, policy.in_size)
    modules: list[nn.Module] = []
    for layer in policy.network.layers:
        linear = nn.Linear(layer.weight.shape[1], layer.weight.shape[0],
                           bias=layer.bias is not None)
        with torch.no_grad():
            linear.weight.copy_(torch.as_tensor(layer.weight, dtype=torch.float32))
            if layer.bias is not None:
                linear.bias.copy_(torch.as_tensor(layer.bias, dtype=torch.float32))
        modules.append(linear)
        if layer.activation:
            modules.append(_TORCH[layer.activation]())
    return nn.Sequential(*modules)
