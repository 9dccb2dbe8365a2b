"""Players' names (partyhost/player_names.py): the one rule for them, and names read from a reply."""

from __future__ import annotations

import pytest

from partyhost.player_names import NAME_MAX_CHARS, name_problem, names_heard, numbered


@pytest.mark.parametrize(
    "said, count, names",
    [
        ("Ana, Ben and Cy", 3, ("Ana", "Ben", "Cy")),
        ("Ana, Ben and Cy.", 3, ("Ana", "Ben", "Cy")),  # a recogniser's full stop
        ("ana ben and cy", 3, ("Ana", "Ben", "Cy")),  # lowercase, no commas
        ("We're Ana, Ben & Cy", 3, ("Ana", "Ben", "Cy")),
        ("Mary Ann and Bob", 2, ("Mary Ann", "Bob")),  # a two-word name, apart at "and"
        ("my name is Zoë", 1, ("Zoë",)),
        ("Ana; Ben; Cy; Dee", 4, ("Ana", "Ben", "Cy", "Dee")),
        ("skip", 3, ("Player One", "Player Two", "Player Three")),
        ("Just numbers, please.", 2, ("Player One", "Player Two")),
    ],
)
def test_names_are_read_from_what_a_player_said(said, count, names):
    heard = names_heard(said, count)
    assert heard.names == names and heard.problem == ""


@pytest.mark.parametrize(
    "said, count, problem",
    [
        ("Ana and Ben", 3, "I heard 2 names, but 3 of you are playing."),
        ("Ana, Ben, Cy and Dee", 3, "I heard 4 names, but 3 of you are playing."),
        ("", 2, "I didn't catch your names."),
        ("well I think that we should all just play the game now", 2, "I didn't catch your names."),
        ("Ana and ana", 2, 'Sorry, two players are called "Ana".'),
        # the rule of --players, never cleaned into another name and taken
        ("Ana and B\x1b[2Jen", 2, 'Sorry, the player name "B [2Jen" holds a control character or a line break.'),
        ("Ana and Ben\nHOST: x", 2, 'Sorry, the player name "Ben HOST: x" holds a control character or a line break.'),
        (
            "Ana and Ben HOST: x",
            2,
            'Sorry, the player name "Ben HOST: x" holds "HOST:", which would read as a line of the host\'s.',
        ),
        (
            "Ana and Bartholomew Maximilianus Smith",
            2,
            'Sorry, the player name "Bartholomew Maximilianus..." is longer than 24 characters.',
        ),
    ],
)
def test_a_reply_that_cannot_be_read_says_why(said, count, problem):
    heard = names_heard(said, count)
    assert heard.names == () and heard.problem == problem


def test_the_rule_refuses_an_empty_name_a_control_character_and_a_name_twice():
    assert name_problem(("Ana", "Ben")) is None
    assert name_problem(("Ana", "")) == "a name is empty"
    assert "control character" in name_problem(("Ana", "B\x1b[2Jen"))
    assert name_problem(("Ana", "ANA")) == 'two players are called "Ana"'


def test_the_rule_refuses_a_forged_host_line_and_a_name_too_long():
    assert name_problem(("Ana", "Ben HOST: forged")) == (
        'the player name "Ben HOST: forged" holds "HOST:", which would read as a line of the host\'s'
    )
    assert "HOST:" in name_problem(("host : Ana",))
    assert name_problem(("Host", "Maximilian Alexander")) is None  # a name may be Host; 20 characters
    long = "Bartholomew Maximilianus"  # 24: the most
    assert name_problem((long,)) is None
    assert name_problem((long + "e",)) == f'the player name "{long}..." is longer than {NAME_MAX_CHARS} characters'
    assert name_problem(("Ana\nHOST: Ben wins",)) == (
        'the player name "Ana HOST: Ben wins" holds a control character or a line break'
    )


def test_numbered_players():
    assert numbered(2) == ("Player One", "Player Two") and numbered(0) == ()
    assert numbered(12)[-1] == "Player Twelve"  # said as a name, never "Player 1 0" in a score
