"""The ``factionsim`` command line.

    factionsim run [CAMPAIGN] --turns N --seed S --out DIR   play N turns, write the results
    factionsim validate CAMPAIGN                             check a campaign file

Errors in campaign files are reported in one paragraph (file, field, line, allowed values) with
exit code 2, never a traceback; so are the system's errors on files (permission denied, disk
full, read-only folder...): :func:`main` is the one place they become a message. Everything the
commands print passes through :class:`~factionsim.core.text.TerminalStream`, so names from a
campaign file never reach the terminal as escape codes. Heavy libraries are imported only by
the commands that need them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from factionsim.commands import batch, forecast, foundry, gm, record, show, tools, tournament, train
from factionsim.commands.options import add_command, add_quiet_and_json, seed
from factionsim.core.game import CampaignError, FactionsimError
from factionsim.core.prose import plural
from factionsim.core.ruleset import DEFAULT_RULESET
from factionsim.models.trust import add_trust_argument, trusting_pickled_models

#: Modules that add a subcommand: each has ``add_parser(subparsers)`` and imports its heavy
#: dependencies only inside the command function.
COMMAND_MODULES = (batch, forecast, foundry, gm, record, show, tools, tournament, train)


def _cmd_run(args: argparse.Namespace) -> int:
    from factionsim.chronicle import Names, render_markdown
    from factionsim.configs import default_campaign_path
    from factionsim.core.dice import fresh_seed, reseed
    from factionsim.core.files import write_atomic
    from factionsim.core.lock import campaign_lock
    from factionsim.core.roundtrip import campaign_text
    from factionsim.core.text import terminal_safe
    from factionsim.rulesets import load_campaign, ruleset_of
    from factionsim.runner import agents_from_campaign, event_lines, play

    path = Path(args.campaign) if args.campaign else default_campaign_path(args.ruleset)
    out = Path(args.out)
    _refuse_overwriting_input(path, out)
    state = load_campaign(path)
    original = path.read_text(encoding="utf-8")  # its comments and layout go into the output
    if args.seed is not None:
        reseed(state, args.seed)
    elif state.seed is None:
        state.seed = fresh_seed()
    agents = agents_from_campaign(state, source=path)
    start, start_data = state.turn, state.to_dict()  # (where the chronicle's headlines happen)
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=args.turns, desc=terminal_safe(state.name or path.name), unit="turn",
                   file=sys.stderr, leave=False)
    events = play(state, args.turns, agents, on_turn=(lambda _t: bar.update(1)) if bar else None)
    if bar is not None:
        bar.close()
    out.mkdir(parents=True, exist_ok=True)
    with campaign_lock(out / "campaign.yaml"):  # it may be a campaign another command is writing
        write_atomic(out / "campaign.yaml", campaign_text(state, original))
    write_atomic(out / "events.jsonl", "".join(line + "\n" for line in event_lines(events)))
    title = f"{state.name or path.stem}: turns {start + 1}-{state.turn}"
    write_atomic(out / "chronicle.md",
                 render_markdown(events, Names.from_state(state), title, frame=start_data))
    summary = {
        "campaign": str(path), "turns_played": state.turn - start, "turn": state.turn,
        "seed": state.seed, "events": len(events), "out": str(out),
        "factions": state.faction_summary(),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    elif not args.quiet:
        print(f"Played {plural(summary['turns_played'], 'turn')} of {state.name or path.name} "
              f"(now turn {state.turn}, seed {state.seed}); wrote {out}/campaign.yaml, "
              f"events.jsonl ({len(events)} events), chronicle.md")
        present = ruleset_of(state).present
        for fid in state.factions:  # as 'turn' prints them: names, not ids
            print(f"  {present.faction_line(state, fid)}")
    return 0


#: The files ``run`` writes into its output folder.
RUN_OUTPUTS = ("campaign.yaml", "events.jsonl", "chronicle.md")


def _refuse_overwriting_input(campaign: Path, out: Path) -> None:
    """``run c.yaml --out DIR`` must not write over ``c.yaml`` (``run`` never changes its input)."""
    from factionsim.core.files import same_file

    for name in RUN_OUTPUTS:
        target = out / name
        if same_file(target, campaign):
            raise CampaignError(
                f"--out {out}: run would write {target} over its own input {campaign}; choose "
                "another output folder (run never changes the campaign it reads; 'factionsim "
                "turn' advances a campaign file in place).")


def _cmd_validate(args: argparse.Namespace) -> int:
    from factionsim.core.campaign import load_campaign_data
    from factionsim.rulesets import RULESETS, build_campaign, ruleset_of
    from factionsim.runner import check_campaign_players

    data, lines = load_campaign_data(Path(args.campaign), list(RULESETS))
    state = build_campaign(data, lines, args.campaign)
    check_campaign_players(state, data, lines, args.campaign)
    print(f"{args.campaign}: valid {state.ruleset} campaign '{state.name}', turn {state.turn}, "
          f"{ruleset_of(state).present.campaign_text(state)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="factionsim",
        description="Factions that play themselves: run tabletop faction turns automatically.",
    )
    parser.add_argument("--version", action="version", version="factionsim 0.1.0")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = add_command(sub, "run")
    run.add_argument("campaign", nargs="?", help="campaign file (default: the bundled campaign)")
    run.add_argument("--ruleset", default=DEFAULT_RULESET,
                     help=f"ruleset of the bundled campaign (default {DEFAULT_RULESET})")
    run.add_argument("--turns", type=int, default=12, help="turns to play (default 12)")
    run.add_argument("--seed", type=seed, default=None,
                     help="seed the dice (default: the campaign's own generator state or seed)")
    run.add_argument("--out", default="out", help="output folder (default ./out)")
    add_quiet_and_json(run, json="print the summary as JSON", quiet="no progress bar, no summary")
    add_trust_argument(run)
    run.set_defaults(func=_cmd_run)

    val = add_command(sub, "validate")
    val.add_argument("campaign", help="campaign file (YAML)")
    add_trust_argument(val)
    val.set_defaults(func=_cmd_validate)
    for module in COMMAND_MODULES:
        module.add_parser(sub)
    return parser


@contextlib.contextmanager
def plain_terminal() -> Iterator[None]:
    """Everything printed in the block goes through :func:`~factionsim.core.text.terminal_safe`
    (standard error keeps carriage returns, which progress bars use)."""
    from factionsim.core.text import TerminalStream

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalStream(out), TerminalStream(err, allow="\r")
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def main(argv: list[str] | None = None) -> int:
    with plain_terminal():
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "turns", 1) is not None and getattr(args, "turns", 1) < 0:
            parser.error("--turns must be 0 or more")
        return dispatch(args)


def dispatch(args: argparse.Namespace) -> int:
    """Run the command; its errors become one paragraph on standard error and exit code 2."""
    from factionsim.core.files import os_error_text

    try:
        with trusting_pickled_models(getattr(args, "trust_model", False)):
            return args.func(args)
    except FactionsimError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader of our output went away (| head): stop quietly
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:  # the system refused a file operation no command expected to fail
        print(f"error: {os_error_text(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; the campaign file was not changed (a change already committed is "
              "completed by the next factionsim command on it)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
