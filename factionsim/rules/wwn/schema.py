"""A JSON Schema (draft 2020-12) of the WWN campaign format, for editors.

Point an editor at it (VS Code's YAML extension: ``# yaml-language-server: $schema=wwn.schema.json``
as the first line of a campaign) and it validates and completes fields, asset ids, tags, goals
and agents. The schema checks shapes and names; ``factionsim validate`` checks the rest (ids
that refer to each other, HP limits, tag rules).

>>> s = campaign_schema(["heuristic", "policy:PATH", "random"])
>>> s["$schema"], "infantry" in s["$defs"]["standardAssetType"]["enum"]
('https://json-schema.org/draft/2020-12/schema', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factionsim.core.calendar import calendar_schema

from . import homebrew, homebrew_goals, homebrew_tags, house_rules
from .data import ASSET_TYPES, ASSETS, MAGIC_LEVELS, RELATIONS
from .validate import GOALS, TAGS

SLUG_PATTERN = "^[a-z0-9][a-z0-9-]*$"


def campaign_schema(agents: Sequence[str],
                    agent_options: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The schema as a dict (deterministic); ``agents``: the agents WWN offers, as campaign
    files name them (``policy:PATH`` for one that takes an argument); ``agent_options``: the
    conditions that give each agent's options (see
    :func:`factionsim.core.ruleset.agent_options_schema`)."""
    slug = {"type": "string", "pattern": SLUG_PATTERN}
    count = {"type": "integer", "minimum": 0}
    asset_descriptions = "; ".join(f"{k}: {t.name} ({t.attribute} {t.rating}, cost {t.cost})"
                                   for k, t in ASSETS.items())
    goal = {
        "type": "object", "additionalProperties": False, "required": ["id"],
        "properties": {
            "id": {"$ref": "#/$defs/goalId"},
            "target": {"type": "string", "description": "an asset id, faction@location, an "
                       "attribute, or empty"},
            "progress": count, "needed": count, "started": count,
            "difficulty": {"type": ["integer", "null"], "minimum": 0},
            "contested": {"type": "boolean"},
            "baseline": {"type": "array", "items": {"type": "string"}},
        },
    }
    asset = {
        "type": "object", "additionalProperties": False, "required": ["type", "location"],
        "properties": {
            "type": {"$ref": "#/$defs/assetType"},
            "location": {**slug, "description": "a location id"},
            "id": {"type": "integer", "minimum": 1, "description": "unique number (type#id)"},
            "hp": {"type": "integer", "minimum": 1},
            "max_hp": {"type": "integer", "minimum": 1,
                       "description": "bases of influence only"},
            "stealth": {"type": "boolean"}, "exposed": {"type": "boolean"},
            "status": {"type": "object"},
        },
    }
    rating = {"type": "integer", "minimum": 1, "maximum": 8}
    faction = {
        "type": "object", "additionalProperties": False,
        "required": ["id", "force", "cunning", "wealth", "headquarters"],
        "properties": {
            "id": slug, "name": {"type": "string", "minLength": 1},
            "force": rating, "cunning": rating, "wealth": rating,
            "magic": {"enum": list(MAGIC_LEVELS)},
            "treasure": count, "hp": count, "xp": count,
            "tags": {"type": "array", "uniqueItems": True, "items": {"$ref": "#/$defs/tagId"}},
            "goal": {"oneOf": [{"$ref": "#/$defs/goalId"}, goal, {"type": "null"}]},
            "agent": {"anyOf": [{"enum": [a for a in agents if ":" not in a]},
                                *({"type": "string", "pattern": f"^{a.split(':')[0]}:.+"}
                                  for a in agents if ":" in a)],
                      "description": "who plays it: " + ", ".join(agents)},
            "agent_options": {"type": "object"},
            "headquarters": {**slug, "description": "a location id"},
            "assets": {"type": ["array", "null"], "items": asset},
            "paralysed": {"type": "boolean"}, "alive": {"type": "boolean"},
            "headquarters_lost": {"type": "boolean", "description": "its headquarters Base was "
                                  "destroyed (it is not rebuilt)"},
            "xp_earned": count, "goals_completed": count, "wealth_at_last_kingdoms": count,
        },
        **({"allOf": list(agent_options)} if agent_options else {}),
    }
    location = {
        "type": "object", "additionalProperties": False, "required": ["id"],
        "properties": {
            "id": slug, "name": {"type": "string", "minLength": 1},
            "neighbors": {"type": "array", "uniqueItems": True, "items": slug},
            "coastal": {"type": "boolean"},
            "ruler": {"anyOf": [slug, {"type": "null"}], "description": "a faction id"},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://factionsim.invalid/schema/wwn-campaign.json",
        "title": "factionsim campaign (Worlds Without Number)",
        "description": "A WWN faction campaign file; see docs/campaign-format.md.",
        "type": "object",
        "required": ["ruleset", "locations", "factions"],
        "properties": {
            "ruleset": {"const": "wwn"},
            "name": {"type": "string"},
            "notes": {"type": "string", "description": "the GM's notes, kept on every save"},
            "seed": {"type": ["integer", "null"]},
            "turn": count,
            "max_turns": {"type": ["integer", "null"], "minimum": 1},
            house_rules.BLOCK: house_rules.schema(),
            homebrew.BLOCK: {"type": "array", "maxItems": homebrew.MAX_TYPES,
                             "description": "the campaign's own asset types",
                             "items": homebrew.schema()},
            homebrew_tags.BLOCK: {"type": "array", "maxItems": homebrew_tags.MAX_TAGS,
                                  "description": "the campaign's own faction tags",
                                  "items": homebrew_tags.schema()},
            homebrew_goals.BLOCK: {"type": "array", "maxItems": homebrew_goals.MAX_GOALS,
                                   "description": "the campaign's own goals",
                                   "items": homebrew_goals.schema(GOALS)},
            "locations": {"type": "array", "minItems": 1, "items": location},
            "relations": {"type": ["array", "null"], "items": {
                "type": "array", "prefixItems": [slug, slug, {"enum": list(RELATIONS)}],
                "minItems": 3, "maxItems": 3}},
            "factions": {"type": "array", "minItems": 1, "items": faction},
            "next_asset": {"type": "integer", "minimum": 1},
            "in_progress": {"type": "object", "required": ["phase", "actor", "order",
                                                           "order_index", "initiative", "ctx"]},
            "rng": {"type": "object", "properties": {"bit_generator": {"const": "PCG64"}},
                    "required": ["bit_generator", "state"]},
            "useful_idiots_sacrificed": {"type": "object",
                                         "additionalProperties": {"type": "integer"}},
            "calendar": calendar_schema(),
            "foundry": {"type": "object", "description": "written by 'factionsim foundry "
                        "import': the Foundry VTT actors the factions came from (docs/foundry.md)"},
        },
        "additionalProperties": False,
        # without an asset_types (tag_types, goal_types) block, an asset's type (a tag, a goal)
        # must be a standard one: a typo is caught
        "allOf": [
            {"if": {"not": {"required": [homebrew.BLOCK]}},
             "then": {"properties": {"factions": {"items": {"properties": {"assets": {"items": {
                 "properties": {"type": {"$ref": "#/$defs/standardAssetType"}}}}}}}}}},
            {"if": {"not": {"required": [homebrew_tags.BLOCK]}},
             "then": {"properties": {"factions": {"items": {"properties": {"tags": {
                 "items": {"enum": list(TAGS)}}}}}}}},
            {"if": {"not": {"required": [homebrew_goals.BLOCK]}},
             "then": {"properties": {"factions": {"items": {"properties": {"goal": {"anyOf": [
                 {"enum": [*GOALS, None]},
                 {"type": "object", "properties": {"id": {"enum": list(GOALS)}}}]}}}}}}},
        ],
        "$defs": {
            "assetType": {"anyOf": [{"$ref": "#/$defs/standardAssetType"}, {
                **slug, "description": "the id of one of the campaign's asset_types"}],
                "description": asset_descriptions},
            "standardAssetType": {"enum": list(ASSET_TYPES)},
            "goalId": {"anyOf": [{"enum": list(GOALS)}, {
                **slug, "description": "the id of one of the campaign's goal_types"}]},
            "tagId": {"anyOf": [{"enum": list(TAGS)}, {
                **slug, "description": "the id of one of the campaign's tag_types"}]},
        },
    }

