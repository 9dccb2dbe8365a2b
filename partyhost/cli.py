"""The partyhost command line: it reads the arguments, hands them to the application and prints
what comes back.

Games are started, resumed, listed and deleted by partyhost/games_folder.py; `serve` by
partyhost/served_games.py; `bench`, `models` and `decks` by their own command modules.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.errors import PartyhostError, closest, one_line
from host.games import game_ids, get_game
from partyhost import __version__, deckcheck, model_commands, serve_command
from partyhost.bench import commands as bench_commands
from partyhost.config import rule_values
from partyhost.game_setup import GameSetup
from partyhost.games_folder import GamesFolder, Place, SavedEntry
from partyhost.invoked import command
from partyhost.io_arguments import add_io_arguments, io_choice
from partyhost.logs import one_line_logs
from partyhost.player_names import name_problem
from partyhost.saved import SavedSetup
from partyhost.usage import Parser, named

if TYPE_CHECKING:
    from partyhost.sitting import GameEnd

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def build_parser(more_benches: bool = True) -> argparse.ArgumentParser:
    """`more_benches`: with the benches another package adds (the lab's, in a checkout):
    looked for only when `bench` is the command, so no other command's start-up pays."""
    parser = Parser(prog=command(), description="An offline voice host for tabletop party games.")
    parser.add_argument("--version", action="version", version=f"partyhost {__version__}")
    parser.add_argument("--data-dir", help=DATA_DIR_HELP)
    # --data-dir after the command too: `play keep-cool --data-dir X` (SUPPRESS: not given
    # there, the one before the command, or the default, stands)
    data_dir = Parser(add_help=False)
    data_dir.add_argument("--data-dir", default=argparse.SUPPRESS, help=DATA_DIR_HELP)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_play(commands, data_dir)
    _add_saved_games(commands, data_dir)
    serve_command.add_parser(commands, data_dir)
    bench_commands.add_parser(commands, more_benches)
    model_commands.add_parser(commands)
    decks = commands.add_parser("decks", help="check deck files, or show their statistics")
    deck_actions = decks.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    deckcheck.add_arguments(deck_actions.add_parser("check", help="find problems in deck files"))
    deckcheck.add_arguments(
        deck_actions.add_parser("stats", help="counts, answer histogram and Keep Cool difficulty table")
    )
    return parser


DATA_DIR_HELP = "where sessions are saved (default: the platform data dir, or $PARTYHOST_DATA_DIR)"


def _add_play(commands: Any, data_dir: Parser) -> None:
    play = commands.add_parser("play", help="start a new game", parents=[data_dir])
    play.add_argument("game", nargs="?", choices=game_ids(), help="which game (none: the spoken menu asks)")
    play.add_argument("--players", help='comma-separated names in seating order, e.g. "Ana,Ben,Cy"')
    play.add_argument("--teams", help='teams separated by ";", e.g. "Ana,Ben;Cy,Dee" (zero-to-100)')
    play.add_argument("--mode", help=f"game variant (see: {command()} rules GAME)")
    play.add_argument("--deal", choices=("host", "table"), help="who deals secret cards")
    play.add_argument("--seed", type=int, help="random seed, for a repeatable game")
    play.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a rule parameter (repeatable), e.g. --rules turn_seconds=12",
    )
    decks = (
        ("--deck", "question deck file(s) (CSV or YAML) instead of the shipped one"),
        ("--word-deck", "Keep Cool word deck file(s) instead of the shipped one"),
    )
    for flag, text in decks:
        play.add_argument(flag, action="append", default=[], metavar="FILE", type=named, help=text)
    play.add_argument(
        "--card-deck",
        metavar="FILE",
        type=named,
        help="1%% bid and reward decks, or Centurion's pack (YAML), instead of the shipped one",
    )
    add_io_arguments(play)


def _add_saved_games(commands: Any, data_dir: Parser) -> None:
    resume = commands.add_parser("resume", help="continue a saved game (the latest by default)", parents=[data_dir])
    resume.add_argument("session", nargs="?", help=f"session id (see: {command()} sessions)")
    add_io_arguments(resume)
    rules = commands.add_parser("rules", help="how a game is played, in short")
    rules.add_argument("game", choices=game_ids())
    sessions = commands.add_parser("sessions", help="list saved games", parents=[data_dir])
    sessions.add_argument(
        "--check", action="store_true", help="replay every saved game and report the ones that cannot be resumed"
    )
    sessions.add_argument(
        "--delete", action="append", default=[], metavar="ID", help="delete a saved game and its event log (repeatable)"
    )
    sessions.add_argument("--prune", action="store_true", help="delete every saved game with no move")
    commands.add_parser("devices", help="list microphones and speakers (> default input, < default output)")


def main(argv: Sequence[str] | None = None) -> int:
    one_line_logs()
    try:
        words = _with_command(list(sys.argv[1:] if argv is None else argv))
        parser = build_parser(more_benches="bench" in words)
        args = parser.parse_args(words)
        if args.command is None:
            parser.print_help()
            return 0
        return RUNS[args.command](args)
    except PartyhostError as error:  # a mistake the user can fix, or a disk that refuses to save
        print(f"partyhost: {one_line(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\npartyhost: stopped.", file=sys.stderr)
        return EXIT_INTERRUPTED


def _with_command(argv: list[str]) -> list[str]:
    """argv with "play" put in where no command is named: `partyhost --input text` is the menu.

    A box with no keyboard runs plain `partyhost`; it means the spoken menu, and so does
    any line of play's options without a command, or a game alone (`partyhost keep-cool`).
    A word close to a command's name is a command mistyped ("plya"), told as such.
    """
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in ("-h", "--help", "--version") or word in RUNS:
            return argv
        if word == "--data-dir":
            i += 2
        elif word.startswith("--data-dir="):
            i += 1
        else:
            if not word.startswith("-") and word not in game_ids() and closest(word, RUNS) is not None:
                return argv
            break
    return [*argv[:i], "play", *argv[i:]]


# ---- games ----------------------------------------------------------------------


def _games_folder(args: argparse.Namespace) -> GamesFolder:
    return GamesFolder(Place.chosen(args.data_dir), tell=_note)


def _note(text: str) -> None:
    print(f"partyhost: {text}", file=sys.stderr)


def play(args: argparse.Namespace) -> int:
    setup = GameSetup(
        game=args.game,
        players=_names(args.players),
        teams=_teams(args.teams),
        mode=args.mode,
        deal=args.deal,
        seed=args.seed,
        rules=rule_values(args.rules),
        question_decks=tuple(Path(p) for p in args.deck),
        word_decks=tuple(Path(p) for p in args.word_deck),
        card_deck=Path(args.card_deck) if args.card_deck else None,
    )
    return _ended(_games_folder(args).play(setup, io_choice(args)))


def resume(args: argparse.Namespace) -> int:
    return _ended(_games_folder(args).resume(args.session, io_choice(args)))


def _ended(end: GameEnd | None) -> int:
    if end is not None and end.interrupted:
        print()
    if end is not None and end.saved_line:
        print(end.saved_line)
    return 0


class UsageError(PartyhostError):
    """An argument that cannot mean what it says: refused in one line before anything starts."""


def _names(text: str | None, flag: str = "--players") -> tuple[str, ...]:
    """The names of a comma-separated list; an empty one ("Ana,,Cy", " ") is refused, never
    dropped: the table would otherwise play with fewer or other players than it named."""
    if text is None:
        return ()
    names = tuple(name.strip() for name in text.split(","))
    if not any(names):
        raise UsageError(f'{flag} names nobody; name the players, e.g. {flag} "Ana,Ben,Cy"')
    if not all(names):
        raise UsageError(f'{flag} {text!r} has an empty name; separate the names with one comma, e.g. "Ana,Ben,Cy"')
    problem = name_problem(names)
    if problem is not None:
        raise UsageError(f"{problem}; give each player a different name of letters, digits and spaces")
    return names


def _teams(text: str | None) -> tuple[tuple[str, ...], ...]:
    """Teams separated by ";", each a list of names; an empty team or name is refused."""
    if text is None:
        return ()
    teams = text.split(";")
    if not all(team.strip() for team in teams):
        raise UsageError(f'--teams {text!r} has an empty team; separate the teams with one ";", e.g. "Ana,Ben;Cy,Dee"')
    return tuple(_names(team, "--teams") for team in teams)


def rules(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    print(game.title)
    print(game.rules_summary)
    players = f"Players: {game.min_players} to {game.max_players}."
    print(f"Modes: {', '.join(game.modes)}. Deals: {', '.join(game.deals)}. {players}")
    return 0


def sessions(args: argparse.Namespace) -> int:
    """One line per saved game; with --check each is replayed, and the exit code says if any is damaged.
    With --delete and --prune, the games deleted."""
    folder = _games_folder(args)
    if args.delete or args.prune:
        deleted = 0
        for record in folder.delete(args.delete, args.prune):
            print(f"deleted {record.id}  {record.game}, {_moves(record.actions)}")
            deleted += 1
        if not deleted:
            print("No saved game without moves.")
        return 0
    saved = folder.saved_games(replay=args.check)
    if not saved.entries:
        print("No saved games yet.")
    for entry in saved.entries:
        print(_saved_line(entry))
    if not args.check:
        return 0
    verdict = f"{saved.damaged} damaged" if saved.damaged else "all can be resumed"
    print(f"{len(saved.entries)} saved games checked in {saved.journal}: {verdict}")
    return 1 if saved.damaged else 0


def _saved_line(entry: SavedEntry) -> str:
    r = entry.record
    if entry.problem is not None:
        return f"{r.id}  {r.game[:12]:<12} unresumable: {entry.problem}"
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.updated))
    players = ", ".join(SavedSetup.from_dict(r.setup).options.players)  # it has no problem: it reads
    return f"{r.id}  {r.game:<12} {r.status:<8} {_moves(r.actions, 4)}  {when}  {players}"


def _moves(count: int, width: int = 0) -> str:
    """ "1 move", "12 moves" (the count right-aligned in `width`)."""
    return f"{count:>{width}} move{'' if count == 1 else 's'}"


def devices(args: argparse.Namespace) -> int:
    from voice.devices import list_devices

    found = list_devices()
    if not found:
        print("No sound devices found. Plug in a USB speakerphone, or check `pactl info`.")
    for device in found:
        print(device.describe())
    return 0


def serve(args: argparse.Namespace) -> int:
    return serve_command.run(args, _games_folder(args))


def decks(args: argparse.Namespace) -> int:
    return deckcheck.run_check(args) if args.deck_command == "check" else deckcheck.run_stats(args)


RUNS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": play,
    "resume": resume,
    "rules": rules,
    "sessions": sessions,
    "devices": devices,
    "serve": serve,
    "bench": bench_commands.run,
    "models": model_commands.run,
    "decks": decks,
}
"""What each command runs (and which words are commands, for _with_command)."""
