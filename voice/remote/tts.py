"""The `wyoming://HOST:PORT` voice: the host's sentences synthesised by a Wyoming TTS server.

It is the mouth's Speaker (voice/speaking/mouth.py), as the local voice.speaking.tts.PiperTTS is, and
keeps what the mouth relies on from it: the text cut into the same pieces
(voice.speaking.tts.speech_pieces: a long first sentence at its first clause, so speaking
starts soon), each piece yielded as soon as it is there, short pieces cached
(names and stock phrases recur all game), audio at one `sample_rate` (the local
voice's; the server's is resampled to it), peak-normalised and scaled by `volume`.

A Wyoming Synthesize request has no speed, so at any `rate` other than normal the
local Piper voice speaks, at that rate: a player who asks for "slower" gets it.
When the server cannot be reached or fails, the local voice speaks the rest, and
the table is told once (voice/remote/link.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.tts import Synthesize

from voice.remote.address import WyomingAddress
from voice.remote.link import FAILURES, Connection, Link, Role, ServerError, exchange, next_event
from voice.remote.notices import Notices
from voice.speaking.tts import CACHE_MAX_CHARS, CACHE_PIECES, HEADROOM, PiperTTS, speech_pieces

TTS_ROLE = Role(
    "tts",
    "voice server",
    gone="My voice server is not answering, so I'm speaking with my own voice for now.",
    back="My voice server is back.",
    instead="the local Piper voice speaks",
)
ANSWER_TIMEOUT_S = 4.0
SECONDS_PER_CHARACTER = 0.08
"""A piece's whole answer may take ANSWER_TIMEOUT_S plus this per character (about
its length spoken); a server that takes longer is slow (voice/remote/link.py)."""
LONGEST_PIECE_S = 60.0
"""More audio than this for one piece is not speech of it: the server is broken."""


def synthesize_remote(address: WyomingAddress, text: str) -> tuple[np.ndarray, int]:
    """One piece of text from the server: float32 mono audio and its rate; raises link.FAILURES."""

    async def talk(client: Connection) -> tuple[np.ndarray, int]:
        await client.write_event(Synthesize(text=text).event())
        chunks: list[np.ndarray] = []
        rate, width, channels, samples = 22050, 2, 1, 0
        while not AudioStop.is_type((event := await next_event(client)).type):
            if AudioStart.is_type(event.type):
                start = AudioStart.from_event(event)
                rate, width, channels = start.rate, start.width, start.channels
            elif AudioChunk.is_type(event.type):
                chunk = AudioChunk.from_event(event)
                rate, width, channels = chunk.rate, chunk.width, chunk.channels
                chunks.append(_samples(chunk.audio, width, channels))
                samples += len(chunks[-1])
                if samples > LONGEST_PIECE_S * max(rate, 1):
                    raise ServerError(f"it sent more than {LONGEST_PIECE_S:g} s of audio for one sentence")
        return (np.concatenate(chunks) if chunks else np.zeros(0, np.float32)), rate

    return exchange(address, talk, ANSWER_TIMEOUT_S + SECONDS_PER_CHARACTER * len(text))


def _samples(data: bytes, width: int, channels: int) -> np.ndarray:
    if width != 2:
        raise ValueError(f"the server sent {width * 8}-bit audio; 16-bit was expected")
    audio = np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0
    return audio.reshape(-1, channels).mean(axis=1) if channels > 1 else audio


class WyomingVoice:
    """voice.speaking.mouth.Speaker over a Wyoming TTS server, with the local Piper voice behind it."""

    def __init__(self, address: WyomingAddress, local: PiperTTS, notices: Notices | None = None):
        self.address, self.local_voice = address, local
        self.link = Link(address, TTS_ROLE, notices)
        self.sample_rate: int = local.sample_rate
        self.rate, self.volume = local.rate, local.volume
        self._piece = lru_cache(maxsize=CACHE_PIECES)(self._fetch)

    def check(self) -> bool:
        """At start: whether the server answers as a voice (if not, the table is told)."""
        return self.link.check()

    @property
    def rate(self) -> float:
        return self.local_voice.rate

    @rate.setter
    def rate(self, value: float) -> None:
        self.local_voice.rate = value

    @property
    def volume(self) -> float:
        return self.local_voice.volume

    @volume.setter
    def volume(self, value: float) -> None:
        self.local_voice.volume = value

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        """float32 mono audio at `sample_rate`, one piece at a time (module docstring)."""
        if abs(self.rate - 1.0) > 1e-3:
            yield from self.local_voice.synthesize(text)
            return
        gain = np.float32(self.volume * HEADROOM)
        for piece in speech_pieces(text):
            audio = None
            if self.link.use_remote():
                try:
                    audio = self._piece(piece) if len(piece) <= CACHE_MAX_CHARS else self._fetch(piece)
                except FAILURES as error:
                    self.link.went_wrong(error)  # this piece is spoken locally all the same
                else:
                    self.link.answered()
            if audio is None:
                yield from self.local_voice.synthesize(piece)
            else:
                yield audio * gain

    def _fetch(self, piece: str) -> np.ndarray:
        """A piece from the server, at `sample_rate`, peaks at full scale (as Piper normalises)."""
        audio, rate = synthesize_remote(self.address, piece)
        if rate != self.sample_rate and len(audio):
            import soxr

            audio = soxr.resample(audio, rate, self.sample_rate).astype(np.float32)
        peak = float(np.max(np.abs(audio))) if len(audio) else 0.0
        audio = audio / peak if peak > 0 else audio
        audio.setflags(write=False)
        return audio
