"""Generated documentation stays in step with the data and the code."""

from pathlib import Path

from factionsim.rules.wwn import docs
from factionsim.rules.wwn.data import ASSETS

ROOT = Path(__file__).resolve().parents[1]


def test_assets_md_is_generated_from_the_data() -> None:
    committed = (ROOT / "docs" / "assets.md").read_text(encoding="utf-8")
    assert committed == docs.render(), "run: python -m factionsim.rules.wwn.docs > docs/assets.md"


def test_every_asset_has_one_line() -> None:
    text = docs.render()
    assert len(ASSETS) == 81
    for kind in ASSETS.values():
        assert text.count(f"| `{kind.id}` |") == 1


def test_rule_tables_name_code_and_tests_that_exist() -> None:
    """The "text, rule by rule" tables of the three smaller rulesets point at functions and
    tests that exist (issue 20, item 17)."""
    import re

    for name in ("houses", "engagements", "conflict"):
        doc = (ROOT / "docs" / f"ruleset-{name}.md").read_text(encoding="utf-8")
        table = doc.split("## The text, rule by rule", 1)[1].split("\n## ", 1)[0]
        code = re.findall(r"`([\w/]+\.py):(\w+)`", table)
        tests = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", table)
        assert code and tests, name
        for path, func in code:
            text = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^\s*(def|class) {func}\b", text, re.M), f"{path}:{func}"
        for path, test in tests:
            text = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {test}\(", text, re.M), f"{path}::{test}"
