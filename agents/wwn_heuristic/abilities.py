"""How the heuristic uses asset abilities: which free actions are worth it, and how it answers
the engine's questions in the middle of a rule (rerolls, sacrifices, payments).

Free actions are judged by a small policy per asset type (``FREE_POLICY``): ``"always"`` (no
cost worth weighing), ``"if-healthy"`` (the ability damages its own asset: used only while the
asset can take the worst roll), ``"if-damaged"`` (it repairs: used only when something of ours is
damaged), ``"if-enemy"`` (it targets a rival: used when one is offered; Monopoly and Supply
Interruption cost their owner nothing), ``"if-search-pays"`` (the Informers' search, 1 Treasure:
:func:`search_verdict`). Free moves and transports are left to the Move action, where the
heuristic plans with a purpose. Unknown types are skipped.
"""

from __future__ import annotations

from typing import Any

from factionsim.rules.wwn.ability.wealth_movement import UPKEEP
from factionsim.rules.wwn.actions import Decline, UseAbility

from .odds import cunning_chance

#: asset type -> (policy, worst self-damage for "if-healthy")
FREE_POLICY: dict[str, tuple[str, int]] = {
    "farmers": ("always", 0), "manufactory": ("always", 0), "court-patronage": ("always", 0),
    "trade-company": ("if-healthy", 4), "ancient-workshop": ("if-healthy", 6),
    "golden-prosperity": ("if-damaged", 0), "magical-logistics": ("if-damaged", 0),
    "informers": ("if-search-pays", 0), "monopoly": ("if-enemy", 0), "supply-interruption": ("if-enemy", 0),
    "shapeshifters": ("always", 0), "hired-friends": ("always", 0),
}

#: asset type -> Treasure it is expected to earn its owner each turn (its free action or income
#: ability: Farmers 1d6, 5+ gains 1; Manufactory 1d6, 1 loses 1, 2-5 gain 1, 6 gains 2; Court
#: Patronage 1; Trade Company 1d6-1; Ancient Workshop 1d6), less its upkeep (Free Company 1,
#: Hired Legion 2). The self-damage of the Trade Company and the Workshop is left to repairs.
NET_INCOME: dict[str, float] = {
    "farmers": 2 / 6, "manufactory": (-1 + 4 + 2) / 6, "court-patronage": 1.0,
    "trade-company": 2.5, "ancient-workshop": 3.5,
    **{kind: -cost for kind, cost in UPKEEP.items()},
}

#: the least chance of winning the Informers' Cunning vs Cunning search worth 1 Treasure: one in
#: three (Cunning one below the target's: 36%; two below: 28%, no search). Equal Cunning (45%)
#: was tried: the bundled campaign's Iron Legion then never searched and won 52% of
#: ``factionsim batch`` runs (docs/agents.md, "The Informers' search")
SEARCH_MIN_CHANCE = 1 / 3
#: Treasure the faction keeps after paying for a search (a Hide costs 2)
SEARCH_RESERVE = 2
#: war goals aimed at any hostile faction (the others name one: :func:`_war_goal_foe`)
_WAR_ON_ALL = {"blood-the-enemy", "invincible-valor", "sphere-dominance"}

#: reaction source type -> whether to accept (given the asking situation)
ALWAYS_ACCEPT = {"mindbenders", "useful-idiots", "golden-prosperity", "vanguard-unit", "monopoly"}


def choose_free_ability(sit: Any, legal: list[Any]) -> tuple[Any, str] | None:
    """The first free ability worth using now, with its reason (or None)."""
    damaged = any(a.damaged for a in sit.mine) or sit.me.hp < sit.me.max_hp
    for action in legal:
        if not isinstance(action, UseAbility) or action.source == "imperialist":
            continue
        asset = sit.state.asset(action.source)
        if asset is None:
            continue
        policy, worst = FREE_POLICY.get(asset.type, ("never", 0))
        name = sit.aname(asset)
        if policy == "always":
            return action, f"puts its {name} to work"
        if policy == "if-healthy" and asset.hp > worst:
            return action, f"works its {name} hard while it can bear the strain"
        if policy == "if-damaged" and damaged:
            return action, f"uses its {name} to mend its wounds"
        if policy == "if-enemy" and _targets_rival(sit, action.option):
            return action, f"turns its {name} against a rival"
        if policy == "if-search-pays" and action.option in sit.state.factions:  # (not a ransom)
            worth, why = search_verdict(sit, asset, action.option)
            if worth:
                return action, why
    return None


def search_verdict(sit: Any, informers: Any, target: str) -> tuple[bool, str]:
    """Whether the Informers' search (1 Treasure; Cunning vs Cunning against ``target``; on a
    success ``target``'s Stealthed assets within one move of the Informers are revealed) is worth
    making now, with the reason either way. It searches only when what it finds can be used and
    the search is not a long shot, from what the faction can see (the hidden assets are not):

    - it fights ``target``: the GM's ``enemy``, or the foe its war goal names, or any hostile
      faction under a war goal against all of them (Blood the Enemy, Invincible Valor, Sphere
      Dominance);
    - one of its own attack-capable assets stands within one move of the Informers, where what
      the search reveals would be;
    - it wins the Cunning vs Cunning check at least :data:`SEARCH_MIN_CHANCE` of the time;
    - it keeps :data:`SEARCH_RESERVE` Treasure after paying.
    """
    foe = sit.fname(target)
    if not _fights(sit, target):
        return False, f"no search: it is not at war with {foe}"
    near = set(sit.state.map.within(informers.location, 1))
    strikers = [a for a in sit.mine if a.id != informers.id and a.kind.attack is not None
                and a.location in near and sit.state.usable(a)]
    if not strikers:
        return False, "no search: nothing of its own near its Informers could strike what they find"
    chance = cunning_chance(sit.me, sit.state.factions[target])
    if chance < SEARCH_MIN_CHANCE:
        return False, f"no search: only {chance:.0%} to outwit {foe}"
    if sit.me.treasure < 1 + SEARCH_RESERVE:
        return False, f"no search: it cannot spare the Treasure ({sit.me.treasure})"
    return True, (f"sends its Informers after {foe}'s hidden assets around "
                  f"{sit.place(informers.location)}, with its {strikers[0].kind.name} at hand to "
                  f"strike what they find: {chance:.0%} to succeed")


def _fights(sit: Any, target: str) -> bool:
    """Whether the faction is at war with ``target`` (see :func:`search_verdict`)."""
    if target not in sit.target_ids:
        return False
    if target == sit.steer.enemy:
        return True
    if not sit.war_goal():
        return False
    goal = sit.goal
    if goal.id in _WAR_ON_ALL:
        return True
    return _war_goal_foe(sit) in (None, target)


def _war_goal_foe(sit: Any) -> str | None:
    """The faction a war goal names (its target, the owner of its target asset or Base), or None
    when it names none the faction can see."""
    target = sit.goal.target or ""
    if target in sit.state.factions:
        return target
    if "@" in target:
        return target.partition("@")[0]
    asset = sit.state.asset(target)
    return asset.owner if asset is not None else None


def _targets_rival(sit: Any, option: str) -> bool:
    target = sit.state.asset(option)
    if target is not None:
        return target.owner in sit.hostile_ids
    return option in sit.hostile_ids


def answer_reaction(sit: Any, legal: list[Any]) -> tuple[Any, str]:
    """Answer a question the engine asks mid-rule. Accepts what is free or clearly worth its
    price, declines what would cost more than it saves."""
    decline = next((a for a in legal if isinstance(a, Decline)), None)
    for action in legal:
        if not isinstance(action, UseAbility):
            continue
        asset = sit.state.asset(action.source)
        kind = asset.type if asset is not None else ""
        if kind in ALWAYS_ACCEPT:
            return action, f"answers with its {sit.aname(asset)}"
        if kind == "just-as-planned" and asset.hp > 6:
            return action, "Just As Planned: the scheme can absorb a setback"
        if kind in ("healers", "lead-or-silver"):
            target = sit.state.asset(sit.view.decision.get("ask", {}).get("args", {}).get("defender"))
            worth = target.kind.cost if target is not None and not target.is_base else 0
            if worth >= 4 and sit.me.treasure >= worth // 2 + 2:
                return action, f"pays to keep the {target.kind.name}"
        if decline is None:  # a forced choice (e.g. which asset meets a rogue attack)
            return action, f"answers with {_source_name(sit, action.source)}: it must choose one"
        if action.option in ("pay", "pay-ransom") and sit.me.treasure >= 3:
            return action, "pays rather than lose the asset"
    if decline is not None:
        return decline, "lets it pass: not worth what it would cost"
    return legal[0], "the only answer the rules leave it"


def _source_name(sit: Any, source: str) -> str:
    asset = sit.state.asset(source)
    return sit.aname(asset) if asset is not None else source
