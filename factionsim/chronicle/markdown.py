"""The chronicle as markdown: by turn, a headline, then (for the GM) the order of play and each
faction's events in one compact line each, the dice in a short parenthesis and the agents'
reasons under the line they led to; (for the players) the rumours by place. The turns are
built by :mod:`factionsim.chronicle.story`.

Each event is told by its ruleset's prose (``RulesetInfo.prose``: event kind -> sentence maker,
e.g. :data:`factionsim.rules.wwn.prose.PROSE`); kinds without a sentence are written plainly,
never dropped.

Names and free text are plain text: every name, the title and every reason is escaped (see
:meth:`Names.markdown`), and each sentence stays on one line without raw HTML, so a name like
``<b>*X*</b>`` or one with a line break and ``## Turn 5`` reads as itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.text import markdown_line, markdown_text

from .story import Line, TurnStory, describe, prose_table, stories

__all__ = ["Names", "describe", "prose_table", "render_markdown", "story_markdown"]


def _line(line: Line, bullet: str = "- ") -> list[str]:
    out = []
    if line.text:
        text = line.sentence()
        if line.dice:
            stop = text[-1] if text[-1:] in ".!?" else ""
            text = f"{text[:len(text) - len(stop)]} ({line.dice}){stop}"
        out.append(f"{bullet}{line.prefix}{text}")
        out += [f"  - *{r}*" for r in line.reasons]
    else:
        out += [f"- *{r}*" for r in line.reasons]
    return out


def story_markdown(story: TurnStory) -> str:
    """One turn as markdown (``## Turn N`` first)."""
    lines = [f"## {story.title}", ""]
    if story.headline:
        lines += [f"**{markdown_line(story.headline)}**", ""]
    if story.order is not None:
        lines += [_line(story.order, "")[0], ""]
    if story.audience == "players":
        for place, sentences in story.places:
            text = "; ".join(s.rstrip(".") for s in sentences)
            lines.append(f"- **{place}:** {markdown_line(text)}." if place
                         else f"- {markdown_line(text)}.")
        if not story.places and not story.headline:
            lines.append("*No news of note reached the taverns.*")
        return "\n".join(lines).rstrip() + "\n"
    for section in story.sections:
        if section.title is not None:
            lines += ["", f"### {section.title}", ""]
        for line in section.lines:
            lines += _line(line)
    return "\n".join(lines).rstrip() + "\n"


def render_markdown(events: Iterable[Event], names: Names, title: str = "Chronicle",
                    audience: str = "gm", frame: dict[str, Any] | None = None) -> str:
    """The whole chronicle: the title and ``names.notes``, then each turn
    (:func:`story_markdown`). ``events`` are those ``audience`` may know; ``frame`` the campaign
    data (as ``audience`` knows it) before them, where the rumours find places."""
    lines = [f"# {markdown_text(title)}", ""]
    for note in names.notes:  # each its own paragraph
        lines += [markdown_line(note), ""]
    blocks = [story_markdown(s) for s in stories(events, names, audience, frame)]
    return "\n".join(lines) + "\n" + "\n".join(blocks)
