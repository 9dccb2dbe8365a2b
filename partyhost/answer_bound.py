"""Every request answered within a bound, however long the game takes over it (issue 45).

Home Assistant's Wyoming conversation client reads the answer with no timeout, so a host
that is alive but slow (a grammar built on a busy machine, a save waiting for a disk or
for another process's lock) would hang the player's request and their voice device.
So each request waits at most `bound` seconds. What the game has not finished by then
goes on in the background and nothing is cancelled: the words already handed to the game
stay handed, and the request hears "one moment" instead. The next request gets the
finished answer (its own words are not taken: the player had not heard the question
yet, the rule of partyhost/conversation.py), or "one moment" again if it is still not done.

Requests still take turns, as they did under one lock: at most one piece of work runs,
and a request that waits for its turn counts that wait in its bound.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")

ANSWER_BOUND_S = 1.5
"""Seconds a request waits for the game; Home Assistant's request is answered well within 2 s."""
STILL_WORKING = "One moment, I'm still working on that. Say repeat in a few seconds to hear it."
"""Said when the words were handed to the game and its answer is not ready yet."""
STILL_BUSY = "One moment, I'm still busy with what was said before. Ask me again in a few seconds."
"""Said when earlier words are still being worked on: these words were not taken."""


class AnswerBound(Generic[T]):
    """One piece of work at a time, each request answered within `bound` seconds."""

    def __init__(self, one_moment: Callable[[str], T], bound: float = ANSWER_BOUND_S):
        """`one_moment` makes the answer that says why there is no answer yet (its text given)."""
        self.bound = bound
        self.one_moment = one_moment
        self._turn = asyncio.Lock()
        self._pending: asyncio.Future[T] | None = None

    @property
    def working(self) -> bool:
        """Work handed over whose answer nobody has heard yet."""
        return self._pending is not None

    async def answer(self, work: Callable[[], Awaitable[T]]) -> T:
        """The answer to `work`, or to earlier work still unheard, or "one moment" by the bound.

        `work` starts only when no earlier work is unheard; it must return its failures as
        answers (it runs on when this request has gone, so nobody else would hear them).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.bound
        try:
            await asyncio.wait_for(self._turn.acquire(), self.bound)
        except asyncio.TimeoutError:
            return self.one_moment(STILL_BUSY)
        try:
            started = self._pending is None
            if self._pending is None:
                self._pending = asyncio.ensure_future(work())
            pending = self._pending
            done, _ = await asyncio.wait({pending}, timeout=max(0.0, deadline - loop.time()))
            if not done:
                return self.one_moment(STILL_WORKING if started else STILL_BUSY)
            self._pending = None
            return pending.result()
        finally:
            self._turn.release()
