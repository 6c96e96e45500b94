"""Policy files are data, not code (issue 17 item 1).

A campaign may name a policy (``agent: policy:PATH``), but loading one never unpickles anything:
the weights are an ``.npz`` read with ``allow_pickle=False`` and the description is JSON. A
stable-baselines3 zip (which holds pickles) loads only when the command line says
``--trust-model``, never because a campaign file names it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.models import (
    ModelFileError,
    UntrustedModelError,
    load_policy,
    read_policy,
    trusting_pickled_models,
    write_policy,
)


class _Touch:
    """Unpickling this creates ``path`` (what a malicious model file would do, harmlessly)."""

    def __init__(self, path: Path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def crafted_zip(path: Path, marker: Path) -> Path:
    """A file shaped like a stable-baselines3 save whose pickles would create ``marker``: SB3
    unpickles the ``:serialized:`` entries of ``data`` and torch-loads ``policy.pth``."""
    payload = base64.b64encode(pickle.dumps(_Touch(marker))).decode()
    data = {"policy_class": {":type:": "<class 'type'>", ":serialized:": payload},
            "observation_space": {":type:": "<class 'type'>", ":serialized:": payload}}
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps(data))
        zf.writestr("policy.pth", pickle.dumps(_Touch(marker)))
        zf.writestr("_stable_baselines3_version", "2.9.2")
    return path


def campaign_with_agent(tmp_path: Path, agent: str, faction: int = 1) -> Path:
    """The bundled campaign with faction number ``faction`` played by ``agent``."""
    lines = default_campaign_path().read_text(encoding="utf-8").splitlines(keepends=True)
    seen = -1
    for i, line in enumerate(lines):
        if line.strip().startswith("agent:"):
            seen += 1
            if seen == faction:
                lines[i] = line.split("agent:")[0] + f"agent: {agent}\n"
    path = tmp_path / "campaign.yaml"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def tiny_description(obs: int = 3, actions: int = 2) -> dict:
    return {"ruleset": "wwn", "env_version": 1, "spaces": {"observation": obs, "actions": actions},
            "codec": {"limits": {}},
            "network": {"layers": [
                {"type": "dense", "weight": "w0", "bias": "b0", "activation": "tanh"},
                {"type": "dense", "weight": "w1", "bias": None, "activation": None}]}}


def tiny_arrays(obs: int = 3, actions: int = 2) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"w0": rng.normal(size=(4, obs)), "b0": rng.normal(size=4),
            "w1": rng.normal(size=(actions, 4))}


# ----------------------------------------------------------------------------- pickles refused
def test_a_crafted_zip_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    evil = crafted_zip(tmp_path / "model.zip", marker)
    with pytest.raises(UntrustedModelError, match="--trust-model"):
        load_policy(evil)
    with pytest.raises(UntrustedModelError):
        load_policy(tmp_path / "model")  # SB3's habit of leaving out .zip: same refusal
    assert not marker.exists()


@pytest.mark.parametrize("command", [
    ["run", "{campaign}", "--turns", "1", "--out", "{out}", "--quiet"],
    ["turn", "{campaign}", "--quiet"],
    ["batch", "{campaign}", "--runs", "2", "--turns", "1", "--out", "{out}", "--quiet"],
    ["validate", "{campaign}"],
])
def test_commands_refuse_a_campaign_naming_a_crafted_zip(tmp_path, capsys, command):
    marker = tmp_path / "pwned"
    evil = crafted_zip(tmp_path / "model.zip", marker)
    campaign = campaign_with_agent(tmp_path, f"policy:{evil}")
    before = campaign.read_bytes()
    argv = [a.format(campaign=campaign, out=tmp_path / "out") for a in command]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--trust-model" in err and str(evil) in err and "Traceback" not in err
    assert not marker.exists()
    assert campaign.read_bytes() == before and not (tmp_path / "out").exists()


def test_validate_names_the_file_line_and_field_of_the_zip(tmp_path, capsys):
    campaign = campaign_with_agent(tmp_path, "policy:elsewhere/model.zip", faction=1)
    (tmp_path / "elsewhere").mkdir()
    crafted_zip(tmp_path / "elsewhere" / "model.zip", tmp_path / "pwned")
    import os

    cwd = os.getcwd()
    os.chdir(tmp_path)  # a relative PATH is read from the folder factionsim runs in
    try:
        assert main(["validate", str(campaign)]) == 2
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(campaign.read_text().splitlines(), 1)
                if "policy:" in text)
    assert f"{campaign}, line {line}, factions[1].agent:" in err
    assert "faction 'silver-guild'" in err and "pickled model" in err
    assert not (tmp_path / "pwned").exists()


def test_tournament_refuses_a_zip_agent_without_the_flag(tmp_path, capsys):
    marker = tmp_path / "pwned"
    evil = crafted_zip(tmp_path / "model.zip", marker)
    assert main(["tournament", "--agents", f"random,policy:{evil}", "--games", "1", "--turns",
                 "1", "--out", str(tmp_path / "t"), "--quiet"]) == 2
    assert "--trust-model" in capsys.readouterr().err and not marker.exists()


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_crafted_zip_really_runs_code_when_trusted(tmp_path):
    """The control: with --trust-model the same file's pickle does run (so the refusals above
    are what kept it from running), and the load then fails cleanly."""
    pytest.importorskip("sb3_contrib")
    marker = tmp_path / "pwned"
    evil = crafted_zip(tmp_path / "model.zip", marker)
    with trusting_pickled_models(), pytest.raises(ModelFileError):
        load_policy(evil)
    assert marker.exists()


def test_trust_is_the_command_lines_and_ends_with_the_command():
    from factionsim.models import pickled_models_trusted

    with trusting_pickled_models(False):
        assert not pickled_models_trusted()
    with trusting_pickled_models(True):
        assert pickled_models_trusted()
    assert not pickled_models_trusted()


def test_agent_options_cannot_grant_trust(tmp_path):
    """Trust is not an agent option: a campaign's agent_options cannot switch it on (the
    registry refuses the option; without it the zip is refused for want of --trust-model)."""
    from factionsim.agents import make_agent
    from factionsim.core.game import CampaignError

    evil = crafted_zip(tmp_path / "model.zip", tmp_path / "pwned")
    for option in ("trust_model", "trust"):
        with pytest.raises(CampaignError, match=f"agent 'policy' has no option '{option}'"):
            make_agent(f"policy:{evil}", "wwn", **{option: True})
    with pytest.raises(CampaignError, match="--trust-model"):
        make_agent(f"policy:{evil}", "wwn")
    assert not (tmp_path / "pwned").exists()


# ----------------------------------------------------------------------------- the safe format
def test_write_then_read_gives_the_same_network(tmp_path):
    written = write_policy(tmp_path / "p.json", tiny_description(), tiny_arrays())
    again = read_policy(tmp_path / "p.json")
    obs = np.array([0.1, 0.5, 0.9])
    a = tiny_arrays()
    expected = a["w1"] @ np.tanh(a["w0"] @ obs + a["b0"])
    np.testing.assert_allclose(again.logits(obs), expected, rtol=1e-6)
    np.testing.assert_allclose(written.logits(obs), again.logits(obs))
    assert json.loads((tmp_path / "p.json").read_text())["weights"]["file"] == "p.npz"


def test_writing_twice_gives_identical_bytes(tmp_path):
    write_policy(tmp_path / "a.json", tiny_description(), tiny_arrays())
    write_policy(tmp_path / "b.json", tiny_description(), tiny_arrays())
    assert (tmp_path / "a.npz").read_bytes() == (tmp_path / "b.npz").read_bytes()


def test_float16_storage_halves_the_file_and_computes_in_float64(tmp_path):
    big = {"w0": np.ones((4, 3000)), "b0": np.zeros(4), "w1": np.ones((2, 4))}
    p16 = write_policy(tmp_path / "h.json", tiny_description(3000), big, dtype="float16")
    write_policy(tmp_path / "s.json", tiny_description(3000), big, dtype="float32")
    assert (tmp_path / "h.npz").stat().st_size < (tmp_path / "s.npz").stat().st_size
    assert p16.network.layers[0].weight.dtype == np.float64


def test_a_folder_names_its_policy_json(tmp_path):
    write_policy(tmp_path / "policy.json", tiny_description(), tiny_arrays())
    assert load_policy(tmp_path).n_actions == 2


def _rewrite(tmp_path: Path, change) -> Path:
    write_policy(tmp_path / "p.json", tiny_description(), tiny_arrays())
    d = json.loads((tmp_path / "p.json").read_text())
    change(d)
    (tmp_path / "p.json").write_text(json.dumps(d))
    return tmp_path / "p.json"


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("network"), "missing field"),
    (lambda d: d.update(extra=1), "unknown field"),
    (lambda d: d.update(format="pickle"), "format"),
    (lambda d: d.update(format_version=99), "format_version"),
    (lambda d: d["spaces"].update(actions=-1), "spaces.actions"),
    (lambda d: d["weights"].update(file="../other.npz"), "weights.file"),
    (lambda d: d["weights"].update(sha256="0" * 64), "SHA-256"),
    (lambda d: d["network"]["layers"][0].update(type="conv"), r"layers\[0\].type"),
    (lambda d: d["network"]["layers"][0].update(activation="gelu"), "activation"),
    (lambda d: d["network"]["layers"][1].update(weight="nope"), "does not hold"),
    (lambda d: d["spaces"].update(observation=5), "takes 3 inputs"),
    (lambda d: d["spaces"].update(actions=7), "spaces.actions is 7"),
])
def test_a_damaged_description_is_a_clean_error_naming_the_field(tmp_path, change, message):
    path = _rewrite(tmp_path, change)
    with pytest.raises(ModelFileError, match=message) as err:
        read_policy(path)
    assert str(path) in str(err.value)


def test_not_json_is_a_clean_error_with_its_line(tmp_path):
    (tmp_path / "p.json").write_text('{\n "format": \n}')
    with pytest.raises(ModelFileError, match="line 3"):
        read_policy(tmp_path / "p.json")
    (tmp_path / "deep.json").write_text("[" * 100_000)
    with pytest.raises(ModelFileError):
        read_policy(tmp_path / "deep.json")


def test_an_npz_holding_a_pickled_object_array_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    write_policy(tmp_path / "p.json", tiny_description(), tiny_arrays())
    evil = io.BytesIO()
    np.savez(evil, w0=np.array([_Touch(marker)], dtype=object), b0=np.zeros(4),
             w1=np.zeros((2, 4)))
    (tmp_path / "p.npz").write_bytes(evil.getvalue())
    d = json.loads((tmp_path / "p.json").read_text())
    d["weights"]["sha256"] = hashlib.sha256(evil.getvalue()).hexdigest()
    (tmp_path / "p.json").write_text(json.dumps(d))
    with pytest.raises(ModelFileError, match="cannot read the arrays"):
        read_policy(tmp_path / "p.json")
    assert not marker.exists()


def test_oversized_files_are_refused_before_they_are_read(tmp_path, monkeypatch):
    import factionsim.models.files as files

    write_policy(tmp_path / "p.json", tiny_description(), tiny_arrays())
    monkeypatch.setattr(files, "MAX_ARRAYS_BYTES", 100)
    with pytest.raises(ModelFileError, match="unpack to"):
        read_policy(tmp_path / "p.json")
    monkeypatch.setattr(files, "MAX_DESCRIPTION_BYTES", 10)
    with pytest.raises(ModelFileError, match="at most 10"):
        read_policy(tmp_path / "p.json")


def test_a_missing_policy_is_a_clean_error(tmp_path, capsys):
    campaign = campaign_with_agent(tmp_path, f"policy:{tmp_path / 'none.json'}")
    assert main(["run", str(campaign), "--turns", "1", "--out", str(tmp_path / "o"),
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "no policy description" in err and "silver-guild" in err
