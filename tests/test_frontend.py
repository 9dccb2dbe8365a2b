"""The front end before the endpointer (voice/listening/frontend.py): a quiet voice is found, a
rising gain never starts speech on room sound, a loud voice is not clipped, and each
utterance's input level is the level that came in."""

from __future__ import annotations

import numpy as np
from test_endpoint import RULES, frames_of, silence, voiced

from partyhost.config import Settings
from partyhost.listening_chain import front_end
from voice.listening.endpoint import Endpointer
from voice.listening.frontend import FrontEnd, FrontEndConfig


def room(seconds: float, dbfs: float, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(int(seconds * 16000)) * 10 ** (dbfs / 20)).astype(np.float32)


def at_peak(audio: np.ndarray, dbfs: float) -> np.ndarray:
    return (audio / np.max(np.abs(audio)) * 10 ** (dbfs / 20)).astype(np.float32)


def utterances(audio: np.ndarray, config: FrontEndConfig | None):
    front = FrontEnd(config) if config else None
    frames = frames_of(audio) if front is None else front.frames(frames_of(audio))
    return list(Endpointer(RULES).utterances(frames))


def quiet_voice_in_a_quiet_room() -> np.ndarray:
    audio = room(4.0, -72.0)
    audio[24000 : 24000 + 12800] += at_peak(voiced(0.8), -42.0)
    return audio


def test_a_quiet_voice_is_found_with_the_gain_and_missed_without_it():
    audio = quiet_voice_in_a_quiet_room()
    assert utterances(audio, FrontEndConfig(agc=False)) == []
    (found,) = utterances(audio, FrontEndConfig())
    assert 1.3 < found.start < 1.7


def test_a_rising_gain_does_not_start_speech_on_room_sound():
    """The room goes quiet (a fan stops): the gain climbs by 15 dB; no speech is heard."""
    audio = np.concatenate([room(3.0, -60.0), room(8.0, -75.0, seed=1)])
    assert utterances(audio, FrontEndConfig()) == []


def test_a_loud_voice_is_not_clipped_and_its_input_level_is_what_came_in():
    audio = np.concatenate([room(2.0, -72.0), at_peak(voiced(0.8), -0.5), room(1.0, -72.0)])
    front = FrontEnd(FrontEndConfig())
    out = np.concatenate([f.samples for f in front.frames(frames_of(audio))])
    assert np.max(np.abs(out)) < 0.99
    level = front.input_level(2.0, 2.8)
    assert level is not None and -1.5 < level.peak_dbfs < 0.0 and level.rms_dbfs < level.peak_dbfs


def test_settings_turn_each_part_off():
    assert front_end(Settings(agc=False, noise_suppression=0))._processor is None
    assert front_end(Settings(agc=False, noise_suppression=0))._room_gain is None
    assert front_end(Settings(agc=False, noise_suppression=2))._processor is not None
    assert front_end(Settings())._room_gain is not None
    frame = next(iter(frames_of(silence(0.03) + 0.01)))
    assert front_end(Settings(agc=False, noise_suppression=0)).process(frame) is frame
