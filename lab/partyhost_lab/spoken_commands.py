"""`partyhost bench commands`: the common commands said at every kind of prompt, and the
prompts' own replies, by voices no tuning used, through the live ears.

A command is how a table recovers from every other mistake, so it must be heard at
any prompt and nothing else may be taken for one. Every command of COMMANDS is said at
each kind of prompt (prompts(): open questions; the narrowed questions "which card: 1,
2 or 3?", "Card 1?" and the power card, and "Did you mean ...?", as the host asks them;
a Keep Cool turn with the prefix "host, ..."), and so are a few of each prompt's own
replies, in four rooms (ROOMS, as `bench table` has them: clean, a party's noise 10 dB
below the voice, a lively table's talk closer and 5 dB below it, a quiet player). Each
clip goes through the ears of a game with the given settings (front end, endpointer, wake
word watch, reader and checks), and is counted as the session would take it
(host.reply_policy.decide):

- commands heard and done: the command, acted on unasked (and the same of those said at
  the narrowed questions and "Did you mean ...?");
- commands taken as another move: another move or command acted on unasked;
- replies taken as a command: a reply acted on unasked as a command;
- wake fires: the wake word detected in a clip with no wake word in it, and clips
  lost to "wake word alone" (answered "Yes?" and not acted on).

The voices (HELD_APART) appear in no other bench, no test and no tuning.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from host.contract import Intent, Prompt
from host.engine import NARROW_LIST_MAX
from host.narrowing import SOMETHING_ELSE, list_question, question_alone
from partyhost.bench.manifest import bench_prompt
from partyhost.config import Settings
from partyhost.listening_chain import listening_chain
from partyhost_lab.synthetic_speech import Voices, mix_at_snr
from voice.audio_types import SAMPLE_RATE, Frame
from voice.listening.wake import WakeWatch
from voice.speaking.mixing import at_level, padded

HELD_APART = ("piper-0.88", "piper-1.08", "espeak-en-us+Andrea", "espeak-en-gb+travis", "espeak-en-us+female3")
"""Voices no other bench, test or tuning uses."""
COMMANDS = {
    "undo": "undo",
    "repeat that": "repeat",
    "what's the score": "score",
    "whose turn is it": "whose_turn",
    "read the table": "read_table",
    "help": "help",
    "what can I say": "what_can_i_say",
    "pause": "pause",
}
"""The eight common commands, as a player says them, and the intent each means."""
ROOMS = ("clean", "party", "lively", "quiet")
VOICE_DBFS, QUIET_DBFS = -23.0, -35.0
NOISY_ROOMS = {"party": 10.0, "lively": 5.0}
"""As `bench table` (lab/partyhost_lab/table.py): a player across the table, the quiet one,
and how far the noisy rooms' noise is below the voices."""
REPLIES_PER_PROMPT = 4
NARROWED = "narrowed: "
"""How the kinds of prompt asked after a reply the host could not use begin (prompts())."""
KEEP_COOL = {"words": ["kettle", "candle", "pencil", "lemon"], "roster": ["Ana", "Ben", "Cy"]}
ZERO_TO_100 = {
    "hand": ["How tall is the Eiffel tower in metres?", "How many keys has a piano?"],
    "powers": ["50", "20", "spot_on"],
    "teams": [["Ana"], ["Ben"]],
}


@dataclass
class Counts:
    """What became of the clips of one room."""

    commands: int = 0
    done: int = 0
    narrowed: int = 0  # commands said at a narrowed question or "Did you mean ...?"
    narrowed_done: int = 0
    as_other: int = 0
    replies: int = 0
    reply_as_command: int = 0
    bare: int = 0  # clips with no wake word or prefix in them
    wake_fires: int = 0
    lost_to_wake: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def figures(self) -> dict[str, str]:
        clips = self.commands + self.replies
        return {
            "commands heard and done": _share(self.done, self.commands),
            "commands at narrowed questions heard and done": _share(self.narrowed_done, self.narrowed),
            "commands taken as another move": _share(self.as_other, self.commands),
            "replies taken as a command": _share(self.reply_as_command, self.replies),
            "wake fires on bare commands and replies": _share(self.wake_fires, self.bare),
            "lost to the wake word alone": _share(self.lost_to_wake, clips),
        }


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "0/0"


def prompts() -> dict[str, Prompt]:
    """One prompt of each kind, with the live lists a game gives it; the narrowed
    questions and "Did you mean ...?" as the host asks them at Zero to 100's card
    (host/narrowing.py, host/clarifying.py): each hears its own few answers and the commands."""
    from host.contract import joined_prompt
    from host.games import grammar_slots
    from host.narrowing import CHOICE_PROMPT, YES_NO_PROMPT, narrowed_prompt

    own = grammar_slots("zero-to-100/choose_card", ZERO_TO_100)
    card = _zero_to_100_card()
    narrow = card.narrow
    assert narrow is not None  # the engine narrows its card ...
    labels = [c.label for c in narrow.choices]
    first = narrow.choices[0]
    power = first.then
    assert power is not None  # ... then the power card
    powers = power.choices[: NARROW_LIST_MAX - 1]  # the first breath of the list, "something else" after it
    power_labels = [c.label for c in powers] + [SOMETHING_ELSE]
    return {
        "open: Keep It 100's prediction": bench_prompt("keep-it-100/predict", {}),
        "open: Zero to 100's card": bench_prompt("zero-to-100/choose_card", own),
        f"{NARROWED}which card": narrowed_prompt(
            card, CHOICE_PROMPT, list_question(card.player, narrow.question, labels), narrow.choices, labels
        ),
        f"{NARROWED}Card 1?": narrowed_prompt(card, YES_NO_PROMPT, question_alone(first), narrow.choices, labels),
        f"{NARROWED}the power card": narrowed_prompt(
            card,
            CHOICE_PROMPT,
            list_question(card.player, power.question, power_labels[:-1], True),
            powers,
            power_labels,
        ),
        f"{NARROWED}Did you mean": bench_prompt(joined_prompt(YES_NO_PROMPT, "zero-to-100/choose_card"), own),
        "Keep Cool turn, after host": bench_prompt("keep-cool/word", grammar_slots("keep-cool/word", KEEP_COOL), 8.0),
    }


def _zero_to_100_card() -> Prompt:
    """Zero to 100's first prompt as the engine asks it (three cards, power cards in hand),
    with the narrowed questions it offers."""
    from host.decks import load_game_decks
    from host.engine import GameOptions
    from host.games import dealing, get_game

    game = get_game("zero-to-100")
    options = GameOptions(
        players=("Ana", "Ben", "Cy"),
        teams=(("Ana",), ("Ben",), ("Cy",)),
        mode="basic",
        deal=game.deals[0],
        seed=7,
        rules={"hand_size": 3},
    )
    state, _ = game.setup(options, load_game_decks(game.deck, [], question_games=dealing("questions")))
    prompt = game.prompt(state)
    assert prompt is not None
    return prompt


def replies(prompt: Prompt, seed: int) -> list[tuple[str, Intent | None]]:
    """A few of the prompt's own replies (never a common command), chosen by seed; at a
    Keep Cool turn, words in play and clues."""
    from voice.understanding.matcher import Matcher

    if prompt.name == "keep-cool/word":
        return [("kettle", None), ("lemon", None), ("banana", None), ("umbrella", None)]
    table = Matcher().table(prompt.name, prompt.slots)
    common = common_intents()
    own = sorted(
        {
            text: intent for text, intent in table.examples if intent is not None and intent["intent"] not in common
        }.items()
    )
    return random.Random(seed).sample(own, min(REPLIES_PER_PROMPT, len(own)))


def common_intents() -> frozenset[str]:
    from voice.understanding.grammar import COMMON_PROMPT, load_grammar

    return frozenset(load_grammar("common").prompts[COMMON_PROMPT])


def in_room(speech: np.ndarray, room: str, noise: np.ndarray | None, rng: random.Random) -> np.ndarray:
    """The clip padded with silence, at the room's level, in its noise (a noisy room's)."""
    level = QUIET_DBFS if room == "quiet" else VOICE_DBFS
    clip = np.concatenate([padded(at_level(speech, level)), np.zeros(SAMPLE_RATE, np.float32)])
    if room in NOISY_ROOMS and noise is not None:
        clip = mix_at_snr(clip, noise, NOISY_ROOMS[room], rng)
    return clip.astype(np.float32)


def measure(
    voices: Voices,
    voice_names: tuple[str, ...] = HELD_APART,
    rooms: tuple[str, ...] = ROOMS,
    settings: Settings | None = None,
    seed: int = 5,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Counts]:
    """The counts of each room (see the module docstring), heard as a game with these
    settings (None: as shipped) hears."""
    from host.contract import Outcome
    from host.reply_policy import acts
    from partyhost_lab.chatter import party_noise
    from partyhost_lab.wake import ClipSource
    from voice.understanding.matcher import Matcher

    chain, matcher = listening_chain(settings or Settings()), Matcher()
    noises = {room: party_noise(60.0, lively=room == "lively") for room in rooms if room in NOISY_ROOMS}
    common, rng = common_intents(), random.Random(seed)
    counts = {room: Counts() for room in rooms}
    for kind, prompt in prompts().items():
        prefix = "host, " if prompt.name == "keep-cool/word" else ""
        said: list[tuple[str, Intent | None, bool]] = [
            (prefix + text, {"intent": intent}, True) for text, intent in COMMANDS.items()
        ]
        said += [(text, intent, False) for text, intent in replies(prompt, seed)]
        for voice in voices.names_given(voice_names):
            for text, expect, is_command in said:
                speech = voices.speak(voice, text)
                for room in rooms:
                    shipped = chain.wake()
                    wake = _CountingWatch(shipped.detector) if shipped is not None else None
                    clip = in_room(speech, room, noises.get(room), rng)
                    ears = chain.ears(ClipSource(clip), matcher, wake=wake)
                    heard = ears.hear(prompt)
                    acted = (
                        heard is not None
                        and heard.intent is not None
                        and (heard.outcome is Outcome.DECIDED or acts(heard))
                    )
                    got = heard.intent if heard is not None and acted else None
                    c = counts[room]
                    if not prefix:
                        c.bare += 1
                        c.wake_fires += wake is not None and wake.fired > 0
                    c.lost_to_wake += heard is not None and heard.outcome is Outcome.WOKEN
                    if is_command:
                        c.commands += 1
                        c.done += got == expect
                        if kind.startswith(NARROWED):
                            c.narrowed += 1
                            c.narrowed_done += got == expect
                        c.as_other += got is not None and got != expect
                    else:
                        c.replies += 1
                        c.reply_as_command += got is not None and got["intent"] in common
                    wrong = got is not None and (got != expect if is_command else got["intent"] in common)
                    if wrong or (is_command and got is None):
                        c.examples.append(
                            {
                                "prompt": kind,
                                "voice": voice,
                                "room": room,
                                "said": text,
                                "read": heard.text if heard is not None else None,
                                "outcome": heard.outcome.value if heard is not None else None,
                                "reason": heard.reason if heard is not None else None,
                                "acted on": got,
                            }
                        )
        if progress:
            progress(f"{kind}: done")
    return counts


class _CountingWatch(WakeWatch):
    """The wake word's watch, counting its fires."""

    fired = 0

    def see(self, frame: Frame) -> bool:
        seen = super().see(frame)
        self.fired += seen
        return seen


def command(
    voice_names: tuple[str, ...] = HELD_APART,
    rooms: tuple[str, ...] = ROOMS,
    settings: Settings | None = None,
    json_path: Path | None = None,
) -> int:
    """Measure and print the figures of each room; `json_path`: also every miss, there."""
    counts = measure(Voices(noise_scale=0.0), voice_names, rooms, settings, progress=print)
    print(f"voices: {', '.join(voice_names)}")
    for room, c in counts.items():
        print(f"{room}:")
        for name, figure in c.figures().items():
            print(f"  {name}: {figure}")
    if json_path is not None:
        json_path.write_text(
            json.dumps({room: {**c.figures(), "misses": c.examples} for room, c in counts.items()}, indent=1),
            encoding="utf-8",
        )
    return 0
