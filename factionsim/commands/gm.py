"""``factionsim turn | undo | redo``: a campaign file that advances in place, with its history.

    factionsim turn CAMPAIGN [--turns N] [--interactive]   play the next turn(s) in place
    factionsim undo CAMPAIGN [--turns N]                   step back (the file and chronicles)
    factionsim redo CAMPAIGN [--turns N]                   step forward again, same dice

Each holds the campaign's lock (``--wait SECONDS`` to wait for another command that holds it),
finishes whatever a killed command left half-committed, reads the file once, and commits each
turn (or step) whole; see :mod:`factionsim.core.history`.

Beside ``march.yaml`` live ``march.yaml.history/`` (snapshots and events of every turn, see
:mod:`factionsim.core.history`), ``march.chronicle.md`` (the GM's chronicle) and
``march.players.md`` (the players' view: nothing Stealthed, no hidden reasons).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factionsim.commands.options import add_command, add_quiet_and_json, add_wait_argument, positive
from factionsim.core.game import CampaignError
from factionsim.core.history import VIEWS, chronicle_paths
from factionsim.models.trust import add_trust_argument


def _titles(name: str) -> dict[str, str]:
    from factionsim.core.text import markdown_text

    name = markdown_text(name)
    return {"gm": f"{name}: the GM's chronicle", "players": f"{name}: what the players know"}


def _header(names: Any) -> tuple[str, ...]:
    """The lines under a new chronicle's title: the ruleset's ``names.notes`` (a WWN campaign's
    house rules), each kept on one line without raw HTML."""
    from factionsim.core.text import markdown_line

    return tuple(markdown_line(line) for line in names.notes)


def turn_blocks(names: Any, turn: int, events: list[Any], before: dict[str, Any] | None
                ) -> dict[str, str]:
    """Turn ``turn``'s block of each chronicle (``{"gm": ..., "players": ...}``), ``before``
    the campaign's data before the turn."""
    from factionsim.chronicle.views import render_turn

    return {view: render_turn(events, names, view, before) if events else
            f"## Turn {turn}\n\n(no events recorded)\n" for view in VIEWS}


def settle(path: Path) -> None:
    """For commands that only read a campaign and its history (``report``, ``foundry export``):
    refuse a history folder with links, and finish a change a killed command committed (taking
    the lock)."""
    from factionsim.core.history import History

    history = History(path)
    history.check()
    if history.journal.pending() and path.is_file():
        with changing(path, argparse.Namespace(wait=0.0, quiet=True)):
            pass


@contextlib.contextmanager
def changing(path: Path, args: argparse.Namespace, create: bool = False) -> Iterator[Any]:
    """Hold ``path``'s lock (waiting up to ``--wait``), finish what a killed command left
    half-done, and yield the campaign's :class:`~factionsim.core.history.History`.

    ``create``: the command may write a campaign that does not exist yet (its folder is made)."""
    from factionsim.core.history import History
    from factionsim.core.lock import campaign_lock

    if path.is_dir() or not (path.is_file() or create):
        what = "is a folder, not a campaign file" if path.is_dir() else "campaign file not found"
        raise CampaignError(f"{path}: {what}; give the path of an existing campaign file.")
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    history = History(path)
    with campaign_lock(path, args.wait):
        if history.recover() and not getattr(args, "quiet", False):
            print(f"note: finished a change of {path} that an interrupted factionsim command had "
                  "committed (the campaign, its history and chronicles agree again).",
                  file=sys.stderr)
        yield history


def _summary(state: Any) -> dict[str, Any]:
    from factionsim.rulesets import ruleset_of

    return ruleset_of(state).present.faction_status(state)


def _print_summary(state: Any) -> None:
    from factionsim.rulesets import ruleset_of

    present = ruleset_of(state).present
    for fid in state.factions:
        print(f"  {present.faction_line(state, fid)}")


def cmd_turn(args: argparse.Namespace) -> int:
    path = Path(args.campaign)
    with changing(path, args) as history:
        return _play_turns(args, path, history)


def _play_turns(args: argparse.Namespace, path: Path, history: Any) -> int:
    from factionsim.agents.manual import GmInputEnded, GmReview, ManualAgent, Table
    from factionsim.chronicle import Names
    from factionsim.core.dice import fresh_seed
    from factionsim.core.roundtrip import campaign_text
    from factionsim.rulesets import load_campaign, ruleset_of
    from factionsim.runner import agents_from_campaign, finish_turn, play

    text = history.read_campaign()  # once, under the lock
    state = load_campaign(path, text)
    if state.seed is None:
        state.seed = fresh_seed()
    agents = agents_from_campaign(state, source=path)
    prompting = args.interactive or any(f.agent == "manual" and f.alive
                                        for f in state.factions.values())
    if args.interactive:
        agents = {fid: a if isinstance(a, ManualAgent) else
                  GmReview(a, ask_always=args.ask_always) for fid, a in agents.items()}
    table = Table(ruleset_of(state).present, state)  # the faction's sheet and notes at each prompt
    for agent in agents.values():
        if isinstance(agent, (ManualAgent, GmReview)):
            agent.table = table
    narrator = None
    if prompting and not args.quiet and not args.json:
        from factionsim.commands.narrate import Narrator

        narrator = Narrator(state)
    names = Names.from_state(state)
    titles, header = _titles(state.name or path.stem), _header(names)
    bar = None
    if not args.quiet and not args.json and not prompting and args.turns > 1:
        from tqdm import tqdm

        from factionsim.core.text import terminal_safe

        bar = tqdm(total=args.turns, desc=terminal_safe(state.name or path.name), unit="turn",
                   file=sys.stderr, leave=False)
    start, played, n_events = state.turn, 0, 0
    before, before_step = text, history.step_position(text)[0]
    committing = False
    try:
        for _ in range(args.turns):
            if state.is_over():
                break
            turn_before = state.turn
            data_before = state.to_dict()
            events = play(state, 1, agents, on_events=narrator)
            if state.turn == turn_before:
                events += finish_turn(state, agents)  # a faction collapsed mid-turn
            if state.turn == turn_before:  # nothing could be played
                break
            after = campaign_text(state, before)  # the file's comments and layout stay
            committing = True
            history.record_turn(before, before_step, after, state.turn, events,
                                turn_blocks(names, state.turn, events, data_before), titles, header)
            committing = False
            before, before_step = after, (state.turn, 0)
            played += 1
            n_events += len(events)
            if bar is not None:
                bar.update(1)
            if narrator is not None:
                narrator.turn_saved(path, start)
    except (KeyboardInterrupt, GmInputEnded) as exc:
        if bar is not None:
            bar.close()
        return _interrupted(path, start, start + played, committing, exc)
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
            if narrator is None:  # (the narrator printed each turn's summary already)
                _print_summary(state)
    return 0


def _interrupted(path: Path, start: int, saved: int, committing: bool,
                 exc: BaseException) -> int:
    """What an interruption (Ctrl-C, or the GM's input ending) left: the turns already saved
    stay saved; the turn in progress is lost, unless it was being committed (then the next
    command on the campaign completes it). Exit status 130 (Ctrl-C) or 2 (input ended)."""
    why = "interrupted" if isinstance(exc, KeyboardInterrupt) else \
        "the GM's input ended (end of file)"
    kept = (f"{path} was not changed (still at turn {start})" if saved == start else
            f"turn{'s' if saved > start + 1 else ''} {start + 1}"
            + (f"-{saved}" if saved > start + 1 else "") + f" {'were' if saved > start + 1 else 'was'}"
            f" saved ({path} is at turn {saved})")
    if committing:
        lost = (f"turn {saved + 1} was being saved when it stopped; the next factionsim command "
                f"on {path} completes it")
    else:
        lost = (f"turn {saved + 1}, in progress, was not saved: 'factionsim turn {path}' plays it "
                "again")
    print(f"{why}: {kept}; {lost}.", file=sys.stderr)
    return 130 if isinstance(exc, KeyboardInterrupt) else 2


def _step(args: argparse.Namespace, forward: bool) -> int:
    path = Path(args.campaign)
    with changing(path, args) as history:
        return _step_locked(args, path, history, forward)


def _step_locked(args: argparse.Namespace, path: Path, history: Any, forward: bool) -> int:
    from factionsim.chronicle import Names
    from factionsim.chronicle.views import recorded_data
    from factionsim.core.history import HistoryError
    from factionsim.rulesets import load_campaign

    if not history.dir.is_dir():
        raise HistoryError(f"{path}: no history yet ({history.dir} does not exist); "
                           "'factionsim turn' records one as it plays.")
    text = history.read_campaign(lenient=True)  # once, under the lock; may be broken
    start, broken = history.step_position(text)
    reached = start
    moved: list[Any] = []  # the steps passed: turns, and the GM's records (factionsim record)
    for i in range(args.turns):
        recorded = history.steps()
        targets = [t for t in recorded if t > reached] if forward else \
            [t for t in recorded if t < reached]
        if not targets:
            if i > 0:
                break
            if forward:
                raise HistoryError(f"{path}: nothing to redo ({_step_words(reached)} is the "
                                   "latest recorded step; play on with 'factionsim turn').")
            raise HistoryError(f"{path}: nothing to undo (the history in {history.dir} holds "
                               f"nothing before {_step_words(reached)}).")
        target = targets[0] if forward else targets[-1]
        if forward:
            snapshot = history.snapshot(target) or ""
            state = load_campaign(history.snapshot_path(target), snapshot)
            names = Names.from_state(state)
            earlier = [t for t in recorded if t < target]
            before = recorded_data(history, earlier[-1] if earlier else target[0] - 1)
            blocks = step_blocks(names, target, history.events(target), before)
            history.redo_to(target, text, blocks, _titles(state.name or path.stem),
                            _header(names))
        else:
            history.undo_to(target, text)
        moved.append(target if forward else reached)
        reached = target
        text = history.snapshot(reached) or ""
    redo_left = [t for t in history.steps() if t > reached]
    if args.json:
        print(json.dumps({"campaign": str(path), "from_turn": start[0], "turn": reached[0],
                          "record": reached[1],
                          "can_undo": any(t < reached for t in history.steps()),
                          "can_redo": bool(redo_left)}, indent=2))
    elif not args.quiet:
        if broken:
            print(f"{path} could not be read as a campaign; its text was kept in "
                  f"{history.broken_path(start[0])}.")
        turns = sum(1 for s in moved if s[1] == 0)
        records = len(moved) - turns
        what = " and ".join(x for x in (f"{turns} turn(s)" if turns else "",
                                        f"{records} GM record(s)" if records else "") if x)
        msg = (f"Redid {what}: {path} is at {_step_words(reached)}" if forward else
               f"Undid {what}: {path} is back at {_step_words(reached)}")
        print(msg + (f" ({len(redo_left)} step(s) to redo)" if redo_left else "") + ".")
    return 0


def _step_words(step: tuple[int, int]) -> str:
    """``(3, 0)`` -> ``"turn 3"``; ``(3, 2)`` -> ``"turn 3, GM record 2"``."""
    return f"turn {step[0]}" + (f", GM record {step[1]}" if step[1] else "")


def step_blocks(names: Any, step: tuple[int, int], events: list[Any],
                before: dict[str, Any] | None) -> dict[str, str]:
    """The chronicle blocks of a step: a turn (:func:`turn_blocks`) or a GM's record
    (:func:`factionsim.chronicle.records.record_blocks`)."""
    if step[1] == 0:
        return turn_blocks(names, step[0], events, before)
    from factionsim.chronicle.records import record_blocks

    return record_blocks(names, step, events, before)


def cmd_undo(args: argparse.Namespace) -> int:
    return _step(args, forward=False)


def cmd_redo(args: argparse.Namespace) -> int:
    return _step(args, forward=True)


def add_parser(sub: Any) -> None:
    turn = add_command(sub, "turn")
    turn.add_argument("campaign", help="campaign file (YAML)")
    turn.add_argument("--turns", type=positive, default=1, help="turns to play (default 1)")
    turn.add_argument("-i", "--interactive", action="store_true",
                      help="show each faction's planned action (with its cost, stats, odds) and "
                      "its reason where there is a real choice; accept it, ask for another "
                      "plan, or enter the action yourself")
    turn.add_argument("--ask-always", action="store_true",
                      help="with --interactive, ask also when the plan is to do nothing more "
                      "(done, keep goal)")
    add_wait_argument(turn)
    add_quiet_and_json(turn, json="print the summary as JSON", quiet="no progress bar, no summary")
    add_trust_argument(turn)
    turn.set_defaults(func=cmd_turn)
    for name, func in (("undo", cmd_undo), ("redo", cmd_redo)):
        p = add_command(sub, name)
        p.add_argument("campaign", help="campaign file (YAML)")
        p.add_argument("--turns", type=positive, default=1,
                       help="how many steps (default 1); each turn and each GM record "
                       "('factionsim record') is one step")
        add_wait_argument(p)
        add_quiet_and_json(p)
        p.set_defaults(func=func)
