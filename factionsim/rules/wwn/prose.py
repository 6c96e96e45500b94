"""Chronicle sentences for every event WWN emits: :data:`PROSE`, event kind -> sentence maker.
An event decided by dice is told as a :class:`~factionsim.core.prose.Told`: the sentence, and
the rolls with their breakdown apart (``1d10 [6] +7 = 13 vs 1d10 [4] +3 = 7``), which the GM's
chronicle puts in a short parenthesis and the report folds away.

>>> from factionsim.core.game import Event
>>> from factionsim.core.names import Names
>>> n = Names({"iron-legion": "The Iron Legion"}, {"tarsis": "Tarsis"}, {"knights": "Knights"}, "wwn")
>>> PROSE["move"](Event(1, "move", "iron-legion", {"asset": "knights#3", "from": "tarsis", "to": "x"}), n)
'Moves its Knights from Tarsis to x.'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.prose import Told, plural
from factionsim.core.text import markdown_code, markdown_text

from .data import ATTRIBUTES
from .goals import GOALS


def _check(d: dict[str, Any]) -> str:
    """``1d10 [6] +7 = 13 vs 1d10 [4] +3 = 7``, extra dice shown as ``2d10 keep highest``."""
    parts = []
    for side in ("attacker_check", "defender_check"):
        s = d[side]
        n = len(s["roll"])
        dice = "1d10" if n == 1 else (f"{n // 2}d10 twice, worst" if s.get("rolled_twice_worst")
                                      else f"{n}d10 keep highest")
        parts.append(f"{dice} [{', '.join(map(str, s['roll']))}] +{s['rating']} = {s['total']}")
    return " vs ".join(parts)


def _roll(r: dict[str, Any]) -> str:
    return f"{r['expr']} [{', '.join(map(str, r['dice']))}] = {r['total']}"


def _checked(text: str, d: dict[str, Any]) -> Told:
    """``text`` with the check's dice apart (``won automatically`` when no dice were rolled)."""
    if d.get("automatic"):
        return Told(text, f"won automatically: {d['automatic']}")
    return Told(text, _check(d))


def _attack(e: Event, n: Names) -> Told:
    d = e.data
    who = n.asset(d["attacker"], e.faction)
    whom = n.asset(d["defender"], d["target_faction"])
    outcome = "a hit" if d["success"] else "repulsed"
    return _checked(f"{who} strike at {whom} at {n.place(d['location'])}: {outcome}.", d)


def _damage(e: Event, n: Names) -> Told:
    d = e.data
    what = n.asset(d["asset"], d["owner"])
    if d["cause"] == "exposure":
        return Told(f"{what}, left exposed where it is unwelcome, suffers {d['damage']} damage.")
    by = " in the counterattack" if d["cause"] == "counterattack" else ""
    text = f"{what} takes {d['damage']} damage{by}, {d['hp_left']} HP left"
    if "faction_damage" in d:
        text += f"; {n.faction(d['owner'])} loses {d['faction_damage']} HP ({d['faction_hp_left']} left)"
    return Told(text + ".", _roll(d["roll"]) if "roll" in d else "")


#: how each detail of an ability event reads (key -> template taking the formatted value)
_ABILITY_DETAILS = (
    ("asset", "moving {}"), ("carried", "carrying {}"), ("target", "on {}"), ("to", "to {}"),
    ("target_faction", "against {}"), ("cost", "for {} Treasure"), ("paid", "paying {} Treasure"),
    ("gained", "gaining {} Treasure"), ("amount", "gaining {} Treasure"), ("lost", "losing {}"),
    ("fund", "a fund of {} Treasure"), ("discount", "{} Treasure off"), ("ransom", "ransom {}"),
    ("revealed", "revealing {}"),
)


def _ability(e: Event, n: Names) -> Told:
    """``Its Informers (search): against The Veiled Hand, for 1 Treasure; 1d10 [4] +8 = 12 vs ...``."""
    d = e.data
    source = n.asset(d["source"]) if d.get("source") else "an ability"
    parts = []
    for key, template in _ABILITY_DETAILS:
        value = d.get(key)
        if value in (None, "", []) and key != "revealed":
            continue
        if key in ("asset", "carried", "target"):
            value = n.asset(value)
        elif key == "to":
            value = n.place(value)
        elif key == "target_faction":
            value = n.faction(value)
        elif key == "revealed":
            if "revealed" not in d:
                continue
            value = ", ".join(n.asset(a) for a in value) or "nothing"
        parts.append(template.format(value))
    if isinstance(d.get("damage"), list):
        parts.append(f"suffering {sum(d['damage'])} damage")
    text = f"Its {source} ({d.get('effect', 'ability').replace('-', ' ')})"
    if parts:
        text += ": " + ", ".join(parts)
    if "attacker_check" in d:
        return _checked(text + ("; success." if d.get("success") else "; failure."), d)
    return Told(text + ".", ("roll " + ", ".join(map(str, d["roll"])))
                if isinstance(d.get("roll"), list) and d["roll"] else "")


def goal_target(target: str, n: Names) -> str:
    """A goal's target in words: a Base (``owner@place``), an asset, a faction, a rating."""
    if "@" in target:
        owner, place = target.split("@", 1)
        return f"{n.faction(owner)}'s Base at {n.place(place)}"
    if "#" in target:
        return n.asset(target)
    if target in ATTRIBUTES:
        return target.title()
    return n.faction(target)


def goal_title(goal: str, n: Names) -> str:
    """A goal's name: the campaign's own (``goal_types:``), else the book's, else its id."""
    return n.goals.get(goal) or GOALS.get(goal, goal)


def _goal(d: dict[str, Any], n: Names) -> str:
    """``Root Out the Enemy (The Iron Legion's Base at Tarsis)``: the book's name and target."""
    return goal_title(d["goal"], n) + (f" ({goal_target(d['target'], n)})" if d.get("target")
                                       else "")


PROSE: dict[str, Callable[[Event, Names], str]] = {
    "income": lambda e, n: f"Earns {e.data['amount']} Treasure (now {e.data['treasure']}).",
    "upkeep": lambda e, n: (
        f"Pays {e.data['paid']} Treasure upkeep for "
        f"{plural(e.data['excess'], e.data['attribute'] + ' asset')} beyond its rating"
        + (f"; loses {', '.join(n.asset(a) for a in e.data['lost'])}" if e.data["lost"] else "")
        + "."),
    "exposed": lambda e, n: (f"Its {n.asset(e.data['asset'])} stands exposed in "
                             f"{n.place(e.data['location'])} and must withdraw."),
    "paralysed": lambda e, n: "Reorganising after abandoning its goal, it " + (
        "does nothing this turn." if e.data.get("abilities_blocked", True)
        else "takes no faction action this turn."),
    "ability-blocked": lambda e, n: f"Still reorganising, it cannot use its "
                                    f"{n.asset(e.data['source'])}.",
    "action": lambda e, n: f"Chooses to {e.data['action']}." if e.data["action"] != "pass"
    else "Takes no action this turn.",
    "attack": _attack,
    "damage": _damage,
    "destroyed": lambda e, n: f"{n.asset(e.data['asset'], e.data['owner'])} is destroyed.",
    "collapse": lambda e, n: f"**{n.faction(e.faction)} collapses** and is no more.",
    "revealed": lambda e, n: f"{n.asset(e.data['asset'], e.faction)} loses its Stealth.",
    "move": lambda e, n: (f"Moves its {n.asset(e.data['asset'])} from {n.place(e.data['from'])} "
                          f"to {n.place(e.data['to'])}."),
    "transport": lambda e, n: (f"Its {n.asset(e.data['asset'])} is carried from "
                               f"{n.place(e.data['from'])} to {n.place(e.data['to'])}."),
    "arrive": lambda e, n: (f"Its {n.asset(e.data['asset'])}, held up on the way, arrives at "
                            f"{n.place(e.data['to'])} from {n.place(e.data['from'])}."),
    "repair": lambda e, n: (f"Repairs its {n.asset(e.data['asset'])} for {e.data['cost']} Treasure "
                            f"(+{e.data['healed']} HP, now {e.data['hp']})."),
    "repair-faction": lambda e, n: f"Restores its own strength: +{e.data['healed']} HP (now {e.data['hp']}).",
    "expand": lambda e, n: (f"Founds a Base of Influence at {n.place(e.data['location'])} "
                            f"with {e.data['hp']} HP for {e.data['cost']} Treasure."),
    "expand-check": lambda e, n: _checked(  # the builder's own roll first, as its sentence
        ("Outwits " if e.data["success"] else "Fails to outwit ") + f"{n.faction(e.data['rival'])}, "
        + ("which cannot" if e.data["success"] else "which may") + " strike at the new Base.", e.data),
    "base-planted": lambda e, n: f"The Base at {n.place(e.data['location'])} holds.",
    "base-lost": lambda e, n: f"The new Base at {n.place(e.data['location'])} is torn down at once.",
    "create": lambda e, n: (
        f"Raises a new {n.asset(e.data['asset'])} at {n.place(e.data['location'])} "
        f"for {e.data['cost']} Treasure" + (", in secret." if e.data["stealth"] else ".")),
    "hide": lambda e, n: f"Hides its {n.asset(e.data['asset'])} for {e.data['cost']} Treasure.",
    "sell": lambda e, n: f"Sells off its {n.asset(e.data['asset'])} for {e.data['gain']} Treasure.",
    "asset-lost": lambda e, n: f"Loses its {n.asset(e.data['asset'])} ({e.data['reason']}).",
    "bribe": lambda e, n: (f"Spends {e.data['amount']} Treasure on bribes and influence "
                           f"({e.data['progress']}/{e.data['needed']})."),
    "goal-chosen": lambda e, n: f"Sets its sights on a new goal: {_goal(e.data, n)}.",
    "goal-complete": lambda e, n: f"**Achieves its goal {_goal(e.data, n)}** and gains {e.data['xp']} XP.",
    "goal-failed": lambda e, n: f"Fails at its goal {_goal(e.data, n)}.",
    "goal-abandoned": lambda e, n: f"Abandons its goal {_goal(e.data, n)}.",
    "raise": lambda e, n: (f"Spends {e.data['xp_spent']} XP to raise its {e.data['attribute'].title()} "
                           f"to {e.data['rating']}."),
    "ability": lambda e, n: _ability(e, n),
    "gm-veto": lambda e, n: (
        f"*GM veto:* the plan {markdown_code(e.data['planned'])}"
        + (f" ({markdown_text(e.data['reason'])})" if e.data.get("reason") else "")
        + f" was overruled; the GM {'had it re-planned' if e.data.get('how') == 're-planned' else 'chose'}"
        f" {markdown_code(e.data['chosen'])}."),
    "immune": lambda e, n: Told(f"{n.asset(e.data['asset'], e.faction)} shrugs off the blow of "
                                f"the {n.asset(e.data['attacker'])}: immune.",
                                _roll(e.data["roll"]) if isinstance(e.data.get("roll"), dict) else ""),
    "quality-lost": lambda e, n: (f"Its {n.asset(e.data['asset'])} acts and is no longer "
                                  + " or ".join(q.title() for q in e.data.get("qualities", ()))
                                  + "."),
    "relation": lambda e, n: (
        f"{n.faction(e.faction)} now counts {n.faction(e.data['with'])} among its enemies ("
        + ("it was attacked" if e.data.get("cause") == "attacked"
           else f"it attacked {n.faction(e.data.get('victim'))}, an ally") + ")."),
    "rumour": lambda e, n: (
        f"*Rumour:* {n.asset(e.data['asset'], e.faction)}, unseen until now, comes out of hiding"
        + (" to strike." if e.data.get("reason") == "attacked" else ".")),
}
