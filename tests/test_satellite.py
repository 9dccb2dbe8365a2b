"""A Wyoming satellite as the table's ears and mouth (voice/remote/satellite.py).

Every test that talks to a satellite starts the real wyoming-satellite from PyPI on
127.0.0.1 (tests/satellite.py): its microphone is a paced raw stream the test
speaks into, its speaker appends what it plays to a file. It is killed and started
again to check that a lost satellite is reported, waited for and reconnected.
"""

from __future__ import annotations

import subprocess
import threading
import time

import pytest
import soxr
from recordings import partyhost
from satellite import SND_RATE, free_port, satellite, satellite_program_path  # noqa: F401 (fixtures)
from test_pulse_device import listen, similarity, speech_span

from host.contract import Outcome
from host.reply_policy import acts
from partyhost.config import COMMAND_LINE, ConfigError, Settings, apply_overrides
from voice.audio_types import SAMPLE_RATE
from voice.devices import AudioDeviceError
from voice.listening.endpoint import Endpointer
from voice.listening.turns import listen_for_turn
from voice.remote.address import parse_address
from voice.remote.satellite import PausingClock, SatelliteSink, SatelliteSource
from voice.remote.satellite_link import SatelliteLink


def test_input_and_output_take_a_satellite_address():
    apply_overrides(
        Settings(), {"input": "wyoming://192.168.1.20:10700", "output": "wyoming://kitchen.local:10700"}, COMMAND_LINE
    )
    with pytest.raises(ConfigError, match="wyoming://HOST:PORT"):
        apply_overrides(Settings(), {"input": "wyoming://kitchen.local"}, COMMAND_LINE)  # no port
    with pytest.raises(ConfigError, match="wyoming://HOST:PORT"):
        apply_overrides(Settings(), {"output": "satellite"}, COMMAND_LINE)


def test_the_clock_stands_still_while_paused():
    clock = PausingClock()
    clock.pause()
    frozen = clock()
    time.sleep(0.05)
    assert clock() == frozen and clock.paused
    clock.resume()
    time.sleep(0.02)
    assert frozen < clock() < frozen + 0.5


@pytest.mark.slow
def test_no_satellite_there_is_a_clear_message_not_a_traceback(tmp_path):
    nobody = f"wyoming://127.0.0.1:{free_port()}"
    run = partyhost(
        ["play", "zero-to-100", "--players", "Ana,Ben", "--input", nobody, "--output", "text"],
        tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2, (out, err)
    assert "nothing is listening there" in err and nobody in err
    assert "Traceback" not in err


@pytest.fixture
def link(satellite):
    made = SatelliteLink(parse_address(satellite.address))
    yield made
    made.close()


@pytest.fixture
def problems():
    seen: list = []
    return seen


def wait_for(condition, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.audio
def test_ears_and_mouth_share_one_satellite(satellite, link, say, voices):
    """The host's voice is played on the satellite, and a player's reply comes back
    through its microphone, endpointed on the session clock, over one connection."""
    reply = say("Twelve clovers.")
    spoken = voices.speak("piper-1", "Queen of hearts.")
    source = SatelliteSource(link)
    source.open()
    assert link.name == f"'Table' at {satellite.address}"
    sink = SatelliteSink(link, clock=source.now)
    frames = source.frames()
    start = source.now()
    end = sink.play(spoken, SAMPLE_RATE, at=start)
    assert end >= start + len(spoken) / SAMPLE_RATE  # it returned once the sound was heard
    played = satellite.played_audio()
    assert similarity(played, soxr.resample(spoken, SAMPLE_RATE, SND_RATE)) > 0.9

    satellite.say(reply, wait=False)
    heard = listen(frames, until=source.now() + len(reply) / SAMPLE_RATE + 1.5)
    source.close()
    assert len(heard) == 1
    assert similarity(heard[0].audio, reply) > 0.9
    assert heard[0].end - heard[0].start == pytest.approx(speech_span(reply, SAMPLE_RATE), abs=0.15)
    assert "Connection cancelled" not in satellite.log.read_text()  # one connection, shared


@pytest.mark.audio
def test_the_ears_open_when_the_host_falls_silent_not_when_they_get_round_to_it(satellite, link, say):
    """A reply begun 1.2 s after the host's last sound, while the ears were still making the
    prompt's grammar ready (here 1 s late, as on a loaded machine), is heard whole: the
    microphone kept that audio, so listening counts from the host's silence. Counted from
    when the ears got round to it, the reply began 0.2 s after "listening" opened and its
    start was taken for lost ("Sorry, I missed the start of that")."""
    import numpy as np
    from test_attention import Reads, number_prompt

    from voice.listening.ears import AFTER_SPEECH_GUARD_S, VoiceEars
    from voice.listening.pipeline import Reader
    from voice.understanding.matcher import Matcher

    source = SatelliteSource(link)
    source.open()
    host_silent = source.now()
    satellite.say(np.concatenate([np.zeros(int(1.2 * SAMPLE_RATE), np.float32), say("Seven.")]), wait=False)
    time.sleep(1.0)
    ears = VoiceEars(source, Endpointer(), Reader(Reads("seven"), acts=acts), Matcher(), busy_until=lambda: host_silent)
    heard = ears.hear(number_prompt())
    source.close()
    assert heard.listening_from == pytest.approx(host_silent + AFTER_SPEECH_GUARD_S, abs=0.1)
    assert heard.outcome is Outcome.REPLY and heard.text == "seven"
    assert heard.start - heard.listening_from > 1.0


@pytest.mark.audio
def test_the_host_s_sentences_go_to_one_player_until_it_falls_silent(satellite, link, voices):
    """wyoming-satellite starts its player afresh after every AudioStop (up to 2 s of
    silence after each sentence through PulseAudio), so the sentences the host says in a
    row share one AudioStart ... AudioStop, closed once it has fallen silent."""
    from voice.remote.satellite import STOP_AFTER_S

    clock = PausingClock()
    sink = SatelliteSink(link, clock=clock)
    sentences = [voices.speak("piper-1", text) for text in ("Card two.", "Plus twenty.", "Ben, your turn.")]
    at = clock()
    for sentence in sentences:
        at = sink.play(sentence, SAMPLE_RATE, at)
    time.sleep(STOP_AFTER_S + 1.0)
    assert satellite.players_started() == 1
    sink.play(sentences[0], SAMPLE_RATE, clock())  # after a silence: a new stream
    sink.close()
    assert wait_for(lambda: satellite.players_started() == 2)
    played = satellite.played_audio()
    heard = sum(len(s) for s in sentences + sentences[:1]) / SAMPLE_RATE
    assert len(played) / SND_RATE == pytest.approx(heard, abs=0.1)


@pytest.mark.audio
def test_a_lost_microphone_satellite_stops_the_clock_and_is_heard_again(satellite, link, problems, say):
    source = SatelliteSource(link, on_problem=problems.append)
    source.open()
    frames = source.frames()
    next(frames)
    heard: list = []

    def hear() -> None:
        endpointer = Endpointer()
        while (turn := listen_for_turn(endpointer, frames, 0.0, float("inf"))).utterance is not None:
            heard.append(turn.utterance)

    reader = threading.Thread(target=hear, daemon=True)
    satellite.kill()
    reader.start()
    assert wait_for(lambda: [p.kind for p in problems] == ["lost"])
    assert "went away" in problems[0].message and satellite.address in problems[0].message
    frozen = source.now()
    time.sleep(1.0)
    assert source.now() == frozen  # the game waits: no turn clock runs out

    satellite.start()
    assert wait_for(lambda: [p.kind for p in problems] == ["lost", "recovered"])
    assert source.now() - frozen < 3.0  # the clock goes on from where it stopped
    reply = say("Queen of hearts.")
    satellite.say(reply)
    assert wait_for(lambda: len(heard) == 1, timeout=10)
    source.close()
    assert similarity(heard[0].audio, reply) > 0.9


@pytest.mark.audio
def test_the_mouth_waits_for_a_lost_satellite_and_then_speaks(satellite, link, problems, voices):
    sink = SatelliteSink(link, clock=PausingClock(), on_problem=problems.append)
    spoken = voices.speak("piper-1", "Your turn, Ana.")
    satellite.kill()
    done: list = []
    player = threading.Thread(target=lambda: done.append(sink.play(spoken, SAMPLE_RATE, 0.0)), daemon=True)
    player.start()
    assert wait_for(lambda: [p.kind for p in problems] == ["lost"])
    time.sleep(0.5)
    assert not done  # nothing said to nobody: the game waits
    satellite.start()
    player.join(timeout=20)
    assert done and [p.kind for p in problems] == ["lost", "recovered"]
    assert similarity(satellite.played_audio(), soxr.resample(spoken, SAMPLE_RATE, SND_RATE)) > 0.9


@pytest.mark.slow
def test_a_satellite_that_sends_no_audio_is_refused_clearly(satellite_program_path, tmp_path):
    """A wyoming-satellite whose microphone program fails: a clear reason, not a hang."""
    from satellite import RunningSatellite

    running = RunningSatellite(satellite_program_path, tmp_path)
    running.mailbox.rmdir()  # the mic program fails at once without it
    running.start()
    try:
        link = SatelliteLink(parse_address(running.address))
        with pytest.raises(AudioDeviceError, match="sends no microphone audio"):
            SatelliteSource(link).open()
        link.close()
    finally:
        running.kill()


class _RecordingMouth:
    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)


@pytest.mark.parametrize(
    "output, spoken",
    [("speaker", True), ("wyoming://10.0.0.9:10700", True), ("wyoming://10.0.0.5:10700", False), ("text", False)],
)
def test_a_lost_satellite_is_said_aloud_only_where_the_mouth_still_works(output, spoken, capsys):
    from partyhost.config import Settings
    from partyhost.voiceio import DeviceReport, _speaks_apart
    from voice.devices import DeviceProblem

    settings = Settings(input="wyoming://10.0.0.5:10700", output=output)
    report, mouth = DeviceReport(), _RecordingMouth()
    report.mouth = mouth if _speaks_apart(settings) else None
    report(DeviceProblem("lost", "The satellite 'Table' at wyoming://10.0.0.5:10700 went away; ..."))
    report(DeviceProblem("recovered", "The satellite 'Table' at wyoming://10.0.0.5:10700 is back."))
    printed = capsys.readouterr().err
    assert "went away" in printed and "is back" in printed  # always on the terminal
    assert mouth.said == ([DeviceReport.SPOKEN["lost"], DeviceReport.SPOKEN["recovered"]] if spoken else [])
