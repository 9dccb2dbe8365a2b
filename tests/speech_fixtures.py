"""Recorded-speech fixtures: what players say at every prompt, spoken, with the intent it means.

Sources of utterances:
- every line of every typed whole-game script (lab/scripted_games/), in the context of
  the prompt it answered, expecting the intent the typed line produced;
- sample phrases of the prompts no script reaches (menu, numbers, yes/no, names);
- negatives that must be rejected: table chatter, kitchen noise, music, silence.

Voices and noise come from partyhost_lab.synthetic_speech (the benchmarks speak with
them too): noise is mixed at chosen signal-to-noise ratios.

The manifest follows docs/specs/manifest.md, with a "condition" field
(voice/speed/noise) added to each line.
"""

from __future__ import annotations

import hashlib
import json
import random
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
import soxr
from replay import load_cases, play_script

from host.contract import Ending
from host.games import game_ids, grammar_slots, unclear_intent
from partyhost_lab.synthetic_speech import CHATTER, NOISES, Voices, load_noise, mix_at_snr
from voice.audio_types import SAMPLE_RATE
from voice.speaking.mixing import padded
from voice.understanding.grammar import load_grammar
from voice.understanding.matcher import Matcher

GRAMMARS = ("common", *game_ids())

NEGATIVE_PROMPTS = [  # (prompt, context) pairs the negatives are tried against
    ("common/number", {}),
    ("common/yes_no", {}),
    ("one-percent/bid", {"last": None}),
    ("centurion/play_card", {"count": 40}),
    ("keep-it-100/predict", {}),
    ("keep-cool/word", {"words": ["piano", "river", "candle", "pillow"], "roster": ["Ana", "Ben", "Cy"]}),
]


@dataclass(frozen=True)
class Item:
    """One utterance to speak and what it must be understood as."""

    prompt: str
    context: dict[str, Any]
    text: str | None  # None: a noise-only negative
    expect: dict[str, Any]
    source: str  # "script", "sample", "chatter", "noise", "silence"

    @property
    def negative(self) -> bool:
        """Chatter or noise (not a phrase of the prompt), as the benchmark counts them."""
        return (
            self.source == "chatter"
            or self.source.startswith(("noise", "silence"))
            or self.expect.get("intent") == "none"
        )

    @property
    def game(self) -> str:
        return self.prompt.split("/", 1)[0]


# ---- what to say ------------------------------------------------------------


def script_items(work: Path) -> list[Item]:
    """Every understood line of every game script, once per prompt, text and context."""
    items: dict[tuple, Item] = {}
    for number, case in enumerate(load_cases()):
        for exchange in play_script(case, work / str(number)).exchanges:
            if exchange.intent is None or exchange.line == "...":
                continue
            expect = {k: v for k, v in exchange.intent.items() if k != "text"}
            context = json.loads(json.dumps(exchange.prompt.context))
            key = (exchange.prompt.name, exchange.line.lower(), json.dumps(context, sort_keys=True))
            items.setdefault(key, Item(exchange.prompt.name, context, exchange.line, expect, "script"))
    return list(items.values())


def sample_items(covered: set[str], per_prompt: int = 12, seed: int = 7) -> list[Item]:
    """A few phrases of each prompt no script reaches, in a context that suits it."""
    rng = random.Random(seed)
    contexts = {"common/name": {"roster": ["Ana", "Ben", "Cy", "Dee"]}}
    matcher = Matcher()
    items = []
    for grammar_name in GRAMMARS:
        grammar = load_grammar(grammar_name)
        for prompt in grammar.prompts:
            if prompt in covered or prompt == "common/any":
                continue
            context = contexts.get(prompt, {})
            table = matcher.table(prompt, grammar_slots(prompt, context))
            intents: dict[str, dict] = {}
            for text, intent in table.examples:
                intents.setdefault(text, intent)
            own = [text for text in table.texts if intents[text]["intent"] not in _COMMON]
            for text in rng.sample(own, min(per_prompt, len(own))):
                items.append(Item(prompt, context, text, dict(intents[text]), "sample"))
    return items


_COMMON = set(load_grammar("common").prompts["common/any"])


def negative_items() -> list[Item]:
    """Chatter and noise at each negative prompt: rejected, or where the game acts on
    speech it did not understand (a Keep Cool turn: a clue), taken as that."""

    def refused(prompt: str) -> dict[str, Any]:
        return unclear_intent(prompt) or {"intent": "none"}

    items = []
    for index, sentence in enumerate(CHATTER):
        prompt, context = NEGATIVE_PROMPTS[index % len(NEGATIVE_PROMPTS)]
        items.append(Item(prompt, context, sentence, refused(prompt), "chatter"))
    for index, noise in enumerate(NOISES * 2):
        prompt, context = NEGATIVE_PROMPTS[index % len(NEGATIVE_PROMPTS)]
        items.append(Item(prompt, context, None, refused(prompt), f"noise:{noise}:{index}"))
    return items


# ---- building a set -------------------------------------------------------------


def all_items(work: Path) -> list[Item]:
    scripted = script_items(work)
    return scripted + sample_items({item.prompt for item in scripted}) + negative_items()


def build(
    out: Path,
    speeds: Iterable[float] = (1.0,),
    espeak: bool = False,
    snrs: Iterable[float] = (),
    noise_voice: str = "piper-1",
    limit: int | None = None,
    per_prompt: int | None = None,
    seed: int = 11,
    voice_names: Iterable[str] = (),
) -> Path:
    """Write WAVs and manifest.jsonl into `out`; returns the manifest path.

    Every item is spoken by every voice (clean); with `snrs`, each item spoken by
    `noise_voice` is also mixed with each kind of noise at each ratio.
    """
    rng = random.Random(seed)
    voices = Voices()
    names = voices.names(speeds, espeak) + voices.names_given(voice_names)
    out.mkdir(parents=True, exist_ok=True)
    (out / "wav").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        items = all_items(Path(work))
    if per_prompt:
        items = _at_most_per_prompt(items, per_prompt, rng)
    if limit:
        items = rng.sample(items, min(limit, len(items)))
    noises = {name: load_noise(name) for name in NOISES} if (snrs or any(i.text is None for i in items)) else {}
    lines = []
    for number, item in enumerate(items):
        for voice in names:
            for condition, audio in _renderings(item, voice, voices, noises, snrs, noise_voice, rng):
                digest = hashlib.sha1(f"{number}|{condition}".encode()).hexdigest()[:10]
                name = f"{item.prompt.replace('/', '-')}-{digest}.wav"
                soundfile.write(out / "wav" / name, padded(audio), SAMPLE_RATE, subtype="PCM_16")
                lines.append(
                    {
                        "id": f"{item.prompt}-{number}-{condition}",
                        "wav": f"wav/{name}",
                        "game": item.game,
                        "prompt": item.prompt.split("/", 1)[1],
                        "context": item.context,
                        "expect": item.expect,
                        "condition": condition,
                        "text": item.text,
                        "source": item.source,
                        **({"negative": True} if item.negative else {}),
                    }
                )
    manifest = out / "manifest.jsonl"
    manifest.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return manifest


def _at_most_per_prompt(items: list[Item], count: int, rng: random.Random) -> list[Item]:
    """Up to `count` utterances of each prompt (negatives all kept), in a stable order."""
    by_prompt: dict[str, list[Item]] = {}
    for item in items:
        if not item.negative:
            by_prompt.setdefault(item.prompt, []).append(item)
    kept = [i for group in by_prompt.values() for i in rng.sample(group, min(count, len(group)))]
    return kept + [i for i in items if i.negative]


def _renderings(
    item: Item, voice: str, voices: Voices, noises: dict, snrs: Iterable[float], noise_voice: str, rng: random.Random
) -> Iterator[tuple[str, np.ndarray]]:
    if item.text is None:  # a noise-only negative: once, whatever the voice
        if voice == noise_voice:
            kind = item.source.split(":")[1]
            yield f"noise-only/{kind}", _noise_clip(noises[kind], rng)
        return
    speech = voices.speak(voice, item.text)
    yield f"{voice}/clean", speech
    if voice == noise_voice:
        for snr in snrs:
            for kind, noise in noises.items():
                yield f"{voice}/{kind}@{snr:g}dB", mix_at_snr(speech, noise, snr, rng)


def _noise_clip(noise: np.ndarray, rng: random.Random, seconds: float = 2.0) -> np.ndarray:
    length = int(seconds * SAMPLE_RATE)
    start = rng.randrange(max(1, len(noise) - length))
    clip = noise[start : start + length]
    peak = np.abs(clip).max() or 1.0
    return clip / peak * 0.5


# ---- whole games as one recording ------------------------------------------------

SESSION_GAP_S = 0.9  # players answer this long after the host falls silent
ENDPOINT_WAIT_S = 0.6  # the endpointer's closing silence after the last voiced sound, and a frame or two
ECHO_GAIN = 0.25  # the host's own voice, as a speakerphone's microphone hears it


def voiced_until(audio: np.ndarray) -> float:
    """Seconds to the end of the last 10 ms within 35 dB of the loudest (Piper leaves
    silence after a line, which the endpointer counts towards its closing silence)."""
    step = SAMPLE_RATE // 100
    n = len(audio) // step
    levels = 10 * np.log10(np.mean(audio[: n * step].reshape(n, step) ** 2, axis=1) + 1e-12)
    voiced = np.nonzero(levels > levels.max() - 35)[0]
    return (voiced[-1] + 1) * step / SAMPLE_RATE if len(voiced) else len(audio) / SAMPLE_RATE


def timed_line(line: str) -> tuple[float | None, str]:
    """ "@7.7 engine" -> (7.7, "engine"): said 7.7 s after the ears start listening
    (a timed turn's clock starts there); a plain line -> (None, line)."""
    if line.startswith("@"):
        offset, _, text = line[1:].partition(" ")
        return float(offset), text.strip()
    return None, line


def build_session_wav(case, out: Path, voices: Voices | None = None) -> Path:
    """A recording of a whole typed game: each line spoken after the host's turn ends.

    The game is played once with the real AudioMouth (so the host's speech takes the
    time it will take when the recording is played back) and scripted replies; each
    reply is placed SESSION_GAP_S after the host stops, or, for a line "@SECONDS
    text", that long after the ears start listening (to say a word in the last
    seconds of a timed turn, or across its buzzer). The host's voice is mixed in
    quietly, as echo, which the ears must ignore because the host is speaking then.
    """
    from host.contract import Outcome, Understood
    from host.eventlog import EventLog
    from host.games import get_game
    from host.journal import Journal
    from host.play import SessionInfo
    from host.session import Session
    from voice.listening.ears import AFTER_SPEECH_GUARD_S
    from voice.speaking.audio_out import WavSink
    from voice.speaking.mouth import AudioMouth
    from voice.speaking.tts import PiperTTS
    from voice.understanding.understand import TextUnderstanding

    voices = voices or Voices()
    host_voice = PiperTTS(
        warm_up=False,  # its own instance: "slower" must not touch the players'
        noise_scale=voices.piper.noise_scale,
    )
    cursor = [0.0]
    replies: list[tuple[float, np.ndarray]] = []
    with tempfile.TemporaryDirectory() as work:
        host_wav = Path(work) / "host.wav"
        sink = WavSink(host_wav, rate=host_voice.sample_rate)
        mouth = AudioMouth(host_voice, sink, clock=lambda: cursor[0], show_private=False)
        lines = case.lines()

        matcher = Matcher()
        understand = TextUnderstanding(matcher)

        class PlayersReplying:
            def reread(self, prompt, text):
                return understand(prompt, text)

            def hear(self, prompt):
                if not lines:
                    return None
                offset, line = timed_line(lines.pop(0))
                listening = max(cursor[0], mouth.busy_until) + AFTER_SPEECH_GUARD_S
                start = listening + offset if offset is not None else (max(cursor[0], mouth.busy_until) + SESSION_GAP_S)
                if line == "...":
                    if not prompt.timeout:
                        raise ValueError(f"{case.script}: '...' at an untimed prompt")
                    cursor[0] = listening + prompt.timeout + 0.03
                    return Understood(Outcome.TIMED_OUT)
                audio = voices.speak("piper-1", line)
                replies.append((start, audio))
                cursor[0] = start + voiced_until(audio) + ENDPOINT_WAIT_S  # when the live host answers
                return understand(prompt, line)

        journal = Journal(Path(work) / "db.sqlite3")
        session_id = journal.create(case.game, {"options": {}})
        log = EventLog(Path(work) / "events.jsonl", lambda: cursor[0])
        session = Session(
            get_game(case.game),
            case.options(),
            case.decks(),
            journal,
            SessionInfo(session_id, "fixtures"),
            log,
            PlayersReplying(),
            mouth,
            lambda: cursor[0],
        )
        session.start()
        outcome = session.run()
        mouth.close()
        sink.close()
        log.close()
        journal.close()
        if outcome is not Ending.OVER or lines:
            raise ValueError(f"{case.script}: the typed game did not play out ({outcome})")
        host, host_rate = soundfile.read(host_wav, dtype="float32")
    host = soxr.resample(host, host_rate, SAMPLE_RATE).astype(np.float32)
    total = max(len(host), int((cursor[0] + 2.0) * SAMPLE_RATE))
    recording = np.zeros(total, np.float32)
    recording[: len(host)] += ECHO_GAIN * host
    for start, audio in replies:
        begin = int(start * SAMPLE_RATE)
        recording[begin : begin + len(audio)] += audio[: max(0, total - begin)]
    out.parent.mkdir(parents=True, exist_ok=True)
    soundfile.write(out, np.clip(recording, -1, 1), SAMPLE_RATE, subtype="PCM_16")
    return out
