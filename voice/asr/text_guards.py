"""Whisper's text guards, for every Whisper: the shipped one (voice/asr/whisper.py) and one
behind a Wyoming server (voice/remote/asr.py) write the same stock phrases out of silence
and loop on short clips the same way."""

from __future__ import annotations

import re

from voice.understanding.normalize import normalize

HALLUCINATIONS = frozenset(
    {
        "you",
        "thank you",
        "thank you very much",
        "thanks",
        "thanks for watching",
        "thank you for watching",
        "bye",
        "bye bye",
        "music",
        "applause",
        "laughter",
        "subtitles by the amara org community",
        "i'm sorry",
        "the end",
    }
)


def collapse_repeats(text: str) -> str:
    """ "Seven. Seven. Seven" -> "Seven.": Whisper loops on a short clip; say it once."""
    chunks = [c.strip() for c in re.split(r"(?<=[.,?!;])\s+", text.strip()) if c.strip()]
    kept: list[str] = []
    for i, chunk in enumerate(chunks):
        said = normalize(chunk, strip_fillers=False)
        before = normalize(kept[-1], strip_fillers=False) if kept else None
        last = i == len(chunks) - 1  # may be cut off by max_new_tokens
        if before is not None and (said == before or (last and before.startswith(said))):
            continue
        kept.append(chunk)
    return " ".join(kept)
