"""The lab's benches on the command line: `partyhost bench table|chatter|commands|...`.

partyhost's `bench` command finds this module through the entry point group
`partyhost.bench` (lab/pyproject.toml) and adds these beside its own `accuracy` and
`latency`. This only reads the arguments, refuses bad ones in one line
(BenchUsageError) and calls each bench's own `command`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from host.games import game_ids
from partyhost.bench.commands import BenchUsageError, Runner
from partyhost.config import Settings, apply_overrides


def add_benches(benches: Any) -> None:
    """The lab's benchmarks, on the `bench` command's subparsers (partyhost/bench/commands.py)."""
    _add_matcher_and_chatter(benches)
    _add_keep_cool(benches)
    _add_wake_and_pace(benches)
    _add_table(benches)
    _add_commands(benches)
    _add_serve(benches)
    _add_voice_parts(benches)


def _add_matcher_and_chatter(benches: Any) -> None:
    matcher = benches.add_parser("matcher", help="grammar load time, matching time and memory")
    matcher.add_argument("--count", type=int, default=200, help="replies per prompt (a quarter at game prompts)")
    chatter = benches.add_parser("chatter", help="five voices talking among themselves played into a game of each kind")
    chatter.add_argument("--minutes", type=float, default=20.0, help="how long the table talks (default 20)")
    chatter.add_argument("--games", help="comma-separated games (default: all)")
    chatter.add_argument("--voices", type=int, default=5, help="how many talk at once (default 5)")
    chatter.add_argument("--json", type=Path, help="write the counts and what the host said here")


def _add_keep_cool(benches: Any) -> None:
    keep_cool = benches.add_parser(
        "keep-cool", help="Keep Cool: words in play told from clues, clean and in party noise"
    )
    keep_cool.add_argument(
        "--voices",
        help="comma-separated voices (default: piper-1 to tune, held-apart Piper speeds and espeak-ng voices)",
    )
    keep_cool.add_argument("--quick", action="store_true", help="2 tables instead of 6 (a smoke test)")
    keep_cool.add_argument("--clean-only", action="store_true", help="no party-noise condition")
    keep_cool.add_argument("--json", type=Path, help="write every word's result here")
    keep_cool.add_argument("--from-json", type=Path, help="summarise an earlier --json run again")
    keep_cool.add_argument(
        "--word-check-line",
        type=float,
        default=None,
        help="summarise with the word check at this line (default: the shipped "
        "one; -100: no check); also with --from-json",
    )
    keep_cool.add_argument(
        "--tuning", action="store_true", help="the tuning set instead: hard pairs and voices of its own"
    )
    keep_cool.add_argument(
        "--real",
        action="store_true",
        help="people instead: Speech Commands words of ../shared/audio as words in play and clues",
    )
    keep_cool.add_argument("--no-second-opinion", action="store_true", help="Whisper alone, without Moonshine")
    keep_cool.add_argument(
        "--agree-line",
        type=float,
        default=None,
        help="summarise with the two ears agreeing on a word in play at this line; also with --from-json",
    )
    keep_cool.add_argument(
        "--veto-line",
        type=float,
        default=None,
        help="summarise the rule before two ears with its veto at this line; also with --from-json",
    )
    keep_cool.add_argument(
        "--no-rescue",
        action="store_true",
        help="summarise the rule before two ears without its rescue; also with --from-json",
    )


def _add_wake_and_pace(benches: Any) -> None:
    wake = benches.add_parser(
        "wake", help="the wake word: detection, false wakes per hour, Keep Cool commands, idle CPU"
    )
    wake.add_argument("--wake-word", help="which of the engine's words (default: the settings')")
    wake.add_argument(
        "--hours",
        type=float,
        default=10.0,
        help="hours of chatter and noise for the false wakes (default 10; 30 bounds 0.1 per hour)",
    )
    wake.add_argument("--jobs", type=int, default=1, help="processes for the false wakes (default 1)")
    wake.add_argument("--no-commands", action="store_true", help="leave out the Keep Cool commands (slow)")
    wake.add_argument("--quick", action="store_true", help="a few voices and minutes, no commands (a smoke test)")
    pace = benches.add_parser(
        "pace", help="seconds of host speech before the first prompt and per turn, every game and mode"
    )
    pace.add_argument(
        "--piper", action="store_true", help="synthesise every line with Piper instead of estimating from the text"
    )
    pace.add_argument("--json", type=Path, help="write the figures here")


def _add_table(benches: Any) -> None:
    table = benches.add_parser(
        "table",
        help="simulated players play every scripted game live through a Wyoming satellite: "
        "clean, in a party's noise, at a lively table, with a quiet player",
    )
    table.add_argument("--quick", action="store_true", help="the shortest script in each condition (under 10 minutes)")
    table.add_argument(
        "--cases", help="comma-separated scripts (lab/scripted_games/cases.yaml) or games (default: all)"
    )
    table.add_argument("--conditions", help="comma-separated: clean, party, lively, quiet (default: all four)")
    table.add_argument(
        "--voices",
        default="held-apart",
        help="held-apart (default: voices no tuning used), tuning, or comma-separated voices "
        "(piper-SPEED, espeak-VOICE)",
    )
    table.add_argument("--tries", type=int, default=6, help="times a player says a line before giving up (default 6)")
    table.add_argument("--settings", type=Path, help="a settings file for the host (default: the shipped settings)")
    table.add_argument(
        "--keep", type=Path, help="keep every game's event log, terminal, satellite log and microphone stream here"
    )
    table.add_argument("--json", type=Path, help="write every game's figures and transcript here")
    table.add_argument("--from-json", type=Path, help="print the tables of an earlier --json run again")
    table.add_argument(
        "--no-echo",
        action="store_true",
        help="the microphone does not hear the host's own speech (default: it does, as at a table)",
    )
    table.add_argument(
        "--barge-in",
        action="store_true",
        help="players begin a fifth of the lines while the host is finishing (default: they wait for silence)",
    )


def _add_commands(benches: Any) -> None:
    spoken = benches.add_parser(
        "commands",
        help="the common commands and the prompts' replies at every kind of prompt, by held-apart voices, "
        "in the clean, party, lively and quiet rooms",
    )
    spoken.add_argument("--voices", help="comma-separated voices (default: the held-apart ones)")
    spoken.add_argument("--rooms", help="comma-separated: clean, party, lively, quiet (default: all four)")
    spoken.add_argument("--json", type=Path, help="write the figures and every miss here")


def _add_serve(benches: Any) -> None:
    serve = benches.add_parser(
        "serve", help="answer times of `partyhost serve` while whole games are played through it on a busy machine"
    )
    serve.add_argument("--load", type=int, help="busy processes, one core each (default 4; 0 with --rounds)")
    serve.add_argument("--games", help="comma-separated games (default: keep-it-100, one-percent, zero-to-100)")
    serve.add_argument(
        "--warmup", type=float, default=60.0, help="seconds of load before the service starts (default 60)"
    )
    serve.add_argument(
        "--rounds",
        type=int,
        help="instead of whole games, time Describe, score, a move and its undo this many times each",
    )
    serve.add_argument(
        "--max-requests", type=int, default=600, help="requests per game before the table quits it (default 600)"
    )
    serve.add_argument("--seed", type=int, default=45, help="the table's choices (default 45)")
    serve.add_argument("--json", type=Path, help="write every request, its time and answer here")


def _add_voice_parts(benches: Any) -> None:
    tts = benches.add_parser("tts", help="Piper's time to first audio, real-time factor and memory, over host lines")
    tts.add_argument("--repeat", type=int, default=2, help="passes over the lines (default 2)")
    tts.add_argument("--threads", type=int, default=1, help="onnxruntime intra-op threads (default 1; 0: one per core)")
    satellite = benches.add_parser(
        "satellite", help="end of speech to intent through a real wyoming-satellite, against a local microphone"
    )
    satellite.add_argument("--rounds", type=int, default=2, help="times each reply is said per path (default 2)")
    satellite.add_argument(
        "--chunk", type=int, default=1024, help="the satellite's --mic-command-samples-per-chunk (its default: 1024)"
    )
    coffee = benches.add_parser(
        "coffee",
        help="Picovoice's speech-to-intent benchmark (coffee orders of ../shared/peers/picovoice), "
        "clean and in its kitchen noise",
    )
    coffee.add_argument("--snr", default="24,12,6", help="kitchen-noise SNRs in dB, comma-separated (default 24,12,6)")
    coffee.add_argument(
        "--out", type=Path, default=Path("/tmp/partyhost-coffee"), help="where the mixes and results go"
    )
    coffee.add_argument("--backend", help="recogniser (default: the measured default)")


# ---- running them ----------------------------------------------------------------


def _pace(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import pace

    return pace.command(args.piper, args.json)


def _matcher(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import matcher

    return matcher.command(args.count)


def _chatter(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import chatter

    games = [g.strip() for g in args.games.split(",")] if args.games else None
    unknown = set(games or ()) - set(game_ids())
    if unknown:
        raise BenchUsageError(f"no game called {', '.join(sorted(unknown))}; games: {', '.join(game_ids())}")
    if not 1 <= args.voices <= 12:
        raise BenchUsageError("--voices takes 1 to 12")
    return chatter.command(args.minutes, games, args.json, args.voices)


def _split(text: str | None) -> list[str] | None:
    return [part.strip() for part in text.split(",") if part.strip()] if text else None


def _table(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import table

    if not 1 <= args.tries <= 20:
        raise BenchUsageError("--tries takes 1 to 20")
    if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
        raise BenchUsageError(f"--keep {args.keep}: the folder is not empty")
    if args.from_json:
        return table.reprint(args.from_json)
    return table.command(
        args.quick,
        _split(args.cases),
        _split(args.conditions),
        args.voices,
        args.tries,
        args.json,
        args.settings,
        args.keep,
        echo=not args.no_echo,
        barge_in=args.barge_in,
    )


def _commands(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import spoken_commands

    rooms = tuple(_split(args.rooms) or spoken_commands.ROOMS)
    unknown = [room for room in rooms if room not in spoken_commands.ROOMS]
    if unknown:
        raise BenchUsageError(f"--rooms: {', '.join(unknown)} unknown; choose from {', '.join(spoken_commands.ROOMS)}")
    voices = tuple(_split(args.voices) or spoken_commands.HELD_APART)
    bad = [voice for voice in voices if not voice.startswith(("piper-", "espeak-"))]
    if bad:
        raise BenchUsageError(f"--voices: {', '.join(bad)} is no voice (piper-SPEED or espeak-VOICE)")
    return spoken_commands.command(voices, rooms, settings, args.json)


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import serve

    games = _split(args.games) or list(serve.DEFAULT_GAMES)
    unknown = sorted(set(games) - set(game_ids()))
    if unknown:
        raise BenchUsageError(f"no game called {', '.join(unknown)}; games: {', '.join(game_ids())}")
    load = (0 if args.rounds else 4) if args.load is None else args.load
    if not 0 <= load <= 64:
        raise BenchUsageError("--load takes 0 to 64 busy processes")
    if not 0 <= args.warmup <= 600:
        raise BenchUsageError("--warmup takes 0 to 600 seconds")
    if not 1 <= args.max_requests <= 10000:
        raise BenchUsageError("--max-requests takes 1 to 10000")
    if args.rounds is not None:
        if not 2 <= args.rounds <= 10000:
            raise BenchUsageError("--rounds takes 2 to 10000")
        return serve.rounds_command(load, args.rounds)
    return serve.command(load, games, args.warmup, args.max_requests, args.seed, args.json)


def _wake(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import wake
    from voice.listening.wake import OFF

    word = args.wake_word or settings.wake_word
    if word == OFF:
        raise BenchUsageError("the wake word is off in the settings: name one with --wake-word")
    if not 0 < args.hours <= 1000 or args.jobs < 1:
        raise BenchUsageError(
            "--hours takes a number of hours above 0 (at most 1000), --jobs a number of processes from 1"
        )
    apply_overrides(settings, {"wake_word": word}, source="--wake-word")
    return wake.command(word, args.hours, args.jobs, args.quick, not args.no_commands)


def _keep_cool(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost_lab import keep_cool

    return keep_cool.command(
        args.voices,
        args.quick,
        args.json,
        args.clean_only,
        args.from_json,
        line=args.word_check_line,
        tuning=args.tuning,
        second_opinion=not args.no_second_opinion,
        veto_line=args.veto_line,
        rescue=not args.no_rescue,
        agree_line=args.agree_line,
        real=args.real,
    )


def _tts(args: argparse.Namespace, settings: Settings) -> int:
    if not 1 <= args.repeat <= 100 or not 0 <= args.threads <= 64:
        raise BenchUsageError("--repeat takes 1 to 100 passes, --threads 0 to 64")
    from partyhost_lab import tts

    return tts.command(args.repeat, args.threads)


def _satellite(args: argparse.Namespace, settings: Settings) -> int:
    if not 1 <= args.rounds <= 100 or not 64 <= args.chunk <= 16384:
        raise BenchUsageError("--rounds takes 1 to 100, --chunk 64 to 16384 samples")
    from partyhost_lab import satellite_delay

    return satellite_delay.command(args.rounds, args.chunk)


def _coffee(args: argparse.Namespace, settings: Settings) -> int:
    try:
        snrs = [float(snr) for snr in _split(args.snr) or ()]
    except ValueError:
        raise BenchUsageError(f"--snr {args.snr}: give dB figures separated by commas, such as 24,12,6") from None
    from partyhost_lab import coffee

    return coffee.command(snrs, args.out, args.backend)


RUNNERS: dict[str, Runner] = {
    "matcher": _matcher,
    "chatter": _chatter,
    "keep-cool": _keep_cool,
    "wake": _wake,
    "pace": _pace,
    "table": _table,
    "commands": _commands,
    "serve": _serve,
    "tts": _tts,
    "satellite": _satellite,
    "coffee": _coffee,
}
"""Each `bench` subcommand's runner."""
