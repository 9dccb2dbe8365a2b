"""The list of downloadable speech models (manifest.json), installed with partyhost
as package data. The models themselves are fetched into the platform data folder.

FOLDER and MANIFEST are found through importlib.resources so an installed wheel finds its own copy.
"""
from importlib import resources
from pathlib import Path

FOLDER = Path(str(resources.files(__name__)))
MANIFEST = FOLDER / "manifest.json"
