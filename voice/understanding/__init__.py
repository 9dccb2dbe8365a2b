"""Text to intent: a prompt's grammar as a graph of phrases, and the matcher that reads
what was said or typed against it. Nothing here touches audio, so typed play uses it
alone."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "align",
    "clues",
    "commands",
    "corrections",
    "grammar",
    "grammar_decode",
    "grammar_folder",
    "graph",
    "matcher",
    "normalize",
    "phonetic",
    "pronounce",
    "understand",
    "vocabulary",
]
