"""Measurement, apart from the product: `partyhost bench ...` and the scripts in
scripts/ use these. Every bench hears through the same front end, endpointer and reader
as the live ears."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "chatter",
    "commands",
    "keep_cool",
    "manifest",
    "matcher",
    "pace",
    "synthetic_speech",
    "table",
    "table_player",
    "wake",
]
