"""Who may see what (issue 23): every output made for the players leaves out what the rules keep
secret.

For each ruleset that hides something, a campaign is played with ``factionsim turn`` and every
output is made in the players' view: the report (table, charts, map, timeline, chronicle), the
players' chronicle (``STEM.players.md``), ``show --players`` (text and JSON), ``events
--players``, the faction sheets (HTML and markdown) and, for WWN, the Foundry export. None of
them may hold a secret of the rules: for WWN (6.1.0/6.3.0 and our reading in
``docs/rules-wwn.md``, "What the players see") no Stealthed asset (name, count, place), no
Treasure, no XP, no goal or its progress, no initiative rolls, no dice; for the other rulesets
their reserves (Plot Points, advances, faction dice, engagement pools), pending plans and dice.

Secret numbers are made recognisable: the WWN factions start with Treasure and XP no other
number of the campaign comes near (40000+, 9000+), so any of their values over the history
found in a players' output is a leak.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.core.history import History
from factionsim.rules.wwn.goals import GOALS

TURNS = 8
#: a roll as the GM's chronicle writes it: ``1d10 [7] +4 = 11``, ``1d6 [3]``, ``dice [1, 5, 3]``
ROLL = re.compile(r"\d*d\d+ \[\d|dice \[\d|= \d+ vs\b")
#: initiative rolls (the order of play is public, not what was rolled for it)
INITIATIVE_ROLLS = re.compile(r"\(rolls? \d|Initiative: [^\n<]*\d")


def _outputs(path: Path, tmp: Path, capsys: pytest.CaptureFixture[str],
             foundry: bool = False) -> dict[str, str]:
    """Every output of the campaign ``path`` in the players' view: name -> text."""
    out: dict[str, str] = {}
    report = tmp / "players.html"
    assert main(["report", str(path), "--players", "-o", str(report), "--quiet"]) == 0
    out["report"] = report.read_text(encoding="utf-8")
    out["chronicle"] = path.with_name(path.stem + ".players.md").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["show", str(path), "--players"]) == 0
    out["show"] = capsys.readouterr().out
    assert main(["show", str(path), "--players", "--json"]) == 0
    out["show.json"] = capsys.readouterr().out
    events = tmp / "players.jsonl"
    assert main(["events", str(path), "--players", "-o", str(events), "--quiet"]) == 0
    out["events"] = events.read_text(encoding="utf-8")
    sheets = tmp / "sheets"
    assert main(["sheet", str(path), "--players", "-o", str(sheets), "--quiet"]) == 0
    for p in sorted(sheets.iterdir()):
        out[f"sheet {p.name}"] = p.read_text(encoding="utf-8")
    if foundry:
        assert main(["foundry", "export", str(path), "--out", str(tmp / "fvtt"), "--players",
                     "--quiet"]) == 0
        for p in sorted((tmp / "fvtt").glob("*.json")):
            actor = json.loads(p.read_text(encoding="utf-8"))
            # the items' descriptions are the rules' text of the asset types (public)
            # (and those of its tags: "Assets costing 5 Treasure or less...")
            system = {k: v for k, v in actor["system"].items() if k != "tags"}
            out[f"foundry {p.name}"] = json.dumps(system)
            out[f"foundry items {p.name}"] = json.dumps(
                [{k: v for k, v in i.items() if k != "system"} for i in actor["items"]])
    return out


def _keys(value: Any) -> Iterator[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def _json_keys(text: str) -> set[str]:
    return {k for line in text.splitlines() if line.strip() for k in _keys(json.loads(line))} \
        if not text.lstrip().startswith("{\n") else set(_keys(json.loads(text)))


def _found(pattern: str | re.Pattern[str], outputs: dict[str, str]) -> list[str]:
    """Where ``pattern`` occurs in the outputs: ``name: ...context...``."""
    rx = re.compile(pattern) if isinstance(pattern, str) else pattern
    return [f"{name}: ...{text[max(0, m.start() - 60):m.end() + 30]}..."
            for name, text in outputs.items() for m in [rx.search(text)] if m]


# ---------------------------------------------------------------------------------------- WWN
@pytest.fixture(scope="module")
def wwn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated campaign (heuristic agents, some assets Stealthed, secret goals) whose
    Treasure and XP are recognisable, played 8 turns. Every faction's first non-Base asset starts
    Stealthed, so the secrets do not hang on whether the agents choose to hide."""
    path = tmp_path_factory.mktemp("wwn") / "march.yaml"
    assert main(["new", str(path), "--seed", "8", "--quiet"]) == 0
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for i, f in enumerate(data["factions"]):
        f["treasure"] = 40000 + 1000 * i
        f["xp"] = 9000 + 100 * i
        next(a for a in f["assets"] if a["type"] != "base-of-influence")["stealth"] = True
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert main(["turn", str(path), "--turns", str(TURNS), "--quiet"]) == 0
    return path


@pytest.fixture(scope="module")
def wwn_outputs(wwn: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    mp = pytest.MonkeyPatch()
    tmp = tmp_path_factory.mktemp("wwn-out")

    class _Capture:  # capsys is function-scoped: capture stdout by hand for the module
        def __init__(self) -> None:
            import io
            import sys
            self.sys, self.buf = sys, io.StringIO()
            mp.setattr(sys, "stdout", self.buf)

        def readouterr(self) -> Any:
            text = self.buf.getvalue()
            self.buf.seek(0)
            self.buf.truncate()
            return type("R", (), {"out": text})

    try:
        return _outputs(wwn, tmp, _Capture(), foundry=True)  # type: ignore[arg-type]
    finally:
        mp.undo()


def _gm_frames(path: Path) -> list[dict[str, Any]]:
    history = History(path)
    return [history.snapshot_data(t) for t in history.turns()]


def test_the_wwn_campaign_has_secrets_to_keep(wwn: Path) -> None:
    """The premise: Stealthed assets, goals, and events that use them were recorded."""
    frames = _gm_frames(wwn)
    stealthed = [a for d in frames for f in d["factions"] for a in f.get("assets") or []
                 if a.get("stealth")]
    assert len(stealthed) >= 5
    assert all(f.get("goal") for f in frames[-1]["factions"] if f.get("alive", True))
    gm = wwn.with_name("march.chronicle.md").read_text(encoding="utf-8")
    assert "Treasure" in gm and ROLL.search(gm) and "goal" in gm


def test_no_wwn_output_for_the_players_tells_treasure_xp_goals_or_dice(
        wwn: Path, wwn_outputs: dict[str, str]) -> None:
    """6.1.0 keeps each faction's Treasure, XP and goal its own; the dice are the GM's."""
    numbers = {n for d in _gm_frames(wwn) for f in d["factions"]
               for n in (f.get("treasure"), f.get("xp")) if isinstance(n, int)}
    assert min(numbers) >= 1000  # the canaries held over the whole history
    leaks = _found(r"(?<!\d)(" + "|".join(map(str, sorted(numbers))) + r")(?!\d)", wwn_outputs)
    leaks += _found(r"\b(Treasure|XP|facCreds|xp_earned|goals?_?\w*)\b", {
        k: v for k, v in wwn_outputs.items()})
    leaks += _found("|".join(re.escape(g) for g in GOALS.values()), wwn_outputs)
    leaks += _found(r"\(\d+/\d+\)", wwn_outputs)  # a goal's progress, "(3/7)"
    leaks += _found(ROLL, wwn_outputs) + _found(INITIATIVE_ROLLS, wwn_outputs)
    assert not leaks, "\n".join(leaks)


def test_no_wwn_data_for_the_players_has_a_secret_field(wwn_outputs: dict[str, str]) -> None:
    """The players' JSON (``show --players --json``, ``events --players``, the Foundry actors)
    has no field for a secret at any depth."""
    # (a rumour's "reason" is why a hidden asset came to light, not an agent's reason)
    secret = {"treasure", "xp", "xp_earned", "goal", "goal_progress", "stealth", "dice", "rolls",
              "roll", "cost", "facCreds", "factionGoal", "factionGoalDesc", "agent"}
    for name in ("show.json", "events"):
        assert not _json_keys(wwn_outputs[name]) & secret, (name, _json_keys(wwn_outputs[name])
                                                             & secret)
    kinds = {json.loads(line)["kind"] for line in wwn_outputs["events"].splitlines()}
    assert not kinds & {"hide", "decision", "gm-veto", "income", "goal-chosen", "goal-complete",
                        "goal-failed", "goal-progress", "action", "check"}
    for name, text in wwn_outputs.items():
        if name.startswith("foundry ") and not name.startswith("foundry items"):
            assert not set(json.loads(text)) & secret, name


def test_no_stealthed_asset_reaches_the_players(wwn: Path, wwn_outputs: dict[str, str]) -> None:
    """6.3.0: a Stealthed asset "cannot be detected or attacked"; the players hear of one only
    when it comes out of Stealth (as a rumour). Checked by id in every turn's public events and
    in ``show --players --json``, by count in the sheets, and by name where the faction shows no
    asset of its type openly."""
    history = History(wwn)
    events = [json.loads(line) for line in wwn_outputs["events"].splitlines()]
    for t in range(1, TURNS + 1):
        before, after = history.snapshot_data(t - 1), history.snapshot_data(t)
        came_out = {e.data["asset"] for e in history.events(t)
                    if e.kind in ("revealed", "quality-lost")}

        def hidden(d: dict[str, Any]) -> set[str]:  # (the campaign as first written has no ids)
            return {f"{a['type']}#{a['id']}" for f in d["factions"] for a in f.get("assets") or []
                    if a.get("stealth") and "id" in a}

        secret = (hidden(before) | hidden(after)) - came_out
        told = json.dumps([e for e in events if e["turn"] == t])
        assert not [a for a in secret if f'"{a}"' in told], t
    now = history.snapshot_data(TURNS)
    show = json.loads(wwn_outputs["show.json"])
    hidden_now = {a["type"]: f for f in now["factions"] for a in f["assets"] if a.get("stealth")}
    assert hidden_now
    for f in now["factions"]:
        mine = [a for a in f["assets"] if not a.get("stealth")]
        sheet = wwn_outputs[f"sheet {f['id']}.md"]
        assets = sheet.split("## Assets", 1)[1].split("## ", 1)[0]
        assert assets.count("\n| ") - 1 == len(mine), f["id"]  # the header row, then one each
        shown_types = {a["type"] for a in mine}
        for a in f["assets"]:
            if a.get("stealth") and a["type"] not in shown_types:
                name = a["type"].replace("-", " ").title()
                assert name.lower() not in assets.lower(), (f["id"], a["type"])
    for p in show["places"]:  # the map's tips: who is seen at each place
        for tip in p["seen"]:
            assert "Stealth" not in tip


def test_players_report_charts_count_only_what_the_players_see(wwn: Path,
                                                               wwn_outputs: dict[str, str]) -> None:
    """The assets chart of the players' report counts the assets they can see (9 on a chart
    and 2 on the map told them seven were hidden); there is no Treasure chart."""
    report = wwn_outputs["report"]
    assert "Faction HP" in report and "Treasure" not in report
    chart = report.split('aria-label="Assets', 1)[1].split("</svg>", 1)[0]
    now = History(wwn).snapshot_data(TURNS)
    for f in now["factions"]:
        if not f.get("alive", True):
            continue
        shown = sum(a["type"] != "base-of-influence" and not a.get("stealth") for a in f["assets"])
        everything = sum(a["type"] != "base-of-influence" for a in f["assets"])
        title = re.escape(f["name"]) + f", turn {TURNS}: " + r"(\d+)</title>"
        m = re.search(title, chart)
        assert m is not None, f["id"]
        assert int(m.group(1)) == shown and (shown == everything or int(m.group(1)) != everything)


# ------------------------------------------------------------------- the other rulesets
#: ruleset -> (bundled campaign, secret JSON fields, secret words in the text)
OTHERS = {
    "houses": ("houses", {"plot_points", "advances", "actor_roll", "opposition", "margin",
                          "effect", "rolls", "reason", "agent"},
               r"Plot Point|\bPP\b|\badv\b|advances? left|Spends \d+ advance|-> \d+\+\d+|\d+\+\d+, effect"),
    "engagements": ("engagements", {"faction_dice", "engagement", "pool", "dice", "successes",
                                    "agent", "cost"},
                    r"faction di(ce|e)|engagement di(ce|e)|\bpool\b|successes"),
    "conflict": ("conflict", {"plan", "dice", "new_dice", "tn", "parts", "rerolls", "reason",
                              "agent"},
                 r"\bplans?\b|under TN|reroll"),
}


@pytest.mark.parametrize("ruleset", sorted(OTHERS))
def test_no_output_for_the_players_tells_another_rulesets_secrets(
        ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Houses keep their Plot Points and advances, Anima Prime factions their faction dice and
    engagement pools, conflict sides their plans; the dice are the GM's (see each ruleset's
    page, "What the players see")."""
    name, fields, words = OTHERS[ruleset]
    path = tmp_path / "c.yaml"
    shutil.copy(default_campaign_path(name), path)
    assert main(["turn", str(path), "--turns", "3", "--quiet"]) == 0
    gm = path.with_name("c.chronicle.md").read_text(encoding="utf-8")
    assert re.search(words, gm) or ROLL.search(gm)  # the premise: the GM's text tells them
    outputs = _outputs(path, tmp_path, capsys)
    for key in ("show.json", "events"):
        assert not _json_keys(outputs[key]) & fields, (key, _json_keys(outputs[key]) & fields)
    leaks = _found(words, outputs) + _found(ROLL, outputs) + _found(INITIATIVE_ROLLS, outputs)
    assert not leaks, "\n".join(leaks)
    # every public event is told in the ruleset's prose, not as raw data ("Test (action: ...; ")
    raw = re.compile(r"\(\w[\w ]*: [^()]*;")
    assert not _found(raw, {"chronicle": outputs["chronicle"]}), _found(raw, outputs)


def test_a_homebrew_asset_is_named_on_the_players_sheets_and_map(tmp_path: Path) -> None:
    """A campaign's own asset types (``asset_types:``) are rules, public like the book's: the
    players' sheets and map name them (not their ids) and still leave Stealthed ones out."""
    path = tmp_path / "river.yaml"
    shutil.copy(Path(__file__).parent / "data" / "wwn_homebrew.yaml", path)
    assert main(["turn", str(path), "--turns", "2", "--quiet"]) == 0
    sheets = tmp_path / "sheets"
    assert main(["sheet", str(path), "--players", "-o", str(sheets), "--quiet"]) == 0
    now = History(path).snapshot_data(2)
    names = {t["id"]: t["name"] for t in now["asset_types"]}
    for f in now["factions"]:
        assets = (sheets / f"{f['id']}.md").read_text(encoding="utf-8").split("## Assets")[1]
        assets = assets.split("## ", 1)[0]
        for a in f["assets"]:
            if a["type"] in names and not a.get("stealth"):
                assert names[a["type"]] in assets and f"| {a['type']} |" not in assets
    report = tmp_path / "r.html"
    assert main(["report", str(path), "--players", "-o", str(report), "--quiet"]) == 0
    shown = [names[a["type"]] for f in now["factions"] for a in f["assets"]
             if a["type"] in names and not a.get("stealth")]
    assert shown and all(name in report.read_text(encoding="utf-8") for name in shown)


@pytest.mark.parametrize("ruleset", sorted(OTHERS))
def test_the_players_sheets_of_another_ruleset_tell_its_recent_history(
        ruleset: str, tmp_path: Path) -> None:
    """A ruleset without rumours tells the players the events they may know (its players'
    chronicle does); their faction sheets said "Nothing recorded yet." after any number of
    turns, reading rumours that ruleset has none of. They now list those events (no dice),
    each sheet the lines of its own faction, as the GM's sheets do with the dice."""
    name = OTHERS[ruleset][0]
    path = tmp_path / "c.yaml"
    shutil.copy(default_campaign_path(name), path)
    assert main(["turn", str(path), "--turns", "2", "--quiet"]) == 0
    players, gm = tmp_path / "players", tmp_path / "gm"
    assert main(["sheet", str(path), "--players", "-o", str(players), "--quiet"]) == 0
    assert main(["sheet", str(path), "-o", str(gm), "--quiet"]) == 0
    public = path.with_name("c.players.md").read_text(encoding="utf-8")
    told = 0
    for sheet in sorted(players.glob("*.md")):
        history = sheet.read_text(encoding="utf-8").split("## Recent history", 1)[1]
        lines = [line[2:] for line in history.splitlines() if line.startswith("- ")]
        assert not ROLL.search(history)  # the dice stay the GM's
        gm_history = (gm / sheet.name).read_text(encoding="utf-8").split("## Recent history")[1]
        assert len(lines) <= gm_history.count("\n- ")  # no line the GM's sheet lacks
        for line in lines:  # each is told in the players' chronicle too
            assert line.split(") ", 1)[-1].rstrip(".")[:40] in public, line
        told += len(lines)
    assert told > 0
