"""Game rules, sessions and persistence: everything but audio."""
