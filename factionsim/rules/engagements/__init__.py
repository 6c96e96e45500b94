"""Anima Prime pillars, faction dice and engagements (seed 000, "9.7 Engagements").

Modules: ``model`` (pillars, factions, settings), ``dice`` (successes and wounds), ``actions``
(decisions with a text form), ``turn`` (the faction turn as decision points), ``engagement``
(the eight steps, counters, combined engagements, mercenaries), ``state`` (the engine contract),
``validate`` (scenario files), ``prose`` and ``present`` (chronicle and reports).
"""
