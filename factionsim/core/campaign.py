"""Campaign files: load a YAML campaign into a game state, and save a state back, atomically.

A campaign file is a YAML mapping whose ``ruleset`` field picks the rule system. Loading
(:func:`factionsim.rulesets.load_campaign`) reads the file here (:func:`load_campaign_data`
records the line of every field, so errors can point at it), lets the ruleset's ``validate``
check and normalize the data, then builds the ruleset's state class with ``from_dict``. Every
problem raises :class:`CampaignError` with one short paragraph naming the file, the field path,
the line, the bad value and what is allowed.

Saving writes ``state.to_dict()`` as readable, deterministic YAML through a temporary file in the
same directory and ``os.replace``, so a crash mid-save leaves the previous file intact; commands
that rewrite a campaign write into the text they read (:mod:`factionsim.core.roundtrip`), so the
GM's comments and layout stay.

>>> print(dump_campaign_data({"ruleset": "wwn", "turn": 3, "tags": ["martial"]}), end="")
ruleset: wwn
turn: 3
<BLANKLINE>
tags: [martial]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from .files import write_atomic
from .game import CampaignError
from .safeyaml import BoundedLoader, check_size, plain_tree, read_limited, yaml_error_message

_MERGE_TAG = "tag:yaml.org,2002:merge"

#: A field path: mapping keys and sequence indexes from the top of the file.
FieldPath = tuple[str | int, ...]


# --------------------------------------------------------------------------------- loading
class LineLoader(BoundedLoader):
    """A safe, bounded YAML loader (see :mod:`factionsim.core.safeyaml`) that also records where
    each field starts.

    After :meth:`load_with_lines`, ``lines`` maps every field path (a tuple of mapping keys and
    sequence indexes, ``()`` for the document) to the 1-based line where that key or sequence
    item starts. Duplicate keys in one mapping are reported as errors instead of silently
    keeping the last one.
    """

    def __init__(self, stream: str, source: str = "<string>"):
        super().__init__(stream, source)
        self.lines: dict[FieldPath, int] = {}

    def load_with_lines(self) -> Any:
        """Parse the single document and return its data; fills :attr:`lines`."""
        try:
            node = self.get_single_node()
            if node is None:
                return None
            self._record(node, (), node.start_mark.line + 1)
            return plain_tree(self.construct_document(node))
        finally:
            self.dispose()

    def _record(self, node: yaml.Node, path: FieldPath, line: int) -> None:
        self.lines.setdefault(path, line)
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                    continue
                key = self.construct_object(key_node)
                key_line = key_node.start_mark.line + 1
                if isinstance(key, (str, int)) and not isinstance(key, bool):
                    if key in seen:
                        raise CampaignError(
                            f"{self.source}, line {key_line}, {format_path((*path, key))}: "
                            f"duplicate key {key!r} (first given on line {seen[key]}); "
                            "give each field once."
                        )
                    seen[key] = key_line
                    self._record(value_node, (*path, key), key_line)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._record(item, (*path, i), item.start_mark.line + 1)


def format_path(path: FieldPath) -> str:
    """``("factions", 1, "assets", 0, "type")`` -> ``"factions[1].assets[0].type"``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "top level"


class FieldChecker:
    """Base of the rulesets' campaign validators: the file name and line table at hand, so a
    problem is reported as ``<file>, line <n>, <field path>: ...`` (:meth:`where`)."""

    def __init__(self, source: str, lines: Any):
        self.source = source
        self.lines = lines  # field path (tuple, or its text form) -> line, see LineLoader

    def line(self, path: FieldPath) -> int | None:
        """The line of ``path``, else of its nearest parent that has one."""
        for n in range(len(path), -1, -1):
            sub = path[:n]
            for key in (sub, format_path(sub)):
                if key in self.lines:
                    return self.lines[key]
        return None

    def where(self, path: FieldPath) -> str:
        """``"<file>, line <n>, <field path>"`` (no line part when none is known)."""
        line = self.line(path)
        at = f"{self.source}, line {line}" if line is not None else self.source
        return f"{at}, {format_path(path)}"


def load_campaign_data(path: str | os.PathLike[str], rulesets: Sequence[str] = (),
                       text: str | None = None
                       ) -> tuple[dict[str, Any], dict[FieldPath, int]]:
    """Read a campaign file: ``(data, lines)`` where ``lines`` maps field paths to line numbers.

    ``text``: the file's text when the caller has read it already (it is then not read again).
    Raises :class:`CampaignError` for a missing or unreadable file, broken YAML (with YAML's
    line and column), YAML beyond the limits of :mod:`factionsim.core.safeyaml` (size, aliases,
    nesting, numbers) or a top level that is not a mapping (``rulesets``: the names an empty
    file is told to choose from).
    """
    source = str(path)
    try:
        text = read_limited(path, source) if text is None else text
    except FileNotFoundError:
        raise CampaignError(
            f"{source}: campaign file not found; give the path of an existing YAML campaign file."
        ) from None
    except IsADirectoryError:
        raise CampaignError(
            f"{source}: is a directory, not a campaign file; give the path of a YAML file."
        ) from None
    except UnicodeDecodeError as exc:
        raise CampaignError(
            f"{source}: cannot be read as UTF-8 text (byte {exc.start}); campaign files must be "
            "UTF-8 YAML."
        ) from None
    except OSError as exc:
        raise CampaignError(f"{source}: cannot read the campaign file ({exc.strerror}).") from None
    check_size(text, source)
    try:
        loader = LineLoader(text, source)  # the reader refuses control characters here
        data = loader.load_with_lines()
    except yaml.YAMLError as exc:
        raise CampaignError(yaml_error_message(source, exc, text)) from None
    if data is None:
        raise CampaignError(
            f"{source}: the campaign file is empty; it must be a YAML mapping with at least "
            f"a 'ruleset' field (one of: {', '.join(rulesets)})."
        )
    if not isinstance(data, dict):
        raise CampaignError(
            f"{source}, line 1: top level: the campaign must be a YAML mapping of fields "
            f"(ruleset, name, locations, factions...), not a {_yaml_type(data)}."
        )
    return data, loader.lines


def _yaml_type(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


#: how many of the legal actions at a saved decision :func:`check_resumable` tries
RESUME_PROBES = 24
#: random play-outs of the rest of a saved turn :func:`check_resumable` makes, and their length
RESUME_PLAYOUTS, RESUME_PLAYOUT_DECISIONS = 3, 3000


def check_resumable(state: Any, where: str) -> None:
    """Refuse a turn saved in progress that cannot go on.

    The ``in_progress`` block is the engine's own bookkeeping of a turn cut short: the
    validators check its structure and references, and this tries it, on copies, the way play
    would: the next decision, each of its legal actions (up to :data:`RESUME_PROBES`, spread
    over the list) applied, and :data:`RESUME_PLAYOUTS` play-outs of the rest of the turn with
    actions drawn at random (fixed seeds). Anything that breaks is reported as a
    :class:`CampaignError` at ``where`` (one paragraph, the fix included), never later, mid-play.
    """
    import numpy as np

    try:
        probe = state.copy()
        legal = probe.legal_actions()
        step = max(1, -(-len(legal) // RESUME_PROBES))
        for action in legal[::step]:
            trial = probe.copy()
            trial.apply(action)
            trial.legal_actions()
        for seed in range(RESUME_PLAYOUTS):
            trial, rng = probe.copy(), np.random.default_rng(seed)
            for _ in range(RESUME_PLAYOUT_DECISIONS):
                if trial.turn != probe.turn or trial.current_actor() is None:
                    break
                options = trial.legal_actions()
                trial.apply(options[int(rng.integers(len(options)))])
    except Exception as exc:  # noqa: BLE001 - any failure of engine bookkeeping is the file's
        detail = f"{type(exc).__name__}: {exc}"
        raise CampaignError(
            f"{where}: the turn saved in progress cannot go on ({detail[:200]}); this block is "
            "written by the engine, so restore the file with 'factionsim undo' or delete the "
            "in_progress block to restart the turn from its beginning."
        ) from None


# --------------------------------------------------------------------------------- saving
class _Dumper(yaml.SafeDumper):
    """Safe dumper: short scalar lists and small flat mappings in flow style, numpy scalars as
    plain numbers, no aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


_FLOW_WIDTH = 88


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _flow_len(value: Any) -> int:
    """A rough length of ``value`` written in flow style (deterministic, errs long)."""
    if isinstance(value, dict):
        return 2 + sum(len(str(k)) + 4 + _flow_len(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return 2 + sum(_flow_len(v) + 2 for v in value)
    return len(str(value)) + (2 if isinstance(value, str) else 0)


def _flat(value: Any, depth: int = 1) -> bool:
    """Scalars, lists of scalars and (one level down) mappings of such values."""
    if _is_scalar(value):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_scalar(v) for v in value)
    return depth > 0 and isinstance(value, dict) and all(_flat(v, 0) for v in value.values())


class _Block(dict):  # type: ignore[type-arg]
    """A mapping always written in block style (the top level of a campaign file)."""


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(_is_scalar(v) for v in data) and _flow_len(data) <= _FLOW_WIDTH
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _represent_dict(dumper: yaml.SafeDumper, data: dict[Any, Any]) -> yaml.Node:
    flow = bool(data) and all(_flat(v) for v in data.values()) and _flow_len(data) <= _FLOW_WIDTH
    node = dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)
    return node


def _represent_block(dumper: yaml.SafeDumper, data: dict[Any, Any]) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(tuple, _represent_list)
_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(_Block, _represent_block)
try:  # numpy scalars can slip into engine bookkeeping; write them as plain numbers
    import numpy as _np

    _Dumper.add_multi_representer(
        _np.integer, lambda d, v: d.represent_int(int(v))
    )
    _Dumper.add_multi_representer(
        _np.floating, lambda d, v: d.represent_float(float(v))
    )
    _Dumper.add_multi_representer(_np.bool_, lambda d, v: d.represent_bool(bool(v)))
except ImportError:  # pragma: no cover - numpy is a dependency
    pass


def dump_campaign_data(data: dict[str, Any]) -> str:
    """Campaign data as YAML text: one block per top-level field, blank lines around the blocks
    that are lists or mappings.

    Deterministic: equal dicts (same key order) give byte-identical text.
    """
    parts: list[str] = []
    previous_scalar = True
    for key, value in data.items():
        scalar = _is_scalar(value)
        if parts and not (scalar and previous_scalar):
            parts.append("\n")
        parts.append(yaml.dump(
            _Block({key: value}), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
            default_flow_style=False, width=100,
        ))
        previous_scalar = scalar
    return "".join(parts)


def dump_campaign_text(state: Any) -> str:
    """The campaign file text of ``state`` (``state.to_dict()`` as YAML). Commands that rewrite a
    campaign write into the text they read instead
    (:func:`~factionsim.core.roundtrip.campaign_text`)."""
    return dump_campaign_data(state.to_dict())


def save_campaign(state: Any, path: str | os.PathLike[str]) -> None:
    """Write ``state`` to ``path`` as a campaign file, atomically.

    The text goes to a temporary file in the same directory, is flushed and fsynced, then
    replaces ``path`` with :func:`os.replace`; on any failure the old file is left untouched
    and the temporary file removed.
    """
    text = dump_campaign_text(state)
    write_atomic(Path(path), text)
