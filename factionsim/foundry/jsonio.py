"""Reading and writing Foundry JSON files, bounded and deterministic.

:func:`read_json` refuses what a Foundry export never is, each with one clear message naming the
file: more than :data:`MAX_BYTES`, nesting deeper than :data:`MAX_DEPTH`, text that is not UTF-8,
broken JSON (with its line and column), a key given twice in one object, ``NaN``/``Infinity`` and
numbers too large to be real. :func:`json_text` writes the way Foundry's Export Data does (two
spaces, UTF-8 kept as is) plus a final newline, so equal data always gives byte-identical files.

>>> json_text({"name": "Ä", "items": []})
'{\\n  "name": "Ä",\\n  "items": []\\n}\\n'
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from factionsim.core.game import FactionsimError

#: the largest actor file read (a faction with years of log entries is well under 1 MiB)
MAX_BYTES = 16 * 1024 * 1024
#: the deepest nesting read (a Foundry actor nests about 6 levels)
MAX_DEPTH = 64


class FoundryError(FactionsimError):
    """A Foundry file or campaign block that cannot be used: the message names the file, the JSON
    path (``items[2].system.health.value``) and what is allowed."""


class _Duplicate(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (a scalar is 0)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def read_json(path: str | os.PathLike[str]) -> Any:
    """The parsed content of a JSON file, or :class:`FoundryError` (see the module docstring)."""
    source = str(path)
    if Path(path).is_dir():
        raise FoundryError(f"{source}: is a directory; give the path of a JSON file.")
    try:
        size = Path(path).stat().st_size
        if size > MAX_BYTES:
            raise FoundryError(f"{source}: {size} bytes is more than the {MAX_BYTES} bytes a "
                               "faction actor file may have; export one actor per file.")
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise FoundryError(f"{source}: file not found; give the path of a JSON file written by "
                           "Foundry's Export Data.") from None
    except OSError as exc:
        raise FoundryError(f"{source}: cannot read the file ({exc.strerror}).") from None
    return parse_json(raw, source)


def parse_json(raw: bytes, source: str) -> Any:
    """:func:`read_json` for bytes already read (``source`` names them in messages)."""
    if len(raw) > MAX_BYTES:
        raise FoundryError(f"{source}: more than {MAX_BYTES} bytes; export one actor per file.")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FoundryError(f"{source}: not UTF-8 text (byte {exc.start}); Foundry writes UTF-8 "
                           "JSON, so this is not one of its exports.") from None
    try:
        data = json.loads(text, object_pairs_hook=_pairs, parse_float=_float,
                          parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise FoundryError(f"{source}, line {exc.lineno}, column {exc.colno}: broken JSON: "
                           f"{exc.msg}; fix the file or export it from Foundry again.") from None
    except _Duplicate as exc:
        raise FoundryError(f"{source}: the key {exc.args[0]!r} is given twice in one object; "
                           "give each key once.") from None
    except RecursionError:
        raise FoundryError(f"{source}: nested deeper than {MAX_DEPTH} levels; a Foundry actor "
                           "is never that deep.") from None
    except ValueError as exc:  # NaN, Infinity, huge numbers
        raise FoundryError(f"{source}: {exc}; only finite JSON numbers are allowed.") from None
    if depth(data) > MAX_DEPTH:
        raise FoundryError(f"{source}: nested deeper than {MAX_DEPTH} levels; a Foundry actor "
                           "is never that deep.")
    return data


def json_text(data: Any) -> str:
    """``data`` as Foundry writes JSON (2-space indent, non-ASCII kept), with a final newline."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
