"""Saving a campaign over its own text: the GM's comments, key order and layout stay.

:func:`updated_text` writes campaign data into the text it was loaded from, changing only what
changed: a field keeps its place, its comment and its style (flow ``{...}`` or block); a new
field goes after the field it follows in the data, a removed one goes (with its own comment);
list items are matched by their ``id`` (or, for entries written without one, their ``type``
and ``location``), so a comment on an asset's line stays on that asset. The header ``factionsim
new`` writes and any line of notes stay where they were.

The text is read with ruamel.yaml's round-trip parser only after the campaign loader
(:mod:`factionsim.core.safeyaml`: size, nesting and alias limits) has accepted the same text,
and only for its layout: nothing is built from tags. A text that uses anchors or aliases
(``&name``/``*name``: one value in two places) or that ruamel.yaml cannot parse is written
afresh (:func:`~factionsim.core.campaign.dump_campaign_data`; comments are then lost). Each
result is checked: it must read back, with the campaign loader, as exactly the data, else the
fresh dump is written instead. The result depends only on the text and the data,
so saves stay byte-identical for the same campaign and seed.

>>> text = "# my notes\\nname: March   # the campaign's name\\nturn: 0\\ntags: [a]\\n"
>>> print(updated_text(text, {"name": "March", "turn": 1, "tags": ["a", "b"]}), end="")
# my notes
name: March   # the campaign's name
turn: 1
tags: [a, b]
"""

from __future__ import annotations

import io
import json
from difflib import SequenceMatcher
from typing import Any

import yaml

from .campaign import _FLOW_WIDTH, _flat, _flow_len, _is_scalar, dump_campaign_data

__all__ = ["campaign_text", "updated_text"]



def campaign_text(state: Any, original: str | None) -> str:
    """The campaign text of ``state`` written into ``original``, the text it was loaded from."""
    return updated_text(original, state.to_dict())


def updated_text(original: str | None, data: dict[str, Any]) -> str:
    """``data`` (campaign data) written as YAML into ``original``'s layout (see the module);
    a fresh dump when there is no original or its layout cannot be kept."""
    if not original or _has_aliases(original):
        return dump_campaign_data(data)
    body, tail = _split_tail(original)
    plain = _plain_data(data)
    try:
        from ruamel.yaml.comments import CommentedMap

        rt = _yaml(body)
        doc = rt.load(body)
        if not isinstance(doc, CommentedMap):
            return dump_campaign_data(data)
        doc = _merge(doc, plain)
        out = io.StringIO()
        rt.dump(doc, out)
        text = out.getvalue() + tail
    except Exception:  # noqa: BLE001 - any trouble with the layout: write the data afresh
        return dump_campaign_data(data)
    return text if _same_data(text, plain) else dump_campaign_data(data)


def _split_tail(text: str) -> tuple[str, str]:
    """``(body, tail)``: the comment lines (and blank lines) that end the file are its tail,
    kept at the end whatever fields a save adds (ruamel.yaml would leave them after the last
    value, which a new field then follows)."""
    lines = text.splitlines(keepends=True)
    cut = len(lines)
    while cut and (not lines[cut - 1].strip() or lines[cut - 1].lstrip().startswith("#")):
        cut -= 1
    tail = "".join(lines[cut:])
    if not tail.strip():
        return text, ""
    body = "".join(lines[:cut])
    return body, ("" if body.endswith("\n") else "\n") + tail


def _yaml(original: str) -> Any:
    from ruamel.yaml import YAML

    rt = YAML(typ="rt", pure=True)
    rt.width = 4096  # never re-wrap a GM's lines
    rt.preserve_quotes = True
    offset = _sequence_offset(original)
    rt.indent(mapping=2, sequence=offset + 2, offset=offset)
    rt.explicit_start = original.lstrip().startswith("---")
    return rt


def _sequence_offset(text: str) -> int:
    """How far the file indents a block list's ``-`` under its key (0 or 2, as written)."""
    lines = text.splitlines()
    for above, line in zip(lines, lines[1:], strict=False):
        if above.rstrip().endswith(":") and line.lstrip().startswith("- "):
            return max(0, (len(line) - len(line.lstrip())) - (len(above) - len(above.lstrip())))
    return 0


def _has_aliases(text: str) -> bool:
    if "&" not in text and "*" not in text:
        return False
    try:
        return any(isinstance(e, yaml.AliasEvent) or getattr(e, "anchor", None)
                   for e in yaml.parse(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return True


def _same_data(text: str, data: dict[str, Any]) -> bool:
    """Does ``text`` (our own output, written from validated data: no aliases, no tags) read as
    exactly ``data``? Read with PyYAML's safe loader (libyaml's when installed: a save is made at
    every turn), which reads scalars as the campaign loader does."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader) == data
    except Exception:  # noqa: BLE001 - unreadable: not the same
        return False


def _plain_data(value: Any) -> Any:
    """Plain Python data (numpy scalars and tuples made plain), as the fresh dump writes them."""
    if isinstance(value, dict):
        return {k: _plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_data(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()  # a numpy scalar
    return value


def _plain(node: Any) -> Any:
    """A ruamel node as plain Python data (to compare with the new data)."""
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def _same(old: Any, new: Any) -> bool:
    """Equal values of the same kind (``1`` is not ``True``, ``1`` is not ``1.0``)."""
    a = _plain(old)
    if isinstance(new, (dict, list)):
        return a == new
    return type(a) is type(new) and a == new


def _merge(old: Any, new: Any) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(new, dict):
        if not isinstance(old, CommentedMap):
            return _node(new)
        for key in [k for k in old if k not in new]:
            del old[key]
        last = -1
        for key, value in new.items():
            if key in old:
                old[key] = _merge(old[key], value)
                last = list(old).index(key)
            else:
                last += 1
                old.insert(last, key, _node(value))
        return old
    if isinstance(new, list):
        if not isinstance(old, CommentedSeq):
            return _node(new)
        if _same(old, new):
            return old
        _merge_list(old, new)
        return old
    return old if _same(old, new) else _node(new)


def _merge_list(old: Any, new: list[Any]) -> None:
    """Change the list ``old`` in place into ``new``, matching items (see :func:`_item_key`)."""
    by_id = all(isinstance(o, dict) and "id" in o for o in old) and \
        all(isinstance(n, dict) and "id" in n for n in new)
    old_keys = [_item_key(o, by_id) for o in old]
    new_keys = [_item_key(n, by_id) for n in new]
    codes = SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in reversed(codes):  # from the end: earlier indexes stay valid
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                old[i] = _merge(old[i], new[j])
            continue
        paired = min(i2 - i1, j2 - j1)
        extra_new = [_node(v) for v in new[j1 + paired:j2]]
        for i in range(i2 - 1, i1 + paired - 1, -1):
            del old[i]
        for k, node in enumerate(extra_new):
            old.insert(i1 + paired + k, node)
        for i, j in zip(range(i1, i1 + paired), range(j1, j1 + paired), strict=True):
            old[i] = _merge(old[i], new[j])


def _item_key(item: Any, by_id: bool) -> str:
    """What makes a list item "the same item" from one save to the next: its ``id``; for
    entries without one, their ``type`` and ``location`` (assets) or ``name``; else its value."""
    plain = _plain(item)
    if isinstance(plain, dict):
        if by_id:
            return json.dumps(["id", plain.get("id")], default=str)
        return json.dumps([plain.get(k) for k in ("type", "location", "name")], default=str)
    return json.dumps(plain, sort_keys=True, default=str)


def _node(value: Any) -> Any:
    """A new value as a ruamel node, written as the fresh dump would (short lists of scalars and
    small flat mappings in flow style, the rest as blocks)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString

    if isinstance(value, dict):
        node = CommentedMap((k, _node(v)) for k, v in value.items())
        if value and all(_flat(v) for v in value.values()) and _flow_len(value) <= _FLOW_WIDTH:
            node.fa.set_flow_style()
        else:
            node.fa.set_block_style()
        return node
    if isinstance(value, list):
        seq = CommentedSeq(_node(v) for v in value)
        if all(_is_scalar(v) for v in value) and _flow_len(value) <= _FLOW_WIDTH:
            seq.fa.set_flow_style()
        else:
            seq.fa.set_block_style()
        return seq
    if isinstance(value, str) and _needs_quotes(value):
        return DoubleQuotedScalarString(value)
    return value


def _needs_quotes(text: str) -> bool:
    """Would PyYAML (YAML 1.1: ``yes``, ``on``, ``1_000``...) read ``text`` unquoted as
    anything but this string?"""
    try:
        return yaml.safe_load(text) != text
    except yaml.YAMLError:
        return True
