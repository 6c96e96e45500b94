"""The layers of docs/architecture.md, checked from the code's own imports (read with ``ast``:
module-level imports and those deferred into functions alike; ``if TYPE_CHECKING:`` blocks are
type hints only and left out).

- ``core`` imports nothing of factionsim outside ``core``;
- a ruleset's modules import ``core`` and their own ruleset only (no other ruleset, no chronicle,
  commands, CLI, agents or environment); its descriptor (``rules/<name>/__init__.py``, and
  ``rules/__init__.py`` for the agents every ruleset offers) may also name its agents' and codec's
  modules, inside the functions that load them;
- the chronicle imports no commands, CLI or game-running modules; agents and environments no
  commands, CLI or chronicle;
- batch and tournament do not import each other, the CLI or the commands; nothing imports the
  CLI (but ``__main__``);
- and there is no import cycle at all.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _package_dirs() -> dict[str, Path]:
    """Package name -> folder, as pyproject.toml installs them (factionsim.agents = agents/...)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {name: ROOT / folder
            for name, folder in config["tool"]["setuptools"]["package-dir"].items()}


def _modules() -> dict[str, Path]:
    dirs = _package_dirs()
    mapped = {folder.resolve() for name, folder in dirs.items() if name != "factionsim"}
    out: dict[str, Path] = {}
    for package, folder in dirs.items():
        for path in folder.rglob("*.py"):
            if package == "factionsim" and any(p.resolve() in mapped for p in path.parents):
                continue
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _imports(module: str, path: Path) -> set[tuple[str, bool]]:
    """``(imported factionsim module, deferred?)`` for every import of ``module``."""
    found: set[tuple[str, bool]] = set()
    is_package = path.name == "__init__.py"

    def target(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))

    def add(name: str, deferred: bool) -> None:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add((name, deferred))

    def visit(node: ast.AST, deferred: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) \
                    and child.test.id == "TYPE_CHECKING":
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, deferred)
            elif isinstance(child, ast.ImportFrom):
                base = target(child)
                for alias in child.names:
                    add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base,
                        deferred)
            else:
                visit(child, deferred or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef
                                                    | ast.Lambda))

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


IMPORTS = {m: _imports(m, p) for m, p in MODULES.items()}
RULESETS = sorted({m.split(".")[2] for m in MODULES if m.startswith("factionsim.rules.")})
DESCRIPTORS = {"factionsim.rules", *(f"factionsim.rules.{r}" for r in RULESETS)}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _violations(importer_prefix: str, forbidden: tuple[str, ...], *, deferred_ok: tuple[str, ...] = (),
                skip: set[str] | frozenset[str] = frozenset()) -> list[str]:
    out = []
    for module, imports in sorted(IMPORTS.items()):
        if not _within(module, importer_prefix) or module in skip:
            continue
        for name, deferred in sorted(imports):
            if any(_within(name, f) for f in forbidden) and not (
                    deferred and any(_within(name, ok) for ok in deferred_ok)):
                out.append(f"{module} imports {name}" + (" (deferred)" if deferred else ""))
    return out


UPPER = ("factionsim.rulesets", "factionsim.chronicle", "factionsim.commands", "factionsim.cli",
         "factionsim.runner", "factionsim.batch", "factionsim.tournament", "factionsim.backends",
         "factionsim.agents", "factionsim.envs", "factionsim.configs")


def test_the_scan_finds_the_tree() -> None:
    assert {"factionsim.core.game", "factionsim.agents.planner", "factionsim.envs.aec",
            "factionsim.rules.wwn.hooks", "factionsim.configs"} <= set(MODULES)
    assert ("factionsim.rules.wwn.abilities", False) in IMPORTS["factionsim.rules.wwn.combat"]
    assert RULESETS == ["conflict", "engagements", "houses", "wwn"]


def test_core_imports_no_ruleset_and_nothing_above_it() -> None:
    assert _violations("factionsim.core", ("factionsim.rules", *UPPER)) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_ruleset_imports_core_and_itself_only(ruleset: str) -> None:
    others = tuple(f"factionsim.rules.{r}" for r in RULESETS if r != ruleset)
    assert _violations(f"factionsim.rules.{ruleset}", (*others, *UPPER),
                       skip=DESCRIPTORS) == []


def test_descriptors_name_agents_and_codecs_only_where_they_load_them() -> None:
    def allowed(descriptor: str, name: str, deferred: bool) -> bool:
        return (_within(name, "factionsim.core") or name == "factionsim.rules"
                or (descriptor != "factionsim.rules" and _within(name, descriptor))
                or (deferred and (_within(name, "factionsim.agents")
                                  or _within(name, "factionsim.envs"))))

    bad = [f"{d} imports {name}" + (" (deferred)" if deferred else "")
           for d in sorted(DESCRIPTORS) for name, deferred in sorted(IMPORTS[d])
           if not allowed(d, name, deferred)]
    assert bad == []
    assert ("factionsim.agents.planner", True) in IMPORTS["factionsim.rules.wwn"]


def test_chronicle_agents_and_envs_stay_below_the_commands() -> None:
    above = ("factionsim.commands", "factionsim.cli", "factionsim.runner", "factionsim.batch",
             "factionsim.tournament")
    assert _violations("factionsim.chronicle", (*above, "factionsim.agents", "factionsim.envs")) == []
    assert _violations("factionsim.agents", (*above, "factionsim.chronicle")) == []
    assert _violations("factionsim.envs", (*above, "factionsim.chronicle")) == []


def test_batch_and_tournament_share_what_they_share_from_below() -> None:
    assert _violations("factionsim.batch", ("factionsim.tournament", "factionsim.cli",
                                            "factionsim.commands")) == []
    assert _violations("factionsim.tournament", ("factionsim.batch", "factionsim.cli",
                                                 "factionsim.commands")) == []


def test_nothing_imports_the_cli() -> None:
    assert _violations("factionsim", ("factionsim.cli",), skip={"factionsim.__main__"}) == []


def test_no_import_cycle() -> None:
    graph = {m: {name for name, _ in imports} for m, imports in IMPORTS.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def strong(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    assert cycles == []
