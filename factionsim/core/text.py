"""Text from campaign files made harmless for the terminal and for markdown.

Names and other free text come from campaign files that anyone may have written (a forum post,
a shared folder). Printed raw, a name could carry terminal escape codes (recolour or clear the
screen, retitle the window) or, in a markdown chronicle, HTML, emphasis, headings or a forged
block marker.

- :func:`terminal_safe` shows every control character (but newline and tab) and the
  bidirectional-override characters as visible escapes; the command line passes everything it
  prints through it.
- :func:`markdown_text` makes a piece of text read as itself in markdown: line breaks and
  control characters become spaces, markdown and HTML special characters are escaped.

>>> terminal_safe("The \\x1b[31mRed\\x1b[0m Hand")
'The \\\\x1b[31mRed\\\\x1b[0m Hand'
>>> print(markdown_text("<script>*Evil*</script>\\n## Turn 5"))
\\<script\\>\\*Evil\\*\\</script\\> \\#\\# Turn 5
"""

from __future__ import annotations

import re
from typing import Any

#: C0 and C1 control characters but tab and newline, DEL, and the characters that reorder text
#: (bidirectional marks, embeddings, overrides and isolates).
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
                     r"\u202a-\u202e\u2066-\u2069]")


def _visible(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str, allow: str = "") -> str:
    """``text`` with its control and text-reordering characters shown as ``\\x1b``-style
    escapes; newline, tab and the characters in ``allow`` are kept."""
    return _UNSAFE.sub(lambda m: m.group(0) if m.group(0) in allow else _visible(m.group(0)),
                       text)


_LINE_BREAKS = re.compile(r"[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_BLOCK_START = re.compile(r"^([-+=>]|\d+(?=[.)]))")


def markdown_text(text: object) -> str:
    """``text`` as inline markdown that reads as itself (no emphasis, links, HTML, headings,
    list items, entities or line breaks of its own)."""
    s = _LINE_BREAKS.sub(" ", str(text))
    s = _UNSAFE.sub(lambda m: _visible(m.group(0)), s)
    s = _MD_SPECIAL.sub(r"\\\1", s)
    s = _ENTITY.sub(r"\\&", s)
    m = _BLOCK_START.match(s)
    if m:  # "- x", "1. x", "> x" would start a list or a quote at the start of a line
        end = m.end()
        s = s[:end] + "\\" + s[end:] if m.group(1)[0].isdigit() else "\\" + s
    return s


def markdown_code(text: object) -> str:
    """``text`` as an inline code span (one line; a backtick in it becomes a quote)."""
    s = _LINE_BREAKS.sub(" ", str(text)).replace("`", "'")
    return "`" + _UNSAFE.sub(lambda m: _visible(m.group(0)), s) + "`"


_RAW_HTML = re.compile(r"(?<!\\)<")


def markdown_line(text: str) -> str:
    """A line of chronicle markdown made by our templates, kept on one line and free of raw
    HTML whatever the template put in it (names are escaped already; this guards the rest)."""
    s = _LINE_BREAKS.sub(" ", text)
    s = _UNSAFE.sub(lambda m: _visible(m.group(0)), s)
    return _RAW_HTML.sub(r"\\<", s)


class TerminalStream:
    """A text stream that passes everything written to it through :func:`terminal_safe`
    (``allow``: control characters it keeps, e.g. ``"\\r"`` for progress bars); every other
    attribute is the wrapped stream's."""

    def __init__(self, stream: Any, allow: str = ""):
        self._stream = stream
        self._allow = allow

    def write(self, text: str) -> int:
        self._stream.write(terminal_safe(text, self._allow))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
