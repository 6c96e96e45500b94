"""The simplest players: ``random`` (uniform over legal actions) and ``idle`` (does nothing it
can avoid: passes, keeps its goal, stops every step at once); ``keeper`` (random, but keeps its
goal and never passes), which benchmarks and tests play, is not offered to campaigns."""

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


class KeeperAgent(RandomAgent):
    """Uniform over the legal actions, except that it keeps its goal and never passes (WWN's
    ``keep goal`` and ``action pass``): plain random play abandons its goal at most goal steps
    and then sits paralysed, this one attacks, builds and spends every turn. Not offered to
    campaigns: benchmarks and tests play it to reach the busy parts of the rules."""

    name = "keeper"

    def act(self, view: Any, legal_actions: list[Any], rng: Any) -> Any:
        texts = [str(a) for a in legal_actions]
        if "keep goal" in texts:
            return legal_actions[texts.index("keep goal")]
        useful = [a for a in legal_actions if str(a) != "action pass"] or legal_actions
        return super().act(view, useful, rng)
