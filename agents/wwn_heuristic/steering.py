"""What a GM can tell the heuristic (and the planner) to do: the steering options of
``agent_options``, each honoured at the decision it concerns and named in the reasons.

- ``focus: <goal>``: pursue only that goal (any target); when it cannot be adopted (Wealth of
  Kingdoms before Wealth rose, no target for it), the best other goal, saying why;
- ``enemy: <faction>``: its prime foe: attacks on it are worth twice as much, and goals that name
  a target (Destroy the Foe, Root Out the Enemy, Eliminate Target) prefer it;
- ``protect: <faction>``: never attacks it (not even a new Base), and its enemies are worth
  attacking as if they were ours to punish;
- ``avoid: [actions]``: never takes these Faction Actions (attack, move, repair, expand, create,
  hide, sell);
- ``story: true``: no goal shopping: keeps a goal once chosen unless it becomes impossible.

>>> s = Steering.of({"avoid": ["attack"], "story": True})
>>> s.avoids("attack"), s.avoids("move"), s.story
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from factionsim.core.game import OptionSpec
from factionsim.rules.wwn.goals import GOALS
from factionsim.rules.wwn.turn import ACTION_PHASE

#: The Faction Actions ``avoid`` may name.
ACTIONS = tuple(ACTION_PHASE)

#: The steering options, as ``OPTIONS`` entries of the agents that honour them.
STEERING_OPTIONS: dict[str, OptionSpec] = {
    "focus": OptionSpec(str, "pursue only this goal (any target)", choices=tuple(GOALS)),
    "enemy": OptionSpec(str, "its prime foe: attacks on it count double, targeted goals aim at it",
                        refers="faction"),
    "protect": OptionSpec(str, "never attack this faction; its enemies are worth attacking",
                          refers="faction"),
    "avoid": OptionSpec(list, "Faction Actions it never takes", choices=ACTIONS),
    "story": OptionSpec(bool, "keep a chosen goal unless it becomes impossible (no goal "
                              "shopping)"),
}


@dataclass(frozen=True)
class Steering:
    """The steering options given to one agent (``None``/empty: not given)."""

    focus: str | None = None
    enemy: str | None = None
    protect: str | None = None
    avoid: frozenset[str] = frozenset()
    story: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Steering:
        return cls(focus=options.get("focus"), enemy=options.get("enemy"),
                   protect=options.get("protect"), avoid=frozenset(options.get("avoid") or ()),
                   story=bool(options.get("story", False)))

    def avoids(self, kind: str) -> bool:
        return kind in self.avoid

    def to_options(self) -> dict[str, Any]:
        """The options again (those given), for an agent that builds another one."""
        out: dict[str, Any] = {}
        for key in ("focus", "enemy", "protect"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.avoid:
            out["avoid"] = sorted(self.avoid)
        if self.story:
            out["story"] = True
        return out
