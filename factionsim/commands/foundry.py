"""``factionsim foundry import | export``: factions to and from Foundry VTT (WWN system).

    factionsim foundry import ACTOR.json... --into CAMPAIGN [--map FILE] [--agent NAME]
                              [--hq NAME=PLACE] [--asset NAME=ASSET] [--homebrew]
                              [--name TITLE] [--seed S]
    factionsim foundry export CAMPAIGN --out DIR [--faction ID] [--players]

See ``docs/foundry.md`` and :mod:`factionsim.foundry`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from factionsim.commands.options import add_command, add_quiet_and_json, add_wait_argument, seed


def _pairs(values: list[str] | None, option: str) -> dict[str, str]:
    from factionsim.foundry.jsonio import FoundryError

    out: dict[str, str] = {}
    for value in values or []:
        name, sep, target = value.partition("=")
        if not sep or not name.strip() or not target.strip():
            raise FoundryError(f"{option} {value!r}: write it as NAME=VALUE, e.g. "
                               f"{option} 'The Gilded Concord=Varenna'.")
        out[name.strip()] = target.strip()
    return out


def cmd_import(args: argparse.Namespace) -> int:
    from factionsim.commands.gm import changing
    from factionsim.foundry.importer import ImportOptions, import_actors

    options = ImportOptions(agent=args.agent, headquarters=_pairs(args.hq, "--hq"),
                            asset_names=_pairs(args.asset, "--asset"), homebrew=args.homebrew,
                            map_file=Path(args.map) if args.map else None, name=args.name,
                            seed=args.seed)
    into = Path(args.into)
    with changing(into, args, create=True):  # one writer at a time, as turn/undo/redo
        result = import_actors([Path(p) for p in args.actors], into, options)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    elif not args.quiet:
        verb = "Created" if result.created else "Updated"
        print(f"{verb} {result.campaign}: added {len(result.added)} faction(s)"
              + (f" ({', '.join(result.added)})" if result.added else "")
              + f", updated {len(result.updated)}"
              + (f" ({', '.join(result.updated)})" if result.updated else "") + ".")
        if result.new_locations:
            print(f"New locations (not connected to anything yet; add 'neighbors' in "
                  f"{result.campaign}): {', '.join(result.new_locations)}")
        for warning in result.warnings:
            print(f"note: {warning}")
        print(f"Next: factionsim validate {result.campaign}; factionsim turn {result.campaign}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from factionsim.commands.gm import settle
    from factionsim.foundry.exporter import export_campaign

    settle(Path(args.campaign))  # a turn a killed command left half-committed is finished first
    result = export_campaign(Path(args.campaign), Path(args.out), args.faction,
                             "players" if args.players else "gm")
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    elif not args.quiet:
        print(f"Wrote {len(result.files)} actor file(s) to {args.out}; in Foundry, right-click "
              "each faction actor > Import Data.")
        for fid, path in result.files.items():
            print(f"  {fid}: {path}")
        for note in result.notes:
            print(f"note: {note}")
    return 0


def add_parser(sub: Any) -> None:
    foundry = add_command(sub, "foundry")
    actions = foundry.add_subparsers(dest="foundry_command", required=True, metavar="ACTION")
    imp = add_command(actions, "foundry import")
    imp.add_argument("actors", nargs="+", metavar="ACTOR.json", help="Foundry actor file(s)")
    imp.add_argument("--into", required=True, metavar="CAMPAIGN", help="campaign file (YAML)")
    imp.add_argument("--map", metavar="FILE", help="a new campaign's locations: a YAML file with "
                     "'locations' as in a campaign file (Foundry places must match them)")
    imp.add_argument("--agent", default="heuristic",
                     help="who plays new factions (default heuristic)")
    imp.add_argument("--hq", action="append", metavar="NAME=PLACE",
                     help="the headquarters of the actor NAME when the sheet leaves it unclear")
    imp.add_argument("--asset", action="append", metavar="NAME=ASSET",
                     help="play items called NAME as the book asset ASSET (name or id)")
    imp.add_argument("--homebrew", action="store_true",
                     help="an asset item that is no book asset (nor one of the campaign's "
                     "asset_types) becomes a new asset_types entry read from its sheet")
    imp.add_argument("--name", help="a new campaign's title (default: the file name)")
    imp.add_argument("--seed", type=seed, help="a new campaign's seed")
    add_wait_argument(imp)
    add_quiet_and_json(imp)
    imp.set_defaults(func=cmd_import)
    exp = add_command(actions, "foundry export")
    exp.add_argument("campaign", help="campaign file (YAML)")
    exp.add_argument("--out", required=True, metavar="DIR", help="folder for the actor files")
    exp.add_argument("--faction", action="append", metavar="ID", help="only this faction "
                     "(repeat for more; default: all)")
    exp.add_argument("--players", action="store_true",
                     help="log entries in the players' view (no Stealthed doings)")
    add_quiet_and_json(exp)
    exp.set_defaults(func=cmd_export)
