"""The grammar expander, normaliser and matcher on typed text (no audio)."""

from pathlib import Path

import pytest

from voice.understanding.grammar import Grammar, GrammarError, load_grammar
from voice.understanding.matcher import Matcher
from voice.understanding.normalize import normalize, number_words


@pytest.mark.parametrize(
    "n, words",
    [
        (0, "zero"),
        (7, "seven"),
        (13, "thirteen"),
        (40, "forty"),
        (57, "fifty seven"),
        (100, "one hundred"),
        (105, "one hundred five"),
        (2024, "two thousand twenty four"),
    ],
)
def test_number_words(n, words):
    assert number_words(n) == words


@pytest.mark.parametrize(
    "typed, normal",
    [
        ("12 Clovers!", "twelve clovers"),
        ("Um, twelve clover", "twelve clover"),
        ("I think it's 57.", "it's fifty seven"),
        ("That's FALSE!!", "that's false"),
        ("twenty-one", "twenty one"),
        ("  ", ""),
        ("card 3 +50 -20", "card three plus fifty minus twenty"),
        ("ten-year-old", "ten year old"),
        ("the 2nd one", "the second one"),
        ("21st card", "twenty first card"),
        ("12th", "twelfth"),
        ("100th", "one hundredth"),
        ("Let's play 1%.", "let's play one percent"),  # what speech-to-text writes for "one percent"
        ("50 %", "fifty percent"),
    ],
)
def test_normalize(typed, normal):
    assert normalize(typed) == normal


def test_number_prompt_accepts_digits_words_and_slips():
    m = Matcher()
    assert m.match("common/number", "12").intent == {"intent": "number", "value": 12}
    assert m.match("common/number", "twelve").intent == {"intent": "number", "value": 12}
    assert m.match("common/number", "a hundred").intent == {"intent": "number", "value": 100}
    assert m.match("common/number", "um, let's say 0").intent == {"intent": "number", "value": 0}
    assert m.match("common/number", "twenty won").intent == {"intent": "number", "value": 21}  # by sound
    slip = m.match("common/number", "twenty onne")
    assert slip.intent == {"intent": "number", "value": 21} and slip.score < 100


@pytest.mark.parametrize("nonsense", ["banana bread", "the weather is nice today", "xyzzy", ""])
def test_nonsense_is_refused(nonsense):
    assert Matcher().match("common/number", nonsense).intent is None


def test_common_commands_are_heard_at_every_prompt():
    m = Matcher()
    assert m.match("common/number", "what's the score").intent == {"intent": "score"}
    assert m.match("common/yes_no", "undo that").intent == {"intent": "undo"}
    assert m.match("common/yes_no", "yes").intent == {"intent": "yes"}


def test_live_lists_replace_file_lists():
    roster = {"roster": [("ana", "Ana"), ("ben", "Ben")]}
    m = Matcher()
    assert m.match("common/name", "it's Ben", roster).intent == {"intent": "name", "name": "Ben"}
    assert m.match("common/name", "Zed", roster).intent is None


def test_the_prompt_order_names_every_live_value_early_and_leaves_addressed_commands_late():
    """A Keep Cool turn: 12 words in play (24 with plurals) must not crowd out the
    three names, and "host, timer ..." is not among the first phrases."""
    from host.games import grammar_slots

    words = "kettle glove mouse river ladder denim bubble cork shuttle college condo actress".split()
    live = grammar_slots("keep-cool/word", {"words": words, "roster": ["Ana", "Ben", "Cy"]})
    assert len(live["word"]) == 24 and len(live["player"]) == 3
    texts = Matcher().table("keep-cool/word", live).texts
    first = texts[:8]
    for name in ("ana", "ben", "cy"):
        assert any(name in text.split() for text in first), first
    assert sum(any(word in text.split() for text in first) for word in words) >= 4
    assert not any(text.startswith("host") for text in first)
    assert any(text.startswith("host") for text in texts)  # still there, later


@pytest.mark.parametrize(
    "heard, intent",
    [
        ("a post pause", "pause"),
        ("a house help", "help"),
        ("alist scores", "score"),
        ("first and you", "undo"),
        ("host scores", "score"),
    ],
)
def test_a_keep_cool_command_is_understood_with_its_prefix_word_misheard(heard, intent):
    from host.games import grammar_slots

    live = grammar_slots("keep-cool/word", {"words": ["kettle", "pillow"], "roster": ["Ana", "Ben"]})
    assert Matcher().match("keep-cool/word", heard, live).intent == {"intent": intent}


@pytest.mark.parametrize("heard", ["rub it", "let's do that", "score", "help", "a rocket", "rocket knife"])
def test_clues_do_not_become_commands(heard):
    """One word is a clue, even a command word; before a near spelling of a command
    ("it" / "quit", "do that" / "undo that") a word does not stand for the prefix."""
    from host.games import grammar_slots

    live = grammar_slots("keep-cool/word", {"words": ["kettle", "pillow"], "roster": ["Ana", "Ben"]})
    assert Matcher().match("keep-cool/word", heard, live).intent["intent"] == "word"


def test_a_narrowed_question_names_the_commands_in_the_recogniser_prompt_and_an_open_one_does_not():
    """ "undo" at "which card: 1, 2 or 3?" was read "two": the prompt was all "it's one one",
    "take one one". At a narrowed question and "Did you mean" the commands come right
    after the choices' first words; an open prompt keeps its own phrases first."""
    choices = {"choice": [("1", 0), ("2", 1), ("3", 2)]}
    for name in ("common/choice", "common/yes_no+common/choice", "common/yes_no+keep-it-100/predict"):
        first = Matcher().table(name, choices).texts[:10]
        assert {"undo that", "repeat that", "what's the score", "whose turn is it", "what can i say"} <= set(first)
    assert "undo that" not in Matcher().table("keep-it-100/predict").texts[:40]


def test_live_lists_of_numbers_keep_the_grammar_order():
    """A bet (0 to 100): the amounts are the prompt's vocabulary, in order; "all in"
    and "everything" (worth a number) do not jump ahead of them."""
    from host.games import grammar_slots

    live = grammar_slots("keep-it-100/bet", {"max": 100, "step": 10})
    assert {text for text, _ in live["bet_all"]} == {"all in", "everything"}
    texts = Matcher().table("keep-it-100/bet", live).texts
    counting = "one two three four five six seven eight nine ten eleven twelve".split()
    assert [t for t in texts[:14] if t in counting] == counting
    assert not any("everything" in t.split() or "all in" in t for t in texts[:24]), texts[:24]


def test_menu_understands_spoken_game_names():
    m = Matcher()
    assert m.match("common/menu", "let's play keep cool").intent["game"] == "keep-cool"
    assert m.match("common/menu", "zero to a hundred").intent["game"] == "zero-to-100"
    assert m.match("common/menu", "one percent").intent["game"] == "one-percent"


def test_middling_match_asks_for_confirmation():
    m = Matcher()
    match = m.match("common/number", "fourty seven")
    assert match.intent == {"intent": "number", "value": 47}
    assert m.match("common/yes_no", "yesh").needs_confirmation or m.match("common/yes_no", "yesh").intent is None


def test_list_slots_collect_values_and_fallbacks(tmp_path: Path):
    path = tmp_path / "g.yaml"
    path.write_text("""
language: en
prompts:
  g/pick: [pick]
  g/word: [word]
list_slots: [powers]
expansion_rules:
  power_part: "with {power:powers}"
fallbacks:
  g/word: {intent: word, word: null}
intents:
  pick:
    data:
      - sentences: ["card {n:card} [with {power:powers} [and {power:powers}]]", "number {n:card} <power_part>"]
  word:
    data:
      - sentences: ["{word}"]
lists:
  n: {range: {from: 1, to: 3}}
  power: {values: [{in: "plus fifty", out: "+50"}, {in: "spot on", out: spot_on}]}
  word: {values: []}
""")
    m = Matcher(tmp_path, common=False)
    phrases = dict(m.table("g/pick").examples)
    assert phrases["card two"] == {"intent": "pick", "card": 2, "powers": []}
    assert phrases["card three with plus fifty and spot on"]["powers"] == ["+50", "spot_on"]
    assert phrases["number one with spot on"] == {"intent": "pick", "card": 1, "powers": ["spot_on"]}
    assert m.match("g/pick", "card three with spot on and plus fifty").intent["powers"] == ["spot_on", "+50"]
    table = m.table("g/word", {"word": [("piano", "piano")]})
    assert table.match("piano").intent == {"intent": "word", "word": "piano"}
    assert table.match("guitar").intent == {"intent": "word", "word": None, "text": "guitar"}
    assert table.match("like").intent == {"intent": "word", "word": None, "text": "like"}
    assert table.match("this is a long sentence of chatter").intent is None


def test_broken_grammar_files_name_the_file(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("prompts:\n  x/y: [missing]\nintents: {}\n")
    with pytest.raises(GrammarError, match="bad.yaml.*missing"):
        Grammar.load(bad)
    bad.write_text("intents:\n  a:\n    data:\n      - sentences: ['(unclosed']\n")
    with pytest.raises(GrammarError, match="bad.yaml"):
        Grammar.load(bad)
    with pytest.raises(GrammarError, match="not found"):
        load_grammar("no-such-grammar", tmp_path)


@pytest.mark.parametrize("name", ["common", "keep-it-100", "zero-to-100", "keep-cool", "one-percent", "centurion"])
def test_every_grammar_file_loads_and_every_prompt_expands(name):
    grammar = load_grammar(name)
    assert grammar.prompts
    for prompt in grammar.prompts:
        assert grammar.graph(prompt).size  # raises on a missing list or rule
