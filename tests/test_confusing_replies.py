"""Replies a new player met that read wrong (issue 38): each is said as a person at the table would.

Real games, sessions and understanding; the replies are typed, or spoken (a Say with a time).
"""

from __future__ import annotations

import re

import pytest
from fakes import RecordingMouth
from understood import Say, Understands

from host.contract import Outcome, Source, Understood
from host.decks import load_game_decks
from host.engine import GameOptions, RuleError
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session


class Ears(Understands):
    """Replies in order: text is typed, a Say with a start is spoken."""

    def __init__(self, replies):
        self.replies = list(replies)

    def hear(self, prompt):
        return self.understood(prompt, self.replies.pop(0)) if self.replies else None


def session(tmp_path, game_id, replies, players=("Ana", "Ben", "Cy"), rules=None, mode="", deal="", seed=1):
    game = get_game(game_id)
    journal = Journal(tmp_path / "db.sqlite3")
    session_id = journal.create(game_id, {"options": {}})
    mouth = RecordingMouth()
    options = GameOptions(
        players=players, mode=mode or game.modes[0], deal=deal or game.deals[0], seed=seed, rules=rules or {}
    )
    played = Session(
        game,
        options,
        load_game_decks(game.deck, [], question_games=dealing("questions")),
        journal,
        SessionInfo(session_id, "g"),
        EventLog(tmp_path / "events.jsonl", lambda: 0.0),
        Ears(replies),
        mouth,
        clock=lambda: 0.0,
    )
    played.start()
    return played, mouth, journal, session_id


# ---- Keep It 100: a card named at "where does it go?" ------------------------------------


def test_a_card_named_once_the_card_is_chosen_is_told_to_place_it(tmp_path):
    played, mouth, journal, sid = session(tmp_path, "keep-it-100", ["card two", "card 1", "the first one", "card 9"])
    played.run()
    where = next(i for i, text in enumerate(mouth.said) if "where does it go?" in text)
    after = mouth.said[where + 1 :]
    told = "Ana, your card is chosen. Now say where it goes, for example: "
    assert [text.startswith(told) for text in after] == [True, False, True, False, True, False]
    assert not any("There is no card" in text for text in after)
    assert not any("Did you mean" in text or "pardon" in text for text in mouth.said)
    assert journal.accepted_actions(sid) == [{"intent": "choose_card", "card": 2, "player": "Ana"}]


# ---- a "no" to every narrowed choice -------------------------------------------------------

UNCLEAR = Understood(Outcome.UNCLEAR, Source.VOICE, start=1.0, end=2.0)


def _spoken(text):
    return Say(text, start=1.0, end=2.0)


def test_no_to_every_narrowed_choice_typed_is_answered_with_what_to_type(tmp_path):
    played, mouth, journal, sid = session(
        tmp_path, "keep-it-100", ["blorp", "fizzle", "whatever", "no", "no", "no"], rules={"hand_size": 3}
    )
    played.run()
    last = mouth.said[-1]
    assert mouth.said[-2] == "Card 3?"
    assert last.startswith('None of those, then. You can say, for example: "card 1"')
    assert "slower" not in last and "can't tell" not in last
    assert not journal.accepted_actions(sid)


def test_no_to_every_narrowed_choice_spoken_asks_for_it_once_more_slower(tmp_path):
    replies = [UNCLEAR, UNCLEAR, UNCLEAR, _spoken("no"), _spoken("no"), _spoken("no")]
    played, mouth, journal, sid = session(tmp_path, "keep-it-100", replies, rules={"hand_size": 3})
    played.run()
    assert mouth.said[-2:] == ["Card 3?", "None of those, then. Say it once more, a little slower."]


def test_replies_never_understood_while_narrowing_are_still_i_cant_tell(tmp_path):
    replies = [UNCLEAR, UNCLEAR, UNCLEAR, UNCLEAR, UNCLEAR, UNCLEAR]
    played, mouth, journal, sid = session(tmp_path, "keep-it-100", replies, rules={"hand_size": 3})
    played.run()
    gave_up = mouth.said.index("I'm sorry, I can't tell. Say it once more, a little slower.")
    assert re.fullmatch(r"Card \d\?", mouth.said[gave_up - 1]), mouth.said
    assert "None of those, then." not in mouth.said


# ---- Centurion: a rank alone ----------------------------------------------------------------


def test_a_rank_held_twice_against_the_host_is_asked_about_by_suit_and_a_suit_answers(tmp_path):
    played, mouth, journal, sid = session(
        tmp_path, "centurion", ["king", "hearts"], players=("Ana",), mode="vs-host", seed=1
    )
    held = {played.state.name(card) for card in played.state.hands[0]}
    assert {"king of hearts", "king of diamonds"} <= held
    played.run()
    assert "Which king: diamonds or hearts?" in mouth.said
    assert "Sorry, I didn't catch that." not in " ".join(mouth.said)
    (move,) = journal.accepted_actions(sid)[:1]
    assert move == {"intent": "suit_alone", "suit": "hearts", "player": "Ana"}
    assert "king of hearts" not in {played.state.name(card) for card in played.state.hands[0]}
    assert "king of diamonds" in {played.state.name(card) for card in played.state.hands[0]}


def test_in_a_two_player_game_only_the_holder_hears_which_cards_they_hold(tmp_path):
    played, mouth, journal, sid = session(
        tmp_path, "centurion", ["queen", "jack"], players=("Ana", "Ben"), mode="pvp", seed=5
    )
    played.run()
    asked = mouth.said.index("Which queen? Say its suit as well.")
    assert mouth.said[asked + 1] == "[Ana] Which queen: clubs or spades?"
    aloud = [text for text in mouth.said if not text.startswith("[")]
    assert not any("clubs or spades" in text for text in aloud)
    assert journal.accepted_actions(sid)[0] == {"intent": "rank_alone", "rank": 11, "player": "Ana"}  # her one jack
    assert any(text.startswith("Jack of spades") for text in aloud)


def test_at_a_table_deal_a_rank_alone_is_asked_about_among_the_suits_not_yet_seen(tmp_path):
    game = get_game("centurion")
    decks = load_game_decks(game.deck, [])
    state, _ = game.setup(GameOptions(players=("Ana", "Ben"), mode="pvp", deal="table", seed=3), decks)
    player = game.prompt(state).player
    state, _ = game.apply(state, {"intent": "play_card", "rank": 13, "suit": "spades", "player": player})
    with pytest.raises(RuleError) as refused:
        game.apply(state, {"intent": "rank_alone", "rank": 13, "player": game.prompt(state).player})
    assert refused.value.reason == "Which king: clubs, diamonds or hearts?" and not refused.value.aside
