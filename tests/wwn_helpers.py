"""Builders for small hand-made WWN situations and dice that roll what a test says."""

from __future__ import annotations

from typing import Any

import numpy as np

from factionsim.rules.wwn.state import WwnState


class ScriptedRng:
    """Stands in for ``numpy.random.Generator``: ``integers`` returns the scripted values in order.

    Each value is checked against the range asked for, so a script that does not match the dice
    the rules roll fails loudly. ``remaining`` tells what was not consumed.
    """

    def __init__(self, *values: int):
        self.values = list(values)
        self.calls: list[tuple[int, int, int | None]] = []

    def integers(self, low: int, high: int | None = None, size: int | None = None):
        if high is None:
            low, high = 0, low
        self.calls.append((low, high, size))
        n = 1 if size is None else size
        if len(self.values) < n:
            raise AssertionError(f"dice script exhausted: asked for {n} value(s) in [{low},{high})")
        out = [self.values.pop(0) for _ in range(n)]
        for v in out:
            if not low <= v < high:
                raise AssertionError(f"scripted value {v} outside [{low},{high})")
        return out[0] if size is None else np.array(out)

    @property
    def remaining(self) -> list[int]:
        return list(self.values)


def faction(fid: str, force: int = 3, cunning: int = 3, wealth: int = 3,
            **kw: Any) -> dict[str, Any]:
    """A faction entry with sensible defaults; ``headquarters`` defaults to the first location."""
    d = {"id": fid, "name": fid.title(), "force": force, "cunning": cunning, "wealth": wealth,
         "magic": kw.pop("magic", "none"), "treasure": kw.pop("treasure", 0),
         "tags": kw.pop("tags", []), "agent": "idle", "assets": kw.pop("assets", [])}
    d.update(kw)
    return d


def make_state(factions: list[dict[str, Any]], locations: list[dict[str, Any]] | None = None,
               relations: list[list[str]] | None = None, rng: Any = None,
               **extra: Any) -> WwnState:
    """A state from plain data. Default map: a - b - c in a line, no rulers.

    Factions without ``headquarters`` get the first location. ``rng`` (e.g. a
    :class:`ScriptedRng`) replaces the dice after loading.
    """
    locations = locations or [
        {"id": "a", "neighbors": ["b"]}, {"id": "b", "neighbors": ["c"]}, {"id": "c"}]
    for f in factions:
        f.setdefault("headquarters", locations[0]["id"])
    s = WwnState.from_dict({"ruleset": "wwn", "name": "test", "seed": 1, "turn": 0,
                            "locations": locations, "relations": relations or [],
                            "factions": factions, **extra})
    if rng is not None:
        s.rng = rng
    return s


def refused_at_line(folder: Any, campaign: Any, old: str, new: str, where: str) -> None:
    """``campaign`` with its line ``old`` written as ``new`` is refused, the message naming the
    file, that line's number and ``where`` (a regular expression: the field path)."""
    import pytest

    from factionsim.core.game import CampaignError
    from factionsim.rulesets import load_campaign

    text = campaign.read_text().replace(old, new)
    path = folder / "c.yaml"
    path.write_text(text)
    line = text.splitlines().index(new) + 1
    with pytest.raises(CampaignError, match=rf"c.yaml, line {line}, {where}"):
        load_campaign(path)


def saved_and_loaded(state: WwnState, folder: Any) -> tuple[str, WwnState]:
    """``state`` written as a campaign file in ``folder`` and loaded again: the file's text and
    the loaded state, which is checked to write the very same text."""
    from factionsim.core.campaign import dump_campaign_data
    from factionsim.rulesets import load_campaign

    text = dump_campaign_data(state.to_dict())
    path = folder / "saved.yaml"
    path.write_text(text)
    again = load_campaign(path)
    assert dump_campaign_data(again.to_dict()) == text
    return text, again


def asset(state: WwnState, owner: str, type_id: str) -> Any:
    """The first asset of ``type_id`` owned by ``owner``."""
    return next(a for a in state.assets.values() if a.owner == owner and a.type == type_id)


def play_to(state: WwnState, phase: str, actor: str | None = None) -> None:
    """Advance with idle choices until ``phase`` (and ``actor``) is the decision point."""
    for _ in range(200):
        state.current_actor()
        if state.phase == phase and (actor is None or state.actor == actor):
            return
        legal = state.legal_actions()
        texts = {str(a): a for a in legal}
        choice = next((texts[t] for t in ("action pass", "keep goal", "done") if t in texts),
                      legal[0])
        state.apply(choice)
    raise AssertionError(f"never reached phase {phase} for {actor}")


def do(state: WwnState, text: str, *dice: int) -> list:
    """Apply the action written ``text`` with exactly ``dice`` scripted for it (none: it must roll
    nothing); returns its events."""
    from factionsim.rules.wwn.actions import parse_action

    state.rng = ScriptedRng(*dice)
    events = state.apply(parse_action(text))
    assert state.rng.remaining == [], f"dice not rolled: {state.rng.remaining}"
    return events


def attack_event(state: WwnState, order: str, *dice: int) -> Any:
    """Play to red's Faction Action, choose Attack and make the attack written ``order`` (e.g.
    ``"attack infantry#1 -> blue"``) with exactly ``dice``; returns the ``attack`` event."""
    play_to(state, "action", "red")
    do(state, "action attack")
    return next(e for e in do(state, order, *dice) if e.kind == "attack")


def check_two_extra_defence_dice(state: WwnState, defender: Any) -> None:
    """Red's ``infantry#1`` attacks blue's ``defender``, whose defence gets two extra dice (a
    homebrew asset's or tag's): blue rolls three dice (5, 6, 2) and keeps the 6; red's 9+3 beats
    6+3 and the 1d8 damage, 4, comes off ``defender``."""
    hp = defender.hp
    att = attack_event(state, "attack infantry#1 -> blue", 9, 5, 6, 2, 4)
    assert att.data["defender_check"]["roll"] == [5, 6, 2] and att.data["success"] is True
    assert defender.hp == hp - 4


def check_one_extra_expand_die(state: WwnState) -> None:
    """Red expands to b (its only place without a Base), where blue has an asset, with one extra
    die (a homebrew asset's or tag's): red rolls two dice (2, 9) against blue's one (5) and wins."""
    play_to(state, "action", "red")
    do(state, "action expand")
    ev = do(state, "base hp 1", 2, 9, 5)
    check = next(e for e in ev if e.kind == "expand-check")
    assert check.data["attacker_check"]["roll"] == [2, 9] and check.data["success"] is True


def texts(state: WwnState) -> list[str]:
    """The text forms of the legal actions."""
    return [str(a) for a in state.legal_actions()]


def apply_text(state: WwnState, text: str, *dice: int) -> list:
    """Apply the action written ``text``; with ``dice``, script them first (without, the state's
    dice stay as they are, unlike :func:`do`); returns its events."""
    from factionsim.rules.wwn.actions import parse_action

    if dice:
        state.rng = ScriptedRng(*dice)
    return state.apply(parse_action(text))


def apply_texts(state: WwnState, *action_texts: str) -> list:
    """Apply actions by their text form, in order; returns the events of all of them."""
    from factionsim.rules.wwn.actions import parse_action

    events = []
    for text in action_texts:
        events += state.apply(parse_action(text))
    return events


def legal_set(state: WwnState) -> set[str]:
    """The text forms of the legal actions, as a set."""
    return set(texts(state))


def generated_and_played(path: Any, turns: int, *options: str) -> Any:
    """``factionsim new PATH OPTIONS --quiet`` then ``factionsim turn PATH --turns TURNS``: a
    generated campaign with a recorded history, as a GM makes one; returns ``path``."""
    from factionsim.cli import main

    assert main(["new", str(path), *options, "--quiet"]) == 0
    assert main(["turn", str(path), "--turns", str(turns), "--quiet"]) == 0
    return path
