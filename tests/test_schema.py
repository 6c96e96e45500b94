"""The JSON Schema of campaign files agrees with the bundled and generated campaigns."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.rules.wwn.generate import generate_campaign
from factionsim.rulesets import get_ruleset


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    wwn = get_ruleset("wwn")
    schema = wwn.schema([spec.usage for spec in wwn.agents])
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_bundled_campaign_validates(validator: jsonschema.Draft202012Validator) -> None:
    validator.validate(yaml.safe_load(default_campaign_path().read_text()))


def test_generated_and_saved_campaigns_validate(validator: jsonschema.Draft202012Validator,
                                                tmp_path: Path) -> None:
    validator.validate(generate_campaign(seed=3))
    path = tmp_path / "c.yaml"
    main(["new", str(path), "--seed", "3", "--agent", "random", "--quiet"])
    main(["turn", str(path), "--turns", "2", "--quiet"])
    validator.validate(yaml.safe_load(path.read_text()))


@pytest.mark.parametrize("patch", [
    {"factions": [{"id": "x", "force": 9, "cunning": 1, "wealth": 1, "headquarters": "a"}]},
    {"factions": [{"id": "x", "force": 2, "cunning": 1, "wealth": 1, "headquarters": "a",
                   "assets": [{"type": "infantri", "location": "a"}]}]},
    {"factions": [{"id": "x", "force": 2, "cunning": 1, "wealth": 1, "headquarters": "a",
                   "tags": ["grumpy"]}]},
    {"ruleset": "d20"},
])
def test_bad_campaigns_are_refused(validator: jsonschema.Draft202012Validator, patch: dict) -> None:
    data = {"ruleset": "wwn", "locations": [{"id": "a"}],
            "factions": [{"id": "x", "force": 2, "cunning": 1, "wealth": 1, "headquarters": "a"}]}
    validator.validate(data)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**data, **patch})


def test_schema_command_prints_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    out = tmp_path / "wwn.schema.json"
    assert main(["schema", "-o", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text()) == printed


def test_schema_names_the_agents_wwn_offers(validator: jsonschema.Draft202012Validator) -> None:
    """The schema's agents are the ones the WWN descriptor offers (one list, no copy)."""
    data = {"ruleset": "wwn", "locations": [{"id": "a"}],
            "factions": [{"id": "x", "force": 2, "cunning": 1, "wealth": 1, "headquarters": "a"}]}
    for agent in ("planner", "heuristic", "policy:runs/model.zip"):
        validator.validate({**data, "factions": [{**data["factions"][0], "agent": agent}]})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**data, "factions": [{**data["factions"][0], "agent": "heuristc"}]})


def test_schema_command_refuses_a_ruleset_without_a_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--ruleset", "houses"]) == 2
    assert "no JSON Schema for the houses ruleset" in capsys.readouterr().err
