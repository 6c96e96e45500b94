"""The chronicle: events rendered as markdown, grouped by turn and by faction.

Each event is told by its ruleset's prose (``RulesetInfo.prose``: event kind -> sentence maker,
e.g. :data:`factionsim.rules.wwn.prose.PROSE`); kinds without a sentence are written plainly,
never dropped.

Names and free text are plain text: :func:`render_markdown` escapes every name (see
:meth:`Names.markdown`), the title and every reason, and keeps each sentence on one line without
raw HTML, so a name like ``<b>*X*</b>`` or one with a line break and ``## Turn 5`` reads as itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from factionsim.core.game import Event
from factionsim.core.names import Names
from factionsim.core.text import markdown_line, markdown_text
from factionsim.rulesets import get_ruleset

__all__ = ["Names", "describe", "prose_table", "render_markdown"]


#: decisions too small to tell (ending a step, keeping a goal); the GM sees the rest
_QUIET_DECISIONS = ("done", "keep goal")


def _worth_telling(e: Event) -> bool:
    return e.data.get("action") not in _QUIET_DECISIONS


def _decision(e: Event) -> str:
    """A decision's one-line reason from its agent, capitalised ("Attacks ...: Blood the Enemy")."""
    reason = str(e.data.get("reason", ""))
    return markdown_text((reason[:1].upper() + reason[1:]).rstrip(".") + ".")


def _plain(e: Event, n: Names) -> str:
    details = ", ".join(f"{k}: {v}" for k, v in e.data.items())
    text = f"{e.kind.replace('-', ' ').capitalize()}" + (f" ({details})." if details else ".")
    return markdown_text(text)


def prose_table(ruleset: str) -> dict[str, Callable[[Event, Names], str]]:
    """Event kind -> sentence maker for ``ruleset`` (its descriptor's ``prose``)."""
    return get_ruleset(ruleset).prose


def describe(event: Event, names: Names) -> str:
    """One event as one sentence, in the prose of ``names.ruleset``."""
    return prose_table(names.ruleset).get(event.kind, _plain)(event, names)


def render_markdown(events: Iterable[Event], names: Names, title: str = "Chronicle") -> str:
    """The whole chronicle: the title and ``names.notes``, then ``## Turn N``, initiative, then
    ``### Faction`` with its events.

    Names and ``title`` are plain text (escaped here); every sentence stays on its line."""
    names = names.markdown()
    lines = [f"# {markdown_text(title)}", ""]
    for note in names.notes:  # each its own paragraph
        lines += [markdown_line(note), ""]
    current_faction: str | None = None
    reasons: list[str] = []  # decisions waiting for the event they caused
    for e in events:
        if reasons and e.kind in ("initiative", "round", "faction-turn"):
            lines += [r[2:] for r in reasons]  # a decision that caused nothing to tell
            reasons.clear()
        if e.kind == "initiative":
            order = ", ".join(f"{names.faction(f)} ({e.data['rolls'][f]})"
                              for f in e.data["order"])
            lines += ["", f"## {names.turn_title(e.turn)}", "", f"Initiative: {order}.", ""]
            current_faction = None
        elif e.kind == "round":  # rulesets with a fixed order: {"order": [faction ids]}
            order = ", ".join(names.faction(f) for f in e.data["order"])
            lines += ["", f"## {names.turn_title(e.turn)}", "", f"Order: {order}.", ""]
            current_faction = None
        elif e.kind == "faction-turn":
            current_faction = e.faction
            lines += ["", f"### {names.faction(e.faction)}", ""]
        elif e.kind == "turn-end":
            continue
        elif e.kind == "decision":  # shown under the first thing it caused
            if _worth_telling(e):
                prefix = "" if e.faction in (current_faction, None) \
                    else f"({names.faction(e.faction)}) "
                reasons.append(f"  - *{prefix}{_decision(e)}*")
        else:
            prefix = "" if e.faction in (current_faction, None) else f"({names.faction(e.faction)}) "
            lines.append(f"- {prefix}{markdown_line(describe(e, names))}")
            lines += reasons
            reasons.clear()
    lines += [r[2:] for r in reasons]
    return "\n".join(lines).rstrip() + "\n"
