"""``experiments/unseen_share.py``: a tuning's pairwise share on campaigns no run tuned on."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1] / "experiments"))
import unseen_share  # noqa: E402


def test_the_heuristic_against_itself_takes_one_win_per_mirrored_pair(tmp_path):
    """"games ``2p`` and ``2p + 1`` are one campaign and its dice with the seats swapped": the
    zero tuning (the heuristic itself) wins exactly one of each pair, a share of 50%."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_INPUTS, TUNING_NAMES

    path = tmp_path / "zero.npz"
    np.savez(path, tuning=np.zeros((len(TUNING_NAMES), TUNING_INPUTS["faction"])))
    done = []
    report = unseen_share.unseen_share(
        unseen_share.Args(weights=str(path), games=4, turns=2, workers=1),
        progress=lambda: done.append(1))
    assert report["share"] == 0.5 and report["games"] == 4 and sum(done) == 4
    assert report["ci95"][0] < 0.5 < report["ci95"][1]


def test_the_shipped_tuning_plays_the_documented_games():
    """The games are ``--method tune``'s, seated split, with seed 424242 and campaigns of seeds
    5000-5999 (the shipped recipe tuned on 1000-1999): the shipped weights play them."""
    shipped = Path(unseen_share.__file__).parents[1] / "factionsim/models/shipped/wwn.npz"
    report = unseen_share.unseen_share(unseen_share.Args(weights=str(shipped), games=2, turns=2,
                                                         workers=1))
    assert report["args"]["seed"] == 424242 and tuple(report["args"]["seeds"]) == (5000, 5999)
    assert report["share"] in (0.0, 0.25, 0.5, 0.75, 1.0)


def test_a_file_that_is_not_a_tuning_is_refused_naming_it(tmp_path, capsys):
    """A missing file, or an .npz without a ``tuning`` array, is refused with a one-line error
    naming the file (argparse's exit status 2), not a traceback."""
    import pytest

    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    for path, message in ((tmp_path / "none.npz", "no such file"),
                          (other, "no 'tuning' array")):
        with pytest.raises(SystemExit) as stop:
            unseen_share.main([str(path)])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert str(path) in err and message in err
