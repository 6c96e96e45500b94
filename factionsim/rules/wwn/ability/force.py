"""Force asset abilities (registered on import)."""
