"""Issue 17, item 6 (the output side): names are plain text everywhere.

"markdown/HTML special characters are escaped in chronicles; terminal output never prints raw
escape codes." "a faction name containing a newline and a turn marker makes every later `turn`
cut the previous block." "terminal escape codes in names are printed raw; raw HTML passes into
the markdown chronicles." (Refusing control characters in names at validation is the validator's
part; these tests check the outputs are safe whatever a name holds.)
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from file_safety_helpers import new_campaign, played
from hypothesis import example, given, settings
from hypothesis import strategies as st

from factionsim.chronicle import Names
from factionsim.chronicle.report import _inline, markdown_to_html
from factionsim.chronicle.views import render_turn
from factionsim.cli import main
from factionsim.commands.gm import turn_blocks
from factionsim.configs import default_campaign_path
from factionsim.core.history import History, appended_chronicle, chronicle_turns, trimmed_chronicle
from factionsim.core.text import TerminalStream, markdown_text, terminal_safe
from factionsim.rulesets import load_campaign

EVIL = {
    "iron-legion": "<script>alert('x')</script> *The* _Iron_ [Legion](http://x)",
    "silver-guild": "Silver\n<!-- factionsim turn 99 -->\n## Turn 5\n# Title",
    "veiled-hand": "\x1b]0;pwned\x07\x1b[2J\u202eVeiled & Co &amp; `tick`",
    "ashen-flame": "- 1. > | ~~Ashen~~ \\ &#169;",
}
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202e]")


def evil_names() -> Names:
    """The bundled campaign's names, its factions renamed as in :data:`EVIL`."""
    n = Names.from_state(load_campaign(default_campaign_path()))
    n.factions.update(EVIL)
    return n


# --------------------------------------------------------------------------- terminal
def test_terminal_safe_shows_control_characters_as_escapes() -> None:
    assert terminal_safe("a\x1b[31mb\x07c\u202ed\n\te") == "a\\x1b[31mb\\x07c\\u202ed\n\te"
    assert terminal_safe("50%\r", allow="\r") == "50%\r"
    buf = io.StringIO()
    TerminalStream(buf).write("x\x1b[2Jy\r\n")
    assert buf.getvalue() == "x\\x1b[2Jy\\x0d\n"


def test_error_messages_print_no_escape_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """A file name with escape codes, echoed in the error, arrives escaped."""
    assert main(["validate", "no\x1b]0;pwned\x07such.yaml"]) == 2
    err = capsys.readouterr().err
    assert not RAW.search(err) and "\\x1b]0;pwned\\x07" in err


def test_names_with_escape_codes_reach_the_terminal_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever validation makes of such a name, nothing printed holds a raw control code."""
    c = new_campaign(tmp_path / "c")
    c.write_text(c.read_text().replace("name: The Iron Legion",
                                       'name: "Iron\\e[31m Legion\\a\\u202e"'))
    codes = [main(argv) for argv in (["validate", str(c)], ["show", str(c)],
                                     ["turn", str(c)], ["show", str(c), "--json"],
                                     ["undo", str(c)])]
    out = capsys.readouterr()
    assert not RAW.search(out.out) and not RAW.search(out.err)
    if codes[0] == 0:  # accepted: the name is shown, escaped
        assert "Iron\\x1b[31m Legion\\x07\\u202e" in out.out
    else:  # refused by validation: a clean error
        assert set(codes) == {2} and "error:" in out.err


# --------------------------------------------------------------------------- markdown
@pytest.mark.parametrize("name,expected", [
    ("<script>x</script>", "\\<script\\>x\\</script\\>"),
    ("*bold* _it_ `code`", "\\*bold\\* \\_it\\_ \\`code\\`"),
    ("A\n## Turn 5\r\nB", "A \\#\\# Turn 5 B"),
    ("- item", "\\- item"), ("1. first", "1\\. first"), ("> quote", "\\> quote"),
    ("Salt & Sons &amp; Co", "Salt & Sons \\&amp; Co"),
    ("[link](http://x)", "\\[link\\](http://x)"),
])
def test_markdown_text_escapes(name: str, expected: str) -> None:
    assert markdown_text(name) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
@example("\ue000")  # the private-use character the renderer marks its holes with
@example("x\ue0000\ue000y")  # ... and a forged hole
def test_a_name_reads_as_itself_in_the_rendered_chronicle(name: str) -> None:
    """Any name, escaped for markdown and rendered to HTML, is that name (line breaks read as
    spaces and control characters as visible escapes), never markup."""
    shown = re.sub(r"[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+", " ", name)
    shown = terminal_safe(shown)
    assert _inline(markdown_text(name)) == html.escape(shown, quote=False)


def test_evil_names_do_not_break_the_chronicle_blocks(tmp_path: Path) -> None:
    """Three turns told with names that hold HTML, markdown and a forged block marker: each
    chronicle holds exactly blocks 1-3, nothing in them is raw HTML, and undo cuts at the real
    block, not at the forged one."""
    c = played(tmp_path / "c", 3)
    h = History(c)
    names = evil_names()
    clean = History(new_campaign(tmp_path / "d"))
    before = clean.campaign.read_text()
    for t in (1, 2, 3):
        events = h.events(t)
        after = h.snapshot(t)
        clean.record_turn(before, t - 1, after, t, events, turn_blocks(names, t, events, set()),
                          {"gm": markdown_text(EVIL["silver-guild"]), "players": "P"})
        before = after
    for view in ("gm", "players"):
        text = clean.chronicle_text(view)
        assert clean.chronicle_turns(view) == [1, 2, 3]
        assert "<script>" not in text and "\n## Turn 5" not in text and "\n# Title" not in text
        assert re.findall(r"^## Turn (\d+)$", text, re.M) == ["1", "2", "3"]
        rendered = markdown_to_html(text)
        assert "<script>" not in rendered and "&lt;script&gt;" in rendered
    assert "Silver \\<!-- factionsim turn 99 --\\> \\#\\# Turn 5" in clean.chronicle_text("gm")
    assert clean.undo_to(2, clean.campaign.read_text()) == 2
    assert clean.chronicle_turns("gm") == [1, 2]


def test_a_block_cannot_forge_a_block_marker() -> None:
    """Even a block whose text has a marker line of its own (a template that forgot to escape)
    starts no block: the line is defused, so trimming cuts at real blocks only."""
    text = appended_chronicle(None, "T", 1, "## Turn 1\n<!-- factionsim turn 99 -->\nmore")
    text = appended_chronicle(text, "T", 2, "## Turn 2")
    assert chronicle_turns(text) == [1, 2]
    assert chronicle_turns(trimmed_chronicle(text, 1)) == [1]
    assert "more" in trimmed_chronicle(text, 1)


def test_a_turn_with_an_evil_faction_name_keeps_every_block(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case through the command: a faction name with a newline and a turn marker.
    Refused by validation (a clean error) or played: then every block survives later turns."""
    c = new_campaign(tmp_path / "c")
    c.write_text(c.read_text().replace(
        "name: The Iron Legion", 'name: "Iron\\n<!-- factionsim turn 99 -->\\n## Turn 5"'))
    code = main(["turn", str(c), "--turns", "3", "--quiet"])
    if code == 2:
        assert "Traceback" not in capsys.readouterr().err
        return
    assert code == 0
    for view in ("gm", "players"):
        assert History(c).chronicle_turns(view) == [1, 2, 3]
    assert main(["undo", str(c), "--quiet"]) == 0
    assert History(c).chronicle_turns("gm") == [1, 2]


def test_render_turn_escapes_names_but_keeps_its_own_markup() -> None:
    from factionsim.core.game import Event

    n = Names({"a": "<b>A*</b>"}, {}, {}, "wwn")
    text = render_turn([Event(1, "initiative", None, {"order": ["a"], "rolls": {"a": 3}}),
                        Event(1, "faction-turn", "a", {}),
                        Event(1, "collapse", "a", {})], n)
    assert "### \\<b\\>A\\*\\</b\\>" in text and "**\\<b\\>A\\*\\</b\\> collapses**" in text


def test_calendar_dates_are_plain_text_in_chronicles_and_reports(tmp_path: Path) -> None:
    """A campaign's month names are campaign text like its names: a turn heading made from one
    reads as itself in the chronicle (escaped markdown) and in the HTML report (escaped HTML)."""
    month = "<i>Frost*</i>"
    c = new_campaign(tmp_path / "c")
    c.write_text(c.read_text() + f'\ncalendar:\n  start: {{year: 1203, month: "{month}"}}\n'
                 f'  turn_length: 1 month\n  months: ["{month}", Thaw]\n')
    assert main(["turn", str(c), "--quiet"]) == 0
    chronicle = History(c).chronicle_text("gm") or ""
    assert "## Turn 1 (1 \\<i\\>Frost\\*\\</i\\> 1203)" in chronicle
    assert month not in chronicle
    out = tmp_path / "r.html"
    assert main(["report", str(c), "-o", str(out), "--quiet"]) == 0
    report = out.read_text()
    assert month not in report and "<i>Frost" not in report
    assert "1 &lt;i&gt;Frost*&lt;/i&gt; 1203" in report


def test_foundry_log_entries_escape_names() -> None:
    """The faction logs a Foundry export writes are the chronicle's lines as HTML: a name is
    shown as itself there too, never as markup."""
    from factionsim.core.game import Event
    from factionsim.foundry.log import turn_entry

    n = Names({"a": "<b>A*</b>", "b": "*Bee*"}, {}, {}, "wwn")
    entry = turn_entry(1, [Event(1, "collapse", "a", {}),
                           Event(1, "collapse", "b", {"owner": "a"})], n, "a") or ""
    assert "<b>A" not in entry and "&lt;b&gt;A*&lt;/b&gt;" in entry
    assert "<em>Bee</em>" not in entry and "*Bee*" in entry
