"""Listening for one reply: audio source -> endpointer -> recogniser -> best phrase.

The ears know the prompt only by its grammar (name and live lists), never its rules.
They drop everything heard while the host was making sound (half-duplex), wait for
one utterance (or for the prompt's timer), let the recogniser read it against the
prompt's phrases (beginning while its end is still being confirmed), and hand the
session the reading that the matcher likes best.
Unreliable readings are handed over as rejected, so noise never becomes a move.
"""
from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from typing import Any, Callable

from host.engine import Heard  # the contract where host and voice meet; no rules in it

from .attention import REPLY_MAX_S, TOO_LONG, ignore_reason, too_long
from .audio_types import AudioSource, Recognizer, Utterance
from .matcher import Matcher
from .onset import missed_start
from .pipeline import read_checked
from .reading import RIVAL_MARGIN, PromptLike, Reading
from .turns import listen_for_turn
from .wordcheck import CHECK_LINE, NUMBER_LINE

AFTER_SPEECH_GUARD_S = 0.15
"""Room echo and the device's own latency after the host stops speaking."""
CONTINUES_S = 0.1
"""Speech found this soon after a too-long stretch, with no lead-in, is more of it."""


class Interrupted(Exception):
    """hear() gave up waiting because `VoiceEars.interrupt` said an answer came another way."""


class VoiceEars:
    """host.session.Ears for a microphone or a WAV file."""

    def __init__(self, source: AudioSource, endpointer: Any, recognizer: Recognizer,
                 matcher: Matcher, busy_until: Callable[[], float],
                 min_confidence: float = 0.5, on_reading: Callable[[Reading], None] | None = None,
                 play_cue: Callable[[str], None] | None = None, word_check_line: float | None = None,
                 second_opinion: Any = None, read_ahead: bool = True,
                 number_check_line: float | None = None, rival_margin: float = RIVAL_MARGIN,
                 front_end: Any = None, reply_max_s: float = REPLY_MAX_S,
                 before_listening: Callable[[], None] | None = None):
        """`play_cue(name)`: sounds the ears play while listening (a timed turn's ticks).
        `word_check_line`, `number_check_line`: voice/wordcheck.py's lines for words in
        play and for numbers said alone (None: their tuned defaults).
        `second_opinion`: a voice.asr.moonshine.Preloaded second listener, or None; it
        starts loading at the first prompt of a game that has exact prompts.
        `read_ahead`: read an utterance while its end is still being confirmed
        (_ReadAhead); False reads it only once confirmed, as a benchmark compares.
        `rival_margin`: RIVAL_MARGIN, or another (0: never unsure).
        `front_end`: a voice.frontend.FrontEnd every frame passes before the endpointer
        (gain for quiet voices), or None; it also gives each utterance's input level.
        `reply_max_s`: speech longer than this is not a reply (voice/attention.py; 0: no limit).
        `before_listening()`: called at each hear() before the ears start listening, when
        the host may still speak (a remote server's notice, voice/remote/notices.py)."""
        self.source, self.endpointer, self.recognizer = source, endpointer, recognizer
        self.matcher, self.busy_until = matcher, busy_until
        self.min_confidence = min_confidence
        self.on_reading = on_reading
        self.play_cue = play_cue
        self.word_check_line, self.number_check_line = word_check_line, number_check_line
        self.rival_margin = rival_margin
        self.second_opinion = second_opinion
        self.interrupt: Callable[[], bool] | None = None
        """Checked at every frame while nobody speaks: True stops hear() with Interrupted
        (an answer arrived by another way, e.g. a button on a phone page)."""
        self.front_end = front_end
        self.reply_max_s = reply_max_s
        self.before_listening = before_listening
        self._long_until: float | None = None   # end of the last stretch too long for a reply
        frames = source.frames() if front_end is None else front_end.frames(source.frames())
        self._frames = _Interruptible(frames, self)
        self._ahead = _ReadAhead() if read_ahead else None

    def hear(self, prompt: PromptLike):
        if self.before_listening is not None:
            self.before_listening()
        if self.second_opinion is not None and self.matcher.has_exact_prompts(prompt.name):
            self.second_opinion.start()     # loads while the game is set up, and only for such a game
        # The prompt's graph and the recogniser's steering, built while the host still
        # speaks (both are cached), not after the player has finished.
        if self.recognizer is not None:
            self.recognizer.compile(self.matcher.table(prompt.name, prompt.slots).texts)
        listening_from = self.busy_until() + AFTER_SPEECH_GUARD_S
        self.source.skip_until(listening_from)
        listening_from = max(listening_from, self.source.now())
        read = partial(self.read, prompt)
        ahead = self._ahead
        turn = listen_for_turn(self.endpointer, self._frames, listening_from, prompt.timeout,
                               getattr(prompt, "warning", None), self.play_cue,
                               read_ahead=partial(self._read_ahead, read) if ahead else None)
        cues = tuple(turn.cues)
        if turn.timed_out:
            return Heard(timed_out=True, listening_from=listening_from, cues=cues)
        if turn.utterance is None:
            return None                                 # the input has ended
        utterance = turn.utterance
        heard = partial(Heard, listening_from=listening_from, start=utterance.start, end=utterance.end,
                        cues=cues, input_level=self.input_level(utterance))
        if self._table_talk(utterance):
            self._long_until = utterance.end            # not worth reading
            return heard(ignored=TOO_LONG, unclear=True)
        reading = ahead.result(read, utterance) if ahead else read(utterance)
        if self.on_reading:
            self.on_reading(reading)
        return self._attend(prompt, reading, missed_start(utterance, listening_from), heard)

    def _attend(self, prompt: PromptLike, reading: Reading, missed: str, heard: Callable[..., Heard]) -> Heard:
        """The reading as the host should take it: ignored (not said to the host), a reply
        whose start was lost (never a move: the host asks again), or a reply."""
        table = self.matcher.table(prompt.name, prompt.slots)
        ignored = ignore_reason(replace(reading, rejected=True) if missed else reading, table, self.reply_max_s)
        if missed and not ignored:
            return heard(unclear=True, missed_start=missed)
        return heard(text="" if reading.rejected and not ignored else reading.text,
                     confidence=reading.confidence, unclear=reading.rejected or bool(missed),
                     unsure=reading.unsure, ignored=ignored)

    def _read_ahead(self, read: Callable[[Utterance], Reading], utterance: Utterance) -> None:
        """Begin reading an utterance early, unless it is table talk that will not be read."""
        if not self._table_talk(utterance):
            self._ahead.begin(read, utterance)

    def _table_talk(self, utterance: Utterance) -> bool:
        """Longer than a reply, or running straight on from such a stretch."""
        return too_long(utterance, self.reply_max_s) or self._continues_long(utterance)

    def _continues_long(self, utterance: Utterance) -> bool:
        """Speech going straight on from a stretch cut at the endpointer's length limit."""
        return (self._long_until is not None and utterance.start - self._long_until < CONTINUES_S
                and (utterance.lead_s or 0.0) < CONTINUES_S)

    def input_level(self, utterance: Utterance) -> dict[str, float] | None:
        """The utterance's peak and RMS level as it came in, before any gain (for the log)."""
        level = self.front_end.input_level(utterance.start, utterance.end) if self.front_end else None
        return None if level is None else {"peak_dbfs": level.peak_dbfs, "rms_dbfs": level.rms_dbfs}

    def read(self, prompt: PromptLike, utterance: Utterance) -> Reading:
        line = CHECK_LINE if self.word_check_line is None else self.word_check_line
        number_line = NUMBER_LINE if self.number_check_line is None else self.number_check_line
        return read_checked(self.recognizer, self.matcher, prompt, utterance, self.min_confidence, line,
                            self.second_opinion, number_line, self.rival_margin)


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

    def result(self, read: Callable[[Utterance], Reading], utterance: Utterance) -> Reading:
        """The reading of this utterance: the one begun ahead, if it was this one."""
        begun = self._reading if utterance is self._utterance else None
        self._utterance = self._reading = None
        return (begun or self._worker.submit(read, utterance)).result()


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
        if check is not None and not getattr(self.ears.endpointer, "in_speech", False) and check():
            if hasattr(self.ears.endpointer, "reset"):
                self.ears.endpointer.reset()
            raise Interrupted()
        return next(self.frames)
