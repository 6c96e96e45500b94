"""Bounded, safe YAML reading: what every file a user hands factionsim is parsed with.

YAML can describe far more than a campaign needs, and a small file can ask for a lot of work:
an *alias bomb* (anchors whose aliases nest, ``&a [*b, *b, ...]``) expands 3 KB of text into
gigabytes, ``[[[[...]]]]`` nests deeper than Python recurses, and ``2**100000`` takes a while to
read. :class:`BoundedLoader` is PyYAML's safe loader (no Python objects, no code) with these
limits, each refused with a :class:`~factionsim.core.game.CampaignError` naming the file, the
line and the limit:

=====================  ==================================================================
``MAX_FILE_BYTES``     the file's size (5 MiB; a large campaign is well under 1 MiB)
``MAX_NODES``          values in the document, aliases counted as the values they stand for
``MAX_ALIAS_NODES``    values reached through aliases (``*name``), merges (``<<:``) included
``MAX_DEPTH``          lists and mappings nested in each other
``MAX_INT_DIGITS``     digits of a whole number (a saved dice state needs 39)
=====================  ==================================================================

An alias may not point into its own anchor (a structure that contains itself), and ``.nan`` and
``.inf`` (or a number too large to be a float) are refused: no campaign field holds them. The
data comes back as a plain tree: a value given once and used through aliases is copied to each
place, so later changes to one place never show in another.

>>> parse_yaml("a: &x [1, 2]\\nb: *x\\n", "demo.yaml")
{'a': [1, 2], 'b': [1, 2]}
>>> parse_yaml("a: " + "[" * 60 + "]" * 60, "deep.yaml")
Traceback (most recent call last):
...
factionsim.core.game.CampaignError: deep.yaml, line 1, column 53: lists and mappings nested \
more than 50 deep; campaign files need far fewer levels (limit: 50).
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from .game import CampaignError

#: the largest file factionsim reads, in bytes
MAX_FILE_BYTES = 5 * 1024 * 1024
#: values (scalars, lists, mappings) in one document, aliases expanded
MAX_NODES = 250_000
#: values reached through aliases and merge keys
MAX_ALIAS_NODES = 10_000
#: lists and mappings nested in each other
MAX_DEPTH = 50
#: digits (and letters of 0x/0o/0b forms) in one whole number
MAX_INT_DIGITS = 40


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with the limits of this module (see the module docstring).

    ``source`` names the file in messages. Errors of the YAML syntax itself are
    :class:`yaml.YAMLError` (turn them into a message with :func:`yaml_error_message`); a
    limit exceeded is a :class:`CampaignError` at once.
    """

    def __init__(self, stream: str, source: str = "<string>"):
        super().__init__(stream)
        self.source = source
        self._depth = 0
        self._nodes = 0
        self._alias_nodes = 0
        self._sizes: dict[int, int] = {}
        self._open_anchors: set[str] = set()

    # ------------------------------------------------------------------ limits
    def _refuse(self, mark: Any, problem: str, limit: str) -> CampaignError:
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        return CampaignError(f"{self.source}{where}: {problem} (limit: {limit}).")

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self._open_anchors:
                raise self._refuse(event.start_mark, f"the alias *{event.anchor} points into its "
                                   f"own anchor &{event.anchor}, a value that contains itself; "
                                   "write the value out instead", "no self-reference")
            node = self.anchors.get(event.anchor)
            if node is not None:
                size = self._size(node)
                self._alias_nodes += size
                self._nodes += size
                if self._alias_nodes > MAX_ALIAS_NODES:
                    raise self._refuse(event.start_mark, "aliases (*name) expand to more than "
                                       f"{MAX_ALIAS_NODES} values; write the repeated values out "
                                       "or use fewer aliases", f"{MAX_ALIAS_NODES} values")
                self._count(event.start_mark)
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise self._refuse(event.start_mark, f"lists and mappings nested more than {MAX_DEPTH}"
                               " deep; campaign files need far fewer levels", str(MAX_DEPTH))
        self._nodes += 1
        self._count(event.start_mark)
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self._open_anchors.add(anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
            if anchor is not None:
                self._open_anchors.discard(anchor)

    def _count(self, mark: Any) -> None:
        if self._nodes > MAX_NODES:
            raise self._refuse(mark, f"more than {MAX_NODES} values in one file (aliases "
                               "counted as what they stand for)", f"{MAX_NODES} values")

    def _size(self, node: yaml.Node) -> int:
        """How many values ``node`` stands for (memoized: aliased parts are shared nodes)."""
        known = self._sizes.get(id(node))
        if known is not None:
            return known
        if isinstance(node, yaml.SequenceNode):
            size = 1 + sum(self._size(item) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            size = 1 + sum(self._size(k) + self._size(v) for k, v in node.value)
        else:
            size = 1
        self._sizes[id(node)] = size
        return size

    # ------------------------------------------------------------------ scalars
    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """Build one value; a scalar Python cannot read (``2024-13-45`` as a date, ``!!int x``)
        becomes a YAML error at its line instead of a bare ``ValueError``."""
        try:
            return super().construct_object(node, deep)
        except (yaml.YAMLError, CampaignError):
            raise
        except (ValueError, TypeError, OverflowError, ArithmeticError) as exc:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read the value {_short(node)} ({exc})", node.start_mark
            ) from None

    def construct_yaml_int(self, node: yaml.Node) -> int:
        text = str(node.value).replace("_", "").lstrip("+-")
        if len(text) > MAX_INT_DIGITS:
            raise self._refuse(node.start_mark, f"a whole number of {len(text)} digits; numbers "
                               "in campaign files are far shorter", f"{MAX_INT_DIGITS} digits")
        return super().construct_yaml_int(node)

    def construct_yaml_float(self, node: yaml.Node) -> float:
        value = super().construct_yaml_float(node)
        if not math.isfinite(value):
            raise self._refuse(node.start_mark, f"the number {_short(node)} is not finite "
                               "(.nan, .inf or too large); give an ordinary number",
                               "finite numbers")
        return value


BoundedLoader.add_constructor("tag:yaml.org,2002:int", BoundedLoader.construct_yaml_int)
BoundedLoader.add_constructor("tag:yaml.org,2002:float", BoundedLoader.construct_yaml_float)


def _short(node: yaml.Node) -> str:
    text = repr(node.value) if isinstance(node.value, str) else node.tag
    return text if len(text) <= 40 else text[:37] + "..."


def plain_tree(value: Any) -> Any:
    """``value`` with every list and mapping copied, so no two places share one object (what
    aliases produce). Bounded by :data:`MAX_NODES` through the loader."""
    if isinstance(value, dict):
        return {k: plain_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_tree(v) for v in value]
    return value


def read_limited(path: Any, source: str) -> str:
    """The UTF-8 text of the file at ``path``, refused (:class:`CampaignError`) when it is above
    :data:`MAX_FILE_BYTES`, without reading more than that. OS and decoding errors propagate."""
    with open(path, "rb") as handle:
        raw = handle.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise _too_large(source, f"more than {MAX_FILE_BYTES / 2**20:.0f} MiB")
    return raw.decode("utf-8")


def _too_large(source: str, size: str) -> CampaignError:
    return CampaignError(
        f"{source}: the file is {size}, larger than factionsim reads (limit: "
        f"{MAX_FILE_BYTES // 2**20} MiB); a campaign file is far smaller, so this is probably "
        "not one."
    )


def check_size(text: str, source: str) -> None:
    """Refuse a text above :data:`MAX_FILE_BYTES` (UTF-8 bytes)."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise _too_large(source, f"{len(text.encode('utf-8')) / 2**20:.1f} MiB")


def yaml_error_message(source: str, exc: yaml.YAMLError, text: str = "") -> str:
    """One paragraph for a YAML syntax error: file, line and column, the problem, the fix."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    if isinstance(exc, yaml.reader.ReaderError):
        line = text.count("\n", 0, exc.position) + 1 if text else None
        where = f", line {line}" if line else ""
        char = exc.character if isinstance(exc.character, int) else ord(exc.character[:1] or " ")
        return (f"{source}{where}: the character U+{char:04X} cannot appear in a YAML file "
                "(control characters are not text); remove it or write it as an escape in a "
                "double-quoted string.")
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    detail = f"{problem} ({context})" if context else str(problem)
    if isinstance(exc, yaml.constructor.ConstructorError):
        return (f"{source}{where}: unreadable YAML value: {detail}; campaign files hold plain "
                "text, numbers, true/false, lists and mappings (no tags such as !!python/...).")
    return f"{source}{where}: broken YAML: {detail}; fix the syntax at that spot."


def parse_yaml(text: str, source: str = "<string>") -> Any:
    """Parse one YAML document within the limits; raises :class:`CampaignError` (file, line,
    problem) for broken YAML or a limit exceeded. For text that is not a campaign to validate
    (history snapshots, say); campaign files go through ``campaign.load_campaign_data``."""
    check_size(text, source)
    try:
        loader = BoundedLoader(text, source)  # the reader refuses control characters here
        try:
            return plain_tree(loader.get_single_data())
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise CampaignError(yaml_error_message(source, exc, text)) from None
