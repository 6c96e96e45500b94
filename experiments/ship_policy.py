"""Copy a trained policy into the package as the one ``agent: trained`` plays for its ruleset.

    python experiments/ship_policy.py runs/wwn_ppo/policy.json    # -> factionsim/models/shipped/wwn.*
    python experiments/ship_policy.py runs/wwn_ppo/policy.json --dtype float32
    python experiments/ship_policy.py runs/tune-es/policy.json --dtype float64   # 22 numbers

The description (its training metadata: the command, versions, final evaluation) is kept; the
weights are stored as ``--dtype`` (default float16: half the size; play computes in float64;
float64 keeps a tuned heuristic's numbers exactly as measured).
Write the run's figures into docs/training.md ("The shipped policy").
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from factionsim.models import SHIPPED, read_policy, write_policy
from factionsim.models.files import read_arrays


def ship(source: Path, dtype: str = "float16") -> Path:
    policy = read_policy(source)  # checks the whole file first
    d = json.loads(source.read_text(encoding="utf-8"))
    arrays = read_arrays(source.parent / d["weights"]["file"], d["weights"]["sha256"], source)
    target = SHIPPED / f"{policy.ruleset}.json"
    d.pop("weights")
    d.setdefault("training", {})["shipped_from"] = str(source)
    write_policy(target, d, arrays, dtype=dtype)
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", type=Path, help="a policy description (OUT/policy.json)")
    parser.add_argument("--dtype", default="float16", choices=("float16", "float32", "float64"))
    args = parser.parse_args(argv)
    target = ship(args.policy, args.dtype)
    size = target.with_suffix(".npz").stat().st_size
    print(f"wrote {target} and {target.with_suffix('.npz').name} ({size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
