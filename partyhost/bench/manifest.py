"""Benchmarks: `partyhost bench accuracy` (shared/specs/manifest.md) and `bench latency`.

Accuracy runs each manifest utterance exactly as a live game would hear it at that
prompt, through the live ears' own listening (partyhost/listening_chain.py): the front
end lifts a quiet voice, the endpointer finds the speech in the file, the recogniser
reads it against the prompt's grammar (built from the manifest's context), the ears
weigh the readings, the matcher turns the best one into an intent. Timings are for
recognition and matching only (the audio is already loaded), as the spec asks.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypedDict

import numpy as np

from host.contract import Intent, JsonObject, Prompt
from host.games import grammar_slots, unclear_intent
from host.reply_policy import Verdict, decide
from partyhost.config import Settings
from partyhost.listening_chain import ListeningChain, endpointer_for, front_end, listening_chain
from partyhost.model_list import Measured, remember, whisper_label
from voice.audio_types import FRAME_SAMPLES, SAMPLE_RATE, Frame, Utterance
from voice.listening.audio_in import read_wav_16k
from voice.listening.pipeline import Reader
from voice.listening.reading import cut_sign
from voice.recognizers import DEFAULT_BACKEND
from voice.understanding.matcher import Matcher


class ManifestLine(TypedDict, total=False):
    """One line of a manifest (shared/specs/manifest.md): a recording, where it was said and what it means."""

    id: str
    wav: str
    game: str
    prompt: str
    context: JsonObject
    expect: Intent  # {"intent": "none"}: nothing should be done
    condition: str
    negative: bool


class Item(TypedDict):
    """One recording's result."""

    id: str
    condition: str
    prompt: str
    expect: Intent
    got: Intent | None
    heard: str
    asked: bool
    correct: bool
    negative: bool
    ms: float


class Rate(TypedDict):
    n: int
    accuracy: float
    acted_wrongly: float
    unasked: float
    asked: float


class Summary(TypedDict):
    n: int
    accuracy: float
    false_accepts: int
    negatives: int
    p50_ms: int
    p95_ms: int
    by_prompt: dict[str, Rate]
    by_condition: dict[str, Rate]


class AccuracyRun(TypedDict):
    summary: Summary
    items: list[Item]


def bench_prompt(name: str, slots: dict, timeout: float | None = None) -> Prompt:
    """A prompt as the ears get it, for a recording with no game around it: its grammar,
    live lists and timer (nobody in particular is asked, and nothing is said)."""
    return Prompt(name, None, "", slots=slots, timeout=timeout)


@dataclass(frozen=True)
class BenchReading:
    """One recording as a game would take it."""

    intent: Intent | None  # None: rejected, the host would ask again
    ms: float  # recognition and matching
    text: str  # the reading chosen
    asked: bool = False  # the host would ask "Did you mean ...?" before acting


def frames_of(audio: np.ndarray) -> list[Frame]:
    """A loaded recording as the 30 ms frames a microphone would give."""
    count = len(audio) // FRAME_SAMPLES
    return [
        Frame(audio[i * FRAME_SAMPLES : (i + 1) * FRAME_SAMPLES], i * FRAME_SAMPLES / SAMPLE_RATE) for i in range(count)
    ]


def first_utterance(audio: np.ndarray, settings: Settings | None = None) -> Utterance | None:
    """The first stretch of speech a game with these settings (None: the shipped ones)
    hears in a recording: its front end (the gain a quiet voice needs), then its endpointer."""
    settings = settings or Settings()
    front, endpointer = front_end(settings), endpointer_for(settings)
    for frame in frames_of(audio):
        utterance = endpointer.push(front.process(frame))
        if utterance is not None:
            return utterance
    return endpointer.flush()


def expected_matches(expect: Intent, got: Intent | None) -> bool:
    if expect.get("intent") == "none":
        return got is None
    return got is not None and all(got.get(key) == value for key, value in expect.items())


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


class Listener:
    """The live ears' listening (front end, endpointer, reader) and the matcher, for
    single recordings."""

    def __init__(
        self,
        reader: Reader,
        matcher: Matcher,
        grammar_slots_for: Callable[[str, dict], dict] = grammar_slots,
        unclear_for: Callable[[str], Intent | None] = unclear_intent,
        settings: Settings | None = None,
    ):
        """`reader`: the recogniser, second listener and check lines, as the live ears
        have them (partyhost/listening_chain.py reader_for); `settings`: whose front end and
        endpointer hear each recording (None: the shipped ones)."""
        self.chain = ListeningChain(settings or Settings(), reader)
        self.matcher = matcher
        self.slots_for, self.unclear_for = grammar_slots_for, unclear_for

    @property
    def reader(self) -> Reader:
        return self.chain.reader

    def understand(self, prompt_name: str, context: dict, audio: np.ndarray) -> BenchReading:
        utterance = first_utterance(audio, self.chain.settings)
        if utterance is None:
            return BenchReading(None, 0.0, "")
        prompt = bench_prompt(prompt_name, self.slots_for(prompt_name, context))
        started = time.perf_counter()
        reading = self.reader.read(self.matcher, prompt, utterance)
        if reading.rejected:  # as a live game: some prompts act on speech not understood
            intent, asked = self.unclear_for(prompt_name), False
        else:  # what the session decides (host.reply_policy.decide), on the reading's own match
            match = reading.match
            intent = match.intent if match is not None else None
            cut = bool(cut_sign(reading, self.matcher.table(prompt_name, prompt.slots)))
            verdict = (
                decide(match, reading.unsure, cut, utterance.snr_db, reading.agreed) if match is not None else None
            )
            asked = verdict is Verdict.ASK_FIRST
        return BenchReading(intent, (time.perf_counter() - started) * 1000, reading.text, asked)


def run_accuracy(
    manifest: Path,
    listener: Listener,
    json_out: Path | None = None,
    progress: bool = True,
    limit: int | None = None,
    only: Callable[[ManifestLine], bool] | None = None,
) -> AccuracyRun:
    """`limit`: only the manifest's first lines; `only`: only the lines it accepts."""
    lines = [line for line in manifest_lines(manifest)[:limit] if only is None or only(line)]
    items: list[Item] = []
    times: list[float] = []
    for number, line in enumerate(lines, start=1):
        prompt = prompt_name(line)
        audio = read_wav_16k(manifest.parent / line["wav"])
        heard = listener.understand(prompt, line.get("context") or {}, audio)
        negative = is_negative(line)
        correct = expected_matches(line["expect"], heard.intent) or (negative and heard.intent is None)
        times.append(heard.ms)
        items.append(
            {
                "id": line["id"],
                "condition": line.get("condition", ""),
                "prompt": prompt,
                "expect": line["expect"],
                "got": heard.intent,
                "heard": heard.text,
                "asked": heard.asked,
                "correct": correct,
                "negative": negative,
                "ms": round(heard.ms, 1),
            }
        )
        if progress and number % 50 == 0:
            done = sum(i["correct"] for i in items)
            print(f"  {number}/{len(lines)}  accuracy so far {done / number:.3f}", flush=True)
    summary = summarise(items)
    if json_out:
        json_out.write_text(json.dumps({"summary": summary, "items": items}, indent=1), encoding="utf-8")
    return {"summary": summary, "items": items}


def manifest_lines(manifest: Path) -> list[ManifestLine]:
    return [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()]


def prompt_name(line: ManifestLine) -> str:
    """The manifest line's prompt as the grammars name it ("game/prompt")."""
    return f"{line['game']}/{line['prompt']}" if line.get("game") else line["prompt"]


def is_negative(line: ManifestLine) -> bool:
    """Chatter, noise or music (`"negative": true` in the manifest): right when nothing
    is done, or (where a game acts on speech it did not understand, a Keep Cool clue)
    when it is taken as that."""
    return line["expect"].get("intent") == "none" or line.get("negative") is True


def summarise(items: list[Item]) -> Summary:
    """false_accepts: negatives that became any other move than the one expected."""
    negatives = [i for i in items if i["negative"]]
    false_accepts = sum(1 for i in negatives if not i["correct"])
    times = [i["ms"] for i in items if i["ms"] > 0]

    def by(key: Literal["prompt", "condition"]) -> dict[str, Rate]:
        return {name: _rate([i for i in items if i[key] == name]) for name in sorted({i[key] for i in items})}

    return {
        "n": len(items),
        "accuracy": _rate(items)["accuracy"],
        "false_accepts": false_accepts,
        "negatives": len(negatives),
        "p50_ms": round(percentile(times, 50)),
        "p95_ms": round(percentile(times, 95)),
        "by_prompt": by("prompt"),
        "by_condition": by("condition"),
    }


def _rate(items: list[Item]) -> Rate:
    """accuracy; "acted_wrongly", the share that became a move other than the one
    expected (a miss that is asked again costs a second, a wrong move costs an undo);
    "unasked", the share of those made without "Did you mean ...?" first; "asked",
    the share of all items the host would confirm before acting."""
    n = len(items)
    share = lambda count: round(count / n, 3) if n else 0.0  # noqa: E731
    wrong = [i for i in items if not i["correct"] and i["got"] is not None]
    return {
        "n": n,
        "accuracy": share(sum(i["correct"] for i in items)),
        "acted_wrongly": share(len(wrong)),
        "unasked": share(sum(not i.get("asked") for i in wrong)),
        "asked": share(sum(bool(i.get("asked")) for i in items)),
    }


def format_summary(summary: Summary) -> str:
    def table(title: str, rates: dict[str, Rate]) -> list[str]:
        return [f"{title:<34} {'n':>4}  accuracy  acted wrongly  unasked  asked first"] + [
            f"{name:<34} {v['n']:>4}  {v['accuracy']:.3f}     {v['acted_wrongly']:.3f}          "
            f"{v['unasked']:.3f}    {v['asked']:.3f}"
            for name, v in rates.items()
        ]

    rows = table("prompt", summary["by_prompt"]) + [""] + table("condition", summary["by_condition"])
    rows.append(
        f"accuracy={summary['accuracy']:.3f} false_accepts={summary['false_accepts']} "
        f"n={summary['n']} p50_ms={summary['p50_ms']} p95_ms={summary['p95_ms']}"
    )
    return "\n".join(rows)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    """The memory this process holds now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def measured_now(times: list[float], memory_mb: float) -> Measured:
    """The figures of one model's run over recordings (`times`: each reply's ms), dated today,
    as `models list` shows them."""
    p50, p95 = round(percentile(times, 50), 1), round(percentile(times, 95), 1)
    return Measured(p50, p95, round(memory_mb, 1), len(times), time.strftime("%Y-%m-%d"))


# ---- the commands ------------------------------------------------------------------

LATENCY_SENTENCES = [
    "Ana, where does it go?",
    "Ben, lower, right, or higher?",
    "Queen of hearts, 36. Count 88.",
    "Cy bids 12 clovers. Raise it, or say that's false.",
    "Team Ana, which question is closest to 50?",
    "The answer is 42. Correct! Ana scores 20 points.",
    "Round 2. Dee starts, and we go the other way.",
    "Sorry, I didn't catch that. You can say, for example: lower, or higher.",
]


def make_listener(settings: Settings, grammar: Path | None = None, whisper_model: str | None = None) -> Listener:
    """A listener reading as a live game with these settings would; with `grammar`,
    every prompt is that file's (a benchmark's own grammar), with no game context."""
    reader = listening_chain(settings, whisper_model).reader
    if grammar is None:
        return Listener(reader, Matcher(), settings=settings)
    return Listener(
        reader,
        Matcher(common=False, grammar_file=grammar),
        grammar_slots_for=lambda prompt, context: {},
        unclear_for=lambda prompt: None,
        settings=settings,
    )


def accuracy_command(manifest: Path, settings: Settings, grammar: Path | None, json_out: Path | None) -> int:
    result = run_accuracy(manifest, make_listener(settings, grammar), json_out)
    print(format_summary(result["summary"]))
    return 0


def latency_command(manifest: Path, settings: Settings, paced: bool = False, models_dir: Path | None = None) -> int:
    """End of speech to intent, TTS first audio and speed, idle listening CPU, peak memory;
    `paced`: also as a live game has it, clips played in real time (a few minutes). With
    Whisper, its figures are kept in `models_dir` for `models list`."""
    before = rss_mb()
    listener = make_listener(settings)
    memory = rss_mb() - before
    other_games = run_accuracy(manifest, listener, progress=False, only=lambda line: line.get("game") != "keep-cool")
    peak_other_games = peak_rss_mb()
    if listener.reader.second is not None:
        listener.reader.second.get()  # loaded before timing, and counted in the memory a Keep Cool game needs
    keep_cool = run_accuracy(manifest, listener, progress=False, only=lambda line: line.get("game") == "keep-cool")
    result = {"items": other_games["items"] + keep_cool["items"]}
    times = [i["ms"] for i in result["items"] if i["ms"] > 0]
    if paced:
        for name, values in paced_latency(manifest, listener).items():
            print(
                f"paced_{name}_p50_ms={percentile(values, 50):.0f} p95_ms={percentile(values, 95):.0f} "
                f"(n={len(values)}; from the frame that confirms the end to the reading)"
            )
    first, rtf = tts_latency()
    idle = idle_cpu_share(settings=settings)
    print(
        f"end_of_speech_to_intent_p50_ms={percentile(times, 50):.0f} "
        f"p95_ms={percentile(times, 95):.0f} (after the endpoint silence; n={len(times)})"
    )
    if models_dir is not None and (settings.backend or DEFAULT_BACKEND) == "whisper" and times:
        remember(models_dir, whisper_label(settings.whisper_model), measured_now(times, memory))
    others = [i["ms"] for i in result["items"] if i["ms"] > 0 and i["prompt"] != "keep-cool/word"]
    print(
        f"other_prompts_p50_ms={percentile(others, 50):.0f} p95_ms={percentile(others, 95):.0f} "
        f"(every prompt but a Keep Cool turn: read freely and decoded inside the grammar; n={len(others)})"
    )
    checked = [i["ms"] for i in result["items"] if i["ms"] > 0 and i["prompt"] == "keep-cool/word"]
    if checked:  # a Keep Cool turn: the word check and the second listener come on top
        print(
            f"keep_cool_turn_p50_ms={percentile(checked, 50):.0f} p95_ms={percentile(checked, 95):.0f} "
            f"(n={len(checked)})"
        )
    print(
        f"tts_first_audio_p50_ms={percentile(first, 50):.0f} p95_ms={percentile(first, 95):.0f} "
        f"rtf={statistics.median(rtf):.3f}"
    )
    print(f"idle_listening_cpu_share={idle:.4f} (of one core, front end and endpointer on room noise)")
    print(
        f"peak_rss_mb={peak_rss_mb():.0f} (with Keep Cool's second listener; "
        f"{peak_other_games:.0f} before it, as in a game of the other four)"
    )
    return 0


class PacedRecording:
    """A recording given frame by frame in real time, as a microphone gives it, that
    notes when it gave the last frame (the one that confirms the end of speech)."""

    def __init__(self, audio: np.ndarray):
        self._frames = frames_of(audio)
        self.last_given = 0.0

    def frames(self) -> Iterator[Frame]:
        started = time.perf_counter()
        for frame in self._frames:
            time.sleep(max(0.0, started + frame.t + FRAME_SAMPLES / SAMPLE_RATE - time.perf_counter()))
            self.last_given = time.perf_counter()
            yield frame

    def now(self) -> float:
        return 0.0

    def skip_until(self, t: float) -> None:
        pass

    def next_frame_t(self) -> float:
        return 0.0


def paced_latency(manifest: Path, listener: Listener, every: int = 4) -> dict[str, list[float]]:
    """End of the endpoint silence to the reading, as a live game has it: each clip
    played in real time into the ears (every `every`-th clip and every Keep Cool
    turn), in turn with and without reading ahead (voice/listening/ears.py). Milliseconds."""

    chosen = [
        line
        for number, line in enumerate(manifest_lines(manifest))
        if number % every == 0 or line.get("prompt") == "word"
    ]
    times: dict[str, list[float]] = {
        "read_ahead": [],
        "after_end": [],
        "read_ahead_keep_cool": [],
        "after_end_keep_cool": [],
    }
    for line in chosen:
        name = prompt_name(line)
        prompt = bench_prompt(name, listener.slots_for(name, line.get("context") or {}))
        audio = np.concatenate([read_wav_16k(manifest.parent / line["wav"]), np.zeros(SAMPLE_RATE, np.float32)])
        for mode in ("read_ahead", "after_end"):
            source = PacedRecording(audio)
            ears = listener.chain.ears(source, listener.matcher, read_ahead=mode == "read_ahead")
            if ears.hear(prompt) is None:
                continue  # no speech found: nothing to time
            ms = (time.perf_counter() - source.last_given) * 1000
            times[mode].append(ms)
            if name == "keep-cool/word":
                times[f"{mode}_keep_cool"].append(ms)
    return times


def tts_latency() -> tuple[list[float], list[float]]:
    from voice.speaking.tts import PiperTTS

    tts = PiperTTS()
    first, rtf = [], []
    for sentence in LATENCY_SENTENCES * 2:
        tts.clear_cache()
        started = time.perf_counter()
        pieces = tts.synthesize(sentence)
        audio = [next(pieces)]
        first.append((time.perf_counter() - started) * 1000)
        audio += list(pieces)
        seconds = sum(len(a) for a in audio) / tts.sample_rate
        rtf.append((time.perf_counter() - started) / seconds)
    return first, rtf


def idle_cpu_share(seconds: float = 20.0, settings: Settings | None = None) -> float:
    """CPU time the front end (gain, as the settings ask; None: as shipped) and the
    endpointer spend per second of quiet room sound (no speech)."""
    settings = settings or Settings()
    rng = np.random.default_rng(1)
    audio = (rng.standard_normal(int(seconds * SAMPLE_RATE)) * 0.003).astype(np.float32)
    endpointer, front = endpointer_for(settings), front_end(settings)
    started = time.process_time()
    for frame in frames_of(audio):
        endpointer.push(front.process(frame))
    return (time.process_time() - started) / seconds
