"""Batch histories and the backend abstraction (local processes; Ray: tests/test_cluster.py)."""

from __future__ import annotations

import json

import pytest

from factionsim.backends import chunk_size, map_jobs, run_jobs
from factionsim.batch import curves_csv, run_batch, run_dir_name
from factionsim.cli import main
from factionsim.core.game import FactionsimError


def _double(shared, item):
    return shared * item


def test_run_jobs_keeps_item_order_for_any_chunking():
    items = list(range(11))
    want = [3 * i for i in items]
    assert run_jobs(_double, items, shared=3) == want
    assert run_jobs(_double, items, shared=3, chunk=4) == want
    assert run_jobs(_double, items, shared=3, workers=2, chunk=3) == want
    assert sorted(map_jobs(_double, items, shared=3, chunk=5)) == list(enumerate(want))
    assert chunk_size(100, 2) == 13 and run_jobs(_double, [], shared=1) == []


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(FactionsimError, match="unknown backend"):
        run_jobs(_double, [1], shared=1, backend="dask")


def test_batch_statistics_and_files(tmp_path):
    s = run_batch(None, runs=3, turns=4, seed=2, out=tmp_path)
    assert s["runs"] == 3 and s["ruleset"] == "wwn"
    f = s["factions"]["iron-legion"]
    assert 0 <= f["survival_rate"] <= 1 and f["goals_completed_mean"] is not None
    assert len(f["curves"]["hp"]) == len(f["curves"]["treasure"]) == 5
    assert sum(x["win_rate"] for x in s["factions"].values()) == pytest.approx(1.0)
    assert json.loads((tmp_path / "summary.json").read_text()) == s
    assert (tmp_path / "curves.csv").read_text() == curves_csv(s)
    page = (tmp_path / "summary.html").read_text()
    assert page.count("<svg") == len(f["curves"]) == 3  # hp, treasure, xp: a chart each
    for name in ("The Iron Legion", "The Silver Guild", "The Veiled Hand"):
        assert name in page
    assert f"{f['survival_rate']:.1%}" in page
    for r in range(3):
        d = tmp_path / run_dir_name(r, 3)
        assert (d / "chronicle.md").read_text().startswith("#")
        assert (d / "events.jsonl").read_text().count("\n") > 10
    assert run_dir_name(7, 3) == "run-0007" and run_dir_name(7, 20000) == "run-00007"


def test_batch_is_the_same_for_any_workers(tmp_path):
    one = run_batch(None, runs=3, turns=3, seed=9, out=tmp_path / "one", workers=1)
    two = run_batch(None, runs=3, turns=3, seed=9, out=tmp_path / "two", workers=2)
    assert one == two
    for name in ("summary.json", "curves.csv", "summary.html", "run-0002/chronicle.md",
                 "run-0001/events.jsonl"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_batch_of_another_ruleset_uses_its_summary(tmp_path):
    from factionsim.configs import default_campaign_path

    s = run_batch(str(default_campaign_path("houses")), runs=2, turns=2, out=tmp_path)
    f = next(iter(s["factions"].values()))
    assert s["ruleset"] == "houses" and f["goals_completed_mean"] is None
    assert "score" in f["curves"] and len(f["curves"]["score"]) == 3
    assert (tmp_path / "summary.html").read_text().count("<svg") == len(f["curves"])


def test_batch_command(tmp_path, capsys):
    rc = main(["batch", "--runs", "2", "--turns", "2", "--out", str(tmp_path), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["runs"] == 2 and set(out["factions"]) >= {"iron-legion"}
    assert (tmp_path / "run-0001" / "chronicle.md").exists()
    rc = main(["batch", "--runs", "1", "--out", str(tmp_path), "--address", "auto", "--quiet"])
    assert rc == 2 and "--backend ray" in capsys.readouterr().err


def test_an_agent_that_cannot_be_made_stops_the_batch_before_any_run(tmp_path):
    from factionsim.configs import default_campaign_path
    from factionsim.core.game import CampaignError

    text = default_campaign_path().read_text(encoding="utf-8")
    first = text.index("agent: ")
    path = tmp_path / "c.yaml"
    path.write_text(text[:first] + "agent: policy:missing.zip" + text[text.index("\n", first):],
                    encoding="utf-8")
    with pytest.raises(CampaignError, match=r"c\.yaml: faction '.*': agent "):
        run_batch(str(path), runs=2, turns=1, out=tmp_path / "out", workers=2)
    assert not (tmp_path / "out").exists()
