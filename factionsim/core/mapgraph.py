"""Locations and the moves between them.

An edge is one turn's worth of movement. "Within one move" means the same location or a
neighbour; a Mobile faction's movement range is two edges.

>>> g = MapGraph([Location("a", "A", ("b",)), Location("b", "B", ("a", "c")), Location("c", "C", ("b",))])
>>> g.distance("a", "c"), sorted(g.within("a", 1)), g.path("a", "c")
(2, ['a', 'b'], ['a', 'b', 'c'])
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Location:
    """A place on the campaign map. ``ruler`` is the faction id that governs it, if any."""

    id: str
    name: str
    neighbors: tuple[str, ...] = ()
    coastal: bool = False
    ruler: str | None = None


class MapGraph:
    """An undirected graph of :class:`Location` with precomputed move distances."""

    def __init__(self, locations: list[Location]):
        self.locations: dict[str, Location] = {loc.id: loc for loc in locations}
        self.order: tuple[str, ...] = tuple(self.locations)
        adj: dict[str, set[str]] = {loc: set() for loc in self.order}
        for loc in locations:
            for n in loc.neighbors:
                if n in adj:  # an unknown neighbour is reported by campaign validation
                    adj[loc.id].add(n)
                    adj[n].add(loc.id)
        self.adjacent: dict[str, tuple[str, ...]] = {
            k: tuple(sorted(v, key=self.order.index)) for k, v in adj.items()
        }
        self._dist = {src: self._bfs(src) for src in self.order}
        self._within: dict[tuple[str, int], tuple[str, ...]] = {}

    def _bfs(self, src: str) -> dict[str, int]:
        dist = {src: 0}
        queue = deque([src])
        while queue:
            cur = queue.popleft()
            for n in self.adjacent[cur]:
                if n not in dist:
                    dist[n] = dist[cur] + 1
                    queue.append(n)
        return dist

    def __contains__(self, loc: str) -> bool:
        return loc in self.locations

    def distance(self, a: str, b: str) -> float:
        """Number of moves from ``a`` to ``b`` (``inf`` when unreachable)."""
        return self._dist[a].get(b, float("inf"))

    def within(self, loc: str, moves: int = 1) -> tuple[str, ...]:
        """Locations at most ``moves`` edges from ``loc``, itself included, in map order."""
        key = (loc, moves)
        if key not in self._within:
            d = self._dist[loc]
            self._within[key] = tuple(x for x in self.order if d.get(x, moves + 1) <= moves)
        return self._within[key]

    def path(self, a: str, b: str) -> list[str] | None:
        """A shortest path from ``a`` to ``b`` (both included), or ``None``."""
        if b not in self._dist[a]:
            return None
        path = [b]
        while path[-1] != a:
            cur = path[-1]
            path.append(min(self.adjacent[cur], key=lambda n: (self._dist[a].get(n, 1e9), n)))
        return path[::-1]

    def is_connected(self) -> bool:
        return not self.order or len(self._dist[self.order[0]]) == len(self.order)
