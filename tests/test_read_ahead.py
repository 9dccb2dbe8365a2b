"""The ears read an utterance while its end is still being confirmed (voice/listening/ears.py,
_ReadAhead): the same reading, sooner, and never of audio that turned out longer."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from test_endpoint import RULES, frames_of, silence, voiced

from host.contract import Prompt
from host.reply_policy import acts
from voice.audio_types import Hypothesis
from voice.listening.ears import VoiceEars
from voice.listening.endpoint import Endpointer
from voice.listening.pipeline import Reader
from voice.understanding.matcher import Matcher

pytestmark = [pytest.mark.model, pytest.mark.audio]


class Recording:
    """Frames of a fixed recording, as a microphone would give them."""

    def __init__(self, audio: np.ndarray):
        self._frames = list(frames_of(audio))

    def frames(self):
        return iter(self._frames)

    def now(self) -> float:
        return 0.0

    def skip_until(self, t: float) -> None:
        pass

    def next_frame_t(self) -> float:
        return 0.0


class Recogniser:
    """Says "yes" to short audio and "no" to long; records where and what it read."""

    name = "fake"

    def __init__(self):
        self.reads: list[tuple[str, float]] = []

    def compile(self, phrases):
        return tuple(phrases)

    def recognize(self, audio, grammar):
        seconds = len(audio) / 16000
        self.reads.append((threading.current_thread().name, seconds))
        return [Hypothesis("yes" if seconds < 1.4 else "no", 0.9)]


def hear(audio: np.ndarray, read_ahead: bool = True):
    recogniser = Recogniser()
    ears = VoiceEars(
        Recording(audio),
        Endpointer(RULES),
        Reader(recogniser, acts=acts),
        Matcher(),
        busy_until=lambda: 0.0,
        read_ahead=read_ahead,
    )
    heard = ears.hear(Prompt("common/yes_no", "Ana", "Again?"))
    return heard, recogniser.reads


def test_speech_that_resumes_is_read_whole():
    """A pause longer than the tail but shorter than the endpoint silence: the reading
    begun on the first part is dropped, and the whole utterance is read."""
    heard, reads = hear(np.concatenate([silence(0.6), voiced(0.6), silence(0.33), voiced(0.6), silence(1.0)]))
    assert heard.text == "no"
    assert len(reads) == 2 and reads[0][1] < 1.4 <= reads[1][1]


@pytest.mark.parametrize("read_ahead", [True, False])
def test_a_word_is_read_once_while_its_end_is_confirmed_and_read_the_same(read_ahead):
    heard, reads = hear(np.concatenate([silence(0.6), voiced(0.6), silence(1.0)]), read_ahead)
    assert (heard.text, heard.start, heard.end) == ("yes", pytest.approx(0.6, abs=0.06), pytest.approx(1.2, abs=0.06))
    assert len(reads) == 1 and reads[0][0] == ("read-ahead_0" if read_ahead else "MainThread")


def test_with_the_real_recogniser_a_fixture_reads_the_same_ahead_and_after(tmp_path):
    """A Keep Cool turn and a card, read by Whisper (and at the turn its word check and
    Moonshine) ahead of the end and after it: the same reading."""
    import json
    from pathlib import Path

    from host.games import grammar_slots
    from partyhost.bench.manifest import bench_prompt
    from voice.asr.moonshine import Preloaded
    from voice.listening.audio_in import WavSource
    from voice.recognizers import make_recognizer

    fixtures = Path(__file__).parent / "fixtures" / "voice"
    lines = [json.loads(line) for line in (fixtures / "manifest.jsonl").read_text().splitlines()]
    picked = [
        next(line for line in lines if line["prompt"] == prompt and line["source"] == "script")
        for prompt in ("word", "play_card")
    ]
    recogniser, matcher, second = make_recognizer("whisper"), Matcher(), Preloaded()
    for line in picked:
        name = f"{line['game']}/{line['prompt']}"
        prompt = bench_prompt(name, grammar_slots(name, line.get("context") or {}))
        heard = [
            VoiceEars(
                WavSource(fixtures / line["wav"]),
                Endpointer(),
                Reader(recogniser, second, acts=acts),
                matcher,
                busy_until=lambda: 0.0,
                read_ahead=ahead,
            ).hear(prompt)
            for ahead in (True, False)
        ]
        assert heard[0] == heard[1] and heard[0].text, line["id"]


def test_the_paced_benchmark_times_each_clip_both_ways(tmp_path):
    """`partyhost bench latency --paced`: a clip played in real time, read ahead and not."""
    import json
    import shutil
    from pathlib import Path

    from partyhost.bench.manifest import Listener, paced_latency

    fixtures = Path(__file__).parent / "fixtures" / "voice"
    line = next(
        json.loads(text)
        for text in (fixtures / "manifest.jsonl").read_text().splitlines()
        if '"yes_no"' in text and '"piper-1/clean"' in text
    )
    (tmp_path / "wav").mkdir()
    shutil.copy(fixtures / line["wav"], tmp_path / line["wav"])
    (tmp_path / "one.jsonl").write_text(json.dumps(line) + "\n")
    recogniser = Recogniser()
    times = paced_latency(tmp_path / "one.jsonl", Listener(Reader(recogniser, acts=acts), Matcher()), every=1)
    assert len(times["read_ahead"]) == len(times["after_end"]) == 1 and times["read_ahead_keep_cool"] == []
    assert [thread for thread, _ in recogniser.reads] == ["read-ahead_0", "MainThread"]
