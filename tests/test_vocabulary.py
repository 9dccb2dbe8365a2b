"""voice/understanding/vocabulary.py: the pronouncing dictionary and which words sound alike.

Tests that read PocketSphinx's dictionary skip when pocketsphinx is not installed
(it is a project dependency); the rest run on small dictionaries written here.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from voice.understanding import vocabulary
from voice.understanding.vocabulary import (
    VocabularyError,
    confusable_pairs,
    load_dictionary,
    missing_words,
    parse_dictionary,
    sounds_alike,
)

pytestmark = pytest.mark.model

REPO = Path(__file__).resolve().parent.parent

needs_pocketsphinx = pytest.mark.skipif(
    importlib.util.find_spec("pocketsphinx") is None,
    reason="pocketsphinx is not installed, so its pronouncing dictionary is missing "
    "(pip install 'pocketsphinx>=5'; it is a project dependency)",
)

SMALL = parse_dictionary("""\
;;; a comment, as in the CMU dictionary
# and another kind
candle  K AE1 N D AH0 L
handle  HH AE1 N D AH0 L
flour  F L AW1 ER0
flour(2)  F L AW1 R
flower  F L AW1 ER0
tiger  T AY1 G ER0
table  T EY1 B AH0 L
read  R EH1 D
read(2)  R IY1 D
reed  R IY1 D
""")


# ---------------------------------------------------------------------------
# Parsing


def test_parse_keeps_alternates_and_drops_stress():
    assert SMALL["flour"] == (("F", "L", "AW", "ER"), ("F", "L", "AW", "R"))
    assert SMALL["candle"] == (("K", "AE", "N", "D", "AH", "L"),)
    assert "a" not in SMALL and len(SMALL) == 8


def test_parse_lowercases_and_merges_repeats():
    parsed = parse_dictionary("Kazoo K AH Z UW\nkazoo(2) K AH0 Z UW1\nkazoo(3) K AE Z UW\n")
    assert parsed == {"kazoo": (("K", "AH", "Z", "UW"), ("K", "AE", "Z", "UW"))}


def test_parse_refuses_a_word_without_phones():
    with pytest.raises(VocabularyError, match=r"extra.dict:2: 'oops' has a word but no phones"):
        parse_dictionary("fine F AY N\noops\n", "extra.dict")


SORTED_FILE = """\
candle  K AE1 N D AH0 L
flour  F L AW1 ER0
flour(2)  F L AW1 R
flower  F L AW1 ER0
read  R EH1 D
read(2)  R IY1 D
read(3)  R EH0 D
reed  R IY1 D
"""


@pytest.mark.parametrize(
    "text",
    [SORTED_FILE, "reed  R IY1 D\n" + SORTED_FILE, ";;; note\n" + SORTED_FILE],
    ids=["sorted, looked up by bisection", "out of order", "with a comment"],
)
def test_a_dictionary_file_reads_as_its_whole_parse(tmp_path, text):
    path = tmp_path / "words.dict"
    path.write_text(text, encoding="utf-8")
    added = {"flour": (("F", "L", "AW", "ER"), ("F", "L", "OW", "R")), "kazoo": (("K", "AH", "Z", "UW"),)}
    read = vocabulary.PronouncingFile(path, added)
    whole = parse_dictionary(text)
    whole["flour"] += (("F", "L", "OW", "R"),)
    whole["kazoo"] = (("K", "AH", "Z", "UW"),)
    for word in [*whole, "a", "candles", "zebra", "read(2)", ""]:
        assert read.get(word) == whole.get(word), word
    assert dict(read) == whole and len(read) == len(whole)


def test_a_sorted_file_with_a_line_without_phones_is_refused_when_opened(tmp_path):
    """As the whole parse refuses it: not later, at some word's lookup in the middle of a game."""
    path = tmp_path / "words.dict"
    path.write_text(SORTED_FILE.replace("flower  F L AW1 ER0", "flower"), encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"words.dict:4: 'flower' has a word but no phones"):
        vocabulary.PronouncingFile(path)


@needs_pocketsphinx
def test_pocketsphinx_dictionary_is_looked_up_without_a_whole_parse():
    """A process that plays looks words up by bisection; every answer is the whole parse's."""
    path = vocabulary.pocketsphinx_dictionary_path()
    read = vocabulary.PronouncingFile(path)
    whole = parse_dictionary(path.read_text(encoding="utf-8", errors="replace"))
    for word in list(whole)[::97] + ["read", "undo", "centurion", "qzxv"]:
        assert read.get(word) == whole.get(word), word
    assert read._whole is None  # nothing parsed whole so far


# ---------------------------------------------------------------------------
# Sounding alike


def test_one_phone_apart_and_homophones_are_confusable():
    pairs = confusable_pairs(["candle", "tiger", "handle", "flour", "flower", "table"], dictionary=SMALL)
    assert pairs == [("candle", "handle"), ("flour", "flower")]


def test_any_pronunciation_counts():
    """'read' said R IY D is 'reed'."""
    assert sounds_alike("read", "reed", 0, SMALL)
    assert confusable_pairs(["read", "reed"], 0, SMALL) == [("read", "reed")]


def test_max_distance():
    assert confusable_pairs(["candle", "handle"], max_distance=0, dictionary=SMALL) == []
    assert confusable_pairs(["tiger", "table"], 3, SMALL) == []
    assert confusable_pairs(["tiger", "table"], 4, SMALL) == [("tiger", "table")]


def test_a_word_never_sounds_like_itself_and_unknown_words_sound_like_nothing():
    assert not sounds_alike("candle", "candle", 1, SMALL)
    assert not sounds_alike("candle", "Candle", 1, SMALL)
    assert not sounds_alike("candle", "kandle", 1, SMALL)
    assert confusable_pairs(["candle", "candle", "kandle"], dictionary=SMALL) == []


def test_sounds_alike_is_symmetric():
    words = list(SMALL)
    for a in words:
        for b in words:
            assert sounds_alike(a, b, 1, SMALL) == sounds_alike(b, a, 1, SMALL)


def test_missing_words_keeps_order_and_lists_each_once():
    assert missing_words(["zebra", "tiger", "apple", "zebra", "Tiger"], SMALL) == ["zebra", "apple"]


# ---------------------------------------------------------------------------
# The real dictionary


@needs_pocketsphinx
def test_pocketsphinx_dictionary_loads():
    dictionary = load_dictionary()
    assert len(dictionary) > 100_000
    assert dictionary["tiger"] == (("T", "AY", "G", "ER"),)
    assert missing_words(["tiger", "dragonfly", "apple"]) == ["dragonfly"]


@needs_pocketsphinx
def test_real_confusable_pairs():
    pairs = confusable_pairs(["candle", "handle", "flour", "flower", "tiger", "zebra", "chair", "hair"])
    assert pairs == [("candle", "handle"), ("flour", "flower"), ("chair", "hair")]


@needs_pocketsphinx
def test_extra_pronunciations_are_added(tmp_path):
    extra = tmp_path / "pronunciations.dict"
    extra.write_text("dragonfly  D R AE1 G AH0 N F L AY2\ntiger  T IY G ER\n", encoding="utf-8")
    dictionary = load_dictionary(extra)
    assert dictionary["dragonfly"] == (("D", "R", "AE", "G", "AH", "N", "F", "L", "AY"),)
    assert dictionary["tiger"] == (("T", "AY", "G", "ER"), ("T", "IY", "G", "ER"))
    assert missing_words(["dragonfly"], dictionary) == []
    assert "dragonfly" not in load_dictionary(tmp_path / "absent.dict")


def test_no_pocketsphinx_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pocketsphinx", None)  # import now fails
    with pytest.raises(VocabularyError, match=r"pocketsphinx is not installed.*pip install"):
        load_dictionary()
    with pytest.raises(VocabularyError):
        missing_words(["tiger"])


def test_the_shipped_pronunciations_file_parses():
    """grammars/pronunciations.dict is optional; when present it must parse."""
    path = vocabulary.EXTRA_PRONUNCIATIONS
    if path.is_file():
        parse_dictionary(path.read_text(encoding="utf-8"), str(path))
    assert path.parent == REPO / "grammars"


def test_vocabulary_knows_no_game_rules():
    code = (
        "import sys, voice.understanding.vocabulary; "
        "print(sorted(m for m in sys.modules if m == 'host' or m.startswith('host.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert set(ast.literal_eval(out.strip())) <= {
        "host",
        "host.contract",
        "host.errors",
    }  # the meeting points, no rules


def test_possessives_are_derived_from_their_word():
    dictionary = {"panda": (("P", "AE", "N", "D", "AH"),), "cat": (("K", "AE", "T"),), "fox": (("F", "AA", "K", "S"),)}
    assert vocabulary.pronunciations("panda's", dictionary) == (("P", "AE", "N", "D", "AH", "Z"),)
    assert vocabulary.pronunciations("cat's", dictionary) == (("K", "AE", "T", "S"),)
    assert vocabulary.pronunciations("fox's", dictionary) == (("F", "AA", "K", "S", "IH", "Z"),)
    assert vocabulary.missing_words(["panda's", "dog's"], dictionary) == ["dog's"]
