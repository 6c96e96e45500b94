"""Chronicle sentences for every event kind of the ``conflict`` ruleset, dice shown.

>>> from factionsim.core.names import Names
>>> from factionsim.core.game import Event
>>> n = Names({"w": "The Wardens"}, {}, {"ash": "Ash", "vor": "Captain Vor"}, "conflict")
>>> e = Event(1, "attack", "w", {"char": "ash", "target": "vor", "skill": "weaponry",
...     "pool": "blood", "dice": [3], "tn": 4, "outcome": "success", "parts": {"rank": 2,
...     "approach": 2}, "success": True, "item": 2, "damage": 6, "left": 5})
>>> for part in PROSE["attack"](e, n).split("; "): print(part)
Ash attacks Captain Vor with Weaponry: 1d6 [3] under TN 4 (rank 2 + approach 2), success
6 Blood damage (TN 4 + item 2), 5 left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from factionsim.core.ending import game_end_text
from factionsim.core.game import Event
from factionsim.core.names import Names

from .model import CATEGORY_TITLES

_PART_NAMES = {"rank": "rank", "approach": "approach", "difficulty": "difficulty",
               "advantages": "Advantages", "assist": "assist", "opportunity": "opportunity",
               "defense": "defense", "stand": "stand ground"}


def _who(n: Names, cid: str | None) -> str:
    return n.asset(cid) if cid else "someone"


def _parts(parts: dict[str, int]) -> str:
    shown = [(k, v) for k, v in parts.items() if v]
    if not shown:
        return ""
    text = ""
    for i, (k, v) in enumerate(shown):
        sign = ("" if v >= 0 else "- ") if i == 0 else ("+ " if v >= 0 else "- ")
        text += f"{' ' if i else ''}{sign}{_PART_NAMES.get(k, k)} {abs(v)}"
    return f" ({text})"


_OUTCOMES = {"success": "success", "fail": "failure", "flawless": "flawless success",
             "consequence": "success with a consequence", "opportunity": "failure with an opportunity"}


def _check(d: dict[str, Any]) -> str:
    dice = d.get("dice") or []
    roll = f"1d6 [{dice[0]}]" + (f", then [{dice[1]}]" if len(dice) > 1 else "")
    outcome = _OUTCOMES.get(d["outcome"], d["outcome"])
    text = f"{roll} under TN {d['tn']}{_parts(d.get('parts') or {})}, {outcome}"
    if d.get("rerolls"):
        k = len(d["rerolls"])
        text += f" (after {k} reroll{'' if k == 1 else 's'})"
    return text


def _skill(d: dict[str, Any]) -> str:
    return str(d.get("skill", "")).title()


def _a(word: str) -> str:
    """``a Weaponry``, ``an Impose``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _attack(e: Event, n: Names) -> str:
    d = e.data
    verb = "strikes at the fleeing" if d.get("mode") == "opportunity" else "attacks"
    text = f"{_who(n, d['char'])} {verb} {_who(n, d['target'])} with {_skill(d)}: {_check(d)}"
    if not d["success"]:
        return text + "."
    pool = d["pool"].title()
    text += f"; {d['damage']} {pool} damage (TN {d['tn']} + item {d.get('item', 0)}), {d['left']} left"
    if d.get("approaches_lost"):
        text += ", Approaches hit: " + ", ".join(f"{k} -{v}" for k, v in d["approaches_lost"].items())
    return text + "."


def _cast(e: Event, n: Names) -> str:
    d = e.data
    who, whom = _who(n, d["char"]), _who(n, d["target"])
    spell = d["spell"].replace("-", " ")
    if d["effect"] == "heal":
        return f"{who} completes {spell} on {whom}: +{d['healed']} {d['pool'].title()} ({d['left']})."
    if d["effect"] == "advantage":
        return f"{who} completes {spell} around {whom}."
    text = f"{who} completes {spell} on {whom}: {d['damage']} {d['pool'].title()} damage, {d['left']} left"
    if d.get("approaches_lost"):
        text += ", Approaches hit: " + ", ".join(f"{k} -{v}" for k, v in d["approaches_lost"].items())
    return text + "."


def _advantage(e: Event, n: Names) -> str:
    d = e.data
    targets = ", ".join(_who(n, t) for t in d["targets"])
    how = f" with {_skill(d)} ({_check(d)})" if "dice" in d else \
        (f" with {d['trick'].replace('-', ' ')}" if d.get("trick") else
         (f" by {d['spell'].replace('-', ' ')}" if d.get("spell") else ""))
    until = (f"until the end of round {d['until']}" if d.get("until") is not None
             else "until an enemy undoes it")
    return (f"{_who(n, d['char'])} creates an Advantage{how}: allies get +{d['bonus']} TN against "
            f"{targets} {until} [{d['advantage']}].")


def _dash(e: Event, n: Names) -> str:
    d = e.data
    how = {"free": "moves far", "check": f"tries to break away ({_skill(d)}: "
           f"{_check(d) if 'dice' in d else ''})", "break": "breaks away without a check"}[d["mode"]]
    if d.get("held"):
        return f"{_who(n, d['char'])} {how}; held back, it only moves from {d['from']} to {d['to']}."
    return f"{_who(n, d['char'])} {how}, from height {d['from']} to {d['to']}."


def _end(e: Event, n: Names) -> str:
    d = e.data
    why = {"fell": "its foes have fallen", "fled": "its foes have fled or fallen",
           "survived": "it held out", "carried": "the item is carried across",
           "ritual": "the ritual is complete"}.get(d["reason"], d["reason"])
    if d["winner"] is None:
        return "**The conflict ends with no side standing.**"
    return f"**{n.faction(d['winner'])} wins the conflict**: {why}."


PROSE: dict[str, Callable[[Event, Names], str]] = {
    "round": lambda e, n: "Order: " + ", ".join(
        f"{n.faction(s)} ({e.data.get('labels', {}).get(s, '')})" for s in e.data["order"]) + ".",
    "category": lambda e, n: (f"*{CATEGORY_TITLES[e.data['category']].capitalize()}*: "
                              + ", ".join(_who(n, c) for c in e.data["order"]) + "."),
    "stand": lambda e, n: (f"{_who(n, e.data['char'])} stands ground at height {e.data['to']}"
                           + (f" (from {e.data['from']})" if e.data["from"] != e.data["to"] else "")
                           + ": attacks on allies within 2 heights get -1 TN."),
    "hold": lambda e, n: (f"{_who(n, e.data['char'])} holds" + (
        f", moving from height {e.data['from']} to {e.data['to']}" if e.data["from"] != e.data["to"]
        else f" at height {e.data['to']}") + "."),
    "replan": lambda e, n: (f"{_who(n, e.data['char'])} changes plans: from "
                            f"{CATEGORY_TITLES.get(e.data['from'] or '', 'nothing')} to "
                            f"{CATEGORY_TITLES[e.data['to']]}."),
    "attack": _attack,
    "fallen": lambda e, n: f"**{_who(n, e.data['char'])} falls.**",
    "fled": lambda e, n: f"**{_who(n, e.data['char'])} flees the field.**",
    "yielded": lambda e, n: f"**{_who(n, e.data['char'])} stands down.**",
    "advantage": _advantage,
    "advantage-failed": lambda e, n: (f"{_who(n, e.data['char'])} fails to create an Advantage on "
                                      + ", ".join(_who(n, t) for t in e.data["targets"])
                                      + f" with {_skill(e.data)}: {_check(e.data)}."),
    "advantage-expired": lambda e, n: f"The Advantage {e.data['advantage']} of {n.faction(e.faction)} fades.",
    "assist": lambda e, n: (f"{_who(n, e.data['char'])} assists {_who(n, e.data['ally'])}: "
                            f"+{e.data['bonus']} TN (major Bond) on the next roll."),
    "remove": lambda e, n: (f"{_who(n, e.data['char'])} tries to undo the Advantage "
                            f"{e.data['advantage']} with {_skill(e.data)}: {_check(e.data)}"
                            + ("; it is gone." if e.data["success"] else ".")),
    "ritual": lambda e, n: (f"{_who(n, e.data['char'])} works the ritual with {_skill(e.data)}: "
                            f"{_check(e.data)}; progress {e.data['progress']}/{e.data['needed']}."),
    "parley": lambda e, n: (f"{_who(n, e.data['char'])} urges {_who(n, e.data['target'])} to stand "
                            f"down (Charisma: {_check(e.data)})"
                            + (": they yield." if e.data["success"] else ": they refuse.")),
    "cast": _cast,
    "spell-broken": lambda e, n: (f"{_who(n, e.data['char'])} has lost concentration: "
                                  f"{e.data['spell'].replace('-', ' ')} cannot be performed (no use spent)."),
    "concentration": lambda e, n: (f"{_who(n, e.data['char'])}, attacked while preparing a spell "
                                   f"(attack {e.data['attack']}), rolls 1d6 [{e.data['dice'][0]}] under "
                                   f"TN {e.data['tn']}: " + ("concentration holds." if e.data["kept"]
                                                             else "concentration is broken.")),
    "dash": _dash,
    "tie": lambda e, n: (f"{_who(n, e.data['char'])} ties {_a(_skill(e.data))} check and chooses to "
                         + (f"succeed with a consequence (-{e.data.get('damage', 1)} Guts)."
                            if e.data["choice"] == "succeed"
                            else f"fail with an opportunity (+{e.data.get('bonus', 1)} TN next roll).")),
    "reroll": lambda e, n: (f"{_who(n, e.data['char'])} sacrifices a minor Bond with "
                            f"{_who(n, e.data['partner'])} to reroll [{e.data['dice'][0]}] -> "
                            f"[{e.data['new_dice'][0]}] (TN {e.data['tn']})."),
    "bond": lambda e, n: (f"Standing ground for {_who(n, e.data['ally'])}, {_who(n, e.data['char'])} "
                          f"grows closer: Bond {e.data['steps']} minor "
                          f"level{'' if e.data['steps'] == 1 else 's'}"
                          + (f" = {e.data['major']} major" if e.data["major"] else "") + "."),
    "item": lambda e, n: (f"{_who(n, e.data['char'])} "
                          f"{'takes up' if e.data['action'] == 'picked' else 'drops'}"
                          f" {e.data['item']} at height {e.data['position']}."),
    "conflict-end": _end,
    "turn-end": lambda e, n: "End of the round.",
    "game-end": lambda e, n: _cap(e, n),
}


def _cap(e: Event, n: Names) -> str:
    """The round cap ends the conflict undecided: who is ahead on standing (the score)."""
    d = e.data
    if d["reason"] != "cap":
        return game_end_text(e, n)
    ahead = " and ".join(n.faction(w) for w in d["winners"])
    scores = ", ".join(f"{n.faction(k)} {v}" for k, v in d["scores"].items())
    return (f"**After {d['turns']} rounds, the scenario's limit, the conflict stops undecided; "
            f"{ahead} {'is' if len(d['winners']) == 1 else 'are'} ahead and wins on points** "
            f"({scores}).")
