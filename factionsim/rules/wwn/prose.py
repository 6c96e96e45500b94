"""Chronicle sentences for every event WWN emits, rolls shown with their breakdown
(``1d10+7 = 13 vs 1d10+3 = 7``): :data:`PROSE`, event kind -> sentence maker.

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
from factionsim.core.text import markdown_code, markdown_text


def _check(d: dict[str, Any]) -> str:
    """``1d10+7 = 13 vs 1d10+3 = 7``, with extra dice shown as ``2d10kh``."""
    if d.get("automatic"):
        return f"won automatically ({d['automatic']})"
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


def _attack(e: Event, n: Names) -> str:
    d = e.data
    who = n.asset(d["attacker"], e.faction)
    whom = n.asset(d["defender"], d["target_faction"])
    outcome = "a hit" if d["success"] else "repulsed"
    return f"{who} strike at {whom} at {n.place(d['location'])}: {_check(d)}, {outcome}."


def _damage(e: Event, n: Names) -> str:
    d = e.data
    what = n.asset(d["asset"], d["owner"])
    if d["cause"] == "exposure":
        return f"{what}, left exposed where it is unwelcome, suffers {d['damage']} damage."
    rolled = f" ({_roll(d['roll'])})" if "roll" in d else ""
    by = " in the counterattack" if d["cause"] == "counterattack" else ""
    text = f"{what} takes {d['damage']} damage{by}{rolled}, {d['hp_left']} HP left"
    if "faction_damage" in d:
        text += f"; {n.faction(d['owner'])} loses {d['faction_damage']} HP ({d['faction_hp_left']} left)"
    return text + "."


#: how each detail of an ability event reads (key -> template taking the formatted value)
_ABILITY_DETAILS = (
    ("asset", "moving {}"), ("carried", "carrying {}"), ("target", "on {}"), ("to", "to {}"),
    ("target_faction", "against {}"), ("cost", "for {} Treasure"), ("paid", "paying {} Treasure"),
    ("gained", "gaining {} Treasure"), ("amount", "gaining {} Treasure"), ("lost", "losing {}"),
    ("fund", "a fund of {} Treasure"), ("discount", "{} Treasure off"), ("ransom", "ransom {}"),
    ("revealed", "revealing {}"),
)


def _ability(e: Event, n: Names) -> str:
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
        text += f"; {_check(d)}" + (", success" if d.get("success") else ", failure")
    return text + "."


def _goal(d: dict[str, Any]) -> str:
    name = d["goal"].replace("-", " ").title()
    return name + (f" ({d['target']})" if d.get("target") else "")


PROSE: dict[str, Callable[[Event, Names], str]] = {
    "income": lambda e, n: f"Earns {e.data['amount']} Treasure (now {e.data['treasure']}).",
    "upkeep": lambda e, n: (
        f"Pays {e.data['paid']} Treasure upkeep for {e.data['excess']} {e.data['attribute']} "
        f"asset(s) beyond its rating" + (f"; loses {', '.join(n.asset(a) for a in e.data['lost'])}"
                                         if e.data["lost"] else "") + "."),
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
    "repair": lambda e, n: (f"Repairs its {n.asset(e.data['asset'])} for {e.data['cost']} Treasure "
                            f"(+{e.data['healed']} HP, now {e.data['hp']})."),
    "repair-faction": lambda e, n: f"Restores its own strength: +{e.data['healed']} HP (now {e.data['hp']}).",
    "expand": lambda e, n: (f"Founds a Base of Influence at {n.place(e.data['location'])} "
                            f"with {e.data['hp']} HP for {e.data['cost']} Treasure."),
    "expand-check": lambda e, n: (
        f"{n.faction(e.data['rival'])} " + ("fails to oppose" if e.data["success"] else "may strike at")
        + f" the new Base: {_check(e.data)}."),
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
    "goal-chosen": lambda e, n: f"Sets its sights on a new goal: {_goal(e.data)}.",
    "goal-complete": lambda e, n: f"**Achieves its goal {_goal(e.data)}** and gains {e.data['xp']} XP.",
    "goal-failed": lambda e, n: f"Fails at its goal {_goal(e.data)}.",
    "goal-abandoned": lambda e, n: f"Abandons its goal {_goal(e.data)}.",
    "raise": lambda e, n: (f"Spends {e.data['xp_spent']} XP to raise its {e.data['attribute'].title()} "
                           f"to {e.data['rating']}."),
    "ability": lambda e, n: _ability(e, n),
    "gm-veto": lambda e, n: (
        f"*GM veto:* the plan {markdown_code(e.data['planned'])}"
        + (f" ({markdown_text(e.data['reason'])})" if e.data.get("reason") else "")
        + f" was overruled; the GM {'had it re-planned' if e.data.get('how') == 're-planned' else 'chose'}"
        f" {markdown_code(e.data['chosen'])}."),
    "relation": lambda e, n: (
        f"{n.faction(e.faction)} now counts {n.faction(e.data['with'])} among its enemies ("
        + ("it was attacked" if e.data.get("cause") == "attacked"
           else f"it attacked {n.faction(e.data.get('victim'))}, an ally") + ")."),
    "rumour": lambda e, n: (
        f"*Rumour:* {n.asset(e.data['asset'], e.faction)}, unseen until now, comes out of hiding"
        + (" to strike." if e.data.get("reason") == "attacked" else ".")),
}
