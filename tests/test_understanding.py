"""Understanding by grammar graph: clear answers are never snapped to another value,
"Did you mean ...?" takes a correction, and grammars of any size load.

Each snapping case is one a new player met with the phrase-list matcher (issue 18).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_session import ScriptEars, make_session
from understood import Say

from host.games import grammar_slots
from voice.understanding.grammar import Grammar
from voice.understanding.matcher import Matcher, phrase_count

MATCHER = Matcher()
COFFEE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "coffee_maker.yaml"


def six_cards() -> dict:
    return {
        "card_number": [(str(n), n) for n in range(1, 7)],
        "card_ordinal": [("first", 1), ("second", 2)],
        "card_word": [("olive", 1), ("oil", 1), ("olive oil", 1), ("weight", 2), ("height", 3)],
    }


@pytest.mark.parametrize(
    "prompt, heard, live, said",
    [
        ("keep-it-100/choose_card", "card 9", six_cards(), "There is no card nine. Your cards are one to six."),
        (
            "zero-to-100/choose_card",
            "card 7",
            {"card": [(str(n), n) for n in range(1, 7)]},
            "There is no card seven. Your cards are one to six.",
        ),
        (
            "zero-to-100/discard",
            "card 9",
            {"card": [(str(n), n) for n in range(1, 7)]},
            "There is no card nine. Your cards are one to six.",
        ),
        (
            "keep-it-100/place",
            "between 3 and 7",
            {"table_number": [("5", 5), ("35", 35), ("80", 80)], "line_number": [("one", 1)]},
            "Three is not on the table. The numbers on the table are five, thirty five and eighty.",
        ),
        (
            "keep-it-100/place",
            "between 20 and 50",
            {"table_number": [("5", 5), ("35", 35), ("80", 80)], "line_number": [("one", 1)]},
            "Twenty is not on the table. The numbers on the table are five, thirty five and eighty.",
        ),
        ("one-percent/bid", "500 stars", None, "You can't bid five hundred. A bid is one to thirty of one kind."),
        ("keep-cool/setup", "line 15", None, "There is no line fifteen. The lines are one to ten."),
        ("centurion/play_card", "15 of hearts", None, "There is no fifteen in the deck. Cards go from ace to king."),
    ],
)
def test_a_clear_value_that_is_not_available_is_answered_not_swapped(prompt, heard, live, said):
    match = MATCHER.match(prompt, heard, live)
    assert match.intent is None
    assert match.unavailable == said


def test_a_word_near_a_card_word_is_not_taken_for_it():
    """ "right" at a card prompt is no card ("weight" was offered before)."""
    match = MATCHER.match("keep-it-100/choose_card", "right", six_cards())
    assert match.intent is None and not match.unavailable


def test_the_whole_card_text_names_the_card():
    match = MATCHER.match("keep-it-100/choose_card", "olive oil", six_cards())
    assert match.intent == {"intent": "choose_card", "card": 1} and not match.needs_confirmation


def test_card_words_include_the_cards_own_two_word_names():
    from host.games.keep_it_100 import telling_words

    words = telling_words(["Olive oil is what percent fat?", "How tall is the tallest tree?"])
    assert ("olive oil", 1) in words


def test_words_between_two_moves_are_asked_about_with_the_rival_named():
    match = MATCHER.match("keep-it-100/choose_card", "card fine", six_cards())
    assert match.intent == {"intent": "choose_card", "card": 5}
    assert match.unsure and match.needs_confirmation
    assert match.rival is not None and match.rival.intent["card"] != 5


def test_exactly_said_replies_are_not_asked_about():
    for prompt, heard in [
        ("keep-it-100/predict", "lower"),
        ("centurion/play_card", "i'll play the ace of clubs"),
        ("one-percent/reward", "reroll"),
    ]:
        match = MATCHER.match(prompt, heard)
        assert match.intent is not None and not match.needs_confirmation, (prompt, heard)


def test_a_number_is_what_was_said_even_when_another_spelling_is_close():
    live = grammar_slots("keep-it-100/bet", {"max": 100, "step": 10})
    assert MATCHER.match("keep-it-100/bet", "bet sixty", live).intent["amount"] == 60
    assert MATCHER.match("keep-it-100/bet", "bet sixteen", live).intent["amount"] == 16


# ---- "Did you mean ...?" takes a correction -------------------------------------


class UnsureFirst(ScriptEars):
    """The first reply is marked unsure (the ears heard another move nearly as well)."""

    def __init__(self, lines):
        super().__init__(lines)
        self.first = True

    def hear(self, prompt):
        if self.lines and self.first:
            self.first = False
            return self.understood(prompt, Say(self.lines.pop(0), rival="another move"))
        return super().hear(prompt)


def run(tmp_path, lines):
    session, mouth, journal, log = make_session(tmp_path, [], ears=UnsureFirst(lines))
    session.start()
    session.run()
    return session, mouth


def test_a_corrected_answer_at_did_you_mean_is_taken(tmp_path):
    session, mouth = run(tmp_path, ["four", "three"])
    assert "Did you mean: four?" in mouth.said
    assert session.state.total == 3  # the correction, not four
    assert "Okay, let's try again." not in mouth.said


def test_yes_acts_and_no_asks_again(tmp_path):
    session, mouth = run(tmp_path, ["four", "yes"])
    assert session.state.total == 4
    session, mouth = run(tmp_path / "b", ["four", "no"])
    assert session.state.total == 0 and "Okay, let's try again." in mouth.said


def test_a_common_command_still_works_at_did_you_mean(tmp_path):
    session, mouth = run(tmp_path, ["four", "what's the score", "yes"])
    assert "The total is 0." in mouth.said
    assert mouth.said.count("Did you mean: four?") == 2 and session.state.total == 4


def test_an_unavailable_value_is_answered_by_the_session(tmp_path):
    session, mouth, journal, log = make_session(tmp_path, ["one hundred five"])
    session.start()
    session.run()
    assert "One hundred five is out of range. Say a number from zero to one hundred." in mouth.said
    assert session.state.total == 0


# ---- any size of grammar ---------------------------------------------------------


def test_the_coffee_grammar_loads_whole_and_understands_multi_slot_orders():
    started = time.perf_counter()
    grammar = Grammar.load(COFFEE)
    matcher = Matcher(COFFEE.parent, common=False)
    table = matcher.table("coffee_maker/order")
    assert time.perf_counter() - started < 30  # generous: the benchmark measures it
    assert phrase_count(table.graph.plain()) > 10**8  # the phrases a list would have needed
    assert grammar.prompts["coffee_maker/order"] == ["orderDrink"]
    match = table.match(
        "can I get a large dark roast double shot cappuccino with lots of milk and a little bit of sugar"
    )
    assert match.intent == {
        "intent": "orderDrink",
        "size": "large",
        "roast": "dark roast",
        "numberOfShots": "double shot",
        "coffeeDrink": "cappuccino",
        "milkAmount": "lots of milk",
        "sugarAmount": "a little bit of sugar",
    }
    assert table.match("a coffee").intent == {"intent": "orderDrink", "coffeeDrink": "coffee"}


# ---- a word of the game is that word; a word left over may belong to a value -----------


@pytest.mark.parametrize("prompt", ["keep-it-100/place", "keep-it-100/choose_card", "keep-it-100/bet"])
def test_a_word_of_the_game_is_never_taken_for_a_command(prompt):
    """ "lower" is a Keep It 100 prediction: at any of its prompts it is never "slower"."""
    match = MATCHER.match(prompt, "lower", {})
    assert match.intent is None or match.intent["intent"] != "slower"
    assert MATCHER.match(prompt, "slower", {}).intent == {"intent": "slower"}


def test_lower_is_a_move_where_it_is_one_and_a_near_command_elsewhere_still_works():
    assert MATCHER.match("keep-it-100/predict", "lower", {}).intent == {"intent": "predict", "guess": "lower"}
    assert MATCHER.match("keep-it-100/place", "what the score", {}).intent == {"intent": "score"}
    assert MATCHER.match("keep-it-100/place", "and you", {}).intent == {"intent": "undo"}


def test_a_heard_word_beside_a_value_that_makes_another_value_is_read_as_that_value():
    """ "phone milk" is not "milk" with a word dropped: "whole milk" takes in the word,
    so it is the reading, asked about first (a guess); "skin milk" is skim milk."""
    table = Matcher(COFFEE.parent, common=False).table("coffee_maker/order")
    phone = table.match("can i get a latte with phone milk")
    assert phone.intent["milkAmount"] == "whole milk" and phone.needs_confirmation
    assert phone.rival is not None and phone.rival.intent["milkAmount"] == "milk"
    skin = table.match("can i get a large latte with a lot of skin milk")
    assert skin.intent["milkAmount"] == "a lot of skim milk"
    assert table.match("can i get a latte with milk").intent["milkAmount"] == "milk"
