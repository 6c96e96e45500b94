"""Chronicle sentences for every event of the engagements ruleset (dice shown).

>>> from factionsim.core.names import Names
>>> from factionsim.core.game import Event
>>> n = Names({"a": "The Iron Court", "b": "The Red Hand"}, {}, {"knife-circle": "Knife Circle"},
...           "engagements")
>>> PROSE["strike"](Event(1, "strike", "a", {"pillar": "knife-circle#4", "owner": "b",
...     "rolls": {"a": [6, 3, 1]}, "successes": 2, "defense": 1, "wounds": 1, "marked": 1,
...     "circles_left": 2, "counter": False}), n)
"The Iron Court's dice [6, 3, 1] against The Red Hand's Knife Circle (defense 1): 2 successes, \
1 wound (2 circles left)."
"""

from __future__ import annotations

from collections.abc import Callable

from factionsim.core.ending import game_end_text
from factionsim.core.game import Event
from factionsim.core.names import Names


def _p(n: Names, pid: str, owner: str | None = None) -> str:
    """A pillar's name (``The Red Hand's Knife Circle``); one unknown to ``n`` (built after the
    names were taken) is named from its id: ``cohort-12#12`` -> ``Cohort 12``."""
    slug = pid.rsplit("#", 1)[0]
    if slug not in n.asset_types:
        kind = slug.replace("-", " ").title()
        return f"{n.faction(owner)}'s {kind}" if owner else kind
    return n.asset(pid, owner)


def _s(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def dice_text(k: int, what: str = "") -> str:
    """``1 faction die``, ``2 engagement dice``."""
    return f"{k} {what + ' ' if what else ''}{'die' if k == 1 else 'dice'}"



def _strike(e: Event, n: Names) -> str:
    d = e.data
    rolls = "; ".join(f"{n.faction(f)}'s dice {r}" for f, r in d["rolls"].items())
    if d["counter"]:
        rolls = f"The counter's dice {next(iter(d['rolls'].values()))}"
    elif len(d["rolls"]) > 1:
        rolls = "Combined, " + rolls
    text = (f"{rolls} against {_p(n, d['pillar'], d['owner'])} (defense {d['defense']}): "
            f"{d['successes']} success{'' if d['successes'] == 1 else 'es'}, ")
    if d["wounds"] == 0:
        text += "no wound"
    else:
        text += _s(d["wounds"], "wound")
        if d["marked"] < d["wounds"]:
            text += f" ({d['marked']} marked)"
        text += " (defeated)" if d["circles_left"] == 0 else f" ({_s(d['circles_left'], 'circle')} left)"
    return text + "."


def _allocation(e: Event, n: Names) -> str:
    d = e.data
    parts = ", ".join(f"{k} on {_p(n, pid)}" for pid, k in d["allocation"].items())
    verb = "Divides its counter" if d["counter"] else "Divides its"
    return f"{verb} {dice_text(d['dice'])}: {parts}."


def _draw(e: Event, n: Names) -> str:
    d = e.data
    pillars = ", ".join(_p(n, p) for p in d["pillars"])
    src = (f"draws {d['n']} engagement {'die' if d['n'] == 1 else 'dice'} against "
           f"{n.faction(d['against'])} ({d['pool_left']} left)") if d["n"] else \
        "draws no engagement dice"
    what = "Counters with" if d["counter"] else "Engages with"
    return f"{what} {pillars} and {src}: {dice_text(d['dice'])} in all."


def _join(e: Event, n: Names) -> str:
    d = e.data
    paid = f" for {dice_text(d['price'], 'faction')}" if d["price"] else ""
    if d.get("commission"):
        return (f"Takes {n.faction(d['aggressor'])}'s contract{paid} and engages "
                f"{n.faction(d['defender'])}.")
    return (f"Joins {n.faction(d['aggressor'])}'s engagement against "
            f"{n.faction(d['defender'])}{paid}.")


def _decline(e: Event, n: Names) -> str:
    d = e.data
    if d.get("commission"):
        return (f"Turns down {n.faction(d['aggressor'])}'s contract against "
                f"{n.faction(d['defender'])}.")
    return f"Declines to join {n.faction(d['aggressor'])} against {n.faction(d['defender'])}."


def _defeated(e: Event, n: Names) -> str:
    d = e.data
    how = (f"is defeated** by {n.faction(d['by'])}" if d.get("by")
           else "falls**, spent by its own fanaticism")
    return f"**{_p(n, d['pillar'], e.faction)} {how} ({_s(d['pillars_left'], 'pillar')} left)."


def _end(e: Event, n: Names) -> str:
    d = e.data
    text = f"The engagement against {n.faction(d['defender'])} ends"
    if d["grievance"]:
        text += (f"; {n.faction(d['defender'])} gains grievance engagement dice against "
                 + ", ".join(f"{n.faction(f)} (+{k})" for f, k in d["grievance"].items()))
    return text + "."


def _turn_end(e: Event, n: Names) -> str:
    rows = "; ".join(f"{n.faction(f)}: {_s(v['pillars'], 'pillar')}, score {v['score']}"
                     for f, v in e.data["factions"].items())
    return f"End of turn {e.turn}: {rows}."


PROSE: dict[str, Callable[[Event, Names], str]] = {
    "round": lambda e, n: "Order: " + ", ".join(n.faction(f) for f in e.data["order"]) + ".",
    "faction-turn": lambda e, n: f"{n.faction(e.faction)} begins its turn.",
    "income": lambda e, n: (f"Earns {dice_text(e.data['amount'], 'faction')}"
                            f" from {_s(e.data['pillars'], 'pillar')} (now {e.data['faction_dice']})."),
    "convert": lambda e, n: (f"Turns {dice_text(e.data['amount'], 'faction')}"
                             f" into engagement dice against {n.faction(e.data['rival'])} "
                             f"(pool {e.data['pool']})."),
    "build": lambda e, n: (f"Raises a new pillar, {_p(n, e.data['pillar'])} (competence "
                           f"{e.data['competence']}, defense {e.data['defense']}), for "
                           f"{dice_text(e.data['cost'], 'faction')}."),
    "raise": lambda e, n: (f"Trains {_p(n, e.data['pillar'])}: {e.data['stat']} raised to "
                           f"{e.data['level']} for {dice_text(e.data['cost'], 'faction')}."),
    "heal": lambda e, n: (f"Tends {_p(n, e.data['pillar'])}: one wound healed "
                          f"({_s(e.data['circles_left'], 'circle')} left)."),
    "engage": lambda e, n: (f"**Engages {n.faction(e.data['defender'])}**, holding "
                            f"{dice_text(e.data['pool'], 'engagement')} against it."),
    "deferred": lambda e, n: (f"Moves against {n.faction(e.data['defender'])}, but the GM defers "
                              "the engagement to a later turn."),
    "invite": lambda e, n: ((f"Offers {dice_text(e.data['price'], 'faction')} to hire" if e.data["price"]
                             else "Asks") + f" {n.faction(e.data['ally'])} to join against "
                            f"{n.faction(e.data['defender'])}."),
    "commission": lambda e, n: (f"Offers {n.faction(e.data['mercenary'])} "
                                f"{dice_text(e.data['price'], 'faction')} to engage "
                                f"{n.faction(e.data['defender'])}."),
    "join": _join,
    "decline": _decline,
    "commit": lambda e, n: (f"Commits {_p(n, e.data['pillar'])} (competence {e.data['competence']})"
                            + (f" for {dice_text(e.data['cost'], 'faction')}" if e.data["cost"]
                               else ", free") + "."),
    "fanatical": lambda e, n: (f"{_p(n, e.data['pillar'])} fights fanatically: a wound circle marked "
                               f"for 2 more dice ({_s(e.data['circles_left'], 'circle')} left)."),
    "draw": _draw,
    "allocation": _allocation,
    "strike": _strike,
    "pillar-defeated": _defeated,
    "exposed": lambda e, n: (f"{n.faction(e.faction)} has no pillar left: its core lies exposed, "
                             "and it collapses at the end of this turn unless it raises a pillar "
                             "before then."),
    "counter": lambda e, n: (f"Counters against {n.faction(e.data['against'])} with "
                             + ", ".join(_p(n, p) for p in e.data["pillars"])
                             + f" ({dice_text(e.data['dice'])} from competence)."),
    "no-counter": lambda e, n: f"Cannot counter: {e.data['reason']}.",
    "engagement-end": _end,
    "collapse": lambda e, n: f"**{n.faction(e.faction)} collapses** and is no more.",
    "turn-end": _turn_end,
    "game-end": game_end_text,
}
