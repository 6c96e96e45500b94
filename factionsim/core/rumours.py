"""Rumours worth reading aloud: each turn told as in-world sentences grouped by place, with a
headline, in words drawn from a small phrase grammar.

A ruleset gives a :class:`RumourBook` (``RulesetInfo.rumours``): its :class:`Grammar` (a data
file, ``rules/<name>/rumours.yaml``) and ``facts(events, frame, names)``, which turns a turn's
events into :class:`Fact`\\ s: what happened, where (a place, or the faction it happened to for
rulesets without a map), the names it involves and how much it matters.

A grammar has ``facts`` (fact key -> sentence templates), ``words`` (slot -> alternatives) and
``weights`` (fact key -> importance; the heaviest fact of a turn is its headline). A template's
``{slot}`` is filled from the fact's names, else from ``words`` (whose alternatives may hold
slots too). A :class:`Teller` draws the alternatives from a generator seeded by the campaign's
seed and the turn, each slot's alternatives in a shuffled order, so the same campaign always
reads the same, wording varies, and no sentence is said twice in a turn.

>>> g = Grammar(facts={"burn": ("{place} {burned}",)}, words={"burned": ("burned", "went up in flames")},
...             weights={"burn": 5})
>>> t = Teller(g, seed=1, turn=3)
>>> a, b = t.tell(Fact("burn", "burn", "x", {"place": "the granary"})), \\
...        t.tell(Fact("burn", "burn", "x", {"place": "the granary"}))
>>> a != b, sorted([a, b])
(True, ['the granary burned', 'the granary went up in flames'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

from factionsim.core.dice import seeded_dice
from factionsim.core.game import Event
from factionsim.core.names import Names

_SLOT = re.compile(r"\{([a-z_]+)\}")
#: how many times a teller redraws a sentence it has already said this turn
_TRIES = 12
#: number words for merged facts ("three of the Guild's Caravans")
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")


def number_word(n: int) -> str:
    """``3`` -> ``"three"`` (digits from 13 on)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


@dataclass(frozen=True)
class Fact:
    """One thing a turn's rumours tell: the grammar's ``key`` for it, the event ``kind`` it comes
    from, the ``place`` it is heard of at (a display name: a location, or a faction's name where
    the ruleset has no map), the names for its template's ``slots``, the ``factions`` (ids)
    it concerns (who did it first) and the ``turn`` of its event."""

    key: str
    kind: str
    place: str
    slots: Mapping[str, str] = field(default_factory=dict)
    factions: tuple[str, ...] = ()
    turn: int = 0


@dataclass(frozen=True)
class Grammar:
    """Sentence templates per fact key, alternatives per word slot, importance per fact key."""

    facts: Mapping[str, Sequence[str]]
    words: Mapping[str, Sequence[str]] = field(default_factory=dict)
    weights: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Grammar:
        def tuples(table: Mapping[str, Any] | None) -> dict[str, tuple[str, ...]]:
            return {k: tuple(v) if isinstance(v, list) else (str(v),)
                    for k, v in (table or {}).items()}

        return cls(facts=tuples(data.get("facts")), words=tuples(data.get("words")),
                   weights={k: int(v) for k, v in (data.get("weights") or {}).items()})

    def weight(self, fact: Fact) -> int:
        return self.weights.get(fact.key.removesuffix("-many"), 1)


@cache
def load_grammar(package: str, name: str = "rumours.yaml") -> Grammar:
    """A grammar from a data file of ``package`` (read once)."""
    import yaml

    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return Grammar.from_data(yaml.safe_load(text))


@dataclass(frozen=True)
class RumourBook:
    """A ruleset's rumours: ``facts(events, frame, names)`` -> the facts of one turn's events,
    ``frame`` the campaign data before them (as the audience knows it), ``names`` escaped for
    markdown; and its grammar, a data file of ``package``."""

    facts: Callable[[list[Event], dict[str, Any] | None, Names], list[Fact]]
    package: str
    file: str = "rumours.yaml"

    @property
    def grammar(self) -> Grammar:
        return load_grammar(self.package, self.file)


class Teller:
    """Tells facts in words drawn by a generator seeded with ``(seed, turn)``: each slot's
    alternatives come in a shuffled order (all are used before any is used again) and a
    sentence already said this turn is drawn again."""

    def __init__(self, grammar: Grammar, seed: int | None, turn: int, stream: int = 0):
        self.grammar = grammar
        self.rng = seeded_dice(int(seed or 0), int(turn), 23, stream)[1]
        self.bags: dict[str, list[str]] = {}
        self.said: set[str] = set()

    def _draw(self, name: str, options: Sequence[str]) -> str:
        bag = self.bags.get(name)
        if not bag:
            bag = [options[i] for i in self.rng.permutation(len(options))]
            self.bags[name] = bag
        return bag.pop()

    def _fill(self, text: str, slots: Mapping[str, str], depth: int = 0) -> str:
        def one(m: re.Match[str]) -> str:
            name = m.group(1)
            if name in slots:
                return slots[name]
            if name not in self.grammar.words or depth > 6:
                raise KeyError(f"rumour slot {{{name}}} has no value and no words")
            return self._fill(self._draw(name, self.grammar.words[name]), slots, depth + 1)

        return _SLOT.sub(one, text)

    def tell(self, fact: Fact) -> str:
        """One sentence (no final stop, first letter as the template has it) for ``fact``."""
        templates = self.grammar.facts[fact.key]
        text = ""
        for _ in range(_TRIES):
            text = self._fill(self._draw(f"fact:{fact.key}", templates), fact.slots)
            text = re.sub(r" {2,}", " ", text).strip()
            if text not in self.said:
                break
        self.said.add(text)
        return text


def capital(text: str) -> str:
    """The first letter upper case (``"the Guild's..."`` -> ``"The Guild's..."``), markdown
    escapes before it skipped."""
    m = re.search(r"[^\W_]", text)
    return text if m is None else text[:m.start()] + text[m.start()].upper() + text[m.start() + 1:]


def merged(facts: list[Fact], grammar: Grammar) -> list[Fact]:
    """Facts that are the same (key, place, names) told once: as ``KEY-many`` with ``{count}``
    (a number word) where the grammar has it, else once per fact."""
    out: list[Fact] = []
    counts: dict[tuple[Any, ...], int] = {}
    for f in facts:
        ident = (f.key, f.place, tuple(sorted(f.slots.items())))
        if ident in counts and f"{f.key}-many" in grammar.facts:
            counts[ident] += 1
            continue
        counts.setdefault(ident, 1)
        out.append(f)
    result = []
    for f in out:
        n = counts[(f.key, f.place, tuple(sorted(f.slots.items())))]
        if n > 1:
            f = replace(f, key=f"{f.key}-many", slots={**f.slots, "count": number_word(n)})
        result.append(f)
    return result


@dataclass
class Digest:
    """One turn's rumours: the ``headline`` (the heaviest fact, ``None`` for a quiet turn) and,
    for each place in order of how much happened there, the sentences of the other facts."""

    headline: str | None
    places: list[tuple[str, list[str]]]
    #: the facts told, with their sentences (for faction sheets and logs)
    told: list[tuple[Fact, str]] = field(default_factory=list)
    #: the fact the headline tells
    top: Fact | None = None


def digest(facts: list[Fact], grammar: Grammar, seed: int | None, turn: int,
           stream: int = 0) -> Digest:
    """Tell a turn's ``facts``: a headline and the sentences by place (see :class:`Teller`)."""
    teller = Teller(grammar, seed, turn, stream)
    facts = merged(facts, grammar)
    if not facts:
        return Digest(None, [])
    top = max(range(len(facts)), key=lambda i: (grammar.weight(facts[i]), -i))
    top_text = teller.tell(facts[top])
    headline = f"{facts[top].place}: {top_text}."
    by_place: dict[str, list[int]] = {}
    for i, f in enumerate(facts):
        if i != top:  # the headline tells it
            by_place.setdefault(f.place, []).append(i)
    order = sorted(by_place, key=lambda p: (-max(grammar.weight(facts[i]) for i in by_place[p]),
                                            by_place[p][0]))
    places, told = [], [(facts[top], top_text)]
    for place in order:
        sentences = []
        for i in by_place[place]:
            text = teller.tell(facts[i])
            sentences.append(text)
            told.append((facts[i], text))
        places.append((place, sentences))
    return Digest(capital(headline), places, told, facts[top])
