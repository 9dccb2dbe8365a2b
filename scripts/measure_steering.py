#!/usr/bin/env python3
"""How often the recogniser writes a phrase it was steered with that was not said.

    scripts/measure_steering.py [--voices held-apart|tuning|commands|V1,V2] [--cases ...] [--json FILE]

Whisper is steered by the prompt's phrases (its previous-text prompt,
voice/asr/whisper.py prompt_text): "we play the first one" is written for "the bowling
one" because the prompt says it. Every line of the typed whole-game scripts
(lab/scripted_games, played in-process to find the prompt each line answers and what
it means) is said by each voice, in the clean room of `bench commands`, and heard
through a game's ears (front end, endpointer, reader, checks; host.contract.decide).
For each reading it counts:

- a prompt phrase not said: the recogniser's words are one of the phrases of its
  steering prompt, and not the line said; "another move": that phrase means
  something other than the line (a harmless rewording, "we play card one" for "card
  one", is not counted there);
- the same for the recogniser's reading of the same utterance with no prompt at all;
- what the host did: acted on the line's move unasked, acted on another move unasked
  (the figure a steered reading spoils), asked first, or asked again.

The voice tables are those of `bench table` (lab/partyhost_lab/table.py: held-apart
and tuning) and `bench commands`' held-apart voices ("commands").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.contract import Outcome, Prompt  # noqa: E402
from host.reply_policy import Verdict, verdict  # noqa: E402
from partyhost.config import Settings  # noqa: E402
from partyhost.listening_chain import listening_chain  # noqa: E402
from partyhost_lab import spoken_commands, table  # noqa: E402
from partyhost_lab.scripted import SILENCE, load_cases, play_script  # noqa: E402
from partyhost_lab.synthetic_speech import Voices  # noqa: E402
from partyhost_lab.wake import ClipSource  # noqa: E402
from voice.listening.reading import Reading  # noqa: E402
from voice.understanding.matcher import Matcher  # noqa: E402
from voice.understanding.normalize import normalize  # noqa: E402

VOICE_TABLES = {"held-apart": table.HELD_APART, "tuning": table.TUNING, "commands": spoken_commands.HELD_APART}


def lines_at_prompts(
    cases: list[str] | None, per_game: int, seed: int = 5
) -> list[tuple[str, Prompt, str, dict[str, Any] | None]]:
    """(case, prompt, line, the move the line means) for the lines of the scripts, each
    line once per prompt name, at most `per_game` of each game (chosen by `seed`).
    Keep Cool's words in play are left out unless named: their prompt has checks of
    its own (voice/listening/wordcheck.py, second_opinion.py)."""
    seen: set[tuple[str, str]] = set()
    by_game: dict[str, list[tuple[str, Prompt, str, dict[str, Any] | None]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for i, case in enumerate(load_cases()):
            named = cases is not None and (case.script in cases or case.game in cases)
            if (cases and not named) or (case.game == "keep-cool" and not named):
                continue
            for exchange in play_script(case, Path(folder) / str(i)).exchanges:
                key = (exchange.prompt.name, exchange.line)
                if exchange.line == SILENCE or key in seen:
                    continue
                seen.add(key)
                by_game.setdefault(case.game, []).append((case.script, exchange.prompt, exchange.line, exchange.intent))
    rng = random.Random(seed)
    return [
        line
        for lines in by_game.values()
        for line in (lines if len(lines) <= per_game else rng.sample(lines, per_game))
    ]


def measure(
    voice_names: tuple[str, ...], cases: list[str] | None, per_game: int, settings: Settings
) -> list[dict[str, Any]]:
    chain, matcher, voices = listening_chain(settings), Matcher(), Voices(noise_scale=0.0)
    recognizer = chain.reader.recognizer
    unprompted = recognizer.compile([])
    rng = random.Random(5)
    rows = []
    corpus = lines_at_prompts(cases, per_game)
    print(f"{len(corpus)} lines at their prompts, {len(voice_names)} voices", flush=True)
    for n, (case, prompt, line, expect) in enumerate(corpus):
        graph = matcher.table(prompt.name, prompt.slots)
        phrases = recognizer.compile(graph.texts).written
        said = normalize(line, strip_fillers=False)
        for voice in voice_names:
            readings: list[Reading] = []
            clip = spoken_commands.in_room(voices.speak(voice, line), "clean", None, rng)
            ears = chain.ears(ClipSource(clip), matcher, on_reading=readings.append, read_ahead=False)
            heard = ears.hear(prompt)
            free = next((h.text for h in readings[-1].hypotheses if h.text), "") if readings else ""
            plain = ""
            if readings:
                bare = recognizer.recognize(readings[-1].utterance.audio, unprompted)
                plain = bare[0].text if bare else ""
            evidence = _evidence(recognizer, readings[-1], graph, phrases) if readings else None
            acted = heard is not None and heard.intent is not None and verdict(heard) is Verdict.ACT
            acted = acted or (heard is not None and heard.outcome is Outcome.DECIDED)
            got = heard.intent if heard is not None and acted else None
            rows.append(
                {
                    "case": case,
                    "prompt": prompt.name,
                    "voice": voice,
                    "said": line,
                    "expect": expect,
                    "free": free,
                    "unprompted": plain,
                    "steered": _unsaid(free, said, phrases, graph, expect),
                    "steered_unprompted": _unsaid(plain, said, phrases, graph, expect),
                    "chosen": heard.text if heard is not None else None,
                    "verdict": verdict(heard).value if heard is not None else None,
                    "outcome": heard.outcome.value if heard is not None else None,
                    "got": got,
                    "right": got is not None and got == expect,
                    "wrong": got is not None and got != expect,
                    "asked": heard is not None and verdict(heard) is Verdict.ASK_FIRST and not acted,
                    "evidence": evidence,
                }
            )
        print(f"{n + 1}/{len(corpus)} {prompt.name}: {line}", flush=True)
    return rows


def _evidence(recognizer: Any, reading: Reading, graph: Any, phrases: frozenset[str]) -> dict[str, Any] | None:
    """Where the recogniser's words are a phrase of its prompt: that phrase and Whisper's own
    unprompted readings, each scored unprompted (log-likelihood), and whether each
    unprompted reading means the same move."""
    free = next((h.text for h in reading.hypotheses if h.text), "")
    words = normalize(free, strip_fillers=False)
    if words not in phrases:
        return None
    written = " " + words[:1].upper() + words[1:] + "."
    scores, unprompted = recognizer.score_texts(reading.utterance.audio, [written], 3)
    meant = graph.match(words).intent
    return {
        "phrase": written,
        "ll": round(scores[0], 3),
        "unprompted": [
            (text, round(ll, 3), graph.match(normalize(text, strip_fillers=False)).intent == meant)
            for text, ll in unprompted
        ],
    }


def _unsaid(reading: str, said: str, phrases: frozenset[str], graph: Any, expect: dict[str, Any] | None) -> str:
    """ "" when the reading is no steering phrase or is what was said; "same move" when it
    is another phrase meaning the line's move; "another move" otherwise."""
    words = normalize(reading, strip_fillers=False)
    if not words or words not in phrases or words == said:
        return ""
    meant = graph.match(words).intent
    return "same move" if expect is not None and meant == expect else "another move"


def report(rows: list[dict[str, Any]]) -> None:
    def share(part: int, whole: int) -> str:
        return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "0/0"

    m = len(rows)
    print(f"{m} readings")
    for key, label in (("steered", "with the prompt"), ("steered_unprompted", "without the prompt")):
        kinds = Counter(r[key] for r in rows)
        unsaid = kinds["same move"] + kinds["another move"]
        print(
            f"  {label}: a prompt phrase not said {share(unsaid, m)}, "
            f"meaning another move {share(kinds['another move'], m)}"
        )
    steered = [r for r in rows if r["steered"] == "another move"]
    wrong, asked = sum(r["wrong"] for r in steered), sum(r["asked"] for r in steered)
    print(
        f"  those meaning another move: acted on unasked {share(wrong, len(steered))}, "
        f"asked first {share(asked, len(steered))}"
    )
    right, wrong, asked = (sum(r[key] for r in rows) for key in ("right", "wrong", "asked"))
    print(
        f"  every reading: right unasked {share(right, m)}, wrong unasked {share(wrong, m)}, "
        f"asked first {share(asked, m)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--voices", default="held-apart", help="held-apart, tuning, commands, or comma-separated voices"
    )
    parser.add_argument("--cases", help="comma-separated scripts or games (default: all)")
    parser.add_argument("--per-game", type=int, default=40, help="lines of each game at most (default 40)")
    parser.add_argument("--json", type=Path, help="write every reading here")
    parser.add_argument("--from-json", type=Path, help="report an earlier --json run again")
    args = parser.parse_args()
    if args.from_json:
        report(json.loads(args.from_json.read_text()))
        return 0
    voices = VOICE_TABLES.get(args.voices) or tuple(v.strip() for v in args.voices.split(",") if v.strip())
    cases = [c.strip() for c in args.cases.split(",")] if args.cases else None
    rows = measure(voices, cases, args.per_game, Settings())
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
