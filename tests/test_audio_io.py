"""Sound in and out without a sound card: WAV files as microphone and speaker, device
lookup and its messages, and the microphone's block timing (the real device is
exercised in test_pulse_device.py)."""

from __future__ import annotations

import builtins
import math
import types

import numpy as np
import pytest
import soundfile
import soxr
from conftest import unavailable

from voice import devices
from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE
from voice.devices import Device, DeviceNotFound, PortAudioMissing
from voice.listening.audio_in import AudioFileError, MicSource, WavSource, read_wav_16k
from voice.speaking.audio_out import WavSink, as_float32

pytestmark = pytest.mark.audio

FRAME_S = FRAME_SAMPLES / SAMPLE_RATE


def sine(freq: float, seconds: float, rate: int, amplitude: float = 0.5) -> np.ndarray:
    t = np.arange(int(round(seconds * rate))) / rate
    return (amplitude * np.sin(2 * np.pi * freq * t)).astype(np.float64)


def peak_hz(audio: np.ndarray, rate: int = SAMPLE_RATE) -> float:
    spectrum = np.abs(np.fft.rfft(audio * np.hanning(len(audio))))
    return float(np.fft.rfftfreq(len(audio), 1 / rate)[np.argmax(spectrum)])


def joined(source: WavSource) -> tuple[np.ndarray, list[float]]:
    frames = list(source.frames())
    return np.concatenate([f.samples for f in frames]), [f.t for f in frames]


# ---------------------------------------------------------------- WavSource

FORMATS = [
    ("PCM_U8", 8000, 1),
    ("PCM_16", 16000, 1),
    ("PCM_16", 44100, 2),
    ("PCM_24", 22050, 1),
    ("PCM_32", 48000, 2),
    ("FLOAT", 11025, 1),
    ("DOUBLE", 96000, 1),
    ("PCM_16", 32000, 6),
]


@pytest.mark.parametrize("subtype, rate, channels", FORMATS)
def test_wav_source_reads_any_format_rate_and_channels(tmp_path, subtype, rate, channels):
    seconds = 1.2
    tone = sine(1000, seconds, rate)
    path = tmp_path / f"tone-{subtype}-{rate}-{channels}.wav"
    soundfile.write(path, np.repeat(tone[:, None], channels, axis=1), rate, subtype=subtype)
    source = WavSource(path, tail_s=0.3)
    audio, times = joined(source)

    file_frames = math.ceil(seconds * SAMPLE_RATE / FRAME_SAMPLES)
    assert len(times) == file_frames + math.ceil(0.3 / FRAME_S)
    assert times == pytest.approx([i * FRAME_S for i in range(len(times))])
    assert source.now() == pytest.approx(len(times) * FRAME_S)
    assert audio.dtype == np.float32
    middle = audio[int(0.2 * SAMPLE_RATE) : int(1.0 * SAMPLE_RATE)]
    assert peak_hz(middle) == pytest.approx(1000, abs=3)
    assert np.sqrt(np.mean(middle**2)) == pytest.approx(0.5 / math.sqrt(2), rel=0.03)
    assert not audio[file_frames * FRAME_SAMPLES :].any()  # the silent tail


def test_wav_source_downmixes_by_averaging(tmp_path):
    left, right = sine(440, 1.0, 16000, 0.6), sine(440, 1.0, 16000, 0.2)
    path = tmp_path / "stereo.wav"
    soundfile.write(path, np.stack([left, right], axis=1), 16000, subtype="FLOAT")
    audio, _ = joined(WavSource(path, tail_s=0))
    assert np.abs(audio[:16000] - (left + right) / 2).max() < 1e-6


def test_streamed_resampling_matches_resampling_the_whole_file(tmp_path):
    rate = 44100
    t = np.arange(5 * rate) / rate
    sweep = 0.4 * np.sin(2 * np.pi * (200 * t + 300 * t**2))  # 200 Hz rising to 3.2 kHz
    path = tmp_path / "sweep.wav"
    soundfile.write(path, sweep, rate, subtype="FLOAT")
    streamed, _ = joined(WavSource(path, tail_s=0, block_s=0.37))  # blocks cut mid-frame
    whole = soxr.resample(sweep.astype(np.float32), rate, SAMPLE_RATE, quality="HQ")
    assert len(streamed) >= len(whole)
    assert np.abs(streamed[: len(whole)] - whole).max() < 2e-3
    assert np.array_equal(read_wav_16k(path), whole)


def test_skip_until_jumps_ahead_on_frame_boundaries(tmp_path):
    path = tmp_path / "ramp.wav"
    soundfile.write(path, np.linspace(-0.5, 0.5, 3 * 16000), 16000, subtype="FLOAT")
    source = WavSource(path, tail_s=0)
    frames = source.frames()
    assert next(frames).t == 0 and source.now() == pytest.approx(FRAME_S)
    source.skip_until(1.0)  # 1.0 s is not a frame boundary: 1.02 is
    assert source.now() == pytest.approx(1.02)
    later = next(frames)
    assert later.t == pytest.approx(1.02)
    assert later.samples[0] == pytest.approx(np.linspace(-0.5, 0.5, 3 * 16000)[int(1.02 * 16000)], abs=1e-6)
    source.skip_until(0.5)  # never backwards
    assert next(source.frames()).t == pytest.approx(1.02 + FRAME_S)  # a new iterator continues
    source.skip_until(10)
    assert list(source.frames()) == []


def test_wav_source_ends_after_the_tail(tmp_path):
    path = tmp_path / "short.wav"
    soundfile.write(path, sine(300, 0.1, 16000), 16000)
    frames = list(WavSource(path, tail_s=1.5).frames())
    assert len(frames) == math.ceil(0.1 / FRAME_S) + math.ceil(1.5 / FRAME_S)


def test_wav_source_refuses_missing_and_non_wav_files_naming_them(tmp_path):
    with pytest.raises(AudioFileError, match="nope.wav"):
        WavSource(tmp_path / "nope.wav")
    text = tmp_path / "notes.wav"
    text.write_text("not audio at all")
    with pytest.raises(AudioFileError, match="notes.wav"):
        WavSource(text)
    flac = tmp_path / "tone.flac"
    soundfile.write(flac, sine(300, 0.2, 16000), 16000)
    with pytest.raises(AudioFileError, match="not a WAV"):
        WavSource(flac)


def test_wav_source_on_the_real_recordings(shared_audio):
    files = sorted((shared_audio / "fsdd").glob("*_jackson_0.wav"))
    files += sorted((shared_audio / "speech-commands").glob("*/*.wav"))[:10]
    files += sorted((shared_audio / "noise").glob("*.wav"))
    assert len(files) > 20
    for path in files:
        info = soundfile.info(path)
        source = WavSource(path, tail_s=0)
        audio, times = joined(source)
        assert len(times) == math.ceil(info.duration * SAMPLE_RATE / FRAME_SAMPLES - 1e-9), path
        n = round(info.duration * SAMPLE_RATE)
        assert np.abs(audio[:n] - read_wav_16k(path)[:n]).max() < 2e-3, path
        assert np.abs(audio).max() > 0.01, path


# ---------------------------------------------------------------- WavSink


def test_wav_sink_places_sounds_on_the_session_timeline(tmp_path):
    path = tmp_path / "out" / "host.wav"
    sink = WavSink(path, rate=22050)
    end1 = sink.play(sine(500, 1.0, 16000).astype(np.float32), 16000, at=0.5)
    assert end1 == pytest.approx(1.5, abs=1 / 22050)
    assert soundfile.info(path).frames == round(1.5 * 22050)  # valid before close
    beep = (sine(2000, 0.2, 44100) * 32767).astype(np.int16)  # int16 at another rate
    end2 = sink.play(beep, 44100, at=2.0)
    end3 = sink.play(sine(800, 0.5, 22050), 22050, at=2.1)  # still playing: goes after
    sink.close()
    assert end2 == pytest.approx(2.2, abs=1e-3) and end3 == pytest.approx(2.7, abs=1e-3)

    audio, rate = soundfile.read(path, dtype="float32")
    info = soundfile.info(path)
    assert (rate, info.channels, info.subtype) == (22050, 1, "PCM_16")
    assert len(audio) == round(2.7 * 22050)
    assert not audio[: int(0.5 * 22050) - 1].any()
    assert np.abs(audio[int(0.5 * 22050) + 50 : int(0.6 * 22050)]).max() > 0.4
    assert peak_hz(audio[int(0.6 * 22050) : int(1.4 * 22050)], 22050) == pytest.approx(500, abs=3)
    assert not audio[int(1.5 * 22050) + 2 : int(2.0 * 22050) - 1].any()
    assert peak_hz(audio[int(2.02 * 22050) : int(2.18 * 22050)], 22050) == pytest.approx(2000, abs=10)
    assert peak_hz(audio[int(2.25 * 22050) : int(2.65 * 22050)], 22050) == pytest.approx(800, abs=5)


def test_as_float32_scales_integer_pcm():
    assert as_float32(np.array([-32768, 0, 16384], dtype=np.int16)).tolist() == [-1.0, 0.0, 0.5]
    assert as_float32(np.array([0, 128, 255], dtype=np.uint8)) == pytest.approx([-1.0, 0.0, 127 / 128])


# ---------------------------------------------------------------- devices

FAKE_DEVICES = [
    Device(0, "HDA Intel PCH: ALC3246 Analog (hw:0,0)", "ALSA", 2, 2, 44100, False, False),
    Device(1, "USB PnP Sound Device: Audio (hw:1,0)", "ALSA", 1, 0, 48000, False, False),
    Device(2, "Jabra SPEAK 410 USB: Audio (hw:2,0)", "ALSA", 1, 2, 16000, False, False),
    Device(3, "default", "ALSA", 32, 32, 44100, True, True),
]


@pytest.fixture
def fake_devices(monkeypatch):
    monkeypatch.setattr(devices, "list_devices", lambda: FAKE_DEVICES)


def test_find_device_by_default_index_exact_and_partial_name(fake_devices):
    assert devices.find_device(None, "input").index == 3
    assert devices.find_device(2, "output").name.startswith("Jabra")
    assert devices.find_device("1", "input").index == 1
    assert devices.find_device("DEFAULT", "output").index == 3
    assert devices.find_device("jabra", "input").index == 2


def test_find_device_errors_list_what_exists(fake_devices):
    with pytest.raises(DeviceNotFound) as missing:
        devices.find_device("Blue Yeti", "input")
    message = str(missing.value)
    assert "'Blue Yeti'" in message and "Jabra SPEAK 410" in message and "partyhost devices" in message
    with pytest.raises(DeviceNotFound, match="no speaker has index 1|No speaker has index 1"):
        devices.find_device(1, "output")  # an input-only device
    with pytest.raises(DeviceNotFound, match="several"):
        devices.find_device("USB", "input")  # two USB devices


def test_no_device_at_all_says_what_to_do(monkeypatch):
    monkeypatch.setattr(devices, "list_devices", lambda: [])
    with pytest.raises(DeviceNotFound) as error:
        devices.find_device(None, "input")
    assert "Plug one in" in str(error.value) and "--input FILE.wav" in str(error.value)


def test_missing_portaudio_is_explained(monkeypatch):
    real_import = builtins.__import__

    def no_portaudio(name, *args, **kwargs):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(__import__("sys").modules, "sounddevice", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_portaudio)
    with pytest.raises(PortAudioMissing, match="libportaudio2"):
        devices.list_devices()


def test_list_devices_through_real_portaudio():
    try:
        found = devices.list_devices()
    except PortAudioMissing as error:
        unavailable(str(error))
    assert all(isinstance(d, Device) and d.default_rate > 0 for d in found)
    assert sum(d.is_default_input for d in found) <= 1
    for d in found:
        assert str(d.index) in d.describe() and d.name in d.describe()


# ---------------------------------------------------------------- microphone timing (logic)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def feed(mic: MicSource, clock: FakeClock, blocks: int, rate: int, overflow: bool = False) -> None:
    """What PortAudio's thread does: a block of 30 ms arrives every 30 ms."""
    n = rate * 30 // 1000
    for _ in range(blocks):
        clock.now += n / rate
        t = np.arange(n) / rate + clock.now
        block = (0.5 * np.sin(2 * np.pi * 1000 * t)).astype(np.float32)[:, None]
        mic._callback(block, n, None, types.SimpleNamespace(input_overflow=overflow))


def drain(mic: MicSource) -> list:
    out = []
    while not mic._queue.empty():
        out.extend(mic._frames_of(*mic._queue.get()))
    return out


def test_mic_blocks_become_timed_16k_frames():
    clock = FakeClock()
    mic = MicSource(clock=clock)
    mic._prepare("fake", 48000)
    feed(mic, clock, 100, 48000)  # 3 s
    frames = drain(mic)
    assert len(frames) >= 95  # the resampler holds back a few ms
    assert frames[0].t == pytest.approx(100.0, abs=1e-6)
    assert np.diff([f.t for f in frames]) == pytest.approx(FRAME_S)
    audio = np.concatenate([f.samples for f in frames])
    assert peak_hz(audio[4000:]) == pytest.approx(1000, abs=3)


def test_mic_reports_overflows_and_resyncs_after_lost_audio():
    clock = FakeClock()
    problems = []
    mic = MicSource(clock=clock, on_problem=problems.append)
    mic._prepare("fake", 16000)
    feed(mic, clock, 10, 16000)
    clock.now += 1.0  # a second of audio never arrived
    feed(mic, clock, 10, 16000, overflow=True)
    frames = drain(mic)
    mic._report_overflows()
    times = [round(f.t, 3) for f in frames]
    assert times[:10] == pytest.approx([100 + i * FRAME_S for i in range(10)])
    assert times[10] == pytest.approx(101.3, abs=1e-3)  # the clock, not the sample count
    assert [p.kind for p in problems] == ["overflow"] and "10 blocks" in problems[0].message


def test_mic_skip_until_drops_audio_captured_before():
    clock = FakeClock()
    mic = MicSource(clock=clock)
    mic._prepare("fake", 16000)
    feed(mic, clock, 40, 16000)  # 100.0 .. 101.2
    mic.skip_until(100.75)
    frames = drain(mic)
    assert frames and min(f.t for f in frames) >= 100.75
    assert frames[-1].t == pytest.approx(101.17)


def test_mic_missing_device_message(monkeypatch):
    def nothing(name, kind):
        raise DeviceNotFound("There is no default microphone: no microphone is connected. Plug one in")

    monkeypatch.setattr("voice.listening.audio_in.find_device", nothing)
    monkeypatch.setattr("voice.listening.audio_in.sounddevice_module", lambda: types.SimpleNamespace())
    with pytest.raises(DeviceNotFound, match="Plug one in"):
        next(MicSource().frames())
