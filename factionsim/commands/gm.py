"""``factionsim turn | undo | redo``: a campaign file that advances in place, with its history.

    factionsim turn CAMPAIGN [--turns N] [--interactive]   play the next turn(s) in place
    factionsim undo CAMPAIGN [--turns N]                   step back (the file and chronicles)
    factionsim redo CAMPAIGN [--turns N]                   step forward again, same dice

Beside ``march.yaml`` live ``march.yaml.history/`` (snapshots and events of every turn, see
:mod:`factionsim.core.history`), ``march.chronicle.md`` (the GM's chronicle) and
``march.players.md`` (the players' view: nothing Stealthed, no hidden reasons).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from factionsim.core.game import CampaignError
from factionsim.models.trust import add_trust_argument


def _titles(name: str) -> dict[str, str]:
    return {"gm": f"{name}: the GM's chronicle", "players": f"{name}: what the players know"}


def write_turn_chronicles(campaign: Path, name: str, names: Any, turn: int, events: list[Any],
                          hidden: set[str]) -> None:
    """Append turn ``turn``'s block to both chronicle files (after trimming any later block)."""
    from factionsim.chronicle.views import chronicle_paths, render_turn
    from factionsim.core.history import append_chronicle, trim_chronicle

    titles = _titles(name)
    for view, path in chronicle_paths(campaign).items():
        trim_chronicle(path, turn - 1)
        block = render_turn(events, names, view, hidden) if events else \
            f"## Turn {turn}\n\n(no events recorded)\n"
        append_chronicle(path, titles[view], turn, block, getattr(names, "notes", ()))


def _summary(state: Any) -> dict[str, Any]:
    from factionsim.rulesets import ruleset_of

    return ruleset_of(state).present.faction_status(state)


def _print_summary(state: Any) -> None:
    from factionsim.rulesets import ruleset_of

    present = ruleset_of(state).present
    for fid in state.factions:
        print(f"  {present.faction_line(state, fid)}")


def cmd_turn(args: argparse.Namespace) -> int:
    from factionsim.chronicle import Names
    from factionsim.chronicle.views import chronicle_paths, stealthed_assets
    from factionsim.core.campaign import dump_campaign_text, write_atomic
    from factionsim.core.dice import fresh_seed
    from factionsim.core.history import History
    from factionsim.rulesets import load_campaign
    from factionsim.runner import agents_from_campaign, finish_turn, play

    path = Path(args.campaign)
    state = load_campaign(path)
    text = path.read_text(encoding="utf-8")
    if state.seed is None:
        state.seed = fresh_seed()
    agents = agents_from_campaign(state, source=path)
    prompting = args.interactive or any(f.agent == "manual" and f.alive
                                        for f in state.factions.values())
    if args.interactive:
        from factionsim.agents.manual import GmReview, ManualAgent

        agents = {fid: a if isinstance(a, ManualAgent) else GmReview(a)
                  for fid, a in agents.items()}
    history = History(path)
    names = Names.from_state(state)
    bar = None
    if not args.quiet and not args.json and not prompting and args.turns > 1:
        from tqdm import tqdm

        bar = tqdm(total=args.turns, desc=state.name or path.name, unit="turn", file=sys.stderr,
                   leave=False)
    start, played, n_events = state.turn, 0, 0
    before = text
    for _ in range(args.turns):
        if state.is_over():
            break
        turn_before = state.turn
        hidden = stealthed_assets(state.to_dict())
        history.begin_turn(before, turn_before)
        events = play(state, 1, agents)
        if state.turn == turn_before:
            events += finish_turn(state, agents)  # a faction collapsed mid-turn
        if state.turn == turn_before:  # nothing could be played
            break
        after = dump_campaign_text(state)
        history.record_turn(state.turn, after, events)
        write_atomic(path, after)
        write_turn_chronicles(path, state.name or path.stem, names, state.turn, events, hidden)
        before = after
        played += 1
        n_events += len(events)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    chron = chronicle_paths(path)
    if args.json:
        print(json.dumps({"campaign": str(path), "turns_played": played, "from_turn": start,
                          "turn": state.turn, "events": n_events, "over": state.is_over(),
                          "chronicle": str(chron["gm"]), "players_chronicle": str(chron["players"]),
                          "factions": _summary(state)}, indent=2))
    elif not args.quiet:
        if played == 0:
            print(f"{path}: the campaign is over at turn {state.turn}; nothing was played.")
        else:
            print(f"Played turn{'s' if played > 1 else ''} {start + 1}"
                  + (f"-{state.turn}" if played > 1 else "")
                  + f" of {state.name or path.name}; {path} is now at turn {state.turn}.")
            print(f"Chronicle: {chron['gm']} (players' view: {chron['players']}); "
                  f"'factionsim undo {path}' steps back.")
            _print_summary(state)
    return 0


def _step(args: argparse.Namespace, forward: bool) -> int:
    from factionsim.chronicle import Names
    from factionsim.chronicle.views import chronicle_paths, stealthed_assets
    from factionsim.core.history import History, HistoryError, trim_chronicle
    from factionsim.rulesets import load_campaign

    path = Path(args.campaign)
    if not path.is_file():
        raise CampaignError(f"{path}: campaign file not found.")
    history = History(path)
    if not history.dir.is_dir():
        raise HistoryError(f"{path}: no history yet ({history.dir} does not exist); "
                           "'factionsim turn' records one as it plays.")
    start = history.current_turn()
    reached = start
    for i in range(args.turns):
        try:
            reached = history.redo() if forward else history.undo()
        except HistoryError:
            if i == 0:
                raise
            break
        if forward:
            state = load_campaign(path)
            hidden = stealthed_assets(history.snapshot_data(reached - 1))
            write_turn_chronicles(path, state.name or path.stem, Names.from_state(state), reached,
                                  history.events(reached), hidden)
        else:
            for chron in chronicle_paths(path).values():
                trim_chronicle(chron, reached)
    redo_left = [t for t in history.turns() if t > reached]
    if args.json:
        print(json.dumps({"campaign": str(path), "from_turn": start, "turn": reached,
                          "can_undo": any(t < reached for t in history.turns()),
                          "can_redo": bool(redo_left)}, indent=2))
    elif not args.quiet:
        if forward:
            msg = f"Redid {reached - start} turn(s): {path} is at turn {reached}"
        else:
            msg = f"Undid {start - reached} turn(s): {path} is back at turn {reached}"
        print(msg + (f" ({len(redo_left)} turn(s) to redo)" if redo_left else "") + ".")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    return _step(args, forward=False)


def cmd_redo(args: argparse.Namespace) -> int:
    return _step(args, forward=True)


def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def add_parser(sub: Any) -> None:
    turn = sub.add_parser(
        "turn", help="play the next turn(s) of a campaign file in place",
        description="Play the next turn(s) of CAMPAIGN and rewrite it in place (atomically), "
        "append the turn to CAMPAIGN's chronicles (STEM.chronicle.md for the GM, STEM.players.md "
        "for the players) and keep a history in CAMPAIGN.history/ for undo/redo.")
    turn.add_argument("campaign", help="campaign file (YAML)")
    turn.add_argument("--turns", type=_positive, default=1, help="turns to play (default 1)")
    turn.add_argument("-i", "--interactive", action="store_true",
                      help="show each faction's planned action and its reason; accept it, ask "
                      "for another plan, or enter the action yourself")
    turn.add_argument("--quiet", action="store_true", help="no progress bar, no summary")
    turn.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_trust_argument(turn)
    turn.set_defaults(func=cmd_turn)
    for name, func, text in (("undo", cmd_undo, "step the campaign file back one turn"),
                             ("redo", cmd_redo, "step forward again to a turn undone")):
        p = sub.add_parser(name, help=text, description=f"{text[0].upper()}{text[1:]} (the file "
                           "and its chronicles), from the history kept by 'factionsim turn'.")
        p.add_argument("campaign", help="campaign file (YAML)")
        p.add_argument("--turns", type=_positive, default=1, help="how many turns (default 1)")
        p.add_argument("--quiet", action="store_true", help="print nothing")
        p.add_argument("--json", action="store_true", help="print the result as JSON")
        p.set_defaults(func=func)
