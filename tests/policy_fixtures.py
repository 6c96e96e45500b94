"""A small, untrained policy file for the WWN env's current spaces (tests of ``agent: trained``
and ``policy:PATH`` while the shipped policy was trained on an older env version).

:func:`fitting_shipped_folder` gives a folder that can stand in for
``factionsim/models/shipped`` (``factionsim.models.SHIPPED``): the real shipped policy when it
fits the current env version, otherwise a random-weight policy written for these spaces.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np


def write_untrained_policy(path: Path, ruleset: str = "wwn", hidden: int = 16,
                           seed: int = 0) -> Path:
    """Write ``path`` (``.json``) + ``.npz``: a two-layer policy with random weights for the
    bundled campaign of ``ruleset`` in the current env version; returns ``path``."""
    from factionsim import load_campaign
    from factionsim.configs import default_campaign_path
    from factionsim.envs import make_codec
    from factionsim.models import campaign_shape, write_policy

    state = load_campaign(default_campaign_path(ruleset))
    codec = make_codec(state)
    rng = np.random.default_rng(seed)
    arrays = {"w0": rng.normal(0, 0.1, (hidden, codec.obs_size)), "b0": np.zeros(hidden),
              "w1": rng.normal(0, 0.1, (codec.n_actions, hidden)), "b1": np.zeros(codec.n_actions)}
    description = {
        "ruleset": ruleset, "env_version": codec.ENV_VERSION,
        "spaces": {"observation": codec.obs_size, "actions": codec.n_actions},
        "codec": {"limits": dataclasses.asdict(codec.limits)},
        "trained_on": {"campaign": "the bundled campaign", "shape": campaign_shape(state)},
        "network": {"layers": [
            {"type": "dense", "weight": "w0", "bias": "b0", "activation": "relu"},
            {"type": "dense", "weight": "w1", "bias": "b1", "activation": None}]},
        "training": {"command": "factionsim train (none: random weights, a test fixture)"}}
    write_policy(path, description, arrays)
    return path


def shipped_fits(ruleset: str = "wwn") -> bool:
    """Whether the policy shipped for ``ruleset`` was trained on the current env version."""
    from factionsim.envs import env_version
    from factionsim.models import shipped_policy_path

    path = shipped_policy_path(ruleset)
    return path is not None and \
        json.loads(path.read_text(encoding="utf-8"))["env_version"] == env_version(ruleset)


def fitting_shipped_folder(folder: Path) -> Path:
    """The shipped policies' folder if the WWN one fits the current env version, otherwise
    ``folder`` with an untrained ``wwn.json`` written into it."""
    from factionsim.models import SHIPPED

    if shipped_fits("wwn"):
        return SHIPPED
    write_untrained_policy(folder / "wwn.json")
    return folder


def play_with_torch_blocked(policy: Path, make_state: str, imports: str = "") -> str:
    """Play two turns of a campaign with the policy in every seat, in a fresh interpreter where
    ``import torch`` fails; its standard output (``played TURN FACTIONS``). ``make_state`` is
    the Python expression that builds the game (after ``imports``)."""
    code = ("import sys\nsys.modules['torch'] = None\n"
            "from factionsim.agents import make_agent\n"
            "from factionsim.runner import CampaignTemplate, play\n" + imports +
            f"agent = make_agent('policy:{policy}', 'wwn')\n"
            f"state = {make_state}\n"
            "agent.check_fits(state)\nplay(state, 2, {f: agent for f in state.factions})\n"
            "print('played', state.turn, len(state.factions))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def searched_decisions(n: int, seed: int = 3, actions_only: bool = False):
    """``(state, view, legal)`` of the first ``n`` decisions of a heuristic game on the bundled
    campaign where the planner would search (``actions_only``: only its faction actions, not
    the goals it would give up). A view reads the live game: use it at once, the game goes on."""
    from factionsim import load_campaign
    from factionsim.agents import make_agent
    from factionsim.agents.planner import PlannerAgent
    from factionsim.configs import default_campaign_path
    from factionsim.rules.wwn import turn as T

    s = load_campaign(default_campaign_path())
    heuristic, planner = make_agent("heuristic", "wwn"), PlannerAgent()
    rng = np.random.default_rng(seed)
    seen = 0
    while seen < n and not s.is_over():
        actor, legal = s.current_actor(), s.legal_actions()
        view = s.view(actor)
        if (view.phase == T.ACTION or not actions_only) and planner.searches(view, legal):
            seen += 1
            yield s, view, legal
        s.apply(heuristic.act(view, legal, rng))
