"""What a ruleset declares about itself: one :class:`RulesetInfo` per ruleset, and the agents it
offers (:class:`AgentSpec`; each agent class declares its options, ``Agent.OPTIONS``).

Each ruleset package builds its descriptor in its ``__init__.py`` (``RULESET = RulesetInfo(...)``)
and :mod:`factionsim.rulesets` lists them all: the CLI, the environment, tournaments, batches,
reports and the chronicle look rulesets up there, never by a name convention. This module
imports no ruleset.

>>> from factionsim.core.game import Agent
>>> class Planner(Agent):
...     OPTIONS = {"budget": OptionSpec(int, "rollouts per decision", minimum=1)}
>>> spec = AgentSpec("planner", "looks ahead", load=lambda: Planner)
>>> agent_problem("planer", {}, {"planner": spec}, "wwn")
(('agent',), "unknown agent 'planer' (did you mean 'planner'?); the wwn ruleset offers: planner")
>>> agent_problem("planner", {"budget": 0}, {"planner": spec}, "wwn")
(('agent_options', 'budget'), "agent 'planner' option 'budget' must be a whole number of at least 1, not 0")
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from factionsim.core.behaviour import BehaviourSpec
from factionsim.core.forecasting import Forecasting
from factionsim.core.game import ActionTable, Agent, Event, GameState, OptionSpec
from factionsim.core.names import Names
from factionsim.core.presentation import Presentation
from factionsim.core.records import NOTE, RecordSpec
from factionsim.core.rumours import RumourBook
from factionsim.core.visibility import NOTHING_HIDDEN, Visibility

__all__ = ["DEFAULT_AGENT", "DEFAULT_RULESET", "AgentSpec", "OptionSpec", "RulesetInfo",
           "agent_options_schema", "agent_problem", "option_schema"]

#: The ruleset of the campaign played when none is named (``factionsim run`` with no file).
DEFAULT_RULESET = "wwn"

#: The agent that plays a faction whose campaign entry names none.
DEFAULT_AGENT = "heuristic"

@dataclass(frozen=True)
class AgentSpec:
    """An agent a ruleset offers: its name in campaign files, a one-line summary, and ``load()``,
    which imports its implementation (lazily: a GM's run never imports what it does not play)
    and returns its class, an :class:`Agent` called with the options (``OPTIONS`` says which).

    ``argument`` names the option a ``name:VALUE`` form fills (``policy:PATH`` -> ``path``); an
    agent with an argument needs it."""

    name: str
    summary: str
    load: Callable[[], type[Agent]]
    argument: str | None = None

    @property
    def usage(self) -> str:
        """How a campaign file names it (``policy:PATH`` for an agent with an argument)."""
        return f"{self.name}:{self.argument.upper()}" if self.argument else self.name


def _close(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def agent_problem(name: Any, options: Any, offered: Mapping[str, AgentSpec],
                  ruleset: str, factions: Sequence[str] | None = None,
                  own: str | None = None) -> tuple[tuple[str, ...], str] | None:
    """What is wrong with the agent ``name`` and its ``options`` for a ruleset that offers
    ``offered``: ``(field, message)``, the field within the faction's entry (``("agent",)``,
    ``("agent_options", key)``...), or ``None``. Unknown names and option keys are errors, with
    a suggestion. Given the campaign's ``factions`` (ids) and the faction's ``own`` id, an option
    that names a faction (``OptionSpec.refers == "faction"``) must name another one of them."""
    usages = ", ".join(sorted(spec.usage for spec in offered.values()))
    if not isinstance(name, str) or not name.strip():
        return ("agent",), f"must be an agent name; the {ruleset} ruleset offers: {usages}"
    key, has_arg, arg = name.partition(":")
    spec = offered.get(key)
    if spec is None:
        return ("agent",), (f"unknown agent {name!r}{_close(key, list(offered))}; the {ruleset} ruleset "
                    f"offers: {usages}")
    if spec.argument is None and has_arg:
        return ("agent",), f"agent {key!r} takes no ':' argument (write just {key})"
    if spec.argument is not None and not arg.strip():
        return ("agent",), f"agent {key!r} needs its {spec.argument}: {spec.usage}"
    if not isinstance(options, Mapping):
        return ("agent_options",), f"agent_options must be a mapping of option: value, not {options!r}"
    declared = spec.load().OPTIONS if options else {}
    for option, value in options.items():
        known = declared.get(option)
        if known is None:
            takes = f"it takes: {', '.join(declared)}" if declared else "it takes no options"
            return ("agent_options", option), (f"agent {key!r} has no option {option!r}"
                               f"{_close(str(option), list(declared))}; {takes}")
        bad = known.problem(value)
        if bad is None and known.refers == "faction" and factions is not None \
                and (value not in factions or value == own):
            others = [f for f in factions if f != own]
            bad = (f"must name another faction of this campaign{_close(str(value), others)}, "
                   f"not {value!r}; its factions: {', '.join(others)}")
        if bad is not None:
            return ("agent_options", option), f"agent {key!r} option {option!r} {bad}"
    return None


_JSON_TYPES = {int: "integer", float: "number", str: "string", bool: "boolean", list: "array"}


def option_schema(spec: OptionSpec) -> dict[str, Any]:
    """The JSON Schema of one agent option.

    >>> option_schema(OptionSpec(int, "rollouts", minimum=1))
    {'type': 'integer', 'description': 'rollouts', 'minimum': 1}
    """
    out: dict[str, Any] = {"type": _JSON_TYPES.get(spec.kind, "string"), "description": spec.doc}
    if spec.kind is list:
        out["items"] = {"enum": list(spec.choices)}
        out["uniqueItems"] = True
    elif spec.choices:
        out["enum"] = list(spec.choices)
    if spec.refers == "faction":
        out["description"] += " (the id of another faction of this campaign)"
    for key, value in (("minimum", spec.minimum), ("maximum", spec.maximum),
                       ("exclusiveMinimum", spec.above)):
        if value is not None:
            out[key] = value
    return out


def agent_options_schema(agents: Sequence[AgentSpec]) -> list[dict[str, Any]]:
    """JSON Schema conditions (for a faction entry's ``allOf``): for each agent with options,
    ``if`` the faction names it (or names none and it is :data:`DEFAULT_AGENT`) ``then`` its
    ``agent_options`` may hold exactly those options."""
    out = []
    for spec in agents:
        options = spec.load().OPTIONS
        if not options:
            continue
        named: dict[str, Any] = ({"pattern": f"^{spec.name}:"} if spec.argument
                                 else {"const": spec.name})
        condition: dict[str, Any] = {"properties": {"agent": named}, "required": ["agent"]}
        if spec.name == DEFAULT_AGENT:
            condition = {"anyOf": [condition, {"not": {"required": ["agent"]}}]}
        out.append({"if": condition, "then": {"properties": {"agent_options": {
            "type": "object", "additionalProperties": False,
            "properties": {k: option_schema(v) for k, v in options.items()}}}}})
    return out


@dataclass(frozen=True)
class RulesetInfo:
    """Everything the rest of factionsim needs to know about one ruleset.

    - ``name``: the campaign field ``ruleset:`` that picks it; ``title``: its name in words;
    - ``state_class``: its :class:`GameState` (``from_dict`` builds a game from validated data);
    - ``validate(data, source=, lines=)``: checks campaign data (the file name and line table for
      messages) and returns it normalized, raising ``CampaignError`` on the first problem;
    - ``faction_field``: the campaign field that lists the factions (``factions``, ``houses``...);
      each entry may name its ``agent`` and ``agent_options``;
    - ``prose``: event kind -> sentence maker (the chronicle); ``present``: the report, ``show``
      and the summaries (:class:`Presentation`);
    - ``default_campaign``: the bundled campaign's file name in ``factionsim.configs``;
    - ``agents``: the agents it offers, in the order they are listed to a GM (those that play
      any ruleset, random, idle and manual, are declared in :mod:`factionsim.rules`);
    - ``codec()``: imports and returns the environment codec class (the ``rl`` extra), or
      ``None`` when the ruleset has no environment;
    - ``schema(agent_usages)``: a JSON Schema of its campaign files, or ``None``;
    - ``docs``: the page of the docs that describes it;
    - ``forecasting``: what ``factionsim forecast`` and ``odds`` ask beyond the contract
      (:class:`~factionsim.core.forecasting.Forecasting`), or ``None``: forecasts from the
      contract alone, no ``odds``;
    - ``visibility``: what the players may know (:class:`~factionsim.core.visibility.Visibility`:
      the campaign data and the events of their view); the default hides nothing;
    - ``rumours``: the turn's news in words, with a headline
      (:class:`~factionsim.core.rumours.RumourBook`), or ``None``: no headlines, and the players'
      chronicle tells their events in the GM's prose.
    - ``behaviour``: what ``factionsim batch`` counts of how its factions play
      (:class:`~factionsim.core.behaviour.BehaviourSpec`), or ``None``;
    - ``actions``: its action classes and their text forms
      (:class:`~factionsim.core.game.ActionTable`: reads an action back from its text), or
      ``None``;
    - ``records``: what a GM may record between turns (``factionsim record``,
      :class:`~factionsim.core.records.RecordSpec`); a ruleset that declares none takes ``note``
      only (:meth:`gm_records`).
    """

    name: str
    title: str
    state_class: type[GameState]
    validate: Callable[..., dict[str, Any]]
    faction_field: str
    prose: Mapping[str, Callable[[Event, Names], str]]
    present: Presentation
    default_campaign: str
    agents: tuple[AgentSpec, ...] = ()
    codec: Callable[[], type] | None = None
    schema: Callable[[Sequence[str]], dict[str, Any]] | None = None
    docs: str = ""
    forecasting: Forecasting | None = None
    visibility: Visibility = NOTHING_HIDDEN
    rumours: RumourBook | None = None
    behaviour: BehaviourSpec | None = None
    actions: ActionTable | None = None
    records: tuple[RecordSpec, ...] = ()

    def gm_records(self) -> dict[str, RecordSpec]:
        """Record name -> :class:`~factionsim.core.records.RecordSpec`, in the declared order
        (``note`` always among them)."""
        out = {spec.name: spec for spec in self.records}
        out.setdefault(NOTE.name, NOTE)
        return out

    def offered_agents(self) -> dict[str, AgentSpec]:
        """Agent name -> :class:`AgentSpec`, in the declared order."""
        return {spec.name: spec for spec in self.agents}

    def default_campaign_path(self) -> Path:
        """Path of the bundled default campaign (package data of ``factionsim.configs``)."""
        return Path(str(resources.files("factionsim.configs").joinpath(self.default_campaign)))
