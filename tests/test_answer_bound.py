"""Every request is answered within the bound (issue 45): a stuck game still gets an answer,
its work is never cancelled, and its answer is the next request's. Games here are fakes
held by events, so nothing depends on how fast this machine is; the real service with a
save held up by another process is in tests/test_wyoming_service.py."""

from __future__ import annotations

import asyncio
import io
import threading

from wyoming.handle import Handled

from host.contract import Outcome, Prompt, Understood
from partyhost.answer_bound import STILL_BUSY, STILL_WORKING, AnswerBound
from partyhost.conversation import Conversation
from partyhost.wyoming_service import GameThread

BOUND = 0.2


class Held:
    """Work that finishes only when released; counts how often it started."""

    def __init__(self, answer: str):
        self.answer, self.started = answer, 0
        self.release = asyncio.Event()

    async def __call__(self) -> str:
        self.started += 1
        await self.release.wait()
        return self.answer


def bound() -> AnswerBound[str]:
    return AnswerBound(lambda text: f"moment: {text}", BOUND)


def test_quick_work_is_answered_with_its_own_answer():
    async def run():
        answers = bound()
        work = Held("done")
        work.release.set()
        return await answers.answer(work), answers.working

    assert asyncio.run(run()) == ("done", False)


def test_stuck_work_hears_one_moment_goes_on_and_is_the_next_answer():
    async def run():
        answers = bound()
        stuck, later = Held("the answer to card one"), Held("never")
        first = await answers.answer(stuck)
        still = await answers.answer(later)  # still stuck: these words are not taken
        stuck.release.set()
        then = await answers.answer(later)  # done meanwhile: the earlier answer, heard now
        return first, still, then, stuck.started, later.started, answers.working

    first, still, then, stuck_runs, later_runs, working = asyncio.run(run())
    assert first == f"moment: {STILL_WORKING}" and still == f"moment: {STILL_BUSY}"
    assert then == "the answer to card one" and not working
    assert (stuck_runs, later_runs) == (1, 0)  # nothing cancelled, nothing started twice or out of turn


def test_requests_at_once_take_turns_and_each_is_answered():
    async def run():
        answers = bound()
        stuck = Held("first")
        others = [Held(f"other {n}") for n in range(4)]
        replies = await asyncio.gather(answers.answer(stuck), *(answers.answer(o) for o in others))
        stuck.release.set()
        return replies, await answers.answer(others[0]), [o.started for o in others]

    replies, next_reply, started = asyncio.run(run())
    assert replies[0] == f"moment: {STILL_WORKING}"
    assert set(replies[1:]) == {f"moment: {STILL_BUSY}"}
    assert next_reply == "first" and started == [0, 0, 0, 0]


class SlowGame:
    """A game thread that takes one reply, then works until released, then asks again."""

    def __init__(self):
        self.release = threading.Event()
        self.heard: list[str] = []

    def __call__(self, talk: Conversation) -> None:
        prompt = Prompt("keep-it-100/pick", "Ana", "Ana, pick a card.")
        talk.say(prompt.text)
        while (reply := talk.hear(prompt)) is not None:
            self.heard.append(reply.text)
            self.release.wait(30)  # a turn that takes long: a save held up, a slow machine
            talk.say(f"You said {reply.text}. Ana, pick a card.")


def test_a_stuck_game_still_answers_and_loses_nothing():
    game = SlowGame()
    words = lambda prompt, text, source: Understood(Outcome.REPLY, source, text)  # noqa: E731  (no grammar needed)
    served = GameThread(Conversation(out=io.StringIO(), understanding=words), game, bound=BOUND)
    served.start()

    async def run():
        texts = []
        for words in ("", "card one", "card two"):  # hear the question, a move that sticks, words meanwhile
            texts.append(Handled.from_event(await served.answer(words)).text)
        game.release.set()
        texts.append(Handled.from_event(await served.answer("repeat")).text)
        texts.append(Handled.from_event(await served.answer("card three")).text)
        return texts

    try:
        question, stuck, meanwhile, heard, next_move = asyncio.run(run())
    finally:
        served.stop()
    assert question == "Ana, pick a card."
    assert (stuck, meanwhile) == (STILL_WORKING, STILL_BUSY)
    assert heard == "You said card one. Ana, pick a card."  # "repeat" was not taken: the move's answer was unheard
    assert next_move == "You said card three. Ana, pick a card."
    assert game.heard == ["card one", "card three"]
