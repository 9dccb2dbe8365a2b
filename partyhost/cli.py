"""The partyhost command line: play, resume, rules, sessions.

This is the one place that knows both halves: host/ (rules, sessions) and voice/
(grammars and the matcher). It builds a Session with ears, a mouth and an
understanding function that suit the chosen input and output.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

from host.engine import GameOptions, RuleError
from host.eventlog import EventLog
from host.files import FileProblem, check_writable
from host.games import game_ids, get_game, option
from host.journal import Journal, JournalUnwritable
from host.session import Session, SessionInfo
from host.sessionlock import LockUnavailable, SessionBusy, SessionLock
from partyhost import __version__, deckcheck
from partyhost.config import (
    COMMAND_LINE,
    VALUE_CHARS,
    ConfigError,
    Settings,
    apply_overrides,
    check_value_size,
    load_settings,
    settings_path,
)
from partyhost.grammarcheck import GrammarProblem, check_grammars
from partyhost.saved import (
    SavedGame,
    SetupError,
    Unresumable,
    deck_files,
    grammar_version,
    load_game_decks,
    open_saved,
    options_to_json,
    quick_problem,
    rule_defaults,
)
from partyhost.voiceio import GameIO, IOChoiceError, Opener, open_io
from voice.recognizers import BACKENDS
from voice.remote.address import is_wyoming
from voice.understanding.grammar import GrammarError
from voice.understanding.matcher import Matcher

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UserError(Exception):
    """Something the user can fix; printed as one clear line, never a traceback."""


USER_ERRORS = (
    UserError,
    GrammarError,
    GrammarProblem,
    SessionBusy,
    ConfigError,
    FileProblem,
    JournalUnwritable,
    LockUnavailable,
)
"""Mistakes a user can fix, and a disk that refuses to save: told in one line, never as a traceback."""


def data_dir(arg: str | None) -> Path:
    return Path(arg or os.environ.get("PARTYHOST_DATA_DIR") or platformdirs.user_data_dir("partyhost"))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="partyhost", description="An offline voice host for tabletop party games.")
    parser.add_argument("--version", action="version", version=f"partyhost {__version__}")
    parser.add_argument(
        "--data-dir", help="where sessions are saved (default: the platform data dir, or $PARTYHOST_DATA_DIR)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="start a new game")
    play.add_argument("game", nargs="?", choices=game_ids(), help="which game (none: the spoken menu asks)")
    play.add_argument("--players", help='comma-separated names in seating order, e.g. "Ana,Ben,Cy"')
    play.add_argument("--teams", help='teams separated by ";", e.g. "Ana,Ben;Cy,Dee" (zero-to-100)')
    play.add_argument("--mode", help="game variant (see: partyhost rules GAME)")
    play.add_argument("--deal", choices=("host", "table"), help="who deals secret cards")
    play.add_argument("--seed", type=int, help="random seed, for a repeatable game")
    play.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a rule parameter (repeatable), e.g. --rules turn_seconds=12",
    )
    play.add_argument(
        "--deck",
        action="append",
        default=[],
        metavar="FILE",
        help="question deck file(s) (CSV or YAML) instead of the shipped one",
    )
    play.add_argument(
        "--word-deck",
        action="append",
        default=[],
        metavar="FILE",
        help="Keep Cool word deck file(s) instead of the shipped one",
    )
    play.add_argument(
        "--card-deck",
        metavar="FILE",
        help="1%% bid and reward decks, or Centurion's pack (YAML), instead of the shipped one",
    )
    _add_io_arguments(play)

    resume = commands.add_parser("resume", help="continue a saved game (the latest by default)")
    resume.add_argument("session", nargs="?", help="session id (see: partyhost sessions)")
    _add_io_arguments(resume)

    rules = commands.add_parser("rules", help="how a game is played, in short")
    rules.add_argument("game", choices=game_ids())

    sessions = commands.add_parser("sessions", help="list saved games")
    sessions.add_argument(
        "--check", action="store_true", help="replay every saved game and report the ones that cannot be resumed"
    )
    sessions.add_argument(
        "--delete", action="append", default=[], metavar="ID", help="delete a saved game and its event log (repeatable)"
    )
    sessions.add_argument("--prune", action="store_true", help="delete every saved game with no move")
    commands.add_parser("devices", help="list microphones and speakers (> default input, < default output)")

    serve = commands.add_parser(
        "serve",
        help="be a Home Assistant conversation agent (Wyoming protocol): "
        "players start and play games through their Assist devices",
    )
    serve.add_argument(
        "--bind",
        help="address to listen on (default: the settings' serve_bind, else this "
        "machine's LAN address; 0.0.0.0 for all interfaces)",
    )
    serve.add_argument(
        "--port", type=int, help="port to listen on (default: the settings' serve_port, 10800; 0: any free one)"
    )
    serve.add_argument("--no-zeroconf", action="store_true", help="do not announce the service on the network")

    bench = commands.add_parser("bench", help="measure recognition accuracy and latency")
    bench_commands = bench.add_subparsers(dest="bench_command", metavar="WHAT", required=True)
    accuracy = bench_commands.add_parser("accuracy", help="a manifest of recordings (docs/specs/manifest.md)")
    accuracy.add_argument("manifest", type=Path, help="MANIFEST.jsonl")
    accuracy.add_argument("--grammar", type=Path, help="a grammar file of your own (prompts named in it)")
    accuracy.add_argument("--json", type=Path, help="write every item's result here")
    latency = bench_commands.add_parser("latency", help="end of speech to intent, TTS, idle CPU, memory")
    latency.add_argument("manifest", type=Path, nargs="?", help="recordings to time (default: the test fixtures)")
    latency.add_argument(
        "--paced",
        action="store_true",
        help="also play clips in real time into the ears, with and without reading ahead",
    )
    latency.add_argument(
        "--choose",
        action="store_true",
        help="time every installed Whisper model and set the largest with p95 within "
        "400 ms as the settings' whisper_model",
    )
    for sub in (accuracy, latency):
        sub.add_argument(
            "--backend", help="recogniser, or wyoming://HOST:PORT (default: the settings', else the measured default)"
        )
    matcher = bench_commands.add_parser("matcher", help="grammar load time, matching time and memory")
    matcher.add_argument("--count", type=int, default=200, help="replies per prompt (a quarter at game prompts)")
    chatter = bench_commands.add_parser(
        "chatter", help="five voices talking among themselves played into a game of each kind"
    )
    chatter.add_argument("--minutes", type=float, default=20.0, help="how long the table talks (default 20)")
    chatter.add_argument("--games", help="comma-separated games (default: all)")
    chatter.add_argument("--voices", type=int, default=5, help="how many talk at once (default 5)")
    chatter.add_argument("--json", type=Path, help="write the counts and what the host said here")
    keep_cool = bench_commands.add_parser(
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
    keep_cool.add_argument(
        "--no-second-opinion", action="store_true", help="Whisper alone, without Moonshine's veto and rescue"
    )
    keep_cool.add_argument(
        "--veto-line",
        type=float,
        default=None,
        help="summarise with the second opinion's veto at this line; also with --from-json",
    )
    keep_cool.add_argument(
        "--no-rescue", action="store_true", help="summarise without the second opinion's rescue; also with --from-json"
    )

    wake = bench_commands.add_parser(
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

    pace = bench_commands.add_parser(
        "pace", help="seconds of host speech before the first prompt and per turn, every game and mode"
    )
    pace.add_argument(
        "--piper", action="store_true", help="synthesise every line with Piper instead of estimating from the text"
    )
    pace.add_argument("--json", type=Path, help="write the figures here")

    table = bench_commands.add_parser(
        "table",
        help="simulated players play every scripted game live through a Wyoming satellite: "
        "clean, in a party's noise, with a quiet player",
    )
    table.add_argument("--quick", action="store_true", help="the shortest script in each condition (under 10 minutes)")
    table.add_argument("--cases", help="comma-separated scripts (tests/scripts/cases.yaml) or games (default: all)")
    table.add_argument("--conditions", help="comma-separated: clean, party, quiet (default: all three)")
    table.add_argument(
        "--voices",
        default="held-apart",
        help="held-apart (default: voices no tuning used), tuning, or comma-separated voices "
        "(piper-SPEED, espeak-VOICE)",
    )
    table.add_argument("--tries", type=int, default=6, help="times a player says a line before giving up (default 6)")
    table.add_argument("--settings", type=Path, help="a settings file for the host (default: the shipped settings)")
    table.add_argument("--keep", type=Path, help="keep every game's event log, terminal and satellite log here")
    table.add_argument("--json", type=Path, help="write every game's figures and transcript here")
    table.add_argument("--from-json", type=Path, help="print the tables of an earlier --json run again")

    models = commands.add_parser("models", help="downloadable speech models")
    model_commands = models.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    fetch = model_commands.add_parser("fetch", help="download, verify (SHA-256) and unpack models")
    fetch.add_argument(
        "names",
        nargs="*",
        help="which models (default: every one in models/manifest.json but the larger "
        "Whisper models and any without a published checksum)",
    )
    fetch.add_argument(
        "--from",
        dest="archive",
        type=Path,
        metavar="FILE",
        help="install one model from its archive, downloaded elsewhere (no network needed)",
    )
    listing = model_commands.add_parser("list", help="the models and whether they are installed")
    for sub in (fetch, listing):
        sub.add_argument(
            "--models-dir", help="where models go (default: the settings' models_dir, else the platform data folder)"
        )

    decks = commands.add_parser("decks", help="check deck files, or show their statistics")
    deck_commands = decks.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    deckcheck.add_arguments(deck_commands.add_parser("check", help="find problems in deck files"))
    deckcheck.add_arguments(
        deck_commands.add_parser("stats", help="counts, answer histogram and Keep Cool difficulty table")
    )
    return parser


def _add_io_arguments(parser: argparse.ArgumentParser) -> None:
    io = parser.add_argument_group("listening and speaking (defaults from the settings file)")
    io.add_argument(
        "--input",
        help="mic, text (typed lines), FILE.wav (a recording as the microphone) "
        "or wyoming://HOST:PORT (a voice satellite's microphone)",
    )
    io.add_argument(
        "--output",
        help="speaker, text (printed lines), FILE.wav (all the host says) "
        "or wyoming://HOST:PORT (a voice satellite's speaker)",
    )
    io.add_argument("--input-device", help="microphone name or index (see: partyhost devices)")
    io.add_argument("--output-device", help="speaker name or index")
    io.add_argument(
        "--backend",
        help=f"recogniser: {', '.join(BACKENDS)}, or wyoming://HOST:PORT "
        "(a Wyoming speech-to-text server; the local one if it fails)",
    )
    io.add_argument(
        "--voice",
        help="wyoming://HOST:PORT: a Wyoming text-to-speech server speaks (the local Piper voice if it fails)",
    )
    io.add_argument("--events", metavar="FILE.jsonl", help="also write the event log here")
    io.add_argument("--hide-private", action="store_true", help="do not print players' secret cards")
    io.add_argument(
        "--reveal-words",
        action="store_true",
        help="print every player's secret cards (Keep Cool's words) on the terminal, "
        "whatever the settings say: for a manual test (--phones is the private way)",
    )
    io.add_argument(
        "--phones",
        action="store_true",
        default=None,
        help="show each player's secret cards on their own phone (host deal)",
    )
    io.add_argument("--phones-port", type=int, help="port of the phone pages (default 8080; 0: any free one)")
    io.add_argument(
        "--phones-bind",
        help="address to serve the phone pages on (default: this machine's LAN address; 0.0.0.0 for all interfaces)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(_with_command(parser, list(sys.argv[1:] if argv is None else argv)))
        if args.command == "play":
            return play(args)
        if args.command == "resume":
            return resume(args)
        if args.command == "rules":
            game = get_game(args.game)
            print(game.TITLE)
            print(game.RULES_SUMMARY)
            print(
                f"Modes: {', '.join(game.MODES)}. Deals: {', '.join(game.DEALS)}. "
                f"Players: {game.MIN_PLAYERS} to {game.MAX_PLAYERS}."
            )
            return 0
        if args.command == "sessions":
            return delete_sessions(args) if args.delete or args.prune else list_sessions(args)
        if args.command == "devices":
            return list_devices()
        if args.command == "serve":
            return serve(args)
        if args.command == "models":
            return manage_models(args)
        if args.command == "bench":
            return run_bench(args)
        if args.command == "decks":
            return deckcheck.run_check(args) if args.deck_command == "check" else deckcheck.run_stats(args)
        parser.print_help()
        return 0
    except USER_ERRORS as error:
        print(f"partyhost: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\npartyhost: stopped.", file=sys.stderr)
        return EXIT_INTERRUPTED


def _with_command(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """argv with "play" put in where no command is named: `partyhost --input text` is the menu.

    A box with no keyboard runs plain `partyhost`; it means the spoken menu, and so does
    any line of play's options without a command.
    """
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in ("-h", "--help", "--version") or word in commands:
            return argv
        if word == "--data-dir":
            i += 2
        elif word.startswith("--data-dir="):
            i += 1
        else:
            break
    return [*argv[:i], "play", *argv[i:]]


# ---- play and resume --------------------------------------------------------


def _settings(args: argparse.Namespace, session_io: dict[str, Any] | None = None) -> Settings:
    """The settings file, then (on resume) the game's own input and output, then the flags."""
    try:
        settings = load_settings(settings_path())
        if session_io:
            settings = apply_overrides(settings, session_io, source="the saved game")
        flags = {
            "input": args.input,
            "output": args.output,
            "input_device": args.input_device,
            "output_device": args.output_device,
            "backend": args.backend,
            "voice": args.voice,
            "show_private": True if args.reveal_words else False if args.hide_private else None,
            "phones": args.phones,
            "phones_port": args.phones_port,
            "phones_bind": args.phones_bind,
        }
        settings = apply_overrides(settings, flags, source=COMMAND_LINE)
    except ConfigError as error:
        raise UserError(str(error)) from error
    return settings


def play(args: argparse.Namespace, opener: Opener | None = None) -> int:
    """A new game; `opener` gives other ears and a mouth than the settings' (partyhost serve)."""
    settings = _settings(args)
    check_grammars(list(game_ids()) if args.game is None else [args.game])
    journal = _journal(args)
    if args.game is None:
        choice = _menu(settings, opener)
        if choice is None:
            return 0
        args.game, args.players, args.mode = choice.game, ",".join(choice.players), choice.mode
    game = get_game(args.game)
    teams = tuple(_names(team) for team in args.teams.split(";")) if args.teams else ()
    players = (
        _names(args.players)
        or tuple(name for team in teams for name in team)
        or tuple(f"Player {i}" for i in range(1, max(game.MIN_PLAYERS, min(3, game.MAX_PLAYERS)) + 1))
    )
    options = GameOptions(
        players=players,
        teams=teams,
        mode=args.mode or game.MODES[0],
        deal=args.deal or game.DEALS[0],
        seed=args.seed if args.seed is not None else int(time.time()) % 1_000_000,
        rules=_input_rules(game, settings, {**settings.rules.get(game.ID, {}), **_rule_values(args.rules)}),
    )
    group = ",".join(sorted(name.lower() for name in players))
    setup = {
        "options": options_to_json(options),
        "question_decks": [str(Path(p).resolve()) for p in args.deck],
        "word_decks": [str(Path(p).resolve()) for p in args.word_deck],
        "card_deck": str(Path(args.card_deck).resolve()) if args.card_deck else None,
        "used_questions": sorted(journal.used_questions(group)),
        "group": group,
        "io": _io_to_keep(settings),
        "pins": {"grammar": grammar_version(game.ID), "rule_defaults": rule_defaults(game), "partyhost": __version__},
    }
    try:
        files = deck_files(game, setup)
        decks = load_game_decks(game, files, frozenset(setup["used_questions"]))
    except SetupError as error:
        raise UserError(str(error)) from error
    try:
        game.setup(options, decks)  # refuse bad options before anything is saved
    except RuleError as error:
        named = bool(args.players or args.teams)
        raise UserError(_explained(game, error.reason, options, named)) from error
    events_arg = _events_arg(args)  # so is an event log that cannot be written
    matcher, io = _open_io(settings, 0.0, opener)  # a missing device is refused before anything is saved
    session_id = journal.create(game.ID, setup)
    lock = SessionLock(_locks(args), session_id).acquire()
    try:
        journal.pin_inputs(session_id, [path for paths in files.values() for path in paths])
        events_path = events_arg or _default_events(args, session_id)
        journal.update_setup(session_id, {**setup, "events": str(events_path)})
        try:
            phones = _phones(settings, game, options, decks, journal, session_id, io)
        except UserError:
            journal.delete(session_id)  # nothing was played: leave no half-started game behind
            raise
        return _run_session(
            matcher, io, settings, game, options, decks, journal, session_id, group, events_path, phones=phones
        )
    finally:
        lock.release()


SPEECH_RULES = {"several_words": "clue"}
"""Rule values for spoken play where the game has the rule and it is not given: a
recogniser may split one word in two ("a low" for "pillow"), so Keep Cool takes a
clue of two words as a clue by voice; typed, it says "one word"."""


PHONE_RULES = {"tiebreak_entry": "phone"}
"""Rule values when phone pages are on: Keep It 100's tied players type their numbers
on their own pages, so nobody hears them before the host reveals them together."""


def _input_rules(game, settings: Settings, rules: dict) -> dict:
    """The given rules, plus the defaults that depend on how players answer."""
    by_input = {**(SPEECH_RULES if settings.input != "text" else {}), **(PHONE_RULES if settings.phones else {})}
    return {**{key: value for key, value in by_input.items() if key in game.RULE_DEFAULTS}, **rules}


def resume(args: argparse.Namespace, opener: Opener | None = None) -> int:
    journal = _journal(args)
    record = journal.get(args.session) if args.session else _latest_resumable(journal)
    if record is None:
        raise UserError(
            f"no saved game {args.session!r}"
            if args.session
            else "there is no unfinished game to resume; start one with: partyhost play GAME"
        )
    if record.status == "over":
        raise UserError(f"game {record.id} is already over; start a new one with: partyhost play {record.game}")
    session_io = record.setup.get("io") if isinstance(record.setup.get("io"), dict) else None
    settings = _settings(args, session_io)
    with SessionLock(_locks(args), record.id) as lock:
        if lock.stale_pid:
            print(
                f"partyhost: process {lock.stale_pid} ended without closing game {record.id}; taking it over",
                file=sys.stderr,
            )
        saved = _open_saved(journal, record)
        check_grammars([saved.game.ID])
        for note in saved.notes:
            print(f"partyhost: {note}", file=sys.stderr)
        setup = record.setup
        events_path = _events_arg(args) or _saved_events(args, record)
        matcher, io = _open_io(settings, journal.last_time(record.id), opener)
        return _run_session(
            matcher,
            io,
            settings,
            saved.game,
            saved.options,
            saved.decks,
            journal,
            record.id,
            setup.get("group", ""),
            events_path,
            saved.actions,
            phones=_phones(settings, saved.game, saved.options, saved.decks, journal, record.id, io),
        )


def _events_arg(args: argparse.Namespace) -> Path | None:
    """--events, checked: a folder, a device or a FIFO is refused in one line."""
    if not args.events:
        return None
    path = Path(args.events).resolve()
    check_writable(path, "event log")
    return path


def _default_events(args: argparse.Namespace, session_id: str) -> Path:
    return data_dir(args.data_dir) / "events" / f"{session_id}.jsonl"


def _saved_events(args: argparse.Namespace, record) -> Path:
    """The game's own event log; the data folder's when that one cannot be written (said once)."""
    default = _default_events(args, record.id)
    saved = record.setup.get("events")
    if not isinstance(saved, str) or not saved:
        return default
    try:
        check_writable(Path(saved), "event log")
    except FileProblem as problem:
        print(f"partyhost: {problem}; this game's event log is written to {default} instead", file=sys.stderr)
        return default
    return Path(saved)


def _latest_resumable(journal: Journal):
    """The most recent unfinished game that can be resumed; the damaged ones are named and skipped."""
    for record in journal.sessions():
        if record.status != "playing":
            continue
        problem = quick_problem(record)
        if problem is None:
            return record
        print(f"partyhost: skipping game {record.id}, which cannot be resumed: {problem}", file=sys.stderr)
    return None


def _open_saved(journal: Journal, record) -> SavedGame:
    try:
        return open_saved(journal, record)
    except Unresumable as reason:
        raise UserError(f"game {record.id} cannot be resumed: {reason}") from reason


def _journal(args: argparse.Namespace) -> Journal:
    """The journal of saved games; a damaged one is set aside, and the user told."""
    path = data_dir(args.data_dir) / "partyhost.sqlite3"
    try:
        journal = Journal(path)
    except (sqlite3.OperationalError, OSError) as error:
        raise UserError(f"cannot open the saved games in {path}: {error}") from error
    if journal.notice:
        print(f"partyhost: {journal.notice}", file=sys.stderr)
    return journal


def _locks(args: argparse.Namespace) -> Path:
    return data_dir(args.data_dir) / "locks"


def _io_to_keep(settings: Settings) -> dict[str, str]:
    """The input and output a game was played with, for its resume; a recording is not replayed
    (a satellite is live, like the microphone)."""
    keep = {}
    if settings.input in ("text", "mic") or is_wyoming(settings.input):
        keep["input"] = settings.input
    if settings.output in ("text", "speaker") or is_wyoming(settings.output):
        keep["output"] = settings.output
    return keep


def _explained(game, reason: str, options: GameOptions, named: bool) -> str:
    """A refusal of the options, with the flag that fixes it where the rules name one; when
    no players were named, how to name them (the stand-in roster did not fit)."""
    if game.ID == "centurion" and "two players" in reason:
        return f"{reason} (one player: --mode vs-host)"
    if not named:
        solo = options.mode == option(game, "SOLO_MODE")
        example = ",".join(("Ana", "Ben", "Cy", "Dee")[: 1 if solo else max(game.MIN_PLAYERS, 2)])
        who = "the player" if solo else "the players"
        return f'{reason} Name {who} with --players, for example --players "{example}".'
    return reason


def _menu(settings: Settings, opener: Opener | None = None):
    from partyhost.menu import run_menu

    matcher, io = _open_io(settings, 0.0, opener)
    try:
        return run_menu(io.ears, io.mouth)
    finally:
        io.close()


def _open_io(settings: Settings, t0: float, opener: Opener | None = None) -> tuple[Matcher, GameIO]:
    matcher = Matcher(accept=settings.accept_score, confirm=settings.confirm_score)
    if opener is not None:
        return matcher, opener(settings, t0)
    try:
        return matcher, open_io(settings, matcher, clock_offset=t0)
    except IOChoiceError as error:
        hint = "; to type your replies instead, add --input text" if settings.input == "mic" else ""
        raise UserError(f"{error}{hint}") from error


def _phones(settings: Settings, game, options: GameOptions, decks, journal: Journal, session_id: str, io: GameIO):
    """The phone pages of this game when asked for and useful; None otherwise."""
    if not settings.phones:
        return None
    from partyhost.phones.service import PhoneServerError, bind_address, log_to_stderr
    from partyhost.phones.table import PhoneTable, has_secret_hands

    if not has_secret_hands(game, options):
        print(
            f"partyhost: phones are for host-deal games with secret cards; {game.TITLE} with "
            f"{options.deal} deal has none, so no phone page is started",
            file=sys.stderr,
        )
        return None
    log_to_stderr()
    try:
        return PhoneTable.open(
            game, options, decks, journal, session_id, bind_address(settings.phones_bind), settings.phones_port
        )
    except PhoneServerError as error:
        io.close()
        raise UserError(f"{error}; choose another with --phones-port or --phones-bind") from error


def _run_session(
    matcher: Matcher,
    io: GameIO,
    settings: Settings,
    game,
    options,
    decks,
    journal,
    session_id: str,
    group: str,
    events_path: Path,
    resume_from: list | None = None,
    phones=None,
) -> int:
    """Start (or replay and continue) the game with these ears and mouth; close them after."""
    log = EventLog(events_path, io.clock)
    outcome = "eof"
    try:
        session = Session(
            game,
            options,
            decks,
            journal,
            SessionInfo(session_id, group),
            log,
            io.ears,
            io.mouth,
            io.clock,
        )
        session.remind_after = io.remind_after
        session.undo_after_reveal = settings.undo_after_reveal
        if phones is not None:
            from partyhost.phones.service import LOOPBACK, NO_NETWORK_SPOKEN, show_join

            phones.attach(session)
            show_join(phones.address)
            unreachable = not settings.phones_bind and phones.address.host == LOOPBACK
            for text in ([NO_NETWORK_SPOKEN] if unreachable else []) + [phones.address.spoken]:
                log.write({"type": "say", "text": text})
                session.mouth.say(text)
        if resume_from is None:
            session.start()
        else:
            session.restore(resume_from)
        try:
            outcome = session.run()
        except KeyboardInterrupt:  # Ctrl-C: like Ctrl-D, every accepted move is journaled already
            print()
        except JournalUnwritable as error:  # the move was not taken; the players hear why the game stops
            io.mouth.say(error.spoken)
            error.told = True
            raise
    finally:
        if phones is not None:
            phones.close(outcome)
        log.close()
        io.close()
    if outcome == "eof":
        print(f"HOST: The game is saved. To continue: partyhost resume {session_id}")
    return 0


# ---- serve: a Home Assistant conversation agent ----------------------------------


def serve(args: argparse.Namespace) -> int:
    """Games played through Home Assistant's Assist devices (partyhost/wyoming_service.py)."""
    import socket

    from partyhost.conversation import Conversation
    from partyhost.wyoming_service import ServiceError, Table, run_service

    try:
        settings = apply_overrides(
            load_settings(settings_path()),
            {"serve_bind": args.bind, "serve_port": args.port, "serve_zeroconf": False if args.no_zeroconf else None},
            source=COMMAND_LINE,
        )
    except ConfigError as error:
        raise UserError(str(error)) from error
    _journal(args)  # a journal that cannot open is refused now
    from partyhost.phones.service import bind_address

    bind = bind_address(settings.serve_bind)
    from voice.understanding.understand import TextUnderstanding

    matcher = Matcher(accept=settings.accept_score, confirm=settings.confirm_score)
    conversation = Conversation(show_private=settings.show_private, understanding=TextUnderstanding(matcher))
    table = Table(conversation, lambda talk: _serve_games(args, talk))
    name = f"partyhost-{socket.gethostname().split('.')[0]}"[:60]

    def ready(port: int, announced: str | None) -> None:
        print(
            f"partyhost: serving games on {bind}:{port} (Wyoming protocol)"
            + (f", announced as {name} at {announced}" if announced else ""),
            flush=True,
        )
        print(
            "partyhost: in Home Assistant: Settings > Devices & services > Add integration > "
            f"Wyoming Protocol, this machine's address, port {port}; then choose partyhost as the "
            "conversation agent of an Assist pipeline",
            flush=True,
        )

    try:
        run_service(table, bind, settings.serve_port, name if settings.serve_zeroconf else None, ready)
    except ServiceError as error:
        raise UserError(str(error)) from error
    return 0


def _serve_games(args: argparse.Namespace, conversation) -> None:
    """The table's games as `partyhost resume` and `partyhost play` run them (served_table.py)."""
    from partyhost.served_table import play_games

    parser = build_parser()

    def fresh(command: str) -> argparse.Namespace:
        """New each time (play() fills in the menu's choice). Spoken play, whatever the settings'
        input and output: its rules for speech apply, and a resume at the box is by voice."""
        return parser.parse_args(
            [
                *(["--data-dir", args.data_dir] if args.data_dir else []),
                command,
                "--input",
                "mic",
                "--output",
                "speaker",
            ]
        )

    play_games(
        conversation,
        lambda opener: resume(fresh("resume"), opener),
        lambda opener: play(fresh("play"), opener),
        USER_ERRORS,
        (UserError, SessionBusy),
    )


def run_bench(args: argparse.Namespace) -> int:
    from partyhost.bench import manifest as bench

    settings = load_settings(settings_path())
    if args.bench_command == "pace":
        from partyhost.bench import pace

        return pace.command(args.piper, args.json)
    if args.bench_command == "matcher":
        from partyhost.bench import matcher as matcher_bench

        return matcher_bench.command(args.count)
    if args.bench_command == "chatter":
        from partyhost.bench import chatter as chatter_bench

        games = [g.strip() for g in args.games.split(",")] if args.games else None
        unknown = set(games or ()) - set(game_ids())
        if unknown:
            raise UserError(f"no game called {', '.join(sorted(unknown))}; games: {', '.join(game_ids())}")
        if not 1 <= args.voices <= 12:
            raise UserError("--voices takes 1 to 12")
        return chatter_bench.command(args.minutes, games, args.json, args.voices)
    if args.bench_command == "table":
        from partyhost.bench import table as table_bench

        if not 1 <= args.tries <= 20:
            raise UserError("--tries takes 1 to 20")
        if args.keep is not None and args.keep.exists() and any(args.keep.iterdir()):
            raise UserError(f"--keep {args.keep}: the folder is not empty")
        split = lambda text: [part.strip() for part in text.split(",") if part.strip()] if text else None  # noqa: E731
        try:
            if args.from_json:
                return table_bench.reprint(args.from_json)
            return table_bench.command(
                args.quick,
                split(args.cases),
                split(args.conditions),
                args.voices,
                args.tries,
                args.json,
                args.settings,
                args.keep,
            )
        except table_bench.TableBenchError as error:
            raise UserError(str(error)) from error
    if args.bench_command == "wake":
        from partyhost.bench import wake as wake_bench
        from partyhost.bench.synthetic_speech import FixtureError
        from voice.listening.wake import OFF

        word = args.wake_word or settings.wake_word
        if word == OFF:
            raise UserError("the wake word is off in the settings: name one with --wake-word")
        if not 0 < args.hours <= 1000 or args.jobs < 1:
            raise UserError(
                "--hours takes a number of hours above 0 (at most 1000), --jobs a number of processes from 1"
            )
        try:
            apply_overrides(settings, {"wake_word": word}, source="--wake-word")
            return wake_bench.command(word, args.hours, args.jobs, args.quick, not args.no_commands)
        except (ConfigError, FixtureError) as error:
            raise UserError(str(error)) from error
    if args.bench_command == "keep-cool":
        from partyhost.bench import keep_cool as keep_cool_bench
        from partyhost.bench.synthetic_speech import FixtureError

        try:
            return keep_cool_bench.command(
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
                real=args.real,
            )
        except FixtureError as error:
            raise UserError(str(error)) from error
    backend = args.backend or settings.backend
    if backend:
        from voice.recognizers import check_backend_name

        try:
            check_backend_name(backend)
        except ValueError as error:
            raise UserError(f"the recogniser {error}") from error
    settings = dataclasses.replace(settings, backend=backend)
    if args.bench_command == "accuracy":
        if not args.manifest.is_file():
            raise UserError(f"no manifest at {args.manifest}")
        return bench.accuracy_command(args.manifest, settings, args.grammar, args.json)
    if args.choose:
        from partyhost.model_choice import choose_command
        from partyhost.models import default_models_dir

        folder = Path(settings.models_dir or default_models_dir())
        return choose_command(folder, args.manifest or bench.FIXTURE_MANIFEST)
    return bench.latency_command(args.manifest or bench.FIXTURE_MANIFEST, settings, args.paced)


def manage_models(args: argparse.Namespace) -> int:
    from partyhost.models import ModelFetchError, default_models_dir, fetch, load_manifest, provided_by_package

    try:
        folder = Path(args.models_dir or load_settings(settings_path()).models_dir or default_models_dir())
        entries = load_manifest()
        if args.model_command == "list":
            from partyhost.model_choice import model_lines

            print("\n".join(model_lines(entries, folder)))
            return 0
        unknown = set(args.names) - {e.name for e in entries}
        if unknown:
            raise UserError(f"no model called {', '.join(sorted(unknown))}; see: partyhost models list")
        if args.archive and len(args.names) != 1:
            raise UserError(
                "--from installs one model: name it, e.g. "
                f"partyhost models fetch {entries[0].name} --from {args.archive}"
            )
        for entry in entries:
            if args.names and entry.name not in args.names:
                continue
            if not args.names and (entry.backend == "whisper" or entry.unverifiable()):
                print(
                    f"{entry.name}: only when named (a larger recogniser, or no published checksum); "
                    "see: partyhost models list"
                )
                continue
            package = provided_by_package(entry)
            print(
                f"{entry.name}: in the {package} package already, not downloaded"
                if package
                else f"{entry.name}: ready in {fetch(entry, folder, archive=args.archive)}"
            )
    except (ModelFetchError, ConfigError) as error:
        raise UserError(str(error)) from error
    return 0


def list_devices() -> int:
    from voice.devices import AudioDeviceError
    from voice.devices import list_devices as devices

    try:
        found = devices()
    except AudioDeviceError as error:
        raise UserError(str(error)) from error
    if not found:
        print("No sound devices found. Plug in a USB speakerphone, or check `pactl info`.")
    for device in found:
        print(device.describe())
    return 0


def list_sessions(args: argparse.Namespace) -> int:
    """One line per saved game; with --check each is replayed, and the exit code says if any is damaged."""
    journal = _journal(args)
    records = journal.sessions()
    if not records:
        print("No saved games yet.")
    damaged = 1 if journal.notice else 0
    for r in records:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.updated))
        problem = quick_problem(r)
        if problem is None and args.check and r.status == "playing":
            try:
                open_saved(journal, r)
            except Unresumable as reason:
                problem = str(reason)
        if problem is not None:
            damaged += 1
            print(f"{r.id}  {r.game[:12]:<12} unresumable: {problem}")
            continue
        players = ", ".join(r.setup["options"]["players"])
        print(f"{r.id}  {r.game:<12} {r.status:<8} {r.actions:>4} moves  {when}  {players}")
    if args.check:
        print(
            f"{len(records)} saved games checked in {journal.path}: "
            + (f"{damaged} damaged" if damaged else "all can be resumed")
        )
        return 1 if damaged else 0
    return 0


def delete_sessions(args: argparse.Namespace) -> int:
    """`sessions --delete ID` and `--prune` (games with no move): gone from the journal, with
    their event log when it is in the data folder; a game being played is refused."""
    journal = _journal(args)
    records = {record.id: record for record in journal.sessions()}
    unknown = [session_id for session_id in args.delete if session_id not in records]
    if unknown:
        raise UserError(f"there is no saved game {unknown[0]!r}; see: partyhost sessions")
    chosen = list(dict.fromkeys(args.delete + [r.id for r in records.values() if args.prune and not r.actions]))
    events_folder = (data_dir(args.data_dir) / "events").resolve()
    with contextlib.ExitStack() as locks:  # all or none: a game being played stops it first
        for session_id in chosen:
            locks.enter_context(SessionLock(_locks(args), session_id))
        for session_id in chosen:
            record = records[session_id]
            journal.delete(session_id)
            events = Path(str(record.setup.get("events") or events_folder / f"{session_id}.jsonl")).resolve()
            if events.parent == events_folder:
                events.unlink(missing_ok=True)
            print(f"deleted {session_id}  {record.game}, {record.actions} moves")
    if not chosen:
        print("No saved game without moves.")
    return 0


# ---- helpers -------------------------------------------------------------------


def _names(text: str | None) -> tuple[str, ...]:
    return tuple(name.strip() for name in (text or "").split(",") if name.strip())


def _rule_values(pairs: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs; values read as JSON where they parse (12, true, [1,2]), else text;
    bounded in length and nesting as the settings file's are."""
    rules: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or len(key) > 100:
            raise UserError(f"--rules takes KEY=VALUE, got {pair[:100]!r}{'...' if len(pair) > 100 else ''}")
        where = f"--rules {key.strip()}"
        if len(value) > VALUE_CHARS:
            raise ConfigError(f"{where}: the value is longer than {VALUE_CHARS} characters")
        try:
            rules[key.strip()] = json.loads(value)
        except RecursionError:
            raise ConfigError(f"{where}: the value nests too deeply") from None
        except ValueError:  # not JSON (or a number too long for Python to read): text
            rules[key.strip()] = value
        check_value_size(rules[key.strip()], where)
    return rules
