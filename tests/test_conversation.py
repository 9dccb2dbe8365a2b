"""Play as a conversation (partyhost/conversation.py): a session thread on one side, transcripts on the other."""

from __future__ import annotations

import threading

import pytest

from host.contract import Outcome, Prompt
from partyhost.conversation import ADJUST_ELSEWHERE, TIME_UP, Conversation, HostStopped

ASK = Prompt("keep-it-100/choose_card", "Ana", "Ana, pick a card.")  # prompts of the grammars: each reply is understood
TURN = Prompt("keep-cool/word", "Ben", "", timeout=10.0)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def session(conversation: Conversation, script):
    """A stand-in session: for each (prompt, said before) it says, then hears; records what it heard."""
    heard = []

    def run():
        for prompt, said in script:
            if said:
                conversation.say(said)
            heard.append(conversation.hear(prompt))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return heard, thread


def quiet(**kwargs) -> Conversation:
    import io

    return Conversation(out=io.StringIO(), **kwargs)


def test_words_are_taken_only_after_the_question_was_heard():
    talk = quiet()
    heard, _ = session(talk, [(ASK, "Welcome back. Ana, pick a card."), (ASK, "Card 3.")])
    first = talk.exchange("card three", timeout=5)
    assert (first.text, first.taken) == ("Welcome back. Ana, pick a card.", False)
    assert heard == []  # the words before it were not a reply
    second = talk.exchange("card three", timeout=5)
    assert second.taken and second.text == "Card 3."
    assert [h.text for h in heard] == ["card three"]


def test_the_menu_takes_a_game_named_at_once():
    talk = quiet()
    menu = Prompt("common/menu", None, "Which game shall we play?")
    heard, _ = session(talk, [(menu, "Hello! Which game shall we play?"), (ASK, "Keep It 100. How many players?")])
    answer = talk.exchange("play keep it 100", timeout=5)
    assert answer.taken and answer.text == "Keep It 100. How many players?"  # the unheard greeting is dropped
    assert heard[0].text == "play keep it 100"


def test_a_turn_without_words_names_whose_it_is():
    talk = quiet()
    session(talk, [(ASK, "Ana, pick a card."), (TURN, "")])
    talk.exchange("hello", timeout=5)
    assert talk.exchange("card one", timeout=5).text == "Ben, your turn."


def test_a_timed_turn_runs_out_after_its_question_is_spoken():
    clock = Clock()
    talk = quiet(clock=clock, speech_seconds=lambda text: 2.0)
    heard, _ = session(talk, [(ASK, "Ana, pick a card."), (TURN, "Ben, go."), (TURN, ""), (ASK, "Ana again.")])
    talk.exchange("hi", timeout=5)  # hears "Ana, pick a card."
    talk.exchange("card one", timeout=5)  # delivers Ben's turn: 2 s of speech + 10 s of clock
    clock.now += 11.0
    in_time = talk.exchange("pillow", timeout=5)  # within 12 s: a reply
    assert heard[1].text == "pillow" and heard[1].outcome is not Outcome.TIMED_OUT
    assert in_time.text == "Ben, your turn."  # the same turn again: its clock goes on
    clock.now += 1.5
    late = talk.exchange("blanket", timeout=5)  # 12.5 s after delivery: too late
    assert heard[2].outcome is Outcome.TIMED_OUT and heard[2].text == ""
    assert late.text == f"{TIME_UP} Ana again."


def test_closing_ends_the_session_and_refuses_words():
    talk = quiet()
    heard, thread = session(talk, [(ASK, "Ana, pick a card.")])
    talk.exchange("hi", timeout=5)
    talk.close()
    thread.join(5)
    assert heard == [None]  # the session saves and ends, as at Ctrl-D
    with pytest.raises(HostStopped):
        talk.exchange("card one", timeout=1)


def test_nothing_waiting_is_refused_not_queued():
    talk = quiet()
    with pytest.raises(HostStopped):
        talk.exchange("card one", timeout=0.2)
    with pytest.raises(HostStopped):
        talk.repeat()


def test_secrets_and_speed_never_reach_the_assistant():
    talk = quiet()
    session(talk, [(ASK, "Ana, pick a card.")])
    talk.private("Ana", "Your word is pillow.")
    talk.sound("your_turn")
    assert talk.adjust("louder") == ADJUST_ELSEWHERE
    assert "pillow" not in talk.exchange("hi", timeout=5).text
