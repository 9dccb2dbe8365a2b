"""Measurement, apart from the product: `partyhost bench ...` and the scripts in
scripts/ use these. Every bench hears through the same front end, endpointer and reader
as the live ears (partyhost/listening_chain.py), and imports nothing of tests/: the
scripted games and recordings it measures with are found by path (places.py)."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "chatter",
    "commands",
    "held_apart_room",
    "keep_cool",
    "live_satellite",
    "manifest",
    "matcher",
    "model_choice",
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
