"""``show`` in 100 columns with neighbours and relations; a description for every command;
names, not ids, in the summaries ``run`` and ``turn`` print."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import pytest

from factionsim.cli import build_parser, main
from factionsim.configs import default_campaign_path
from factionsim.core.presentation import SHOW_WIDTH
from factionsim.rulesets import RULESETS, load_campaign

BUNDLED = [default_campaign_path(name) for name in RULESETS]


def show(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["show", str(path)]) == 0
    return capsys.readouterr().out


def long_named(tmp_path: Path) -> Path:
    """Eight factions and twenty places, every name far longer than a column."""
    path = tmp_path / "eight.yaml"
    assert main(["new", str(path), "--factions", "8", "--locations", "20", "--seed", "3",
                 "--quiet"]) == 0
    text = path.read_text(encoding="utf-8")
    for n, f in enumerate(load_campaign(path).factions.values()):
        text = text.replace(f"name: {f.name}\n",
                            f"name: The Most Serene and Ancient Fellowship Number {n}\n")
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_show_fits_100_columns_for_every_ruleset(path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    widths = [len(line) for line in show(path, capsys).splitlines()]
    assert max(widths) <= SHOW_WIDTH == 100


def test_show_fits_100_columns_with_eight_long_named_factions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = long_named(tmp_path)
    text = show(path, capsys)
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "The Most Serene and Ancient Fellowship Number 7" in text  # whole where it fits


def test_show_lists_every_neighbour_and_relation(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), path)
    text = show(path, capsys)
    state = load_campaign(path)
    flat = " ".join(text.split())  # lines wrapped to 100 columns read as one
    for loc in state.map.locations.values():
        near = ", ".join(state.map.locations[n].name for n in state.map.adjacent[loc.id])
        assert f"next to {near}." in flat, loc.id
    # the file lists the Veiled Hand neutral towards each of the three others
    # ("[iron-legion, veiled-hand, neutral]" ...); unlisted pairs are hostile
    assert "The Iron Legion (martial): neutral to The Veiled Hand; hostile to The Silver Guild, " \
           "The Cult of the Ashen Flame." in flat
    assert "The Veiled Hand (machiavellian): neutral to The Iron Legion, The Silver Guild, " \
           "The Cult of the Ashen Flame." in flat  # the sentence ends: hostile to none
    assert "The Silver Guild (rich): neutral to The Veiled Hand; hostile to The Iron Legion, " \
           "The Cult of the Ashen Flame." in flat


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
              ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    out = []
    for action in parser._actions:  # noqa: SLF001 - argparse keeps its subcommands here
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in action.choices.items():
                out.append(((*prefix, name), sub))
                out += _commands(sub, (*prefix, name))
    return out


COMMANDS = _commands(build_parser())


def test_the_parser_has_every_command() -> None:
    names = {" ".join(name) for name, _ in COMMANDS}
    assert {"run", "validate", "turn", "undo", "redo", "record", "show", "new", "report",
            "foundry import", "foundry export", "forecast", "odds"} <= names


@pytest.mark.parametrize(("name", "parser"), COMMANDS, ids=lambda x: " ".join(x)
                         if isinstance(x, tuple) else "")
def test_every_command_has_a_description(name: tuple[str, ...],
                                         parser: argparse.ArgumentParser) -> None:
    assert parser.description and len(parser.description) > 20, name
    for action in parser._actions:  # noqa: SLF001
        if action.option_strings or isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            continue
        assert action.help, (name, action.dest)  # every positional argument says what it is


def test_every_record_has_a_description_and_help_for_its_arguments() -> None:
    for info in RULESETS.values():
        for spec in info.gm_records().values():
            parser = spec.parser(f"factionsim record c.yaml {spec.name}")
            assert parser.description, (info.name, spec.name)
            assert all(arg.help for arg in spec.args), (info.name, spec.name)


def test_run_and_turn_summaries_name_the_factions(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), path)
    assert main(["run", str(path), "--turns", "1", "--out", str(tmp_path / "out")]) == 0
    run_out = capsys.readouterr().out
    assert main(["turn", str(path)]) == 0
    turn_out = capsys.readouterr().out
    for out in (run_out, turn_out):
        assert "The Iron Legion: HP" in out and "iron-legion:" not in out
        assert "goal Blood the Enemy" in out
    # the same faction lines in both
    assert [line for line in run_out.splitlines() if line.startswith("  ")] == \
        [line for line in turn_out.splitlines() if line.startswith("  ")]
