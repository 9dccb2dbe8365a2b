"""Waiting for a reply meant for the host, as a host at a table does.

Speech the ears found not said to the host is logged with the reason and not answered;
the wake word said alone gets "Yes?", a Keep Cool clue likely misheard "Again?" (inside
the turn's clock); the first reply lost to a loud room is answered, once a game, by
asking for just the answer (LOUD_HERE), or the phone page where it has the move; a
silent player is reminded of the question after a while, then at doubling intervals;
speech whose start was lost is asked for again. What comes out is a reply to act on,
the prompt's time running out, or the end of the input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from .announcer import Announcer
from .contract import Likeness, Outcome, Prompt, Source, Understood, loud_room
from .eventlog import EventLog
from .log_events import Heard, Ignored, Misheard, Reminded, Woken
from .narrowing import YES_NO_PROMPT, addressed

YES = "Yes?"
"""The answer to the wake word said alone: the host is listening for what follows."""
AGAIN = "Again?"
"""The answer to a Keep Cool clue likely misheard: said inside the turn's clock."""
AGAIN_MIN_S = 1.0
"""A timed prompt asked again has at least this long left for the reply."""
AGAIN_MAX = 1
""""Again?" said at most this often a turn: a clue misheard once more is taken as a clue
whose words the host could not read (Prompt.unclear), so a player who keeps speaking
never loses the turn to the clock through the host's ears."""
MISSED_START = "Sorry, I missed the start of that. Please say it again."
CONFIRM_AGAIN = "Sorry? Yes or no?"
CONFIRM_TRIES = 2
"""Tries at a yes-or-no question the host could not read before it counts as a no."""
LOUD_HERE = "It's loud here: just the answer, please"
"""Said once a game, at the first reply the host could not read in a loud room: the table's
talk runs on around a reply, and a reply said alone, short, stands out of it."""
LOUD_ROOM = "loud room"
"""Why that reply was answered so (the event log's `heard` reason)."""


class Ears(Protocol):
    """Something that hears replies and understands them: the session never matches words."""

    def hear(self, prompt: Prompt) -> Understood | None:
        """The next reply to `prompt`, understood; None when the input has ended for good."""

    def reread(self, prompt: Prompt, text: str) -> Understood:
        """Words heard before, understood against another prompt (a narrowed question's
        choices: which one the missed replies sound like)."""

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        """How well the speech behind `heard` (a reply to `prompt` the host acted on) fits
        `corrected`, words of `prompt` a player says were said instead; None when the
        speech is not at hand (typed, pressed, or heard too long ago)."""


class Awaiting:
    """The host's attention to the table while a question is open."""

    def __init__(
        self,
        ears: Ears,
        clock: Callable[[], float],
        log: EventLog,
        announcer: Announcer,
        remind_after: float | None = None,
        other_way: Callable[[Prompt], str] = lambda prompt: "",
    ):
        """`other_way(prompt)`: how else the player asked can answer now (their phone page),
        or "" when there is no other way."""
        self.ears, self.clock, self.log, self.announcer = ears, clock, log, announcer
        self.other_way = other_way
        self.told_loud = False
        """The table was told once that the room is too loud (LOUD_HERE)."""
        self.remind_after = remind_after
        """Seconds of no reply to an untimed prompt before a brief reminder (then doubling);
        None: never (typed play)."""
        self._reminders: tuple[Prompt, float, float] | None = None
        """The question being waited for, the wait before its next reminder, and when."""

    def hear(self, prompt: Prompt, remind: bool = True) -> Understood | None:
        """The next reply meant for the host. Speech the ears found not said to it is
        logged with the reason and not answered; after `remind_after` seconds with no
        reply to an untimed prompt, a brief reminder, then at doubling intervals (unless
        `remind` is off: a paused table is not reminded)."""
        wait = self.remind_after if prompt.timeout is None and remind else None
        schedule = (wait, self.clock() + wait) if wait else None  # (wait, when the reminder is due)
        if schedule and self._reminders is not None and self._reminders[0] == prompt:
            schedule = self._reminders[1:]  # the same question again: its schedule goes on
        runs_until: float | None = None  # a timed prompt's clock, running on while the host answers
        graced = False  # the second after "Again?" past the clock's end is given once
        again = 0  # "Again?" said at this prompt
        while True:
            self._reminders = (prompt, *schedule) if schedule else None
            asked = prompt if schedule is None else replace(prompt, timeout=max(0.5, schedule[1] - self.clock()))
            if runs_until is not None:
                left = runs_until - self.clock()
                if left < AGAIN_MIN_S and graced:
                    assert prompt.timeout is not None, "runs_until is only set for a timed prompt"
                    return Understood(Outcome.TIMED_OUT, Source.VOICE, listening_from=runs_until - prompt.timeout)
                graced = left < AGAIN_MIN_S
                asked = replace(prompt, timeout=max(AGAIN_MIN_S, left))
            heard = self.ears.hear(asked)
            if heard is not None and schedule is not None and heard.outcome is Outcome.TIMED_OUT:
                self._remind(prompt)
                wait = schedule[0] * 2
                schedule = (wait, self.clock() + wait)
                continue
            if heard is not None and heard.outcome is Outcome.MISHEARD and again >= AGAIN_MAX and prompt.unclear:
                return replace(heard, outcome=Outcome.UNCLEAR)  # a clue all the same
            if heard is not None and self._lost_to_the_room(prompt, heard):
                self._tell_loud(prompt, heard)
                continue
            if heard is not None and heard.outcome in (Outcome.WOKEN, Outcome.MISHEARD):
                again += heard.outcome is Outcome.MISHEARD
                self._answer_at_once(prompt, heard)
                if prompt.timeout is not None and heard.listening_from is not None and runs_until is None:
                    runs_until = heard.listening_from + prompt.timeout
                continue
            if heard is None or heard.outcome is not Outcome.IGNORED:
                if heard is not None and heard.outcome is not Outcome.MISSED_START:
                    self._reminders = None  # a reply, even a refused one, starts the wait anew
                return heard
            self.log.write(Ignored(prompt.player, heard.reason, heard.text, timing=timing(heard, prompt)))

    def _answer_at_once(self, prompt: Prompt, heard: Understood) -> None:
        """The wake word said alone gets "Yes?", a Keep Cool clue likely misheard "Again?":
        short, so a timed turn keeps most of its clock, and never silence."""
        woken = heard.outcome is Outcome.WOKEN
        answered = Woken if woken else Misheard
        self.log.write(answered(prompt.player, heard.text, heard.reason or None, timing(heard, prompt)))
        self.announcer.say(YES if woken else AGAIN, remember=False)

    def _lost_to_the_room(self, prompt: Prompt, heard: Understood) -> bool:
        """The first spoken reply of the game the host could not read in a loud room (a miss
        it would answer "Sorry?"), where no speech is a move by itself (a Keep Cool clue)."""
        return (
            not self.told_loud
            and heard.outcome is Outcome.UNCLEAR
            and heard.spoken
            and prompt.unclear is None
            and loud_room(heard.evidence.snr_db)
        )

    def _tell_loud(self, prompt: Prompt, heard: Understood) -> None:
        """Once a game: just the answer, please, or the phone page where it has the move.
        The host then listens again; the miss is not counted (the table was told why)."""
        self.told_loud = True
        self.log.write(Heard(prompt.player, heard.text, unclear=True, reason=LOUD_ROOM, timing=timing(heard, prompt)))
        phone = self.other_way(prompt)
        self.announcer.say(f"{LOUD_HERE}, or use your phone." if phone else f"{LOUD_HERE}.", remember=False)

    def _remind(self, prompt: Prompt) -> None:
        """Name and question, not the whole prompt (which may read out a hand)."""
        question = addressed(prompt.player, _question(prompt.text))
        self.log.write(Reminded(prompt.player))
        self.announcer.say(question, remember=False)

    def missed_start(self, prompt: Prompt, heard: Understood) -> None:
        """Speech whose beginning the ears lost (said over the host, or cut): never a move.
        The host says so, which asks for it again."""
        self.log.write(Ignored(prompt.player, "missed start", detail=heard.reason, timing=timing(heard, prompt)))
        self.announcer.say(MISSED_START, remember=False)

    def confirm(self, prompt: Prompt, question: str) -> bool:
        """Ask `prompt.player` (None: the table) yes or no; only a yes agrees, so nothing
        happens by accident."""
        return said_yes(self.yes_or_no(prompt, question))

    def yes_or_no(self, prompt: Prompt, question: str) -> Understood | None:
        """The answer to a yes-or-no question (None: none came). A reply that could not be
        read is asked about once more, never taken for a no unheard; what was heard is
        logged, as any reply is."""
        ask = Prompt(YES_NO_PROMPT, prompt.player, question, choices=("yes", "no"), confirming=True)
        self.announcer.say(question, remember=False)
        for attempt in range(CONFIRM_TRIES):
            heard = self.hear(ask)
            if heard is None or heard.outcome is Outcome.TIMED_OUT:
                return None
            if heard.outcome in (Outcome.UNCLEAR, Outcome.MISSED_START):
                if attempt + 1 < CONFIRM_TRIES:
                    self.announcer.say(CONFIRM_AGAIN, remember=False)
                continue
            self.log_answer(prompt, heard, question)
            return heard
        return None

    def log_answer(self, prompt: Prompt, heard: Understood, confirming: str) -> None:
        """The answer to a question the host asked about something (`confirming`), as heard."""
        unclear = heard.outcome is Outcome.UNCLEAR
        self.log.write(
            Heard(prompt.player, heard.text, unsure=bool(heard.evidence.rival), unclear=unclear, confirming=confirming)
        )


def said_yes(heard: Understood | None) -> bool:
    """The answer was yes."""
    return heard is not None and heard.intent is not None and heard.intent["intent"] == "yes"


def _question(text: str) -> str:
    """ "You hold 3, 7 and 9. Which card?" -> "Which card?" (the question, not the hand); the
    last question when advice follows it ("Which is closest to 50? Add power cards if you
    like."), else the last sentence."""
    sentences = [part.strip() for part in re.split(r"(?<=[.?!])\s+", text.strip()) if part.strip()]
    questions = [sentence for sentence in sentences if sentence.endswith("?")]
    return (questions or sentences or [text])[-1]


def timing(heard: Understood, prompt: Prompt) -> dict[str, Any]:
    """When a spoken reply was listened for and said, and how loud it came in, for the
    event log (typed: nothing).

    deadline is when a timed prompt's clock ran out (listening_from + timeout), so the
    log shows a word said across the buzzer, and how close to schedule the buzzer was.
    """
    timing: dict[str, Any] = {
        key: round(value, 3)
        for key, value in (("listening_from", heard.listening_from), ("start", heard.start), ("end", heard.end))
        if value is not None
    }
    if heard.listening_from is not None and prompt.timeout:
        timing["deadline"] = round(heard.listening_from + prompt.timeout, 3)
    if heard.input_level:
        timing["input_level"] = dict(heard.input_level)
    if heard.evidence.snr_db is not None:
        timing["snr_db"] = heard.evidence.snr_db
    return timing
