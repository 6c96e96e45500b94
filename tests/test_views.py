"""Views expose what a faction may see, not the whole state (issue 18, item 1).

A view keeps the engine state private (``View._state``): only a ruleset's own code (its package
``factionsim/rules/<name>/``) and the contract itself (``factionsim/core/game.py``) read it, and
a ruleset kept outside the package (the toy ruleset of the tests) only from its own view's
methods (``self._state``). Agents, codecs, commands and experiments read the accessors each
ruleset's view declares. This is checked from the code (``ast``), so that a new agent or codec
cannot reach past its view; what those accessors let through is checked by the lookalike test of
``tests/test_contract.py`` and, for WWN's Stealth, below.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from wwn_helpers import faction, make_state

from factionsim.configs import default_campaign_path
from factionsim.core.game import View
from factionsim.rulesets import RULESETS, get_ruleset, load_campaign

ROOT = Path(__file__).resolve().parents[1]
#: the folders of Python code that may hold an agent, a codec or anything else reading views
SCANNED = ("agents", "envs", "factionsim", "configs", "experiments", "tests")
#: where the private state may be read freely: the rulesets' own packages and the contract
RULES = ROOT / "factionsim" / "rules"
CONTRACT = ROOT / "factionsim" / "core" / "game.py"
PRIVATE = "_state"
PROBES = ("getattr", "hasattr")


def _files() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))


def _allowed(path: Path) -> bool:
    return path == CONTRACT or (RULES in path.parents and path.parent != RULES)


def _view_classes(tree: ast.Module) -> set[ast.ClassDef]:
    """Classes whose bases name a view (``View``, ``WwnView``...): a ruleset's view."""
    def is_view(base: ast.expr) -> bool:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        return name.endswith("View")
    return {node for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and any(is_view(b) for b in node.bases)}


def private_reads(path: Path, root: Path = ROOT) -> list[str]:
    """``file:line`` (relative to ``root``) of every read of a view's private state: an
    attribute ``._state`` (except ``self._state`` in a view class's own methods) or a
    ``getattr(x, "_state")``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    own = set()
    for cls in _view_classes(tree):
        own |= {id(n) for n in ast.walk(cls)
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                and n.value.id == "self"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == PRIVATE and id(node) not in own:
            found.append(node)
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) in PROBES
              and any(isinstance(a, ast.Constant) and a.value == PRIVATE for a in node.args)):
            found.append(node)
    return [f"{path.relative_to(root)}:{line}" for line in sorted(n.lineno for n in found)]


def test_no_module_outside_a_ruleset_reads_a_views_private_state() -> None:
    """Agents, codecs, commands, experiments and tests use the accessors of the view."""
    leaks = [where for path in _files() if not _allowed(path) for where in private_reads(path)]
    assert leaks == [], "reads of View._state outside the rulesets: " + ", ".join(leaks)


def test_the_scan_finds_a_read_of_the_private_state(tmp_path: Path) -> None:
    """The scan above is not blind: an agent reaching past its view is reported, a view's own
    method is not."""
    agent = tmp_path / "sneaky.py"
    agent.write_text("class Sneaky:\n    def act(self, view, legal, rng):\n"
                     "        return view._state.legal_actions()[0]\n\n"
                     "def probe(view):\n    return getattr(view, '_state')\n\n"
                     "class MyView(View):\n    def to_state(self, rng):\n"
                     "        return self._state.copy()\n", encoding="utf-8")
    assert private_reads(agent, tmp_path) == ["sneaky.py:3", "sneaky.py:6"]


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_view_has_no_public_state(name: str) -> None:
    """``view.state`` (the engine state, hidden information included) is gone from every
    ruleset's view; the contract's accessors are there."""
    state = load_campaign(default_campaign_path(get_ruleset(name).name))
    fid = next(iter(state.factions))
    view = state.view(fid)
    assert isinstance(view, View)
    assert not hasattr(view, "state")
    assert view.faction_ids == tuple(state.factions)
    assert view.faction is state.factions[fid]
    assert view.location_ids == state.location_ids()
    assert (view.ruleset, view.turn, view.current_turn, view.max_turns, view.phase) == (
        state.ruleset, state.turn, state.current_turn, state.max_turns, state.phase)
    assert dict(view.decision) == state.ctx


def _stealth_campaign():
    """``us`` and ``them`` in the line a - b - c: each has Infantry at b and Scouts Stealthed
    at b (and its Base of Influence at its headquarters, a)."""
    assets = [{"type": "infantry", "location": "b"},
              {"type": "scouts", "location": "b", "stealth": True}]
    return make_state([faction("us", assets=assets), faction("them", assets=assets)])


def test_a_wwn_view_leaves_out_rivals_stealthed_assets_everywhere() -> None:
    """6.3.0: a Stealthed asset "cannot be detected or attacked" by other factions until it
    loses Stealth (our reading, ``docs/rules-wwn.md``: its existence, place and HP are secret).
    Every asset accessor of the view leaves rivals' Stealthed assets out, and keeps the
    faction's own."""
    s = _stealth_campaign()
    ids = {a.id: a for a in s.assets.values()}
    hidden = next(a for a in ids.values() if a.owner == "them" and a.stealth)
    mine = next(a for a in ids.values() if a.owner == "us" and a.stealth)
    view = s.view("us")
    assert hidden.id in s.assets  # the engine knows it...
    seen = [a.id for a in view.assets()]
    assert hidden.id not in seen and mine.id in seen  # ...the view does not
    assert seen == [a.id for a in s.assets.values() if a is not hidden]  # in asset order
    assert view.asset(hidden.id) is None and view.asset(mine.id) is mine
    assert view.asset("nothing#99") is None and view.asset(None) is None
    assert view.assets_of("them") == tuple(a for a in s.assets_of("them") if a is not hidden)
    assert view.assets_of("us") == s.assets_of("us") and mine in view.assets_of("us")
    assert hidden not in view.assets_at("b") and mine in view.assets_at("b")
    # the rival sees it the other way round
    assert s.view("them").asset(mine.id) is None and s.view("them").asset(hidden.id) is hidden


def test_a_wwn_codec_observes_through_the_view() -> None:
    """The observation of a faction does not change when a rival's Stealthed asset moves or is
    hurt (it reads the view, which leaves that asset out), and does when a visible one does."""
    import numpy as np

    from factionsim.envs import make_codec

    s = _stealth_campaign()
    codec = make_codec(s)
    before = codec.observe(s.view("us"), np.empty(codec.obs_size, np.float32)).copy()
    hidden = next(a for a in s.assets.values() if a.owner == "them" and a.stealth)
    hidden.location, hidden.hp = "c", 1
    same = codec.observe(s.view("us"), np.empty(codec.obs_size, np.float32))
    assert np.array_equal(before, same)
    seen = next(a for a in s.assets.values() if a.owner == "them" and not a.stealth)
    seen.location = "c"
    moved = codec.observe(s.view("us"), np.empty(codec.obs_size, np.float32))
    assert not np.array_equal(before, moved)


def _probes(path: Path) -> list[str]:
    """``file:line`` of every ``getattr``/``hasattr`` asking a game state or a view for an
    attribute by name (the contract declares what they have: no probing)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in PROBES and node.args:
            first = node.args[0]
            while isinstance(first, ast.Call) and getattr(first.func, "id", None) in PROBES:
                first = first.args[0]  # getattr(getattr(state, "map"), ...)
            name = first.attr if isinstance(first, ast.Attribute) else getattr(first, "id", "")
            if name in ("state", "view", "base"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_getattr_probes_of_states_or_views() -> None:
    """Shared code, agents and codecs read the attributes the contract declares (``seed``,
    ``ruleset``, ``factions``, ``location_ids()``, ``order_index``...) directly."""
    shared = [p for p in _files() if p.parts[len(ROOT.parts)] in ("agents", "envs", "factionsim")
              and RULES not in p.parents]
    probes = [where for path in shared for where in _probes(path)]
    assert probes == [], "getattr probes of a state or view: " + ", ".join(probes)
