"""Forecast and odds speed: the wall time of ``factionsim forecast`` and Monte Carlo rollouts per
second of ``factionsim odds``, on the bundled WWN campaign with its own (heuristic) agents.

    python experiments/benchmark_forecast.py [--runs 500] [--turns 6] [--workers 1 2] [--samples 4000]

Prints one JSON object: for each worker count, the seconds the forecast took and futures per
second; the odds' rollouts per second (one defender, sampled although it could be enumerated).
"""

from __future__ import annotations

import argparse
import json
import time

from factionsim.configs import default_campaign_path
from factionsim.forecast import run_forecast
from factionsim.odds import campaign_odds

#: An attack of the bundled campaign that can be made at once (turn 0).
ATTACK = "attack guerrilla-populace#18 -> iron-legion"  # (the Hand is at peace since issue 24 item 4)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=500)
    p.add_argument("--turns", type=int, default=6)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--samples", type=int, default=4000)
    args = p.parse_args()
    out: dict = {"runs": args.runs, "turns": args.turns, "forecast": {}}
    for workers in args.workers:
        start = time.perf_counter()
        run_forecast(default_campaign_path(), runs=args.runs, turns=args.turns, workers=workers)
        seconds = time.perf_counter() - start
        out["forecast"][str(workers)] = {"seconds": round(seconds, 1),
                                         "futures_per_second": round(args.runs / seconds, 2)}
    start = time.perf_counter()
    campaign_odds(default_campaign_path(), ATTACK, method="monte-carlo", samples=args.samples)
    seconds = time.perf_counter() - start
    out["odds"] = {"samples": args.samples, "seconds": round(seconds, 2),
                   "rollouts_per_second": round(args.samples / seconds)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
