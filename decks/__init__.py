"""The shipped decks (questions, Keep Cool words, 1% and Centurion cards), installed
with partyhost as package data.

FOLDER is where they are, found through importlib.resources so an installed
wheel finds its own copy, wherever it is installed.
"""
from importlib import resources
from pathlib import Path

FOLDER = Path(str(resources.files(__name__)))
