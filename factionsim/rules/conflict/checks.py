"""The ARC skill check: 1d6 rolled under a Target Number.

- TN = Skill Rank + Approach Score + difficulty + Advantages + Assist (+ opportunity), less the
  target's defense item and a protector's stand-ground penalty.
- Below the TN succeeds, above fails, equal is a tie (the roller chooses: succeed with a
  consequence, or fail with an opportunity).
- A 1 with a ranked skill (rank >= 1) is rolled again: a second 1 is *flawless*.

>>> import numpy as np
>>> from factionsim.rules.conflict.checks import roll_check
>>> class Dice:
...     def __init__(self, *v): self.v = list(v)
...     def integers(self, lo, hi): return self.v.pop(0)
>>> roll_check(Dice(3), 4, ranked=True)["outcome"]
'success'
>>> roll_check(Dice(4), 4, ranked=True)["outcome"]
'tie'
>>> roll_check(Dice(1, 1), 4, ranked=True)["outcome"], roll_check(Dice(1), 4, ranked=False)["dice"]
('flawless', [1])
>>> concentration_tn(1), concentration_tn(2), concentration_tn(3)
(6, 5, 4)
"""

from __future__ import annotations

from typing import Any

SUCCESS, FAIL, TIE, FLAWLESS = "success", "fail", "tie", "flawless"
#: outcomes after a tie was decided
CONSEQUENCE, OPPORTUNITY = "consequence", "opportunity"


def die(rng: Any) -> int:
    """One d6 from the state's generator."""
    return int(rng.integers(1, 7))


def roll_check(rng: Any, tn: int, ranked: bool) -> dict[str, Any]:
    """Roll one check against ``tn``: ``{"dice": [...], "tn": tn, "outcome": ...}``."""
    first = die(rng)
    dice = [first]
    if first == 1 and ranked:
        second = die(rng)
        dice.append(second)
        if second == 1:
            return {"dice": dice, "tn": tn, "outcome": FLAWLESS}
    if first < tn:
        outcome = SUCCESS
    elif first == tn:
        outcome = TIE
    else:
        outcome = FAIL
    return {"dice": dice, "tn": tn, "outcome": outcome}


def succeeded(outcome: str) -> bool:
    """Whether a (decided) outcome counts as a success."""
    return outcome in (SUCCESS, FLAWLESS, CONSEQUENCE)


def concentration_tn(attack_number: int, start: int = 6) -> int:
    """TN of the concentration roll after the ``attack_number``-th attack (1-based) this round:
    6, then 5, 4... [text]; never below 1."""
    return max(1, start - (attack_number - 1))


def concentration_roll(rng: Any, attack_number: int, start: int = 6) -> dict[str, Any]:
    """A concentration roll: a d6 that must come *under* the TN [text: "roll under TN 6"]; a roll
    equal to the TN fails too (there is no one to choose a tie's outcome) [ours]."""
    tn = concentration_tn(attack_number, start)
    roll = die(rng)
    return {"dice": [roll], "tn": tn, "kept": roll < tn}
