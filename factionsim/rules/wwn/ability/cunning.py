"""Cunning asset abilities (registered on import)."""
