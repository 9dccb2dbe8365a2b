"""The partyhost application: wires host/ (rules) to voice/ (listening) and the terminal."""

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # the subpackages and modules, imported when used (`python -m partyhost` is __main__)
    "bench",
    "cli",
    "config",
    "conversation",
    "deckcheck",
    "discovery",
    "grammarcheck",
    "menu",
    "model_choice",
    "models",
    "phones",
    "saved",
    "served_table",
    "textio",
    "voiceio",
    "wyoming_service",
]
