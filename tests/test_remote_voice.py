"""wyoming:// recognisers and voices: the real servers from PyPI, and the fallback to local parts.

The servers (tests/wyoming_servers.py) are wyoming-faster-whisper with the shipped
tiny.en and wyoming-piper with the shipped voice, on 127.0.0.1. The unit tests at
the top need no server.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np
import pytest
from wyoming_servers import asr_command, free_port, running, stop

from host.contract import Outcome
from host.reply_policy import acts
from partyhost.config import ConfigError, Settings, apply_overrides
from voice.listening.pipeline import Reader
from voice.remote.address import WyomingAddress
from voice.remote.asr import REMOTE_CONFIDENCE, RemotePrompt, WyomingRecognizer, judge
from voice.remote.link import Link, Role
from voice.remote.notices import Notices

FIXTURES = Path(__file__).parent / "fixtures" / "voice"
ROLE = Role("asr", "speech recogniser", gone="gone", back="back", instead="local")


# ---- settings and decisions (no server) ---------------------------------------


def test_settings_take_wyoming_addresses_and_refuse_bad_ones():
    settings = apply_overrides(
        Settings(), {"backend": "wyoming://192.168.1.20:10300", "voice": "wyoming://tts.local:10200"}, "test"
    )
    assert (settings.backend, settings.voice) == ("wyoming://192.168.1.20:10300", "wyoming://tts.local:10200")
    assert apply_overrides(Settings(), {"recogniser": "wyoming://h:1"}, "test").backend == "wyoming://h:1"
    for bad in (
        {"backend": "wyoming://nohost"},
        {"backend": "wyoming://h:99999"},
        {"backend": "kaldi"},
        {"voice": "piper"},
        {"voice": "wyoming://h:1/path"},
        {"recogniser": "wyoming://h:1", "backend": "whisper"},
    ):
        with pytest.raises(ConfigError) as error:
            apply_overrides(Settings(), bad, "config.toml")
        assert "config.toml" in str(error.value)


def test_a_transcript_is_taken_at_face_value_but_whisper_noise_is_not():
    prompt = RemotePrompt(("yes", "no", "thank you"), frozenset({"yes", "no", "thank you"}), ("yes", "no"), 2)
    assert judge(" Yes. Yes. Yes.", prompt).text == "yes"
    assert judge(" Yes.", prompt).confidence == REMOTE_CONFIDENCE
    assert judge("", prompt) is None and judge(" ... ", prompt) is None
    assert judge(" Thanks for watching!", prompt).confidence == 0.0
    assert judge(" Thank you.", prompt).confidence == REMOTE_CONFIDENCE  # a phrase of this prompt
    assert judge(" I think we should all go home now.", prompt).confidence == 0.0


def test_a_server_that_fails_is_told_once_and_its_return_once():
    out, now = io.StringIO(), [0.0]
    notices = Notices(out)
    link = Link(WyomingAddress("127.0.0.1", free_port()), ROLE, notices, clock=lambda: now[0])
    assert link.use_remote()
    link.failed(ConnectionRefusedError())
    link.failed(ConnectionRefusedError())  # a second failure while set aside: no new notice
    assert not link.use_remote()
    assert notices.take() == ["gone"] and notices.take() == []
    assert "nothing is listening there" in out.getvalue() and "127.0.0.1" in out.getvalue()
    now[0] += 1000  # retry due: probed in the background; still closed
    assert not link.use_remote()
    deadline = time.monotonic() + 10
    while link._probing and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not link.up and notices.take() == []


def test_one_slow_answer_is_forgiven_two_in_a_row_set_the_server_aside():
    from voice.remote.link import SlowAnswer

    out = io.StringIO()
    notices = Notices(out)
    link = Link(WyomingAddress("127.0.0.1", free_port()), ROLE, notices)
    slow = SlowAnswer("it did not answer in time")
    link.went_wrong(slow)
    link.answered()
    link.went_wrong(slow)
    assert link.up and out.getvalue() == ""
    link.went_wrong(slow)
    assert not link.up and notices.take() == ["gone"]
    assert "did not answer in time" in out.getvalue()


# ---- a server that never finishes its answer (issue 29) -----------------------------


class StallingServer:
    """A Wyoming server on 127.0.0.1 that says it is a recogniser or a voice, then answers each
    request with one event a second for ever: a voice starts its audio and sends a chunk a
    second, never AudioStop; a recogniser sends transcript chunks, never the Transcript."""

    def __init__(self, kind: str):
        import asyncio
        import threading

        self.kind = kind
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def start():
            self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
            self.address = WyomingAddress("127.0.0.1", self.server.sockets[0].getsockname()[1])
            ready.set()

        threading.Thread(target=self.loop.run_until_complete, args=(self._forever(start),), daemon=True).start()
        assert ready.wait(10)

    async def _forever(self, start):
        import asyncio

        await start()
        self.stopped = asyncio.Event()
        await self.stopped.wait()
        self.server.close()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()  # the answers still being sent

    def _info(self):
        from wyoming.info import AsrModel, AsrProgram, Attribution, Info, TtsProgram, TtsVoice

        who = Attribution(name="stall", url="")
        if self.kind == "asr":
            return Info(asr=[AsrProgram("stall", who, True, None, "1", [AsrModel("m", who, True, None, "1", ["en"])])])
        return Info(tts=[TtsProgram("stall", who, True, None, "1", [TtsVoice("v", who, True, None, "1", ["en"])])])

    async def _serve(self, reader, writer):
        import asyncio

        from wyoming.audio import AudioChunk, AudioStart, AudioStop
        from wyoming.event import Event, async_read_event, async_write_event
        from wyoming.info import Describe
        from wyoming.tts import Synthesize

        try:
            while (event := await async_read_event(reader)) is not None:
                if Describe.is_type(event.type):
                    await async_write_event(self._info().event(), writer)
                elif Synthesize.is_type(event.type) or AudioStop.is_type(event.type):
                    if self.kind == "tts":
                        await async_write_event(AudioStart(rate=22050, width=2, channels=1).event(), writer)
                    while True:
                        await async_write_event(
                            AudioChunk(rate=22050, width=2, channels=1, audio=bytes(4410)).event()
                            if self.kind == "tts"
                            else Event("transcript-chunk", {"text": "card"}),
                            writer,
                        )
                        await asyncio.sleep(1.0)
        except (ConnectionError, OSError):
            pass

    def close(self):
        self.loop.call_soon_threadsafe(self.stopped.set)


def finishes(work, seconds: float):
    """What `work()` returns, asserting it ended within `seconds` (a hang guard, not a timing)."""
    import threading

    result: list = []
    worker = threading.Thread(target=lambda: result.append(work()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still waiting after {seconds} s"
    return result[0]


class LocalEars:
    """The local recogniser's part in these tests: what it was asked, and a reading of its own."""

    def __init__(self):
        self.asked = 0

    def compile(self, phrases):
        return phrases

    def recognize(self, audio, grammar):
        from voice.audio_types import Hypothesis

        self.asked += 1
        return [Hypothesis("card one", 0.9, {})]


@pytest.mark.slow  # waits out the link's real 5 s deadline twice
def test_a_recogniser_that_never_finishes_its_answer_gives_way_to_the_local_one_with_one_notice():
    from voice.remote.asr import WyomingRecognizer

    server, local, out = StallingServer("asr"), LocalEars(), io.StringIO()
    try:
        ears = WyomingRecognizer(server.address, lambda: local, Notices(out))
        assert ears.check()
        grammar = ears.compile(["card one", "card two"])
        second = np.zeros(16000, dtype=np.float32)
        for heard in range(1, 4):  # each one read locally; told once, at the second
            [reading] = finishes(lambda: ears.recognize(second, grammar), 30)
            assert reading.text == "card one" and local.asked == heard
        assert ears.link.notices.take() == [
            "My speech recognition server is not answering, so I'm listening on my own for now."
        ]
        assert "did not finish its answer within 5.0 s" in out.getvalue()
    finally:
        server.close()


@pytest.mark.slow
@pytest.mark.audio
def test_a_voice_server_that_never_finishes_its_audio_gives_way_to_the_local_voice_with_one_notice(local_voice):
    from voice.remote.tts import WyomingVoice

    server, out = StallingServer("tts"), io.StringIO()
    try:
        voice = WyomingVoice(server.address, local_voice, Notices(out))
        assert voice.check()
        for text in ("Round two.", "Ben, lower or higher?", "Scores: Ana ten."):
            audio = finishes(lambda text=text: np.concatenate(list(voice.synthesize(text))), 30)
            assert len(audio) / voice.sample_rate > 0.4 and np.max(np.abs(audio)) > 0.05  # speech, not silence
        assert voice.link.notices.take() == [
            "My voice server is not answering, so I'm speaking with my own voice for now."
        ]
    finally:
        server.close()


# ---- the real servers ---------------------------------------------------------------


def manifest_items(ids: list[str]) -> list[dict]:
    import json

    lines = [json.loads(line) for line in (FIXTURES / "manifest.jsonl").read_text().splitlines() if line.strip()]
    return [line for line in lines if line["id"] in ids]


ITEMS = [
    "common/yes_no-94-piper-1/clean",
    "common/yes_no-96-piper-1/clean",
    "keep-it-100/choose_card-2-piper-1/clean",
    "keep-it-100/choose_card-1-piper-1/clean",
]


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.audio
def test_recordings_read_by_the_server_as_by_the_local_recogniser(asr_server):
    """The same recordings through wyoming-faster-whisper and the local whisper backend:
    the server's readings are its own (details: its transcript), and understood alike."""
    from partyhost.bench.manifest import Listener, prompt_name
    from voice.listening.audio_in import read_wav_16k
    from voice.recognizers import make_recognizer
    from voice.understanding.matcher import Matcher

    address, _ = asr_server
    out = io.StringIO()
    remote = make_recognizer(str(address), notices=Notices(out))
    assert isinstance(remote, WyomingRecognizer) and remote.check()
    matcher = Matcher()
    remote_listener, local_listener = (
        Listener(Reader(remote, acts=acts), matcher),
        Listener(Reader(remote.local(), acts=acts), matcher),
    )
    agree = 0
    for line in manifest_items(ITEMS):
        audio = read_wav_16k(FIXTURES / line["wav"])
        got = remote_listener.understand(prompt_name(line), line.get("context") or {}, audio)
        assert remote.link.up and not remote._last_local  # read by the server, not the fallback
        local = local_listener.understand(prompt_name(line), line.get("context") or {}, audio)
        assert got.intent is not None, f"{line['id']}: the server's reading {got.text!r} was not understood"
        assert all(got.intent.get(k) == v for k, v in line["expect"].items()), (line["id"], got)
        agree += got.intent == local.intent
    assert agree == len(ITEMS)
    assert out.getvalue() == ""  # no notice printed: the server answered every time


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.audio
def test_server_killed_mid_game_the_local_recogniser_reads_and_the_table_is_told_once(tmp_path):
    """Two replies in one recording, heard by the ears: the first read by the server; the
    server is killed; the second is read locally (nothing lost), the notice is spoken once
    before the ears listen again; the server comes back and is announced once."""
    import soundfile

    from partyhost.bench.manifest import bench_prompt
    from voice.listening.audio_in import WavSource, read_wav_16k
    from voice.listening.ears import VoiceEars
    from voice.listening.endpoint import Endpointer
    from voice.recognizers import make_recognizer
    from voice.understanding.matcher import Matcher

    port = free_port()
    command = asr_command(port, tmp_path)
    said: list[str] = []
    out = io.StringIO()
    notices = Notices(out)
    first, second = manifest_items(ITEMS[:2])
    silence = np.zeros(16000, np.float32)
    audio = np.concatenate(
        [silence] + [np.concatenate([read_wav_16k(FIXTURES / item["wav"]), silence * 2]) for item in (first, second)]
    )
    soundfile.write(tmp_path / "two.wav", audio, 16000)
    prompt = bench_prompt("common/yes_no", {})
    with running(command, port, tmp_path / "server.log") as server:
        recognizer = make_recognizer(f"wyoming://127.0.0.1:{port}", notices=notices)
        matcher = Matcher()
        ears = VoiceEars(
            WavSource(tmp_path / "two.wav"),
            Endpointer(),
            Reader(recognizer, acts=acts),
            matcher,
            lambda: 0.0,
            before_listening=lambda: said.extend(notices.take()),
        )

        def intent(heard) -> str | None:
            return heard.intent and heard.intent["intent"]  # understood by the ears

        heard = ears.hear(prompt)
        assert intent(heard) == first["expect"]["intent"] and not recognizer._last_local
        stop(server)
        heard = ears.hear(prompt)
        assert intent(heard) == second["expect"]["intent"] and heard.outcome is not Outcome.UNCLEAR, (
            heard
        )  # read locally: not lost
        assert recognizer._last_local
        assert said == [] and out.getvalue().count("partyhost: ") == 1  # printed at once
        assert ears.hear(prompt) is None  # the recording has ended; the notice was said first
        assert len(said) == 1 and "listening on my own" in said[0]
    recognizer.link.clock = lambda: time.monotonic() + 10_000  # the retry is due
    with running(command, port, tmp_path / "server2.log"):
        assert not recognizer.link.use_remote()  # this utterance stays local; a probe starts
        deadline = time.monotonic() + 20
        while not recognizer.link.up and time.monotonic() < deadline:
            time.sleep(0.1)
        assert recognizer.link.up and out.getvalue().count("partyhost: ") == 2
        assert ["back" in spoken for spoken in notices.take()] == [True]


@pytest.mark.slow
@pytest.mark.model
def test_unreachable_recogniser_at_start_is_told_and_the_local_one_listens(tmp_path, capsys):
    """open_io with a wyoming:// recogniser nobody listens at: a clear printed reason, no
    error, local readings, and the notice spoken (echoed) at the first prompt."""
    from partyhost.bench.manifest import bench_prompt
    from partyhost.voiceio import open_io
    from voice.understanding.matcher import Matcher

    address = f"wyoming://127.0.0.1:{free_port()}"
    source = tmp_path / "silence.wav"
    import soundfile

    soundfile.write(source, np.zeros(8000, np.float32), 16000)
    settings = apply_overrides(
        Settings(),
        {"input": str(source), "output": str(tmp_path / "out.wav"), "backend": address, "second_opinion": False},
        "test",
    )
    game_io = open_io(settings, Matcher())
    try:
        printed = capsys.readouterr()
        assert f"the speech recogniser at {address} cannot be used (nothing is listening there)" in printed.err
        assert "Traceback" not in printed.err
        assert game_io.ears.reader.recognizer.local() is not None
        game_io.ears.hear(bench_prompt("common/yes_no", {}))
        assert "HOST: My speech recognition server is not answering" in capsys.readouterr().out
    finally:
        game_io.close()


# ---- the voice -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def pulse_device(pulse_null_sink):
    """PortAudio's "pulse" device, playing into the test's PulseAudio null sink."""
    from conftest import unavailable

    from voice.devices import AudioDeviceError, PortAudioMissing, find_device, rescan

    try:
        rescan()
        find_device("pulse", "output")
    except (PortAudioMissing, AudioDeviceError) as error:
        unavailable(f"PortAudio cannot reach PulseAudio ({error})")
    return "pulse"


@pytest.fixture(scope="module")
def local_voice():
    from voice.speaking.tts import PiperTTS

    return PiperTTS()


@pytest.mark.slow
@pytest.mark.audio
def test_the_voice_server_speaks_and_is_played(tts_server, local_voice, pulse_device):
    """Sentences from wyoming-piper, played through the PulseAudio null sink by the mouth;
    as long as the local voice says them, and at the mouth's volume."""
    from voice.remote.tts import WyomingVoice
    from voice.speaking.audio_out import SpeakerSink
    from voice.speaking.mouth import AudioMouth
    from voice.speaking.tts import HEADROOM

    address, _ = tts_server
    out = io.StringIO()
    notices = Notices(out)
    voice = WyomingVoice(address, local_voice, notices)
    assert voice.check()
    text = "Ana, where does it go? Lower, or higher."
    voice.volume = 1.0
    remote = list(voice.synthesize(text))
    local = list(local_voice.synthesize(text))
    assert len(remote) == len(local) == 3  # the same pieces: first clause cut
    seconds = sum(map(len, remote)) / voice.sample_rate
    assert seconds == pytest.approx(sum(map(len, local)) / local_voice.sample_rate, rel=0.35)
    voice.volume = 0.5
    quieter = np.concatenate(list(voice.synthesize(text)))
    assert np.max(np.abs(quieter)) == pytest.approx(0.5 * np.max(np.abs(np.concatenate(remote))), rel=0.02)
    assert np.max(np.abs(quieter)) == pytest.approx(0.5 * HEADROOM, rel=0.02)  # peak-normalised, as Piper
    voice.volume = 0.75
    sink = SpeakerSink(pulse_device, clock=time.monotonic)
    mouth = AudioMouth(voice, sink, time.monotonic, echo=False)
    started = time.monotonic()
    mouth.say(text)
    assert mouth.busy_until - started == pytest.approx(seconds, abs=0.6)
    mouth.close()
    sink.close()
    assert out.getvalue() == "" and notices.take() == []  # nothing went wrong


@pytest.mark.slow
@pytest.mark.audio
def test_voice_server_gone_the_local_voice_speaks_and_it_is_told_once(local_voice):
    from voice.remote.tts import WyomingVoice

    notices = Notices(io.StringIO())
    voice = WyomingVoice(WyomingAddress("127.0.0.1", free_port()), local_voice, notices)
    assert not voice.check()
    for text in ("Round two.", "Ben, lower or higher?"):
        audio = np.concatenate(list(voice.synthesize(text)))
        assert len(audio) / voice.sample_rate > 0.4
    assert notices.take() == ["My voice server is not answering, so I'm speaking with my own voice for now."]
    voice.rate = 0.7  # a speed the protocol cannot ask for: the local voice
    assert local_voice.rate == 0.7
    voice.rate = 1.0
