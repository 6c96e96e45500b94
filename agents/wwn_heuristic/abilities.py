"""How the heuristic uses asset abilities: which free actions are worth it, and how it answers
the engine's questions in the middle of a rule (rerolls, sacrifices, payments).

Free actions are judged by a small policy per asset type (``FREE_POLICY``): ``"always"`` (no
cost worth weighing), ``"if-healthy"`` (the ability damages its own asset: used only while the
asset can take the worst roll), ``"if-damaged"`` (it repairs: used only when something of ours is
damaged), ``"if-enemy"`` (it targets a rival: used when one is offered). Free moves and transports
are left to the Move action, where the heuristic plans with a purpose. Unknown types are skipped.
"""

from __future__ import annotations

from typing import Any

from factionsim.rules.wwn.ability.wealth_movement import UPKEEP
from factionsim.rules.wwn.actions import Decline, UseAbility

#: asset type -> (policy, worst self-damage for "if-healthy")
FREE_POLICY: dict[str, tuple[str, int]] = {
    "farmers": ("always", 0), "manufactory": ("always", 0), "court-patronage": ("always", 0),
    "trade-company": ("if-healthy", 4), "ancient-workshop": ("if-healthy", 6),
    "golden-prosperity": ("if-damaged", 0), "magical-logistics": ("if-damaged", 0),
    "informers": ("if-enemy", 0), "monopoly": ("if-enemy", 0), "supply-interruption": ("if-enemy", 0),
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
    return None


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
