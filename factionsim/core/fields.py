"""The field checks every ruleset's campaign validator is made of.

A validator declares its format with *specs* — :class:`Int`, :class:`Num`, :class:`Bool`,
:class:`Text`, :class:`Name`, :class:`Slug`, :class:`Choice`, :class:`Ref`, :class:`ListOf`,
:class:`MapOf`, :class:`Record`, :class:`Maybe`, :class:`Check` — and runs them with a
:class:`Checker`, which also offers each check as a method for the cross-field rules a spec
cannot say (a wound count below the pillar's circles, a tag that needs a top attribute). Every
problem raises :class:`~factionsim.core.game.CampaignError` with one paragraph::

    <file>, line <n>, <field path>: <problem> (got <value>); allowed: <what is allowed>.

Rules every ruleset shares (documented in ``docs/campaign-format.md``):

- whole numbers are whole numbers (``6``, not ``"6"``, ``6.0`` or ``true``), and every count has
  an upper bound (:data:`MAX_COUNT` unless the rules give a smaller one);
- a number is finite (no ``.nan``/``.inf``: the YAML loader refuses those already);
- names and other text shown to people are plain text (:func:`plain_text_problem`): no control
  characters (terminal escape codes, NUL...), no line breaks except in multi-line notes, no
  bidirectional-override characters, at most :data:`MAX_NAME` characters;
- ids are slugs: lowercase letters, digits and ``-``;
- a mapping holds only the fields its format names (a typo is an error with a "did you mean"),
  and ``null`` for an optional field means the same as leaving it out;
- a reference names something that exists (``Ref``: the checker's ``known`` ids of that kind).

>>> ck = Checker("demo.yaml", {("factions", 0, "force"): 7})
>>> FACTION = Record("faction", {"id": Slug(), "force": Int(1, 8)}, required=("id",))
>>> FACTION.check(ck, {"id": "crown", "force": 4}, ("factions", 0))
{'id': 'crown', 'force': 4}
>>> FACTION.check(ck, {"id": "crown", "force": 9}, ("factions", 0))
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: demo.yaml, line 7, factions[0].force: must be a whole number \
from 1 to 8 (got 9).
>>> FACTION.check(ck, {"id": "crown", "forse": 4}, ("factions", 0))
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: demo.yaml, factions[0].forse: unknown field 'forse' (did you \
mean 'force'?); allowed: id, force.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn

from .campaign import FieldChecker, FieldPath, format_path
from .dice import MAX_SEED
from .game import CampaignError

#: the largest count a campaign field may hold unless its rules give a smaller bound
MAX_COUNT = 1_000_000
#: the largest turn number (and ``max_turns``)
MAX_TURNS = 100_000
#: the longest name (factions, locations, assets...) in characters
MAX_NAME = 200
#: the longest free text (``notes``) in characters
MAX_TEXT = 100_000
#: the most items a list in a campaign may hold unless its rules give a smaller bound
MAX_ITEMS = 10_000

#: general limits (not rule bounds): a message says ">= 0" and names the limit only when it is hit
_CAPS = frozenset({MAX_COUNT, MAX_TURNS, MAX_TURNS + 1, MAX_SEED, MAX_ITEMS, 2**128 - 1})

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
SLUG_HINT = "a slug of lowercase letters, digits and '-' (e.g. 'iron-legion')"
_MISSING: Any = object()
#: characters that reorder how text is displayed (they can disguise a name)
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def plain_text_problem(text: str, multiline: bool = False) -> str | None:
    """Why ``text`` is not plain text, or ``None`` when it is.

    Refused: control characters (category Cc: NUL, escape, delete, C1 controls...), line and
    paragraph separators, bidirectional overrides, surrogates; line breaks and tabs only when
    ``multiline``.

    >>> plain_text_problem("Iron Legion"), plain_text_problem("Red\\x1b[31m")
    (None, 'contains the control character U+001B')
    >>> plain_text_problem("two\\nlines"), plain_text_problem("two\\nlines", multiline=True)
    ('contains a line break', None)
    """
    for ch in text:
        if ch in "\n\r" or ch in "\u2028\u2029" or ch == "\x85":
            if multiline and ch in "\n\r":
                continue
            return "contains a line break"
        if ch == "\t" and multiline:
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs") or ch in _BIDI_CONTROLS:
            return f"contains the control character U+{ord(ch):04X}"
    return None


def show(value: Any) -> str:
    """A value as a message shows it: YAML's words for true/false/null, else a short repr."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def kind(value: Any) -> str:
    """What a YAML value is, in words (``a whole number``, ``text``, ``a list``...)."""
    names = {bool: "true/false", int: "a whole number", float: "a decimal number", str: "text",
             list: "a list", dict: "a mapping", type(None): "nothing (null)"}
    return names.get(type(value), type(value).__name__)


def one_of(options: Iterable[Any], limit: int = 30) -> str:
    """``"one of a, b, c"`` (long lists cut after ``limit`` items; an option that is not plain
    text is shown quoted, escapes and all)."""
    items = [o if isinstance(o, str) and not plain_text_problem(o) else
             str(o) if isinstance(o, int) else repr(o) for o in options]
    if len(items) > limit:
        return "one of " + ", ".join(items[:limit]) + f", ... ({len(items)} in all)"
    return "one of " + ", ".join(items)


def bounds_text(lo: float | None, hi: float | None) -> str:
    """``"from 1 to 8"``, ``">= 0"`` (when ``hi`` is only one of factionsim's general limits,
    not a bound of the rules) or ``""``."""
    if lo is not None and hi is not None and hi not in _CAPS:
        return f"from {lo:g} to {hi:g}" if isinstance(lo, float) or isinstance(hi, float) \
            else f"from {lo} to {hi}"
    if lo is not None:
        return f">= {lo}"
    if hi is not None:
        return f"<= {hi}"
    return ""


class Checker(FieldChecker):
    """The checks with the file name and line table at hand (see the module docstring).

    ``known`` maps a kind of id (``"faction"``, ``"location"``...) to the ids the campaign
    declares, for :class:`Ref` and :meth:`ref`.
    """

    def __init__(self, source: str, lines: Any):
        super().__init__(source, lines or {})
        self.known: dict[str, list[Any]] = {}

    # ------------------------------------------------------------------ messages
    def fail(self, path: FieldPath, problem: str, value: Any = _MISSING,
             allowed: str | None = None) -> NoReturn:
        """Raise the one-paragraph error: where, the problem, the value, what is allowed."""
        msg = f"{self.where(path)}: {problem}"
        if value is not _MISSING:
            msg += f" (got {show(value)})"
        if allowed:
            msg += f"; allowed: {allowed}"
        raise CampaignError(msg.rstrip(".") + ".")

    def fail_choice(self, path: FieldPath, what: str, value: Any, options: Sequence[Any],
                    allowed: str | None = None) -> NoReturn:
        """An unknown name among ``options``, with a "did you mean" for a near miss."""
        raise CampaignError(f"{self.where(path)}: unknown {what} {show(value)}"
                            f"{did_you_mean(value, options)}; allowed: "
                            f"{allowed or one_of(options)}.")

    # ------------------------------------------------------------------ typed values
    def mapping(self, value: Any, path: FieldPath, what: str,
                keys: Sequence[str] | None = None, required: Sequence[str] = ()) -> dict[str, Any]:
        """A mapping with text field names; with ``keys``, only those, and ``required`` ones."""
        if not isinstance(value, dict):
            self.fail(path, f"must be a mapping of {what} fields, not {kind(value)}", value)
        for key in value:
            if not isinstance(key, str):
                self.fail((*path, key), "field names must be text", key)
            if keys is not None and key not in keys:
                self.fail((*path, key), f"unknown field {key!r}{did_you_mean(key, keys)}",
                          allowed=", ".join(keys))
        for key in required:
            if value.get(key) is None:
                self.fail(path, f"missing required {what} field {key!r}")
        return value

    def integer(self, value: Any, path: FieldPath, lo: int | None = 0,
                hi: int | None = MAX_COUNT) -> int:
        """A whole number (not ``true``, not ``6.0``) within ``lo``..``hi``."""
        span = bounds_text(lo, hi)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"must be a whole number {span}, not {kind(value)}".replace("  ", " "),
                      value)
        if lo is not None and value < lo or hi is not None and value > hi:
            over = f" (at most {hi}, a limit of factionsim)" if hi in _CAPS and value > hi \
                else ""
            self.fail(path, f"must be a whole number {span}{over}".rstrip(), value)
        return value

    def number(self, value: Any, path: FieldPath, lo: float, hi: float) -> float:
        """A finite number (whole or decimal) within ``lo``..``hi``."""
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or not lo <= value <= hi:
            self.fail(path, f"must be a number from {lo:g} to {hi:g}", value)
        return value

    def boolean(self, value: Any, path: FieldPath) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"must be true or false, not {kind(value)}", value)
        return value

    def text(self, value: Any, path: FieldPath, empty: bool = True, multiline: bool = False,
             limit: int = MAX_NAME) -> str:
        """Plain text (see :func:`plain_text_problem`), at most ``limit`` characters."""
        if not isinstance(value, str):
            self.fail(path, f"must be text, not {kind(value)} (quote it if needed)", value)
        if not empty and not value.strip():
            self.fail(path, "must not be empty", value)
        if len(value) > limit:
            self.fail(path, f"is {len(value)} characters long", allowed=f"at most {limit}")
        problem = plain_text_problem(value, multiline)
        if problem:
            self.fail(path, f"must be plain text but {problem}", value,
                      "letters, digits, spaces and punctuation" + ("" if multiline else
                                                                    " on one line"))
        return value

    def slug(self, value: Any, path: FieldPath) -> str:
        if not isinstance(value, str) or not SLUG.match(value) or len(value) > MAX_NAME:
            self.fail(path, "invalid id", value, SLUG_HINT)
        return value

    def choice(self, value: Any, path: FieldPath, options: Sequence[Any], what: str,
               allowed: str | None = None) -> Any:
        """One of ``options`` (compared as given: ``"4"`` is not ``4``)."""
        if not any(type(o) is type(value) and o == value for o in options):
            self.fail_choice(path, what, value, options, allowed)
        return value

    def ref(self, value: Any, path: FieldPath, known: str, what: str | None = None) -> Any:
        """An id declared elsewhere in the campaign (``self.known[known]``)."""
        return self.choice(value, path, self.known.get(known, []), what or known)

    def listof(self, value: Any, path: FieldPath, what: str, lo: int = 0,
               hi: int = MAX_ITEMS) -> list[Any]:
        """A list of ``lo``..``hi`` items (the items are checked by the caller)."""
        if not isinstance(value, list):
            self.fail(path, f"must be a list of {what}, not {kind(value)}", value)
        if not lo <= len(value) <= hi:
            if hi in _CAPS:
                count = "a non-empty list" if lo == 1 else f"a list of at least {lo} {what}"
            else:
                count = f"a list of {lo} to {hi} {what}" if lo else f"a list of at most {hi} {what}"
            self.fail(path, f"must be {count}, not {len(value)}")
        return value

    def unique(self, values: Sequence[Any], path: FieldPath, what: str = "value") -> None:
        """No value twice in ``values`` (the items of the list at ``path``)."""
        seen: dict[Any, int] = {}
        for i, v in enumerate(values):
            key = repr(v) if isinstance(v, (list, dict)) else v
            if key in seen:
                self.fail((*path, i), f"{what} listed twice (first at {format_path((*path, seen[key]))})",
                          v)
            seen[key] = i

    def ids(self, items: Any, path: FieldPath, what: str, kind_: str | None = None,
            lo: int = 1, hi: int = MAX_ITEMS, reserved: Sequence[str] = ()) -> list[str]:
        """A list of ``lo``..``hi`` mappings, each with a unique slug ``id``; the ids are
        registered in ``known[kind_]`` (default ``what``) for references."""
        self.listof(items, path, f"{what}s", lo, hi)
        ids: list[str] = []
        for i, item in enumerate(items):
            self.mapping(item, (*path, i), what)
            if item.get("id") is None:
                self.fail((*path, i), f"missing required {what} field 'id'", allowed=SLUG_HINT)
            ident = self.slug(item["id"], (*path, i, "id"))
            if ident in ids:
                self.fail((*path, i, "id"), f"duplicate {what} id (already used by "
                          f"{format_path((*path, ids.index(ident)))})", ident,
                          f"a {what} id not used elsewhere")
            if ident in reserved:
                self.fail((*path, i, "id"), f"the id {ident!r} is reserved", ident,
                          f"any slug but {', '.join(reserved)}")
            ids.append(ident)
        self.known[kind_ or what] = ids
        return ids

    def nested_ids(self, owners: Any, path: FieldPath, field: str, what: str,
                   id_spec: Spec, engine_id: Callable[[dict[str, Any], Any], Any] | None = None
                   ) -> list[Any]:
        """The ids of the items listed under ``field`` of each owner (the assets of every
        faction, say), unique across the campaign: each checked by ``id_spec``, an id given
        twice refused; returns them (as ``engine_id(item, id)`` makes them, when given) for
        :attr:`known`. Items without an id, and owners or lists of the wrong type, are left to
        the owner's own checks."""
        first: dict[Any, FieldPath] = {}
        out: list[Any] = []
        for i, owner in enumerate(owners if isinstance(owners, list) else []):
            items = owner.get(field) if isinstance(owner, dict) else None
            for j, item in enumerate(items if isinstance(items, list) else []):
                if not isinstance(item, dict) or item.get("id") is None:
                    continue
                at = (*path, i, field, j)
                ident = id_spec.check(self, item["id"], (*at, "id"))
                if ident in first:
                    self.fail((*at, "id"), f"duplicate {what} id (already used by "
                              f"{format_path(first[ident])})", ident,
                              f"a {what} id not used elsewhere")
                first[ident] = at
                out.append(engine_id(item, ident) if engine_id else ident)
        return out

    def agent_fields(self, d: Mapping[str, Any], path: FieldPath) -> None:
        """The shape of a faction's ``agent`` and ``agent_options``: the agent's name is plain
        text (a ``policy:PATH`` at most 4096 characters), the options a mapping of option names
        to plain values (numbers, true/false, plain text, or lists of those).

        Which agents and options a ruleset offers is not checked here: the registry checks them
        against the agents each ruleset declares when the campaign loads
        (``factionsim.rulesets.check_campaign_agents``), and names a value that is no agent name.
        """
        agent = d.get("agent")
        if isinstance(agent, str):
            self.text(agent, (*path, "agent"), limit=4096)
        options = d.get("agent_options")
        if options is not None:
            AGENT_OPTIONS.check(self, options, (*path, "agent_options"))

    def rng(self, value: Any, path: FieldPath = ("rng",)) -> dict[str, Any]:
        """The saved dice generator: what numpy's PCG64 writes (``bit_generator``, ``state:
        {state, inc}`` 128-bit whole numbers with an odd ``inc``, ``has_uint32`` and
        ``uinteger``, both 0 when left out)."""
        return {**RNG.check(self, value, path), "has_uint32": 0, "uinteger": 0,
                **{k: v for k, v in value.items() if k in ("has_uint32", "uinteger")}}

    def run(self, spec: Spec, value: Any, path: FieldPath) -> Any:
        """``spec.check(self, value, path)``."""
        return spec.check(self, value, path)


def did_you_mean(value: Any, options: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` for a near miss among text ``options``, else ``""``."""
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, [o for o in options if isinstance(o, str)], n=2,
                                      cutoff=0.6)
    return f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""


# ====================================================================== specs
class Spec:
    """A field's format: ``check(checker, value, path)`` returns the value (normalized where
    the spec says so) or raises :class:`CampaignError`."""

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:  # pragma: no cover
        raise NotImplementedError


class Int(Spec):
    """A whole number from ``lo`` to ``hi``."""

    def __init__(self, lo: int | None = 0, hi: int | None = MAX_COUNT):
        self.lo, self.hi = lo, hi

    def check(self, ck: Checker, value: Any, path: FieldPath) -> int:
        return ck.integer(value, path, self.lo, self.hi)


class Num(Spec):
    """A finite number (whole or decimal) from ``lo`` to ``hi``."""

    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi

    def check(self, ck: Checker, value: Any, path: FieldPath) -> float:
        return ck.number(value, path, self.lo, self.hi)


class Bool(Spec):
    def check(self, ck: Checker, value: Any, path: FieldPath) -> bool:
        return ck.boolean(value, path)


class Text(Spec):
    """Plain text; ``multiline`` allows line breaks and tabs (notes)."""

    def __init__(self, empty: bool = True, multiline: bool = False, limit: int = MAX_NAME):
        self.empty, self.multiline, self.limit = empty, multiline, limit

    def check(self, ck: Checker, value: Any, path: FieldPath) -> str:
        return ck.text(value, path, self.empty, self.multiline, self.limit)


class Name(Text):
    """A name shown to people: plain text on one line, not empty."""

    def __init__(self) -> None:
        super().__init__(empty=False)


class Slug(Spec):
    def check(self, ck: Checker, value: Any, path: FieldPath) -> str:
        return ck.slug(value, path)


class Choice(Spec):
    """One of ``options``; ``what`` names them in messages (``"tag"``, ``"relation"``)."""

    def __init__(self, options: Sequence[Any], what: str, allowed: str | None = None):
        self.options, self.what, self.allowed = tuple(options), what, allowed

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:
        return ck.choice(value, path, self.options, self.what, self.allowed)


class Ref(Spec):
    """An id of kind ``known`` declared elsewhere (``checker.known[known]``)."""

    def __init__(self, known: str, what: str | None = None):
        self.known, self.what = known, what

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:
        return ck.ref(value, path, self.known, self.what)


class ListOf(Spec):
    """A list of ``lo``..``hi`` items, each checked by ``item``; ``unique`` refuses repeats."""

    def __init__(self, item: Spec, what: str = "items", lo: int = 0, hi: int = MAX_ITEMS,
                 unique: bool = False):
        self.item, self.what, self.lo, self.hi, self.unique = item, what, lo, hi, unique

    def check(self, ck: Checker, value: Any, path: FieldPath) -> list[Any]:
        items = ck.listof(value, path, self.what, self.lo, self.hi)
        out = [self.item.check(ck, v, (*path, i)) for i, v in enumerate(items)]
        if self.unique:
            ck.unique(out, path, self.what.rstrip("s"))
        return out


class Tuple(Spec):
    """A list of exactly ``len(items)`` values, the i-th checked by ``items[i]`` (``[phase,
    actor]``, ``[faction, faction, relation]``); ``shape`` describes it in messages."""

    def __init__(self, *items: Spec, shape: str):
        self.items, self.shape = items, shape

    def check(self, ck: Checker, value: Any, path: FieldPath) -> list[Any]:
        if not isinstance(value, list) or len(value) != len(self.items):
            ck.fail(path, f"must be a list {self.shape}", value)
        return [spec.check(ck, v, (*path, i))
                for i, (spec, v) in enumerate(zip(self.items, value, strict=True))]


class MapOf(Spec):
    """A mapping whose keys are checked by ``key`` and values by ``value`` (``{rival: dice}``)."""

    def __init__(self, key: Spec, value: Spec, what: str = "entry", hi: int = MAX_ITEMS):
        self.key, self.value, self.what, self.hi = key, value, what, hi

    def check(self, ck: Checker, value: Any, path: FieldPath) -> dict[Any, Any]:
        if not isinstance(value, dict):
            ck.fail(path, f"must be a mapping of {self.what}s, not {kind(value)}", value)
        if len(value) > self.hi:
            ck.fail(path, f"holds {len(value)} {self.what}s", allowed=f"at most {self.hi}")
        return {self.key.check(ck, k, (*path, k)): self.value.check(ck, v, (*path, k))
                for k, v in value.items()}


class Record(Spec):
    """A mapping with the named ``fields`` only (each with its spec), ``required`` ones present.

    An optional field given as ``null`` counts as left out (it is dropped from the result);
    wrap a spec in :class:`Maybe` when ``null`` is a value of its own.
    """

    def __init__(self, what: str, fields: Mapping[str, Spec], required: Sequence[str] = ()):
        self.what, self.fields, self.required = what, dict(fields), tuple(required)

    def check(self, ck: Checker, value: Any, path: FieldPath) -> dict[str, Any]:
        d = ck.mapping(value, path, self.what, tuple(self.fields))
        for key in self.required:
            if key not in d or (d[key] is None and not isinstance(self.fields[key], Maybe)):
                ck.fail(path, f"missing required {self.what} field {key!r}"
                        + (" (null is not a value here)" if key in d else ""))
        out: dict[str, Any] = {}
        for key, spec in self.fields.items():
            if key in d and (d[key] is not None or isinstance(spec, Maybe)):
                out[key] = spec.check(ck, d[key], (*path, key))
        return {k: out[k] for k in d if k in out}  # the file's order

    def with_fields(self, **fields: Spec) -> Record:
        """This record with more (or replaced) fields (a ruleset adding to a shared one)."""
        return Record(self.what, {**self.fields, **fields}, self.required)


class Maybe(Spec):
    """``null`` or a value of ``spec``."""

    def __init__(self, spec: Spec):
        self.spec = spec

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:
        return None if value is None else self.spec.check(ck, value, path)


class Check(Spec):
    """A check written as a function ``fn(checker, value, path) -> value`` (a rule a spec
    cannot say: a die size, dice text, a list that holds two kinds of entry)."""

    def __init__(self, fn: Callable[[Checker, Any, FieldPath], Any]):
        self.fn = fn

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:
        return self.fn(ck, value, path)


class Later(Spec):
    """A field the validator's code checks after the record (the agent fields, a turn in
    progress that needs the factions first): the record passes it through as it is."""

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:
        return value


class Either(Spec):
    """A value of the first spec whose type test passes: ``Either((str, Choice(...)), (dict,
    Record(...)), what=...)``; anything else is refused with ``what``."""

    def __init__(self, *options: tuple[type | tuple[type, ...], Spec], what: str):
        self.options, self.what = options, what

    def check(self, ck: Checker, value: Any, path: FieldPath) -> Any:
        for types, spec in self.options:
            if isinstance(value, types) and not (isinstance(value, bool) and bool not in
                                                 (types if isinstance(types, tuple) else (types,))):
                return spec.check(ck, value, path)
        ck.fail(path, f"must be {self.what}, not {kind(value)}", value)


def _plain_option(ck: Checker, value: Any, path: FieldPath) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return ck.integer(value, path, -MAX_COUNT, MAX_COUNT)
    if isinstance(value, float):
        return ck.number(value, path, -MAX_COUNT, MAX_COUNT)
    if isinstance(value, str):
        return ck.text(value, path, limit=4096)
    if isinstance(value, list):
        return [_plain_option(ck, v, (*path, i)) for i, v in enumerate(ck.listof(value, path,
                                                                                 "values", 0, 100))]
    ck.fail(path, f"an agent option must be a number, true/false, text or a list of those, "
            f"not {kind(value)}", value)


#: an agent's options: option names (plain text; which ones an agent takes, the registry
#: checks) to plain values
AGENT_OPTIONS = MapOf(Text(empty=False, limit=64), Check(_plain_option), "agent option", hi=64)

def _odd_increment(ck: Checker, value: Any, path: FieldPath) -> int:
    """PCG64's increment is odd: an even one (0, say) can make the generator return zeros for
    ever, and a die roll then never ends."""
    n = ck.integer(value, path, 0, 2**128 - 1)
    if n % 2 == 0:
        ck.fail(path, "the generator's increment must be odd (numpy writes it so)", n,
                "the engine's saved value, or delete 'rng' to reseed from 'seed'")
    return n


#: the ``rng`` field: numpy's PCG64 state exactly as ``bit_generator.state`` gives it
RNG = Record("random generator", {
    "bit_generator": Choice(("PCG64",), "random generator",
                            "PCG64 (or delete 'rng' to reseed from 'seed')"),
    "state": Record("generator state", {"state": Int(0, 2**128 - 1), "inc": Check(_odd_increment)},
                    required=("state", "inc")),
    "has_uint32": Int(0, 1),
    "uinteger": Int(0, 2**32 - 1),
}, required=("bit_generator", "state"))


#: fields every ruleset's campaign has at its top level (see ``docs/campaign-format.md``)
def common_fields(ruleset: str) -> dict[str, Spec]:
    """``ruleset``, ``name``, ``notes``, ``seed``, ``turn``, ``max_turns``, ``rng``."""
    return {
        "ruleset": Choice((ruleset,), "ruleset", f"{ruleset} (this validator's ruleset)"),
        "name": Text(),
        "notes": Text(multiline=True, limit=MAX_TEXT),
        "seed": Int(0, MAX_SEED),
        "turn": Int(0, MAX_TURNS),
        "max_turns": Int(1, MAX_TURNS),
        "rng": Check(lambda ck, v, p: ck.rng(v, p)),
    }
