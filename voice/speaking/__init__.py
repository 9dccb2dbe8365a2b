"""A prompt to sound: the neural voice, the cues, their mixing and the speaker."""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "audio_out",
    "cues",
    "mixing",
    "mouth",
    "tts",
]
