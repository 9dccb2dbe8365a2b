"""The shipped decks (questions, Keep Cool words, 1% and Centurion cards, word lists):
installed as host.deck_files (package data, see pyproject.toml's [tool.setuptools.package-dir]),
found by host.decks.default_deck_dir."""
