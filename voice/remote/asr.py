"""The `wyoming://HOST:PORT` recogniser: each utterance read by a Wyoming ASR server.

A family's home server can run a big Whisper model while the host runs on a Pi.
The utterance goes as Transcribe, AudioStart, AudioChunk..., AudioStop; the server
answers one Transcript. The prompt's phrases go along as the request's
`transcript_terms` (the protocol's field for words to bias towards); servers that
do not read it (wyoming-faster-whisper 3.8.1 reads only the language) transcribe
unsteered, and the matcher maps their text to a phrase as it does for every backend.

A transcript comes with no confidence and no n-best. Confidence is therefore the
matcher's alone: a reading the guards below let through gets confidence 1.0, so
act / "did you mean ...?" / ask again follow the match score exactly as for typed
text (accept_score, confirm_score), and a rival comes only from the matcher's own
rival path (two moves the words sit between). The guards are Whisper's habits on
noise, the same as the local whisper backend's: its stock phrases ("thank you")
and text far longer than any phrase of the prompt, which get confidence 0.
There is no forced scoring, so the check of a word in play or a number said alone
(voice/listening/wordcheck.py) is left out while the server reads; readings made by the
local fallback keep it.

When the server cannot be reached, refuses, or does not answer in time, the
utterance is read by the local recogniser instead, so no reply is lost, and the
table is told once (voice/remote/link.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop

from voice.asr import CompiledCache
from voice.asr.text_guards import HALLUCINATIONS, collapse_repeats
from voice.audio_types import SAMPLE_RATE, Hypothesis, Recognizer, ScoresTexts, TextScores, pcm16
from voice.remote.address import WyomingAddress
from voice.remote.link import FAILURES, Connection, Link, Role, exchange, next_event
from voice.remote.notices import Notices
from voice.understanding.normalize import normalize

ASR_ROLE = Role(
    "asr",
    "speech recogniser",
    gone="My speech recognition server is not answering, so I'm listening on my own for now.",
    back="My speech recognition server is back.",
    instead="the local recogniser is used",
)
REMOTE_CONFIDENCE = 1.0
"""A transcript the guards let through: the matcher's score alone decides (module docstring)."""
ANSWER_TIMEOUT_S = 4.0
"""The whole exchange, audio sent and transcript back, may take this long plus the
utterance's own length; a server that takes longer is slow (voice/remote/link.py)."""
MAX_TERMS = 60
"""Phrases sent as transcript_terms: the matcher orders a prompt's phrases so the
first ones cover every intent (PhraseTable.texts); Whisper's own prompt fits ~60 tokens."""
CHUNK_SAMPLES = SAMPLE_RATE // 2
LANGUAGE = "en"


@dataclass(frozen=True)
class RemotePrompt:
    """A compiled grammar: the phrases (kept for the local fallback) and what is sent."""

    phrases: tuple[str, ...]
    known: frozenset[str]
    terms: tuple[str, ...]
    max_words: int


def transcribe(address: WyomingAddress, audio: np.ndarray, terms: tuple[str, ...]) -> str:
    """The server's transcript of one utterance; raises one of link.FAILURES."""

    async def talk(client: Connection) -> str:
        await client.write_event(Transcribe(language=LANGUAGE, transcript_terms=list(terms) or None).event())
        await client.write_event(AudioStart(rate=SAMPLE_RATE, width=2, channels=1).event())
        data = pcm16(audio)
        step = CHUNK_SAMPLES * 2
        for start in range(0, len(data), step):
            await client.write_event(
                AudioChunk(rate=SAMPLE_RATE, width=2, channels=1, audio=data[start : start + step]).event()
            )
        await client.write_event(AudioStop().event())
        while not Transcript.is_type((event := await next_event(client)).type):
            pass
        return Transcript.from_event(event).text or ""

    return exchange(address, talk, ANSWER_TIMEOUT_S + len(audio) / SAMPLE_RATE)


def judge(text: str, prompt: RemotePrompt) -> Hypothesis | None:
    """The transcript as a hypothesis (None: nothing was said); guarded as in the module docstring."""
    said = normalize(collapse_repeats(text), strip_fillers=False)
    if not said:
        return None
    details: dict[str, Any] = {"text": text}
    if said in HALLUCINATIONS and said not in prompt.known:
        details["rejected"] = "stock hallucination"
    elif len(said.split()) > prompt.max_words + 3:
        details["rejected"] = "longer than any phrase"
    return Hypothesis(said, 0.0 if "rejected" in details else REMOTE_CONFIDENCE, details)


class WyomingRecognizer:
    """audio_types.Recognizer over a Wyoming ASR server, with a local recogniser behind it.

    `local`: builds the local recogniser; it is built in the background at once,
    so a fallback in the middle of a game does not wait for a model to load.
    """

    name = "wyoming"

    def __init__(self, address: WyomingAddress, local: Callable[[], Recognizer], notices: Notices | None = None):
        self.address = address
        self.link = Link(address, ASR_ROLE, notices)
        self._local: Recognizer | None = None
        self._local_error: BaseException | None = None
        self._local_ready = threading.Event()
        self._last_local = False
        self._cache: CompiledCache[RemotePrompt] = CompiledCache(self._build)
        threading.Thread(target=self._load_local, args=(local,), name="local recogniser", daemon=True).start()

    def _load_local(self, build: Callable[[], Recognizer]) -> None:
        try:
            self._local = build()
        except Exception as error:  # reported when the fallback is needed, not here
            self._local_error = error
        finally:
            self._local_ready.set()

    def local(self) -> Recognizer:
        """The local recogniser (waits for it to load); raises what building it raised."""
        self._local_ready.wait()
        if self._local is None:
            raise self._local_error or RuntimeError("the local recogniser did not load")
        return self._local

    def check(self) -> bool:
        """At start: whether the server answers as a recogniser (if not, the table is told)."""
        return self.link.check()

    # ---- the Recognizer protocol ----------------------------------------------

    def compile(self, phrases: list[str]) -> RemotePrompt:
        return self._cache.get(phrases)

    def _build(self, phrases: tuple[str, ...]) -> RemotePrompt:
        return RemotePrompt(
            phrases, frozenset(phrases), phrases[:MAX_TERMS], max((len(p.split()) for p in phrases), default=1)
        )

    def recognize(self, audio: np.ndarray, grammar: RemotePrompt) -> list[Hypothesis]:
        if self.link.use_remote():
            try:
                text = transcribe(self.address, audio, grammar.terms)
            except FAILURES as error:
                self.link.went_wrong(error)  # this utterance is read locally all the same
            else:
                self.link.answered()
                self._last_local = False
                found = judge(text, grammar)
                return [] if found is None else [found]
        local = self.local()
        self._last_local = True
        return local.recognize(audio, local.compile(list(grammar.phrases)))

    def text_scorer(self) -> TextScores | None:
        """The local recogniser's forced scoring, for a reading it made (voice/listening/wordcheck.py
        asks right after recognize, on the same thread); none for the server's."""
        local = self._local if self._last_local else None
        return local.text_scorer() if isinstance(local, ScoresTexts) else None
