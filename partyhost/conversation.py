"""Play as a conversation: each player's words come in as text, the host's answer goes back as text.

A voice assistant (Home Assistant's Assist, through partyhost/wyoming_service.py) owns the
microphone and the speaker: it sends what a player said and speaks what it gets back. It
only ever answers; it never speaks on its own. So the session runs in its own thread
with this object as its ears and mouth, and each `exchange` hands one reply to the
waiting prompt and returns everything the host said until it waits again.

Two rules follow from "the assistant speaks only when spoken to":
- Words are taken as a reply only to a question the player has heard. What the host
  said that nobody heard yet (a resumed game's "welcome back" and its question) is the
  answer to the first words, which are not taken as a reply. The spoken menu is the one
  exception: "play Keep It 100" names a game whatever was said before. And the menu
  hears first (`listens_first`): its greeting is the answer to words that name no game,
  never said after a game's last line in one breath.
- A timed prompt cannot buzz. Its clock starts when its question has been delivered and
  (by the measured speaking rate) spoken; words that arrive after it ran out end the turn
  as silence would, and the answer says time was up.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from host.contract import Likeness, Outcome, Prompt, Source, Understood
from host.errors import one_line
from partyhost.speech_time import estimated_seconds
from partyhost.textio import TextMouth
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding

MENU_PROMPT = "common/menu"
LONGEST_REPLY = 500
"""Characters; a transcript longer than this is not a reply to a game's question."""
TIME_UP = "Time was up before that."
ADJUST_ELSEWHERE = "Your assistant speaks for me, so its speed and volume are set on that speaker, not by me."


@dataclass(frozen=True)
class Answer:
    """What the host says back to one transcript, and whether the words were taken as a reply."""

    text: str
    taken: bool


class HostStopped(Exception):
    """The session is not running (the service is shutting down); nothing was taken."""


class Conversation:
    """The session's ears and mouth when players speak through an assistant.

    Thread-safe: the session's thread calls hear/say/sound/private/adjust, the service's
    thread calls exchange and close. One exchange at a time is the caller's job (the
    service holds a lock), so two clients cannot interleave replies in one game.
    """

    takes_names = True
    """Each transcript comes as it was said, whatever the prompt's grammar, so the spoken
    menu asks the players' names (partyhost/menu.py takes_names)."""
    listens_first = True
    """The assistant speaks only as an answer, so the spoken menu hears the request before
    it greets (partyhost/menu.py listens_first)."""

    def __init__(
        self,
        out: TextIO | None = None,
        show_private: bool = True,
        clock: Callable[[], float] = time.monotonic,
        speech_seconds: Callable[[str], float] = estimated_seconds,
        understanding: TextUnderstanding | None = None,
    ):
        """`understanding`: how each transcript is understood (None: a Matcher with the default scores)."""
        self.understand = understanding if understanding is not None else TextUnderstanding(Matcher())
        self.terminal = TextMouth(out if out is not None else sys.stdout, show_private=show_private)
        self.clock, self.speech_seconds = clock, speech_seconds
        self._lock = threading.Condition()
        self._said: list[str] = []  # said since the last answer: nobody has heard it yet
        self._waiting: Prompt | None = None  # the prompt the session waits on for a reply
        self._reply: str | None = None  # a transcript handed over, not yet taken by hear()
        self._deadline: tuple[Prompt, float] | None = None  # a timed prompt and when its time runs out
        self._late = False
        self._closed = False

    # ---- the session's side: Ears and Mouth ----------------------------

    def hear(self, prompt: Prompt) -> Understood | None:
        """Wait for the next transcript, understood; None once the service closes. Words kept
        by `rest` are taken at once by the menu, or by a question said before they came."""
        with self._lock:
            if self._reply is not None and self._said and prompt.name != MENU_PROMPT:
                self._reply = None  # kept from before this question was said: not a reply to it
            if self._reply is None:
                if not self._said:  # a Keep Cool turn is a cue alone: name whose it is
                    self._said.append(f"{prompt.player}, your turn." if prompt.player else prompt.text)
                if self._deadline is not None and self._deadline[0] != prompt:
                    self._deadline = None
                self._waiting = prompt
                self._lock.notify_all()
                while self._reply is None and not self._closed:
                    self._lock.wait()
            if self._reply is None:
                return None
            text, self._reply = self._reply, None
            self._waiting = None
            if prompt.timeout and self._deadline is not None and self.clock() > self._deadline[1]:
                self._deadline, self._late = None, True
                self.terminal.out.write(one_line(f"(time was up) {text}") + "\n")
                return Understood(Outcome.TIMED_OUT, Source.VOICE)
            self.terminal.out.write(one_line(f"{prompt.player or 'table'}> {text}") + "\n")
        return self.understand(prompt, text, Source.VOICE)

    def rest(self) -> bool:
        """Wait for the next words without taking them, after an apology: the next prompt
        heard takes them (the menu: a game named is not lost). Words kept from before are
        dropped, so each rest waits for new ones. False once the service closes."""
        with self._lock:
            self._reply = None
            self._waiting = Prompt(MENU_PROMPT, None, "")
            self._lock.notify_all()
            while self._reply is None and not self._closed:
                self._lock.wait()
            self._waiting = None
            return self._reply is not None

    def reread(self, prompt: Prompt, text: str) -> Understood:
        return self.understand(prompt, text, Source.VOICE)

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        """An assistant sends text only: no speech to weigh a correction against."""
        return None

    def say(self, text: str) -> None:
        with self._lock:
            self._said.append(text)
        self.terminal.say(text)

    def sound(self, name: str) -> None:
        """Cues cannot be played through an assistant's answer; the terminal shows them."""
        self.terminal.sound(name)

    def private(self, player: str, text: str) -> None:
        """Never spoken: everyone hears the assistant. The terminal shows it if allowed."""
        self.terminal.private(player, text)

    def adjust(self, change: str) -> str:
        return ADJUST_ELSEWHERE

    # ---- the service's side --------------------------------------------

    def exchange(self, text: str, timeout: float = 30.0) -> Answer:
        """Hand `text` to the waiting prompt; the host's answer once it waits again.

        Raises HostStopped when no session is waiting within `timeout` seconds, or the
        service closes meanwhile; TimeoutError when the session does not answer in time.
        """
        with self._lock:
            if not self._lock.wait_for(lambda: self._waiting is not None or self._closed, timeout):
                raise HostStopped("the host is not ready for a reply yet")
            if self._closed:
                raise HostStopped("the host is stopping")
            assert self._waiting is not None, "woken and not closed: a prompt is waiting"
            if self._said and self._waiting.name != MENU_PROMPT:
                return self._answer(taken=False)  # unheard: the player hears it first
            self._said.clear()
            self._reply, self._waiting, self._late = text, None, False
            self._lock.notify_all()
            if not self._lock.wait_for(lambda: self._waiting is not None or self._closed, timeout):
                raise TimeoutError("the host took too long to answer")
            return self._answer(taken=True)

    def repeat(self) -> Answer:
        """What the host last waited with, without taking anything: for an empty transcript."""
        with self._lock:
            if self._waiting is None:
                raise HostStopped("the host is not ready for a reply yet")
            if not self._said:
                self._said.append(
                    self._waiting.text
                    or (f"{self._waiting.player}, your turn." if self._waiting.player else "Say that again?")
                )
            return self._answer(taken=False)

    def _answer(self, taken: bool) -> Answer:
        """Everything said since the last answer; starts a timed prompt's clock."""
        text = " ".join(part.strip() for part in self._said if part.strip())
        if self._late:
            text, self._late = f"{TIME_UP} {text}", False
        self._said.clear()
        prompt = self._waiting
        if prompt is not None and prompt.timeout and (self._deadline is None or self._deadline[0] != prompt):
            self._deadline = (prompt, self.clock() + self.speech_seconds(text) + prompt.timeout)
        return Answer(text, taken)

    def close(self) -> None:
        """Stop listening: the session's hear returns None (the game is saved, as at Ctrl-D)."""
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed
