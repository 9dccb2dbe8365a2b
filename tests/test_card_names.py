"""Card names made for the ear (issue 40): every question card has a short spoken name
in its deck ("the June one"), the deck check keeps them sayable and apart, the host
names a hand by them, and a player picks a card by saying its name back."""

from __future__ import annotations

import csv
from dataclasses import replace

import pytest
from test_decks import check, needs_pocketsphinx
from test_narrowing import _session

from host.cardtitle import names_text, spoken_name, with_names
from host.decks import default_deck_dir, load_questions
from host.games import dealing
from partyhost.deckcheck import check_card_names
from voice.understanding import vocabulary


@pytest.fixture(scope="module")
def questions():
    return load_questions(default_deck_dir() / "questions.csv", dealing("questions"))


def test_every_shipped_question_card_has_a_name_of_one_or_two_words(questions):
    assert all(q.name for q in questions)
    assert all(1 <= len(q.name.split()) <= 2 for q in questions)


@needs_pocketsphinx
def test_the_shipped_names_pass_the_deck_check(questions):
    assert check_card_names(questions, vocabulary.load_dictionary()) == []


def _shared_pair(questions):
    """Two questions of one game (they can be dealt into one hand)."""
    game = dealing("questions")[0]
    first, second = [q for q in questions if game in q.games][:2]
    return first, second


def test_the_deck_check_refuses_one_name_on_two_cards_one_hand_may_hold(questions):
    first, second = _shared_pair(questions)
    deck = [replace(q, name=first.name.upper()) if q.id == second.id else q for q in questions]
    errors = check_card_names(deck, None)
    assert any(first.id in e and second.id in e and "one" in e and "hand" in e for e in errors), errors
    assert check_card_names(questions, None) == []  # the shipped deck itself is fine


def test_the_deck_check_refuses_long_names_number_words_and_words_it_cannot_hear(questions):
    first, second = _shared_pair(questions)
    deck = [replace(first, name="the whole long story"), replace(second, name="seven")] + list(questions[2:])
    errors = check_card_names(deck, None)
    assert any(first.id in e and "1 to 2 words" in e for e in errors)
    assert any(second.id in e and "number word 'seven'" in e for e in errors)


@needs_pocketsphinx
def test_the_deck_check_refuses_an_unknown_word_and_a_name_the_grammar_takes_for_another_card(questions):
    first, second = _shared_pair(questions)
    deck = [replace(first, name="zorblax"), replace(second, name="okay")] + list(questions[2:])
    errors = check_card_names(deck, vocabulary.load_dictionary())
    assert any(first.id in e and "'zorblax' is not in the pronouncing dictionary" in e for e in errors)
    assert any(second.id in e and "not understood as that card" in e for e in errors)  # "okay" is a filler


@needs_pocketsphinx
def test_the_deck_check_command_refuses_a_deck_with_a_name_twice(tmp_path, questions, capsys):
    first, second = _shared_pair(questions)
    path = tmp_path / "mine.csv"
    with (default_deck_dir() / "questions.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        if row["id"] == second.id:
            row["name"] = first.name
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert check(["--questions", str(path)]) == 1
    assert f"questions {first.id} and {second.id} are both '{spoken_name(first.name)}'" in capsys.readouterr().out


def test_a_hand_is_named_by_its_cards_names_and_their_words_give_way_to_them(questions):
    hand = list(questions[:3])
    assert names_text(hand) == f"{hand[0].name}, {hand[1].name} and {hand[2].name}."
    words = with_names([("june", 1), ("june", 2), ("pizza", 2)], ["June", "", "Mars"])
    assert ("june", 2) not in words and {("june", 1), ("pizza", 2), ("mars", 3)} <= set(words)


@pytest.mark.parametrize("game", ["keep-it-100", "zero-to-100"])
@pytest.mark.parametrize("said_as", [spoken_name, str])
def test_a_card_is_chosen_by_saying_its_name(tmp_path, game, said_as):
    players = ("Ana", "Ben") if game == "keep-it-100" else ("Ana", "Ben", "Cy")
    session, ears, mouth, journal, sid = _session(tmp_path, game, [], players=players)
    prompt = session.game.prompt(session.state)
    names = prompt.context["names"]
    assert all(names)
    said = " ".join(mouth.said)
    assert all(name in said for name in names)  # the hand was named by them
    ears.replies = [said_as(names[1])]  # "the June one", or the name as the hand said it
    session.run()
    accepted = journal.accepted_actions(sid)[0]
    assert accepted["intent"] == "choose_card" and accepted["card"] == 2, (names, accepted)
