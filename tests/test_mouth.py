"""AudioMouth: sounds placed on the session clock, busy_until, secrets, speed and volume.

Most tests use a fake TTS (fixed pieces) and a sink that records what it is given;
the last ones speak through the real Piper voice.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator

import numpy as np
import pytest

from voice.speaking.cues import UnknownCue, cue
from voice.speaking.mouth import PAUSE_S, RATE_STEPS, VOLUME_STEPS, AudioMouth
from voice.speaking.tts import PiperTTS

pytestmark = [pytest.mark.audio, pytest.mark.model]

RATE = 22_050


class FakeTTS:
    """One piece of 0.5 s per sentence, the value of each sample being the volume."""

    sample_rate = RATE

    def __init__(self):
        self.rate, self.volume = 1.0, 1.0
        self.produced: list[str] = []

    def synthesize(self, text: str) -> Iterator[np.ndarray]:
        for sentence in [s for s in text.split(".") if s.strip()]:
            self.produced.append(sentence.strip())
            yield np.full(RATE // 2, self.volume, np.float32)


class RecordingSink:
    """A WAV-file-like sink: plays at once, returns the end on the session clock."""

    def __init__(self):
        self.played: list[tuple[np.ndarray, int, float]] = []

    def play(self, audio: np.ndarray, rate: int, at: float) -> float:
        self.played.append((audio, rate, at))
        return at + len(audio) / rate


class Clock:
    def __init__(self, t: float = 0.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def make_mouth(**options) -> tuple[AudioMouth, FakeTTS, RecordingSink, Clock]:
    tts, sink, clock = FakeTTS(), RecordingSink(), Clock(10.0)
    return AudioMouth(tts, sink, clock, **options), tts, sink, clock


def test_sentences_play_back_to_back_from_now_and_busy_until_is_their_end():
    mouth, _, sink, _ = make_mouth()
    assert mouth.busy_until == 10.0  # silent so far
    mouth.say("One. Two. Three.")
    assert [at for _, _, at in sink.played] == [10.0, 10.5, 11.0]
    assert all(rate == RATE for _, rate, _ in sink.played)
    assert mouth.busy_until == pytest.approx(11.5)


def test_a_sound_right_after_another_waits_for_it_and_pauses():
    mouth, _, sink, _ = make_mouth()
    mouth.sound("your_turn")
    cue_end = mouth.busy_until
    mouth.say("Ana, your turn.")
    audio, _, at = sink.played[-1]
    lead = int(round(PAUSE_S * RATE))
    assert at == pytest.approx(cue_end)
    assert not np.any(audio[:lead]) and np.all(audio[lead:] > 0)  # silence, then speech
    assert mouth.busy_until == pytest.approx(cue_end + PAUSE_S + 0.5)


def test_after_a_quiet_while_sound_starts_at_once():
    mouth, _, sink, clock = make_mouth()
    mouth.say("Hello.")
    clock.t = mouth.busy_until + 3.0  # players talked for a while
    mouth.say("Next.")
    audio, _, at = sink.played[-1]
    assert at == clock.t and len(audio) == RATE // 2


def test_the_clock_not_moving_while_the_host_speaks_keeps_sounds_in_order():
    """A WAV input's clock stands still while the host speaks: sounds must not overlap."""
    mouth, _, sink, _ = make_mouth()
    mouth.say("One.")
    mouth.sound("correct")
    mouth.say("Two.")
    ends = [at + len(audio) / rate for audio, rate, at in sink.played]
    starts = [at for _, _, at in sink.played]
    assert all(start >= end for start, end in zip(starts[1:], ends))
    assert mouth.busy_until == pytest.approx(ends[-1])


def test_a_cue_is_played_at_the_volume():
    mouth, tts, sink, _ = make_mouth(volume=0.5)
    mouth.sound("dice")
    audio, rate, _ = sink.played[0]
    assert rate == RATE and tts.volume == 0.5
    np.testing.assert_allclose(audio, cue("dice", RATE) * 0.5)


def test_an_unknown_cue_is_an_error():
    mouth, _, sink, _ = make_mouth()
    with pytest.raises(UnknownCue):
        mouth.sound("kazoo")
    assert not sink.played


def test_a_secret_goes_to_the_callback_and_never_to_the_sink():
    told = []
    out = io.StringIO()
    mouth, tts, sink, _ = make_mouth(on_private=lambda player, text: told.append((player, text)), out=out, echo=True)
    mouth.private("Ana", "Your cards: 7 clovers.")
    assert told == [("Ana", "Your cards: 7 clovers.")]
    assert not sink.played and not tts.produced and out.getvalue() == ""
    assert mouth.busy_until == 10.0


@pytest.mark.parametrize("show, printed", [(True, "[to Ana only] Red, line 3.\n"), (False, "")])
def test_without_a_callback_a_secret_is_printed_only_when_allowed(show, printed):
    out = io.StringIO()
    mouth, tts, sink, _ = make_mouth(show_private=show, out=out)
    mouth.private("Ana", "Red, line 3.")
    assert out.getvalue() == printed
    assert not sink.played and not tts.produced


def test_echo_prints_what_is_said_and_played():
    out = io.StringIO()
    mouth, *_ = make_mouth(echo=True, out=out)
    mouth.sound("tick")
    mouth.say("Go.")
    assert out.getvalue() == "[sound: tick]\nHOST: Go.\n"


def test_adjust_changes_speed_and_volume_step_by_step():
    mouth, tts, _, _ = make_mouth()
    assert (tts.rate, tts.volume) == (1.0, 0.75)
    assert mouth.adjust("faster") == "Speaking speed is now 1.2 times normal."
    assert tts.rate == 1.2
    assert mouth.adjust("slower") == "Back to normal speed."
    assert mouth.adjust("slower") == "Speaking speed is now 0.85 times normal."
    assert tts.rate == 0.85
    assert mouth.adjust("quieter") == "Volume is now 50 percent."
    assert tts.volume == 0.5
    assert mouth.adjust("louder") == "Volume is now 75 percent."
    assert mouth.adjust("louder") == "Volume is now 100 percent."
    assert tts.volume == 1.0


def test_adjust_says_so_at_the_limits():
    mouth, tts, _, _ = make_mouth(rate=RATE_STEPS[-1], volume=VOLUME_STEPS[0])
    assert "as fast as I can" in mouth.adjust("faster")
    assert "as quiet as I go" in mouth.adjust("quieter")
    assert (tts.rate, tts.volume) == (RATE_STEPS[-1], VOLUME_STEPS[0])
    with pytest.raises(ValueError):
        mouth.adjust("higher")


def test_the_next_sentence_is_synthesised_while_one_plays():
    """The sink holds the first sentence until the TTS has produced the second."""
    second_ready = threading.Event()

    class SlowTTS(FakeTTS):
        def synthesize(self, text):
            for piece in super().synthesize(text):
                if len(self.produced) == 2:
                    second_ready.set()
                yield piece

    class WaitingSink(RecordingSink):
        def play(self, audio, rate, at):
            if not self.played:
                self.saw_second_while_playing = second_ready.wait(timeout=10)
            return super().play(audio, rate, at)

    tts, sink = SlowTTS(), WaitingSink()
    mouth = AudioMouth(tts, sink, Clock())
    mouth.say("One. Two.")
    assert sink.saw_second_while_playing and len(sink.played) == 2
    mouth.close()


def test_an_error_in_the_sink_reaches_the_caller():
    class BrokenSink:
        def play(self, audio, rate, at):
            raise OSError("device unplugged")

    mouth = AudioMouth(FakeTTS(), BrokenSink(), Clock())
    with pytest.raises(OSError, match="unplugged"):
        mouth.say("One. Two.")


# ---- with the real voice ---------------------------------------------------------


@pytest.fixture(scope="module")
def piper() -> PiperTTS:
    return PiperTTS()


def test_real_speech_reaches_the_sink_in_order_and_sets_busy_until(piper):
    sink, clock = RecordingSink(), Clock(5.0)
    mouth = AudioMouth(piper, sink, clock)
    mouth.sound("your_turn")
    mouth.say("Ana, where does it go? Line one: 20, 50.")
    mouth.private("Ana", "Your cards: a pizza question.")
    assert len(sink.played) == 4  # the cue, "Ana,", two sentences
    assert all(rate == piper.sample_rate for _, rate, _ in sink.played)
    t = 5.0
    for audio, rate, at in sink.played:
        assert at == pytest.approx(t)
        t = at + len(audio) / rate
    assert mouth.busy_until == pytest.approx(t)
    speech = np.concatenate([audio for audio, _, _ in sink.played[1:]])
    assert np.max(np.abs(speech)) <= 0.75 + 1e-6  # the default volume
    assert np.sqrt(np.mean(speech**2)) > 0.02
    mouth.close()


def test_slower_speech_through_the_mouth_lasts_longer(piper):
    sink, clock = RecordingSink(), Clock()
    mouth = AudioMouth(piper, sink, clock)
    text = "Round two. The target is nine."

    def length() -> float:
        clock.t = start = mouth.busy_until + 1.0  # after a quiet second: no lead-in pause
        mouth.say(text)
        return mouth.busy_until - start

    normal = length()
    mouth.adjust("slower")
    mouth.adjust("slower")  # 0.7 times normal
    slow = length()
    mouth.adjust("faster")
    mouth.adjust("faster")
    assert slow > normal * 1.2
    assert piper.rate == 1.0
    mouth.close()


def test_real_speech_and_cues_into_a_wav_file_on_one_timeline(piper, tmp_path):
    """The project's WavSink: the file ends where busy_until says the host falls silent."""
    import wave

    from voice.speaking.audio_out import WavSink

    clock = Clock(1.0)  # the host starts 1 s into the session
    with WavSink(tmp_path / "host.wav") as sink:
        mouth = AudioMouth(piper, sink, clock)
        mouth.sound("drumroll")
        mouth.say("Seventy-eight! Right spot.")
        mouth.private("Ben", "Your secret word is pizza.")
        mouth.close()
    with wave.open(str(tmp_path / "host.wav")) as wav:
        rate, samples = wav.getframerate(), wav.readframes(wav.getnframes())
    audio = np.frombuffer(samples, "<i2").astype(np.float32) / 32767
    assert len(audio) / rate == pytest.approx(mouth.busy_until, abs=1e-3)
    assert not np.any(audio[: int(0.99 * rate)])  # silence before the host's first sound
    drumroll_end = 1.0 + len(cue("drumroll", RATE)) / RATE
    speech = audio[int((drumroll_end + PAUSE_S) * rate) :]
    assert np.sqrt(np.mean(speech**2)) > 0.02
