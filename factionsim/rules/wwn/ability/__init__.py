"""The asset abilities of sections 6.8.0 (cunning.py), 6.9.0 (force.py) and 6.10.0 (wealth.py,
wealth_movement.py): importing this package registers them
(:func:`factionsim.rules.wwn.hooks.register`). :mod:`factionsim.rules.wwn.state` imports it, so
every game has them; none of the rule modules imports it (no import cycle)."""

from . import cunning, force, homebrew, wealth, wealth_movement

__all__ = ["cunning", "force", "homebrew", "wealth", "wealth_movement"]
