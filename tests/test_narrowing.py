"""A player the host cannot understand still gets a move in: narrowed questions (host/narrowing.py).

The games say what their choices are (Prompt.narrow); every one of them must be a
move the rules allow at that moment, in every scripted game. The session narrows
after a second miss at one prompt, asks each step once, and never acts unasked on a
reading the player refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from fakes import RecordingMouth
from replay import load_cases, play_script
from understood import Say, Understands

from host.contract import Ending, Outcome, Prompt, Source, Understood
from host.engine import RuleError
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.narrowing import Trouble
from host.play import SessionInfo
from host.session import Session

UNCLEAR = Understood(Outcome.UNCLEAR, Source.VOICE, start=1.0, end=2.0)
"""Speech the ears could not read at all (what a player the recogniser fails gets)."""


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: f"{c.script}-{len(c.players)}")
def test_every_narrowed_choice_is_a_move_the_rules_allow(case, tmp_path):
    transcript = play_script(case, tmp_path)
    assert transcript.outcome is Ending.OVER
    game = get_game(case.game)
    journal = Journal(tmp_path / "db.sqlite3")
    (record,) = journal.sessions()
    actions = journal.accepted_actions(record.id)
    state, _ = game.setup(case.options(), case.decks())
    narrowed = 0
    for action in actions + [None]:
        prompt = game.prompt(state)
        if prompt is not None and prompt.narrow is not None:
            narrowed += 1
            for move in prompt.narrow.moves():
                try:
                    game.apply(state, {**move, "player": prompt.player})
                except RuleError as error:
                    pytest.fail(f"{prompt.name}: narrowed choice {move} refused: {error.reason}")
        elif prompt is not None:
            assert prompt.unclear is not None, f"{prompt.name} has no narrowed choices"
        if action is not None:
            state, _ = game.apply(state, action)
    assert narrowed


# ---- the session narrows -------------------------------------------------------------


class Ears(Understands):
    """Replies in order (an Understood, a Say, or text read surely), and every question asked."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.asked = []

    def hear(self, prompt):
        self.asked.append(prompt)
        if not self.replies:
            return None
        reply = self.replies.pop(0)
        return self.understood(prompt, reply if not isinstance(reply, str) else Say(reply, start=1.0, end=2.0))


def _session(tmp_path, game_id, replies, players=("Ana", "Ben"), rules=None, mode="", ears=None, **given):
    """A game of `game_id` begun, with typed `replies` (or other `ears`) and what else the
    session is `given` (other_ways)."""
    from host.decks import load_game_decks
    from host.engine import GameOptions

    game = get_game(game_id)
    journal = Journal(tmp_path / "db.sqlite3")
    session_id = journal.create(game_id, {"options": {}})
    ears, mouth = ears or Ears(replies), RecordingMouth()
    options = GameOptions(players=players, mode=mode or game.modes[0], seed=4, rules=rules or {})
    session = Session(
        game,
        options,
        load_game_decks(game.deck, [], question_games=dealing("questions")),
        journal,
        SessionInfo(session_id, "g"),
        EventLog(tmp_path / "events.jsonl", lambda: 0.0),
        ears,
        mouth,
        clock=lambda: 0.0,
        **given,
    )
    session.start()
    return session, ears, mouth, journal, session_id


def _after_first_question(mouth, question):
    return mouth.said[mouth.said.index(question) :]


@dataclass(frozen=True)
class Played:
    """A Keep It 100 game played through replies: what the host said from its first
    question on, and the moves it took."""

    said: list[str]
    moves: list[dict]
    first: Prompt


def _played(tmp_path, replies) -> Played:
    """Ana and Ben, three cards each, Ana's first question answered by `replies`."""
    session, _, mouth, journal, sid = _session(tmp_path, "keep-it-100", replies, rules={"hand_size": 3})
    first = session.game.prompt(session.state)
    session.run()
    return Played(_after_first_question(mouth, first.text), journal.accepted_actions(sid), first)


def test_a_player_never_understood_still_moves_by_the_narrowed_questions(tmp_path):
    session, ears, mouth, journal, sid = _session(
        tmp_path, "keep-it-100", [UNCLEAR, UNCLEAR, UNCLEAR, "no", "yes"], rules={"hand_size": 3}
    )
    first = session.game.prompt(session.state)
    assert session.run() is Ending.EOF
    assert journal.accepted_actions(sid)[0] == {"intent": "choose_card", "card": 2, "player": "Ana"}
    said = _after_first_question(mouth, first.text)
    assert said[:5] == [first.text, "Sorry?", "Ana, which card: 1, 2 or 3?", "Card 1?", "Card 2?"]
    assert said.count(first.text) == 1  # the open question is never asked again
    assert "common/choice" in ears.asked[2].name and "common/yes_no" in ears.asked[3].name


def test_a_reading_the_player_refused_is_never_acted_on_unasked(tmp_path):
    unsure = Say("card two", rival="card three", start=1.0, end=2.0)
    session, ears, mouth, journal, sid = _session(
        tmp_path, "keep-it-100", [unsure, "no", "card two", "three"], rules={"hand_size": 3}
    )
    first = session.game.prompt(session.state)
    session.run()
    assert journal.accepted_actions(sid)[0] == {"intent": "choose_card", "card": 3, "player": "Ana"}
    said = _after_first_question(mouth, first.text)
    assert said[1:5] == [
        "Did you mean: card two?",
        "Okay, let's try again.",
        first.text,
        "Ana, which card: 1 or 3?",
    ]  # card two again: narrowed, 2 left out


def test_a_move_in_parts_is_asked_for_one_part_at_a_time(tmp_path):
    session, ears, mouth, journal, sid = _session(
        tmp_path,
        "zero-to-100",
        ["blah", "blah blah", "two", "something else", "minus twenty"],
        players=("Ana", "Ben", "Cy"),
    )
    session.run()
    assert journal.accepted_actions(sid)[0] == {
        "intent": "choose_card",
        "card": 2,
        "powers": ["-20"],
        "player": "Team Ana",
    }
    said = _after_first_question(mouth, "Team Ana, which card: 1 to 6?")  # numbers: a span, not a list
    assert said[1:3] == [
        "Team Ana, power card: none, plus 50, minus 50 or something else?",
        "Team Ana, power card: plus 20, minus 20 or Spot On?",
    ]  # at most four words at once


def test_when_every_choice_is_refused_the_host_says_so_once_and_listens(tmp_path):
    session, ears, mouth, journal, sid = _session(
        tmp_path,
        "keep-it-100",
        [UNCLEAR, UNCLEAR, UNCLEAR, "no", "no", "no", UNCLEAR],
        rules={"hand_size": 3},
        other_ways=lambda prompt, state: "You can also use your phone page.",
    )
    first = session.game.prompt(session.state)
    session.run()
    said = _after_first_question(mouth, first.text)
    assert said[5:7] == [
        "Card 3?",
        "None of those, then. You can also use your phone page. Say it once more, a little slower.",
    ]
    assert said[7] == "Sorry?"  # listening again, not asking the open question
    assert said.count(first.text) == 1
    assert not journal.accepted_actions(sid)


def test_a_long_list_is_read_a_few_at_a_time():
    from host.contract import Choice, Narrow, Prompt
    from host.narrowing import Narrowing, Reply

    words = ["red", "blue", "green", "gold", "pink", "grey", "black", "white", "brown"]
    narrow = Narrow("Which colour?", tuple(Choice(w, {"intent": "face", "face": w}) for w in words))
    prompt = Prompt("common/any", "Ana", "Ana, your colour?", narrow=narrow)
    asked = []
    answers = iter(
        [
            Reply({"intent": "something_else"}, True),
            Reply({"intent": "something_else"}, True),
            Reply({"intent": "choice", "index": 1}, True),
        ]
    )

    def ask(question):
        asked.append(question.text)
        return next(answers)

    assert Narrowing(prompt, Trouble(prompt), ask).run() == {"intent": "face", "face": "white"}
    assert asked == [
        "Ana, which colour: red, blue, green or something else?",
        "Ana, which colour: gold, pink, grey or something else?",
        "Ana, which colour: black, white or brown?",
    ]


def test_numbers_and_places_are_said_as_a_span_not_listed():
    from host.engine import ORDINALS
    from host.narrowing import list_question

    assert list_question("Ana", "Which card?", [str(n) for n in range(1, 7)]) == "Ana, which card: 1 to 6?"
    assert list_question("Ana", "Your bet?", ["no bet"] + [str(n) for n in range(10, 90, 10)]) == (
        "Ana, your bet: 10, 20, 30 and so on up to 80 or no bet?"
    )
    assert list_question("Ben", "Which of your words?", list(ORDINALS[:4]) + ["none"]) == (
        "Ben, which of your words: first to fourth or none?"
    )
    assert list_question(None, "Which?", ["1", "3", "4", "5"]) == "Which: 1, 3, 4 or 5?"  # not a run: listed


def test_a_refusal_covers_the_same_move_named_more_fully():
    from host.contract import Prompt

    trouble = Trouble(Prompt("keep-it-100/place", "Ana", "Where?"))
    trouble.refuse({"intent": "place", "before": 50, "player": "Ana"})
    assert trouble.was_refused({"intent": "place", "line": 1, "after": 20, "before": 50})
    assert not trouble.was_refused({"intent": "place", "line": 1, "after": 50, "before": 65})


def test_a_refused_reading_heard_again_after_narrowing_is_a_miss_not_asked_about_again(tmp_path):
    # Seen at the table: "Did you mean: card two?" No. Narrowed, and nothing taken; then
    # the same reading came back and the same question was asked, round and round.
    unsure = Say("card two", rival="card three", start=1.0, end=2.0)
    played = _played(tmp_path, [unsure, "no", "card two", UNCLEAR, UNCLEAR, "card two"])
    assert played.said.count("Did you mean: card two?") == 1
    assert played.said[-1] == "Sorry?"  # heard again: asked to say it again
    assert not played.moves


def test_a_refused_move_typed_afterwards_is_taken(tmp_path):
    unsure = Say("card two", rival="card three", start=1.0, end=2.0)
    session, ears, mouth, journal, sid = _session(
        tmp_path, "keep-it-100", [unsure, "no", Say("card two")], rules={"hand_size": 3}
    )
    session.run()
    assert journal.accepted_actions(sid)[0] == {"intent": "choose_card", "card": 2, "player": "Ana"}


def _teams_of_one(tmp_path, replies):
    """A Zero to 100 game of three teams of one (Team Ana asked first), with these replies."""
    return _session(tmp_path, "zero-to-100", replies, players=("Ana", "Ben", "Cy"))


def _said_far(text):
    """A whole line said to a narrowed question: spoken, read far from its few choices."""
    return Understood(Outcome.UNCLEAR, Source.VOICE, text, start=1.0, end=2.0)


def test_a_whole_move_the_rules_refuse_said_to_a_narrowed_question_gets_their_reason(tmp_path):
    """None of the choices leads to a move the rules refuse, so a player says it whole:
    the host reads it against the open question and says why it cannot be played."""
    session, ears, mouth, journal, sid = _teams_of_one(
        tmp_path, [UNCLEAR, UNCLEAR, _said_far("card two with the fifty card"), "card two with plus fifty"]
    )
    first = session.game.prompt(session.state)
    session.run()
    said = _after_first_question(mouth, first.text)
    assert said[1:5] == [
        "Sorry?",
        "Team Ana, which card: 1 to 6?",
        "Plus 50 or minus 50? Say which side you play.",
        first.text,
    ]
    assert journal.accepted_actions(sid)[0] == {
        "intent": "choose_card",
        "card": 2,
        "powers": ["+50"],
        "player": "Team Ana",
    }


def test_a_whole_move_the_rules_allow_is_not_taken_from_speech_the_ears_could_not_read(tmp_path):
    """Speech not read surely at a narrowed question (table talk, a recogniser's guess)
    would make moves: only the choices move. (A whole move read surely is taken: below.)"""
    session, ears, mouth, journal, sid = _teams_of_one(
        tmp_path, [UNCLEAR, UNCLEAR, _said_far("card four with minus twenty")]
    )
    first = session.game.prompt(session.state)
    session.run()
    said = _after_first_question(mouth, first.text)
    assert said[2:4] == ["Team Ana, which card: 1 to 6?", "Card 1?"]
    assert journal.accepted_actions(sid) == []


def test_words_that_are_no_whole_move_either_leave_the_narrowed_question_unanswered(tmp_path):
    session, ears, mouth, journal, sid = _teams_of_one(tmp_path, [UNCLEAR, UNCLEAR, _said_far("and then she told me")])
    first = session.game.prompt(session.state)
    session.run()
    said = _after_first_question(mouth, first.text)
    assert said[2:4] == ["Team Ana, which card: 1 to 6?", "Card 1?"]  # narrowing goes on: no reason, no move
    assert journal.accepted_actions(sid) == []


def test_a_command_read_unsurely_at_a_narrowed_question_is_asked_about_never_done_unasked(tmp_path):
    """ "no bet" to "your bet: 10, 20 ... or no bet?" came through as "no wait" (undo), with
    the choice close behind: the host took back the player's last move. A command among a
    few choices is done only when sure; an unsure one that changes the game is asked
    about first, and a "no" is an answer not understood: narrowing goes on."""
    unsure_undo = Say("no wait", rival="one", start=1.0, end=2.0)
    played = _played(tmp_path, [UNCLEAR, UNCLEAR, unsure_undo, "no", "yes"])
    assert played.said[2:5] == ["Ana, which card: 1, 2 or 3?", "Did you mean: no wait?", "Card 1?"]
    assert played.moves == [{"intent": "choose_card", "card": 1, "player": "Ana"}]


def test_an_undo_read_unsurely_at_a_narrowed_question_is_done_once_the_player_says_yes(tmp_path):
    """The table's "undo" at "which card: 1, 2 or 3?" was read as numbers, 30 times in a
    row, and dropped each time: a command read unsurely is asked about, not dropped."""
    unsure_undo = Say("undo", rival="one two", start=1.0, end=2.0)
    session, ears, mouth, journal, sid = _session(
        tmp_path, "keep-it-100", ["card one", UNCLEAR, UNCLEAR, unsure_undo, "yes"], rules={"hand_size": 3}
    )
    session.run()
    said = _after_first_question(mouth, "Ana, which line: one or two?")
    assert said[1:3] == ["Did you mean: undo?", "Undone. Back to before Ana's last move."]
    assert journal.accepted_actions(sid) == []


def test_a_command_read_unsurely_again_and_again_is_an_answer_not_understood(tmp_path):
    """ "undo" read "one two" was heard each time as an unsure "what" (repeat), and the
    question came back each time, for ever: the third such answer is one the host could
    not use, and narrowing goes on."""
    unsure_repeat = Say("what", rival="one", start=1.0, end=2.0)
    played = _played(tmp_path, [UNCLEAR, UNCLEAR, unsure_repeat, unsure_repeat, unsure_repeat, "yes"])
    question = "Ana, which card: 1, 2 or 3?"
    assert played.said.count(question) == 3  # asked, then said again after each of two repeats
    assert played.said[played.said.index(question) + 2 :].count("Card 1?") == 1
    assert played.moves == [{"intent": "choose_card", "card": 1, "player": "Ana"}]


def test_a_player_stuck_after_a_move_is_told_undo_takes_it_back(tmp_path):
    """When the narrowed questions found nothing and the last move may be taken back, the
    host says so: the move before may have been misheard. Not before any move."""
    session, ears, mouth, journal, sid = _session(
        tmp_path,
        "keep-it-100",
        ["card one", UNCLEAR, UNCLEAR, UNCLEAR, UNCLEAR],
        rules={"hand_size": 3},
        other_ways=lambda prompt, state: "You can also use your phone page.",
    )
    session.run()
    assert mouth.said[-1] == (
        "I'm sorry, I can't tell. You can also use your phone page. Say it once more, a little slower. "
        "If the last move was misheard, say undo to take it back."
    )
    played = _played(tmp_path / "first", [UNCLEAR, UNCLEAR, UNCLEAR, UNCLEAR])
    assert played.said[-1] == "I'm sorry, I can't tell. Say it once more, a little slower."

    unsure_score = Say("score", rival="one", start=1.0, end=2.0)  # says something, changes nothing: said
    session, ears, mouth, journal, sid = _session(tmp_path / "score", "keep-it-100", [UNCLEAR, UNCLEAR, unsure_score])
    question = session.game.prompt(session.state).text
    session.run()
    said = _after_first_question(mouth, question)
    assert said[2:5] == ["Ana, which card: 1 to 7?", session.game.scores(session.state), "Ana, which card: 1 to 7?"]


def test_a_choice_read_nearly_as_well_as_another_is_asked_about_not_taken(tmp_path):
    """ "right lower one" to "lower or right?": the host took "right", a wrong move. A
    choice read unsurely is a guess: asked about first by a yes or no where one can be."""
    unsure_two = Say("two", rival="three", start=1.0, end=2.0)
    played = _played(tmp_path, [UNCLEAR, UNCLEAR, unsure_two, "no", "yes"])
    assert played.said[2:5] == ["Ana, which card: 1, 2 or 3?", "Card 2?", "Card 1?"]
    assert played.moves[0] == {"intent": "choose_card", "card": 1, "player": "Ana"}


def test_a_guess_heard_twice_but_never_surely_is_taken_where_no_yes_or_no_can_be_asked(tmp_path):
    """The party room: Ben's "higher" read twice, each time too unsure to act on. "Right"
    reads as yes, so no "Higher?" can be asked: the list once more, for one word, and the
    two readings agreeing settle it. Other words heard the second time settle nothing."""

    def unread(text: str) -> Understood:
        return Understood(Outcome.UNCLEAR, Source.VOICE, text=text, start=1.0, end=2.0)

    opening = ["card one", "between 35 and 65", UNCLEAR, UNCLEAR]
    session, _, mouth, journal, sid = _session(tmp_path, "keep-it-100", [*opening, unread("higher"), unread("higher")])
    session.run()
    assert "Ben, just one word, please: lower, right or higher." in mouth.said
    assert journal.accepted_actions(sid)[-1] == {"intent": "predict", "guess": "higher", "player": "Ben"}
    session, _, mouth, journal, sid = _session(
        tmp_path / "other", "keep-it-100", [*opening, unread("higher"), unread("oh yeah")]
    )
    session.run()
    assert journal.accepted_actions(sid)[-1]["intent"] == "place"


def test_the_same_spoken_move_refused_again_and_again_leads_to_the_narrowed_questions(tmp_path):
    """1%'s "take the draw two card" was read "take the number two card" six times, each
    refused with the rules' reason, and the game stalled there. The same spoken move
    refused again is a miss as well: after the reason, the narrowed questions follow."""
    wrong = Say("between 5 and 80 on line one", start=1.0, end=2.0)
    session, _, mouth, journal, sid = _session(tmp_path, "keep-it-100", ["card one", wrong, wrong, wrong])
    session.run()
    refusal = "There's no 5 on line one."
    assert mouth.said.count(refusal) == 3
    assert mouth.said[mouth.said.index(refusal) :][-2:] == [refusal, "Ana, which line: one or two?"]


def test_an_answer_to_did_you_mean_heard_but_not_read_is_asked_for_once_more(tmp_path):
    """In a loud room a "yes" may come through as speech no reading can trust: the host
    asks "Sorry? Yes or no?" (not the same question again), and the yes then settles it."""
    unsure = Say("card two", rival="card three", start=1.0, end=2.0)
    played = _played(tmp_path, [unsure, UNCLEAR, Say("yes", start=1.0, end=2.0)])
    assert played.said[1:3] == ["Did you mean: card two?", "Sorry? Yes or no?"]
    assert played.moves[0] == {"intent": "choose_card", "card": 2, "player": "Ana"}
    log = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert [e.get("unclear", False) for e in log if e.get("confirming")] == [True, False]


def test_a_corrected_answer_after_sorry_yes_or_no_is_asked_about_by_its_own_words(tmp_path):
    """ "Sorry? Yes or no?" is about the reading asked about; a corrected answer said then
    is a new reading, and the player hears it named, not "Sorry? Yes or no?" again."""
    unsure = Say("card two", rival="card three", start=1.0, end=2.0)
    corrected = Say("card three", rival="card two", start=1.0, end=2.0)
    played = _played(tmp_path, [unsure, UNCLEAR, corrected, "yes"])
    assert played.said[1:4] == ["Did you mean: card two?", "Sorry? Yes or no?", "Did you mean: card three?"]
    assert played.moves[0] == {"intent": "choose_card", "card": 3, "player": "Ana"}


def test_a_command_read_unsurely_in_answer_to_did_you_mean_is_never_done(tmp_path):
    unsure = Say("card two", rival="card three", start=1.0, end=2.0)
    unsure_undo = Say("that's wrong", rival="yes", start=1.0, end=2.0)
    played = _played(tmp_path, [unsure, unsure_undo, "card three"])
    assert played.said[1:4] == ["Did you mean: card two?", "Okay, let's try again.", played.first.text]
    assert played.moves[0] == {"intent": "choose_card", "card": 3, "player": "Ana"}


def test_a_no_to_part_of_a_move_does_not_refuse_the_whole_move(tmp_path):
    """ "Did you mean: card one?" No: the plus fifty was missing. "card one with plus
    fifty" is another move, taken; "card one" said again is still refused."""
    unsure = Say("card one", rival="card two", start=1.0, end=2.0)
    session, ears, mouth, journal, sid = _teams_of_one(
        tmp_path, [unsure, "no", Say("card one with plus fifty", start=1.0, end=2.0)]
    )
    session.run()
    assert journal.accepted_actions(sid)[0] == {
        "intent": "choose_card",
        "card": 1,
        "powers": ["+50"],
        "player": "Team Ana",
    }
    trouble = Trouble(session.game.prompt(session.state))
    trouble.refuse({"intent": "choose_card", "card": 1})
    assert session.clarifier.said_no_to(trouble.prompt, trouble, {"intent": "choose_card", "card": 1})
    assert not session.clarifier.said_no_to(
        trouble.prompt, trouble, {"intent": "choose_card", "card": 1, "powers": ["+50"]}
    )


def test_an_unsure_whole_move_the_rules_refuse_at_a_narrowed_question_gets_their_reason(tmp_path):
    session, ears, mouth, journal, sid = _teams_of_one(
        tmp_path, [UNCLEAR, UNCLEAR, _said_far("cart two wit the fifty card")]
    )
    session.run()
    assert "Plus 50 or minus 50? Say which side you play." in mouth.said


def test_a_move_refused_by_the_player_may_be_meant_once_the_rules_said_why_another_cannot(tmp_path):
    """ "Did you mean: card one?" No (they meant card two with the fifty card). The rules
    refuse that (which side?); told so, the player settles for card one, which is taken."""
    unsure = Say("card one", rival="card two", start=1.0, end=2.0)
    session, ears, mouth, journal, sid = _teams_of_one(
        tmp_path,
        [unsure, "no", Say("card two with the fifty card", start=1.0, end=2.0), Say("card one", start=1.0, end=2.0)],
    )
    session.run()
    assert "Plus 50 or minus 50? Say which side you play." in mouth.said
    assert journal.accepted_actions(sid)[0] == {"intent": "choose_card", "card": 1, "player": "Team Ana"}


# ---- a whole answer, and "never mind", at a narrowed question ---------------------------


def _bidding(tmp_path, replies):
    """1% for three, the opening bid answered by `replies`: the session, what was said from
    the bid's question on, and the moves taken."""
    session, _, mouth, journal, sid = _session(tmp_path, "one-percent", replies, players=("Ana", "Ben", "Cy"))
    first = session.game.prompt(session.state)
    session.run()
    return first, _after_first_question(mouth, first.text), journal.accepted_actions(sid)


def _said(text: str) -> Say:
    return Say(text, start=1.0, end=2.0)


def test_a_whole_answer_to_a_narrowed_question_is_the_move(tmp_path):
    """The issue's trap: "4 sharks" to "how many: 1 to 6?" got "1?", "2?" ... A whole move,
    read surely and one the narrowed questions lead to, is the answer."""
    first, said, moves = _bidding(tmp_path, [UNCLEAR, UNCLEAR, _said("4 sharks")])
    assert said[2] == f"{first.player}, how many: 1 to 6?"
    assert moves == [{"intent": "bid", "count": 4, "family": "shark", "player": first.player}]
    assert "1?" not in said


def test_a_whole_move_the_narrowed_questions_do_not_lead_to_is_not_taken_there(tmp_path):
    """ "9 sharks" is a bid the rules allow, but not one "how many: 1 to 6?" asks about:
    words that answer another question make no move."""
    first, said, moves = _bidding(tmp_path, [UNCLEAR, UNCLEAR, _said("9 sharks")])
    assert said[2:4] == [f"{first.player}, how many: 1 to 6?", "1?"] and moves == []


def test_never_mind_at_a_narrowed_question_asks_the_open_question_again_with_its_misses_forgotten(tmp_path):
    first, said, moves = _bidding(tmp_path, [UNCLEAR, UNCLEAR, _said("never mind"), UNCLEAR, _said("5 clovers")])
    assert said[2:6] == [f"{first.player}, how many: 1 to 6?", "Okay.", first.text, "Sorry?"]  # a first miss again
    assert moves == [{"intent": "bid", "count": 5, "family": "clover", "player": first.player}]


def test_never_mind_at_the_open_question_is_answered_and_is_no_miss(tmp_path):
    first, said, moves = _bidding(tmp_path, [_said("never mind"), UNCLEAR, _said("3 stars")])
    assert said[:4] == [first.text, "Okay.", first.text, "Sorry?"]  # not narrowed after it
    assert moves == [{"intent": "bid", "count": 3, "family": "star", "player": first.player}]
