"""The command line: outputs, determinism across save/load, clean errors, lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from factionsim.cli import main
from factionsim.configs import default_campaign_path

OUTPUTS = ("campaign.yaml", "events.jsonl", "chronicle.md")


def run(*args: str) -> int:
    return main(list(args))


def test_run_writes_the_three_outputs(tmp_path: Path) -> None:
    assert run("run", "--turns", "3", "--seed", "5", "--out", str(tmp_path), "--quiet") == 0
    for name in OUTPUTS:
        assert (tmp_path / name).stat().st_size > 0
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert {"turn", "kind", "faction"} <= set(events[0])
    assert {e["turn"] for e in events} == {1, 2, 3}
    chronicle = (tmp_path / "chronicle.md").read_text()
    assert "## Turn 1" in chronicle and "## Turn 3" in chronicle
    assert "turn: 3" in (tmp_path / "campaign.yaml").read_text()


def test_same_campaign_and_seed_give_byte_identical_outputs(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert run("run", "--turns", "4", "--seed", "11", "--out", str(out), "--quiet") == 0
    for name in OUTPUTS:
        assert (a / name).read_bytes() == (b / name).read_bytes()


def test_two_turns_equal_one_plus_one_from_the_saved_campaign(tmp_path: Path) -> None:
    both, first, second = tmp_path / "both", tmp_path / "first", tmp_path / "second"
    run("run", "--turns", "2", "--seed", "9", "--out", str(both), "--quiet")
    run("run", "--turns", "1", "--seed", "9", "--out", str(first), "--quiet")
    run("run", str(first / "campaign.yaml"), "--turns", "1", "--out", str(second), "--quiet")
    assert (second / "campaign.yaml").read_bytes() == (both / "campaign.yaml").read_bytes()
    joined = (first / "events.jsonl").read_text() + (second / "events.jsonl").read_text()
    assert joined == (both / "events.jsonl").read_text()


def test_validate_accepts_the_bundled_campaign(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("validate", str(default_campaign_path())) == 0
    assert "valid wwn campaign" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ruleset: wwn\nname: x\nlocations: [}\n", "line"),
        ("ruleset: chess\n", "ruleset"),
        ("- just a list\n", "mapping"),
    ],
)
def test_bad_campaign_exits_2_with_one_paragraph(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 text: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    assert run("validate", str(path)) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "bad.yaml" in err and expected in err
    assert "Traceback" not in err and err.strip().count("\n") == 0


def test_missing_policy_model_names_the_file_and_faction(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = default_campaign_path().read_text(encoding="utf-8")
    first = text.index("agent: ")
    end = text.index("\n", first)
    path = tmp_path / "c.yaml"
    path.write_text(text[:first] + "agent: policy:missing.zip" + text[end:], encoding="utf-8")
    out = tmp_path / "o"
    assert run("run", str(path), "--out", str(out), "--quiet") == 2
    err = capsys.readouterr().err
    # "agent policy:missing.zip: no saved model ..." (or, without the rl extra, "agent 'policy'
    # needs the rl extra")
    assert f"{path}: faction '" in err and "': agent " in err
    assert not out.exists()  # nothing half-written


def test_missing_campaign_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("run", str(tmp_path / "nope.yaml"), "--out", str(tmp_path / "o"), "--quiet") == 2
    assert "nope.yaml" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_help_and_a_heuristic_free_run_do_not_import_torch(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from factionsim.cli import main\n"
        f"main(['run', '--turns', '2', '--out', {str(tmp_path)!r}, '--quiet'])\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('torch', 'stable_baselines3', 'matplotlib') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_every_command_help_reads_cleanly() -> None:
    """Every subcommand's help text is formatted (no leftover ``%%`` or ``%(`` escapes)."""
    from factionsim.cli import build_parser

    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # argparse keeps them here
    assert len(commands) >= 10
    for name, sub in commands.items():
        text = sub.format_help()
        assert "%%" not in text and "%(" not in text, name


@pytest.mark.parametrize("command", ["batch", "forecast", "tournament"])
def test_an_error_is_printed_on_a_line_of_its_own_not_after_the_progress_bar(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The long commands draw a progress bar before their first job; an error found then (an
    unknown agent) must not be printed after the half-drawn bar ("batch:   0%| | 0/2error:
    ..."): the bar is closed, its line cleared, whatever ends the command."""
    campaign = tmp_path / "bad.yaml"
    text = default_campaign_path().read_text()
    campaign.write_text(text.replace("agent: heuristic", "agent: bogus", 1))
    out = str(tmp_path / "out")
    args = {"batch": ["batch", str(campaign), "--runs", "2", "--out", out],
            "forecast": ["forecast", str(campaign), "--runs", "2"],
            "tournament": ["tournament", "--agents", "heuristic,bogus", "--games", "2",
                           "--out", out]}[command]
    assert run(*args) == 2
    err = capsys.readouterr().err
    assert f"{command}:" in err  # the bar was drawn ...
    after_bar = err.rsplit("\r", 1)[-1]  # ... and then cleared: the error starts the line
    assert after_bar.startswith("error: ") and "unknown agent 'bogus'" in after_bar


def test_runs_chronicle_headlines_say_where_as_turns_do(tmp_path: Path) -> None:
    """``run``'s chronicle placed a headline without a place of its own (a goal reached) at
    "Abroad", knowing nothing of the campaign before the turns; ``turn``'s chronicle of the same
    turns placed it at the faction's headquarters. Both now tell the same headlines."""
    import re
    import shutil

    campaign = tmp_path / "c.yaml"
    shutil.copy(default_campaign_path(), campaign)
    assert run("run", str(campaign), "--turns", "4", "--out", str(tmp_path / "out"),
               "--quiet") == 0
    assert run("turn", str(campaign), "--turns", "4", "--quiet") == 0
    headline = re.compile(r"^\*\*[^*]+\*\*$", re.M)
    ran = headline.findall((tmp_path / "out" / "chronicle.md").read_text())
    turned = headline.findall(campaign.with_name("c.chronicle.md").read_text())
    assert ran and ran == turned
    assert not any(h.startswith("**Abroad") for h in ran)
