"""`partyhost bench pace`: how long the host talks, game by game, from the typed scripts.

Every whole-game script of tests/scripts/cases.yaml is played through the real
session (tests/replay.py). Its event log is cut at each prompt: what the host says
from the end of one reply up to and including the next question is the wait before
that player may answer. The first figure is what the host says before the first
prompt (its question not included; that question opens the first turn); the cuts
after it are the turns. Cuts that answer a request (score, repeat, rules, "read my
cards" ...) or a refused reply are counted apart: the players asked for them.

Seconds of speech come from the text at the voice's measured speaking rate
(SYLLABLES_PER_SECOND and PAUSE_SECONDS, measured with `--piper`), or, with
`--piper`, from Piper itself, every distinct line synthesised once.
"""
from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from host.games import get_game
from host.session import COMMON_INTENTS

from .bench import percentile

TESTS = Path(__file__).resolve().parent.parent / "tests"
"""The typed game scripts this benchmark plays live with the tests (a checkout, not a wheel)."""
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
from replay import ScriptCase, load_cases, play_script  # noqa: E402

SYLLABLES_PER_SECOND = 6.1
"""The shipped Piper voice at rate 1.0: a least-squares fit of Piper's own durations
for 400 of the scripts' host lines (2026-12-03, docs/rules.md)."""
PAUSE_SECONDS = 0.45
"""Silence Piper leaves at a sentence end or a clause break (same fit)."""

_PAUSE = re.compile(r"[.!?;:,](?=\s|$)")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+")


@dataclass
class CaseSpeech:
    """One script's host speech: before the first prompt, per turn, on request."""

    name: str
    game: str
    mode: str
    first: float = 0.0
    turns: list[float] = field(default_factory=list)
    requested: list[float] = field(default_factory=list)


def syllables(text: str) -> int:
    """Syllables Piper will say for `text`: numbers as words, vowels by the dictionary."""
    from voice.normalize import number_words
    from voice.vocabulary import load_dictionary, pronunciations

    dictionary = load_dictionary()
    count = 0
    for word in _WORD.findall(text.lower()):
        if word.isdigit():
            words = number_words(int(word)).split() if len(word) <= 4 else list(word)
        else:
            words = [word]
        for each in words:
            variants = pronunciations(each, dictionary) if not each.isdigit() else ()
            if variants:
                count += sum(1 for phone in variants[0] if phone[-1:].isdigit() or phone in _VOWELS)
            else:
                count += max(1, len(re.findall(r"[aeiouy]+", each)))
    return count


_VOWELS = frozenset("AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW".split())


def estimated_seconds(text: str) -> float:
    """Seconds of speech for `text` at the measured rate: syllables plus pauses."""
    return syllables(text) / SYLLABLES_PER_SECOND + len(_PAUSE.findall(text)) * PAUSE_SECONDS


def piper_seconds() -> Callable[[str], float]:
    """Seconds of speech measured by synthesising each distinct text once with Piper."""
    from voice.tts import PiperTTS

    tts = PiperTTS(noise_scale=0.0)
    known: dict[str, float] = {}

    def seconds(text: str) -> float:
        if text not in known:
            known[text] = sum(len(piece) for piece in tts.synthesize(text)) / tts.sample_rate
        return known[text]
    return seconds


def case_speech(case: ScriptCase, events: list[dict], seconds: Callable[[str], float]) -> CaseSpeech:
    """Cut one game's event log at its prompts and add up the speech of each cut."""
    info = set(getattr(get_game(case.game), "INFO_INTENTS", ())) | COMMON_INTENTS
    result = CaseSpeech(case.script, case.game, case.mode or get_game(case.game).MODES[0])
    spoken, requested, prompts = 0.0, False, 0
    after_prompt = False
    for event in events:
        kind = event["type"]
        if kind == "prompt":
            after_prompt = True
            continue
        if kind == "say":
            if after_prompt and prompts == 0:      # before the first prompt: not its question
                _close(result, prompts, spoken, requested)
                prompts, spoken, requested = 1, 0.0, False
            spoken += seconds(event["text"])
            if after_prompt:                       # the question itself closes the cut
                _close(result, prompts, spoken, requested)
                prompts, spoken, requested = prompts + 1, 0.0, False
            after_prompt = False
            continue
        if kind in ("heard", "intent", "rejected") and after_prompt:
            _close(result, prompts, spoken, requested)    # a prompt without words (a cue)
            prompts, spoken, requested = prompts + 1, 0.0, False
        if kind == "intent" and event["intent"].get("intent") in info or kind == "rejected":
            requested = True
        if kind != "sound":
            after_prompt = False
    if spoken:
        _close(result, prompts, spoken, requested)
    return result


def _close(result: CaseSpeech, index: int, spoken: float, requested: bool) -> None:
    if index == 0:
        result.first = spoken
    elif requested:
        result.requested.append(spoken)
    else:
        result.turns.append(spoken)


def measure(use_piper: bool = False, cases: list[ScriptCase] | None = None) -> list[CaseSpeech]:
    """Play every script and measure its host speech."""
    seconds = piper_seconds() if use_piper else estimated_seconds
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for number, case in enumerate(cases or load_cases()):
            transcript = play_script(case, Path(folder) / str(number))
            events = [json.loads(line) for line in transcript.events.read_text().splitlines()]
            results.append(case_speech(case, events, seconds))
    return results


def summary(results: list[CaseSpeech]) -> list[dict]:
    """One row per game and mode (scripts of the same game and mode pooled)."""
    rows: dict[tuple[str, str], dict] = {}
    for result in results:
        row = rows.setdefault((result.game, result.mode), {
            "game": result.game, "mode": result.mode, "first": [], "turns": [], "requested": []})
        row["first"].append(result.first)
        row["turns"] += result.turns
        row["requested"] += result.requested
    return [{"game": row["game"], "mode": row["mode"], "scripts": len(row["first"]),
             "first_s": max(row["first"]),
             "turn_mean_s": statistics.fmean(row["turns"]) if row["turns"] else 0.0,
             "turn_p95_s": percentile(row["turns"], 95), "turns": len(row["turns"]),
             "requested_mean_s": statistics.fmean(row["requested"]) if row["requested"] else 0.0,
             "requested": len(row["requested"])}
            for row in rows.values()]


def command(use_piper: bool = False, json_path: Path | None = None) -> int:
    rows = summary(measure(use_piper))
    how = "synthesised with Piper" if use_piper else (
        f"estimated at {SYLLABLES_PER_SECOND} syllables a second, {PAUSE_SECONDS} s a pause")
    print(f"Seconds of host speech, {how}.")
    print(f"{'game':<13}{'mode':<11}{'first':>7}{'turn mean':>11}{'p95':>7}{'turns':>7}"
          f"{'asked for':>11}")
    for row in rows:
        print(f"{row['game']:<13}{row['mode']:<11}{row['first_s']:>7.1f}{row['turn_mean_s']:>11.1f}"
              f"{row['turn_p95_s']:>7.1f}{row['turns']:>7}"
              f"{row['requested_mean_s']:>8.1f} x{row['requested']}")
    if json_path:
        json_path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0
