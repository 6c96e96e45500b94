"""Interactive and manual play as a GM uses it: prompts only at real choices, the faction's sheet
and each option's cost, stats and odds at every prompt, outcomes as they happen, a summary after
each turn, and an interruption that says what was saved. Driven with fed input."""

from __future__ import annotations

import io
import re
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from factionsim.agents import make_agent
from factionsim.agents.manual import GmReview, ManualAgent, Table
from factionsim.cli import main
from factionsim.configs import default_campaign_path
from factionsim.rules.wwn.actions import Attack, Create, Hide, Sell
from factionsim.rules.wwn.advice import action_note
from factionsim.rulesets import load_campaign, ruleset_of


@pytest.fixture()
def campaign(tmp_path: Path) -> Path:
    path = tmp_path / "march.yaml"
    shutil.copy(default_campaign_path(), path)
    return path


def manual(path: Path, faction: str) -> None:
    """Make ``faction`` (an id of the bundled campaign) a manual faction."""
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(f"id: {faction}")
    path.write_text(head + f"id: {faction}" + rest.replace("agent: heuristic", "agent: manual", 1),
                    encoding="utf-8")


class Keyboard:
    """The GM's keyboard: answers each prompt with ``answer(prompt)`` (what was printed since
    the last answer), counts the prompts, and can press Ctrl-C at prompt ``interrupt_at``."""

    def __init__(self, capsys: pytest.CaptureFixture[str], answer: Any,
                 interrupt_at: int | None = None):
        self.capsys, self.answer, self.interrupt_at = capsys, answer, interrupt_at
        self.prompts: list[str] = []

    def readline(self) -> str:
        prompt = self.capsys.readouterr().out
        self.prompts.append(prompt)
        if self.interrupt_at is not None and len(self.prompts) >= self.interrupt_at:
            raise KeyboardInterrupt
        return self.answer(prompt) + "\n"

    @property
    def seen(self) -> str:
        return "".join(self.prompts)


# ------------------------------------------------------------------ a prompt only at a real choice
def test_the_gm_is_asked_only_where_there_is_a_real_choice(campaign: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """Every decision of the manual faction with one legal action is taken without a prompt;
    every one with more is asked, and shows the faction's HP, Treasure and goal."""
    manual(campaign, "ashen-flame")
    asked: list[int] = []
    real = ManualAgent.act

    def counting(self: ManualAgent, view: Any, legal: list[Any], rng: Any) -> Any:
        asked.append(len(legal))
        return real(self, view, legal, rng)

    monkeypatch.setattr(ManualAgent, "act", counting)
    keys = Keyboard(capsys, lambda prompt: "1")
    monkeypatch.setattr("sys.stdin", keys)
    assert main(["turn", str(campaign), "--turns", "2"]) == 0
    real_choices = sum(1 for n in asked if n > 1)
    assert real_choices and len(keys.prompts) == real_choices
    for prompt in keys.prompts:
        header = [line for line in prompt.splitlines() if line.startswith("Turn ")][-1]
        assert re.search(r"The Cult of the Ashen Flame: HP \d+/\d+, Treasure \d+, XP \d+, goal ",
                         header), header


def test_review_skips_plans_that_do_nothing_more_unless_asked_always() -> None:
    state = load_campaign(default_campaign_path())
    view, legal = state.view(state.current_actor()), state.legal_actions()
    done = next(a for a in legal if str(a) == "done")

    class Idle:
        name, last_reason, pending_events = "idle", "nothing to do", []

        def act(self, view: Any, legal: list[Any], rng: Any) -> Any:
            return done

    quiet = GmReview(Idle(), input=io.StringIO(""), output=io.StringIO())  # no input needed
    assert quiet.act(view, legal, None) is done
    out = io.StringIO()
    always = GmReview(Idle(), input=io.StringIO("a\n"), output=out, ask_always=True)
    assert always.act(view, legal, None) is done
    assert "plans: done" in out.getvalue()


# ------------------------------------------------------------------ options: cost, stats, odds
def _kept_high(dice: int) -> dict[int, Fraction]:
    """The highest of ``dice`` d10, counted out face by face."""
    return {k: Fraction(k ** dice - (k - 1) ** dice, 10 ** dice) for k in range(1, 11)}


def test_an_attack_option_shows_the_chance_to_hit_the_rules_give() -> None:
    # "The attacker wins if their total is higher, and the defender wins if it's a tie or their
    # roll is higher" (6.6.0). The Iron Legion's Cavalry (Force vs Force) rolls 1d10 + Force 7
    # against the Cult's 1d10 + Force 3, and the Legion is Martial: "It rolls an extra die for
    # all Force attribute checks" (the highest die kept). We count it here, face by face, and
    # read it in the option's note.
    state = load_campaign(default_campaign_path())
    state.assets["cavalry#4"].location = "greymoor"
    legion, cult = state.factions["iron-legion"], state.factions["ashen-flame"]
    text = action_note(state, Attack("cavalry#4", "ashen-flame"))
    dice = 2 if legion.has_tag("martial") else 1
    hit = sum(p * Fraction(min(max(a + legion.force - cult.force - 1, 0), 10), 10)
              for a, p in _kept_high(dice).items())
    assert f"hit {round(100 * hit)}%" in text
    assert text.startswith("Cavalry (12/12 HP), Force vs Force 2d6")


@pytest.mark.parametrize(("action", "words"), [
    # "Create Asset: ... must pay the listed cost in Treasure": Infantry costs 6
    (Create("infantry", "tarsis"), ["6 Treasure", "Infantry: Force 3, 6 HP"]),
    # "give one owned Asset the Stealth quality for every 2 Treasure they spend"
    (Hide("informers#7"), ["2 Treasure", "Informers (3/3 HP) gains Stealth"]),
    # selling: half the purchase cost, rounded down (Knights cost 6... see assets.md)
    (Sell("knights#1"), ["gains", "Treasure for Knights (16/16 HP)"]),
])
def test_option_notes_give_costs_and_stats(action: Any, words: list[str]) -> None:
    state = load_campaign(default_campaign_path())
    text = action_note(state, action)
    for word in words:
        assert word in text, (word, text)


def test_sell_note_gives_half_the_cost_rounded_down() -> None:
    from factionsim.rules.wwn.data import ASSET_TYPES

    state = load_campaign(default_campaign_path())
    assert action_note(state, Sell("knights#1")).startswith(
        f"gains {ASSET_TYPES['knights'].cost // 2} Treasure")


def test_every_prompt_option_carries_its_note(campaign: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    manual(campaign, "iron-legion")
    keys = Keyboard(capsys, lambda prompt: "1")
    monkeypatch.setattr("sys.stdin", keys)
    assert main(["turn", str(campaign)]) == 0
    options = re.findall(r"^ +\d+\. (.*)$", keys.seen, re.MULTILINE)
    noted = [o for o in options if o not in ("done", "keep goal", "decline")]
    assert noted and all(re.search(r"  \[.+\]$", o) for o in noted), noted


# ------------------------------------------------------------------ outcomes and summaries
def test_each_accepted_action_is_followed_by_its_outcome(campaign: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    keys = Keyboard(capsys, lambda prompt: "a")
    monkeypatch.setattr("sys.stdin", keys)
    assert main(["turn", str(campaign), "--interactive"]) == 0
    after = keys.prompts[1:] + [capsys.readouterr().out]
    for prompt, following in zip(keys.prompts, after, strict=True):
        plan = re.findall(r"plans: (\S+ \S+)", prompt)[-1]
        told = [line for line in following.splitlines() if line.startswith("   ")]
        assert told, (plan, following)  # something the accepted plan did, in prose
    assert "Turn 1 saved in" in after[-1]
    for name in ("The Iron Legion: HP", "The Silver Guild: HP", "The Veiled Hand: HP"):
        assert name in after[-1]


def test_ctrl_c_says_which_turns_were_saved(campaign: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    manual(campaign, "iron-legion")
    first = Keyboard(capsys, lambda prompt: "1")
    monkeypatch.setattr("sys.stdin", first)
    assert main(["turn", str(campaign), "--quiet"]) == 0
    per_turn = len(first.prompts)
    campaign_after_one = campaign.read_bytes()
    assert main(["undo", str(campaign), "--quiet"]) == 0
    keys = Keyboard(capsys, lambda prompt: "1", interrupt_at=per_turn + 1)
    monkeypatch.setattr("sys.stdin", keys)
    assert main(["turn", str(campaign), "--turns", "3"]) == 130
    err = capsys.readouterr().err
    assert "turn 1 was saved (" in err and "is at turn 1)" in err
    assert "turn 2, in progress, was not saved" in err
    assert "was not changed" not in err
    assert campaign.read_bytes() == campaign_after_one


def test_input_ending_in_a_later_turn_keeps_the_turns_played(campaign: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    manual(campaign, "iron-legion")
    first = Keyboard(capsys, lambda prompt: "1")
    monkeypatch.setattr("sys.stdin", first)
    assert main(["turn", str(campaign), "--quiet"]) == 0
    main(["undo", str(campaign), "--quiet"])
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * len(first.prompts)))
    assert main(["turn", str(campaign), "--turns", "2"]) == 2
    err = capsys.readouterr().err
    assert "input ended" in err and "turn 1 was saved" in err
    assert load_campaign(campaign).turn == 1


def test_table_without_a_ruleset_shows_names_and_actions() -> None:
    assert Table().with_note(None, "done") == "done"
    state = load_campaign(default_campaign_path())
    table = Table(ruleset_of(state).present, state)
    view = state.view("iron-legion")
    assert table.sheet(view).startswith("The Iron Legion: HP 32/32, Treasure")
    assert make_agent("manual", "wwn").act(view, ["only"], None) == "only"
