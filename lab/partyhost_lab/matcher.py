"""`partyhost bench matcher`: how fast grammars load and replies match, and their memory.

The replies are paths through each prompt's own graph, chosen at random (seeded),
as said and with one word dropped or swapped for another of the grammar's words: the
matcher's work on a reading a recogniser could give. Times are CPU seconds of this
process (the matcher alone, no audio), as percentiles.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from dataclasses import dataclass

from host.games import game_ids, grammar_slots
from partyhost.bench.manifest import percentile
from partyhost_lab.places import CHECKOUT
from voice.understanding.grammar import Grammar, load_grammar
from voice.understanding.graph import WordGraph
from voice.understanding.matcher import Matcher
from voice.understanding.phonetic import sound_of

EXAMPLE = CHECKOUT / "docs" / "examples" / "coffee_maker.yaml"


@dataclass
class Timing:
    name: str
    load_ms: float
    arcs: int
    match_ms: list[float]

    def row(self) -> str:
        return (
            f"{self.name:34} load {self.load_ms:7.1f} ms  arcs {self.arcs:6}  "
            f"match p50 {percentile(self.match_ms, 50):5.2f} ms  p95 {percentile(self.match_ms, 95):5.2f} ms"
        )


def random_path(graph: WordGraph, rng: random.Random) -> list[str]:
    out: dict[int, list[int]] = {}
    for arc, s in enumerate(graph.src.tolist()):
        out.setdefault(s, []).append(arc)
    finals, state, words = set(graph.finals.tolist()), graph.start, []
    while state in out and not (state in finals and rng.random() < 0.3):
        arc = rng.choice(out[state])
        if graph.word[arc] >= 0:
            words.append(graph.words[graph.word[arc]])
        state = int(graph.dst[arc])
    return words


def readings(graph: WordGraph, count: int, rng: random.Random) -> list[str]:
    """Paths as said, and with one word dropped or swapped."""
    found = []
    for _ in range(count):
        words = random_path(graph, rng)
        if words and rng.random() < 0.5:
            i = rng.randrange(len(words))
            if rng.random() < 0.5:
                del words[i]
            else:
                words[i] = rng.choice(graph.words)
        found.append(" ".join(words))
    return found


def time_prompt(matcher: Matcher, prompt: str, live: dict, count: int, rng: random.Random) -> Timing:
    started = time.process_time()
    table = matcher.table(prompt, live)
    load = (time.process_time() - started) * 1000
    times = []
    for text in readings(table.graph, count, rng):
        started = time.process_time()
        table.match(text)
        times.append((time.process_time() - started) * 1000)
    return Timing(prompt, load, table.graph.size, times)


def game_prompts() -> list[tuple[str, dict]]:
    """Every prompt of every grammar, with the file's lists where a game needs its context."""
    found = []
    for name in ("common", *game_ids()):
        for prompt in load_grammar(name).prompts:
            try:
                live = grammar_slots(prompt, {}) if name != "common" else {}
            except (KeyError, TypeError, ValueError):
                live = {}
            found.append((prompt, live))
    return found


def command(count: int = 200, seed: int = 1) -> int:
    rng = random.Random(seed)
    sound_of("warm")  # the pronouncing dictionary loads once per process, not per grammar
    started = time.process_time()
    Grammar.load(EXAMPLE)
    coffee_matcher = Matcher(common=False, grammar_file=EXAMPLE)
    coffee = time_prompt(coffee_matcher, "coffee_maker/order", {}, count, rng)
    coffee.load_ms = (time.process_time() - started) * 1000
    print(coffee.row())
    game_times: list[float] = []
    for prompt, live in game_prompts():
        timing = time_prompt(Matcher(), prompt, live, max(20, count // 4), rng)
        game_times += timing.match_ms
        print(timing.row())
    tracemalloc.start()  # a second pass for memory: tracing slows everything it sees
    matcher = Matcher()
    for prompt, live in game_prompts():
        matcher.table(prompt, live)
    Matcher(common=False, grammar_file=EXAMPLE).table("coffee_maker/order")
    memory = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(
        f"coffee_load_ms={coffee.load_ms:.0f} coffee_match_p95_ms={percentile(coffee.match_ms, 95):.2f} "
        f"game_match_p95_ms={percentile(game_times, 95):.2f} all_grammars_peak_mb={memory:.1f}"
    )
    return 0
