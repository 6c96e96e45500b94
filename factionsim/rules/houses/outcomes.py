"""What each House action does once the dice are down, and what Stress does to a House.

Every function here takes the state, the action context (``state.ctx``) and the event list;
none asks a question: the decisions (Plot Points, sacrifices) are phases of ``turn.py``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from factionsim.core.game import Event

from .dice import inflict, step_down, step_up
from .model import SKILLS, WRITES, Asset, House

if TYPE_CHECKING:
    from .state import HousesState


def log(state: HousesState, kind: str, faction: str | None, **data: Any) -> Event:
    return Event(state.current_turn, kind, faction, data)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "asset"


# ------------------------------------------------------------------ traits
def trait_die(state: HousesState, house: House, trait: str) -> int:
    """Current die of a skill or an asset of ``house`` (0 if it has none)."""
    if trait in house.skills:
        return house.skills[trait]
    a = state.assets.get(trait)
    return a.die if a is not None and a.owner == house.id else 0


def step_trait_down(state: HousesState, house: House, trait: str, n: int, cause: str,
                    events: list[Event]) -> None:
    """Step a skill (never below d4) or an asset (lost below d6) down ``n`` times."""
    if trait in house.skills:
        before = house.skills[trait]
        after = max(4, before - 2 * n)
        house.skills[trait] = after
        WRITES.bump()
        events.append(log(state, "trait-damaged", house.id, trait=trait, before=before, after=after,
                          steps=n, cause=cause))
        return
    a = state.assets[trait]
    before = a.die
    after = before - 2 * n
    events.append(log(state, "trait-damaged", house.id, trait=trait, before=before,
                      after=max(after, 0), steps=n, cause=cause, name=a.name))
    if after < 6:
        lose_asset(state, a, cause, events)
        return
    a.die = after


def lose_asset(state: HousesState, a: Asset, reason: str, events: list[Event]) -> None:
    del state.assets[a.id]
    WRITES.bump()
    events.append(log(state, "asset-lost", a.owner, asset=a.id, name=a.name, die=a.die,
                      reason=reason))


def new_asset(state: HousesState, owner: str, name: str, kind: str, die: int, duration: str,
              created: int | None = None) -> Asset:
    a = Asset(f"{slug(name)}#{state.next_asset}", name, kind, die, die, owner, duration, created)
    state.next_asset += 1
    state.assets[a.id] = a
    WRITES.bump()
    return a


# ------------------------------------------------------------------ outcomes
#: The smallest asset: "An Asset reduced below d6 is permanently lost" [text].
MIN_ASSET = 6
#: Dice an opposition adds for the *roller's* own troubles (not part of the difficulty set).
_HINDRANCE_LABELS = ("stress:", "trauma:", "complication:")


def difficulty_cap(opposition: dict[str, Any]) -> int:
    """The largest die a created asset may have: "The value of the asset cannot exceed the
    difficulty" [text], read as the largest die of the difficulty set by the GM (2d8 -> d8) or
    rolled by the opposing House, leaving out the dice added for the creator's own Stress,
    Trauma and Complications (a hurt House does not create bigger assets)."""
    labels = opposition.get("labels") or ["difficulty"] * len(opposition["dice"])
    own = [d for d, lab in zip(opposition["dice"], labels, strict=True)
           if not lab.startswith(_HINDRANCE_LABELS)]
    return max(own, default=4)


def extra_effect(roll: dict[str, Any]) -> int:
    """A second effect die of ``roll`` (Cortex Prime: a Plot Point buys one more effect die): the
    largest usable die outside the total after the effect die, 0 when there is none."""
    rest = sorted((d for i, (d, v) in enumerate(zip(roll["dice"], roll["values"], strict=True))
                   if v > 1 and i not in roll["kept"]), reverse=True)
    return rest[1] if len(rest) > 1 else 0


def resolve(state: HousesState, events: list[Event]) -> None:
    """Apply the outcome of the action in ``state.ctx`` (rolls done). May set ``ctx["ask"]``
    (a Plot Point question) or ``ctx["harm"]`` (incoming Stress for ``turn.py`` to settle)."""
    ctx = state.ctx
    act, opp = ctx["rolls"]["actor"], ctx["rolls"]["opposition"]
    margin = act["total"] - opp["total"]
    success = margin > 0
    ctx["success"] = success
    actor = state.houses[ctx["actor"]]
    target = state.houses.get(ctx.get("target") or "")
    events.append(log(state, "test", actor.id, action=ctx["kind"], target=ctx.get("target"),
                      trait=ctx.get("trait"), actor_roll=act, opposition=opp, success=success,
                      margin=margin))
    kind = ctx["kind"]
    if kind == "create-asset":
        if success:
            cap = difficulty_cap(opp)
            die = min(act["effect"], cap)
            if die < MIN_ASSET:  # "An Asset reduced below d6 is permanently lost" [text]
                events.append(log(state, "asset-too-small", actor.id, effect=act["effect"],
                                  cap=cap))
                return
            names = state.rules["created_asset_names"]
            name = names[state.next_asset % len(names)]
            a = new_asset(state, actor.id, name, "asset", die, "fleeting", state.current_turn)
            ctx["asset"] = a.id
            events.append(log(state, "asset-created", actor.id, asset=a.id, name=name, die=die,
                              effect=act["effect"], cap=cap, opposed_by=opp["house"]))
            if actor.plot_points > 0:
                ctx["ask"] = "solidify"
    elif kind == "create-complication":
        if success and target is not None:
            add_complication(state, target, actor.id, act["effect"], False, events)
            if actor.plot_points > 0:
                ctx["ask"] = "lasting"
    elif kind == "attack-house":
        assert target is not None
        winner, loser = (actor, target) if success else (target, actor)
        roll = act if success else opp
        ctx["harm"] = {"to": loser.id, "by": winner.id, "effect": roll["effect"], "kind": "stress",
                       "allowed": None, "extra": extra_effect(roll)}
    elif kind == "attack-trait":
        assert target is not None
        if success:
            step_trait_down(state, target, ctx["trait"], 1 + margin // 5, "attack", events)
        else:
            allowed = [t for t in ctx.get("committed", []) if t in state.assets]
            allowed.append(ctx["skill"])
            ctx["harm"] = {"to": actor.id, "by": target.id, "effect": opp["effect"],
                           "kind": "stress", "allowed": allowed}
    elif kind == "seize":
        holding = state.assets.get(ctx["trait"])
        if success and holding is not None and act["effect"] > holding.die:
            previous = holding.owner
            holding.owner = actor.id
            events.append(log(state, "seized", actor.id, asset=holding.id, name=holding.name,
                              previous=previous, die=holding.die, full=holding.full,
                              effect=act["effect"]))
    elif kind == "repair":
        _repair(state, actor, ctx["trait"], success, margin, events)
    elif kind == "recover":
        if success:
            what = ctx["trait"]
            before = getattr(actor, what)
            after = 0 if act["effect"] > before else step_down(before)
            setattr(actor, what, after)
            events.append(log(state, "recovered", actor.id, what=what, before=before, after=after,
                              effect=act["effect"]))
    elif kind == "recover-complication":
        source = ctx["trait"].split(":", 1)[1]
        comp = next((c for c in actor.complications if c["from"] == source), None)
        if success and comp is not None:
            before = comp["die"]
            after = 0 if act["effect"] > before else step_down(before)
            if after:
                comp["die"] = after
            else:
                actor.complications.remove(comp)
            WRITES.bump()
            events.append(log(state, "recovered", actor.id, what=f"complication:{source}",
                              before=before, after=after, effect=act["effect"]))


def _repair(state: HousesState, house: House, trait: str, success: bool, margin: int,
            events: list[Event]) -> None:
    if trait in house.skills:
        before, full = house.skills[trait], house.skills_full[trait]
    else:
        a = state.assets[trait]
        before, full = a.die, a.full
    if success:
        after = min(full, before + 2 * (1 + margin // 5))
        if trait in house.skills:
            house.skills[trait] = after
            WRITES.bump()
        else:
            state.assets[trait].die = after
        events.append(log(state, "repaired", house.id, trait=trait, before=before, after=after,
                          full=full))
    elif margin <= -5:
        if trait in house.skills:
            house.skills_full[trait] = before
            WRITES.bump()
        else:
            state.assets[trait].full = before
        events.append(log(state, "permanent-loss", house.id, trait=trait, die=before, full=full))


def add_complication(state: HousesState, house: House, source: str, die: int, lasting: bool,
                     events: list[Event]) -> dict[str, Any]:
    """A Complication from ``source`` on ``house``: one per source, stacking like Stress (an
    equal or larger one steps up; past d12 it stays d12)."""
    comp = next((c for c in house.complications if c["from"] == source), None)
    before = comp["die"] if comp else 0
    after = inflict(before, die) or 12
    if comp is None:
        comp = {"from": source, "die": after, "lasting": lasting}
        house.complications.append(comp)
    else:
        comp["die"] = after
        comp["lasting"] = comp["lasting"] or lasting
    WRITES.bump()
    events.append(log(state, "complication", house.id, source=source, before=before, after=after,
                      effect=die, lasting=comp["lasting"]))
    return comp


# ------------------------------------------------------------------ stress and trauma
def sacrifice_options(state: HousesState, house: House, allowed: list[str] | None) -> list[str]:
    """Skills above d4 and assets the House may throw at incoming Stress."""
    if allowed is None:
        out = [s for s in SKILLS if house.skills[s] > 4]
        out += [a.id for a in state.assets.values() if a.owner == house.id]
        return out
    return [t for t in allowed if (t in house.skills and house.skills[t] > 4)
            or (t in state.assets and state.assets[t].owner == house.id)]


def sacrifice(state: HousesState, house: House, trait: str, events: list[Event]) -> None:
    """Absorb part or all of the incoming effect (``ctx["harm"]``) with ``trait``."""
    harm = state.ctx["harm"]
    effect = harm["effect"]
    die = trait_die(state, house, trait)
    new_effect = 0 if die > effect else step_down(effect)
    name = state.assets[trait].name if trait in state.assets else None
    events.append(log(state, "sacrifice", house.id, trait=trait, die=die, effect=effect,
                      effect_after=new_effect, name=name))
    harm["effect"] = new_effect
    harm.setdefault("used", []).append(trait)
    step_trait_down(state, house, trait, 1, "sacrifice", events)


def apply_harm(state: HousesState, events: list[Event]) -> None:
    """Whatever is left of ``ctx["harm"]`` lands as Stress or Trauma."""
    harm = state.ctx.pop("harm")
    house = state.houses[harm["to"]]
    if harm["effect"] <= 0 or not house.alive:
        return
    if harm["kind"] == "trauma":
        add_trauma(state, house, harm["effect"], harm["by"], events)
        return
    before = house.stress
    after = inflict(before, harm["effect"])
    events.append(log(state, "stress", house.id, by=harm["by"], effect=harm["effect"],
                      before=before, after=after))
    if after:
        house.stress = after
    else:
        house.stress = 0
        events.append(log(state, "taken-out", house.id, by=harm["by"]))
        add_trauma(state, house, 6, harm["by"], events)


def add_trauma(state: HousesState, house: House, effect: int, by: str | None,
               events: list[Event]) -> None:
    before = house.trauma
    after = inflict(before, effect)
    events.append(log(state, "trauma", house.id, by=by, effect=effect, before=before, after=after))
    if after:
        house.trauma = after
    else:
        collapse(state, house, events)


def escalate_trauma(state: HousesState, house: House, hitches: int, events: list[Event]) -> None:
    """Hitches on a roll to recover from Trauma step the Trauma up, one step per hitch."""
    for _ in range(hitches):
        if not house.alive or not house.trauma:
            return
        before = house.trauma
        after = step_up(before)
        events.append(log(state, "trauma-escalates", house.id, before=before, after=after))
        if after:
            house.trauma = after
        else:
            collapse(state, house, events)


def collapse(state: HousesState, house: House, events: list[Event]) -> None:
    house.alive = False
    house.trauma = 0
    house.stress = 0
    lost = [a.id for a in state.assets.values() if a.owner == house.id]
    for aid in lost:
        del state.assets[aid]
    WRITES.bump()
    events.append(log(state, "collapse", house.id, assets_lost=lost))


def hitch_complications(state: HousesState, house: House, hitches: int, events: list[Event]) -> None:
    """Each hitch on a failed roll: a d6 Complication on the roller (the next one steps it up)."""
    if not hitches or not house.alive:
        return
    events.append(log(state, "hitch", house.id, hitches=hitches))
    for _ in range(hitches):
        add_complication(state, house, "hitch", 6, True, events)
