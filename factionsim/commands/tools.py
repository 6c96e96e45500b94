"""``factionsim new | schema | report``: start a campaign, help editors, show the story so far.

    factionsim new FILE [--factions 4 --locations 10 --seed S]   a playable campaign (6.7.0)
    factionsim schema [-o FILE]                                   JSON Schema of campaign files
    factionsim report CAMPAIGN [-o report.html] [--players]      one self-contained HTML file
    factionsim sheet CAMPAIGN [--faction ID] [--players] [-o DIR] printable faction sheets
    factionsim events CAMPAIGN [--players] [-o FILE]              the recorded events, JSON lines
    factionsim assets [CAMPAIGN]                                  the WWN asset table

``--players`` makes each of them from what the players may know
(:mod:`factionsim.chronicle.views`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from factionsim.commands.options import add_command, add_quiet_and_json, seed, whole_number
from factionsim.core.fields import MAX_TURNS
from factionsim.core.game import CampaignError
from factionsim.core.ruleset import DEFAULT_RULESET


def cmd_new(args: argparse.Namespace) -> int:
    from factionsim.core.dice import fresh_seed
    from factionsim.core.files import write_atomic
    from factionsim.core.lock import campaign_lock
    from factionsim.rules.wwn.generate import campaign_text, generate_campaign
    from factionsim.rules.wwn.goals import goal_name
    from factionsim.rulesets import load_campaign

    path = Path(args.file)
    if path.exists() and not args.force:
        raise CampaignError(f"{path}: already exists; pick another name or add --force to "
                            "overwrite it.")
    if path.is_dir():
        raise CampaignError(f"{path}: is a folder; give the name of the campaign file to write.")
    seed = args.seed if args.seed is not None else fresh_seed()
    try:
        data = generate_campaign(args.factions, args.locations, seed, agent=args.agent,
                                 name=args.name)
    except ValueError as exc:
        raise CampaignError(f"factionsim new: {exc}.") from None
    if args.max_turns:
        data = {**data, "max_turns": args.max_turns}
    text = campaign_text(data)
    # checked before it is written: --name and --agent come from the command line
    state = load_campaign(f"{path} (not written)", text)
    path.parent.mkdir(parents=True, exist_ok=True)
    with campaign_lock(path):  # --force: another command may be writing it
        write_atomic(path, text)
    if args.json:
        print(json.dumps({"file": str(path), "name": state.name, "seed": seed,
                          "factions": [f.name for f in state.factions.values()],
                          "locations": len(state.map.locations)}, indent=2))
    elif not args.quiet:
        print(f"Wrote {path}: '{state.name}' (seed {seed}), {len(state.factions)} factions on "
              f"{len(state.map.locations)} locations.")
        for f in state.factions.values():
            print(f"  {f.name} at {state.map.locations[f.headquarters].name}: F{f.force} "
                  f"C{f.cunning} W{f.wealth}, magic {f.magic}, {len(state.assets_of(f.id))} assets "
                  f"with its base, goal {goal_name(state, f.goal.id) if f.goal else 'none'}")
        print(f"Next: factionsim show {path}; factionsim turn {path}")
    return 0


def cmd_assets(args: argparse.Namespace) -> int:
    """The WWN asset table as in docs/assets.md; with a campaign, its homebrew types too."""
    from factionsim.core.text import terminal_safe
    from factionsim.rules.wwn.docs import render

    if args.campaign is None:
        sys.stdout.write(render())
        return 0
    from factionsim.rulesets import load_campaign

    state = load_campaign(args.campaign)
    if state.ruleset != "wwn":
        raise CampaignError(f"{args.campaign}: a {state.ruleset} campaign; asset tables are for "
                            "WWN campaigns (ruleset: wwn)")
    sys.stdout.write(terminal_safe(render(state.asset_types, state.name or args.campaign,
                                          state.tag_types, state.goal_types)))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from factionsim.core.files import write_atomic
    from factionsim.rulesets import RULESETS, get_ruleset

    info = get_ruleset(args.ruleset)
    if info.schema is None:
        with_schema = [name for name, r in RULESETS.items() if r.schema is not None]
        raise CampaignError(f"no JSON Schema for the {info.name} ruleset yet; rulesets with one: "
                            f"{', '.join(with_schema)}")
    usages = [spec.usage for spec in info.agents]
    text = json.dumps(info.schema(usages), indent=2) + "\n"
    if args.output and args.output != "-":
        write_atomic(Path(args.output), text)
        if not args.quiet:
            print(f"Wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from factionsim.chronicle.record import CampaignRecord
    from factionsim.chronicle.report import build_report
    from factionsim.core.files import same_file, write_atomic

    path = Path(args.campaign)
    _readable(path)  # a half-committed turn is finished first; a broken campaign refused
    view = "players" if args.players else "gm"
    out = Path(args.output or path.with_name(path.stem + (".players" if args.players else "")
                                             + ".report.html"))
    if same_file(out, path):
        raise CampaignError(f"-o {out}: the report would be written over the campaign file "
                            f"{path}; give another file name.")
    record = CampaignRecord(path, view)
    text = build_report(path, view, record)
    write_atomic(out, text)
    note = record.missing_history()
    if args.json:
        print(json.dumps({"campaign": str(path), "report": str(out), "bytes": len(text.encode()),
                          "view": view, "note": note}, indent=2))
    elif not args.quiet:
        print(f"Wrote {out} ({len(text.encode()) // 1024} KiB, {view} view); open it in a browser.")
        if note:
            print(f"note: {note}", file=sys.stderr)
    return 0


def _readable(path: Path) -> None:
    """Finish a half-committed turn and refuse a broken campaign, as ``report`` does."""
    from factionsim.commands.gm import settle
    from factionsim.rulesets import load_campaign

    settle(path)
    load_campaign(path)


def cmd_sheet(args: argparse.Namespace) -> int:
    from factionsim.chronicle.record import CampaignRecord
    from factionsim.chronicle.sheet import faction_sheets, sheet_html, sheet_markdown
    from factionsim.core.files import write_atomic

    path = Path(args.campaign)
    _readable(path)
    view = "players" if args.players else "gm"
    rec = CampaignRecord(path, view)
    known = list(rec.names.factions)
    for fid in args.faction or []:
        if fid not in known:
            raise CampaignError(f"--faction {fid!r}: no such faction in {path}; allowed: "
                                + ", ".join(known) + ".")
    out = Path(args.output or path.with_name(path.stem + (".players" if args.players else "")
                                             + ".sheets"))
    if out.exists() and not out.is_dir():
        raise CampaignError(f"-o {out}: is a file; give a folder for the sheets.")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for s in faction_sheets(rec, args.faction or None, args.recent):
        for ext, text in (("html", sheet_html(s)), ("md", sheet_markdown(s))):
            target = out / f"{s.faction}.{ext}"
            write_atomic(target, text)
            written.append(str(target))
    if args.json:
        print(json.dumps({"campaign": str(path), "view": view, "files": written}, indent=2))
    elif not args.quiet:
        print(f"Wrote {len(written) // 2} faction sheet(s) ({view} view) to {out}/ "
              "(NAME.html to print, NAME.md to edit).")
    return 0


def cmd_events(args: argparse.Namespace) -> int:
    from factionsim.chronicle.record import CampaignRecord
    from factionsim.core.files import same_file, write_atomic
    from factionsim.core.history import event_lines

    path = Path(args.campaign)
    _readable(path)
    rec = CampaignRecord(path, "players" if args.players else "gm")
    text = "".join(event_lines(e for t in rec.played_turns() for e in rec.events(t)))
    note = rec.missing_history()
    if note and not args.quiet:
        print(f"note: {note}", file=sys.stderr)
    if args.output and args.output != "-":
        out = Path(args.output)
        if same_file(out, path):
            raise CampaignError(f"-o {out}: would be written over the campaign file {path}; "
                                "give another file name.")
        write_atomic(out, text)
        if not args.quiet:
            print(f"Wrote {out} ({text.count(chr(10))} events, {rec.audience} view).",
                  file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def add_parser(sub: Any) -> None:
    new = add_command(sub, "new")
    new.add_argument("file", help="campaign file to write (YAML)")
    new.add_argument("--factions", type=int, default=4, help="how many factions, 2-8 (default 4)")
    new.add_argument("--locations", type=int, default=None,
                     help="how many locations (default: 10 for up to 4 factions, 3 more for each "
                          "faction beyond, so that the factions of a long campaign still have "
                          "ground to expand into)")
    new.add_argument("--seed", type=seed, default=None, help="seed (default: a random one, printed)")
    new.add_argument("--agent", default="heuristic",
                     help="who plays every faction (default heuristic; manual for the GM)")
    new.add_argument("--name", default=None, help="the campaign's title (default: generated)")
    new.add_argument("--max-turns", type=whole_number(1, MAX_TURNS), default=None,
                     help="end the game after N turns")
    new.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    add_quiet_and_json(new, "print a summary as JSON")
    new.set_defaults(func=cmd_new)

    schema = add_command(sub, "schema")
    schema.add_argument("--ruleset", default=DEFAULT_RULESET,
                        help=f"the ruleset (default {DEFAULT_RULESET})")
    schema.add_argument("-o", "--output", help="file to write (default: standard output)")
    schema.add_argument("--quiet", action="store_true", help="no message on standard error")
    schema.set_defaults(func=cmd_schema)

    assets = add_command(sub, "assets")
    assets.add_argument("campaign", nargs="?", default=None, help="a WWN campaign file (YAML)")
    assets.set_defaults(func=cmd_assets)

    report = add_command(sub, "report")
    report.add_argument("campaign", help="campaign file (YAML) played with 'factionsim turn'")
    report.add_argument("-o", "--output", help="HTML file (default STEM.report.html beside it)")
    report.add_argument("--players", action="store_true",
                        help="the players' view: only what the rules make public (no Stealthed "
                        "assets, Treasure, XP, goals or dice), rumours for a chronicle")
    add_quiet_and_json(report)
    report.set_defaults(func=cmd_report)

    sheet = add_command(sub, "sheet")
    sheet.add_argument("campaign", help="campaign file (YAML)")
    sheet.add_argument("--faction", action="append", metavar="ID",
                       help="only this faction (repeatable; default: every faction)")
    sheet.add_argument("--players", action="store_true",
                       help="the players' sheets: only what the rules make public")
    sheet.add_argument("--recent", type=int, default=3,
                       help="how many of the last turns the history tells (default 3)")
    sheet.add_argument("-o", "--output", help="folder (default STEM.sheets/ beside the campaign)")
    add_quiet_and_json(sheet, "print the files written as JSON")
    sheet.set_defaults(func=cmd_sheet)

    events = add_command(sub, "events")
    events.add_argument("campaign", help="campaign file (YAML) played with 'factionsim turn'")
    events.add_argument("--players", action="store_true", help="the players' events")
    events.add_argument("-o", "--output", help="file to write (default: standard output)")
    events.add_argument("--quiet", action="store_true", help="no message on standard error")
    events.set_defaults(func=cmd_events)
