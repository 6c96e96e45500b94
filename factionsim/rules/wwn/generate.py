"""A new WWN campaign by the faction creation rules of 6.7.0, seeded and deterministic.

- **Map**: ``n`` named locations scattered on a plane, joined into one connected graph (each
  place to its nearest already-joined place, plus a few short extra roads); the westmost places
  are coastal. By default the map grows with the factions (:func:`default_locations`: ten
  places for four factions, three more for each faction beyond), so that a long campaign still
  has ground to expand into.
- **Factions** by size (6.7.0): small 3-4 / 2-3 / 1-2 in best / second / worst attribute; medium
  5-6 / 4-5 / 2-3 with two assets in the primary attribute and two among the others; large
  7-8 / 6-7 / 3-4 with four and four. (The text gives small factions no asset count: we give them
  one primary asset and one other, as the bundled campaign does.) Every asset is one the faction
  could buy (purchase rating at most its attribute, Magic at most its Magic rating) and no
  attribute holds more assets than its rating (so no upkeep is owed on turn 1).
- Every faction rules its headquarters; a large one also rules up to two places next to it, a
  medium one up to one. Assets start at the headquarters or in places it rules.
- A goal each (one that needs no target, fitting the best attribute and one the faction can
  pursue from where it starts: Inside Enemy Territory only for a small faction with a rival close
  by; no Blood the Enemy, as every rival's assets start on ground it rules, where a Force asset
  may not go), one tag, a little Treasure.
- **A web of relations** (:func:`relation_web`), written with the house rule
  ``relations_default: neutral`` so that the pairs it does not list are at peace: every faction's
  *rival* is the faction whose headquarters is nearest its own (hostile), and so is every
  neighbour within two moves that shares its best attribute (they want the same things); a few
  pairs that are not rivals but have a rival in common are *allies*; everyone else is neutral.
  Relations change in play by the house rule ``relations_change`` (attacks make enemies).

>>> a = generate_campaign(seed=3)
>>> b = generate_campaign(seed=3)
>>> a == b, len(a["factions"]), len(a["locations"])
(True, 4, 10)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .data import ASSETS, ATTRIBUTES, MAGIC_LEVELS

SIZES = {  # best, second, worst ranges; primary assets, other assets; Treasure range
    "small": ((3, 4), (2, 3), (1, 2), 1, 1, (2, 5)),
    "medium": ((5, 6), (4, 5), (2, 3), 2, 2, (4, 8)),
    "large": ((7, 8), (6, 7), (3, 4), 4, 4, (8, 12)),
}
#: The sizes handed out in order (a campaign of 4: large, medium, medium, small).
SIZE_ORDER = ("large", "medium", "small", "medium", "small", "large", "small", "medium")
RULED_NEIGHBOURS = {"small": 0, "medium": 1, "large": 2}
MAGIC_BY_SIZE = {"small": ("none", "low", "medium", "high"), "medium": ("none", "low", "medium"),
                 "large": ("none", "low", "low", "medium")}
TAG_OF = {"force": "martial", "cunning": "machiavellian", "wealth": "rich"}
GOAL_OF = {"force": ("expand-influence", "peaceable-kingdom"),
           "cunning": ("inside-enemy-territory", "expand-influence"),
           "wealth": ("wealth-of-kingdoms", "expand-influence", "peaceable-kingdom")}
#: goals given only where they fit: (goal, needs a rival within two moves, small factions only)
GOAL_NEEDS = {"blood-the-enemy": (True, False), "inside-enemy-territory": (True, True)}
#: the most alliances a campaign of n factions gets: n // 3
ALLIANCE_SHARE = 3

_PLACE_HEADS = ("Ash", "Bren", "Cold", "Dun", "Elder", "Fen", "Grey", "High", "Iron", "Kar", "Lan",
                "Marsh", "North", "Oak", "Raven", "Salt", "Stone", "Thorn", "Vel", "Wolf", "Wyn",
                "Amber", "Black", "Gold", "Hollow", "Mist", "Red", "Silver", "Storm", "Winter")
_PLACE_TAILS = ("ford", "moor", "keep", "mere", "hollow", "cross", "fall", "gate", "haven",
                "march", "reach", "vale", "wick", "barrow", "crag", "field", "holm", "stead",
                "water", "watch")
_KINGDOMS = ("Kingdom of {p}", "Crown of {p}", "Principality of {p}", "{p} Dominion")
_MEDIUM = ("Barony of {p}", "Free City of {p}", "{p} Trading Company", "Church of the {a} Dawn",
           "Order of the {a} Lance", "{p} Mercantile League")
_SMALL = ("Cult of the {a} Flame", "{a} Hand", "Brotherhood of the {a} Knife", "{a} Lantern Society",
          "Coven of {p}", "Smugglers of {p}")
_ADJ = ("Ashen", "Veiled", "Silent", "Crimson", "Gilded", "Hollow", "Iron", "Pale", "Sable",
        "Burning", "Sunken", "Thorned")
_TITLES = ("The Shattered {p}", "The {a} Marches", "Embers over {p}", "The Long Winter of {p}",
           "The Crowns of {p}")


def _slug(name: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in name)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def _pick(rng: np.random.Generator, items: tuple[Any, ...] | list[Any]) -> Any:
    return items[int(rng.integers(len(items)))]


def _place_names(rng: np.random.Generator, n: int) -> list[str]:
    combos = [h + t for h in _PLACE_HEADS for t in _PLACE_TAILS]
    order = rng.permutation(len(combos))[:n]
    names = [combos[i] for i in order]
    return [("The " + n) if n.endswith(("moor", "reach", "march", "vale")) and i % 3 == 0 else n
            for i, n in enumerate(names)]


def make_map(rng: np.random.Generator, n: int) -> tuple[list[dict[str, Any]], np.ndarray]:
    """``n`` locations (dicts of the campaign format) on one connected graph, and their points."""
    pts = rng.random((n, 2))
    names = _place_names(rng, n)
    ids = [_slug(nm) for nm in names]
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    edges: set[tuple[int, int]] = set()
    joined = [0]
    for i in range(1, n):  # nearest already-joined place: a connected tree
        j = min(joined, key=lambda k: (dist[i, k], k))
        edges.add((min(i, j), max(i, j)))
        joined.append(i)
    extra = sorted((dist[i, j], i, j) for i in range(n) for j in range(i + 1, n)
                   if (i, j) not in edges)
    degree = np.zeros(n, dtype=int)
    for i, j in edges:
        degree[i] += 1
        degree[j] += 1
    for _, i, j in extra[: max(1, n // 3)]:  # a few short roads make loops
        if degree[i] < 4 and degree[j] < 4:
            edges.add((i, j))
            degree[i] += 1
            degree[j] += 1
    west = set(np.argsort(pts[:, 0])[: max(1, n // 4)].tolist())
    locations = []
    for i in range(n):
        loc: dict[str, Any] = {"id": ids[i], "name": names[i],
                               "neighbors": [ids[j] for a, j in sorted(edges) if a == i]}
        if i in west:
            loc["coastal"] = True
        locations.append(loc)
    return locations, pts


def _neighbours(locations: list[dict[str, Any]]) -> dict[str, set[str]]:
    adj: dict[str, set[str]] = {loc["id"]: set() for loc in locations}
    for loc in locations:
        for n in loc["neighbors"]:
            adj[loc["id"]].add(n)
            adj[n].add(loc["id"])
    return adj


def _hop_distances(adj: dict[str, set[str]], start: str) -> dict[str, int]:
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            for b in sorted(adj[a]):
                if b not in dist:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


def starting_assets(rng: np.random.Generator, ratings: dict[str, int], magic: str, primary: str,
                    n_primary: int, n_other: int) -> list[str]:
    """Asset ids a faction could have bought: rating and Magic within reach, per-attribute count
    at most the rating, Fleets left out (they need coasts and seas)."""
    level = MAGIC_LEVELS.index(magic)
    pool = {a: sorted(k for k, t in ASSETS.items()
                      if t.attribute == a and t.rating <= ratings[a] and t.magic_level <= level
                      and "fleet" not in k)
            for a in ATTRIBUTES}
    counts = dict.fromkeys(ATTRIBUTES, 0)
    chosen: list[str] = []
    others = [a for a in ATTRIBUTES if a != primary]
    wanted = [primary] * n_primary + [_pick(rng, others) for _ in range(n_other)]
    for attr in wanted:
        if counts[attr] >= ratings[attr] or not pool[attr]:
            attr = next((a for a in others if counts[a] < ratings[a] and pool[a]), None) or attr
        if counts[attr] >= ratings[attr] or not pool[attr]:
            continue
        # favour the stronger assets the faction can afford to field
        options = pool[attr]
        weights = np.array([1.0 + ASSETS[k].rating for k in options])
        chosen.append(options[int(rng.choice(len(options), p=weights / weights.sum()))])
        counts[attr] += 1
    return chosen


def relation_web(rng: np.random.Generator, factions: list[dict[str, Any]],
                 hq_distance: dict[tuple[str, str], int]) -> list[list[str]]:
    """``[[a, b, relation]]`` for the pairs that are not neutral (see the module docstring):
    rivalries from the homelands (nearest headquarters; neighbours within two moves with the
    same best attribute) and alliances between factions with a rival in common (the farthest
    apart first, at most ``n // 3``)."""
    ids = [f["id"] for f in factions]
    best = {f["id"]: max(ATTRIBUTES, key=lambda a, f=f: (f[a], -ATTRIBUTES.index(a)))
            for f in factions}
    hostile: set[frozenset[str]] = set()
    for a in ids:
        others = [b for b in ids if b != a]
        near = min(hq_distance[(a, b)] for b in others)
        closest = [b for b in others if hq_distance[(a, b)] == near]
        hostile.add(frozenset((a, _pick(rng, closest))))
        for b in others:
            if hq_distance[(a, b)] <= 2 and best[a] == best[b]:
                hostile.add(frozenset((a, b)))
    rivals = {a: {b for b in ids if frozenset((a, b)) in hostile} for a in ids}
    candidates = sorted(((-hq_distance[(a, b)], float(rng.random()), a, b)
                         for i, a in enumerate(ids) for b in ids[i + 1:]
                         if frozenset((a, b)) not in hostile and rivals[a] & rivals[b]))
    allied: list[tuple[str, str]] = []
    for _, _, a, b in candidates[:len(ids) // ALLIANCE_SHARE]:
        allied.append((a, b))
    order = {fid: i for i, fid in enumerate(ids)}
    out = [[*sorted(pair, key=order.get), "hostile"] for pair in hostile]
    out += [[a, b, "allied"] for a, b in allied]
    return sorted(out, key=lambda r: (order[r[0]], order[r[1]]))


def _fitting_goal(rng: np.random.Generator, primary: str, size: str, rival_near: bool) -> str:
    """A starting goal for the faction's best attribute that it can pursue from where it is."""
    fits = [g for g in GOAL_OF[primary]
            if not (GOAL_NEEDS.get(g, (False, False))[0] and not rival_near)
            and not (GOAL_NEEDS.get(g, (False, False))[1] and size != "small")]
    return _pick(rng, fits)


#: a generated map's places by default: ten for four factions (or fewer), and this many more
#: for each faction beyond four
FEWEST_PLACES, PLACES_PER_FACTION = 10, 3


def default_locations(n_factions: int) -> int:
    """How many places ``factionsim new`` puts on the map of ``n_factions`` factions when the
    GM does not say: ten for up to four factions, three more for each faction beyond (5: 13,
    6: 16, 7: 19, 8: 22).

    A design choice of the generator, not a rule (6.7.0 leaves the map to the GM). A faction
    starts on one to three places and plants a Base about every four turns while it has new
    ground in reach; every faction can hold a Base in every place, so on a fixed ten-place map
    the factions of a 40-turn campaign hold a Base nearly everywhere by turn 20 and run out of
    the quick goal (Expand Influence), and the more factions share the map, the more of the
    free ground is forbidden to them by rivals. Four factions keep the ten places they always
    had: the bundled campaign's shape, which the shipped trained policy plays (a policy plays
    only campaigns of the faction and location counts it was trained on). The figures behind
    the choice are in ``docs/agents.md`` (Measured behaviour)."""
    return FEWEST_PLACES + PLACES_PER_FACTION * max(0, n_factions - 4)


def generate_campaign(n_factions: int = 4, n_locations: int | None = None, seed: int = 0,
                      agent: str = "heuristic", name: str | None = None) -> dict[str, Any]:
    """Campaign data (the campaign-file format) for ``n_factions`` factions on ``n_locations``
    places (default :func:`default_locations`)."""
    if not 2 <= n_factions <= 8:
        raise ValueError("a campaign needs 2 to 8 factions (6.7.0 advises three or four)")
    if n_locations is None:
        n_locations = default_locations(n_factions)
    if n_locations < n_factions:
        raise ValueError("give at least as many locations as factions")
    rng = np.random.default_rng(seed)
    locations, _ = make_map(rng, n_locations)
    adj = _neighbours(locations)
    ids = [loc["id"] for loc in locations]
    by_id = {loc["id"]: loc for loc in locations}
    place = {loc["id"]: loc["name"] for loc in locations}

    # headquarters spread out: each next one as far (in moves) from the others as possible
    hqs = [ids[int(rng.integers(len(ids)))]]
    while len(hqs) < n_factions:
        dists = [_hop_distances(adj, h) for h in hqs]
        best = max(ids, key=lambda i: (min(d.get(i, 99) for d in dists) if i not in hqs else -1,
                                       -ids.index(i)))
        hqs.append(best)

    factions = []
    used_names: set[str] = set()
    ruled: dict[str, str] = {}
    for k in range(n_factions):
        size = SIZE_ORDER[k % len(SIZE_ORDER)]
        best_r, second_r, worst_r, n_primary, n_other, treasure_r = SIZES[size]
        order = [ATTRIBUTES[i] for i in rng.permutation(3)]
        ratings = {order[0]: int(rng.integers(best_r[0], best_r[1] + 1)),
                   order[1]: int(rng.integers(second_r[0], second_r[1] + 1)),
                   order[2]: int(rng.integers(worst_r[0], worst_r[1] + 1))}
        magic = _pick(rng, MAGIC_BY_SIZE[size])
        hq = hqs[k]
        templates = {"large": _KINGDOMS, "medium": _MEDIUM, "small": _SMALL}[size]
        for _ in range(50):
            fname = _pick(rng, templates).format(p=place[hq].removeprefix("The "), a=_pick(rng, _ADJ))
            if fname not in used_names:
                break
        used_names.add(fname)
        fid = _slug(fname.removeprefix("The "))
        ruled[hq] = fid
        home = [hq]
        for n in sorted(adj[hq]):
            if len(home) > RULED_NEIGHBOURS[size]:
                break
            if n not in ruled and n not in hqs:
                ruled[n] = fid
                home.append(n)
        kinds = starting_assets(rng, ratings, magic, order[0], n_primary, n_other)
        assets = [{"type": kind, "location": hq if i % 2 == 0 or len(home) == 1
                   else home[1 + (i // 2) % (len(home) - 1)]}
                  for i, kind in enumerate(kinds)]
        tags = [TAG_OF[order[0]]] if rng.random() < 0.6 else [_pick(rng, ("populist", "mobile"))]
        factions.append({
            "id": fid, "name": ("The " if not fname.startswith("The ") else "") + fname,
            "force": ratings["force"], "cunning": ratings["cunning"], "wealth": ratings["wealth"],
            "magic": magic, "treasure": int(rng.integers(treasure_r[0], treasure_r[1] + 1)),
            "tags": tags, "goal": None, "agent": agent,
            "headquarters": hq, "assets": assets, "_size": size, "_primary": order[0],
        })
    for lid, fid in ruled.items():
        by_id[lid]["ruler"] = fid
    hops = {f["headquarters"]: _hop_distances(adj, f["headquarters"]) for f in factions}
    hq_distance = {(a["id"], b["id"]): hops[a["headquarters"]].get(b["headquarters"], 99)
                   for a in factions for b in factions if a is not b}
    relations = relation_web(rng, factions, hq_distance)
    for f in factions:
        rival_near = any(f["id"] in r[:2] and r[2] == "hostile"
                         and hq_distance[tuple(r[:2])] <= 2 for r in relations)
        f["goal"] = _fitting_goal(rng, f.pop("_primary"), f.pop("_size"), rival_near)
    title = name or _pick(rng, _TITLES).format(p=place[_pick(rng, ids)].removeprefix("The "),
                                               a=_pick(rng, _ADJ))
    return {"ruleset": "wwn", "name": title, "seed": int(seed), "turn": 0,
            "house_rules": {"relations_default": "neutral"},
            "locations": locations, "relations": relations, "factions": factions}


def campaign_text(data: dict[str, Any]) -> str:
    """The campaign as a commented YAML file."""
    from factionsim.core.campaign import dump_campaign_data

    sizes = []
    for f in data["factions"]:
        top = max(f["force"], f["cunning"], f["wealth"])
        size = "large" if top >= 7 else "medium" if top >= 5 else "small"
        sizes.append(f"#   {f['name']}: {size}, F{f['force']} C{f['cunning']} W{f['wealth']}, "
                     f"magic {f['magic']}, goal {f['goal']}")
    names = {f["id"]: f["name"] for f in data["factions"]}
    ties = [f"#   {names[a]} and {names[b]}: {'rivals' if rel == 'hostile' else 'allies'}"
            for a, b, rel in data.get("relations", ())]
    header = (f"# {data['name']}: generated by `factionsim new` (seed {data['seed']}) with the\n"
              "# faction creation rules of WWN 6.7.0. Edit freely; `factionsim validate` checks it.\n"
              + "\n".join(sizes) + "\n"
              + ("# Relations (the pairs not listed are neutral):\n" + "\n".join(ties) + "\n"
                 if ties else ""))
    return header + dump_campaign_data(data)
