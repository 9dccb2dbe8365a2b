"""Listening and understanding: everything between sound and an Intent. No game rules."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "asr",
    "audio_types",
    "cores",
    "devices",
    "listening",
    "pinned",
    "recognizers",
    "remote",
    "speaking",
    "understanding",
    "wake_words",
]
