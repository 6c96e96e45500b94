"""Wealth asset abilities (registered on import)."""
