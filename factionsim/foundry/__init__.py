"""Foundry VTT round trip for Worlds Without Number factions (``factionsim foundry``).

- :mod:`.importer`: faction actors (Foundry's Export Data) -> a campaign file;
- :mod:`.exporter`: a campaign file -> actor files for Foundry's Import Data;
- :mod:`.actor`: the actor's shape (fields, types, key order), reading and writing it;
- :mod:`.block`: the campaign's ``foundry`` block, the actors as imported;
- :mod:`.names`: Foundry's free text matched to asset, goal, tag and place ids;
- :mod:`.log`: the chronicle's lines as log entries;
- :mod:`.jsonio`: bounded JSON reading, deterministic writing.

The GM's guide is ``docs/foundry.md``; the format is described in the reference the project
keeps beside the code (``foundry_wwn_faction.md``).
"""
