"""The contract between a rule system and everything else (agents, environments, the CLI).

Every ruleset provides a state class with this interface, modelled on OpenSpiel's ``State``:

- ``current_actor()`` -> the faction id that must decide now, or ``None`` when the game is over;
- ``legal_actions()`` -> the actions open to it, small immutable values with a stable text form;
- ``apply(action)`` -> mutates the state and returns the :class:`Event` objects it caused; all dice,
  income, upkeep and automatic steps happen inside, up to the next decision point;
- ``is_over()``, ``scores()``, ``view(faction)``, ``to_dict()`` / ``from_dict()``.

Randomness comes only from the state's own :class:`numpy.random.Generator`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class FactionsimError(Exception):
    """Base class of every error factionsim raises on purpose."""


class IllegalActionError(FactionsimError, ValueError):
    """An action that is not legal at the current decision point."""


class CampaignError(FactionsimError, ValueError):
    """A campaign file that cannot be loaded: the message names the file, field and allowed values."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every ruleset's actions: an immutable value whose ``str`` is its stable text form."""

    def __str__(self) -> str:  # pragma: no cover - every subclass defines it
        raise NotImplementedError


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


@runtime_checkable
class GameState(Protocol):
    """What every ruleset's state offers; see the module docstring."""

    ruleset: str

    def current_actor(self) -> str | None: ...

    def legal_actions(self) -> list[Action]: ...

    def apply(self, action: Action) -> list[Event]: ...

    def is_over(self) -> bool: ...

    def scores(self) -> dict[str, float]: ...

    def view(self, faction: str) -> Any: ...

    def to_dict(self) -> dict[str, Any]: ...
