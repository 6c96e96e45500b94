"""Bundled campaigns and scenarios (package data): each ruleset's descriptor names its own
(``RulesetInfo.default_campaign``).

>>> default_campaign_path("wwn").name
'shattered_march.yaml'
"""

from __future__ import annotations

from pathlib import Path

from factionsim.rulesets import DEFAULT_RULESET, get_ruleset


def default_campaign_path(ruleset: str = DEFAULT_RULESET) -> Path:
    """Path of the bundled default campaign for ``ruleset``."""
    return get_ruleset(ruleset).default_campaign_path()
