"""The chronicle: events rendered as markdown, grouped by turn and by faction.

Each WWN event kind has one sentence template (``_PROSE``); rolls are shown with their breakdown
(``1d10+7 = 13 vs 1d10+3 = 7``). Kinds without a template are written plainly, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from factionsim.core.calendar import Calendar, campaign_calendar, turn_title
from factionsim.core.game import Event


@dataclass
class Names:
    """Display names for ids (factions, locations, asset types), the ruleset whose prose
    tells the events (see :func:`prose_table`), and ``notes``: lines for the chronicle's header
    under its title (a WWN campaign's house rules)."""

    factions: dict[str, str] = field(default_factory=dict)
    locations: dict[str, str] = field(default_factory=dict)
    asset_types: dict[str, str] = field(default_factory=dict)
    ruleset: str = "wwn"
    calendar: Calendar | None = None  # in-game dates for the turn headings
    notes: tuple[str, ...] = ()

    @classmethod
    def from_state(cls, state: Any) -> Names:
        """WWN states are read directly; other rulesets' states provide ``display_names()``
        returning the keyword arguments of this class."""
        if getattr(state, "ruleset", "wwn") != "wwn":
            return cls(**state.display_names())
        from factionsim.rules.wwn.data import ASSET_TYPES

        return cls(
            {f.id: f.name for f in state.factions.values()},
            {loc.id: loc.name for loc in state.map.locations.values()},
            {k: v.name for k, v in ASSET_TYPES.items()},
            calendar=campaign_calendar(state.extra),
            notes=(state.house_rules.summary(),),
        )

    def turn_title(self, turn: int) -> str:
        """``"Turn 3"``, or ``"Turn 3 (1 Frost 1203)"`` with a calendar."""
        return turn_title(self.calendar, turn)

    def faction(self, fid: str | None) -> str:
        return self.factions.get(fid or "", fid or "nobody")

    def place(self, lid: str) -> str:
        return self.locations.get(lid, lid)

    def asset(self, aid: str, owner: str | None = None) -> str:
        """``"the Iron Legion's Knights"`` for ``knights#3`` owned by iron-legion."""
        kind = self.asset_types.get(aid.rsplit("#", 1)[0], aid)
        return f"{self.faction(owner)}'s {kind}" if owner else kind


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


_PROSE: dict[str, Callable[[Event, Names], str]] = {
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
        f"*GM veto:* the plan `{e.data['planned']}`"
        + (f" ({e.data['reason']})" if e.data.get("reason") else "")
        + f" was overruled; the GM {'had it re-planned' if e.data.get('how') == 're-planned' else 'chose'}"
        f" `{e.data['chosen']}`."),
    "rumour": lambda e, n: (
        f"*Rumour:* {n.asset(e.data['asset'], e.faction)}, unseen until now, comes out of hiding"
        + (" to strike." if e.data.get("reason") == "attacked" else ".")),
}


#: decisions too small to tell (ending a step, keeping a goal); the GM sees the rest
_QUIET_DECISIONS = ("done", "keep goal")


def _worth_telling(e: Event) -> bool:
    return e.data.get("action") not in _QUIET_DECISIONS


def _decision(e: Event) -> str:
    """A decision's one-line reason from its agent, capitalised ("Attacks ...: Blood the Enemy")."""
    reason = str(e.data.get("reason", ""))
    return (reason[:1].upper() + reason[1:]).rstrip(".") + "."


def _plain(e: Event, n: Names) -> str:
    details = ", ".join(f"{k}: {v}" for k, v in e.data.items())
    return f"{e.kind.replace('-', ' ').capitalize()}" + (f" ({details})." if details else ".")


def prose_table(ruleset: str) -> dict[str, Callable[[Event, Names], str]]:
    """Event kind -> sentence maker for ``ruleset``: WWN's here, the others' in
    ``factionsim.rules.<ruleset>.prose.PROSE`` (imported on first use)."""
    if ruleset == "wwn":
        return _PROSE
    from importlib import import_module

    return import_module(f"factionsim.rules.{ruleset}.prose").PROSE


def describe(event: Event, names: Names) -> str:
    """One event as one sentence, in the prose of ``names.ruleset``."""
    table = _PROSE if names.ruleset == "wwn" else prose_table(names.ruleset)
    return table.get(event.kind, _plain)(event, names)


def render_markdown(events: Iterable[Event], names: Names, title: str = "Chronicle") -> str:
    """The whole chronicle: the title and ``names.notes``, then ``## Turn N``, initiative, then
    ``### Faction`` with its events."""
    lines = [f"# {title}", ""]
    if names.notes:
        lines += [*names.notes, ""]
    current_faction: str | None = None
    reasons: list[str] = []  # decisions waiting for the event they caused
    for e in events:
        if reasons and e.kind in ("initiative", "round", "faction-turn"):
            lines += [r[2:] for r in reasons]  # a decision that caused nothing to tell
            reasons.clear()
        if e.kind == "initiative":
            order = ", ".join(f"{names.faction(f)} ({e.data['rolls'][f]})"
                              for f in e.data["order"])
            lines += ["", f"## {names.turn_title(e.turn)}", "", f"Initiative: {order}.", ""]
            current_faction = None
        elif e.kind == "round":  # rulesets with a fixed order: {"order": [faction ids]}
            order = ", ".join(names.faction(f) for f in e.data["order"])
            lines += ["", f"## {names.turn_title(e.turn)}", "", f"Order: {order}.", ""]
            current_faction = None
        elif e.kind == "faction-turn":
            current_faction = e.faction
            lines += ["", f"### {names.faction(e.faction)}", ""]
        elif e.kind == "turn-end":
            continue
        elif e.kind == "decision":  # shown under the first thing it caused
            if _worth_telling(e):
                prefix = "" if e.faction in (current_faction, None) \
                    else f"({names.faction(e.faction)}) "
                reasons.append(f"  - *{prefix}{_decision(e)}*")
        else:
            prefix = "" if e.faction in (current_faction, None) else f"({names.faction(e.faction)}) "
            lines.append(f"- {prefix}{describe(e, names)}")
            lines += reasons
            reasons.clear()
    lines += [r[2:] for r in reasons]
    return "\n".join(lines).rstrip() + "\n"
