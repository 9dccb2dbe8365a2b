"""A second look, without the prompt, at a reading the prompt may have put there.

Whisper reads each reply after a prompt of the grammar's phrases (voice/asr/whisper.py),
which makes "four" likelier than "for"; it also writes a whole phrase of that prompt
for speech that only shares its sound or rhythm: "we play the first one" for "the
bowling one", "you're right" for "lower", "two" for "undo". So a reading that is a
phrase written in the prompt (Hypothesis.details[PROMPT_PHRASE]), and that the host
would act on, is heard again without it: the phrase and Whisper's own unprompted
readings of the same audio are scored alike (voice.audio_types.ScoresTexts). It stands
when an unprompted reading means the same move (the matcher reads "and you" as undo),
or when the phrase is nearly as likely as the likeliest unprompted reading
(STEERED_LINE). Otherwise it is asked about first, never acted on unasked
(the host's reply policy, through the reading's rival): the move the unprompted reading
names, where it names one surely ("Did you mean: undo?" for "two"), else the phrase,
its rival the words heard without the prompt.

The same look serves a command the free reading lost (`unprompted_command`): where the
reading is no sure move ("undo" read "one two" at "which card: 1, 2 or 3?") and Whisper
unprompted writes a common command the matcher reads surely, the host asks about that
command ("Did you mean: undo?") rather than dropping it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from voice.audio_types import PROMPT_PHRASE, Recognizer, ScoresTexts
from voice.listening.reading import DecodesInGrammar, Reading, decoded_says
from voice.listening.wordcheck import note
from voice.understanding.matcher import Match, PromptGraph
from voice.understanding.normalize import normalize

STEERED_LINE = -3.0
"""Log-likelihood of the phrase minus that of the likeliest unprompted reading naming
another move (or none): below it, the phrase was likely the prompt's. Chosen on the
tuning voices (docs/lab/recognition.md)."""
EXACT = 100.0
"""A match score for words said exactly as the grammar says them."""
UNPROMPTED = 3
"""Whisper's own unprompted readings looked at (beam and n-best)."""


@dataclass(frozen=True)
class _Unprompted:
    """One of Whisper's unprompted readings: its words, log-likelihood and match."""

    text: str
    score: float
    match: Match


def second_look(
    reading: Reading, recognizer: Recognizer, table: PromptGraph, in_grammar: bool = True, line: float = STEERED_LINE
) -> Reading:
    """The reading as it stands, asked about first when it is a phrase of the prompt the
    audio does not bear out (check_steered), or, where it is no sure move, taken as the
    command Whisper writes unprompted, asked about first (unprompted_command)."""
    match = None if reading.rejected else reading.match
    if match is not None and match.intent is not None and not reading.unsure and not match.needs_confirmation:
        steered = _from_prompt(reading, reading.text)
        return check_steered(reading, match, recognizer, table, in_grammar, line) if steered else reading
    return unprompted_command(reading, recognizer, table)


def check_steered(
    reading: Reading, match: Match, recognizer: Recognizer, table: PromptGraph, in_grammar: bool, line: float
) -> Reading:
    """A sure reading (`match`) that is a phrase of the prompt, heard again without it; where
    the unprompted readings stand against it, also decoded inside the grammar when
    `in_grammar` (the setting grammar_decoding), whose word for the same move lets it stand."""
    phrase = _as_written(reading.text)
    looked = _look(recognizer, reading, table, [phrase])
    if looked is None:
        return reading
    scores, heard = looked
    others = [u for u in heard if u.match.intent != match.intent]
    margin = scores[0] - max((u.score for u in others), default=scores[0])
    found = note({"steered_check": round(margin, 3), "unprompted": [u.text for u in heard]})
    if len(others) < len(heard) or margin >= line or (in_grammar and _decoder_says(recognizer, reading, table, match)):
        return replace(reading, hypotheses=reading.hypotheses + (found,))
    other = max(others, key=lambda u: u.score)
    if other.match.intent is not None and not other.match.needs_confirmation:
        return replace(
            reading, text=other.text, match=other.match, rival=reading.text, hypotheses=reading.hypotheses + (found,)
        )
    return replace(reading, rival=other.text, hypotheses=reading.hypotheses + (found,))


def unprompted_command(reading: Reading, recognizer: Recognizer, table: PromptGraph) -> Reading:
    """A reading that is no sure move, taken as the common command Whisper writes
    unprompted when the matcher reads that command surely: asked about first, its rival
    the words first read; acted on where the words first read were the command's own,
    word for word, and not a phrase of the prompt (two readings, with and without the
    prompt, wrote the same command: "pause" read too faintly to act on alone). Not where
    commands need a prefix ("host, undo" is found by sound there:
    voice/listening/reading.py addressed_command)."""
    first = reading.text or next((h.text for h in reading.hypotheses if h.text), "")
    if table.prefix or not first:
        return reading
    looked = _look(recognizer, reading, table, [])
    heard = looked[1] if looked is not None else []
    commands = [u for u in heard if _command(u.match, table)]
    if not commands:
        return reading
    said = max(commands, key=lambda u: u.score)
    found = note({"unprompted_command": said.text, "unprompted": [u.text for u in heard]})
    both = said.match.score >= EXACT and said.text == normalize(first, strip_fillers=False)
    both = both and not _from_prompt(reading, first)
    return Reading(
        said.text,
        reading.confidence,
        False,
        reading.utterance,
        reading.hypotheses + (found,),
        "" if both else first,
        said.match,
        reading.closest,
    )


def _look(
    recognizer: Recognizer, reading: Reading, table: PromptGraph, texts: list[str]
) -> tuple[list[float], list[_Unprompted]] | None:
    """`texts` and Whisper's unprompted readings of the utterance, scored alike; None when
    the recogniser cannot score."""
    score_texts = recognizer.text_scorer() if isinstance(recognizer, ScoresTexts) else None
    if score_texts is None:
        return None
    scores, unprompted = score_texts(reading.utterance.audio, texts, UNPROMPTED)
    heard = []
    for text, score in unprompted:
        words = normalize(text, strip_fillers=False)
        if words:
            heard.append(_Unprompted(words, score, table.match(words)))
    return scores, heard


def _decoder_says(recognizer: Recognizer, reading: Reading, table: PromptGraph, match: Match) -> bool:
    """Decoded inside the prompt's grammar, with no prompt, the audio names the same move
    (voice/listening/reading.py decoded_says): Whisper unprompted wrote words of no move
    ("based on spades"), but among the grammar's moves the sound picks this one. Also
    where a word alone is heard only as said (Centurion's ranks): the decoder only
    confirms a move here, it never chooses one."""
    if table.fallback is not None or not isinstance(recognizer, DecodesInGrammar) or match.intent is None:
        return False
    return decoded_says(recognizer, reading.utterance, table, match.intent)


def _command(match: Match, table: PromptGraph) -> bool:
    """A common command (not one of the prompt's own moves), read surely."""
    return match.intent is not None and not match.needs_confirmation and table.order_of(match) >= table.own


def _from_prompt(reading: Reading, words: str) -> bool:
    """`words` are those of a hypothesis of the reading that is a phrase written in the prompt."""
    return any(h.text == words and (h.details or {}).get(PROMPT_PHRASE) for h in reading.hypotheses)


def _as_written(phrase: str) -> str:
    """As Whisper writes a reply: " We play the first one."."""
    return f" {phrase[:1].upper()}{phrase[1:]}."
