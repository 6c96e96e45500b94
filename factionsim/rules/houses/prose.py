"""Chronicle sentences for every event the Great Houses emit, dice shown
(``d8 d10 d6 -> 7+9, effect d6 vs 2d8 = 11``). An event as the players know it
(:mod:`.visibility`: no rolls, effect dice, Plot Points or advances spent) is told without them.

>>> from factionsim.core.names import Names
>>> r = {"house": "a", "dice": [8, 10, 6], "values": [7, 9, 3], "kept": [0, 1], "total": 16,
...      "effect": 6, "hitches": 0}
>>> o = {"house": None, "dice": [8, 8], "values": [5, 6], "kept": [0, 1], "total": 11,
...      "effect": 4, "hitches": 0, "labels": ["difficulty", "difficulty"]}
>>> pools(r, o, Names())
'd8 d10 d6 -> 7+9, effect d6 vs 2d8 = 11'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from factionsim.core.ending import game_end_text
from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.prose import plural

KIND_VERB = {
    "create-asset": "works to create an asset",
    "create-complication": "moves to complicate {target}'s affairs",
    "attack-house": "attacks {target}",
    "attack-trait": "strikes at {target}'s {trait}",
    "seize": "tries to seize {trait} from {target}",
    "repair": "repairs its {trait}",
    "recover": "recovers from its {trait}",
    "recover-complication": "recovers from {trait}",
}


def die(d: int) -> str:
    return f"d{d}" if d else "none"


def roll_text(r: dict[str, Any]) -> str:
    """``d8 d10 d6 -> 7+9, effect d6`` (hitches noted)."""
    kept = "+".join(str(r["values"][i]) for i in r["kept"]) or "0"
    text = " ".join(die(x) for x in r["dice"]) + f" -> {kept}, effect {die(r['effect'])}"
    if r.get("hitches"):
        text += f" ({r['hitches']} hitch{'es' if r['hitches'] > 1 else ''})"
    return text


def difficulty_text(r: dict[str, Any]) -> str:
    """``2d8 = 11``; with the roller's Stress, Trauma or Complication: ``2d8 + d6 = 11``."""
    labels = r.get("labels") or ["difficulty"] * len(r["dice"])
    base = Counter(d for d, lab in zip(r["dice"], labels, strict=False) if lab == "difficulty")
    extra = [d for d, lab in zip(r["dice"], labels, strict=False) if lab != "difficulty"]
    parts = [f"{n}d{d}" for d, n in base.items()] + [die(d) for d in extra]
    return " + ".join(parts) + f" = {r['total']}"


def pools(actor: dict[str, Any], opposition: dict[str, Any], n: Names) -> str:
    if opposition.get("house") is None:
        return f"{roll_text(actor)} vs {difficulty_text(opposition)}"
    return f"{roll_text(actor)} vs {n.faction(opposition['house'])}'s {roll_text(opposition)}"


def trait_name(trait: str | None, n: Names, owner: str | None = None) -> str:
    """A skill (``Might``), an asset (``Castle Aldren``), ``Stress``, ``a complication``."""
    if not trait:
        return "?"
    if "#" in trait:
        prefix = trait.rsplit("#", 1)[0]
        return n.asset_types.get(prefix) or prefix.replace("-", " ").title()
    if trait.startswith("complication:"):
        src = trait.split(":", 1)[1]
        return "the setbacks of its hitches" if src == "hitch" else \
            f"the complication laid by {n.faction(src)}"
    return trait.replace("-", " ").title()


def its(trait: str | None, n: Names) -> tuple[str, bool]:
    """The subject of a sentence about one of a House's own traits and whether it is plural:
    ``("Its Stress", False)``, ``("The setbacks of its hitches", True)``."""
    name = trait_name(trait, n)
    if name.startswith("the "):
        return name[0].upper() + name[1:], name.startswith("the setbacks")
    return f"Its {name}", False


def _recovered(e: Event, n: Names) -> str:
    d = e.data
    subject, many = its(d["what"], n)
    effect = f" (effect {die(d['effect'])})" if "effect" in d else ""
    return f"{subject} {'ease' if many else 'eases'} {die(d['before'])} -> {die(d['after'])}{effect}."


def _created(e: Event, n: Names) -> str:
    d = e.data
    if "effect" not in d:  # the players' view
        return f"Creates the asset {d['name']} at {die(d['die'])}."
    against = (f"{n.faction(d['opposed_by'])}'s largest die" if d.get("opposed_by")
               else "the difficulty's largest die")
    return (f"Creates the asset {d['name']} at {die(d['die'])} (effect {die(d['effect'])}, no "
            f"larger than {against}, d{d['cap']}); fleeting unless solidified.")


def _test(e: Event, n: Names) -> str:
    d = e.data
    verb = KIND_VERB.get(d["action"], d["action"]).format(
        target=n.faction(d.get("target")), trait=trait_name(d.get("trait"), n))
    if d["action"] == "attack-house":
        outcome = "the attack succeeds" if d["success"] else f"{n.faction(d['target'])} prevails"
    elif "margin" not in d:  # the players' view: the outcome, not the dice
        outcome = "success" if d["success"] else "failure"
    else:
        outcome = (f"success by {d['margin']}" if d["success"]
                   else ("a tie, which fails" if d["margin"] == 0 else f"failure by {-d['margin']}"))
    text = verb[0].upper() + verb[1:]
    if "actor_roll" not in d:
        return f"{text}: {outcome}."
    return f"{text}: {pools(d['actor_roll'], d['opposition'], n)}; {outcome}."


def _action(e: Event, n: Names) -> str:
    d = e.data
    if d["action"] == "pass":
        return "Lets its free recovery pass." if d.get("free") else "Bides its time."
    what = {"create-asset": "create an asset", "create-complication": "create a complication",
            "attack-house": "attack", "attack-trait": "attack an asset or a skill",
            "seize": "seize a holding", "repair": "repair a damaged trait",
            "recover": "recover from Stress or Trauma",
            "recover-complication": "recover from a complication"}.get(d["action"], d["action"])
    target = f" of {n.faction(d['target'])}" if d["action"] in ("attack-trait", "seize") else (
        f" {n.faction(d['target'])}" if d["action"] == "attack-house" else (
            f" on {n.faction(d['target'])}" if d.get("target") else ""))
    return ("Free recovery: " if d.get("free") else "Chooses to ") + what + target + "."


def _damaged(e: Event, n: Names) -> str:
    d = e.data
    what = d.get("name") or trait_name(d["trait"], n)
    why = {"attack": "under attack", "sacrifice": "sacrificed"}.get(d["cause"], d["cause"])
    if not d["after"] or ("#" in d["trait"] and d["after"] < 6):
        return f"Its {what} is stepped down from {die(d['before'])} below d6 ({why})."
    return f"Its {what} is stepped down {die(d['before'])} -> {die(d['after'])} ({why})."


def _plot(e: Event, n: Names) -> str:
    d = e.data
    use = {
        "hinder": "rolls a Distinction as d4 and gains a Plot Point",
        "add-die": "spends a Plot Point to add a die to its total",
        "solidify": f"spends a Plot Point to keep {trait_name(d.get('asset'), n)} for the season",
        "lasting": f"spends a Plot Point so its complication on {n.faction(d.get('target'))} lasts",
        "trauma": f"spends a Plot Point to inflict Trauma, not Stress, on {n.faction(d.get('target'))}",
        "both": (f"spends a Plot Point for a second effect die: {n.faction(d.get('target'))} takes "
                 f"Stress and also Trauma at {die(d.get('extra', 0))}"),
    }[d["use"]]
    return f"{use[0].upper()}{use[1:]} ({d['left']} left)."


def _advance(e: Event, n: Names) -> str:
    d = e.data
    opt = d["option"]
    if opt == "signature":
        what = f"makes {d['name']} a Signature Asset at d6"
    elif opt == "step-signature":
        what = f"steps its Signature Asset {d['name']} up to {die(d['die'])}"
    elif opt == "sfx":
        what = f"unlocks the SFX {d['trait'].title()}"
    elif opt == "step":
        what = f"steps up {d.get('name') or trait_name(d['trait'], n)} to {die(d['full'])}"
    else:
        what = (f"steps {d['trait'].title()} up to {die(d['up_to'])} and {d['other'].title()} "
                f"down to {die(d['down_to'])}")
    if "cost" not in d:  # the players' view: what changed, not the advances spent
        return f"Advances: {what}."
    return f"Spends {d['cost']} advance{'s' if d['cost'] > 1 else ''}: {what} ({d['left']} left)."


def _initiative(e: Event, n: Names) -> str:  # the chronicle writes its own initiative line
    return "Initiative: " + ", ".join(f"{n.faction(h)} {e.data['rolls'][h]}" for h in e.data["order"])


PROSE: dict[str, Callable[[Event, Names], str]] = {
    "initiative": _initiative,
    "faction-turn": lambda e, n: f"{n.faction(e.faction)} acts (round {e.data['round']}).",
    "action": _action,
    "test": _test,
    "plot-point": _plot,
    "oppose": lambda e, n: f"Opposes the asset {n.faction(e.data['actor'])} is creating.",
    "asset-created": _created,
    "asset-too-small": lambda e, n: (
        f"The effect die is only {die(min(e.data['effect'], e.data['cap']))}: too small for an "
        "asset, which needs at least a d6."),
    "asset-lost": lambda e, n: {
        "spent": f"{e.data['name']} ({die(e.data['die'])}) is spent: a fleeting asset serves one roll.",
    }.get(e.data["reason"], f"Loses {e.data['name']} for good (stepped below d6, {e.data['reason']})."),
    "complication": lambda e, n: (
        f"A complication from {n.faction(e.data['source']) if e.data['source'] != 'hitch' else 'its hitches'}"
        f" weighs on it: {die(e.data['before'])} -> {die(e.data['after'])}"
        + (" (lasting until recovered)." if e.data["lasting"] else " (until the season ends).")),
    "trait-damaged": _damaged,
    "seized": lambda e, n: (
        f"**Seizes {e.data['name']}** ({die(e.data['die'])}, repairable to {die(e.data['full'])}) from "
        f"{n.faction(e.data['previous'])}"
        + (f" with effect {die(e.data['effect'])}." if "effect" in e.data else ".")),
    "repaired": lambda e, n: (f"Its {trait_name(e.data['trait'], n)} recovers {die(e.data['before'])} -> "
                              f"{die(e.data['after'])} (full {die(e.data['full'])})."),
    "permanent-loss": lambda e, n: (
        f"Failing by 5 or more, the damage to its {trait_name(e.data['trait'], n)} becomes permanent: "
        f"{die(e.data['full'])} is now {die(e.data['die'])} for good."),
    "recovered": _recovered,
    "harm": lambda e, n: (f"{n.faction(e.data['by'])} inflicts {e.data['harm'].title()}"
                          + (f" at {die(e.data['effect'])}" if "effect" in e.data else "")
                          + f" on {n.faction(e.faction)}."),
    "sacrifice": lambda e, n: (
        f"Throws its {e.data.get('name') or trait_name(e.data['trait'], n)} ({die(e.data['die'])}) "
        "in the way" + ("." if "effect_after" not in e.data else ": the effect "
        + ("is cancelled." if not e.data["effect_after"]
           else f"steps down {die(e.data['effect'])} -> {die(e.data['effect_after'])}."))),
    "stress": lambda e, n: f"Stress {die(e.data['before'])} -> {die(e.data['after'])}.",
    "taken-out": lambda e, n: "**Stress passes d12: the House is taken out** and suffers Trauma.",
    "trauma": lambda e, n: f"Trauma {die(e.data['before'])} -> {die(e.data['after'])}.",
    "trauma-escalates": lambda e, n: (f"A hitch escalates its Trauma {die(e.data['before'])} -> "
                                      f"{die(e.data['after'])}."),
    "collapse": lambda e, n: f"**{n.faction(e.faction)} collapses**, its Trauma past d12.",
    "hitch": lambda e, n: (f"{e.data['hitches']} hitch{'es' if e.data['hitches'] > 1 else ''} "
                           "on a failed roll."),
    "expired": lambda e, n: (
        f"The season ends: {plural(len(e.data['assets']), 'fleeting or season-long asset')} and "
        f"{plural(e.data['complications'], 'complication')} fade."),
    "advance": _advance,
    "turn-end": lambda e, n: "The season ends.",
    "game-end": game_end_text,
}
