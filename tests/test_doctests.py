"""The docstring examples of the folders installed inside the factionsim namespace (``agents/``
as ``factionsim.agents``, ``envs/`` as ``factionsim.envs``, ``configs/`` as
``factionsim.configs``) run here, under those names. (pytest's ``--doctest-modules`` collects
``factionsim/`` itself; given these folders it would import each a second time as a top-level
``agents``/``envs``/``configs`` package.)"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

PACKAGES = ("factionsim.agents", "factionsim.configs", "factionsim.envs")
#: what a package's doctests need beyond the base install
NEEDS = {"factionsim.envs": ("gymnasium", "pettingzoo")}


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations is not None
        names.append(package)
        for info in pkgutil.iter_modules(spec.submodule_search_locations, package + "."):
            names.append(info.name)
            if info.ispkg:
                sub = importlib.util.find_spec(info.name)
                assert sub is not None and sub.submodule_search_locations is not None
                names += [m.name for m in pkgutil.iter_modules(sub.submodule_search_locations,
                                                               info.name + ".")]
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    for needed in NEEDS.get(".".join(name.split(".")[:2]), ()):
        pytest.importorskip(needed)
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring example(s) of {name} failed"


def test_each_folder_is_imported_once_under_its_installed_name() -> None:
    import sys

    import factionsim.agents

    assert factionsim.agents.__name__ == "factionsim.agents"
    assert not {"agents", "envs", "configs"} & set(sys.modules)
