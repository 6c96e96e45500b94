"""What a ruleset's prose returns: a sentence, with the dice that decided it kept apart.

The GM's chronicle tells each event in one compact line, the dice in a short trailing
parenthesis (markdown) or folded away (``<details>`` in the HTML report). A sentence maker
returns :class:`Told` for an event decided by dice, a plain string otherwise; either is a
``str`` holding the whole line.

>>> t = Told("The Legion's Knights strike at the Guild's Guards at Coldvale: a hit.",
...          "1d10 [7] +4 = 11 vs 1d10 [2] +3 = 5")
>>> str(t)
"The Legion's Knights strike at the Guild's Guards at Coldvale: a hit (1d10 [7] +4 = 11 vs 1d10 [2] +3 = 5)."
>>> t.text, told("Earns 3 Treasure.").dice
("The Legion's Knights strike at the Guild's Guards at Coldvale: a hit.", '')
"""

from __future__ import annotations


class Told(str):
    """A chronicle sentence (``text``) and its ``dice``: as a string, the sentence with the dice
    in a parenthesis before its final stop."""

    text: str
    dice: str

    def __new__(cls, text: str, dice: str = "") -> Told:
        full = text
        if dice:
            stop = text[-1] if text[-1:] in (".", "!", "?") else ""
            full = f"{text[:len(text) - len(stop)]} ({dice}){stop}"
        self = super().__new__(cls, full)
        self.text, self.dice = text, dice
        return self

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return (Told, (self.text, self.dice))


def told(sentence: str) -> Told:
    """``sentence`` as a :class:`Told` (a plain string has no dice)."""
    return sentence if isinstance(sentence, Told) else Told(sentence)


def plural(k: int, word: str, many: str | None = None) -> str:
    """``1 asset``, ``2 assets``; ``plural(2, "complication")``, ``plural(2, "turn of income",
    "turns of income")``."""
    return f"{k} {word if k == 1 else (many or word + 's')}"
