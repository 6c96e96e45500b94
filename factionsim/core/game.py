"""The contract between a rule system and everything else (agents, environments, the CLI).

Every ruleset's state is a :class:`GameState`, modelled on OpenSpiel's ``State``:

- ``current_actor()`` -> the faction id that must decide now, or ``None`` when the game is over
  and its last turn played out (a game that ends mid-turn, a faction collapsing, is over at
  once, but its turn in progress may still be played to its end: ``runner.finish_turn``);
- ``legal_actions()`` -> the actions open to it, small immutable values with a stable text form;
- ``apply(action)`` -> mutates the state and returns the :class:`Event` objects it caused; all dice,
  income, upkeep and automatic steps happen inside, up to the next decision point;
- ``advance()`` -> the events of the automatic steps that lead to the current decision point (a
  new turn's dice...), which ``apply`` would otherwise report with the next action's events;
- ``is_over()``, ``scores()``, ``view(faction)`` (a :class:`View`: what that faction may see),
  ``to_dict()`` / ``from_dict()`` (the campaign-file data, the dice generator's state included),
  ``copy()``;
- for the chronicle and the commands: ``faction_summary()`` (each faction's headline numbers)
  and ``display_names()`` (the names of factions, places and assets, see :class:`Names`).

Randomness comes only from the state's own :class:`numpy.random.Generator`. Most rulesets build
their state on :class:`factionsim.core.engine.DecisionState`, which implements the control flow
over a module of decision points; a ruleset may implement :class:`GameState` directly instead.

An agent (:class:`Agent`) is ``act(view, legal_actions, rng) -> action``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from factionsim.core import actiontext

if TYPE_CHECKING:
    import numpy as np


class FactionsimError(Exception):
    """Base class of every error factionsim raises on purpose."""


class IllegalActionError(FactionsimError, ValueError):
    """An action that is not legal at the current decision point."""


class CampaignError(FactionsimError, ValueError):
    """A campaign file that cannot be loaded: the message names the file, field and allowed values."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every ruleset's actions: an immutable value whose ``str`` is its stable text form,
    written from the class's template ``TEXT`` (:mod:`factionsim.core.actiontext`, which also
    reads it back) unless the class writes its own ``__str__``."""

    TEXT: ClassVar[str | tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:  # (no super(): a slots dataclass is made anew)
        if "__str__" not in vars(cls):  # its own TEXT, not a parent's writer
            cls.__str__ = Action.__str__  # type: ignore[method-assign]

    def __str__(self) -> str:
        return actiontext.render(self)  # makes the class's writer and installs it as its __str__


A = TypeVar("A", bound=Action)


def action(cls: type[A]) -> type[A]:
    """Declare an action class (a subclass of :class:`Action`) from its ``TEXT``: a frozen,
    slotted dataclass whose fields are the ones its template names, in the order they first
    appear there. A field the class does not annotate is a ``str``; annotate the others
    (``shift: int``, ``hinder: bool = False``) and give optional ones their default, as in any
    dataclass::

        @action
        class Dash(Action):
            shift: int
            mode: str = "free"

            TEXT = "dash {char} {shift:+}[ {mode}]"

    is ``Dash(char: str, shift: int, mode: str = "free")``."""
    declared = dict(vars(cls).get("__annotations__", {}))
    named = actiontext.field_names(cls)
    cls.__annotations__ = {name: declared.pop(name, "str") for name in named} | declared
    return dataclass(frozen=True, slots=True)(cls)


def choice_table(limit: int = 1 << 16) -> Callable[..., Any]:
    """A function ``choice(kind, *fields)`` that returns ``kind(*fields)``, the same object each
    time for the same kind and fields (actions are immutable values: equal, whichever object).
    Rules that offer the same choices decision after decision make them this way, so that an
    env codec can encode an action object it met before with one lookup by ``id`` (it must keep
    the objects it remembers alive: an id never then stands for another object), and no object
    is built again. The table starts afresh once it holds ``limit`` objects.

    >>> choice = choice_table()
    >>> choice(complex, 1, 2) is choice(complex, 1, 2)
    True
    """
    table: dict[tuple[Any, ...], Any] = {}

    def choice(kind: type, *fields: Any) -> Any:
        key = (kind, *fields)
        a = table.get(key)
        if a is None:
            if len(table) >= limit:
                table.clear()
            a = table[key] = kind(*fields)
        return a
    return choice


class ActionTable(actiontext.ActionTable):
    """A ruleset's action classes and their text templates (:mod:`factionsim.core.actiontext`):
    ``parse(text)`` reads an action back; an unknown text raises :class:`IllegalActionError`."""

    error = IllegalActionError


@dataclass(slots=True)
class Event:
    """Something that happened, for the chronicle and the event log. Rules never format prose.

    ``kind`` is a short slug (``"attack"``, ``"income"``...), ``faction`` the faction it concerns
    (or ``None``), ``data`` plain JSON-able details, dice included under keys ending in ``roll``.
    """

    turn: int
    kind: str
    faction: str | None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "kind": self.kind, "faction": self.faction, **self.data}


class Faction(Protocol):
    """What every ruleset's faction record offers to shared code (a House, a side... in the
    ruleset's own words)."""

    id: str
    name: str
    alive: bool
    agent: str  #: who plays it: an agent name (see :mod:`factionsim.agents`)
    agent_options: dict[str, Any]


class GameState(ABC):
    """A game in play: the engine contract (see the module docstring).

    Attributes every state has: ``ruleset`` (the campaign field that names the ruleset), ``name``,
    ``seed``, ``turn`` (turns completed), ``max_turns`` (``None``: no cap), ``rng`` (the dice),
    ``phase`` (the kind of decision point; the ruleset's own words), ``ctx`` (the context of
    the pending decision, plain data in the ruleset's own keys), ``factions`` (id ->
    :class:`Faction`, in campaign order) and ``order_index`` (where the ruleset plays factions
    in turn, the place in the turn order of the one whose turn it is; ``None`` otherwise).
    """

    ruleset: ClassVar[str]
    name: str
    seed: int | None
    turn: int
    max_turns: int | None
    rng: np.random.Generator
    phase: str
    ctx: dict[str, Any]
    factions: Mapping[str, Faction]
    order_index: int | None = None

    @property
    def current_turn(self) -> int:
        """The number of the turn being played (``turn`` + 1): the turn of the events it makes."""
        return self.turn + 1

    @abstractmethod
    def current_actor(self) -> str | None:
        """The faction that decides now, or ``None`` when the game is over (and the turn in
        progress, if it ended mid-turn, played out)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The actions open to :meth:`current_actor` at this decision point."""

    @abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` for the current actor and run on to the next decision point; return
        the events caused. Raises :class:`IllegalActionError` for an action not legal now."""

    @abstractmethod
    def advance(self) -> list[Event]:
        """Run automatic steps up to the next decision point and return their events."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended (too few factions left, the turn cap reached...); it may
        end mid-turn, with decisions left to play out the turn (see :meth:`current_actor`)."""

    @abstractmethod
    def scores(self) -> dict[str, float]:
        """Each faction's score; the best score wins (0 for a faction that is out)."""

    @abstractmethod
    def view(self, faction: str) -> View:
        """What ``faction`` may see of this state."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The campaign as plain data (the campaign-file format), the dice generator included."""

    @classmethod
    @abstractmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        """A state from validated campaign data (what :meth:`to_dict` writes)."""

    def copy(self) -> GameState:
        """An independent deep copy (the dice generator included)."""
        return type(self).from_dict(self.to_dict())

    @abstractmethod
    def faction_summary(self) -> dict[str, dict[str, Any]]:
        """Each faction's headline numbers, ``alive`` first (``factionsim run`` prints them,
        ``factionsim batch`` averages the numeric ones)."""

    def goals_completed(self) -> dict[str, int] | None:
        """How many goals each faction has completed, for a ruleset whose factions pursue goals
        (``None``: this ruleset has none; ``factionsim batch`` reports the rate where it does)."""
        return None

    def location_ids(self) -> tuple[str, ...]:
        """The ids of the campaign's places (a map's locations), in campaign order; ``()`` for a
        ruleset without a map. (What sizes a campaign's spaces, with its factions.)"""
        return ()

    @abstractmethod
    def display_names(self) -> dict[str, Any]:
        """The keyword arguments of :class:`Names`: the names of factions, locations and asset
        types, and the ruleset whose prose tells the events."""


def state_attribute(name: str, doc: str | None = None) -> Any:
    """A view's read-only accessor for its state's attribute ``name``, passed through as it is:
    in a view class, ``settings = state_attribute("settings")`` makes ``view.settings`` read
    the private ``view._state.settings``. For the records a ruleset lets its factions read
    whole; an accessor that filters or copies is a property of its own."""
    return property(attrgetter(f"_state.{name}"), doc=doc)


class View(ABC):
    """What one faction may know of a state, handed to its agent at each decision.

    Every view offers:

    - ``faction_id``, ``faction`` (its own record), ``ruleset``, ``turn``, ``current_turn``,
      ``max_turns``, ``phase``, ``order_index``, ``faction_ids`` (every faction, in campaign
      order) and ``location_ids`` (the campaign's places, ``()`` without a map);
    - ``decision``: the context of the decision being asked (read-only: the attack being met, the
      location being expanded into...; the ruleset's own keys);
    - ``legal_actions()``: the actions of the pending decision (this faction's, when it decides);
    - ``scores()``: the standings (:meth:`GameState.scores`);
    - ``to_state(rng)``: a playable state rebuilt from this knowledge alone, for planners: what the
      faction cannot see is absent or replaced by a neutral guess, and the dice come from ``rng``.

    Each ruleset's view adds accessors for what its agents and codecs may read (WWN: the
    faction records, the assets the faction can see, the map, the relations...), documented
    there. The engine state itself is private (``_state``): only the ruleset's own view and
    rules code read it (``tests/test_views.py`` checks this from the code).
    """

    __slots__ = ("_state", "faction_id")

    def __init__(self, state: GameState, faction: str):
        self._state = state
        self.faction_id = faction

    @property
    def faction(self) -> Any:
        """The faction's own record."""
        return self._state.factions[self.faction_id]

    ruleset = state_attribute("ruleset", "The ruleset's name.")

    @property
    def faction_ids(self) -> tuple[str, ...]:
        """Every faction's id, in campaign order."""
        return tuple(self._state.factions)

    @property
    def location_ids(self) -> tuple[str, ...]:
        """The ids of the campaign's places (:meth:`GameState.location_ids`)."""
        return self._state.location_ids()

    turn = state_attribute("turn", "The number of turns completed.")
    current_turn = state_attribute("current_turn", "The turn being played (``turn`` + 1).")
    max_turns = state_attribute("max_turns", "The turn cap (``None``: none).")
    phase = state_attribute("phase", "The kind of decision point (the ruleset's own words).")
    order_index = state_attribute(
        "order_index",
        "The place in the turn order of the faction whose turn it is (:class:`GameState`).")

    @property
    def decision(self) -> Mapping[str, Any]:
        """The context of the pending decision (read-only)."""
        return MappingProxyType(self._state.ctx)

    def legal_actions(self) -> list[Action]:
        """The actions open at the pending decision (all of them: an agent may be offered
        fewer, when a GM asked for another plan)."""
        return self._state.legal_actions()

    def scores(self) -> dict[str, float]:
        """The standings: each faction's score (:meth:`GameState.scores`)."""
        return self._state.scores()

    @abstractmethod
    def to_state(self, rng: np.random.Generator) -> GameState:
        """A playable state built from what this faction knows, its dice drawn from ``rng``."""

    def lookalike(self, rng: np.random.Generator) -> GameState:
        """Another state this faction cannot tell from the true one: everything it may not see
        redrawn with ``rng``, everything it may see unchanged (the dice generator included).

        This is the ruleset's declaration of what it hides, in executable form:
        ``tests/test_contract.py`` checks that :meth:`to_state` and, when the faction is to
        decide, its legal actions are the same for the true state and a lookalike. The default
        is a copy: nothing is hidden (a ruleset that hides something overrides this)."""
        return self._state.copy()


_KIND_WORDS = {int: "a whole number", float: "a number", str: "text", bool: "true or false"}


@dataclass(frozen=True)
class OptionSpec:
    """One option an agent takes in a campaign file (``agent_options: {name: value}``): its type,
    and the values allowed (``choices``, or a range: ``minimum``/``maximum`` inclusive, ``above``
    exclusive). An int is accepted where a float is asked. ``kind=list`` asks for a list whose
    items are all among ``choices``. ``refers="faction"``: the value names another faction of
    the campaign (checked where the campaign is known, when it loads)."""

    kind: type
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    above: float | None = None
    refers: str | None = None

    def allowed(self) -> str:
        """The allowed values in words.

        >>> OptionSpec(list, "actions to leave out", choices=("attack", "move")).allowed()
        'a list of: attack, move'
        """
        if self.kind is list:
            return "a list of: " + ", ".join(map(str, self.choices))
        if self.refers == "faction":
            return "the id of another faction of the campaign"
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        words = _KIND_WORDS.get(self.kind, self.kind.__name__)
        bounds = []
        if self.above is not None:
            bounds.append(f"above {self.above:g}")
        if self.minimum is not None:
            bounds.append(f"of at least {self.minimum:g}")
        if self.maximum is not None:
            bounds.append(f"at most {self.maximum:g}")
        return " ".join([words, " and ".join(bounds)]).strip()

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` (``None``: nothing).

        >>> OptionSpec(int, "rollouts", minimum=1).problem(0)
        'must be a whole number of at least 1, not 0'
        >>> OptionSpec(float, "weight", above=0, maximum=1).allowed()
        'a number above 0 and at most 1'
        """
        bad = f"must be {self.allowed()}, not {value!r}"
        if self.kind is list:
            ok = isinstance(value, list) and all(
                isinstance(v, str | int | float) and v in self.choices for v in value)
            return None if ok else bad
        if self.choices:
            return None if value in self.choices else bad
        if self.kind is float:
            ok_type = isinstance(value, int | float) and not isinstance(value, bool)
        elif self.kind is int:
            ok_type = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok_type = isinstance(value, self.kind)
        if not ok_type:
            return bad
        if self.minimum is not None and value < self.minimum:
            return bad
        if self.maximum is not None and value > self.maximum:
            return bad
        if self.above is not None and value <= self.above:
            return bad
        return None


class Agent:
    """A player: :meth:`act` picks one of the legal actions. Subclasses set ``name``, declare
    the options a campaign file may give them in ``OPTIONS`` (``agent_options``; checked when
    the campaign loads) and may set ``last_reason`` (a one-line explanation of the last
    decision, shown in the chronicle) and fill ``pending_events`` (events to record before the
    decision's own, e.g. a GM's veto; the runner empties it)."""

    name: str = "agent"
    OPTIONS: ClassVar[Mapping[str, OptionSpec]] = {}
    last_reason: str | None = None
    pending_events: list[Event] | tuple[()] = ()

    def act(self, view: View, legal_actions: list[Any], rng: np.random.Generator) -> Any:
        """The chosen action, one of ``legal_actions``; ``rng`` is the only randomness allowed."""
        raise NotImplementedError

    @classmethod
    def for_ruleset(cls, ruleset: Any, **options: Any) -> Agent:
        """The agent for games of ``ruleset`` (its :class:`~factionsim.core.ruleset.RulesetInfo`)
        with ``options`` (already checked against :attr:`OPTIONS`): ``cls(**options)``. An agent
        that plays through parts its ruleset declares (a trained policy: the env codec) overrides
        this to take them; ``make_agent`` builds every agent this way."""
        return cls(**options)

    def check_fits(self, state: GameState) -> None:
        """Raise :class:`CampaignError` (why, and what would fit) unless this agent can play
        ``state``'s factions. Every agent can, except those bound to a campaign's shape (a
        trained policy plays only the observation and action spaces it was trained on). Called
        when a campaign's agents are made, before anything is played."""
