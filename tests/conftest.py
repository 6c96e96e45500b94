import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_addoption(parser):
    parser.addoption("--regen-playthroughs", action="store_true", default=False,
                     help="rewrite tests/playthroughs/*.txt from fresh games (see "
                          "tests/playthrough.py) instead of comparing with them")


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_stay_in_the_test_tmp(tmp_path_factory):
    """stable-baselines3 makes a ``SB3-<date>`` folder in the system temp dir for every model
    trained without a log folder; the smoke trainings put theirs in pytest's temp dir instead."""
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))


@pytest.fixture(scope="session")
def shipped_folder(tmp_path_factory):
    """A folder of shipped policies whose WWN policy fits the current env version (the real
    one when it does, else an untrained stand-in: see tests/policy_fixtures.py)."""
    from policy_fixtures import fitting_shipped_folder

    return fitting_shipped_folder(tmp_path_factory.mktemp("shipped"))
