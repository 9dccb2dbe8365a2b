#!/usr/bin/env python3
"""Moves that cannot be taken back, by voice: how surely they are read, and how a
correction of one sounds against the speech; print the tables.

    scripts/measure_reveals.py [--voices tuning] [--rooms clean,party,quiet] [--json FILE] [--ends-only]

Replies to prompts whose moves show something hidden (Keep It 100's prediction, Zero to
100's card, 1%'s dice, Centurion's card against the host), said by the tuning voices of
`bench table` in its three rooms, each heard by the live ears of a game with the shipped
settings (front end, endpointer, reader: partyhost/listening_chain.py). For every reply
acted on unasked it records the confidence and whether the move was the one said, which
gives what host/clarifying.py SURE_TO_REVEAL costs (right replies asked about) and
catches (wrong moves not acted on unasked); and the likeness of a correction
(host/corrections.py CORRECTION_NATS): for a right reply, every other move of the
prompt claimed instead (a false claim); for a wrong one, the move said (a true
correction). Tuning voices only: the held-apart ones are for reporting
(docs/recognition.md).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from host.contract import Outcome, Prompt
from host.games import grammar_slots
from host.reply_policy import acts
from partyhost.bench.manifest import bench_prompt
from partyhost.config import Settings
from partyhost.listening_chain import listening_chain
from partyhost_lab.chatter import party_noise
from partyhost_lab.spoken_commands import in_room
from partyhost_lab.synthetic_speech import Voices
from partyhost_lab.table import TUNING
from partyhost_lab.wake import ClipSource
from voice.understanding.matcher import Matcher

ZERO_TO_100 = {
    "hand": ["How tall is the Eiffel tower in metres?", "How many keys has a piano?", "How old is the Earth?"],
    "powers": [],
    "teams": [["Ana"], ["Ben"]],
}
REPLIES: dict[str, tuple[str, list[str]]] = {
    "Keep It 100's prediction": (
        "keep-it-100/predict",
        ["lower", "right", "higher", "I think it's lower", "it's higher"],
    ),
    "Zero to 100's card": ("zero-to-100/choose_card", ["card one", "card two", "the piano one", "the eiffel one"]),
    "1%'s dice": ("one-percent/dice", ["nine and three", "six and two", "four and four", "one and five"]),
    "Centurion's card": (
        "centurion/play_card",
        ["queen of hearts", "the nine of clubs", "two of spades", "ace of diamonds"],
    ),
    "Centurion's last card, two people": (
        "centurion/play_card",
        ["the 8 of spades", "i'll play the ace of clubs", "um, the queen of clubs", "the 9 of hearts"],
    ),
    "Centurion's joker question": ("centurion/joker_steal", ["pass", "i'll pass", "no joker", "play my joker"]),
}
ENDS_ONLY = ("Centurion's last card, two people", "Centurion's joker question")
"""Moves that end `bench table`'s two games between two people (scripts/measure_game_ends.py):
shown to nobody, they are held to the line only because they end the game (since 2026-12-08)."""
CONTEXTS: dict[str, dict[str, Any]] = {"zero-to-100/choose_card": ZERO_TO_100}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voices", default=",".join(TUNING), help="comma-separated voices (default: the tuning table)")
    parser.add_argument("--rooms", default="clean,party,quiet")
    parser.add_argument("--json", type=Path, help="write every reading here")
    parser.add_argument("--ends-only", action="store_true", help="only the moves final because they end the game")
    args = parser.parse_args()
    kinds = ENDS_ONLY if args.ends_only else tuple(REPLIES)
    rows = measure(tuple(args.voices.split(",")), tuple(args.rooms.split(",")), kinds)
    report(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


def measure(voice_names: tuple[str, ...], rooms: tuple[str, ...], kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    voices, matcher = Voices(), Matcher()
    chain = listening_chain(Settings())
    noise = party_noise(60.0) if "party" in rooms else None
    rng = random.Random(7)
    rows: list[dict[str, Any]] = []
    for kind in kinds:
        name, said = REPLIES[kind]
        context = CONTEXTS.get(name, {})
        prompt = bench_prompt(name, grammar_slots(name, context))
        table = matcher.table(prompt.name, prompt.slots)
        meant = {text: table.match(text).intent for text in said}
        for voice in voices.names_given(voice_names):
            for text in said:
                speech = voices.speak(voice, text)
                for room in rooms:
                    ears = chain.ears(ClipSource(in_room(speech, room, noise, rng)), matcher)
                    heard = ears.hear(prompt)
                    if heard is None or heard.outcome is not Outcome.REPLY or heard.intent is None:
                        continue
                    row = {
                        "kind": kind,
                        "voice": voice,
                        "room": room,
                        "said": text,
                        "read": heard.text,
                        "acted": acts(heard),
                        "right": heard.intent == meant[text],
                        "confidence": round(heard.evidence.confidence or 0.0, 3),
                    }
                    row["claims"] = _claims(ears, heard, prompt, text, said, meant, row["right"])
                    rows.append(row)
    return rows


def _claims(ears, heard, prompt: Prompt, text: str, said: list[str], meant: dict, right: bool) -> list[dict]:
    """The likeness of each correction of this reading: false claims where it was read
    right (every other move of the prompt), the true one where it was read wrong."""
    others = [t for t in said if meant[t] != meant[text]] if right else [text]
    out = []
    for claim in others:
        likeness = ears.likeness(heard, prompt, claim)
        if likeness is not None:
            out.append({"claim": claim, "true": not right, "nats": likeness.nats, "in_readings": likeness.in_readings})
    return out


def report(rows: list[dict[str, Any]]) -> None:
    acted = [r for r in rows if r["acted"]]
    right = [r["confidence"] for r in acted if r["right"]]
    wrong = [r["confidence"] for r in acted if not r["right"]]
    print(f"acted on unasked: {len(acted)} of {len(rows)} replies; right {len(right)}, wrong {len(wrong)}")
    print("| line | right ones asked first | wrong ones still acted on |\n|---|---|---|")
    for line in (0.7, 0.8, 0.85, 0.9, 0.95):
        asked = sum(c < line for c in right)
        kept = sum(c >= line for c in wrong)
        print(f"| {line} | {asked}/{len(right)} | {kept}/{len(wrong)} |")
    claims = [c for r in rows for c in r["claims"]]
    false = [c for c in claims if not c["true"]]
    true = [c for c in claims if c["true"]]
    print(f"\ncorrections scored: {len(false)} false claims, {len(true)} true corrections")
    print("| nats line | false claims taken without the table | true corrections taken without the table |")
    print("|---|---|---|")
    for line in (-2.0, -4.0, -6.0, -8.0):
        taken_false = sum(c["in_readings"] or (c["nats"] is not None and c["nats"] >= line) for c in false)
        taken_true = sum(c["in_readings"] or (c["nats"] is not None and c["nats"] >= line) for c in true)
        print(f"| {line} | {taken_false}/{len(false)} | {taken_true}/{len(true)} |")
    for r in rows:
        if r["acted"] and not r["right"]:
            print(f"  wrong: {r['voice']} {r['room']} said {r['said']!r} read {r['read']!r} at {r['confidence']}")


if __name__ == "__main__":
    raise SystemExit(main())
