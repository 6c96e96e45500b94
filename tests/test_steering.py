"""A GM steers the heuristic and the planner (issue 24 item 6): ``focus``, ``enemy``,
``protect``, ``avoid`` and ``story`` in a faction's ``agent_options`` are checked when the
campaign loads, honoured by both agents at the decision they concern, and named in the reasons.

Map a - b - c; "us" acts first; two rivals whose assets stand with ours at b.
"""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from wwn_helpers import faction, make_state, play_to

from factionsim.agents import make_agent
from factionsim.core.game import CampaignError
from factionsim.rules.wwn import turn as T
from factionsim.rules.wwn.actions import Attack, ChooseAction, ChooseGoal, KeepGoal
from factionsim.rulesets import load_campaign

AGENTS = ("heuristic", "planner")


def _agent(kind: str, **steering):
    extra = {"budget": 4} if kind == "planner" else {}
    return make_agent(kind, "wwn", **extra, **steering)


def decide(state, agent, seed: int = 1):
    actor = state.current_actor()
    legal = state.legal_actions()
    choice = agent.act(state.view(actor), legal, np.random.default_rng(seed))
    assert choice in legal
    return choice, agent.last_reason or ""


def two_rivals(goal: str = "blood-the-enemy", **us):
    """Our Knights at b, with a weak Infantry of "red" and of "blue" there (both hostile)."""
    return make_state([
        faction("us", force=6, treasure=4, goal=goal,
                assets=[{"type": "knights", "location": "b"}], **us),
        faction("red", force=1, headquarters="c",
                assets=[{"type": "infantry", "location": "b", "hp": 1}]),
        faction("blue", force=1, headquarters="c",
                assets=[{"type": "infantry", "location": "b", "hp": 1}])])


def attack_targets(state, agent) -> set[str]:
    """The factions ``agent`` strikes at during its Attack action (empty if it does not attack)."""
    play_to(state, T.ACTION, "us")
    choice, _ = decide(state, agent)
    if choice != ChooseAction("attack"):
        return set()
    state.apply(choice)
    hit = set()
    while state.current_actor() == "us" and state.phase == T.ATTACK:
        choice, why = decide(state, agent)
        if isinstance(choice, Attack):
            hit.add(choice.target)
        state.apply(choice)
        if not isinstance(choice, Attack):
            break
    return hit


@pytest.mark.parametrize("kind", AGENTS)
def test_avoid_attack_is_never_chosen(kind):
    """``avoid: [attack]``: the Attack action is never taken, even at a sure kill (without it,
    the heuristic attacks)."""
    assert attack_targets(two_rivals(), _agent("heuristic"))
    s = two_rivals()
    play_to(s, T.ACTION, "us")
    for seed in range(3):
        choice, _ = decide(s, _agent(kind, avoid=["attack"]), seed)
        assert choice != ChooseAction("attack")


@pytest.mark.parametrize("kind", AGENTS)
def test_protect_spares_a_faction(kind):
    """``protect: red``: red's assets are never attacked; blue's still are (by the heuristic,
    which takes the sure kill; the planner may look further and do something else)."""
    targets = attack_targets(two_rivals(), _agent(kind, protect="red"))
    assert "red" not in targets
    if kind == "heuristic":
        assert targets == {"blue"}
        assert attack_targets(two_rivals(), _agent(kind)) == {"red"}  # unsteered: the first


def test_enemy_is_struck_first_and_named():
    """``enemy: blue``: of two equal blows, the one at its sworn enemy is chosen, and the reason
    says why."""
    s = two_rivals()
    agent = _agent("heuristic", enemy="blue")
    play_to(s, T.ACTION, "us")
    s.apply(decide(s, agent)[0])
    choice, why = decide(s, agent)
    assert isinstance(choice, Attack) and choice.target == "blue"


@pytest.mark.parametrize("kind", AGENTS)
def test_focus_picks_that_goal_and_says_so(kind):
    """``focus: peaceable-kingdom``: with no goal, that goal is chosen (the GM's focus)."""
    s = two_rivals(goal=None)
    play_to(s, T.GOAL, "us")
    choice, why = decide(s, _agent(kind, focus="peaceable-kingdom"))
    assert choice == ChooseGoal("peaceable-kingdom")
    assert "the GM's focus" in why


@pytest.mark.parametrize("kind", AGENTS)
def test_story_keeps_a_goal_it_would_otherwise_drop(kind):
    """``story: true``: a goal long pursued and far from done is kept (no goal shopping); the
    same faction without it abandons the goal."""
    from factionsim.agents.wwn_heuristic import goals as goal_ai

    def stuck():
        s = two_rivals(goal="blood-the-enemy")
        goal = s.factions["us"].goal
        goal.started, goal.progress = -20, 1  # one point of blood in twenty turns
        play_to(s, T.GOAL, "us")
        return s

    s = stuck()
    sit = make_agent("heuristic", "wwn").situation(s.view("us"))
    assert goal_ai.why_abandon(sit, [a for a in s.legal_actions()
                                     if isinstance(a, ChooseGoal)]) is not None
    choice, _ = decide(s, _agent(kind))
    assert isinstance(choice, ChooseGoal)
    s = stuck()
    choice, why = decide(s, _agent(kind, story=True))
    assert isinstance(choice, KeepGoal) and "the story it was given" in why


def test_planner_keeps_a_starting_goal_its_heuristic_keeps():
    """The planner does not shop for an easier goal on turn 1 (item 7): a goal its heuristic
    would keep is kept, without a search."""
    from factionsim import load_campaign as load
    from factionsim.configs import default_campaign_path

    s = load(default_campaign_path())
    planner = make_agent("planner", "wwn", budget=4)
    seen = 0
    while s.turn < 1 and s.current_actor() is not None:
        actor = s.current_actor()
        legal = s.legal_actions()
        choice = planner.act(s.view(actor), legal, np.random.default_rng(0))
        if s.phase == T.GOAL and any(isinstance(a, KeepGoal) for a in legal):
            verdict = planner.heuristic.goal_verdict(s.view(actor), legal)
            assert choice == verdict
            seen += 1
        s.apply(choice)
    assert seen >= 1


CAMPAIGN = """\
ruleset: wwn
locations:
  - {id: a}
factions:
  - {id: red, force: 3, cunning: 3, wealth: 3, headquarters: a, agent: heuristic}
  - {id: blue, force: 3, cunning: 3, wealth: 3, headquarters: a}
"""


@pytest.mark.parametrize("kind", AGENTS)
@pytest.mark.parametrize("options, message", [
    ({"enemy": "green"}, "option 'enemy' must name another faction of this campaign"),
    ({"protect": "red"}, "option 'protect' must name another faction of this campaign"),
    ({"avoid": ["attak"]}, "option 'avoid'"),
    ({"focus": "world-peace"}, "option 'focus'"),
    ({"story": "yes"}, "option 'story'"),
])
def test_steering_options_are_checked(tmp_path, kind, options, message):
    """Bad steering is refused when the campaign loads, naming the faction's field."""
    data = yaml.safe_load(CAMPAIGN)
    data["factions"][0].update(agent=kind, agent_options=options)
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(CampaignError) as err:
        load_campaign(path)
    assert message in str(err.value) and "agent_options" in str(err.value)


@pytest.mark.parametrize("kind", AGENTS)
def test_good_steering_loads(tmp_path, kind):
    data = yaml.safe_load(CAMPAIGN)
    data["factions"][0].update(agent=kind, agent_options={
        "enemy": "blue", "avoid": ["hide", "sell"], "focus": "expand-influence", "story": True})
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    assert load_campaign(path).factions["red"].agent_options["enemy"] == "blue"
