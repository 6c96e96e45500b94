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
