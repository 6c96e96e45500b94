"""Builders for small engagements situations, and a driver that applies actions by text."""

from __future__ import annotations

from typing import Any

from wwn_helpers import ScriptedRng  # noqa: F401  (re-exported: fixed dice)

from factionsim.rules.engagements.actions import parse_action
from factionsim.rules.engagements.state import EngagementsState


def pillar(name: str, c: int, d: int, **kw: Any) -> dict[str, Any]:
    return {"name": name, "competence": c, "defense": d, **kw}


def faction(fid: str, *pillars: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"id": fid, "name": fid.title(), "agent": "idle", "pillars": list(pillars), **kw}


def make_state(*factions: dict[str, Any], rng: Any = None, **extra: Any) -> EngagementsState:
    """A state from plain data (validated as a scenario file would be); ``rng`` replaces the dice."""
    from factionsim.rules.engagements.validate import validate

    data = validate({"ruleset": "engagements", "name": "test", "seed": 1, "turn": 0,
                     "factions": list(factions), **extra}, "test", {})
    s = EngagementsState.from_dict(data)
    if rng is not None:
        s.rng = rng
    return s


def pid(state: EngagementsState, name: str) -> str:
    """The id of the standing pillar called ``name``."""
    return next(p.id for p in state.pillars.values() if p.name == name)


def texts(state: EngagementsState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def drive(state: EngagementsState, *steps: str) -> list[Any]:
    """Apply each action text (pillar names in ``{braces}`` become ids) for whoever decides."""
    events: list[Any] = []
    for text in steps:
        for p in list(state.pillars.values()):
            text = text.replace("{" + p.name + "}", p.id)
        state.current_actor()
        events.extend(state.advance())
        events.extend(state.apply(parse_action(text)))
    return events


def kinds(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [{"faction": e.faction, **e.data} for e in events if e.kind == kind]
