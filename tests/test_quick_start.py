"""The README's quick start and CI (``.ci/run``) say the same thing: a GM's install without
test tools that plays the bundled campaign, then the tests with the ``dev`` extra."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start() -> tuple[str, list[str]]:
    """The quick start section's text and the commands of its last code block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.DOTALL)
    return section, [line for line in blocks[-1].splitlines() if line.strip()]


def test_the_quick_start_is_two_commands_a_gms_install_then_the_tests() -> None:
    section, (play, tests) = quick_start()
    assert play.startswith("pip install . && factionsim run ")  # no extras: no test tools
    assert "[dev]" not in play
    assert '".[dev]"' in tests and tests.endswith("python -m pytest")
    python = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "requires-python"]
    assert python == ">=3.11" and "Python 3.11 or newer" in section
    assert "virtual environment" in section and "externally-managed-environment" in section


def test_ci_runs_the_quick_start() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    _, (play, _) = quick_start()
    assert "-m pip install -q .\n" in ci  # the GM's install, in a fresh virtual environment
    assert "factionsim\" run --turns 12 --out out" in ci
    assert ci.index("pip install -q .\n") < ci.index('".[dev,rl,cluster]"')
    assert ci.rstrip().endswith("python -m pytest")
    assert "--turns 12 --out out" in play


def test_the_dev_extra_holds_the_test_tools_and_the_gm_install_does_not() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = " ".join(config["optional-dependencies"]["dev"])
    base = " ".join(config["dependencies"])
    for tool in ("pytest", "ruff", "hypothesis"):
        assert tool in dev and tool not in base
    assert "ruamel.yaml" in base  # saving keeps comments for every GM
