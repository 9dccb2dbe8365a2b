"""The `pocketsphinx` backend: a finite-state grammar of the prompt's phrases.

The phrases become one prefix tree (a finite-state grammar built directly with
Decoder.create_fsg, no JSGF text to parse), so thousands of phrases compile in
milliseconds and decode fast. Such a decoder forces every sound onto some phrase,
so each reading gets a real confidence from two unconstrained looks at the audio:

- phone-loop agreement: the same audio decoded by PocketSphinx's phone recogniser
  (no grammar, only a phone bigram) gives a phone string; the closer it is to the
  hypothesis's pronunciation (1 - edit distance / length), the likelier the phrase
  was really said. Noise gives silence or a few random phones; other words give
  other phones;
- acoustic fit: the hypothesis is force-aligned (words, then phones) and its score
  per speech frame is compared with the best senone of each frame (PocketSphinx
  normalises every frame's scores by that best one).

raw = agreement + 0.01 x fit (the weight that separated speech from negatives best
on the tune speakers; details["raw"]); the acceptance line was tuned on held-apart
speakers (docs/lab/recognition.md). A decode that ends off the grammar's final state
(the decoder's best partial path) or only in silence is rejected outright.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import numpy as np

from voice.asr import CompiledCache, ModelMissingError, calibrate
from voice.audio_types import Hypothesis, pcm16
from voice.understanding.pronounce import extra_words, sphinx_entries, spoken
from voice.understanding.vocabulary import EXTRA_PRONUNCIATIONS, pronunciations

log = logging.getLogger(__name__)

PHONE_LOOP = "phone_loop"
NOT_SPEECH = {"SIL", "+NSN+", "+SPN+", "+BREATH+", "+COUGH+", "+NOISE+", "+SMACK+", "+UH+", "+UM+"}


@dataclass(frozen=True)
class SphinxSettings:
    """Rejection parameters (defaults: tuned, docs/lab/recognition.md)."""

    accept_line: float = -0.08  # raw (agreement + fit_weight x fit) at confidence 0.5
    accept_span: float = 0.2
    fit_weight: float = 0.01
    min_speech_frames: int = 8  # an 80 ms blip is not a phrase


@dataclass(frozen=True)
class SphinxGrammar:
    """A compiled grammar: the search registered in the decoder, and its phrases."""

    search: str
    phrases: frozenset[str]
    dropped: tuple[str, ...]  # phrases left out: a word without a pronunciation


def model_dir() -> Path:
    try:
        import pocketsphinx
    except ImportError as error:
        raise ModelMissingError("PocketSphinx is not installed: pip install pocketsphinx") from error
    path = Path(pocketsphinx.get_model_path()) / "en-us"
    if not (path / "en-us").is_dir():
        raise ModelMissingError(
            f"PocketSphinx's English model is missing from {path}; "
            "reinstall it: pip install --force-reinstall pocketsphinx"
        )
    return path


class SphinxRecognizer:
    """audio_types.Recognizer on PocketSphinx 5 with its bundled en-US model."""

    name = "pocketsphinx"

    def __init__(
        self,
        model_path: Path | str | None = None,
        extra_dictionary: Path | None = EXTRA_PRONUNCIATIONS,
        settings: SphinxSettings | None = None,
    ):
        import pocketsphinx

        base = Path(model_path) if model_path else model_dir()
        self.settings = settings or SphinxSettings()
        # batch CMN: the whole utterance is known, so normalise over all of it
        # (live CMN adapts from the previous utterance and hurts short commands).
        self._decoder = pocketsphinx.Decoder(
            hmm=str(base / "en-us"), dict=str(base / "cmudict-en-us.dict"), loglevel="FATAL", cmn="batch"
        )
        self._lock = threading.Lock()
        self._names = count()
        self._cache: CompiledCache[SphinxGrammar] = CompiledCache(self._build, size=32, on_evict=self._forget)
        self._extra = extra_dictionary
        if extra_dictionary is not None:
            self._teach(extra_words(extra_dictionary))
        self._decoder.add_allphone_file(PHONE_LOOP, str(base / "en-us-phone.lm.bin"))

    # ---- grammar ----------------------------------------------------------

    def compile(self, phrases: list[str]) -> SphinxGrammar:
        with self._lock:
            return self._cache.get(phrases)

    def _build(self, phrases: tuple[str, ...]) -> SphinxGrammar:
        self._teach([w for p in phrases for w in p.split()])
        kept, dropped = [], []
        for phrase in dict.fromkeys(phrases):
            words = phrase.split()
            if words and spoken(phrase) and all(self._decoder.lookup_word(w) for w in words):
                kept.append(phrase)
            elif words and spoken(phrase):
                dropped.append(phrase)
        if dropped:
            log.warning(
                "pocketsphinx: %d phrases left out, no pronunciation for: %s",
                len(dropped),
                ", ".join(sorted({w for p in dropped for w in p.split() if not self._decoder.lookup_word(w)})),
            )
        if not kept:
            raise ValueError("no phrase of this grammar can be pronounced")
        name = f"g{next(self._names)}"
        final, transitions = prefix_tree(kept)
        fsg = self._decoder.create_fsg(name, 0, final, transitions)
        self._decoder.add_fsg(name, fsg)
        return SphinxGrammar(name, frozenset(kept), tuple(dropped))

    def _teach(self, words: list[str]) -> None:
        """Add pronunciations the bundled dictionary lacks (ours, possessives)."""
        bundled = {w for w in dict.fromkeys(words) if self._decoder.lookup_word(w)}
        entries = sphinx_entries(words, bundled)
        for i, (word, phones) in enumerate(entries):
            self._decoder.add_word(word, phones, i == len(entries) - 1)

    def _forget(self, grammar: SphinxGrammar) -> None:
        try:
            self._decoder.remove_search(grammar.search)
        except (KeyError, RuntimeError):  # already gone
            pass

    # ---- recognition --------------------------------------------------------

    def recognize(self, audio: np.ndarray, grammar: SphinxGrammar) -> list[Hypothesis]:
        pcm = pcm16(audio)
        with self._lock:
            text = self._decode(pcm, grammar.search)
            if not text:
                return []
            details: dict = {"text": text}
            if text not in grammar.phrases:
                details["rejected"] = "no parse"  # best partial path, off the grammar
                return [Hypothesis(text, 0.0, details)]
            frames, score, worst = self._aligned_score(pcm, text)
            free = [p for p in self._decode(pcm, PHONE_LOOP).split() if p not in NOT_SPEECH]
        if frames < self.settings.min_speech_frames:
            details["rejected"] = "too short"
            return [Hypothesis(text, 0.0, details)]
        agreement = phone_agreement(self._pronunciations(text), free)
        fit = score / frames
        raw = agreement + self.settings.fit_weight * fit
        details.update(
            {
                "agreement": round(agreement, 3),
                "fit": round(fit, 2),
                "worst_word": round(worst, 2),
                "phones": " ".join(free),
                "raw": round(raw, 4),
            }
        )
        return [Hypothesis(text, calibrate(raw, self.settings.accept_line, self.settings.accept_span), details)]

    def _decode(self, pcm: bytes, search: str) -> str:
        decoder = self._decoder
        decoder.activate_search(search)
        decoder.start_utt()
        decoder.process_raw(pcm, full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        return " ".join(hyp.hypstr.split()) if hyp else ""

    def _pronunciations(self, text: str) -> list[list[list[str]]]:
        """Each word's pronunciations (alternates too) from the dictionary we teach from."""
        result = []
        for word in text.split():
            variants = [list(p) for p in pronunciations(word)]
            if not variants:
                phones = self._decoder.lookup_word(word)
                variants = [phones.split() if phones else []]
            result.append(variants)
        return result

    def phrase_score(self, audio: np.ndarray, phrase: str) -> float | None:
        """The raw acoustic score of a given phrase on this audio (None: cannot align).

        Lets another recogniser's reading be checked acoustically (scripts/measure_asr.py).
        """
        self._teach(phrase.split())
        if not all(self._decoder.lookup_word(w) for w in phrase.split()):
            return None
        pcm = pcm16(audio)
        with self._lock:
            frames, score, _ = self._aligned_score(pcm, phrase)
        return score / frames if frames >= self.settings.min_speech_frames else None

    def _aligned_score(self, pcm: bytes, text: str) -> tuple[int, float, float]:
        """Force-align the hypothesis (words, then phones): (frames, score, worst word/frame).

        Only the hypothesis's own words count; silences and fillers around them do not.
        """
        decoder = self._decoder
        try:
            decoder.set_align_text(text)
            for _ in range(2):  # word alignment, then the phone-level pass
                decoder.start_utt()
                decoder.process_raw(pcm, full_utt=True)
                decoder.end_utt()
                if _ == 0:
                    decoder.set_alignment()
            alignment = decoder.get_alignment()
        except RuntimeError:
            return 0, 0.0, 0.0
        frames, score, worst = 0, 0.0, 0.0
        for word in alignment.words() if alignment else ():
            if word.name.startswith(("<", "+", "[")) or word.duration <= 0:
                continue
            frames += word.duration
            score += word.score
            worst = min(worst, word.score / word.duration)
        return frames, float(score), float(worst)


def phone_agreement(words: list[list[list[str]]], free: list[str], limit: int = 16) -> float:
    """1 - edit distance / length between the best pronunciation and the free phones."""
    from itertools import islice, product

    from rapidfuzz.distance import Levenshtein

    best = 0.0
    for combo in islice(product(*words), limit):
        expected = [phone for variant in combo for phone in variant]
        longest = max(len(expected), len(free), 1)
        best = max(best, 1 - Levenshtein.distance(expected, free) / longest)
    return best


def prefix_tree(phrases: list[str]) -> tuple[int, list[tuple[int, int, float, str]]]:
    """(final state, transitions) of a finite-state grammar accepting exactly `phrases`.

    Shared beginnings share states ("it's ten", "it's twelve"), so the decoder
    explores each prefix once however many phrases there are.
    """
    children: dict[tuple[int, str], int] = {}
    ends: set[tuple[int, str]] = set()
    states = 1
    for phrase in phrases:
        state = 0
        words = phrase.split()
        for word in words[:-1]:
            if (state, word) not in children:
                children[(state, word)] = states
                states += 1
            state = children[(state, word)]
        ends.add((state, words[-1]))
    final = states
    transitions = [(a, b, 1.0, word) for (a, word), b in children.items()]
    transitions += [(a, final, 1.0, word) for a, word in sorted(ends)]
    return final, transitions


__all__ = ["SphinxRecognizer", "SphinxSettings", "SphinxGrammar", "prefix_tree"]
