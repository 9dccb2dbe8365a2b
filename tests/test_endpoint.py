"""The endpointer: its rules on synthetic voiced sound, and its accuracy on real speech
(../shared/audio) placed in silence and in noise at 10 dB SNR."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame
from voice.listening.attention import REPLY_MAX_S
from voice.listening.audio_in import WavSource, read_wav_16k
from voice.listening.endpoint import EndpointConfig, Endpointer
from voice.listening.turns import listen_for_turn

pytestmark = [pytest.mark.audio, pytest.mark.model]

FRAME_S = FRAME_SAMPLES / SAMPLE_RATE
RULES = EndpointConfig(confirm_speech_prob=None)  # the rules alone; the neural check is tested below


def voiced(seconds: float, level: float = 0.3, f0: float = 140.0, rhythm: bool = True) -> np.ndarray:
    """A vowel-like sound webrtcvad takes for speech: harmonics of a wavering pitch,
    with a syllable rhythm (or without: a steady drone, like a fan or a fridge)."""
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    phase = 2 * np.pi * np.cumsum(f0 + 20 * np.sin(2 * np.pi * 3 * t)) / SAMPLE_RATE
    x = sum(np.sin(k * phase) / k for k in range(1, 25))
    if rhythm:
        x = x * (0.65 + 0.35 * np.sin(2 * np.pi * 4 * t))
    return (level * x / np.abs(x).max()).astype(np.float32)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * SAMPLE_RATE), dtype=np.float32)


def frames_of(audio: np.ndarray, t0: float = 0.0):
    for i in range(len(audio) // FRAME_SAMPLES):
        yield Frame(audio[i * FRAME_SAMPLES : (i + 1) * FRAME_SAMPLES], t0 + i * FRAME_S)


def utterances(audio: np.ndarray, config: EndpointConfig = RULES, **kwargs) -> list:
    return list(Endpointer(config, **kwargs).utterances(frames_of(audio)))


# ---------------------------------------------------------------- the rules


def test_silence_gives_nothing():
    assert utterances(silence(5)) == []


def test_one_sound_in_silence_is_one_utterance_with_its_bounds():
    audio = np.concatenate([silence(1.0), voiced(1.2), silence(1.5)])
    [u] = utterances(audio)
    assert u.start == pytest.approx(1.0, abs=0.06)
    assert u.end == pytest.approx(2.2, abs=0.06)
    lead = RULES.pre_roll_ms / 1000
    assert len(u.audio) / SAMPLE_RATE == pytest.approx((u.end - u.start) + lead + RULES.tail_ms / 1000, abs=0.07)
    assert not u.audio[: int(0.8 * lead * SAMPLE_RATE)].any()  # the lead-in is the silence before


def test_trailing_silence_decides_whether_two_sounds_are_one_utterance():
    audio = np.concatenate([silence(1), voiced(0.6), silence(0.3), voiced(0.6), silence(1.5)])
    assert len(utterances(audio)) == 1  # 300 ms < 500 ms
    assert len(utterances(audio, EndpointConfig(confirm_speech_prob=None, end_silence_ms=200))) == 2


def test_the_utterance_is_known_before_its_end_is_confirmed():
    """pending(): once the tail after the speech has arrived, the utterance that the
    silence will end, the very object push() returns at the end of that silence."""
    audio = np.concatenate([silence(0.6), voiced(0.8), silence(1.0)])
    endpointer, seen = Endpointer(RULES), []
    for frame in frames_of(audio):
        done = endpointer.push(frame)
        if done is not None:
            break
        seen.append((frame.t + FRAME_S, endpointer.pending()))  # the clock at the frame's end
    known = [(t, u) for t, u in seen if u is not None]
    first_t, ahead = known[0]
    assert all(u is ahead for _, u in known)  # one reading ahead, not one per frame
    assert done is ahead
    assert first_t - ahead.end == pytest.approx(RULES.tail_ms / 1000, abs=FRAME_S)  # its audio is all there
    confirmed_t = seen[-1][0] + FRAME_S  # the next frame confirmed it
    assert confirmed_t - first_t == pytest.approx((RULES.end_silence_ms - RULES.tail_ms) / 1000, abs=FRAME_S)


def test_a_pending_utterance_is_dropped_when_speech_resumes():
    audio = np.concatenate([silence(0.6), voiced(0.6), silence(0.33), voiced(0.6), silence(1.0)])
    endpointer, pending = Endpointer(RULES), []
    for frame in frames_of(audio):
        done = endpointer.push(frame)
        if done is not None:
            break
        if (u := endpointer.pending()) is not None and (not pending or pending[-1] is not u):
            pending.append(u)
    assert len(pending) == 2 and done is pending[1]
    assert pending[0].end < pending[1].end and len(pending[0].audio) < len(done.audio)


def test_clicks_and_knocks_are_not_speech():
    knocks = [silence(0.7)]
    for _ in range(6):
        knocks += [voiced(0.06, level=0.8), silence(0.6)]
    assert utterances(np.concatenate(knocks)) == []


def test_long_speech_is_cut_at_the_maximum_length():
    audio = np.concatenate([silence(1), voiced(8.0), silence(1.5)])
    first, *rest = utterances(audio)
    assert first.end - first.start == pytest.approx(RULES.max_ms / 1000, abs=0.04)
    assert sum(u.end - u.start for u in rest) <= 2.1


def test_steady_noise_is_not_speech_but_speech_over_it_is():
    rng = np.random.default_rng(1)
    hum = (0.05 * voiced(12.0, level=1.0, f0=100, rhythm=False)).astype(np.float32)  # a steady drone
    hum += (0.01 * rng.standard_normal(len(hum))).astype(np.float32)
    assert utterances(hum) == []
    with_speech = hum.copy()
    with_speech[int(6 * SAMPLE_RATE) : int(7 * SAMPLE_RATE)] += voiced(1.0, level=0.4, f0=210)
    [u] = utterances(with_speech)
    assert u.start == pytest.approx(6.0, abs=0.1) and u.end == pytest.approx(7.0, abs=0.15)


def test_quiet_room_then_speech_then_louder_background():
    """The floor follows the room down fast and up slowly."""
    rng = np.random.default_rng(2)
    room = np.concatenate([0.2 * rng.standard_normal(3 * SAMPLE_RATE), 0.002 * rng.standard_normal(3 * SAMPLE_RATE)])
    room = room.astype(np.float32)
    room[int(4.5 * SAMPLE_RATE) : int(5.3 * SAMPLE_RATE)] += voiced(0.8, level=0.2)
    found = utterances(room)
    assert [round(u.start, 1) for u in found if u.start > 3.5] == [4.5]


def test_a_turn_gives_up_at_the_deadline_only_before_speech():
    audio = np.concatenate([silence(2.0), voiced(1.0), silence(1.5)])
    ep = Endpointer(RULES)
    frames = iter(frames_of(audio))
    quiet = listen_for_turn(ep, frames, 0.0, 1.5)
    assert quiet.timed_out and quiet.utterance is None  # quiet until 1.5 s
    late = listen_for_turn(Endpointer(RULES), iter(frames_of(audio)), 0.0, 2.2).utterance
    assert late is not None and late.end == pytest.approx(3.0, abs=0.06)  # started at 2.0: heard out
    assert listen_for_turn(ep, frames, 0.0, None).utterance.start == pytest.approx(2.0, abs=0.06)
    ended = listen_for_turn(ep, frames, 0.0, None)
    assert ended.utterance is None and not ended.timed_out  # the frames ran out


def test_a_jump_in_time_forgets_the_half_heard_utterance():
    speech = voiced(0.6)
    frames = list(frames_of(np.concatenate([silence(1), speech])))
    frames += list(frames_of(silence(2.0), t0=10.0))  # the host spoke from 1.6 to 10
    assert list(Endpointer(RULES).utterances(frames)) == []


def test_the_speech_check_drops_unconfirmed_candidates():
    audio = np.concatenate([silence(1), voiced(1.0), silence(1.5), voiced(1.0), silence(1.5)])
    verdicts = iter([0.9, 0.1])
    ep = Endpointer(EndpointConfig(confirm_speech_prob=0.3), speech_check=lambda a: next(verdicts))
    found = list(ep.utterances(frames_of(audio)))
    assert [round(u.start) for u in found] == [1] and ep.unconfirmed == 1


def test_wav_source_and_endpointer_together(tmp_path):
    import soundfile

    path = tmp_path / "session.wav"
    soundfile.write(path, np.concatenate([silence(0.5), voiced(0.8), silence(1.0), voiced(0.5)]), 16000)
    found = list(Endpointer(RULES).utterances(WavSource(path).frames()))  # the tail ends the last one
    assert [round(u.start, 1) for u in found] == [0.5, 2.3]


# ---------------------------------------------------------------- real speech


@dataclass(frozen=True)
class Truth:
    start: float
    end: float
    name: str


def speech_span(x: np.ndarray, trimmed: bool) -> tuple[float, float]:
    """Where the speech is in a clip, from its 10 ms energies: within 30 dB of the peak
    and, for untrimmed clips with their own room noise, 12 dB over that noise."""
    win = SAMPLE_RATE // 100
    n = len(x) // win
    e = 10 * np.log10(np.mean(x[: n * win].reshape(n, win) ** 2, axis=1) + 1e-12)
    threshold = e.max() - 30
    if not trimmed:
        threshold = max(threshold, min(np.percentile(e, 10) + 12, e.max() - 6))
    active = np.nonzero(e > threshold)[0]
    return active[0] * win / SAMPLE_RATE, (active[-1] + 1) * win / SAMPLE_RATE


def clips(audio_dir: Path, corpus: str) -> list[tuple[str, np.ndarray, float, float]]:
    """(name, audio, speech start, speech end) for every clip with at least 150 ms of speech."""
    paths = (
        sorted((audio_dir / "speech-commands").glob("*/*.wav"))
        if corpus == "speech-commands"
        else sorted((audio_dir / "fsdd").glob("*.wav"))[::2]
    )
    out = []
    for path in paths:
        x = read_wav_16k(path)
        start, end = speech_span(x, trimmed=corpus == "fsdd")
        if end - start >= 0.15:  # a few clips hold only the cut-off end of a word
            out.append((f"{path.parent.name}/{path.name}", x, start, end))
    return out


def scene(
    clip_list, noise: np.ndarray | None, snr_db: float = 10.0, seed: int = 0, speech_dbfs: float = -23.0
) -> tuple[np.ndarray, list[Truth]]:
    """The clips one after another with 1.5-3 s of silence between them, each brought to
    the same speech level, and the noise looped under everything at `snr_db` below it."""
    rng = random.Random(seed)
    parts, truth, pos = [silence(3.0)], [], 3.0
    for name, x, start, end in clip_list:
        level = 10 * np.log10(np.mean(x[int(start * SAMPLE_RATE) : int(end * SAMPLE_RATE)] ** 2) + 1e-12)
        parts.append((x * 10 ** ((speech_dbfs - level) / 20)).astype(np.float32))
        truth.append(Truth(pos + start, pos + end, name))
        gap = silence(rng.uniform(1.5, 3.0))
        parts.append(gap)
        pos += (len(x) + len(gap)) / SAMPLE_RATE
    signal = np.concatenate(parts)
    if noise is not None:
        offset = rng.randrange(len(noise))
        bed = np.tile(noise, len(signal) // len(noise) + 2)[offset : offset + len(signal)]
        bed_db = 10 * np.log10(np.mean(bed**2))
        signal = signal + bed * 10 ** ((speech_dbfs - snr_db - bed_db) / 20)
    return signal.astype(np.float32), truth


@dataclass(frozen=True)
class Score:
    n: int
    hits: int  # utterances that overlap exactly one truth, one-to-one
    in_tolerance: int  # hits whose start and end are within the tolerance
    false: int  # utterances overlapping no speech

    @property
    def hit_rate(self) -> float:
        return self.hits / self.n


START_TOLERANCE, END_TOLERANCE = 0.2, 0.3


def score(found, truth: list[Truth]) -> Score:
    hits = close = 0
    used: set[int] = set()
    for t in truth:
        overlapping = [i for i, u in enumerate(found) if u.start < t.end and u.end > t.start]
        if len(overlapping) == 1 and overlapping[0] not in used:
            u = found[overlapping[0]]
            used.add(overlapping[0])
            hits += 1
            close += abs(u.start - t.start) <= START_TOLERANCE and abs(u.end - t.end) <= END_TOLERANCE
    false = sum(not any(u.start < t.end and u.end > t.start for t in truth) for u in found)
    return Score(len(truth), hits, close, false)


@pytest.fixture(scope="module")
def corpora(shared_audio):
    return {name: clips(shared_audio, name) for name in ("speech-commands", "fsdd")}


@pytest.fixture(scope="module")
def noises(shared_audio):
    return {p.stem: read_wav_16k(p) for p in sorted((shared_audio / "noise").glob("*.wav"))}


# minimum hit rate, minimum share of hits within tolerance, most false utterances (per
# scene); measured (speech-commands, fsdd): hits 100/100 %, 95/98 %, 95/97 %, 92/90 %;
# within tolerance 87/100 %, 80/100 %, 75/86 %, 65/85 %; false utterances 0 everywhere
EXPECTED = {
    None: (0.97, 0.84, 1),
    "pink_noise": (0.92, 0.77, 1),
    "running_tap": (0.92, 0.70, 1),
    "doing_the_dishes": (0.86, 0.55, 1),
}


@pytest.mark.parametrize("corpus", ["speech-commands", "fsdd"])
@pytest.mark.parametrize("noise", list(EXPECTED))
def test_finds_real_utterances_in_silence_and_noise(corpora, noises, corpus, noise):
    signal, truth = scene(corpora[corpus], None if noise is None else noises[noise])
    found = list(Endpointer().utterances(frames_of(signal)))
    result = score(found, truth)
    min_hits, min_close, max_false = EXPECTED[noise]
    print(f"\n{corpus} in {noise + ' at 10 dB SNR' if noise else 'silence'}: {result}")
    assert result.hit_rate >= min_hits
    assert result.in_tolerance >= min_close * result.hits
    assert result.false <= max_false


def test_finds_where_replies_end_over_a_party_s_continuous_noise(corpora):
    """People's digits over a party's noise 10 dB below them, without a break: chatter of
    other people (Speech Commands speakers, none of the digits' own), a kitchen and
    music. Measured from the floor alone, the chatter counted as speech: 57 % of the
    replies were found, 28 % of those with their end, and 30 stretches ran on past
    4 s (not a reply). Measured 95 % / 79 % / none."""
    from partyhost_lab.chatter import party_noise

    signal, truth = scene(corpora["fsdd"], party_noise(120, corpora=("speech-commands",)))
    found = list(Endpointer().utterances(frames_of(signal)))
    result = score(found, truth)
    print(f"\nfsdd over a party's noise at 10 dB SNR: {result}")
    assert result.hit_rate >= 0.9
    assert result.in_tolerance >= 0.7 * result.hits
    assert result.false <= 2
    assert max(u.end - u.start for u in found) <= REPLY_MAX_S


def test_chatter_alone_is_not_cut_into_replies(shared_audio):
    """Five people talking among themselves, nobody louder than the rest for long: what
    the endpointer finds in it is table talk too long for a reply (ignored unread), not
    reply-length pieces the recogniser would read against the prompt. Through the front
    end, as live. (Ended where the chatter falls back, but without asking that a reply
    stand out of it, these two minutes gave 13 reply-length pieces; now 1.)"""
    from partyhost_lab.chatter import babble
    from voice.listening.frontend import FrontEnd

    minutes = 2.0
    chatter = babble(minutes * 60, seed=7)
    found = list(Endpointer().utterances(FrontEnd().frames(frames_of(chatter))))
    replies = [(round(u.start, 2), round(u.end, 2)) for u in found if u.end - u.start <= REPLY_MAX_S]
    assert len(replies) / minutes <= 1.0, replies


@pytest.mark.parametrize(
    "noise, most_per_minute", [("pink_noise", 0.0), ("running_tap", 0.0), ("doing_the_dishes", 1.0)]
)
def test_background_noise_alone_gives_almost_nothing(noises, noise, most_per_minute):
    audio = noises[noise]
    found = list(Endpointer().utterances(frames_of(audio)))
    minutes = len(audio) / SAMPLE_RATE / 60
    assert len(found) / minutes <= most_per_minute, [(round(u.start, 2), round(u.end, 2)) for u in found]


def test_music_is_bounded_and_mostly_refused(noises):
    """Music is voiced and loud: the rules take parts of it for speech; the neural
    check refuses most of them, and nothing is longer than the maximum. (Ended where
    the music falls back below what it reaches, the parts are short: 10 in these 25 s,
    1 of them kept, 0.3 s; measured from the floor alone they were 5 long ones, none
    kept.)"""
    audio = noises["music"]
    rules_only = list(Endpointer(RULES).utterances(frames_of(audio)))
    confirmed = list(Endpointer().utterances(frames_of(audio)))
    assert rules_only and all(u.end - u.start <= RULES.max_ms / 1000 + 1e-6 for u in rules_only)
    assert len(confirmed) <= 3 and 4 * len(confirmed) <= len(rules_only)
    assert all(u.end - u.start < 1.0 for u in confirmed)


TALKER_UNDER_DB, TALK_S, EVERY_S = 8.0, 1.2, 6.0


def talker_going_on(corpora, noise, follow: bool, seed: int = 3) -> tuple[list, list[Truth]]:
    """People's digits over a party's noise 10 dB below them, one every EVERY_S, each
    followed at once by talk nearer than the party (TALKER_UNDER_DB under the reply: other
    people's words, one after another, for TALK_S): the utterances the endpointer finds,
    and where the replies were."""
    rng = random.Random(seed)
    replies = corpora["fsdd"][:40:2]
    words = [x[int(s * SAMPLE_RATE) : int(e * SAMPLE_RATE)] for _, x, s, e in corpora["speech-commands"][::7]]
    signal = np.zeros(int((len(replies) + 1) * EVERY_S * SAMPLE_RATE), np.float32)
    truth = []
    for k, (name, x, start, end) in enumerate(replies):
        reply = x[int(start * SAMPLE_RATE) : int(end * SAMPLE_RATE)]
        at = int((3.0 + k * EVERY_S) * SAMPLE_RATE)
        signal[at : at + len(reply)] += reply / (np.sqrt(np.mean(reply**2)) + 1e-9) * 10 ** (-23.0 / 20)
        truth.append(Truth(at / SAMPLE_RATE, (at + len(reply)) / SAMPLE_RATE, name))
        talk: list[np.ndarray] = []
        while sum(map(len, talk)) < TALK_S * SAMPLE_RATE:
            word = words[rng.randrange(len(words))]
            talk += [word / (np.sqrt(np.mean(word**2)) + 1e-9), silence(0.05)]
        said = np.concatenate(talk) * 10 ** ((-23.0 - TALKER_UNDER_DB) / 20)
        signal[at + len(reply) : at + len(reply) + len(said)] += said.astype(np.float32)
    bed = np.resize(noise, len(signal))
    signal += bed / np.sqrt(np.mean(bed**2)) * 10 ** ((-23.0 - 10.0) / 20)
    config = EndpointConfig(follow_nearest=follow, follow_after_ms=0)  # from the first frame, not the length limit
    return list(Endpointer(config).utterances(frames_of(signal))), truth


def test_a_talker_who_goes_on_after_a_reply_is_not_part_of_it(corpora):
    """Followed from the first frame (follow_after_ms 0; shipped, it is followed only at the
    length limit), the utterance is the nearest voice's (its level and its
    pitch): it ends where the reply does, not when the talker after it stops. Measured:
    without following the nearest voice, 0 of 20 replies ended within 0.3 s of their end;
    following it, 14."""
    from partyhost_lab.chatter import party_noise

    noise = party_noise(120, corpora=("speech-commands",))
    for follow in (False, True):
        found, truth = talker_going_on(corpora, noise, follow)
        ends = [
            min(
                (u for u in found if u.start < t.end and u.end > t.start),
                key=lambda u: abs(u.end - t.end),
                default=None,
            )
            for t in truth
        ]
        ended = sum(u is not None and abs(u.end - t.end) <= END_TOLERANCE for u, t in zip(ends, truth))
        print(f"\nfollowing the nearest voice {follow}: {ended}/{len(truth)} end with the reply")
    assert ended >= 0.6 * len(truth)
