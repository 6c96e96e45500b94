"""``factionsim forecast CAMPAIGN`` (many futures from where the campaign stands: the chance of
each faction's goal, headquarters, collapse and places, the likeliest events, fan charts; see
:mod:`factionsim.forecast`) and ``factionsim odds CAMPAIGN ACTION`` (the odds of one action's
outcomes; see :mod:`factionsim.odds`). Neither changes the campaign file or its dice."""

from __future__ import annotations

import argparse
import json
from typing import Any

from factionsim.commands.options import (
    add_backend_arguments,
    add_campaign_arguments,
    add_command,
    positive,
    progress_bar,
    resolve_workers,
    seed,
)

#: Turns shown in the terminal's fan tables (evenly spread; the HTML page shows every turn).
FAN_COLUMNS = 7


def add_parser(subparsers) -> None:
    p = add_command(subparsers, "forecast")
    add_campaign_arguments(p)
    p.add_argument("--turns", type=positive, default=6, help="turns each future plays (default 6)")
    p.add_argument("--runs", type=positive, default=500, help="futures to play (default 500)")
    p.add_argument("--seed", type=seed, default=0, help="master seed of the futures' dice (default 0)")
    add_backend_arguments(p, "futures")
    p.add_argument("--html", metavar="FILE", default=None,
                   help="also write the forecast as a self-contained HTML page (fan charts)")
    p.add_argument("--headlines", type=int, default=10,
                   help="likeliest events to print (default 10; --json and --html have more)")
    p.add_argument("--json", action="store_true", help="print the whole forecast as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no tables")
    p.set_defaults(func=_cmd_forecast)

    o = add_command(subparsers, "odds")
    o.add_argument("campaign", help="campaign file")
    o.add_argument("action", help="the action as the legal actions write it, e.g. "
                   "'attack infantry#3 -> silver-guild' (quote it)")
    o.add_argument("--method", choices=("auto", "exact", "monte-carlo"), default="auto",
                   help="auto (default): exact where possible, else Monte Carlo")
    o.add_argument("--samples", type=int, default=None,
                   help="Monte Carlo rollouts per defender (default 4000)")
    o.add_argument("--seed", type=seed, default=0, help="seed of the rollouts' dice (default 0)")
    o.add_argument("--json", action="store_true", help="print the odds as one JSON object")
    o.set_defaults(func=_cmd_odds)


# ------------------------------------------------------------------ the terminal's tables
def _band(fan: dict[str, list[float | None]], t: int) -> str:
    lo, mid, hi = fan["p10"][t], fan["median"][t], fan["p90"][t]
    if mid is None:
        return "-"
    return f"{mid:g}" if lo == hi else f"{mid:g} ({lo:g}-{hi:g})"


def _columns(turns: int) -> list[int]:
    """At most :data:`FAN_COLUMNS` turn indexes, evenly spread, the first and last included."""
    if turns + 1 <= FAN_COLUMNS:
        return list(range(turns + 1))
    return sorted({round(i * turns / (FAN_COLUMNS - 1)) for i in range(FAN_COLUMNS)})


def forecast_text(forecast: dict[str, Any], headlines: int = 10) -> str:
    """The forecast as the terminal shows it: a table per question, each chance with its 95%
    interval (``62% (58-66)``)."""
    from factionsim.core.presentation import text_table
    from factionsim.core.stats import share_text

    def share(s: dict[str, Any] | None) -> str:
        return "-" if s is None else share_text(s)

    start, turns, charts = forecast["start_turn"], forecast["turns"], forecast["charts"]
    end = start + turns
    factions = forecast["factions"]
    out = [f"{forecast['name'] or 'Campaign'}: {forecast['runs']} futures of turns {start + 1}-{end} "
           f"(seed {forecast['seed']}); chances with their 95% intervals"]
    out += [f"({factions[fid]['name']}, played by hand, is played by the {agent} agent in the futures)"
            for fid, agent in forecast.get("stand_ins", {}).items()]
    out.append("")
    asked = [(key, head) for key, head in (("goal", "completes a goal"),
                                           ("headquarters_lost", "loses its HQ"))
             if any(f[key] is not None for f in factions.values())]  # the ruleset's questions
    rows = [[f["name"], *(share(f[key]) for key, _h in asked),
             share(f["collapse"]) if f["alive_now"] else "collapsed",
             *(_band(f["fan"][k], turns) for k, _t in charts)] for f in factions.values()]
    out += [text_table(["faction", *(h for _k, h in asked), "collapses",
                        *(f"{k} after turn {end}" for k, _t in charts)], rows), ""]
    shown = forecast["headlines"][:headlines]
    out.append(f"MOST LIKELY EVENTS ({len(shown)} of {len(forecast['headlines'])})")
    width = max((len(share(h)) for h in shown), default=0)
    out += [f"  {share(h):>{width}}  {h['text']}" for h in shown] or ["  nothing of note"]
    changes = sorted(((h, f["name"]) for f in factions.values() for h in f["holdings"]),
                     key=lambda hf: -hf[0]["p"])[:headlines]
    if changes:
        out += ["", f"PLACES THAT MAY CHANGE HANDS (at the end; {len(changes)} likeliest)"]
        out.append(text_table(["faction", "place", "now", "at the end", "chance"],
                              [[name, h["label"], "held" if h["held_now"] else "-", h["change"],
                                share(h)] for h, name in changes]))
    cols = _columns(turns)
    for key, title in charts:
        out += ["", f"{title.upper()}: MEDIAN (10%-90%) AFTER EACH TURN"]
        out.append(text_table(["faction", *(f"t{start + t}" for t in cols)],
                              [[f["name"], *(_band(f["fan"][key], t) for t in cols)]
                               for f in factions.values()]))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ the commands
def _cmd_forecast(args: argparse.Namespace) -> int:
    from factionsim.forecast import run_forecast

    workers = resolve_workers(args)
    with progress_bar(args, args.runs, "forecast", "future") as progress:
        forecast = run_forecast(args.campaign, args.runs, args.turns, seed=args.seed,
                                backend=args.backend, workers=workers, address=args.address,
                                progress=progress, ruleset=args.ruleset)
    if args.html:
        from pathlib import Path

        from factionsim.chronicle.forecast_page import forecast_html
        from factionsim.core.files import write_atomic

        title = forecast["name"] or (Path(args.campaign).stem if args.campaign else "campaign")
        write_atomic(Path(args.html), forecast_html(forecast, title))
    if args.json:
        print(json.dumps(forecast))
    elif not args.quiet:
        print(forecast_text(forecast, args.headlines), end="")
        if args.html:
            print(f"\nwrote {args.html} (open it in a browser)")
    return 0


def _cmd_odds(args: argparse.Namespace) -> int:
    from factionsim.odds import campaign_odds

    result, text = campaign_odds(args.campaign, args.action, method=args.method,
                                 samples=args.samples, seed=args.seed)
    print(json.dumps(result) if args.json else text, end="\n" if args.json else "")
    return 0
