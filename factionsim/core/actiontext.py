"""Action text and its parser from one template per action class.

An action class (a frozen dataclass subclassing :class:`~factionsim.core.game.Action`) declares
its text form in ``TEXT``; ``str(action)`` writes it (:func:`render`) and an
:class:`ActionTable` of a ruleset's classes reads it back. In a template:

- ``{field}`` is a field's value: a word without spaces (``str``) or a whole number (``int``);
  ``{field:+}`` writes a number with its sign (``+2``, ``0``, ``-6``), ``{field:rest}`` takes
  the rest of the line (spaces included);
- ``[...]`` is written only when a field in it differs from its default (and is optional when
  read: a field left out takes its default); ``{field?}`` in it stands for a ``bool`` field that
  the bracket's words alone express;
- ``TEXT`` may be a tuple of templates: the first that names every field differing from its
  default is written; any of them is read.

>>> from dataclasses import dataclass
>>> from factionsim.core.game import Action
>>> @dataclass(frozen=True, slots=True)
... class Dash(Action):
...     TEXT = "dash {char} {shift:+}[ {mode}]"
...     char: str
...     shift: int
...     mode: str = "free"
>>> @dataclass(frozen=True, slots=True)
... class Invite(Action):
...     TEXT = ("invite {faction}", "hire {faction} for {price}")
...     faction: str
...     price: int = 0
>>> @dataclass(frozen=True, slots=True)
... class Pick(Action):
...     TEXT = "pick {name}[ d4{hinder?}]"
...     name: str
...     hinder: bool = False
>>> str(Dash("ash", -6, "break")), str(Dash("ash", 0)), str(Invite("b")), str(Invite("b", 2))
('dash ash -6 break', 'dash ash 0', 'invite b', 'hire b for 2')
>>> @dataclass(frozen=True, slots=True)
... class Sprint(Dash):
...     TEXT = "sprint {char} {shift:+}"
>>> str(Sprint("ash", 3))
'sprint ash +3'
>>> table = ActionTable("toy", Dash, Invite, Pick)
>>> table.parse("dash  ash +2"), table.parse("hire b for 2"), table.parse("pick bold d4")
(Dash(char='ash', shift=2, mode='free'), Invite(faction='b', price=2), Pick(name='bold', hinder=True))
>>> table.parse("fly away")
Traceback (most recent call last):
...
ValueError: not one of the toy actions: 'fly away'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the contract (game.py) imports this module, never the other way round
    from factionsim.core.game import Action

#: ``[optional part]`` or ``{field}`` / ``{field:format}`` / ``{flag?}``
_PART = re.compile(r"\[([^\]]*)\]|\{(\w+)(\?|:[+\w]+)?\}")
_WORD, _NUMBER, _REST = r"\S+", r"[+-]?\d+", r".+"


def _templates(cls: type) -> tuple[str, ...]:
    text = cls.TEXT  # type: ignore[attr-defined]
    return (text,) if isinstance(text, str) else tuple(text)


def field_names(cls: type) -> list[str]:
    """The fields ``cls``'s templates name, in the order they first appear."""
    return list(dict.fromkeys(name for template in _templates(cls) for name in _named(template)))


@cache
def _fields(cls: type) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(cls)}


def _named(template: str) -> Iterator[str]:
    for m in _PART.finditer(template):
        if m.group(2):
            yield m.group(2)
        else:
            yield from _named(m.group(1))


#: a template read once: literal text, ``(name, spec)`` for a field, ``(names, parts)`` for
#: an optional part
_Parts = list[Any]


def _parts(template: str) -> _Parts:
    out: _Parts = []
    at = 0
    for m in _PART.finditer(template):
        out.append(template[at:m.start()])
        at = m.end()
        if m.group(1) is not None:
            out.append((tuple(_named(m.group(1))), _parts(m.group(1))))
        else:
            out.append((m.group(2), m.group(3)))
    out.append(template[at:])
    return out


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _differs(names: Iterator[str] | tuple[str, ...], defaults: dict[str, Any]) -> str:
    """Python source: does any of ``names`` differ from its default (``True`` for a field that
    has none)?"""
    tests = [f"a.{n} != D[{n!r}]" if n in defaults else "True" for n in names]
    return " or ".join(tests) or "False"


def _expression(parts: _Parts, defaults: dict[str, Any]) -> str:
    """Python source of the text of ``parts`` for an action ``a``."""
    pieces = []
    for part in parts:
        if isinstance(part, str):
            if part:
                pieces.append(repr(part))
        elif isinstance(part[0], tuple):
            pieces.append(f"({_expression(part[1], defaults)} if ({_differs(part[0], defaults)})"
                          " else '')")
        elif part[1] != "?":
            pieces.append(f"_signed(a.{part[0]})" if part[1] == ":+" else f"str(a.{part[0]})")
    return "(" + (" + ".join(pieces) or "''") + ")"


def _writer(cls: type) -> Callable[[Any], str]:
    """``cls``'s text writer, made once from its templates: the first template that names every
    field differing from its default is written (the last one otherwise). The templates are
    turned into one Python expression over the action (field names are identifiers: the
    template grammar admits nothing else), as fast as a hand-written ``__str__``."""
    defaults = {f.name: f.default for f in dataclasses.fields(cls)
                if f.default is not dataclasses.MISSING}
    templates = _templates(cls)
    expression = _expression(_parts(templates[-1]), defaults)
    for template in reversed(templates[:-1]):
        named = set(_named(template))
        left_out = [n for n in _fields(cls) if n not in named]
        expression = (f"({_expression(_parts(template), defaults)} if not "
                      f"({_differs(tuple(left_out), defaults)}) else {expression})")
    return eval(f"lambda a: {expression}", {"D": defaults, "_signed": _signed, "str": str})  # noqa: S307


def render(action: Action) -> str:
    """The text form of ``action`` from its class's ``TEXT`` (see the module docstring). The
    first call makes the class's writer and installs it as the class's ``__str__``."""
    cls = type(action)
    write = _writer(cls)
    cls.__str__ = write  # type: ignore[method-assign,assignment]
    return write(action)


def _pattern(template: str, cls: type) -> str:
    types = {name: f.type for name, f in _fields(cls).items()}
    out, at = [], 0
    for m in _PART.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        at = m.end()
        if m.group(1) is not None:
            flag = next((n for n in _named(m.group(1)) if types[n] in (bool, "bool")), None)
            inner = _pattern(m.group(1), cls)
            out.append(f"(?P<{flag}>{inner})?" if flag else f"(?:{inner})?")
        elif m.group(3) != "?":
            name, spec = m.group(2), m.group(3)
            token = _REST if spec == ":rest" else _NUMBER if types[name] in (int, "int") else _WORD
            out.append(f"(?P<{name}>{token})")
    out.append(re.escape(template[at:]))
    return "".join(out)


class ActionTable:
    """A ruleset's action classes, in the order their texts are tried: reads any of their texts
    back (:meth:`parse`). Write the more specific template first (``repair faction`` before
    ``repair {asset}``). Rulesets use :class:`factionsim.core.game.ActionTable`, whose unknown
    texts raise the contract's ``IllegalActionError``."""

    #: what an unknown text raises
    error: type[Exception] = ValueError

    def __init__(self, ruleset: str, *classes: type[Action]) -> None:
        self.ruleset = ruleset
        self.classes = classes
        self._patterns = [(re.compile(f"^{_pattern(t, cls)}$"), cls)
                          for cls in classes for t in _templates(cls)]

    def parse(self, text: str) -> Action:
        """The action whose text form is ``text`` (runs of spaces count as one); raises
        :attr:`error` when no class reads it."""
        text = " ".join(text.split())
        for pattern, cls in self._patterns:
            m = pattern.match(text)
            if m:
                return cls(**{name: _convert(cls, name, value)
                              for name, value in m.groupdict().items() if value is not None})
        raise self.error(f"not one of the {self.ruleset} actions: {text!r}")


def _convert(cls: type, name: str, value: str) -> Any:
    kind = _fields(cls)[name].type
    if kind in (int, "int"):
        return int(value)
    if kind in (bool, "bool"):
        return True
    return value
