"""How a game hears, built from the settings in one place: the front end (gain for quiet
voices, voice/listening/frontend.py), the endpointer and the reader (the recogniser, the
second listener and the check lines, voice/listening/pipeline.py).

The live ears (partyhost/voiceio.py) and every benchmark (partyhost/bench/) take their
listening from `listening_chain`, so a benchmark hears as a game does: a quiet speaker
read without the front end's gain was 4.5 % right, and 99 % through the live path.
Audio modules are imported only when a chain is built (typed play stays light).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from host.errors import PartyhostError
from partyhost.config import Settings

if TYPE_CHECKING:
    from voice.audio_types import AudioSource
    from voice.listening.ears import VoiceEars
    from voice.listening.endpoint import Endpointer
    from voice.listening.frontend import FrontEnd
    from voice.listening.pipeline import Reader
    from voice.listening.wake import WakeWatch
    from voice.understanding.matcher import Matcher


class IOChoiceError(PartyhostError):
    """An input or output that cannot be opened; the message says what to do."""


@dataclass(frozen=True)
class ListeningChain:
    """The listening of a game with these settings. The reader holds the models and is
    shared; a front end and an endpointer follow one stream of sound (a microphone, or
    one recording of a benchmark), so each stream is given new ones."""

    settings: Settings
    reader: Reader

    def front_end(self) -> FrontEnd:
        return front_end(self.settings)

    def endpointer(self) -> Endpointer:
        return endpointer_for(self.settings)

    def wake(self) -> WakeWatch | None:
        """The wake word's watch over one stream, or None when the setting is "off"."""
        return wake_watch(self.settings)

    def ears(
        self, source: AudioSource, matcher: Matcher, busy_until: Callable[[], float] = lambda: 0.0, **options: Any
    ) -> VoiceEars:
        """Ears on one stream of sound with this chain's parts: the one place the live game
        and the benchmarks wire them. `options`: VoiceEars' own (wake, play_cue, read_ahead ...)."""
        from voice.listening.ears import VoiceEars

        return VoiceEars(
            source,
            self.endpointer(),
            self.reader,
            matcher,
            busy_until,
            front_end=self.front_end(),
            reply_max_s=self.settings.reply_max_s,
            **options,
        )


def listening_chain(settings: Settings, whisper_model: str | None = None, notices: Any = None) -> ListeningChain:
    """The listening the settings ask for (`whisper_model`, `notices`: as reader_for)."""
    return ListeningChain(settings, reader_for(settings, whisper_model, notices))


def reader_for(settings: Settings, whisper_model: str | None = None, notices: Any = None) -> Reader:
    """The recogniser, the second listener and the check lines the settings ask for.
    `whisper_model` stands in for the settings' (a benchmark's candidate); `notices` hears
    a remote recogniser's news (voice/remote/notices.py)."""
    from host.reply_policy import acts
    from voice.asr import ModelMissingError
    from voice.listening.pipeline import Reader
    from voice.recognizers import make_recognizer

    try:
        recognizer = make_recognizer(
            settings.backend, settings.models_dir, whisper_model or settings.whisper_model, notices
        )
    except (ModelMissingError, ValueError) as error:  # ValueError: a malformed wyoming:// address
        raise IOChoiceError(str(error)) from error
    from voice.remote.asr import WyomingRecognizer

    if isinstance(recognizer, WyomingRecognizer):
        recognizer.check()  # a remote server that does not answer is told, and the local one used
    second = None
    if settings.second_opinion:
        from voice.asr.moonshine import Preloaded

        second = Preloaded(models_dir=settings.models_dir, weights=settings.second_opinion_weights)
    return Reader(
        recognizer,
        second,
        word_check_line=settings.word_check_line,
        number_check_line=settings.number_check_line,
        rival_margin=settings.rival_margin,
        in_grammar=settings.grammar_decoding,
        acts=acts,
    )


def front_end(settings: Settings) -> FrontEnd:
    """The gain (and suppression) before the endpointer as the settings ask; with both off
    it passes frames unchanged and still measures each utterance's input level."""
    from voice.listening.frontend import FrontEnd, FrontEndConfig

    if not 0 <= settings.noise_suppression <= 4:
        raise IOChoiceError(f"noise_suppression must be 0 (off) to 4, not {settings.noise_suppression}")
    return FrontEnd(FrontEndConfig(agc=settings.agc, noise_suppression=settings.noise_suppression))


def endpointer_for(settings: Settings) -> Endpointer:
    """The endpointer as the settings ask (its speech check: Silero, where installed)."""
    from voice.listening.endpoint import EndpointConfig, Endpointer

    return Endpointer(
        EndpointConfig(
            end_silence_ms=settings.endpoint_silence_ms,
            max_ms=int(settings.max_utterance_s * 1000),
            follow_nearest=settings.follow_nearest_voice,
            follow_after_ms=int(settings.max_utterance_s * 1000),
        )
    )


def wake_watch(settings: Settings) -> WakeWatch | None:
    """The wake word's watch over the microphone, or None when the setting is "off"."""
    from voice.listening.wake import OFF, WakeDetector, WakeWatch, WakeWordError

    if settings.wake_word == OFF:
        return None
    try:
        return WakeWatch(WakeDetector(settings.wake_word))
    except WakeWordError as error:
        raise IOChoiceError(str(error)) from error
