"""Listening for one reply: audio source -> endpointer -> recogniser -> best phrase.

The ears know the prompt only by its grammar (name and live lists), never its rules.
They drop everything heard while the host was making sound (half-duplex), wait for
one utterance (or for the prompt's timer), let the recogniser read it against the
prompt's phrases (beginning while its end is still being confirmed), and hand the
session the reading that the matcher likes best, understood: the match the reading
made is the one the host acts on (voice.understanding.understand), so a reply is
matched once. Unreliable readings are handed over as unclear, so noise never
becomes a move.
With a wake word (voice/listening/wake.py), an utterance in which it was heard is said to the
host whatever the prompt: what follows the word is read as what may follow the
prompt's command prefix ("host, score"), or as a common command where it has none.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from host.contract import Evidence, Likeness, Outcome, Prompt, Source, Understood  # where host and voice meet
from voice.audio_types import SAMPLE_RATE, AudioSource, Utterance
from voice.listening.attention import (
    AMID_TALK,
    AMID_TALK_S,
    MISS_REASONS,
    REPLY_MAX_S,
    REPLY_WINDOW_S,
    SAID_AGAIN_S,
    TOO_LONG,
    amid_talk,
    awaited,
    ignore_reason,
    too_long,
)
from voice.listening.endpoint import Endpointer
from voice.listening.frontend import FrontEnd
from voice.listening.likeness import likeness
from voice.listening.onset import missed_start
from voice.listening.pipeline import Reader
from voice.listening.reading import Reading, cut_sign, read_table
from voice.listening.second_opinion import EARS_DIFFER
from voice.listening.turns import listen_for_turn
from voice.listening.wake import STEP, WakeWatch, command_start
from voice.understanding.clues import clue_doubt
from voice.understanding.commands import Commands, sure_command
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding, decided, understood

AFTER_SPEECH_GUARD_S = 0.15
"""Room echo and the device's own latency after the host stops speaking."""
CONTINUES_S = 0.1
"""Speech found this soon after a too-long stretch, with no lead-in, is more of it."""
WAKE_BEFORE_S, WAKE_AFTER_S = 0.5, 0.6
"""A wake heard this long before an utterance's start, or after its end (the detector
fires after the word, and the end is confirmed 0.5 s later), belongs to it."""
ARMED_S = 5.0
"""The wake word said alone: an utterance starting this soon after it is the command."""
COMMAND_MIN_S = 0.15
"""Less speech than this after the wake word: the word was said alone."""
WAKE_ALONE = "wake word alone: listening for a command"
"""Why the ears answered WOKEN (the host says "Yes?" and listens)."""
WAKE_UNCLEAR = "wake word, but no command understood"
RECENT_READINGS = 8
"""The readings kept for a correction of a move taken from one (likeness): the last move
is at most a few replies back (commands and questions come between)."""


class Interrupted(Exception):
    """hear() gave up waiting because `VoiceEars.interrupt` said an answer came another way."""


class VoiceEars:
    """host.awaiting.Ears for a microphone or a WAV file."""

    def __init__(
        self,
        source: AudioSource,
        endpointer: Endpointer,
        reader: Reader,
        matcher: Matcher,
        busy_until: Callable[[], float],
        on_reading: Callable[[Reading], None] | None = None,
        play_cue: Callable[[str], None] | None = None,
        read_ahead: bool = True,
        front_end: FrontEnd | None = None,
        reply_max_s: float = REPLY_MAX_S,
        wake: WakeWatch | None = None,
        before_listening: Callable[[], None] | None = None,
    ):
        """`reader`: the recogniser, second listener and check lines (voice/listening/pipeline.py);
        its second listener starts loading at the first prompt of a game that has a prompt for it
        (the grammar's `second_listener`: Keep Cool's words in play).
        `play_cue(name)`: sounds the ears play while listening (a timed turn's ticks).
        `read_ahead`: read an utterance while its end is still being confirmed
        (_ReadAhead); False reads it only once confirmed, as a benchmark compares.
        `front_end`: a voice.listening.frontend.FrontEnd every frame passes before the endpointer
        (gain for quiet voices), or None; it also gives each utterance's input level.
        `reply_max_s`: speech longer than this is not a reply (voice/listening/attention.py; 0: no limit).
        `wake`: the wake word's watch over the same frames (after the front end), or None (off).
        `before_listening()`: called at each hear() before the ears start listening, when
        the host may still speak (a remote server's notice, voice/remote/notices.py)."""
        self.source, self.endpointer, self.reader = source, endpointer, reader
        self.matcher, self.busy_until = matcher, busy_until
        self.on_reading = on_reading
        self.play_cue = play_cue
        self.interrupt: Callable[[], bool] | None = None
        """Checked at every frame while nobody speaks: True stops hear() with Interrupted
        (an answer arrived by another way, e.g. a button on a phone page)."""
        self.front_end = front_end
        self.reply_max_s = reply_max_s
        self.before_listening = before_listening
        self._long_until: float | None = None  # end of the last stretch too long for a reply
        self._set_aside: tuple[str, float] | None = None
        """The question and end of the last reply-length reading set aside as no reply
        (attention.MISS_REASONS): the answer window opens again after it (said again)."""
        self.wake = wake
        self._armed_until: float | None = None  # the wake word said alone: a command may follow until then
        frames = source.frames() if front_end is None else front_end.frames(source.frames())
        if wake is not None:
            frames = wake.frames(frames)
        self._frames = _Interruptible(frames, self)
        self._ahead = _ReadAhead() if read_ahead else None
        self._recent: deque[Reading] = deque(maxlen=RECENT_READINGS)
        """The latest readings, for a correction of a move taken from one."""

    def hear(self, prompt: Prompt) -> Understood | None:
        self._get_ready(prompt)
        listening_from = self.busy_until() + AFTER_SPEECH_GUARD_S
        self.source.skip_until(listening_from)
        # From the first audio still to come: a microphone keeps what it caught while the
        # prompt's grammar was being made ready, so the ears open when the host fell
        # silent, not when they got round to listening (a reply begun meanwhile is whole).
        listening_from = max(listening_from, self.source.next_frame_t())
        read = partial(self.read, prompt)
        ahead = self._ahead
        talk = partial(self._table_talk, prompt)
        turn = listen_for_turn(
            self.endpointer,
            self._frames,
            listening_from,
            prompt.timeout,
            prompt.warning,
            self.play_cue,
            read_ahead=partial(self._read_ahead, ahead, read, talk) if ahead else None,
        )
        cues = tuple(turn.cues)
        if turn.timed_out:
            return Understood(Outcome.TIMED_OUT, Source.VOICE, listening_from=listening_from, cues=cues)
        if turn.utterance is None:
            return None  # the input has ended
        utterance = turn.utterance
        timing = _Timing(
            listening_from, utterance.start, utterance.end, cues, self.input_level(utterance), utterance.snr_db
        )
        if self.wake is not None:
            command = self._wake_command(self.wake, prompt, utterance, timing)
            if command is not None:
                return command
        if talk(utterance):
            reason = TOO_LONG if self._long(utterance) else AMID_TALK
            tried_again = _confirming(prompt) or (reason == TOO_LONG and self._long_again(prompt, utterance))
            self._long_until = utterance.end  # not worth reading
            if reason == TOO_LONG and utterance.start - self.busy_until() <= REPLY_WINDOW_S:
                self._set_aside = (prompt.name, utterance.end)  # a reply may have run into the room's noise
            return timing.made(Outcome.UNCLEAR if tried_again else Outcome.IGNORED, reason=reason)
        reading = ahead.result(read, utterance) if ahead else read(utterance)
        if self.on_reading:
            self.on_reading(reading)
        self._recent.append(reading)
        return self._attend(prompt, reading, missed_start(utterance, listening_from), timing)

    def _get_ready(self, prompt: Prompt) -> None:
        """What reading this prompt's reply needs, made ready while the host still speaks."""
        if self.before_listening is not None:
            self.before_listening()
        if self.reader.second is not None and self.matcher.has_second_listener(prompt.name):
            self.reader.second.start()  # loads while the game is set up, and only for such a game
        # The prompt's graph and the recogniser's steering, built while the host still
        # speaks (both are cached), not after the player has finished.
        if self.reader.recognizer is not None:
            self.reader.recognizer.compile(self.matcher.table(prompt.name, prompt.slots).texts)

    def reread(self, prompt: Prompt, text: str) -> Understood:
        """Words already heard, understood against another prompt (a narrowed question's
        choices): text understanding, no audio read again."""
        return TextUnderstanding(self.matcher)(prompt, text, Source.VOICE)

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        """How well the speech behind `heard` fits `corrected` against the words taken
        (voice/listening/likeness.py); None once its reading is no longer kept."""
        reading = next((r for r in self._recent if heard.start is not None and r.utterance.start == heard.start), None)
        if reading is None or self.reader.recognizer is None:
            return None
        table = self.matcher.table(prompt.name, prompt.slots)
        return likeness(reading, table, heard.phrase, corrected, self.reader.recognizer)

    @property
    def wake_phrase(self) -> str | None:
        """The wake word as said ("hey host"); None when it is off."""
        return self.wake.word.phrase if self.wake is not None else None

    def sleep_until_wake(self) -> bool:
        """Read the microphone, answering nothing, until the wake word is heard (a box at
        rest); False if the input ends first. Without a wake word: at once, True."""
        if self.wake is None:
            return True
        self.source.skip_until(self.busy_until() + AFTER_SPEECH_GUARD_S)
        self.wake.forget()
        for _ in self._frames:
            if self.wake.take(float("-inf"), float("inf")) is not None:
                self.endpointer.reset()
                return True
        return False

    def _attend(self, prompt: Prompt, reading: Reading, missed: str, timing: _Timing) -> Understood:
        """The reading as the host should take it: ignored (not said to the host), a reply
        whose start was lost (never a move: the host asks again), unclear (no reading
        reliable, or one the awaited player said that is no reply: see `_awaited_miss`),
        or a reply understood by the match the reading made."""
        table = self.matcher.table(prompt.name, prompt.slots)
        ignored = ignore_reason(replace(reading, rejected=True) if missed else reading, table, self.reply_max_s)
        if ignored and not missed and self._awaited_miss(prompt, reading.utterance, ignored):
            self._set_aside = None
            return timing.made(Outcome.UNCLEAR, text=_free_text(reading), reason=ignored, confidence=reading.confidence)
        if ignored in MISS_REASONS:
            self._set_aside = (prompt.name, reading.utterance.end)
        if ignored:
            return timing.made(Outcome.IGNORED, text=reading.text, reason=ignored, confidence=reading.confidence)
        if missed:
            return timing.made(Outcome.MISSED_START, reason=missed)
        if reading.rejected or reading.match is None:
            return timing.made(
                Outcome.UNCLEAR, text=_free_text(reading), confidence=reading.confidence, heard_as=reading.heard_as
            )
        doubt = clue_doubt(reading.match.phrase, table.live_words()) if reading.match.fallback else ""
        doubt = EARS_DIFFER if reading.heard_as else doubt
        if doubt:  # where any speech is a move, a reading nobody is likely to have said is asked again
            return timing.made(
                Outcome.MISHEARD,
                text=reading.text,
                reason=doubt,
                confidence=reading.confidence,
                heard_as=reading.heard_as,
            )
        return understood(
            reading.match,
            Source.VOICE,
            reading.text,
            reading.rival,
            cut_sign(reading, table),
            reading.utterance.snr_db,
            reading.agreed,
            confidence=reading.confidence,
            **timing.fields(),
        )

    def _long_again(self, prompt: Prompt, utterance: Utterance) -> bool:
        """A stretch too long for a reply begun soon after one set aside at the same
        question, not running on from it: the awaited player trying again in a room whose
        noise runs their words on. A miss the host answers ("Sorry?"), never read, and
        not where any speech is a move (a clue unread would be taken)."""
        aside = self._set_aside
        if prompt.unclear is not None or aside is None or aside[0] != prompt.name or self._continues_long(utterance):
            return False
        return AMID_TALK_S <= utterance.start - aside[1] <= SAID_AGAIN_S

    def _awaited_miss(self, prompt: Prompt, utterance: Utterance, reason: str) -> bool:
        """A reading set aside as empty, far or too wordy, which the awaited player still
        plausibly said (attention.awaited; at a confirming question, any): a miss the host
        answers, never silence. Not at a prompt where any speech is a move (a Keep Cool
        clue, `unclear`): there a wrong guess costs the turn, and the buzzer ends the wait
        anyway."""
        if reason not in MISS_REASONS or prompt.unclear is not None:
            return False
        if _confirming(prompt):
            return True
        aside = self._set_aside
        set_aside_until = aside[1] if aside is not None and aside[0] == prompt.name else None
        return awaited(utterance, self._long_until, self.busy_until(), self.reply_max_s, set_aside_until)

    def _read_ahead(
        self,
        ahead: _ReadAhead,
        read: Callable[[Utterance], Reading],
        talk: Callable[[Utterance], bool],
        utterance: Utterance,
    ) -> None:
        """Begin reading an utterance early, unless it is table talk that will not be read
        (`talk`), or a command after the wake word (read otherwise)."""
        if not talk(utterance) and not self._woken(utterance):
            ahead.begin(read, utterance)

    def _woken(self, utterance: Utterance) -> bool:
        if self.wake is None:
            return False
        armed = self._armed_until is not None and utterance.start <= self._armed_until
        return armed or self.wake.peek(utterance.start - WAKE_BEFORE_S, utterance.end + WAKE_AFTER_S)

    def _wake_command(
        self, wake: WakeWatch, prompt: Prompt, utterance: Utterance, timing: _Timing
    ) -> Understood | None:
        """The utterance as a command after the wake word, or None if the word was not
        heard in it (nor said alone just before). What follows the word is read as if
        it followed the prompt's command prefix ("host"), or, at a prompt without one,
        against the common commands. A command is handed over decided, like a phone's
        button. A detection never swallows a line: where no command follows it, the
        whole utterance is read as a reply to the prompt (the detector also fires on
        words that are no wake word, "undo" among them), and what reads as a sure reply
        or command is that (_as_reply). Otherwise the word said alone is WOKEN (the host
        answers, then listens) and anything else ignored, never taken as the prompt's
        reply where any speech is a move (at a Keep Cool turn any speech is a clue)."""
        armed = self._armed_until is not None and utterance.start <= self._armed_until
        self._armed_until = None
        fired = wake.take(utterance.start - WAKE_BEFORE_S, utterance.end + WAKE_AFTER_S)
        if fired is None and not armed:
            return None
        audio_start = utterance.start - (utterance.lead_s or 0.0)
        cut = command_start(utterance.audio, audio_start, fired) if fired is not None else 0
        rest = utterance.audio[cut:]
        alone = _speech_seconds(rest, utterance.audio) < COMMAND_MIN_S
        text = ""
        if not alone:
            command = Utterance(
                rest, start=max(utterance.start, audio_start + cut / SAMPLE_RATE), end=utterance.end, lead_s=0.0
            )
            commands = Commands(self.matcher, prompt.name, prompt.slots)
            read = partial(
                read_table,
                self.reader.recognizer,
                commands,
                min_confidence=self.reader.min_confidence,
                rival_margin=self.reader.rival_margin,
                acts=self.reader.acts,
            )
            reading = self._run(read, command)
            if self.on_reading:
                self.on_reading(reading)
            said = sure_command(reading.match, self.reader.acts) if not reading.rejected and reading.text else None
            if said is not None and said.intent is not None:
                return decided(said.intent, Source.WAKE, reading.text, confidence=reading.confidence, **timing.fields())
            text = reading.text
        reply = self._as_reply(prompt, utterance, timing)
        if reply is not None:
            return reply
        if alone:
            self._armed_until = utterance.end + ARMED_S
            return timing.made(Outcome.WOKEN, reason=WAKE_ALONE)
        return timing.made(Outcome.IGNORED, text=text, reason=WAKE_UNCLEAR)

    def _as_reply(self, prompt: Prompt, utterance: Utterance, timing: _Timing) -> Understood | None:
        """The whole utterance read against the prompt, as if no wake word had been heard,
        when it reads as a move or command the host would act on unasked; else None.
        Never where any speech is a move (a clue is no reading to trust a wake word over)."""
        if self.matcher.table(prompt.name, prompt.slots).fallback is not None:
            return None
        reading = self._run(partial(self.read, prompt), utterance)
        if self.on_reading:
            self.on_reading(reading)
        if reading.rejected or reading.match is None:
            return None
        reply = understood(
            reading.match, Source.VOICE, reading.text, reading.rival, confidence=reading.confidence, **timing.fields()
        )
        return reply if self.reader.acts(reply) else None  # the host's rule says what is sure

    def _run(self, read: Callable[[Utterance], Reading], utterance: Utterance) -> Reading:
        return self._ahead.run(read, utterance) if self._ahead else read(utterance)

    def _table_talk(self, prompt: Prompt, utterance: Utterance) -> bool:
        """Longer than a reply, running straight on from such a stretch, or begun just
        after one long after the host last spoke; at a confirming question only the first
        two (_confirming): a word said just after the talk may be its answer, and is read."""
        if self._long(utterance):
            return True
        return not _confirming(prompt) and amid_talk(utterance, self._long_until, self.busy_until())

    def _long(self, utterance: Utterance) -> bool:
        return too_long(utterance, self.reply_max_s) or self._continues_long(utterance)

    def _continues_long(self, utterance: Utterance) -> bool:
        """Speech going straight on from a stretch cut at the endpointer's length limit."""
        return (
            self._long_until is not None
            and utterance.start - self._long_until < CONTINUES_S
            and (utterance.lead_s or 0.0) < CONTINUES_S
        )

    def input_level(self, utterance: Utterance) -> dict[str, float] | None:
        """The utterance's peak and RMS level as it came in, before any gain (for the log)."""
        level = self.front_end.input_level(utterance.start, utterance.end) if self.front_end else None
        return None if level is None else {"peak_dbfs": level.peak_dbfs, "rms_dbfs": level.rms_dbfs}

    def read(self, prompt: Prompt, utterance: Utterance) -> Reading:
        return self.reader.read(self.matcher, prompt, utterance)


@dataclass(frozen=True)
class _Timing:
    """When one utterance was listened for and said, how loud it came in, and how far it
    stood over the room's noise (`snr_db`: an understood reply carries it in its evidence,
    one not read carries it for the host to tell a loud room)."""

    listening_from: float
    start: float
    end: float
    cues: tuple[tuple[str, float], ...]
    input_level: dict[str, float] | None
    snr_db: float | None = None

    def fields(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if key != "snr_db"}

    def made(self, outcome: Outcome, confidence: float | None = None, **fields: Any) -> Understood:
        evidence = Evidence(confidence=confidence, snr_db=self.snr_db)
        return Understood(outcome, Source.VOICE, **fields, evidence=evidence, **self.fields())


class _ReadAhead:
    """Reads an utterance in the rest of its endpoint silence (Endpointer.pending:
    its audio is complete 0.24 s after the speech, the end is confirmed at 0.5 s),
    so the reading is ready, or nearly, when the end is. If speech resumes, that
    reading is dropped and the longer utterance is read. Every read runs on one
    worker thread, one at a time: a recogniser is never asked from two threads."""

    def __init__(self) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="read-ahead")
        self._utterance: Utterance | None = None
        self._reading: Future[Reading] | None = None

    def begin(self, read: Callable[[Utterance], Reading], utterance: Utterance) -> None:
        if utterance is not self._utterance:
            self._utterance, self._reading = utterance, self._worker.submit(read, utterance)

    def run(self, read: Callable[[Utterance], Reading], utterance: Utterance) -> Reading:
        """Read on the worker (never beside a read begun ahead), dropping that one."""
        self._utterance = self._reading = None
        return self._worker.submit(read, utterance).result()

    def result(self, read: Callable[[Utterance], Reading], utterance: Utterance) -> Reading:
        """The reading of this utterance: the one begun ahead, if it was this one."""
        begun = self._reading if _same_speech(utterance, self._utterance) else None
        self._utterance = self._reading = None
        if begun is None:
            return self._worker.submit(read, utterance).result()
        return replace(begun.result(), utterance=utterance)  # with what the end's silence told


def _same_speech(utterance: Utterance, ahead: Utterance | None) -> bool:
    """The utterance read ahead, confirmed: the same audio to the same end (the endpointer
    adds what it heard in the closing silence, voice/listening/endpoint.py)."""
    return ahead is not None and (utterance is ahead or (utterance.audio is ahead.audio and utterance.end == ahead.end))


class _Interruptible:
    """The source's frames, which stop with Interrupted when the ears are told to.

    Only between utterances: a player already speaking is heard to the end. The
    frame generator itself stays untouched, so the next hear() carries on with it.
    """

    def __init__(self, frames: Any, ears: VoiceEars):
        self.frames, self.ears = frames, ears

    def __iter__(self) -> _Interruptible:
        return self

    def __next__(self) -> Any:
        check = self.ears.interrupt
        if check is not None and not self.ears.endpointer.in_speech and check():
            self.ears.endpointer.reset()
            raise Interrupted()
        return next(self.frames)


def _confirming(prompt: Prompt) -> bool:
    """A confirming question (Prompt.confirming), where no speech is passed over as table
    talk (voice/listening/attention.py); never where any speech is a move (`unclear`)."""
    return prompt.confirming and prompt.unclear is None


def _free_text(reading: Reading) -> str:
    """The words of a reading that was no reply to the prompt: its chosen text, else the
    recogniser's best free one. The session may read them against another prompt (a whole
    move said to a narrowed question), never act on them at this one."""
    return reading.text or next((h.text for h in reading.hypotheses if h.text), "")


def _speech_seconds(part: np.ndarray, whole: np.ndarray) -> float:
    """How long `part` is within 20 dB of the loudest 10 ms of `whole` (speech, not the
    silence after a word)."""
    loudest = _step_levels(whole).max(initial=0.0)
    return float(np.sum(_step_levels(part) >= 0.1 * loudest)) * STEP / SAMPLE_RATE if loudest > 0 else 0.0


def _step_levels(audio: np.ndarray) -> np.ndarray:
    """RMS of each 10 ms of `audio`."""
    n = len(audio) // STEP * STEP
    return np.sqrt(np.mean(audio[:n].astype(np.float64).reshape(-1, STEP) ** 2, axis=1))
