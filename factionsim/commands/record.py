"""``factionsim record CAMPAIGN WHAT ...``: what happened at the table between turns.

    factionsim record march.yaml damage infantry#3 2 --because "The party ambushed the column."
    factionsim record march.yaml treasure silver-guild +10
    factionsim record march.yaml note "The party burned the granary."

``WHAT`` is one of the records the campaign's ruleset takes (``RulesetInfo.records``; every
ruleset takes ``note``); ``factionsim record CAMPAIGN WHAT --help`` shows its arguments. The
change is made through the ruleset's rules, the campaign after it is validated as any campaign
file is, and it is committed like a turn (the campaign's lock, one atomic step of the history:
``undo`` steps back over it, ``redo`` forward again) and told in both chronicles.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from factionsim.commands.options import add_command, add_quiet_and_json, add_wait_argument
from factionsim.core.game import CampaignError


def _records_epilog() -> str:
    from factionsim.rulesets import RULESETS

    lines = ["records each ruleset takes (WHAT):"]
    for info in RULESETS.values():
        for spec in info.gm_records().values():
            usage = " ".join(f"[{a.name} X]" if a.name.startswith("-") else
                             f"[{a.name}]" if a.nargs == "?" else a.name for a in spec.args)
            lines.append(f"  {info.name:<12} {spec.name} {usage}: {spec.summary}")
    lines.append("every record also takes --because TEXT (your words, for the chronicles) and "
                 "--secret (not in the players' chronicle).")
    return "\n".join(lines)


def cmd_record(args: argparse.Namespace) -> int:
    from factionsim.commands.gm import changing

    path = Path(args.campaign)
    spec, values = _parse(path, args)
    with changing(path, args) as history:
        return _record(args, path, history, spec, values)


def _parse(path: Path, args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The ruleset's record ``args.what`` and its arguments (``--help`` stops here)."""
    from factionsim.core.campaign import load_campaign_data
    from factionsim.rulesets import RULESETS, get_ruleset

    if path.is_dir() or not path.is_file():
        what = "is a folder, not a campaign file" if path.is_dir() else "campaign file not found"
        raise CampaignError(f"{path}: {what}; give the path of an existing campaign file.")
    data, _ = load_campaign_data(path, list(RULESETS))
    info = get_ruleset(str(data.get("ruleset")))
    offered = info.gm_records()
    spec = offered.get(args.what)
    if spec is None:
        raise CampaignError(f"record {args.what!r}: the {info.name} ruleset records: "
                            f"{', '.join(offered)} ('factionsim record {path} WHAT --help' "
                            "explains each)")
    parser = spec.parser(f"factionsim record {path} {spec.name}")
    add_wait_argument(parser)  # the command's own options may come after the record's
    add_quiet_and_json(parser, "print the record as JSON")
    values = vars(parser.parse_args(args.rest))
    args.wait = values.pop("wait") or args.wait
    args.quiet = values.pop("quiet") or args.quiet
    args.json = values.pop("json") or args.json
    return spec, values


def _record(args: argparse.Namespace, path: Path, history: Any, spec: Any,
            values: dict[str, Any]) -> int:
    from factionsim.chronicle import Names
    from factionsim.commands.gm import _header, _titles, step_blocks
    from factionsim.core.campaign import load_campaign_data
    from factionsim.core.records import RecordError, gm_event
    from factionsim.core.roundtrip import updated_text
    from factionsim.rulesets import build_campaign, load_campaign

    text = history.read_campaign()  # once, under the lock
    state = load_campaign(path, text)
    before_data = load_campaign_data(path, text=text)[0]
    if "in_progress" in before_data:
        raise CampaignError(f"{path}: a turn is saved in progress (turn {state.current_turn}); "
                            "finish it with 'factionsim turn' (or 'factionsim undo' it) before "
                            "recording what happened between turns.")
    because, secret = values.pop("because"), values.pop("secret")
    names = Names.from_state(state)
    try:
        applied = spec.apply(state, values, names)
    except RecordError as exc:
        raise RecordError(f"{path}: record {spec.name}: {exc}; nothing was changed.") from None
    if "in_progress" in applied.data:
        raise CampaignError(f"record {spec.name}: the rules would ask a faction a question here "
                            "(an ability that answers this change); nothing was changed. Edit the "
                            "campaign file by hand for this one.")
    after = updated_text(text, applied.data)  # the file's comments and layout stay
    try:
        source = f"{path} as this record would leave it"
        build_campaign(*load_campaign_data(source, text=after), source)
    except CampaignError as exc:
        raise CampaignError(f"record {spec.name}: the campaign after this change would not be "
                            f"valid ({exc}); nothing was changed.") from None
    public = applied.public and not secret
    event = gm_event(state.current_turn, spec.name, _plain(values), applied.summary, public,
                     because.strip())
    events = [event, *applied.events]
    before_step = history.step_position(text)[0]
    step = (before_step[0], before_step[1] + 1)
    blocks = step_blocks(names, step, events, before_data)
    history.record_turn(text, before_step, after, step, events, blocks,
                        _titles(state.name or path.stem), _header(names))
    if args.json:
        print(json.dumps({"campaign": str(path), "record": spec.name, "turn": step[0],
                          "step": step[1], "summary": applied.summary, "public": public,
                          "events": [e.to_dict() for e in events]}, indent=2))
    elif not args.quiet:
        print(f"Recorded after turn {step[0]}: {applied.summary}")
        shown = "" if public else " (GM only)"
        print(f"Chronicle{shown}: {history.chronicles['gm']}; "
              f"'factionsim undo {path}' takes it back.")
    return 0


def _plain(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def add_parser(sub: Any) -> None:
    p = add_command(sub, "record", epilog=_records_epilog(),
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("campaign", help="campaign file (YAML)")
    p.add_argument("what", metavar="WHAT", help="what to record (see below)")
    p.add_argument("rest", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="the record's arguments, --because TEXT, --secret")
    add_wait_argument(p)
    add_quiet_and_json(p, "print the record as JSON")
    p.set_defaults(func=cmd_record)
