"""The list of downloadable speech models (manifest.json), and a place for a model put
here by hand: installed as voice.asr.models (package data, see pyproject.toml's
[tool.setuptools.package-dir]), found by voice.asr.shipped_models_dir. Fetched models go
to the platform data folder."""
