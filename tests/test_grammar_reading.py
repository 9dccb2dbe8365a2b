"""The reading pipeline with decoding inside the grammar, on real speech and the real
Whisper model (voice/listening/reading.py judge, voice/understanding/grammar_decode.py).

The recordings in tests/fixtures/decoding/ are espeak-ng voices (generated here: no
licence beyond the project's) saying coffee orders of docs/examples/coffee_maker.yaml,
Picovoice's benchmark grammar; each was chosen because the free reading alone gets
it wrong or asks about it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from host.contract import Prompt
from host.reply_policy import Verdict, decide
from partyhost.bench.manifest import bench_prompt, first_utterance
from partyhost.config import Settings
from partyhost.listening_chain import reader_for
from voice.audio_types import Hypothesis
from voice.listening.audio_in import read_wav_16k
from voice.listening.reading import judge, weigh
from voice.understanding.matcher import Matcher

pytestmark = pytest.mark.model

HERE = Path(__file__).resolve().parent
COFFEE = HERE.parent / "docs" / "examples" / "coffee_maker.yaml"
RECORDINGS = HERE / "fixtures" / "decoding"
ORDER = bench_prompt("coffee_maker/order", {})


@pytest.fixture(scope="module")
def reader():
    return reader_for(Settings())


@pytest.fixture(scope="module")
def coffee():
    return Matcher(common=False, grammar_file=COFFEE)


def heard(reader, matcher, name: str, prompt=ORDER, in_grammar: bool = True):
    utterance = first_utterance(read_wav_16k(RECORDINGS / name))
    reading = replace(reader, in_grammar=in_grammar).read(matcher, prompt, utterance)
    match = matcher.match(prompt.name, reading.text, prompt.slots) if not reading.rejected else None
    return reading, match


def acted_on(reading, match) -> bool:
    return match is not None and match.intent is not None and decide(match, reading.unsure) is Verdict.ACT


def test_a_value_the_free_reading_doubts_is_decoded_inside_the_grammar(reader, coffee):
    """The free reading's n-best holds "america" for "mocha" nearly as well, so alone
    it would ask; decoding inside the grammar can only write a drink of the list, and
    writes the one said, sure of it."""
    free, _ = heard(reader, coffee, "small-dark-roast-mocha.wav", in_grammar=False)
    assert any("america" in h.text for h in free.hypotheses)
    reading, match = heard(reader, coffee, "small-dark-roast-mocha.wav")
    assert acted_on(reading, match)
    assert match.intent == {
        "intent": "orderDrink",
        "size": "small",
        "roast": "dark roast",
        "numberOfShots": "single shot",
        "coffeeDrink": "mocha",
    }


@pytest.mark.parametrize(
    "name, expect",
    [
        (
            "espresso-almond-milk-brown-sugar.wav",
            {
                "intent": "orderDrink",
                "numberOfShots": "single shot",
                "coffeeDrink": "espresso",
                "milkAmount": "a bit of almond milk",
                "sugarAmount": "a bit of brown sugar",
            },
        ),
        (
            "americano-cream-brown-sugar.wav",
            {
                "intent": "orderDrink",
                "numberOfShots": "double shot",
                "coffeeDrink": "americano",
                "milkAmount": "cream",
                "sugarAmount": "a lot of brown sugar",
            },
        ),
    ],
)
def test_a_right_long_order_is_acted_on_without_asking(reader, coffee, name, expect):
    """A long order whose free n-best has another order close behind (one differing
    word barely moves an averaged confidence: "Did you mean ...?" alone) is acted on:
    the decoder's posterior among the grammar's paths is sure of it."""
    free, _ = heard(reader, coffee, name, in_grammar=False)
    rival = Hypothesis(free.text.replace(expect["numberOfShots"].split()[0], "triple", 1), free.confidence)
    doubting = weigh(
        free.hypotheses + (rival,),
        [coffee.match(ORDER.name, h.text) for h in free.hypotheses + (rival,)],
        False,
        free.utterance,
    )
    assert doubting.unsure and not doubting.rejected  # what the host did alone: ask
    table = coffee.table(ORDER.name)
    reading = judge(reader.recognizer.decode_in_grammar(free.utterance.audio, table.graph), table, doubting)
    match = coffee.match(ORDER.name, reading.text)
    assert acted_on(reading, match) and match.intent == expect
    assert reading.posterior is not None and reading.posterior > 0.9


def test_table_talk_is_not_a_path_of_the_grammar(reader):
    """Chatter read at game prompts (the committed negatives): the decoder, held to the
    grammar, pays far more regret per word than the line, so it has no say, and the
    reply is not acted on."""
    from host.games import grammar_slots
    from partyhost.bench.manifest import manifest_lines
    from voice.listening.reading import REGRET_PER_WORD, judge

    manifest = HERE / "fixtures" / "voice" / "manifest.jsonl"
    chatter = [
        line
        for line in manifest_lines(manifest)
        if line.get("source") == "chatter" and line["game"] not in ("keep-cool",)
    ][:6]
    assert len(chatter) >= 4
    matcher = Matcher()
    for line in chatter:
        prompt = bench_prompt(
            f"{line['game']}/{line['prompt']}",
            grammar_slots(f"{line['game']}/{line['prompt']}", line.get("context") or {}),
        )
        utterance = first_utterance(read_wav_16k(manifest.parent / line["wav"]))
        table = matcher.table(prompt.name, prompt.slots)
        free = replace(reader, in_grammar=False).read(matcher, prompt, utterance)
        reading = judge(reader.recognizer.decode_in_grammar(utterance.audio, table.graph), table, free)
        note = next(h.details for h in reading.hypotheses if h.details and "decoded" in h.details)
        assert note.get("regret_per_word", REGRET_PER_WORD + 1) > REGRET_PER_WORD, (line["text"], note)
        assert reading.posterior is None  # the decoded reading had no say
        match = matcher.match(prompt.name, reading.text, prompt.slots) if not reading.rejected else None
        assert not acted_on(reading, match), (line["text"], reading.text)


# ---- narrowed questions ------------------------------------------------------------

NARROWED_VOICES = ("piper-1", "espeak-en-gb")  # the fixtures' voices (tests/speech_fixtures.py)


@pytest.fixture(scope="module")
def voices():
    from partyhost_lab.synthetic_speech import Voices

    return Voices(noise_scale=0)


def narrowed(kind: str) -> Prompt:
    """A narrowed question as host/narrowing.py asks it: its few choices and the commands."""
    from host.contract import joined_prompt
    from host.narrowing import CHOICE_PROMPT

    name = CHOICE_PROMPT if kind == "choice" else joined_prompt(kind, CHOICE_PROMPT)
    return bench_prompt(name, {"choice": [("1", 0), ("2", 1), ("3", 2)]})


def said(voices, voice: str, text: str):
    from voice.audio_types import Utterance
    from voice.speaking.mixing import at_level, padded

    audio = padded(at_level(voices.speak(voice, text), -23.0))
    return Utterance(audio, start=0.0, end=len(audio) / 16000)


@pytest.mark.parametrize("voice", NARROWED_VOICES)
def test_a_short_answer_to_a_narrowed_question_is_read_as_said(reader, voices, voice):
    """ "2" to "which card: 1, 2 or 3?" and "yes" to "Card 1?" are heard by the free
    reading itself, not left empty (the stalls of the table bench that looked so were
    whole lines said again, below), and acted on."""
    matcher = Matcher()
    for kind, text, expect in (
        ("choice", "two", {"intent": "choice", "index": 1}),
        ("common/yes_no", "yes", {"intent": "yes"}),
    ):
        prompt = narrowed(kind)
        reading = reader.read(matcher, prompt, said(voices, voice, text))
        assert any(h.text for h in reading.hypotheses), (voice, text)
        assert not reading.rejected and reading.match.intent == expect, (voice, text, reading.text)
        assert decide(reading.match, reading.unsure) is Verdict.ACT


@pytest.mark.parametrize("voice", NARROWED_VOICES)
def test_a_whole_line_said_again_to_a_narrowed_question_is_no_choice(reader, voices, voice):
    """A player who says the whole move again ("card two with the fifty card") to "which
    card: 1, 2 or 3?": the decoder, held to the choices, can only write one of them and
    may be sure of it among them (Ana's voice in the table bench: "1", posterior 1.0), but
    pays a regret no answer pays, so nothing is taken: a looser rule at narrowed questions
    would take card one for card two."""
    matcher = Matcher()
    reading = reader.read(matcher, narrowed("choice"), said(voices, voice, "card two with the fifty card"))
    assert reading.rejected or reading.match is None or reading.match.intent is None, reading.text
