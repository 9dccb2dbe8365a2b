"""How well an utterance the host acted on fits the words a player says were said.

A correction ("no, I said lower") after a move that showed something hidden is made at
once only when the speech fits the corrected words about as well as the words the host
took (host/corrections.py decides how close is close enough): otherwise the table is
asked, so nobody can change a choice after seeing the card it turned.
"""

from __future__ import annotations

from host.contract import Likeness  # where host and voice meet
from voice.audio_types import ScoresTexts
from voice.listening.reading import Reading
from voice.listening.wordcheck import tidy
from voice.understanding.matcher import PromptGraph


def likeness(reading: Reading, table: PromptGraph, taken: str, corrected: str, recognizer: object) -> Likeness:
    """`reading` of the utterance a move was taken from (its words `taken`), against the
    words `corrected` of the same prompt (`table`): whether one of the recogniser's own
    readings named the corrected move, and the two phrases' log-likelihoods as its
    transcript, scored without the prompt's steering (voice.asr.whisper.score_texts)."""
    wanted = table.match(corrected).intent
    in_readings = wanted is not None and any(
        table.match(hypothesis.text).intent == wanted for hypothesis in reading.hypotheses if hypothesis.text
    )
    score_texts = recognizer.text_scorer() if isinstance(recognizer, ScoresTexts) else None
    if score_texts is None:
        return Likeness(in_readings)
    scores, _ = score_texts(reading.utterance.audio, [tidy(taken), tidy(corrected)], 0)
    return Likeness(in_readings, round(scores[1] - scores[0], 2))
