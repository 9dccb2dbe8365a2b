"""The application: games started, resumed, listed and deleted in one data folder.

The command line, `partyhost serve` and the tests call a GamesFolder; it owns what a game holds
open while it is played (the journal, the session lock, the event log, the ears and mouth,
the phone pages) and closes each when the game ends (the game itself: partyhost/sitting.py).
What the players should know on the way (a damaged journal set aside, a stale lock taken
over) goes to `tell`, one line each; what stops a game is an error (UserError and the
other PartyhostErrors), never a print.

Listing, deleting and refusing a bad option need only the journal, the settings and the
rules. The game's machinery (grammars, understanding, ears and mouth) is imported where a
game starts, so those answers come at once, even on a Raspberry Pi.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

from host.contract import Json
from host.decks import Decks
from host.engine import Game, GameOptions, RuleError
from host.errors import PartyhostError, did_you_mean
from host.files import FileProblem, check_writable, make_folder, resolved
from host.games import game_ids, get_game
from host.journal import UNFINISHED, Journal, SessionRecord
from host.play import SessionInfo
from host.sessionlock import SessionBusy, SessionLock
from partyhost import __version__
from partyhost.config import COMMAND_LINE, ConfigError, Settings, apply_overrides, load_settings, settings_path
from partyhost.game_setup import GameSetup, IOChoice, after_last_game, explained, game_options
from partyhost.invoked import command
from partyhost.saved import (
    Pins,
    SavedGame,
    SavedSetup,
    Unresumable,
    deck_files,
    grammar_version,
    load_game_decks,
    open_saved,
    quick_problem,
    rule_defaults,
)
from voice.remote.address import is_wyoming

if TYPE_CHECKING:  # the game's machinery is imported where a game starts (see GamesFolder's docstring)
    from partyhost.menu import MenuChoice
    from partyhost.sitting import GameEnd, Sitting
    from partyhost.voiceio import GameIO


class UserError(PartyhostError):
    """Something the user can fix; told as one clear line, never a traceback."""


class NothingToResume(UserError):
    """`resume` with no unfinished game: a mistake when asked for, the usual case at `serve`'s start."""


@dataclass(frozen=True)
class Place:
    """The data folder: the journal of saved games, their locks and their event logs."""

    folder: Path

    @classmethod
    def chosen(cls, folder: str | None = None) -> Place:
        """The folder given, else $PARTYHOST_DATA_DIR, else the platform's data folder."""
        return cls(Path(folder or os.environ.get("PARTYHOST_DATA_DIR") or platformdirs.user_data_dir("partyhost")))

    @property
    def journal(self) -> Path:
        return self.folder / "partyhost.sqlite3"

    @property
    def locks(self) -> Path:
        return self.folder / "locks"

    @property
    def events(self) -> Path:
        return self.folder / "events"

    def event_log(self, session_id: str) -> Path:
        return self.events / f"{session_id}.jsonl"

    def stored_log(self, path: Path) -> str:
        """An event log's path as the journal keeps it: relative to the data folder when it is in
        it, so a copied folder (cp -a) writes and deletes its own logs, not the original's."""
        try:
            return str(path.relative_to(self.folder))
        except ValueError:
            return str(path)

    def saved_log(self, session_id: str, saved: str) -> Path:
        """The event log the journal names for a game: a relative path is in this data folder, and
        so is a default one saved whole before logs were kept relative (<folder>/events/<id>.jsonl)."""
        if not saved:
            return self.event_log(session_id)
        path = Path(saved)
        if not path.is_absolute():
            return self.folder / path
        if path.name == f"{session_id}.jsonl" and path.parent.name == self.events.name:
            return self.event_log(session_id)
        return path


@dataclass(frozen=True)
class SavedEntry:
    """One saved game and why it cannot be resumed (None: it can)."""

    record: SessionRecord
    problem: str | None


@dataclass(frozen=True)
class SavedGames:
    """The saved games of a journal; a journal found damaged and set aside counts as one damage."""

    journal: Path
    entries: list[SavedEntry]
    journal_damaged: bool

    @property
    def damaged(self) -> int:
        return int(self.journal_damaged) + sum(entry.problem is not None for entry in self.entries)


@dataclass(frozen=True)
class _NewGame:
    """A new game checked against its rules and decks, ready to be saved."""

    game: Game[Any]
    options: GameOptions
    decks: Decks
    files: dict[str, list[Path]]
    setup: SavedSetup


class GamesFolder:
    """Games in one data folder: play, resume, list and delete them."""

    def __init__(self, place: Place, tell: Callable[[str], None]):
        self.place = place
        self.tell = tell
        """Gets each thing the players should know on the way, one line without a prefix."""

    # ---- the journal --------------------------------------------------------

    def open_journal(self, to_read: bool = False) -> Journal:
        """The journal of saved games; a damaged one is set aside, and the user told.

        In a data folder that cannot be written (a read-only mount), SQLite cannot make the
        files it needs beside the journal: with `to_read` (listing, checking) it is read as it
        is, unchanging; anything else is refused with the reason."""
        path = self.place.journal
        self._make_folder()
        try:
            journal = Journal(path)
        except (sqlite3.OperationalError, OSError) as error:
            if path.is_file() and not os.access(self.place.folder, os.W_OK):
                if to_read:
                    return Journal.read_only(path)
                raise UserError(
                    f"the data folder {self.place.folder} is read-only, so no game can be saved or resumed "
                    f"there ({command()} sessions still lists them); choose another with --data-dir"
                ) from error
            raise UserError(f"cannot open the saved games in {path}: {error}") from error
        if journal.notice:
            self.tell(journal.notice)
        return journal

    def _make_folder(self) -> None:
        """The data folder, made where missing; one line when something else stands in its place."""
        try:
            make_folder(self.place.folder)
        except OSError as problem:  # a file in its place, or no right to make it
            raise UserError(f"the data folder cannot be used: {problem}; choose another with --data-dir") from None

    def check(self) -> None:
        """Refuse now a journal that cannot open (partyhost serve, before it listens)."""
        self.open_journal().close()

    # ---- play and resume ----------------------------------------------------

    def play(self, setup: GameSetup, choice: IOChoice) -> GameEnd | None:
        """A new game, or the saved one "resume" chose at the spoken menu; None when the menu
        was left without choosing one.

        Where there is no journal yet, none is made until the game is sure to start: a
        refused deck or option leaves no empty journal behind."""
        settings = self._settings(choice)
        self._make_folder()  # an event log may be asked for in it
        with contextlib.ExitStack() as held:
            journal = None
            if os.path.lexists(self.place.journal):  # anything by its name: open_journal judges it
                journal = held.enter_context(contextlib.closing(self.open_journal()))
            game_id = setup.game
            if game_id is None:
                _check_grammars(list(game_ids()))
                picked = self._menu(settings, choice, journal)
                if picked is None:
                    return None
                if picked.resume:
                    return self.resume(picked.resume, choice)
                game_id = picked.game
                players = tuple(name.strip() for name in picked.players if name.strip())
                setup = dataclasses.replace(setup, game=game_id, players=players, mode=picked.mode)
            new = _new_game(journal, game_id, setup, settings)
            _check_grammars([game_id])
            events = _events_arg(choice)  # so is an event log that cannot be written
            io = _open_io(settings, 0.0, choice)  # a missing device is refused before anything is saved
            if journal is None:
                with _closed_on_failure(io):
                    journal = held.enter_context(contextlib.closing(self.open_journal()))
            return self._start(journal, new, settings, io, events, choice)

    def resume(self, session_id: str | None, choice: IOChoice, quit_too: bool = True) -> GameEnd:
        """A saved game (the latest unfinished one when None), replayed and continued.
        `quit_too`: a game its players quit counts as unfinished (False: only one that was
        stopped otherwise, as `partyhost serve` resumes by itself)."""
        from partyhost.sitting import Sitting, play_sitting

        with contextlib.closing(self.open_journal()) as journal, contextlib.ExitStack() as held:
            record, lock = self._claim(journal, session_id, held, quit_too)
            if lock.stale_pid:
                self.tell(f"process {lock.stale_pid} ended without closing game {record.id}; taking it over")
            if record.status == "quit":
                journal.set_status(record.id, "playing")  # played again: a crash now is resumed by serve
            saved = _open_saved(journal, record)
            settings = self._settings(choice, saved.setup.io)
            _check_grammars([saved.game.id])
            for note in saved.notes:
                self.tell(note)
            events = _events_arg(choice) or self._saved_events(record.id, saved.setup)
            io = _open_io(settings, journal.last_time(record.id), choice)
            info = SessionInfo(record.id, saved.setup.group)
            sitting = Sitting(
                saved.game, saved.options, saved.decks, journal, info, settings, io, events, saved.actions
            )
            with _closed_on_failure(io):
                sitting.phones = self._phones(sitting, choice)
            return play_sitting(sitting)

    def _settings(self, choice: IOChoice, session_io: Mapping[str, Json] | None = None) -> Settings:
        """The settings file, then (on resume) the game's own input and output, then the choice."""
        try:
            settings = load_settings(settings_path())
            if session_io:
                settings = apply_overrides(settings, session_io, source="the saved game")
            return apply_overrides(settings, choice.overrides(), source=COMMAND_LINE)
        except ConfigError as error:  # a UserError, so partyhost serve goes on to the menu
            raise UserError(str(error)) from error

    def _menu(self, settings: Settings, choice: IOChoice, journal: Journal | None) -> MenuChoice | None:
        """The game, players and mode the spoken menu chose, or the saved game to resume;
        None when it was left. No journal yet: no game is saved to resume."""
        from partyhost.menu import WaitingGame, run_menu

        waiting = [
            WaitingGame(
                record.id, record.game, get_game(record.game).title, SavedSetup.from_dict(record.setup).options.players
            )
            for record in (self._resumable_games(journal) if journal is not None else [])
        ]
        io = _open_io(settings, 0.0, choice)
        try:
            return run_menu(io.ears, io.mouth, waiting)
        finally:
            io.close()

    def _start(
        self, journal: Journal, new: _NewGame, settings: Settings, io: GameIO, events: Path | None, choice: IOChoice
    ) -> GameEnd:
        """Save the new game, take its lock and play it."""
        from partyhost.sitting import Sitting, play_sitting

        with _closed_on_failure(io):
            session_id = journal.create(new.game.id, new.setup.to_dict())
            lock = SessionLock(self.place.locks, session_id).acquire()
        try:
            with _closed_on_failure(io):
                journal.pin_inputs(session_id, [path for paths in new.files.values() for path in paths])
                events_path = events or self.place.event_log(session_id)
                logged = dataclasses.replace(new.setup, events=self.place.stored_log(events_path))
                journal.update_setup(session_id, logged.to_dict())
                info = SessionInfo(session_id, new.setup.group)
                sitting = Sitting(new.game, new.options, new.decks, journal, info, settings, io, events_path)
                try:
                    sitting.phones = self._phones(sitting, choice)
                except UserError:
                    journal.delete(session_id)  # nothing was played: leave no half-started game behind
                    raise
            return play_sitting(sitting)
        except KeyboardInterrupt:  # while dealing or welcoming, before the first question: nothing was played
            lock.release()
            list(self.delete([session_id]))  # with its event log: no game of 0 moves is left behind
            raise
        finally:
            lock.release()

    def _claim(
        self, journal: Journal, session_id: str | None, held: contextlib.ExitStack, quit_too: bool = True
    ) -> tuple[SessionRecord, SessionLock]:
        """The game to resume, its lock held in `held`: the one named, or else the newest
        unfinished one no other process is playing (one its players quit only if `quit_too`).

        Several unfinished games (several `serve` processes on one data folder, each
        stopped mid-game) are resumed newest first, one per process: a game another process
        plays is passed over for the next, and the players are told which game this is and
        how many more wait (docs/robustness.md)."""
        if session_id:
            record = journal.get(session_id)
            if record is None:
                raise UserError(f"no saved game {session_id!r}")
            if record.status == "over":
                raise UserError(
                    f"game {record.id} is already over; start a new one with: {command()} play {record.game}"
                )
            return record, held.enter_context(SessionLock(self.place.locks, record.id))
        waiting = [r for r in self._resumable_games(journal) if quit_too or r.status != "quit"]
        busy: list[SessionBusy] = []
        for n, record in enumerate(waiting):
            try:
                lock = held.enter_context(SessionLock(self.place.locks, record.id))
            except SessionBusy as playing:
                busy.append(playing)
                continue
            others = len(waiting) - n - 1
            if busy or others:
                playing_now = f"{len(busy)} being played elsewhere" if busy else ""
                more = f"{others} older one{'s' if others != 1 else ''} waiting" if others else ""
                self.tell(
                    f"resuming game {record.id} ({record.game}), the newest unfinished game free to play; "
                    + " and ".join(part for part in (playing_now, more) if part)
                    + f": see {command()} sessions"
                )
            return record, lock
        if busy:
            raise busy[0]  # the newest, and the process playing it
        raise NothingToResume(f"there is no unfinished game to resume; start one with: {command()} play GAME")

    def _resumable_games(self, journal: Journal) -> list[SessionRecord]:
        """The unfinished games that can be resumed, newest first; the damaged ones are named and skipped."""
        games = []
        for record in journal.sessions():
            if record.status not in UNFINISHED:
                continue
            problem = quick_problem(record)
            if problem is None:
                games.append(record)
            else:
                self.tell(f"skipping game {record.id}, which cannot be resumed: {problem}")
        return games

    def _saved_events(self, session_id: str, setup: SavedSetup) -> Path:
        """The game's own event log; the data folder's when that one cannot be written (said once)."""
        default = self.place.event_log(session_id)
        saved = self.place.saved_log(session_id, setup.events)
        if saved == default:
            return default
        try:
            check_writable(saved, "event log")
        except FileProblem as problem:
            self.tell(f"{problem}; this game's event log is written to {default} instead")
            return default
        return saved

    def _phones(self, sitting: Sitting, choice: IOChoice) -> Any:
        """The phone pages of this game when asked for and useful, or needed (a game whose
        hands are hidden, where everyone hears the host: choice.hidden_hands_on_phones); None
        otherwise. A game that needs them and cannot have them is refused."""
        game, options = sitting.game, sitting.options
        needed = choice.hidden_hands_on_phones and game.hidden_hands is not None and game.hidden_hands(options)
        if not (sitting.settings.phones or needed):
            return None
        from partyhost.phones.service import LOOPBACK, PhoneServerError, bind_address, log_to_stderr
        from partyhost.phones.table import PhoneTable, has_secret_hands

        if not has_secret_hands(game, options):
            self.tell(
                f"phones are for host-deal games with secret cards; {game.title} with "
                f"{options.deal} deal has none, so no phone page is started"
            )
            return None
        log_to_stderr()
        bind = bind_address(sitting.settings.phones_bind)
        needs_phones = f"{game.title} needs phones for its secret cards, and "
        if needed and bind == LOOPBACK and not sitting.settings.phones_bind:
            raise UserError(f"{needs_phones}no phone can reach me here: I found no network. Choose another game.")
        try:
            return PhoneTable.open(
                game, options, sitting.decks, sitting.journal, sitting.info.id, bind, sitting.settings.phones_port
            )
        except PhoneServerError as error:
            if needed:
                raise UserError(f"{needs_phones}its phone page cannot start: {error}. Choose another game.") from error
            raise UserError(f"{error}; choose another with --phones-port or --phones-bind") from error

    # ---- saved games --------------------------------------------------------

    def saved_games(self, replay: bool = False) -> SavedGames:
        """Every saved game and its problem; with `replay`, unfinished ones are replayed to find it."""
        with contextlib.closing(self.open_journal(to_read=True)) as journal:
            entries = []
            for record in journal.sessions():
                problem = quick_problem(record)
                if problem is None and replay and record.status in UNFINISHED:
                    try:
                        open_saved(journal, record)
                    except Unresumable as reason:
                        problem = str(reason)
                entries.append(SavedEntry(record, problem))
            return SavedGames(journal.path, entries, journal.notice is not None)

    def delete(self, session_ids: list[str], prune: bool = False) -> Iterator[SessionRecord]:
        """Delete these games (and with `prune` every game with no move) with their event log when
        it is in the data folder, yielding each as it goes; all or none while one is being played."""
        with contextlib.closing(self.open_journal()) as journal:
            records = {record.id: record for record in journal.sessions()}
            unknown = [session_id for session_id in session_ids if session_id not in records]
            if unknown:
                raise UserError(f"there is no saved game {unknown[0]!r}; see: {command()} sessions")
            pruned = [r.id for r in records.values() if prune and not r.actions]
            chosen = list(dict.fromkeys(session_ids + pruned))
            events_folder = self.place.events.resolve()
            with contextlib.ExitStack() as locks:  # all or none: a game being played stops it first
                for session_id in chosen:
                    locks.enter_context(SessionLock(self.place.locks, session_id))
                logs = {  # every log found before anything is deleted: a broken link refuses them all
                    session_id: resolved(
                        self.place.saved_log(session_id, SavedSetup.events_of(records[session_id].setup)), "event log"
                    )
                    for session_id in chosen
                }
                for session_id in chosen:
                    journal.delete(session_id)
                    if logs[session_id].parent == events_folder:
                        logs[session_id].unlink(missing_ok=True)
                    yield records[session_id]


def _new_game(journal: Journal | None, game_id: str, setup: GameSetup, settings: Settings) -> _NewGame:
    """The game's options and decks, checked by its rules before anything is saved (`journal`:
    the games played before, which some rules and decks follow; None when there are none)."""
    game = get_game(game_id)
    if setup.teams and not game.teams:
        raise UserError(f"{game.title} is not played in teams; name the players with --players instead of --teams.")
    if setup.mode is not None and setup.mode not in game.modes:
        close = did_you_mean(setup.mode, game.modes) or f"; its modes: {', '.join(game.modes)}"
        raise UserError(f"{game.title} has no mode {setup.mode!r}{close}")
    options = game_options(game, setup, settings)
    group = ",".join(sorted(name.lower() for name in options.players))
    if journal is not None:
        options = after_last_game(game, options, journal, group, time.time())
    saved = SavedSetup(
        options,
        question_decks=tuple(str(resolved(p, "deck file")) for p in setup.question_decks),
        word_decks=tuple(str(resolved(p, "deck file")) for p in setup.word_decks),
        card_deck=str(resolved(setup.card_deck, "deck file")) if setup.card_deck else None,
        used_questions=tuple(sorted(journal.used_questions(group))) if journal is not None else (),
        group=group,
        io=_io_to_keep(settings),
        pins=Pins(grammar_version(game.id), rule_defaults(game), __version__),
    )
    files = deck_files(game, saved)
    decks = load_game_decks(game, files, frozenset(saved.used_questions))
    try:
        game.setup(options, decks)  # refuse bad options before anything is saved
    except RuleError as error:
        named = bool(setup.players or setup.teams)
        raise UserError(explained(game, error, options, named)) from error
    return _NewGame(game, options, decks, files, saved)


@contextlib.contextmanager
def _closed_on_failure(io: GameIO) -> Iterator[None]:
    """The ears and mouth closed when what follows their opening fails (the game never starts)."""
    try:
        yield
    except BaseException:
        io.close()
        raise


def _check_grammars(game_ids: list[str]) -> None:
    """Each game's grammar (and the common one) loaded now, so a broken file is refused before play."""
    from partyhost.grammarcheck import check_grammars

    check_grammars(game_ids)


def _events_arg(choice: IOChoice) -> Path | None:
    """The event log asked for, checked: a folder, a device or a FIFO is refused in one line."""
    if not choice.events:
        return None
    path = resolved(choice.events, "event log")
    check_writable(path, "event log")
    return path


def _open_saved(journal: Journal, record: SessionRecord) -> SavedGame:
    try:
        return open_saved(journal, record)
    except Unresumable as reason:
        raise UserError(f"game {record.id} cannot be resumed: {reason}") from reason


def _open_io(settings: Settings, t0: float, choice: IOChoice) -> GameIO:
    """The ears and mouth of the settings (or the choice's opener), understanding with the settings' scores."""
    if choice.opener is not None:
        return choice.opener(settings, t0)
    from partyhost.listening_chain import IOChoiceError
    from partyhost.voiceio import open_io
    from voice.understanding.matcher import Matcher

    matcher = Matcher(accept=settings.accept_score, confirm=settings.confirm_score)
    try:
        return open_io(settings, matcher, clock_offset=t0)
    except IOChoiceError as error:
        hint = " To type your replies instead, add --input text." if settings.input == "mic" else ""
        raise UserError(f"{error}{hint}") from error


def _io_to_keep(settings: Settings) -> dict[str, str]:
    """The input and output a game was played with, for its resume; a recording is not replayed
    (a satellite is live, like the microphone)."""
    keep = {}
    if settings.input in ("text", "mic") or is_wyoming(settings.input):
        keep["input"] = settings.input
    if settings.output in ("text", "speaker") or is_wyoming(settings.output):
        keep["output"] = settings.output
    return keep
