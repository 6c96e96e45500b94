"""The simplest players: ``random`` (uniform over legal actions) and ``idle`` (does nothing it
can avoid: passes, keeps its goal, stops every step at once)."""

from __future__ import annotations

from typing import Any

from factionsim.core.game import Agent

#: Text forms an idle faction prefers, in order.
_IDLE_CHOICES = ("action pass", "keep goal", "done")


class RandomAgent(Agent):
    """Picks uniformly among the legal actions with the generator it is given."""

    name = "random"

    def __init__(self, **options: Any):
        self.options = options

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        return legal_actions[int(rng.integers(len(legal_actions)))]


class IdleAgent(Agent):
    """Takes no action: passes, keeps its goal, ends every optional step; where a choice is
    forced (which asset defends, a new goal), takes the first legal option."""

    name = "idle"

    def __init__(self, **options: Any):
        self.options = options

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        by_text = {str(a): a for a in legal_actions}
        for text in _IDLE_CHOICES:
            if text in by_text:
                return by_text[text]
        return legal_actions[0]
