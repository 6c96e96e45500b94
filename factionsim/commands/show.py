"""``factionsim show CAMPAIGN [--players]``: the campaign now, as its ruleset presents it (WWN:
the factions, their goals and Treasure, relations, the map, and every asset by location), in 100
columns; with ``--players``, what the players may know of it (:mod:`factionsim.chronicle.views`).

>>> print(table(["a", "bb"], [["x", 1], ["yyy", 22]]))
a    bb
---  --
x     1
yyy  22
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from factionsim.commands.options import add_command
from factionsim.core.presentation import text_table as table

__all__ = ["cmd_show", "table"]


def cmd_show(args: argparse.Namespace) -> int:
    from factionsim.rulesets import load_campaign, ruleset_of

    state = load_campaign(Path(args.campaign))
    present = ruleset_of(state).present
    if args.players:  # what the players may know, from the one notion of it
        from factionsim.chronicle.views import visible_frame

        frame = visible_frame(state.to_dict(), "players")
        if args.json:
            print(json.dumps(present.frame_data(frame), indent=2))
        else:
            title = f"{state.name or 'Campaign'}: after turn {state.turn}, what the players know"
            print(present.frame_text(frame, title), end="")
        return 0
    if args.json:
        print(json.dumps(present.show_data(state), indent=2))
    else:
        print(present.show_text(state), end="")
    return 0


def add_parser(sub: Any) -> None:
    p = add_command(sub, "show")
    p.add_argument("campaign", help="campaign file (YAML)")
    p.add_argument("--players", action="store_true",
                   help="what the players may know: no Treasure, XP, goals or Stealthed assets")
    p.add_argument("--json", action="store_true", help="print the same as JSON")
    p.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_show)
