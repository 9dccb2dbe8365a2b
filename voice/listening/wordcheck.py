"""A second look before a word in play is taken as said (Keep Cool's hits).

At keep-cool/word the recogniser is steered by the words in play, and that is
exactly what makes it write "kettle" when a player said "cattle": a false match
hands out a card nobody guessed, the worst failure of the game. So when a reading
names an intent the grammar matches only exactly (`exact_intents`), the word is
checked against the same audio without the prompt: the recogniser scores the word
(bare and with "a") and every other reading it has, its steered n-best and its
own unsteered best readings, all the same way. If another reading is clearly
likelier (the log-likelihood ratio below CHECK_LINE), what was said is taken to
be that other reading: a clue (or, when that reading is another word in play,
a reading too close to call, which the loop also treats as a clue).

At every other prompt the same question is asked of a number said alone, with a
looser line (NUMBER_LINE, check_number): steered by a number prompt, tiny.en writes
"one" for "on" and "sixteen" for a "six" it hardly heard; such a reading is not
acted on, and the host asks again.

Backends without forced scoring (voice.audio_types.ScoresTexts) are left as they are. After this
check a second listener, if there is one, judges the word again
(voice/listening/second_opinion.py).
CHECK_LINE was tuned with Piper at speed 1.0, clean and at 10 dB party noise
(docs/keep-cool-live.md); the figures reported are for held-apart voices.
"""

from __future__ import annotations

from dataclasses import replace

from host.contract import Intent  # where host and voice meet
from voice.audio_types import Hypothesis, Recognizer, ScoresTexts
from voice.listening.reading import Reading
from voice.understanding.matcher import PromptGraph
from voice.understanding.normalize import NUMBER_WORDS, normalize, without_article

CHECK_LINE = -3.0
"""Log-likelihood of the word minus that of the likeliest other reading: below it, a clue."""
NUMBER_LINE = -8.0
"""At every other prompt, a number said alone ("six") this much less likely than the
likeliest other reading is not acted on: the ears ask again."""


def word_in_play(table: PromptGraph, reading: Reading) -> str | None:
    """The phrase of the exact intent (a word in play) the reading holds, if any (from
    the reading's own match: nothing is matched again)."""
    match = reading.match
    if reading.rejected or reading.heard_as or not table.exact or match is None:
        return None  # not taken as read (two ears wrote different words): no word in play
    if (
        match.intent is None
        or match.intent.get("intent") not in table.exact
        or table.lookup(match.phrase) != match.intent
    ):  # a clue (the fallback)
        return None
    return match.phrase


def check_exact(reading: Reading, recognizer: Recognizer, table: PromptGraph, line: float = CHECK_LINE) -> Reading:
    """Keep Cool's check of a word in play (the module docstring); `table`: the prompt's."""
    phrase = word_in_play(table, reading)
    intent = table.lookup(phrase) if phrase else None
    found = _check(reading, recognizer, table, phrase, intent) if phrase and intent is not None else None
    if found is None or found.details is None:
        return reading
    if found.details["word_check"] >= line:
        return replace(reading, hypotheses=reading.hypotheses + (found,))
    return taken_as(reading, table, found.details["other"], found)


def check_number(reading: Reading, recognizer: Recognizer, table: PromptGraph, line: float = NUMBER_LINE) -> Reading:
    """The same check for a number said alone at any other prompt, with a looser line:
    tiny.en steered by a number prompt writes "one" for "on" and "sixteen" for a
    "six" it hardly heard. Measured on people's recordings (docs/lab/recognition.md):
    it turns about 40 % of the wrong numbers acted on into a question again, for 4
    right ones of 992. Other replies are left as they are: a one-word command is
    often written otherwise unprompted ("And you." for "undo"), and longer replies
    were not measured."""
    match = reading.match if not reading.rejected else None
    if match is None or match.intent is None or match.phrase not in NUMBER_WORDS:
        return reading
    found = _check(reading, recognizer, table, match.phrase, match.intent)
    if found is None or found.details is None or found.details["word_check"] >= line:
        return reading
    return replace(reading, text="", rejected=True, hypotheses=reading.hypotheses + (found,))


def _check(
    reading: Reading, recognizer: Recognizer, table: PromptGraph, phrase: str, intent: Intent
) -> Hypothesis | None:
    """The phrase of `intent` (bare and with "a") against every reading that names
    something else, all scored without the prompt; a note with the ratio, or None when
    there is no rival (or the backend cannot score)."""
    score_texts = recognizer.text_scorer() if isinstance(recognizer, ScoresTexts) else None
    if score_texts is None:
        return None
    forms = written(phrase)
    steered = [
        t
        for t in dict.fromkeys(tidy(h.details.get("text", h.text) if h.details else h.text) for h in reading.hypotheses)
        if t and t not in forms and not _names(table, t, intent)
    ]
    scores, unsteered = score_texts(reading.utterance.audio, forms + steered, 3)
    rivals = list(zip(steered, scores[len(forms) :]))
    rivals += [(t, s) for t, s in unsteered if not _names(table, t, intent)]
    if not rivals:
        return None
    other, other_score = max(rivals, key=lambda rival: rival[1])
    ratio = max(scores[: len(forms)]) - other_score
    return note({"word_check": round(ratio, 3), "other": other.strip(), "rivals": [t for t, _ in rivals]})


def taken_as(reading: Reading, table: PromptGraph, other: str, found: Hypothesis) -> Reading:
    """The reading as the likelier `other` reading: a clue; or, when `other` is another
    word in play, itself unchecked, too close to call (no hit for either). The new text
    is matched (once), so the reading's match stays the match of its text."""
    said = normalize(other, strip_fillers=False)
    rival = table.lookup(said)
    if rival is not None and rival.get("intent") in table.exact:
        return replace(reading, text="", rejected=True, hypotheses=reading.hypotheses + (found,))
    return replace(reading, text=said, match=table.match(said), hypotheses=reading.hypotheses + (found,))


def written(phrase: str) -> list[str]:
    """A phrase as Whisper writes it, bare and with the article players add: " Candle.", " A candle."."""
    bare = " ".join(without_article(phrase.split()))
    article = "an" if bare[:1] in "aeiou" else "a"
    return [" " + bare[:1].upper() + bare[1:] + ".", f" {article.capitalize()} {bare}."]


def tidy(text: str) -> str:
    """A reading said once ("Kettle. Kettle." -> " Kettle."), ending as Whisper ends a reply."""
    from voice.asr.text_guards import collapse_repeats

    text = collapse_repeats(text or "").strip()
    if not text:
        return ""
    return " " + (text if text.endswith((".", "?", "!")) else text.rstrip(",;:") + ".")


def _names(table: PromptGraph, text: str, intent: Intent) -> bool:
    """This reading is the checked word itself (in any of its phrases), so no rival."""
    found = table.lookup(text)
    return found is not None and found == intent


def note(details: dict) -> Hypothesis:
    """What a check found, kept with the reading's hypotheses (and so in the benchmarks' records)."""
    return Hypothesis("", 0.0, details)
