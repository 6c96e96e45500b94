"""Trained policies as data: the file format, a numpy forward pass, and the policies that ship.

- :func:`load_policy` reads what ``agent: policy:PATH`` names: a policy description
  (``PATH.json``, or a folder holding ``policy.json``) and its ``.npz`` weights
  (:mod:`factionsim.models.files`), played with numpy alone (:mod:`factionsim.models.network`).
  Any other file is taken for a stable-baselines3 ``.zip``, which loads only when the GM passed
  ``--trust-model`` (:mod:`factionsim.models.trust`): unpickling it could run code.
- :func:`shipped_policy_path` finds the policy that ships with factionsim for a ruleset
  (``agent: trained``): ``factionsim/models/shipped/<ruleset>.json``; a ruleset without one
  gets a clear error.

>>> sorted(shipped_rulesets())
['wwn']
>>> load_policy(shipped_policy_path("wwn")).ruleset
'wwn'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .files import FORMAT, FORMAT_VERSION, PolicyModel, read_policy, write_policy
from .network import ModelFileError, Network, masked_softmax
from .trust import carry_trust, pickled_models_trusted, trusting_pickled_models

SHIPPED = Path(__file__).resolve().parent / "shipped"
#: The description file a policy folder holds (``policy:runs/wwn`` = ``runs/wwn/policy.json``).
FOLDER_DESCRIPTION = "policy.json"

_CACHE: dict[tuple[Any, ...], PolicyModel] = {}


class UntrustedModelError(ModelFileError):
    """A pickled model named without ``--trust-model``."""


def untrusted_message(path: Any) -> str:
    return (f"{path} is not a factionsim policy description (.json) but a pickled model (a "
            "stable-baselines3 .zip): loading it runs Python code stored in the file, which "
            "could do anything on this computer, so factionsim never loads one because a "
            "campaign names it. Play a policy description instead (factionsim train writes "
            "OUT/policy.json), convert a zip you trust once with 'factionsim train --convert "
            "ZIP --trust-model --out DIR', or, if you trust this file, add --trust-model to "
            "the command")


def campaign_shape(state: Any) -> str:
    """``"4 factions, 10 locations"``: what sizes a campaign's spaces, in words (a policy file's
    ``trained_on.shape``, and the messages of a policy that does not fit)."""
    parts = [f"{len(state.factions)} factions"]
    locations = state.location_ids()
    if locations:
        parts.append(f"{len(locations)} locations")
    return ", ".join(parts)


def shipped_policy_path(ruleset: str) -> Path | None:
    """The description of the policy that ships for ``ruleset`` (``None``: none ships)."""
    path = SHIPPED / f"{ruleset}.json"
    return path if path.is_file() else None


def shipped_rulesets() -> list[str]:
    return sorted(p.stem for p in SHIPPED.glob("*.json"))


def _key(kind: str, path: Path) -> tuple[Any, ...]:
    st = path.stat()
    return (kind, str(path.resolve()), st.st_mtime_ns, st.st_size)


def load_policy(ref: str | os.PathLike[str]) -> PolicyModel:
    """The policy at ``ref`` (read once per process while the file is unchanged).

    ``ref``: a ``.json`` description, a folder with ``policy.json``, or (with
    :func:`trusting_pickled_models` only) a stable-baselines3 zip, converted to the same
    numpy network. Raises :class:`ModelFileError` (:class:`UntrustedModelError` for a pickled
    model without trust) naming the file and the problem."""
    path = Path(ref)
    if path.is_dir():
        path = path / FOLDER_DESCRIPTION
    if path.suffix.lower() == ".json":
        if not path.is_file():
            raise ModelFileError(f"{ref}: no policy description at this path")
        key = _key("json", path)
        if key not in _CACHE:
            _CACHE[key] = read_policy(path)
        return _CACHE[key]
    if not path.is_file() and path.with_suffix(".zip").is_file():
        path = path.with_suffix(".zip")  # stable-baselines3 appends .zip
    if not path.is_file():
        raise ModelFileError(f"{ref}: no saved model at this path")
    if not pickled_models_trusted():  # checked before the cache: trust is per command
        raise UntrustedModelError(untrusted_message(ref))
    key = _key("sb3", path)
    if key not in _CACHE:
        try:
            from .sb3 import policy_from_sb3_zip
        except ImportError as exc:
            raise ModelFileError(f"{ref}: loading a stable-baselines3 zip needs the rl extra "
                                 f"(pip install 'factionsim[rl]'): {exc}") from None
        _CACHE[key] = policy_from_sb3_zip(path)
    return _CACHE[key]


__all__ = ["FORMAT", "FORMAT_VERSION", "ModelFileError", "Network", "PolicyModel",
           "UntrustedModelError", "campaign_shape", "carry_trust", "load_policy", "masked_softmax",
           "pickled_models_trusted", "read_policy", "shipped_policy_path", "shipped_rulesets",
           "trusting_pickled_models", "write_policy"]
