"""Bundled campaigns and scenarios (package data).

>>> default_campaign_path("wwn").name
'shattered_march.yaml'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: The bundled default campaign of each ruleset.
DEFAULT_CAMPAIGNS = {"wwn": "shattered_march.yaml"}
DEFAULT_CAMPAIGNS["houses"] = "banteave_succession.yaml"
DEFAULT_CAMPAIGNS["engagements"] = "ashen_thrones.yaml"
DEFAULT_CAMPAIGNS["conflict"] = "conflict_bridge.yaml"


def default_campaign_path(ruleset: str = "wwn") -> Path:
    """Path of the bundled default campaign for ``ruleset``."""
    try:
        name = DEFAULT_CAMPAIGNS[ruleset]
    except KeyError:
        raise ValueError(
            f"no bundled campaign for ruleset {ruleset!r}; available: {', '.join(DEFAULT_CAMPAIGNS)}"
        ) from None
    return Path(str(resources.files(__package__).joinpath(name)))
