"""Ears and a mouth for the chosen input and output: typed, microphone, speaker or WAV files.

| --input  | ears                                             | session clock            |
|----------|--------------------------------------------------|--------------------------|
| text     | typed lines (partyhost/textio.py)                | real time                |
| mic      | PortAudio microphone -> endpointer -> recogniser | real time                |
| FILE.wav | the file as a microphone, same pipeline          | the file's position      |
| wyoming://HOST:PORT | a Wyoming satellite's microphone, same pipeline | real time, paused while it is lost |

| --output | mouth                                                       |
|----------|-------------------------------------------------------------|
| text     | printed lines                                               |
| speaker  | Piper TTS and sound cues through PortAudio                  |
| FILE.wav | the same audio written on the session timeline to the file  |
| wyoming://HOST:PORT | the same audio played on a Wyoming satellite     |

Input and output may name the same satellite: they share its one connection.
`backend` and `voice` set to wyoming://HOST:PORT read and speak through Wyoming
servers, with the local parts behind them (voice/remote/, docs/smart-speaker.md).

With a file as input the clock follows the file and jumps over the host's own
speech, so a run is deterministic and faster than real time.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from host.announcer import Mouth
from host.awaiting import Ears
from partyhost.config import Settings
from partyhost.listening_chain import IOChoiceError, listening_chain
from partyhost.textio import TextEars, TextMouth, TypedCommands
from voice.remote.address import is_wyoming, parse_address
from voice.understanding.matcher import Matcher

if TYPE_CHECKING:  # audio parts are imported only when used (text play stays light)
    from voice.listening.audio_in import MicSource, WavSource
    from voice.remote.satellite import SatelliteSink, SatelliteSource
    from voice.remote.satellite_link import SatelliteLink
    from voice.speaking.audio_out import SpeakerSink, WavSink


@dataclass
class GameIO:
    """What a session needs to hear and speak, and what to close afterwards."""

    ears: Ears
    mouth: Mouth
    clock: Callable[[], float]
    closers: list[Callable[[], None]] = field(default_factory=list)
    remind_after: float | None = None
    """For the session: spoken play reminds a silent player (settings.remind_after_s)."""

    def close(self) -> None:
        close_all(self.closers)


def close_all(closers: list[Callable[[], None]]) -> None:
    """Close what was opened, the last opened first."""
    for close in reversed(closers):
        close()


Opener = Callable[[Settings, float], GameIO]
"""Ears and a mouth for a game from its settings and clock start, instead of open_io's
(partyhost serve's conversation: partyhost/served_games.py)."""


def open_io(settings: Settings, matcher: Matcher, clock_offset: float = 0.0) -> GameIO:
    """Build ears and mouth; audio parts are imported only when used (text play stays light)."""
    closers: list[Callable[[], None]] = []
    satellites = _Satellites(closers)
    problems = DeviceReport()
    try:
        source, clock = _open_source(settings, clock_offset, satellites, problems)
        if source is not None:
            closers.append(source.close)
        notices = _notices(settings)
        mouth = _open_mouth(settings, clock, closers, satellites, problems, notices)
    except BaseException:
        close_all(closers)
        raise
    problems.mouth = mouth if _speaks_apart(settings) else None
    if source is None:
        return GameIO(TextEars(commands=TypedCommands(matcher, settings.wake_word)), mouth, clock, closers)
    ears = _voice_ears(settings, source, matcher, mouth, notices)
    return GameIO(ears, mouth, clock, closers, remind_after=settings.remind_after_s or None)


class DeviceReport:
    """A device lost or back mid-game: always on the terminal, and said aloud when the
    mouth does not depend on the part that was lost (a satellite as the ears, a local
    speaker as the mouth)."""

    SPOKEN = {
        "lost": "I can't hear the table: the satellite is gone. The game waits until it is back.",
        "recovered": "I can hear the table again. Go on.",
    }

    def __init__(self) -> None:
        self.mouth: Mouth | None = None

    def __call__(self, problem: Any) -> None:
        print(f"partyhost: {problem.message}", file=sys.stderr, flush=True)
        spoken = self.SPOKEN.get(problem.kind)
        if self.mouth is not None and spoken:
            self.mouth.say(spoken)

    def terminal_only(self, problem: Any) -> None:
        print(f"partyhost: {problem.message}", file=sys.stderr, flush=True)


def _speaks_apart(settings: Settings) -> bool:
    """Whether the mouth can still speak when a satellite used as the ears is lost."""
    if not is_wyoming(settings.input) or settings.output == "text":
        return False
    return not (is_wyoming(settings.output) and parse_address(settings.output) == parse_address(settings.input))


class _Satellites:
    """One link per satellite, so ears and mouth on the same one share its connection."""

    def __init__(self, closers: list) -> None:
        self.links: dict = {}
        self.closers = closers

    def link(self, value: str) -> SatelliteLink:
        from voice.remote.satellite_link import SatelliteLink

        address = parse_address(value)
        if address not in self.links:
            self.links[address] = SatelliteLink(address)
            self.closers.insert(0, self.links[address].close)  # closed last
        return self.links[address]


def _open_source(
    settings: Settings, offset: float, satellites: _Satellites, problems: DeviceReport
) -> tuple[Any, Callable[[], float]]:
    if settings.input == "text":
        started = time.monotonic()
        return None, lambda: offset + time.monotonic() - started
    from voice.devices import AudioDeviceError
    from voice.listening.audio_in import AudioFileError, MicSource, WavSource

    source: SatelliteSource | MicSource | WavSource
    try:
        if is_wyoming(settings.input):
            from voice.remote.satellite import SatelliteSource

            source = SatelliteSource(satellites.link(settings.input), on_problem=problems)
            source.open()
        elif settings.input == "mic":
            source = MicSource(settings.input_device)
            source.open()
        else:
            source = WavSource(settings.input)
    except (AudioFileError, AudioDeviceError) as error:
        raise IOChoiceError(str(error)) from error
    return source, lambda: offset + source.now()


def _notices(settings: Settings) -> Any:
    """Where remote servers' notices go (voice/remote/notices.py); None with no remote part."""
    if not (is_wyoming(settings.backend) or is_wyoming(settings.voice)):
        return None
    from voice.remote.notices import Notices

    return Notices()


def _say_notices(notices: Any, mouth: Mouth) -> Callable[[], None]:
    """Speak what remote servers told since the last prompt (they were printed already)."""

    def say() -> None:
        for text in notices.take():
            mouth.say(text)

    return say


def _speaker(settings: Settings, notices: Any) -> Any:
    """The local Piper voice, or a Wyoming voice server with it behind (settings.voice)."""
    from voice.speaking.tts import PiperTTS

    local = PiperTTS()
    if not settings.voice:
        return local
    from voice.remote.tts import WyomingVoice

    voice = WyomingVoice(parse_address(settings.voice), local, notices)
    voice.check()
    return voice


def _open_mouth(
    settings: Settings,
    clock: Callable[[], float],
    closers: list,
    satellites: _Satellites,
    problems: DeviceReport,
    notices: Any = None,
) -> Mouth:
    if settings.output == "text":
        return TextMouth(show_private=settings.show_private)
    from voice.devices import AudioDeviceError
    from voice.speaking.audio_out import SpeakerSink, WavSink
    from voice.speaking.mouth import AudioMouth
    from voice.speaking.tts import TTSUnavailable

    sink: SatelliteSink | SpeakerSink | WavSink
    try:
        if is_wyoming(settings.output):
            from voice.remote.satellite import SatelliteSink

            sink = SatelliteSink(satellites.link(settings.output), clock=clock, on_problem=problems.terminal_only)
        elif settings.output == "speaker":
            sink = SpeakerSink(settings.output_device, clock=clock)
        else:
            sink = WavSink(settings.output)
        tts = _speaker(settings, notices)
    except (AudioDeviceError, TTSUnavailable, OSError) as error:
        raise IOChoiceError(str(error)) from error
    closers.append(sink.close)  # a file's header, the sound still queued, a satellite's AudioStop
    mouth = AudioMouth(
        tts,
        sink,
        clock,
        rate=settings.speech_rate,
        volume=settings.volume,
        show_private=settings.show_private,
        echo=settings.echo_text,
    )
    closers.append(mouth.close)
    return mouth


def _voice_ears(settings: Settings, source: Any, matcher: Matcher, mouth: Mouth, notices: Any = None) -> Ears:
    from voice.listening.turns import TICK_GAIN
    from voice.speaking.mouth import AudioMouth

    chain = listening_chain(settings, notices=notices)
    busy_until: Callable[[], float] = lambda: 0.0  # noqa: E731 (a typed play's mouth is silent at once)
    play_cue = mouth.sound  # typed play's mouth: no volume to lower
    if isinstance(mouth, AudioMouth):
        audio_mouth = mouth

        def busy_until() -> float:
            return audio_mouth.busy_until  # read at each call: the speech still queued

        def play_cue(name: str) -> None:
            audio_mouth.sound(name, gain=TICK_GAIN)  # ticks: quiet, and the ears keep listening

    return chain.ears(
        source,
        matcher,
        busy_until,
        play_cue=play_cue,
        wake=chain.wake(),
        before_listening=_say_notices(notices, mouth) if notices is not None else None,
    )
