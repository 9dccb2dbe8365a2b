"""A second listener's opinion on a word in play (Keep Cool's hits).

Whisper tiny.en, steered by the words in play, writes "kettle" for "cattle"; its own
unsteered check (voice/listening/wordcheck.py) catches some of these, not all. Moonshine
base-en (voice/asr/moonshine.py) is another model with other habits, so it judges
Whisper's readings of the same audio a second time:

- veto: when a word in play has passed Whisper's check, Moonshine scores that word
  against Whisper's other readings of the utterance (its steered n-best and its
  unsteered readings). Readings that sound exactly like the word ("colonel" for
  "kernel") are no rivals. If the likeliest rival beats the word by more than
  VETO_LINE, the word is taken as that rival: a clue.
- rescue: when no word in play was taken (Whisper's confidence or its check threw
  it out) and the speech was taken for a clue, a word in play counts if Moonshine
  would have written it itself. If one of Whisper's steered readings named a word
  in play, only that word is asked about (two models naming the same word); if
  none did, every word in play is (unsteered, Moonshine wrote exactly that word).
  Failing that, the word in play Moonshine finds likeliest counts if it is likely
  in itself (RESCUE_FLOOR) and beats every other reading Whisper made of the audio
  by more than RESCUE_LINE: Whisper heard "love" and "glove" is in play.

The lines were tuned on the benchmark's tuning set, hard pairs and voices of its
own (docs/keep-cool-live.md); its reported figures are for held-apart voices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Protocol, overload

import numpy as np

from voice.asr.moonshine import Judgement
from voice.listening.reading import Reading
from voice.listening.wordcheck import note, taken_as, written
from voice.understanding.matcher import PromptGraph
from voice.understanding.normalize import normalize, without_article
from voice.understanding.vocabulary import pronunciations

VETO_LINE = -4.0
"""Moonshine: the word minus Whisper's likeliest other reading; below it, a clue."""
RESCUE_LINE = 4.0
"""Moonshine: the likeliest word in play minus Whisper's likeliest other reading;
above it, that word was said (the veto's margin, the other way round)."""
RESCUE_FLOOR = -6.0
"""... and the word's own log-likelihood must reach this: in noise every text is unlikely."""


class Scorer(Protocol):
    def judge(self, audio: np.ndarray, texts: list[str]) -> list[Judgement]: ...


@dataclass(frozen=True)
class Opinion:
    """What the second listener said of one utterance (None: not asked, or no rival)."""

    veto_margin: float | None = None
    rival: str = ""  # the reading that beat the word, when vetoed
    rescued: str | None = None  # the phrase of the word in play it would rescue
    seconded: bool = False  # ... which a steered Whisper reading named too (benchmark records)
    likeliest: str | None = None  # failing that, the phrase of the word in play it finds likeliest,
    likeliest_score: float | None = None  # its log-likelihood
    likeliest_margin: float | None = None  # and its lead over Whisper's likeliest other reading


def verdict(whisper_took: bool, opinion: Opinion, veto_line: float = VETO_LINE, rescue: bool = True) -> str | None:
    """The verdict: "kept", "vetoed", "rescued", "likeliest" (rescued by its lead), or
    None (nothing in play was said)."""
    if whisper_took:
        vetoed = opinion.veto_margin is not None and opinion.veto_margin < veto_line
        return "vetoed" if vetoed else "kept"
    if not rescue:
        return None
    if opinion.rescued is not None:
        return "rescued"
    if (
        opinion.likeliest is not None
        and opinion.likeliest_score is not None
        and opinion.likeliest_margin is not None
        and opinion.likeliest_score >= RESCUE_FLOOR
        and opinion.likeliest_margin > RESCUE_LINE
    ):
        return "likeliest"
    return None


class SecondOpinion:
    """Asks the scorer only what a verdict needs (each question is a decoder call)."""

    def __init__(self, scorer: Scorer, table: PromptGraph, reading: Reading):
        """`reading`: the ears' reading, with the notes of Whisper's check if it ran."""
        self.scorer, self.table, self.reading = scorer, table, reading
        self.audio = reading.utterance.audio

    def veto(self, phrase: str) -> Opinion:
        """Moonshine on `phrase` (a word in play Whisper took) against Whisper's other readings."""
        intent = self.table.lookup(phrase)
        rivals = [
            text
            for text in self._whisper_readings()
            if self._intent_of(text) != intent and not _homophone(text, phrase)
        ]
        if not rivals:
            return Opinion()
        forms = _forms(phrase)
        likelihood = [judged.likelihood for judged in self.scorer.judge(self.audio, forms + rivals)]
        best = int(np.argmax(likelihood[len(forms) :]))
        return Opinion(
            veto_margin=round(max(likelihood[: len(forms)]) - likelihood[len(forms) + best], 3), rival=rivals[best]
        )

    def rescue(self) -> Opinion:
        """A word in play that Moonshine would have written itself (bare, with its
        article, or as a Whisper reading of it): the one a steered Whisper reading
        named, if any did, else any. And, for verdict() to weigh if there is none,
        the word in play Moonshine finds likeliest and its lead over Whisper's
        likeliest reading that names no word in play. One batch asks all of it."""
        steered = {self._key(self._intent_of(h.text)) for h in self.reading.hypotheses if h.text}
        named = {key: phrase for key, phrase in self._words_in_play.items() if key in steered}
        asked = named or self._words_in_play
        readings = self._whisper_readings()
        forms = {form: key for key, phrase in self._words_in_play.items() for form in _forms(phrase)}
        named_by_readings = [t for t in readings if self._key(self._intent_of(t)) in asked]
        rivals = [t for t in readings if self._intent_of(t) is None]
        texts = list(dict.fromkeys([*forms, *named_by_readings, *rivals]))
        judged = dict(zip(texts, self.scorer.judge(self.audio, texts)))
        for text in [f for f, key in forms.items() if key in asked] + named_by_readings:
            if judged[text].first_choice:  # greedy decoding writes one text at most
                key = self._key(self._intent_of(text))
                assert key is not None, "each text here reads as a word in play"
                return Opinion(rescued=asked[key], seconded=key in named)
        if not rivals or not forms:  # no other reading to beat, or no word in play (the table deal)
            return Opinion()
        likeliest = max(forms, key=lambda form: judged[form].likelihood)
        score = judged[likeliest].likelihood
        return Opinion(
            likeliest=self._words_in_play[forms[likeliest]],
            likeliest_score=round(score, 3),
            likeliest_margin=round(score - max(judged[t].likelihood for t in rivals), 3),
        )

    def may_rescue(self, reading: Reading) -> bool:
        """Only speech taken for a clue (or not understood) may be a missed word in play;
        a command or a claim is no word at all."""
        if reading.rejected:
            return True
        found = reading.match.intent if reading.match is not None else None
        fallback = self.table.fallback or {}
        return found is not None and found.get("intent") == fallback.get("intent")

    # ---- what Whisper wrote, in the form Moonshine writes a lone word ----

    def _whisper_readings(self) -> list[str]:
        texts = []
        for hypothesis in self.reading.hypotheses:
            details = hypothesis.details or {}
            if hypothesis.text:
                texts.append(details.get("text", hypothesis.text))
            texts += details.get("rivals", [])
        return [form for form in dict.fromkeys(_plain(_first_sentence(t)) for t in texts) if form]

    def _intent_of(self, text: str) -> dict | None:
        intent = self.table.lookup(text)
        return intent if intent is not None and intent.get("intent") in self.table.exact else None

    @overload
    @staticmethod
    def _key(intent: dict) -> tuple: ...
    @overload
    @staticmethod
    def _key(intent: dict | None) -> tuple | None: ...
    @staticmethod
    def _key(intent: dict | None) -> tuple | None:
        """An intent as a dict key (None stays None: no word in play)."""
        return None if intent is None else tuple(sorted(intent.items()))

    @cached_property
    def _words_in_play(self) -> dict[tuple, str]:
        """Each word in play (an exact intent) by its shortest bare phrase ("candle")."""
        words: dict[tuple, str] = {}
        for text, intent in self.table.examples:
            if intent is not None and intent.get("intent") in self.table.exact:
                bare = " ".join(without_article(text.split()))
                key = self._key(intent)
                if key not in words or len(bare) < len(words[key]):
                    words[key] = bare
        return words


def review(reading: Reading, second: SecondOpinion, whisper_took: str | None) -> Reading:
    """The reading after the second opinion. `whisper_took`: the phrase of the word in
    play the reading holds after Whisper's check, or None."""
    if not whisper_took and not second.may_rescue(reading):
        return reading
    opinion = second.veto(whisper_took) if whisper_took else second.rescue()
    said = verdict(whisper_took is not None, opinion)
    found = note({"second_opinion": said, **{k: v for k, v in vars(opinion).items() if v}})
    if said == "vetoed":
        return taken_as(reading, second.table, opinion.rival, found)
    hypotheses = reading.hypotheses + (found,)
    phrase = opinion.rescued if said == "rescued" else opinion.likeliest
    if said in ("rescued", "likeliest") and phrase is not None:
        return replace(
            reading,
            text=phrase,
            match=second.table.match(phrase),
            rejected=False,
            hypotheses=hypotheses,
            confidence=max(reading.confidence, 0.5),
        )
    return replace(reading, hypotheses=hypotheses)


def _forms(phrase: str) -> list[str]:
    """A word in play bare and with the article players add: "Candle", "A candle"."""
    return [_plain(form) for form in written(phrase)]


def _plain(text: str) -> str:
    """ " a kettle." -> "A kettle": as Moonshine writes it, the final stop left to the scorer."""
    said = (text or "").strip().rstrip(".,?!;:").strip()
    return said[:1].upper() + said[1:]


def _first_sentence(text: str) -> str:
    """ "Mouse. Mouse." or "Mouse mouse mouse" (Whisper looping on a short clip): "Mouse"."""
    first = re.split(r"[.?!]\s", (text or "").strip() + " ")[0].split()
    return first[0] if first and len({w.lower().strip(",") for w in first}) == 1 else " ".join(first)


def _homophone(text: str, phrase: str) -> bool:
    """One word that is said exactly as the word in play (CMUdict): no rival of it."""
    said, word = (without_article(normalize(t).split()) for t in (text, phrase))
    return len(said) == len(word) == 1 and bool(set(pronunciations(said[0])) & set(pronunciations(word[0])))
