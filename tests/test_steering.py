"""The look without the prompt (voice/listening/steering.py), with a stand-in recogniser
whose readings and likelihoods the test sets: a phrase the prompt put there is asked
about, never acted on unasked; a command the reading lost is asked about, not dropped."""

from __future__ import annotations

import numpy as np

from host import reply_policy
from host.contract import Prompt, Source
from host.reply_policy import Verdict, acts
from voice.audio_types import PROMPT_PHRASE, Hypothesis, Utterance
from voice.listening.pipeline import read_checked
from voice.listening.reading import Reading
from voice.understanding.matcher import Matcher
from voice.understanding.understand import understood

PREDICT = Prompt("keep-it-100/predict", "Cy", "Cy, lower, right or higher?")
WHICH_CARD = Prompt(
    "common/choice", "Ana", "Ana, which card: 1, 2 or 3?", slots={"choice": [("1", 0), ("2", 1), ("3", 2)]}
)


class SteeredWhisper:
    """Reads `steered`, marked as a phrase of its prompt when `written`; scores texts from
    `likelihood` and reads `unprompted` without the prompt."""

    def __init__(self, steered: str, likelihood: dict[str, float], unprompted: list[str], written: bool = True):
        self.steered, self.likelihood, self.unprompted, self.written = steered, likelihood, unprompted, written
        self.scored: list[str] = []

    def compile(self, phrases):
        return phrases

    def recognize(self, audio, grammar):
        details = {"text": self.steered.capitalize() + ".", **({PROMPT_PHRASE: True} if self.written else {})}
        return [Hypothesis(self.steered, 0.9, details)]

    def text_scorer(self):
        return self.score_texts

    def score_texts(self, audio, texts, unprompted=3):
        self.scored += texts
        readings = [r for r in self.unprompted[:unprompted] if r not in texts]
        return [self.likelihood.get(t, -20.0) for t in texts], [(r, self.likelihood.get(r, -20.0)) for r in readings]


def read(recognizer, prompt: Prompt = PREDICT) -> Reading:
    return read_checked(recognizer, Matcher(), prompt, Utterance(np.zeros(16000, np.float32), 0, 1), acts=acts)


def verdict(reading: Reading) -> Verdict:
    """What the host does with the reading (host.reply_policy, as the ears hand it over)."""
    assert reading.match is not None
    return reply_policy.verdict(understood(reading.match, Source.VOICE, reading.text, reading.rival))


def test_a_phrase_of_the_prompt_the_audio_does_not_bear_out_is_asked_about_as_what_was_heard():
    """Cy's "lower" was read "you're right", a phrase of the prompt, and acted on unasked:
    without the prompt "Lower." is far likelier, so the host asks about lower."""
    whisper = SteeredWhisper("you're right", {" You're right.": -14.0, " Lower.": -2.0}, [" Lower."])
    reading = read(whisper)
    assert reading.match is not None and reading.match.intent == {"intent": "predict", "guess": "lower"}
    assert reading.rival == "you're right"
    assert verdict(reading) is Verdict.ASK_FIRST


def test_a_phrase_far_less_likely_than_words_that_name_nothing_is_asked_about_itself():
    whisper = SteeredWhisper(
        "you're right", {" You're right.": -14.0, " The bowling one.": -2.0}, [" The bowling one."]
    )
    reading = read(whisper)
    assert reading.match is not None and reading.match.intent == {"intent": "predict", "guess": "correct"}
    assert reading.rival == "the bowling one"
    assert verdict(reading) is Verdict.ASK_FIRST


def test_a_phrase_an_unprompted_reading_means_too_stands():
    """ "Undo." scores far below "And you." unprompted, and the matcher reads "and you" as undo."""
    whisper = SteeredWhisper("undo", {" Undo.": -12.0, " And you.": -2.0}, [" And you."])
    reading = read(whisper)
    assert reading.match is not None and reading.match.intent == {"intent": "undo"}
    assert verdict(reading) is Verdict.ACT


def test_a_phrase_about_as_likely_as_the_unprompted_reading_stands():
    whisper = SteeredWhisper("lower", {" Lower.": -5.0, " Lover.": -2.0}, [" Lover."])
    assert verdict(read(whisper)) is Verdict.ACT


def test_a_reading_not_written_in_the_prompt_is_not_looked_at_again():
    whisper = SteeredWhisper("you're right", {" You're right.": -14.0, " Lower.": -2.0}, [" Lower."], written=False)
    assert verdict(read(whisper)) is Verdict.ACT and whisper.scored == []


def test_a_command_read_as_numbers_at_a_narrowed_question_is_asked_about():
    """The table's "undo" was read "one two" at "which card: 1, 2 or 3?": no sure answer,
    and Whisper unprompted writes "And you.", which the matcher reads as undo surely."""
    whisper = SteeredWhisper("one two", {" And you.": -2.0}, [" And you."], written=False)
    reading = read(whisper, WHICH_CARD)
    assert reading.match is not None and reading.match.intent == {"intent": "undo"}
    assert reading.rival == "one two" and verdict(reading) is Verdict.ASK_FIRST


def test_no_command_is_made_of_a_reading_where_no_command_is_heard_unprompted():
    whisper = SteeredWhisper("one two", {" One, two.": -2.0}, [" One, two."], written=False)
    reading = read(whisper, WHICH_CARD)
    assert reading.match is None or reading.match.intent != {"intent": "undo"}


def test_a_card_the_prompt_put_there_is_asked_about_at_a_prompt_with_words_heard_only_exactly():
    """Centurion hears a rank or suit alone only as said (exact intents), and a whole card
    as any reply: "the queen of clubs" was read "the three of clubs", a phrase of the prompt."""
    whisper = SteeredWhisper(
        "the three of clubs", {" The three of clubs.": -11.0, " We have clubs.": -3.4}, [" We have clubs."]
    )
    reading = read(whisper, Prompt("centurion/play_card", "Ana", "Ana, your card?"))
    assert reading.rival == "we have clubs" and verdict(reading) is Verdict.ASK_FIRST


def test_a_keep_cool_turn_is_left_to_its_own_checks():
    """There any speech is a move (a clue): the word check and the second listener judge it."""
    from host.games import grammar_slots

    turn = Prompt(
        "keep-cool/word",
        "Ana",
        "",
        slots=grammar_slots("keep-cool/word", {"words": ["kettle"], "roster": ["Ana", "Ben"]}),
    )
    whisper = SteeredWhisper("ana got it", {" Ana got it.": -14.0, " A lemon.": -2.0}, [" A lemon."])
    read(whisper, turn)
    assert whisper.scored == []


class DecodingWhisper(SteeredWhisper):
    """Also decodes inside a grammar (voice.listening.reading.DecodesInGrammar); what the
    decoder names is set by the test through steering.decoded_says."""

    def decode_in_grammar(self, audio, graph):
        return []


def test_a_phrase_the_decoder_hears_inside_the_grammar_without_the_prompt_stands(monkeypatch):
    """Whisper unprompted reads some voices' "ace of spades" as "based on spades", words of
    no move; decoded inside the grammar, with no prompt, the sound still picks the same
    move among all of the grammar's: the reading stands. With grammar decoding off
    (grammar_decoding = false) it is asked about."""
    import voice.listening.steering as steering

    asked_about: list[dict] = []
    monkeypatch.setattr(
        steering, "decoded_says", lambda recognizer, utterance, table, intent: not asked_about.append(intent)
    )
    likelihood = {" That's right.": -14.0, " Based on spades.": -2.0}
    reading = read(DecodingWhisper("that's right", likelihood, [" Based on spades."]))
    assert asked_about == [{"intent": "predict", "guess": "correct"}] and verdict(reading) is Verdict.ACT
    undecoded = read_checked(
        DecodingWhisper("that's right", likelihood, [" Based on spades."]),
        Matcher(),
        PREDICT,
        Utterance(np.zeros(16000, np.float32), 0, 1),
        in_grammar=False,
        acts=acts,
    )
    assert verdict(undecoded) is Verdict.ASK_FIRST
