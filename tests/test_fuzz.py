"""Fuzzing the campaign commands with mutated campaign files (issue 17, item 5).

Every bundled campaign (``configs/*.yaml``: all four rulesets), as written and saved in the middle
of its first turn, is mutated by hypothesis — wrong types, missing fields, nulls, huge, negative
and NaN numbers, unicode and control characters, duplicate ids, dangling references, unknown
fields, aliases and alias bombs, ``!!python`` tags, deep nesting, truncated text (see
``campaign_fuzz.py``) — and each mutant goes through ``factionsim validate`` in-process; a mutant
that validates goes on through ``show``, ``show --json``, ``report``, ``run --turns 1`` and
``turn`` (whose rewritten file must validate again). Every outcome must be a clean refusal (exit
2, one ``error:`` paragraph naming the file, the file unchanged) or valid play: never a
traceback, never a hang (each command has :data:`campaign_fuzz.CASE_SECONDS`).

The CI part is short: ``FACTIONSIM_FUZZ_EXAMPLES`` mutants (default 200, derandomized so a run
is reproducible; well under a minute). A longer hunt::

    FACTIONSIM_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py -p no:cacheprovider
    python tests/campaign_fuzz.py --examples 5000      # counts outcomes and distinct crash sites
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from campaign_fuzz import Mutant, cli, mutants, run_case, seeds
from hypothesis import HealthCheck, given, settings

EXAMPLES = int(os.environ.get("FACTIONSIM_FUZZ_EXAMPLES", "200"))
POOL = seeds()


@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 200,
          suppress_health_check=list(HealthCheck))
@given(mutants(POOL))
def test_a_mutated_campaign_is_refused_cleanly_or_plays(mutant: Mutant):
    with tempfile.TemporaryDirectory() as tmp:
        outcome = run_case(mutant.text, Path(tmp))
    assert outcome.status != "problem", (
        f"{outcome.site} (seed {mutant.seed}, mutations {mutant.steps}):\n{outcome.detail}")


def test_the_seeds_are_valid_and_play(tmp_path):
    """The unmutated seeds pass every command (so a refusal above is the mutation's doing)."""
    for label, text in POOL:
        work = tmp_path / label.replace(":", "-").replace("@", "-")
        work.mkdir()
        outcome = run_case(text, work)
        assert outcome.status == "valid", f"{label}: {outcome.site} {outcome.detail}"


def test_an_alias_bomb_is_refused_fast_with_the_file_and_line(tmp_path):
    """3.5 KB that would expand to a billion values: refused while parsing, in well under a
    second of work (the case's time bound is the hang detector), naming the limit."""
    from campaign_fuzz import ALIAS_BOMB

    text = (tmp_path / "x").with_name("seed.yaml")
    text.write_text(POOL[0][1] + ALIAS_BOMB)
    rc, _, err, site = cli(["validate", str(text)], seconds=10)
    assert not site and rc == 2
    assert "seed.yaml, line" in err and "aliases" in err and "limit: 10000 values" in err
