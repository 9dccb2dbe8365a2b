"""The lab: benches that play partyhost's games at a simulated table, and the scripted games
they play (lab/scripted_games). Installed from a checkout beside partyhost (scripts/bench,
scripts/test), never in its wheel. Every bench hears through the product's own front end,
endpointer and reader (partyhost/listening_chain.py), and imports nothing of tests/."""

# the modules: importing this package imports none of them
__all__ = [
    "chatter",
    "commands",
    "held_apart_room",
    "keep_cool",
    "live_satellite",
    "matcher",
    "pace",
    "places",
    "satellite_mic",
    "scripted",
    "serve",
    "serve_player",
    "spoken_commands",
    "synthetic_speech",
    "table",
    "table_player",
    "table_speech",
    "wake",
]
