"""The grammar files: installed as voice.understanding.grammars (package data, see
pyproject.toml's [tool.setuptools.package-dir]), found by voice/understanding/grammar_folder.py."""
