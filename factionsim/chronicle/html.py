"""Chronicle text as HTML: the little markdown our sentences use (:func:`inline`,
:func:`markdown_to_html`) and a turn (:class:`~factionsim.chronicle.story.TurnStory`) as the
report shows it, the dice folded into ``<details>`` (:func:`story_html`).

>>> inline(r"**Achieves** the \\*Star\\* <goal>")
'<strong>Achieves</strong> the *Star* &lt;goal&gt;'
>>> page_head("{title}: forecast").splitlines()[-3:]
['<title>{title}: forecast</title>', '<style>{css}</style>', '</head>']
>>> dice_html("1d10 [4] +3 = 7")
'<details class="dice"><summary>dice</summary>1d10 [4] +3 = 7</details>'
"""

from __future__ import annotations

import html
import re

from .story import Line, TurnStory

_HOLE = "\ue000"
#: what :func:`inline` holds aside as a literal: markdown's backslash escapes, and the hole mark
#: itself where a name holds it (a private-use character), so no name can forge a hole
_HELD = re.compile(r"\\([!-/:-@\[-`{-~])|(" + _HOLE + ")")


def page_head(title: str, style: str = "{css}") -> str:
    """The start of a self-contained HTML page (report, sheet, batch summary, forecast), through
    ``</head>``; ``title`` and ``style`` are written as given, so a page's ``str.format``
    template begins ``page_head("{title}: batch") + "<body>..."`` and fills them in."""
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title}</title>\n<style>{style}</style>\n</head>\n")


def inline(text: str) -> str:
    """Inline markdown -> HTML: code, bold, italic; a backslash-escaped character (how the
    chronicle writes names) stays that character, never markup."""
    literals: list[str] = []

    def hold(m: re.Match[str]) -> str:
        literals.append(m.group(1) or m.group(2))
        return f"{_HOLE}{len(literals) - 1}{_HOLE}"

    text = html.escape(_HELD.sub(hold, text), quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"(?<![*\w])\*([^*]+)\*(?!\*)", r"<em>\1</em>", text)
    return re.sub(f"{_HOLE}(\\d+){_HOLE}", lambda m: html.escape(literals[int(m.group(1))]), text)


def markdown_to_html(md: str) -> str:
    """The small markdown the chronicle uses: headings, bullet lists, paragraphs, bold/italic/code."""
    out: list[str] = []
    in_list = False
    para: list[str] = []

    def flush() -> None:
        nonlocal in_list
        if para:
            out.append(f"<p>{inline(' '.join(para))}</p>")
            para.clear()
        if in_list:
            out.append("</ul>")
            in_list = False

    for line in md.splitlines():
        s = line.strip()
        if s.startswith("<!--"):
            m = re.match(r"<!-- factionsim turn (\d+) -->", s)
            if m:
                flush()
                out.append(f'<a id="turn-{m.group(1)}"></a>')
            continue
        h = re.match(r"^(#{1,4}) (.*)$", s)
        if h:
            flush()
            level = min(len(h.group(1)) + 1, 5)
            out.append(f"<h{level}>{inline(h.group(2))}</h{level}>")
        elif s.startswith("- "):
            if para:
                out.append(f"<p>{inline(' '.join(para))}</p>")
                para.clear()
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{inline(s[2:])}</li>")
        elif not s:
            flush()
        else:
            para.append(s)
    flush()
    return "\n".join(out)


def dice_html(dice: str) -> str:
    """The dice of a line, folded: a tap (or click) on "dice" shows them."""
    return f'<details class="dice"><summary>dice</summary>{inline(dice)}</details>' if dice else ""


def line_html(line: Line) -> str:
    """One line of the GM's chronicle: its sentence, its folded dice and its reasons."""
    body = ""
    if line.text:
        body = inline(line.prefix + line.sentence()) + (" " + dice_html(line.dice) if line.dice
                                                         else "")
    if line.reasons:
        whys = "".join(f"<li>{inline(r)}</li>" for r in line.reasons)
        body += f'<ul class="why">{whys}</ul>'
    return f"<li>{body}</li>"


def story_html(story: TurnStory) -> str:
    """One turn of the chronicle, as the report shows it."""
    parts = [f'<section class="turn" id="turn-{story.turn}"><h3>{inline(story.title)}</h3>']
    if story.headline:
        parts.append(f'<p class="headline">{inline(story.headline)}</p>')
    if story.order is not None:
        parts.append(f'<p class="order">{inline(story.order.text)}'
                     + (" " + dice_html(story.order.dice) if story.order.dice else "") + "</p>")
    if story.audience == "players":
        items = "".join(f"<li><b>{inline(place)}:</b> {inline('; '.join(s.rstrip('.') for s in ss))}."
                        f"</li>" for place, ss in story.places)
        if items or not story.headline:
            parts.append(f'<ul class="rumours">{items}</ul>' if items
                         else '<p class="quiet">No news of note reached the taverns.</p>')
    else:
        for section in story.sections:
            if section.title is not None:
                parts.append(f"<h4>{inline(section.title)}</h4>")
            parts.append("<ul>" + "".join(line_html(li) for li in section.lines) + "</ul>")
    parts.append("</section>")
    return "".join(parts)
