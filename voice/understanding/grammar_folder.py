"""Where the grammar files are: the grammars/ folder of the checkout, installed with
partyhost as the package data voice.understanding.grammars (no top-level `grammars`
name in site-packages). importlib.resources finds it in a wheel and in an editable install."""

from importlib import resources
from pathlib import Path

GRAMMAR_DIR = Path(str(resources.files("voice.understanding.grammars")))
"""The folder of grammars/NAME.yaml and grammars/pronunciations.dict."""
