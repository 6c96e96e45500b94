"""sb3-contrib's MaskablePPO pieces computing the same values with less work (``factionsim train``).

A WWN learner decision has 2,457 catalogue actions, of which a few dozen are legal, and a
9,855-float observation; sb3-contrib's generic pieces spend most of a learner step on them:

- :class:`MaskedCategorical` is sb3-contrib's ``MaskableCategorical`` with the illegal logits set
  to ``-inf`` instead of ``-1e8`` (``exp`` of a huge negative number takes a slow path on this
  CPU: a masked ``logsumexp`` of a 512 x 2,457 minibatch took 19 ms against 6 ms), an entropy
  that reads the masked logits as 0 (so ``-inf x 0`` makes no NaN, in values or gradients), no
  argument validation (it checked every distribution's logits and samples), and no second
  normalisation of the unmasked logits that the masking then overwrites. Every value and
  gradient that training reads from it is sb3-contrib's bit for bit: ``exp(-1e8 - m)`` and
  ``exp(-inf)`` are both exactly 0 in float32, and a masked action's contribution is replaced
  by an exact 0 in both (``tests/test_sb3_fast.py``). A row with no legal action (never met in
  training: the env masks after its auto-reset) is masked the sb3-contrib way.
- :class:`FastMaskablePolicy` is ``MaskableActorCriticPolicy`` with that distribution (the same
  layers, built in the same order: the same initial weights for a seed) and its action layer
  computed for the batch's legal actions only (``compact_actions``, the default:
  :meth:`FastMaskablePolicy.masked_distribution`; equal up to float rounding, and the
  samples are drawn among fewer actions, so a seed's draws differ from sb3-contrib's).
- :class:`CompactRolloutBuffer` keeps the masks as booleans (a quarter of the float32 bytes),
  keeps its observation and mask arrays from one rollout to the next, and gathers each
  minibatch's observations and masks straight from the ``(step, env)`` arrays (sb3 copied both
  whole arrays once to flatten them and every minibatch twice more); the minibatches are the
  same rows in the same order (the same ``np.random.permutation``).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer, MaskableRolloutBufferSamples
from sb3_contrib.common.maskable.distributions import (
    MaskableCategorical,
    MaskableCategoricalDistribution,
)
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.buffers import RolloutBuffer
from torch import nn
from torch.distributions import Categorical


def any_along(masks: th.Tensor, dim: int) -> th.Tensor:
    """``masks.any(dim)`` of a boolean tensor, about 100x faster (torch reduces booleans slowly;
    their bytes, read as ``uint8``, quickly)."""
    return masks.view(th.uint8).amax(dim=dim).bool()


def has_legal_action(masks: th.Tensor) -> bool:
    """Whether every row of ``masks`` allows some action."""
    return bool(any_along(masks, -1).all())


class MaskedCategorical(MaskableCategorical):
    """``MaskableCategorical`` with ``-inf`` masking, no validation (see the module docstring).

    >>> d = MaskedCategorical(logits=th.tensor([[1.0, 2.0, 3.0]]), masks=np.array([[1, 0, 1]]))
    >>> [round(p, 4) for p in d.probs[0].tolist()], round(float(d.entropy()[0]), 4)
    ([0.1192, 0.0, 0.8808], 0.3653)
    """

    def __init__(self, probs: th.Tensor | None = None, logits: th.Tensor | None = None,
                 validate_args: bool | None = None, masks: Any = None):
        self.masks = None
        Categorical.__init__(self, probs, logits, validate_args=False)
        self._original_logits = self.logits
        if masks is not None:
            self.apply_masking(masks)

    def apply_masking(self, masks: Any) -> None:
        if masks is None:
            return super().apply_masking(None)
        masks = th.as_tensor(masks, dtype=th.bool).reshape(self._original_logits.shape)
        if not has_legal_action(masks):  # a row with no legal action: -inf would give NaN
            return super().apply_masking(masks)
        self.masks = masks
        logits = self._original_logits.masked_fill(~masks, float("-inf"))
        self.__dict__.pop("probs", None)
        Categorical.__init__(self, logits=logits, validate_args=False)

    def entropy(self) -> th.Tensor:
        if self.masks is None:
            return super().entropy()
        return -(self.logits.masked_fill(~self.masks, 0.0) * self.probs).sum(-1)


class MaskedCategoricalDistribution(MaskableCategoricalDistribution):
    """``MaskableCategoricalDistribution`` making :class:`MaskedCategorical` distributions."""

    def proba_distribution(self, action_logits: th.Tensor) -> MaskedCategoricalDistribution:
        self.distribution = MaskedCategorical(logits=action_logits.view(-1, self.action_dim))
        return self


class FastMaskablePolicy(MaskableActorCriticPolicy):
    """sb3-contrib's ``MlpPolicy`` for MaskablePPO with :class:`MaskedCategoricalDistribution`
    and, with ``compact_actions`` (the default), the action layer over the batch's legal
    actions only (see :meth:`masked_distribution`)."""

    def __init__(self, *args: Any, compact_actions: bool = True, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.compact_actions = compact_actions

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "compact_actions": self.compact_actions}

    def _build(self, lr_schedule: Any) -> None:
        if isinstance(self.action_space, spaces.Discrete):
            self.action_dist = MaskedCategoricalDistribution(int(self.action_space.n))
        super()._build(lr_schedule)

    def _latents(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        features = self.extract_features(obs)
        if self.share_features_extractor:
            return self.mlp_extractor(features)
        pi_features, vf_features = features
        return (self.mlp_extractor.forward_actor(pi_features),
                self.mlp_extractor.forward_critic(vf_features))

    def masked_distribution(self, latent_pi: th.Tensor, action_masks: Any
                            ) -> tuple[Any, th.Tensor | None]:
        """The masked action distribution and ``legal``, the catalogue index of each of its
        actions (``None``: all of them, as sb3-contrib computes it).

        With ``compact_actions``, the action layer computes the logits of the actions legal in
        some row of the batch only (``legal``: about 40 of WWN's 2,457 in a batch of 8
        decisions, 340 in a minibatch of 512) and the distribution is taken over them: a
        masked action's probability is exactly 0 either way, so the legal actions' log
        probabilities and the entropy equal sb3-contrib's up to float rounding (their sums are
        taken over fewer terms), and their gradients too (a masked logit's gradient is 0).
        """
        masks = None if action_masks is None else \
            th.as_tensor(action_masks, dtype=th.bool).reshape(len(latent_pi), -1)
        if masks is None or not self.compact_actions or not has_legal_action(masks):
            distribution = self._get_action_dist_from_latent(latent_pi)
            if masks is not None:
                distribution.apply_masking(masks)
            return distribution, None
        legal = any_along(masks, 0).nonzero().squeeze(1)
        net = self.action_net
        logits = nn.functional.linear(latent_pi, net.weight.index_select(0, legal),
                                      net.bias.index_select(0, legal))
        distribution = MaskedCategoricalDistribution(len(legal)).proba_distribution(logits)
        distribution.apply_masking(masks.index_select(1, legal))
        return distribution, legal

    def forward(self, obs: th.Tensor, deterministic: bool = False, action_masks: Any = None
                ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        latent_pi, latent_vf = self._latents(obs)
        values = self.value_net(latent_vf)
        distribution, legal = self.masked_distribution(latent_pi, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        if legal is not None:
            actions = legal[actions]
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob

    def evaluate_actions(self, obs: th.Tensor, actions: th.Tensor, action_masks: Any = None
                         ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        latent_pi, latent_vf = self._latents(obs)
        distribution, legal = self.masked_distribution(latent_pi, action_masks)
        if legal is not None:  # catalogue index -> position among the legal actions
            position = th.full((self.action_dist.action_dim,), -1, dtype=th.long)
            position[legal] = th.arange(len(legal))
            actions = position[actions.long()]
        return self.value_net(latent_vf), distribution.log_prob(actions), distribution.entropy()


class CompactRolloutBuffer(MaskableRolloutBuffer):
    """``MaskableRolloutBuffer`` with boolean masks and minibatches gathered in one copy."""

    def reset(self) -> None:
        if not isinstance(self.action_space, spaces.Discrete):
            return super().reset()
        self.mask_dims = int(self.action_space.n)
        shape = (self.buffer_size, self.n_envs, self.mask_dims)
        if getattr(self, "action_masks", None) is None or self.action_masks.shape != shape:
            self.action_masks = np.ones(shape, dtype=bool)
        kept = getattr(self, "observations", None)
        RolloutBuffer.reset(self)
        if kept is not None and kept.shape == self.observations.shape:
            # every row is written again before it is read: reusing the array spares writing
            # into fresh pages (about 80 MB per WWN rollout)
            self.observations = kept

    def add(self, *args: Any, action_masks: np.ndarray | None = None, **kwargs: Any) -> None:
        if action_masks is None:  # the reused mask array holds the last rollout's
            self.action_masks[self.pos] = True
        super().add(*args, action_masks=action_masks, **kwargs)

    #: the arrays sb3 flattens before the minibatches; observations and masks are read in place
    FLATTENED = ("actions", "values", "log_probs", "advantages", "returns")

    def get(self, batch_size: int | None = None
            ) -> Generator[MaskableRolloutBufferSamples, None, None]:
        assert self.full, ""
        indices = np.random.permutation(self.buffer_size * self.n_envs)  # as sb3-contrib draws
        if not self.generator_ready:
            for name in self.FLATTENED:
                self.__dict__[name] = self.swap_and_flatten(self.__dict__[name])
            self.generator_ready = True
        batch_size = batch_size or self.buffer_size * self.n_envs
        for start in range(0, self.buffer_size * self.n_envs, batch_size):
            yield self._get_samples(indices[start:start + batch_size])

    def _get_samples(self, batch_inds: np.ndarray, env: Any = None
                     ) -> MaskableRolloutBufferSamples:
        # flattened row i is (env i // buffer_size, step i % buffer_size): swap_and_flatten's order
        env_of, step = np.divmod(batch_inds, self.buffer_size)
        return MaskableRolloutBufferSamples(
            th.from_numpy(self.observations[step, env_of]),
            self.to_torch(self.actions[batch_inds]),
            self.to_torch(self.values[batch_inds].flatten()),
            self.to_torch(self.log_probs[batch_inds].flatten()),
            self.to_torch(self.advantages[batch_inds].flatten()),
            self.to_torch(self.returns[batch_inds].flatten()),
            th.from_numpy(self.action_masks[step, env_of]))


class FastMaskablePPO(MaskablePPO):
    """MaskablePPO whose rollouts run torch on one thread, its updates on the threads set.

    A rollout step's forward pass works on 8 decisions: a second thread has nothing to share,
    and waking it for every small operation cost more than it saved (with 2 passive threads a
    learner step took about 1.4x the time of 1 thread on a nearly idle machine, load 1-1.5:
    1,083 against 1,728 learner steps/s, ``benchmark_env.py --train-steps 16384``). A seeded
    run still repeats itself: the thread counts are the same at the same places.
    """

    def collect_rollouts(self, *args: Any, **kwargs: Any) -> bool:
        threads = th.get_num_threads()
        th.set_num_threads(1)
        try:
            return super().collect_rollouts(*args, **kwargs)
        finally:
            th.set_num_threads(threads)
