"""The asset abilities of sections 6.8.0 (cunning.py), 6.9.0 (force.py) and 6.10.0 (wealth.py),
registered on import with :func:`factionsim.rules.wwn.abilities.register`."""
