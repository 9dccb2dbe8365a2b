"""Every word a grammar can produce must be pronounceable by the recognisers.

PocketSphinx needs each word in its dictionary plus grammars/pronunciations.dict;
this checks every phrase of every prompt of grammars/*.yaml, and the words the
decks put into live lists (Keep Cool's word cards, the question words players use
to pick a card: "the pizza one"). Whisper spells anything; Vosk's vocabulary is
checked when a grammar is compiled (tests/test_asr_vosk.py).
"""

from __future__ import annotations

import pytest

from voice.understanding.normalize import normalize
from voice.understanding.pronounce import TYPED_ONLY, check_phrases, grammar_phrases, sphinx_entries, spoken
from voice.understanding.vocabulary import parse_dictionary

pytestmark = pytest.mark.model

pytest.importorskip("pocketsphinx", reason="pocketsphinx (a project dependency) has the dictionary")


def test_every_phrase_of_every_prompt_can_be_said():
    phrases = grammar_phrases()
    assert {"common/number", "one-percent/bid", "keep-cool/word"} <= set(phrases)
    everything = [p for texts in phrases.values() for p in texts]
    coverage = check_phrases(everything)
    assert coverage.ok, coverage.describe()
    assert set(coverage.typed_only) <= TYPED_ONLY
    assert len(coverage.words) > 300


def test_every_deck_word_can_be_said():
    from host.decks import load_default_decks
    from host.games import dealing
    from host.games.keep_it_100 import telling_words

    decks = load_default_decks(question_games=dealing("questions"))
    card_words = [normalize(w, strip_fillers=False) for card in decks.words for w in card.red + card.blue]
    question_words = [w for q in decks.questions for w, _ in telling_words([q.text], 1000)]
    assert len(card_words) > 1000 and len(question_words) > 1000
    for words in (card_words, question_words):
        coverage = check_phrases(words)
        assert coverage.ok, coverage.describe()


def test_missing_words_are_reported_with_where_they_occur():
    small = parse_dictionary("yes  Y EH1 S\nno  N OW1\n")
    coverage = check_phrases(["yes", "no way", "the two nd one"], small)
    assert not coverage.ok
    assert coverage.missing == ["way", "the", "two", "one"]
    assert coverage.where["way"] == "no way"
    assert coverage.typed_only == ["nd"]
    assert "grammars/pronunciations.dict" in coverage.describe()
    assert not spoken("the two nd one") and spoken("the second one")


def test_pocketsphinx_gets_our_entries_and_derived_possessives():
    small = parse_dictionary("panda  P AE1 N D AH0\nreroll  R IY0 R OW1 L\n")
    entries = dict(sphinx_entries(["panda's", "reroll", "yes", "nd"], {"yes"}, small))
    assert entries == {"panda's": "P AE N D AH Z", "reroll": "R IY R OW L"}
