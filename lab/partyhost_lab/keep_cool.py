"""`partyhost bench keep-cool`: does the host tell a word in play from any other word?

Keep Cool's host listens to one word per turn and must notice at once when it is a
word in play, and never mistake a clue for one: a false match hands out a card
nobody guessed, the worst failure of the game. This benchmark measures both sides
exactly as a live turn hears them (endpointer, recogniser steered by the
keep-cool/word prompt of that table, the ears' choice of reading, the matcher,
and "speech not understood is a clue"):

- tables of 12 words in play (3 players x 4 cards), from the shipped deck, with
  one word of each hard pair among them;
- positives: every word in play, said alone; a true match is that very word;
- negatives: clue words, most from other cards of the deck (arbitrary English
  nouns) plus the hard negatives, words that sound close to a word in play of
  the same table ("candy" at a table with "candle"); a false match is any word
  in play produced from a clue;
- conditions: clean, and at 10 dB SNR of party noise (music plus babble made of
  several overlapping TTS voices chatting);
- voices: Piper at speed 1.0 is the tuning voice (never reported as a result);
  the figures are for held-apart voices: Piper at other speeds and espeak-ng.
- `--real`: people instead. The Speech Commands words of ../shared/audio (20
  words, one second each, said by several people in their own rooms) stand in
  for Keep Cool words: at each table some of them are in play (beside deck
  words nobody says) and the rest are clues. Its speaker who tuned Whisper's
  acceptance line (scripts/measure_asr.py) is left out.

Real-time cost is reported as recognition percentiles (ms per word, audio in memory).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from host.contract import Prompt
from host.decks import default_deck_dir, load_decks
from host.games import grammar_slots
from partyhost.bench.manifest import bench_prompt, first_utterance, percentile
from partyhost.config import Settings
from partyhost.listening_chain import ListeningChain, listening_chain
from partyhost_lab.places import SHARED_AUDIO
from partyhost_lab.synthetic_speech import CHATTER, Voices, load_noise, mix_at_snr
from voice.asr.moonshine import Preloaded
from voice.audio_types import SAMPLE_RATE
from voice.listening.second_opinion import AGREE_LINE, Opinion, SecondOpinion, by_both
from voice.listening.wordcheck import CHECK_LINE, word_in_play
from voice.speaking.mixing import padded
from voice.understanding.matcher import Matcher
from voice.understanding.vocabulary import sounds_alike

PROMPT = "keep-cool/word"
ROSTER = ["Ana", "Ben", "Cy"]
TABLE_SIZE = 12
HARD_PAIRS = [  # (word in play, a clue that sounds close to it)
    ("candle", "candy"),
    ("pillow", "pillar"),
    ("river", "rivet"),
    ("window", "widow"),
    ("kettle", "cattle"),
    ("needle", "noodle"),
    ("lemon", "melon"),
    ("sailor", "tailor"),
    ("planet", "plane"),
    ("bottle", "battle"),
    ("ladder", "letter"),
    ("pepper", "paper"),
    ("carrot", "parrot"),
    ("mouse", "mouth"),
    ("button", "mutton"),
    ("pencil", "stencil"),
    ("finger", "ginger"),
    ("rocket", "pocket"),
    ("tiger", "timer"),
    ("coffee", "toffee"),
    ("bucket", "budget"),
    ("jacket", "racket"),
    ("beach", "peach"),
    ("bread", "breath"),
    ("cable", "table"),
    ("mountain", "fountain"),
    ("glove", "globe"),
    ("dollar", "collar"),
    ("monkey", "money"),
    ("cheese", "chess"),
]
SOUND_PAIRS = [  # deck words one voiced or voiceless consonant, or m for n, from an everyday word (issue 56)
    ("writer", "rider"),
    ("plaque", "black"),
    ("cheese", "jeez"),
    ("trout", "drought"),
    ("puck", "buck"),
    ("dune", "tune"),
    ("dart", "tart"),
    ("coast", "ghost"),
    ("card", "guard"),
    ("nail", "mail"),
    ("ball", "Paul"),
    ("wheat", "weed"),
    ("fuse", "views"),
    ("braid", "prayed"),
    ("hearse", "hers"),
    ("fawn", "Vaughn"),
    ("thumb", "them"),
    ("cashmere", "Kashmir"),
]
TUNING_PAIRS = [  # a set of its own, for tuning the second opinion's lines (voice/listening/second_opinion.py)
    ("cookie", "rookie"),
    ("wagon", "dragon"),
    ("puppet", "puppy"),
    ("lobster", "monster"),
    ("castle", "tassel"),
    ("tunnel", "funnel"),
    ("wallet", "ballet"),
    ("hammer", "hammock"),
    ("garden", "pardon"),
    ("butter", "gutter"),
    ("rabbit", "habit"),
    ("pirate", "private"),
    ("towel", "tower"),
    ("turtle", "hurdle"),
    ("bagel", "beagle"),
    ("saddle", "paddle"),
    ("marble", "marvel"),
    ("dinner", "winner"),
    ("shovel", "shuffle"),
    ("ribbon", "robin"),
    ("mitten", "kitten"),
    ("anchor", "anger"),
    ("jelly", "belly"),
    ("feather", "leather"),
    ("basket", "casket"),
    ("napkin", "pumpkin"),
    ("magnet", "maggot"),
    ("cherry", "sherry"),
    ("lantern", "pattern"),
    ("helmet", "hamlet"),
]
TUNING_VOICES = (
    "piper-0.9",
    "piper-1",
    "piper-1.1",
    "espeak-en-gb-scotland",
    "espeak-en-us-nyc",
    "espeak-en-gb-x-gbclan",
)
TUNING_SEED = 11
TUNE_VOICES = ("piper-1",)
REPORT_VOICES = ("piper-0.8", "piper-1.25", "espeak-en-us", "espeak-en-gb", "espeak-en-us+f2", "espeak-en-029")
PARTY_SNR_DB = 10.0


@dataclass(frozen=True)
class Item:
    """One word said at one table: a word in play (expect it) or a clue (expect no word)."""

    table: int
    text: str
    expect: str | None  # the word in play it must be heard as; None for a clue
    hard: bool = False  # a hard negative (sounds close to a word in play)


@dataclass
class BenchSet:
    tables: list[list[str]]
    items: list[Item] = field(default_factory=list)


REPORTED_PAIRS = HARD_PAIRS + SOUND_PAIRS
HARD_PER_TABLE = 8
"""At most this many of a table's 12 words in play have a close-sounding clue said."""


def build_set(
    tables: int = 6, clues_per_table: int = 18, seed: int = 5, pairs: list[tuple[str, str]] = REPORTED_PAIRS
) -> BenchSet:
    """Tables of words in play, and what is said at each, from the deck and the hard pairs
    (a word in play with two close clues, "cheese" / "chess" and "jeez", has both said)."""
    rng = random.Random(seed)
    pool = deck_words()
    close: dict[str, list[str]] = defaultdict(list)
    for word, clue in pairs:
        close[word].append(clue)
    hard = sorted(close.items())
    rng.shuffle(hard)
    taken = {w for word, clues in hard for w in [word, *clues]}
    pool = [w for w in pool if w not in taken and not _close_to_any(w, taken)]
    rng.shuffle(pool)
    bench = BenchSet(tables=[])
    per_table = max(1, min(HARD_PER_TABLE, math.ceil(len(hard) / tables)))
    for number in range(tables):
        hard_here = hard[number * per_table : (number + 1) * per_table]
        words = [w for w, _ in hard_here]
        while len(words) < TABLE_SIZE:
            words.append(pool.pop())
        bench.tables.append(words)
        bench.items += [Item(number, w, w) for w in words]
        bench.items += [Item(number, clue, None, hard=True) for _, clues in hard_here for clue in clues]
        clues: list[str] = []
        while len(clues) < clues_per_table:
            word = pool.pop()
            if not _close_to_any(word, set(words)):
                clues.append(word)
        bench.items += [Item(number, clue, None) for clue in clues]
    return bench


def deck_words() -> list[str]:
    """Every one-word word of the shipped Keep Cool deck, sorted."""
    deck = load_decks([], [default_deck_dir() / "keep-cool.csv"])
    words = {card.word(face, line) for card in deck.words for face in ("red", "blue") for line in range(1, 6)}
    return sorted(w for w in words if w.isalpha())


def _close_to_any(word: str, others: set[str]) -> bool:
    """The same word in another form (a plural), which would be a match, not a clue."""
    return any(word == o or word in (o + "s", o + "es") or o in (word + "s", word + "es") for o in others)


# ---- audio -------------------------------------------------------------------------


def party_noise(voices: Voices, seconds: float = 40.0, seed: int = 3) -> np.ndarray:
    """Music with babble on top: several chatter sentences by other voices, overlapping."""
    rng = random.Random(seed)
    length = int(seconds * SAMPLE_RATE)
    babble = np.zeros(length, np.float32)
    speakers = voices.names_given(["piper-1.3", "piper-0.9", "espeak-en-gb", "espeak-en-us+m3"])
    for k, speaker in enumerate(speakers):
        at = int(rng.uniform(0, 1.5) * SAMPLE_RATE)
        sentences = CHATTER[k :: len(speakers)]
        while at < length:
            for sentence in sentences:
                audio = voices.speak(speaker, sentence)
                n = min(len(audio), length - at)
                if n <= 0:
                    break
                babble[at : at + n] += audio[:n] / (np.sqrt(np.mean(audio**2)) + 1e-9) * 0.05
                at += n + int(rng.uniform(0.1, 0.6) * SAMPLE_RATE)
    music = np.resize(load_noise("music"), length)
    music = music / (np.sqrt(np.mean(music**2)) + 1e-9) * 0.05
    return (babble + music).astype(np.float32)


# ---- one word, as a live turn hears it ----------------------------------------------


@dataclass(frozen=True)
class Decision:
    word: str | None  # the word in play the ears read, before the word check; None: a clue
    text: str  # what the ears read ("" when nothing reliable)
    confidence: float
    ms: float  # recognition, the word check and the second opinion
    word_check: float | None = None  # the check's log-likelihood ratio (voice/listening/wordcheck.py)
    opinion: Opinion | None = None  # the second listener's (voice/listening/second_opinion.py), if any
    rescued: str | None = None  # the word in play the second opinion would rescue
    likeliest: str | None = None  # ... or else the one it finds likeliest (Opinion.likeliest)


def decide(
    chain: ListeningChain, matcher: Matcher, words: list[str], audio: np.ndarray, second: Any = None
) -> Decision:
    """What the live loop reads from this word at a table with these words in play.
    The word check and the second opinion run but do not veto: `word_at` applies
    their lines afterwards, so one run gives the figures at every line."""
    utterance = first_utterance(audio, chain.settings)
    if utterance is None:
        return Decision(None, "", 0.0, 0.0)  # nothing heard: the turn runs on
    prompt = bench_prompt(PROMPT, grammar_slots(PROMPT, {"words": words, "roster": ROSTER}))
    started = time.perf_counter()
    reading = replace(chain.reader, word_check_line=-math.inf, second=None).read(matcher, prompt, utterance)
    table = matcher.table(PROMPT, prompt.slots)
    phrase = word_in_play(table, reading)
    word, opinion, rescued = _word(matcher, prompt, phrase), None, None
    if second is not None:
        asked = SecondOpinion(second, table, reading)
        veto = asked.veto(phrase) if phrase else Opinion()
        rescue = asked.rescue(every_word=True) if phrase or asked.may_rescue(reading) else Opinion()
        written = (rescue if rescue.written is not None else veto).written
        written = _word(matcher, prompt, written) or written  # a word in play as its word
        opinion = replace(rescue, veto_margin=veto.veto_margin, rival=veto.rival, written=written)
        rescued = _word(matcher, prompt, opinion.rescued)
    checks = [h.details["word_check"] for h in reading.hypotheses if h.details and "word_check" in h.details]
    return Decision(
        word,
        reading.text,
        reading.confidence,
        (time.perf_counter() - started) * 1000,
        checks[-1] if checks else None,
        opinion,
        rescued,
        _word(matcher, prompt, opinion.likeliest) if opinion else None,
    )


def _word(matcher: Matcher, prompt: Prompt, phrase: str | None) -> str | None:
    intent = matcher.match(PROMPT, phrase, prompt.slots).intent if phrase else None
    return intent.get("word") if intent and intent.get("intent") == "word" else None


VETO_LINE = -4.0
"""Before two ears: Moonshine, the word minus Whisper's likeliest other reading; below
it, a clue (tuned on the tuning set, docs/lab/keep-cool-live.md)."""
RESCUE_LINE = 4.0
"""Before two ears: the likeliest word in play minus Whisper's likeliest other reading;
above it, that word was said (the veto's margin, the other way round)."""
RESCUE_FLOOR = -6.0
"""... and the word's own log-likelihood must reach this: in noise every text is unlikely."""


def verdict(whisper_took: bool, opinion: Opinion, veto_line: float = VETO_LINE, rescue: bool = True) -> str | None:
    """The second listener's verdict before two ears (shipped until issue 56): "kept",
    "vetoed", "rescued", "likeliest" (rescued by its lead), or None (nothing in play
    was said)."""
    if whisper_took:
        vetoed = opinion.veto_margin is not None and opinion.veto_margin < veto_line
        return "vetoed" if vetoed else "kept"
    if not rescue:
        return None
    if opinion.rescued is not None:
        return "rescued"
    if (
        opinion.likeliest is not None
        and opinion.likeliest_score is not None
        and opinion.likeliest_margin is not None
        and opinion.likeliest_score >= RESCUE_FLOOR
        and opinion.likeliest_margin > RESCUE_LINE
    ):
        return "likeliest"
    return None


RULES = ("after", "before")
"""The rules a run is summarised by: two ears agreeing (voice/listening/second_opinion.py
by_both, issue 56), and the second listener's veto and rescues shipped before it."""


def word_by_both(result: dict[str, Any], line: float, agree_line: float = AGREE_LINE) -> tuple[str | None, bool]:
    """The word in play the host acts on by two ears (by_both, agreeing at `agree_line`),
    and whether it asks "Again?" (the ears differ: a second saying by the same voice is
    the same clip, so it is then taken unread, no word in play)."""
    ratio = result.get("word_check")
    took = result["got"] if result["got"] is not None and (ratio is None or ratio >= line) else None
    if "written" not in result:  # no second listener: Whisper alone
        return took, False
    opinion = Opinion(
        veto_margin=result.get("veto_margin"),
        rescued=result["rescued"],
        seconded=result.get("seconded", False),
        written=result["written"],
    )
    said = by_both(took, opinion, agree_line)
    return {"kept": took, "rescued": result["rescued"]}.get(said or ""), said == "differ"


def word_at(result: dict[str, Any], line: float, veto_line: float = VETO_LINE, rescue: bool = True) -> str | None:
    """The word in play the host acts on with the word check at this line (below it: a
    clue) and, if the run had one, the second opinion's veto at its line and its rescue."""
    ratio = result.get("word_check")
    took = result["got"] is not None and (ratio is None or ratio >= line)
    if "veto_margin" not in result:
        return result["got"] if took else None
    opinion = Opinion(**{f.name: result[f.name] for f in fields(Opinion) if f.name in result})
    said = verdict(took, opinion, veto_line, rescue)
    return {"kept": result["got"], "rescued": result["rescued"], "likeliest": result.get("likeliest")}.get(said or "")


# ---- the run --------------------------------------------------------------------------

REAL_WORDS = SHARED_AUDIO / "speech-commands"
REAL_TUNE_SPEAKERS = {"439c84f4"}  # scripts/measure_asr.py tuned Whisper's line on it
REAL_IN_PLAY = 6  # of a table's 12 words in play; the rest are deck words


def real_set(tables: int = 6, seed: int = 7) -> tuple[list[list[str]], list[tuple[int, Path, Item]]]:
    """Tables of words in play, and every recording at every table with what it is there:
    a word in play, or a clue (hard when it is one sound from a word in play: "no", "go")."""
    rng = random.Random(seed)
    said = sorted(p.name for p in REAL_WORDS.iterdir() if p.is_dir())
    recordings = {
        word: sorted(p for p in (REAL_WORDS / word).glob("*.wav") if p.name.split("_")[0] not in REAL_TUNE_SPEAKERS)
        for word in said
    }
    deck = [w for w in deck_words() if w not in said]
    table_words, items = [], []
    for number in range(tables):
        in_play = rng.sample(said, REAL_IN_PLAY)
        table_words.append(in_play + rng.sample(deck, TABLE_SIZE - REAL_IN_PLAY))
        for word in said:
            expect = word if word in in_play else None
            hard = expect is None and any(sounds_alike(word, other) for other in table_words[-1])
            items += [(number, path, Item(number, word, expect, hard)) for path in recordings[word]]
    return table_words, items


def run(
    voice_names: Iterable[str],
    noisy: bool = True,
    tables: int = 6,
    clues_per_table: int = 18,
    chain: ListeningChain | None = None,
    progress: bool = True,
    seed: int = 5,
    pairs: list[tuple[str, str]] = REPORTED_PAIRS,
    second: Any = None,
) -> list[dict[str, Any]]:
    """Every item of the set by every voice; `chain`: how a game hears (None: as shipped);
    `second`: the second listener (None: none)."""
    # Piper without its random variation: every run hears the same clips, so two
    # runs (two settings) compare word for word. With it, the same code moved by
    # up to 8 points on the tuning voice between runs.
    voices = Voices(noise_scale=0.0)
    bench = build_set(tables, clues_per_table, seed, pairs)
    names = voices.names_given(voice_names)
    said = ((voice, item, voices.speak(voice, item.text)) for voice in names for item in bench.items)
    return _read_all(
        said,
        bench.tables,
        len(names) * len(bench.items),
        voices if noisy else None,
        random.Random(seed),
        chain,
        second,
        progress,
    )


def run_real(
    noisy: bool = True,
    tables: int = 6,
    chain: ListeningChain | None = None,
    progress: bool = True,
    second: Any = None,
) -> list[dict[str, Any]]:
    """The same, for people's recordings (real_set); each result's voice is "people"."""
    from voice.listening.audio_in import read_wav_16k

    table_words, items = real_set(tables)
    said = (("people", item, read_wav_16k(path)) for _, path, item in items)
    voices = Voices(noise_scale=0.0) if noisy else None  # the party's babble
    results = _read_all(said, table_words, len(items), voices, random.Random(7), chain, second, progress)
    per_item = 2 if noisy else 1
    for number, result in enumerate(results):
        result.update(set="real", recording=items[number // per_item][1].name)
    return results


def _read_all(
    said: Iterable[tuple[str, Item, np.ndarray]],
    tables: list[list[str]],
    total: int,
    noise_voices: Voices | None,
    rng: random.Random,
    chain: ListeningChain | None,
    second: Any,
    progress: bool,
) -> list[dict[str, Any]]:
    """Each (voice, item, speech) read as a live turn at its table, clean and, given the
    voices to make the babble from, in party noise."""
    chain = chain or listening_chain(Settings())
    matcher = Matcher()
    noise = party_noise(noise_voices) if noise_voices is not None else None
    total *= 1 if noise is None else 2
    results = []
    for voice, item, speech in said:
        conditions = [("clean", speech)]
        if noise is not None:
            conditions.append((f"party@{PARTY_SNR_DB:g}dB", mix_at_snr(speech, noise, PARTY_SNR_DB, rng)))
        for condition, audio in conditions:
            decision = decide(chain, matcher, tables[item.table], padded(audio), second)
            result = {
                "voice": voice,
                "condition": condition,
                "table": item.table,
                "text": item.text,
                "expect": item.expect,
                "hard": item.hard,
                "got": decision.word,
                "word_check": decision.word_check,
                "heard": decision.text,
                "confidence": round(decision.confidence, 3),
                "ms": round(decision.ms, 1),
            }
            if second is not None:  # the opinion, its phrases as the words they name
                result.update(
                    asdict(decision.opinion or Opinion()), rescued=decision.rescued, likeliest=decision.likeliest
                )
            results.append(result)
            if progress and len(results) % 200 == 0:
                print(f"  {len(results)}/{total}", flush=True)
    return results


def summarise(
    results: list[dict[str, Any]],
    min_word_confidence: float = 0.0,
    line: float = CHECK_LINE,
    veto_line: float = VETO_LINE,
    rescue: bool = True,
    rule: str = RULES[0],
    agree_line: float = AGREE_LINE,
) -> list[dict[str, Any]]:
    """Per voice group and condition: true matches, false matches (all clues, hard ones),
    with the word check at `line`, by `rule` (RULES): two ears agreeing at `agree_line`,
    or the second opinion (if run) vetoing at `veto_line` as before."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in results:
        group = "tune (piper-1)" if r["voice"] in TUNE_VOICES else "held-apart"
        group = {"tuning": "tuning set", "real": "people"}.get(r.get("set", ""), group)
        groups[(group, r["condition"])].append(r)
        if group not in ("tune (piper-1)", "people"):
            groups[(r["voice"], r["condition"])].append(r)
    rows = []
    for (group, condition), items in groups.items():
        if rule == "after":
            decided = [word_by_both(r, line, agree_line) for r in items]
        else:
            decided = [(word_at(r, line, veto_line, rescue), False) for r in items]
        got = [word if r["confidence"] >= min_word_confidence else None for r, (word, _) in zip(items, decided)]
        pos = [(r, g) for r, g in zip(items, got) if r["expect"] is not None]
        neg = [(r, g) for r, g in zip(items, got) if r["expect"] is None]
        hard = [(r, g) for r, g in neg if r["hard"]]
        times = [r["ms"] for r in items if r["ms"] > 0]
        rows.append(
            {
                "group": group,
                "condition": condition,
                "true_matches": _share(sum(g == r["expect"] for r, g in pos), len(pos)),
                "wrong_word": _share(sum(g is not None and g != r["expect"] for r, g in pos), len(pos)),
                "false_matches": _share(sum(g is not None for _, g in neg), len(neg)),
                "hard_false_matches": _share(sum(g is not None for _, g in hard), len(hard)),
                "asked_again": _share(sum(again for _, again in decided), len(items)),
                "p50_ms": round(percentile(times, 50)),
                "p95_ms": round(percentile(times, 95)),
            }
        )
    order = {"tuning set": 0, "tune (piper-1)": 0, "people": 1, "held-apart": 1}
    rows.sort(key=lambda row: (order.get(str(row["group"]), 2), str(row["group"]), str(row["condition"])))
    return rows


def _share(count: int, n: int) -> dict[str, Any]:
    return {"count": count, "n": n, "rate": round(count / n, 4) if n else 0.0}


def _exact(share: dict[str, Any]) -> float:
    """The share from its counts: the rounded rate, rounded again to a tenth of a percent, can be off by one."""
    return share["count"] / share["n"] if share["n"] else 0.0


def format_rows(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"{'voices':<18} {'condition':<12} {'true matches':>16} {'wrong word':>12} "
        f"{'false matches':>16} {'of them hard':>14} {'again':>6} {'p50 ms':>7} {'p95 ms':>7}"
    ]
    for row in rows:
        t, w, f, h = (row[k] for k in ("true_matches", "wrong_word", "false_matches", "hard_false_matches"))
        lines.append(
            f"{row['group']:<18} {row['condition']:<12} "
            f"{_exact(t):>7.1%} ({t['count']:>3}/{t['n']:<3}) {_exact(w):>6.1%} ({w['count']:>2}) "
            f"{_exact(f):>7.1%} ({f['count']:>2}/{f['n']:<3}) {_exact(h):>5.1%} ({h['count']:>2}/{h['n']:<2}) "
            f"{_exact(row['asked_again']):>6.1%} {row['p50_ms']:>7} {row['p95_ms']:>7}"
        )
    return "\n".join(lines)


def command(
    voices: str | None,
    quick: bool,
    json_out: Path | None,
    clean_only: bool,
    from_json: Path | None = None,
    min_word_confidence: float = 0.0,
    line: float | None = None,
    tuning: bool = False,
    second_opinion: bool = True,
    veto_line: float | None = None,
    rescue: bool = True,
    real: bool = False,
    settings: Settings | None = None,
    agree_line: float | None = None,
) -> int:
    """`settings`: how the game hears (None: as shipped)."""
    if real and from_json is None and not REAL_WORDS.is_dir():
        print(f"{REAL_WORDS} is missing: --real needs the shared recordings of people.")
        return 2
    if from_json is not None:
        results = json.loads(from_json.read_text(encoding="utf-8"))["items"]
    else:
        chain = listening_chain(settings or Settings())
        results = _measured(chain, voices, quick, clean_only, tuning, second_opinion, real)
    rows = []
    for rule in RULES:  # the rule shipped and the one before it, from the same run
        ruled = summarise(
            results,
            min_word_confidence,
            CHECK_LINE if line is None else line,
            VETO_LINE if veto_line is None else veto_line,
            rescue,
            rule,
            AGREE_LINE if agree_line is None else agree_line,
        )
        print(f"rule: {rule}" + (" (shipped)" if rule == RULES[0] else ""))
        print(format_rows(ruled))
        rows += [{"rule": rule, **row} for row in ruled]
    if json_out:
        json_out.write_text(json.dumps({"summary": rows, "items": results}, indent=1), encoding="utf-8")
    for row in [r for r in rows if r["group"] in ("held-apart", "people")]:
        print(
            f"keep_cool rule={row['rule']} group={row['group']} condition={row['condition']} "
            f"true_matches={row['true_matches']['rate']:.3f} false_matches={row['false_matches']['rate']:.3f} "
            f"asked_again={row['asked_again']['rate']:.3f} "
            f"n_words={row['true_matches']['n']} n_clues={row['false_matches']['n']}"
        )
    return 0


def _measured(
    chain: ListeningChain,
    voices: str | None,
    quick: bool,
    clean_only: bool,
    tuning: bool,
    second_opinion: bool,
    real: bool,
) -> list[dict[str, Any]]:
    """The run `command` asks for: people's recordings, or synthetic voices (the tuning set's or the report's)."""
    preloaded = chain.reader.second if chain.reader.second is not None else Preloaded()
    second = preloaded.get() if second_opinion else None  # None when Moonshine is missing
    tables = 2 if quick else 6
    if real:
        results = run_real(noisy=not clean_only, tables=tables, chain=chain, second=second)
    else:
        default_voices = TUNING_VOICES if tuning else TUNE_VOICES + REPORT_VOICES
        results = run(
            voices.split(",") if voices else list(default_voices),
            noisy=not clean_only,
            tables=tables,
            clues_per_table=6 if quick or tuning else 18,
            seed=TUNING_SEED if tuning else 5,
            pairs=TUNING_PAIRS if tuning else REPORTED_PAIRS,
            chain=chain,
            second=second,
        )
    if tuning:
        for result in results:
            result["set"] = "tuning"
    return results
