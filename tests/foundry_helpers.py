"""Shared pieces of the Foundry VTT tests: the reference's two example actors and CLI calls.

``data/foundry/example_1.json`` and ``example_2.json`` are the reference's example exports
(``shared/reference/foundry_wwn_faction_example_*.json``), copied unchanged.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from factionsim.cli import main

DATA = Path(__file__).parent / "data" / "foundry"
EXAMPLES = (DATA / "example_1.json", DATA / "example_2.json")


def example(n: int) -> dict[str, Any]:
    """A fresh copy of example ``n`` (1 or 2) as data."""
    return copy.deepcopy(json.loads(EXAMPLES[n - 1].read_text(encoding="utf-8")))


def write_actor(folder: Path, actor: Any, name: str = "actor.json") -> Path:
    path = folder / name
    path.write_text(actor if isinstance(actor, str) else json.dumps(actor, indent=2),
                    encoding="utf-8")
    return path


def run(*args: Any) -> int:
    """``factionsim`` with ``args`` (paths turned into text), quietly."""
    return main([str(a) for a in args])


def import_into(campaign: Path, *actors: Path, extra: tuple[Any, ...] = ()) -> None:
    assert run("foundry", "import", *actors, "--into", campaign, "--quiet", *extra) == 0


def export_to(campaign: Path, out: Path, extra: tuple[Any, ...] = ()) -> dict[str, dict[str, Any]]:
    """Export ``campaign`` into ``out``; the actors by name."""
    assert run("foundry", "export", campaign, "--out", out, "--quiet", *extra) == 0
    actors = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(out.glob("*.json"))]
    return {a["name"]: a for a in actors}
