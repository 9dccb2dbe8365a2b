"""Frames to a reply: devices and files in, the front end's gain, the endpointer, the
recogniser's reading of one utterance, the checks on it, and the ears that hand the
session what was understood."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "attention",
    "audio_in",
    "ears",
    "endpoint",
    "frontend",
    "likeness",
    "nearest",
    "onset",
    "pipeline",
    "reading",
    "second_opinion",
    "steering",
    "turns",
    "wake",
    "wordcheck",
]
