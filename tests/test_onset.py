"""A reply whose start the host did not hear is never a move (voice/listening/onset.py): said over
the host's own speech, or cut at the front by the endpointer. The host says it missed
the start, asks again, and the event log says why."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile
from test_endpoint import RULES, frames_of, silence, voiced
from test_session import events, make_session

from host.awaiting import MISSED_START
from host.contract import Ending, Outcome, Prompt
from host.reply_policy import acts
from voice.audio_types import SAMPLE_RATE, Utterance
from voice.listening.audio_in import WavSource
from voice.listening.ears import VoiceEars
from voice.listening.endpoint import Endpointer
from voice.listening.onset import BEGAN_BEFORE_LISTENING, CLIPPED_AT_FRONT, OPENED_WITHIN_S, missed_start
from voice.listening.pipeline import Reader
from voice.understanding.matcher import Matcher


def number_prompt() -> Prompt:
    return Prompt("common/number", None, "How many?")


class CountingRecogniser:
    """Reads everything as "five", and counts how often it was asked."""

    def __init__(self):
        self.reads = 0

    def compile(self, phrases):
        return tuple(phrases)

    def recognize(self, audio, grammar):
        from voice.audio_types import Hypothesis

        self.reads += 1
        return [Hypothesis("five", 0.95)]


def room_heard_before() -> Endpointer:
    """An endpointer that has heard the quiet room before the host spoke (its noise floor
    is kept across the host's speech, as in a session)."""
    endpointer = Endpointer()
    for frame in frames_of(silence(1.0), t0=-10.0):
        endpointer.push(frame)
    return endpointer


def recording(tmp_path, *parts: np.ndarray):
    path = tmp_path / "table.wav"
    soundfile.write(path, np.concatenate(parts), SAMPLE_RATE, subtype="PCM_16")
    return WavSource(path)


@pytest.mark.parametrize("host_stops_into_speech, expected", [(0.5, BEGAN_BEFORE_LISTENING), (None, "")])
def test_speech_begun_while_the_host_spoke_is_not_read(tmp_path, say, host_stops_into_speech, expected):
    """The host speaks until halfway through "card six with spot on" (half-duplex: the
    ears open only then); the rest, read as a plausible reply, is handed over as a
    missed start with no text. Begun after, it is a reply."""
    speech = say("card six with spot on")
    lead = 1.0
    stops = lead + host_stops_into_speech * len(speech) / SAMPLE_RATE if host_stops_into_speech else 0.3
    recogniser = CountingRecogniser()
    ears = VoiceEars(
        recording(tmp_path, silence(lead), speech, silence(1.5)),
        room_heard_before(),
        Reader(recogniser, acts=acts),
        Matcher(),
        busy_until=lambda: stops,
    )
    heard = ears.hear(number_prompt())
    assert (heard.reason if heard.outcome is Outcome.MISSED_START else "") == expected
    assert recogniser.reads == 1
    assert (heard.text == "") == bool(expected) and (heard.outcome is Outcome.MISSED_START) == bool(expected)


def test_speech_from_the_first_frame_kept_is_clipped_at_the_front():
    """Long after listening opened, an utterance with no lead-in that begins in speech
    (speech ran on past the cut before it) was clipped; the same with room before it was not."""
    speech, tail = voiced(1.0), silence(0.24)
    clipped = Utterance(np.concatenate([speech, tail]), start=5.0, end=6.0, lead_s=0.0)
    whole = Utterance(np.concatenate([silence(0.3), speech, tail]), start=5.0, end=6.0, lead_s=0.3)
    assert missed_start(clipped, listening_from=1.0) == CLIPPED_AT_FRONT
    assert missed_start(whole, listening_from=1.0) == ""
    assert missed_start(whole, listening_from=4.8) == ""  # begun just after listening opened


def test_a_whole_utterance_after_a_lead_in_is_heard_from_its_start():
    endpointer = Endpointer(RULES)
    (utterance,) = endpointer.utterances(frames_of(np.concatenate([silence(0.6), voiced(0.8), silence(1.0)])))
    assert utterance.lead_s and utterance.lead_s > 0.2
    assert missed_start(utterance, 0.0) == ""


def test_a_reply_cut_by_the_host_is_never_a_move_and_the_host_asks_again(tmp_path, say):
    """A whole session on a recording: Ana begins "I will add four" 0.4 s before the host
    falls silent (what is left, "...add four", would read as four), then says "three"
    after it. Only three is played; the real recogniser reads the second."""
    from voice.recognizers import make_recognizer

    four, three = say("I will add four"), say("three")
    t_four = 1.0 + 3200 / SAMPLE_RATE  # where the speech of "four" begins
    stops = [t_four + 0.4]
    source = recording(tmp_path, silence(1.0), four, silence(1.5), three, silence(2.0))
    session, mouth, journal, sid = make_session(
        tmp_path,
        [],
        ears=VoiceEars(
            source,
            room_heard_before(),
            Reader(make_recognizer(None, None), rival_margin=0, acts=acts),
            Matcher(),
            busy_until=lambda: stops[0],
        ),
    )
    session.start()
    assert session.run() is Ending.EOF
    assert journal.accepted_actions(sid) == [{"intent": "number", "value": 3, "player": "Ana"}]
    assert mouth.said.count(MISSED_START) == 1
    assert mouth.said[mouth.said.index("Ana, add how much?") + 1] == MISSED_START  # asked again so
    ignored = [e for e in events(tmp_path, sid) if e["type"] == "ignored"]
    assert [(e["reason"], e["detail"]) for e in ignored] == [("missed start", BEGAN_BEFORE_LISTENING)]
    assert ignored[0]["start"] - ignored[0]["listening_from"] < OPENED_WITHIN_S
