"""Mutated campaign files and what every command does with them (the machinery of test_fuzz.py).

A *seed* is a valid campaign text: every bundled campaign (``configs/*.yaml``, all four rulesets)
as written, and the same campaign saved in the middle of play (so the engine's ``in_progress``
and ``rng`` blocks get mutated too: see :data:`MID_TURN_DEPTHS`). A *mutant* is a seed with one
to three mutations drawn by hypothesis (:func:`mutants`): a value replaced by a nasty one (wrong type,
null, huge, negative, NaN/inf, unicode, control characters, deep nesting, an id of something
else), a field or list item deleted, a list item duplicated (duplicate ids), an id renamed
(dangling references), an unknown field, or a change of the YAML text itself (an alias bomb,
anchors and aliases, ``!!python/object`` tags, a truncation, a stray control character).

:func:`run_case` hands a mutant to the commands in-process, as a GM would: ``validate``; when it
validates, ``show``, ``show --json``, ``report``, ``run --turns 1`` and ``turn`` (whose rewritten
campaign must validate again) — each under a time bound. It returns what happened: ``refused``
(a clean error), ``valid``, or a ``problem`` (a traceback, a hang, an error message without the
file's name or on several lines, a refused file that changed, a written file that fails
validation) with the crash site, so a long run can count distinct sites
(``python tests/campaign_fuzz.py --examples 5000``).

Runs on any version of factionsim that has ``factionsim.cli.main`` (for before/after figures).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
CONFIGS = sorted((REPO / "configs").glob("*.yaml"))
#: seconds one command may take on one mutant before it counts as a hang
CASE_SECONDS = 30
#: decisions into the first turn at which each bundled campaign is saved as a seed too
MID_TURN_DEPTHS = (6, 23)


# ---------------------------------------------------------------------- seeds
def seeds() -> list[tuple[str, str]]:
    """``(label, text)``: each bundled campaign, and each saved mid-way through its first turn."""
    from factionsim.core.campaign import dump_campaign_text
    from factionsim.rulesets import load_campaign

    out = []
    for path in CONFIGS:
        text = path.read_text(encoding="utf-8")
        label = f"{yaml.safe_load(text)['ruleset']}:{path.stem}"
        out.append((label, text))
        state = load_campaign(path)
        rng = np.random.default_rng(1)
        done = 0
        for depth in MID_TURN_DEPTHS:  # a few decisions into turn 1, then further
            while done < depth and state.current_actor() is not None:
                legal = state.legal_actions()
                state.apply(legal[int(rng.integers(len(legal)))])
                done += 1
            if state.phase != "turn-start":
                out.append((f"{label}@mid-turn-{depth}", dump_campaign_text(state)))
    return out


# ---------------------------------------------------------------------- mutations
def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _get(node: Any, path: tuple) -> Any:
    for p in path:
        node = node[p]
    return node


def _strings(node: Any) -> list[str]:
    return [v for p in _paths(node) if isinstance(v := _get(node, p), str)]


def _deep(depth: int) -> Any:
    v: Any = "x"
    for _ in range(depth):
        v = [v]
    return v


CONTROL = ["\x1b[31mred\x1b[0m", "line\nbreak", "tab\there", "nul\x00", "bell\x07", "\u202eevil",
           "del\x7f", "\x85next", "para\u2029"]
NASTY = st.one_of(
    st.sampled_from([None, True, False, 0, -1, -7, 1, 2, 3, 8, 9, 99, 10**6, 10**9, 10**12,
                     2**64, 10**30, 10**45, 10**400, -(10**20), 1.5, -0.5, 1e300, float("nan"),
                     float("inf"), float("-inf"), "", " ", "x", "6", "d8", "2d6", "0d0",
                     "99999d99999", "random", "manual", "heuristic", "planner", "policy:",
                     "policy:/nonexistent.zip", "hitch", "turn-start", "react", "adv#1",
                     "a" * 5000, [], {}, [1, 2], ["x"], {"x": 1}, {"id": "x"}, [[]], [None]]),
    st.sampled_from(CONTROL),
    st.text(max_size=12),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.builds(_deep, st.integers(10, 80)),
)

ALIAS_BOMB = ("lol1: &l1 [a, a, a, a, a, a, a, a, a]\n"
              + "".join(f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n"
                        for i in range(2, 10)))


@dataclass
class Mutant:
    seed: str
    text: str
    steps: list[str] = field(default_factory=list)


def _mutate_data(data: Any, draw: Callable[[Any], Any], steps: list[str]) -> Any:
    paths = _paths(data)
    kind = draw(st.sampled_from(["value", "value", "value", "near", "near", "near", "delete",
                                 "duplicate", "rename", "unknown-key", "swap", "other-id"]))
    path = draw(st.sampled_from(paths[1:] if len(paths) > 1 else paths))
    parent_path, key = path[:-1], path[-1] if path else None
    parent = _get(data, parent_path) if path else None
    if kind == "value" and path:
        value = draw(NASTY)
        parent[key] = value
        steps.append(f"{path} = {value!r:.60}")
    elif kind == "near" and path:  # a plausible edit: more often valid, so play is tried
        old = parent[key]
        if isinstance(old, bool):
            new = not old
        elif isinstance(old, int):
            new = max(0, old + draw(st.sampled_from([-2, -1, 1, 2, 5])))
        elif isinstance(old, str) and key == "name":
            new = old + draw(st.sampled_from([" Ü", " <b>&amp;</b>", " *x* `y`", " 北", ""]))
        else:
            new = old
        parent[key] = new
        steps.append(f"{path} = {new!r:.60} (near)")
    elif kind == "delete" and path:
        del parent[key]
        steps.append(f"del {path}")
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
        steps.append(f"duplicate {path}")
    elif kind in ("rename", "other-id"):
        strings = [p for p in paths if isinstance(_get(data, p), str) and p]
        if strings:
            target = draw(st.sampled_from(strings))
            pool = _strings(data)
            new = draw(st.sampled_from(pool)) if kind == "other-id" else \
                _get(data, target) + draw(st.sampled_from(["x", "-2", "#9", "@nowhere", ""]))
            _get(data, target[:-1])[target[-1]] = new
            steps.append(f"{target} = {new!r:.60}")
    elif kind == "unknown-key":
        maps = [p for p in paths if isinstance(_get(data, p), dict)]
        target = draw(st.sampled_from(maps))
        m = _get(data, target)
        name = draw(st.sampled_from(["colour", "extra", "notes", "Name", "ids", "in_progres",
                                     *[k + "s" for k in m if isinstance(k, str)][:3]]))
        m[name] = draw(NASTY)
        steps.append(f"{target}.{name} added")
    elif kind == "swap" and isinstance(parent, dict) and len(parent) > 1:
        other = draw(st.sampled_from([k for k in parent if k != key]))
        parent[key], parent[other] = parent[other], parent[key]
        steps.append(f"swap {path} <-> {other}")
    return data


def _mutate_text(text: str, draw: Callable[[Any], Any], steps: list[str]) -> str:
    kind = draw(st.sampled_from(["bomb", "alias", "tag", "truncate", "char", "deep-flow",
                                 "number"]))
    lines = text.splitlines(keepends=True)
    at = draw(st.integers(0, max(0, len(lines) - 1)))
    if kind == "bomb":
        steps.append("alias bomb")
        return text + ALIAS_BOMB
    if kind == "alias":
        steps.append("anchor/alias")
        return re.sub(r"^(\w+):", r"\1: &top", text, count=1, flags=re.M) + \
            draw(st.sampled_from(["again: *top\n", "<<: *top\n", "self: &s [*s]\n", "x: *nope\n"]))
    if kind == "tag":
        tag = draw(st.sampled_from(["!!python/object/apply:os.system ['touch /tmp/fz-pwned']",
                                    "!!python/name:os.system", "!!binary aGVsbG8=",
                                    "!!set {a, b}", "!!omap [a: 1]", "!!timestamp 2024-01-01",
                                    "2024-13-45", "!custom x", "!!float nan", "!!int 0x10"]))
        steps.append(f"tag {tag}")
        return re.sub(r"^(\s*)(name|id): .*$", rf"\1\2: {tag}", text, count=1, flags=re.M)
    if kind == "truncate":
        cut = draw(st.integers(0, len(text)))
        steps.append(f"truncate at {cut}")
        return text[:cut]
    if kind == "char":
        pos = draw(st.integers(0, len(text)))
        ch = draw(st.sampled_from(["\x00", "\x1b", "\t", "\ufeff", "\"", "'", "{", "[", ":",
                                   "&", "*", "!", "%", "@", "`", "\r", "\x85"]))
        steps.append(f"insert {ch!r} at {pos}")
        return text[:pos] + ch + text[pos:]
    if kind == "deep-flow":
        depth = draw(st.sampled_from([60, 500, 5000]))
        steps.append(f"nesting {depth}")
        lines.insert(at, "deep: " + "[" * depth + "]" * depth + "\n")
        return "".join(lines)
    n = draw(st.sampled_from(["9" * 5000, "1" + "0" * 45, "-1", ".nan", ".inf", "-.inf",
                              "1e999", "1.0e+999", "0x" + "f" * 60, "1_000_000", "0o777"]))
    steps.append(f"number {n[:20]}")
    return re.sub(r": \d+\s*$", f": {n}\n", text, count=1, flags=re.M)


@st.composite
def mutants(draw: Callable[[Any], Any], pool: list[tuple[str, str]]) -> Mutant:
    """A seed of ``pool`` with one to three mutations (data or text)."""
    label, text = draw(st.sampled_from(pool))
    steps: list[str] = []
    if draw(st.integers(0, 4)) == 0:
        return Mutant(label, _mutate_text(text, draw, steps), steps)
    data = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate_data(data, draw, steps)
    if not isinstance(data, dict):
        data = {"x": data}
    try:
        out = yaml.safe_dump(data, sort_keys=False, allow_unicode=draw(st.booleans()))
    except (yaml.YAMLError, RecursionError):  # pragma: no cover - safe_dump of plain data
        out = text
    return Mutant(label, out, steps)


# ---------------------------------------------------------------------- running the commands
@dataclass
class Outcome:
    """What the commands did with one mutant."""

    status: str  # "refused", "valid" or "problem"
    detail: str = ""
    site: str = ""  # where a problem came from (exception and code line), for counting


class _Timeout(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def _site(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "/factionsim/" in f.filename or "/agents/" in f.filename
              or "/envs/" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__} at {where}"


def cli(args: list[str], seconds: int | None = None) -> tuple[int | None, str, str, str]:
    """Run ``factionsim ARGS`` in-process: ``(exit code, stdout, stderr, problem site)``; more
    than ``seconds`` (default :data:`CASE_SECONDS`) is a hang."""
    from factionsim.cli import main

    seconds = seconds or CASE_SECONDS
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    rc: int | None
    site = ""
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = main(args)
        finally:
            signal.alarm(0)  # before looking at what happened (a deep traceback takes a while)
    except SystemExit as exc:  # argparse usage errors
        rc = exc.code if isinstance(exc.code, int) else 2
    except _Timeout:
        rc, site = None, f"hang in '{args[0]}'"
    except MemoryError:
        rc, site = None, f"out of memory in '{args[0]}'"
    except Exception as exc:  # noqa: BLE001 - the point: any traceback is a finding
        rc, site = None, _site(exc)
        err.write("".join(traceback.format_exception(exc, limit=-12)))
    finally:
        signal.signal(signal.SIGALRM, old)
        sys.stdin = stdin
    return rc, out.getvalue(), err.getvalue(), site


def run_case(text: str, workdir: Path, play: bool = True) -> Outcome:
    """Every command on the campaign ``text`` (see the module docstring)."""
    path = workdir / "camp.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    before = path.read_bytes()
    rc, _, err, site = cli(["validate", str(path)])
    if site:
        return Outcome("problem", err[-3000:], f"validate: {site}")
    if rc != 0:
        problem = _clean_error(rc, err, path)
        if problem:
            return Outcome("problem", err, f"validate: {problem}")
        if path.read_bytes() != before:
            return Outcome("problem", err, "validate: changed a refused file")
        return Outcome("refused", err.strip())
    if not play:
        return Outcome("valid")
    commands = [["show", str(path)], ["show", str(path), "--json"],
                ["report", str(path), "-o", str(workdir / "r.html"), "--quiet"],
                ["run", str(path), "--turns", "1", "--out", str(workdir / "out"), "--quiet"],
                ["turn", str(path), "--quiet"]]
    for args in commands:
        rc, _, err, site = cli(args)
        if site:
            return Outcome("problem", err[-3000:], f"{args[0]}: {site}")
        problem = _clean_error(rc, err, path) if rc else ""
        if problem:
            return Outcome("problem", err, f"{args[0]}: {problem}")
        if rc and path.read_bytes() != before:
            return Outcome("problem", err, f"{args[0]}: changed a refused file")
    for written in (path, workdir / "out" / "campaign.yaml"):
        if written.exists():
            rc, _, err, site = cli(["validate", str(written)])
            if site or rc:
                return Outcome("problem", err[-3000:], f"engine wrote an invalid file: {err[:120]}")
    return Outcome("valid")


def _clean_error(rc: int | None, err: str, path: Path) -> str:
    """Why an error exit is not a clean one (``""`` when it is)."""
    if rc != 2:
        return f"exit code {rc}"
    text = err.strip()
    if not text.startswith("error: "):
        return "no 'error:' paragraph"
    if "\n" in text:
        return "message on several lines"
    if path.name not in text and "factionsim" not in text:
        return "message without the file name"
    return ""


# ---------------------------------------------------------------------- a long run
def main() -> None:  # pragma: no cover - a tool for long runs, not part of the suite
    global CASE_SECONDS
    from hypothesis import HealthCheck, given, settings

    parser = argparse.ArgumentParser(description="fuzz the campaign commands, count crash sites")
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--no-play", action="store_true", help="validate only")
    parser.add_argument("--seconds", type=int, default=CASE_SECONDS, help="time bound per command")
    parser.add_argument("--memory-gb", type=float, default=3.0,
                        help="address-space limit of this process (an alias bomb needs more)")
    args = parser.parse_args()
    import resource

    limit = int(args.memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    CASE_SECONDS = args.seconds
    pool = seeds()
    stats: Counter[str] = Counter()
    sites: dict[str, tuple[str, list[str], str]] = {}
    start = time.time()

    @settings(max_examples=args.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(mutants(pool))
    def one(m: Mutant) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            outcome = run_case(m.text, Path(tmp), play=not args.no_play)
        stats[f"{m.seed.split(':')[0]} {outcome.status}"] += 1
        stats[outcome.status] += 1
        if outcome.status == "problem":
            sites.setdefault(outcome.site, (m.seed, m.steps, outcome.detail[-600:]))
            kind = ("hang" if "hang in" in outcome.site else "memory" if "out of memory"
                    in outcome.site else "traceback" if " at " in outcome.site else "other")
            stats[f"problem: {kind}"] += 1

    one()
    print(f"{sum(v for k, v in stats.items() if ' ' not in k and ':' not in k)} mutants in "
          f"{time.time() - start:.0f} s")
    for k, v in sorted(stats.items()):
        print(f"  {k}: {v}")
    print(f"{len(sites)} distinct problem sites")
    for site, (seed, steps, detail) in sorted(sites.items()):
        last = (detail.strip().splitlines() or [""])[-1]
        print(f"- {site}\n    seed {seed}, {steps}\n    {last[:300]}")


if __name__ == "__main__":  # pragma: no cover
    main()
