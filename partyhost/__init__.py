"""The partyhost application: wires host/ (rules) to voice/ (listening) and the terminal."""

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # the subpackages and modules, imported when used (`python -m partyhost` is __main__)
    "answer_bound",
    "bench",
    "cli",
    "config",
    "connection_limits",
    "conversation",
    "deckcheck",
    "discovery",
    "game_setup",
    "games_folder",
    "grammarcheck",
    "invoked",
    "io_arguments",
    "listening_chain",
    "logs",
    "menu",
    "menu_commands",
    "model_list",
    "model_commands",
    "models",
    "phones",
    "player_names",
    "saved",
    "serve_command",
    "served_games",
    "sitting",
    "speech_time",
    "textio",
    "usage",
    "voiceio",
    "wyoming_service",
]
