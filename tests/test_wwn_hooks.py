"""WWN ability hook points are declared in one module (rules/wwn/hooks.py): registering an
undeclared hook fails at once, and every hook the rules fire is a declared one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from factionsim.rules.wwn import hooks

WWN = Path(__file__).resolve().parents[1] / "factionsim" / "rules" / "wwn"
#: calls whose second argument (after the state) names the hook point they fire
FIRING_CALLS = {"_holders", "_first_offer", "_in_place_options"}


def fired_hooks() -> dict[str, list[str]]:
    """Hook name -> where the rules fire it (``_holders(state, "x")``, ``HOOKS["x"]``,
    ``state.hooks["x"]`` (the game's own tables, homebrew abilities included)...)."""
    found: dict[str, list[str]] = {}
    for path in sorted(WWN.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = None
            if isinstance(node, ast.Call) and len(node.args) >= 2:
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if called in FIRING_CALLS and isinstance(node.args[1], ast.Constant):
                    name = node.args[1].value
            elif (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                  and (isinstance(node.value, ast.Name) and node.value.id == "HOOKS"
                       or isinstance(node.value, ast.Attribute) and node.value.attr == "hooks")):
                name = node.slice.value
            if isinstance(name, str):
                found.setdefault(name, []).append(f"{path.name}:{node.lineno}")
    return found


def test_registering_an_undeclared_hook_fails_with_a_suggestion() -> None:
    with pytest.raises(hooks.UnknownHookError, match="did you mean 'free_use'"):
        hooks.register("infantry", "free_uses")


def test_every_hook_the_rules_fire_is_declared() -> None:
    fired = fired_hooks()
    assert len(fired) > 30  # the scan finds the hook points (44 when written)
    undeclared = {name: where for name, where in fired.items() if name not in hooks.HOOK_POINTS}
    assert undeclared == {}


def test_every_declared_hook_is_fired_and_every_registered_one_is_declared() -> None:
    fired = fired_hooks()
    assert sorted(set(hooks.HOOK_POINTS) - set(fired)) == []  # no dead declaration
    assert set(hooks.HOOKS) == set(hooks.HOOK_POINTS)
    registered = {name for name, table in hooks.HOOKS.items() if table}
    assert registered <= set(fired) and len(registered) > 30


def test_an_undeclared_hook_cannot_be_fired() -> None:
    from factionsim.rules.wwn import abilities
    from factionsim.rules.wwn.state import WwnState

    with pytest.raises(KeyError):  # (a game's own hook tables, homebrew or not, hold no others)
        abilities._holders(WwnState(), "incom")
