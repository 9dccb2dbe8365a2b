"""A saved game made playable again: its setup read back, its decks, its moves replayed.

The journal is data from disk, so nothing in it is trusted: a setup that is not a
setup, an unknown game, a move the rules refuse, a deck file edited since the game
began. Each becomes a reason the game cannot be resumed (Unresumable), named for
the player, while every other saved game still works.

What a game was dealt from is pinned when it begins (Journal.pin_inputs): a deck
file changed or gone since is replaced by the copy kept in the journal, with a note,
so a resumed game deals exactly what it dealt before. The rules a game was given
are journaled with it, and so are the engine's defaults for the rest: a default an
update changed is put back to the one the game began with, with a note. The
grammar's version is pinned too; a different one only changes how new replies are
understood (the journal holds moves, not words), so the game goes on and the note
says so.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, cast

from host.contract import Json, JsonObject
from host.decks import DeckError, Decks, default_deck_dir, load_decks
from host.engine import Action, Game, GameOptions, RuleError, apply_move
from host.errors import PartyhostError
from host.files import DECK_BYTES, read_bytes
from host.games import dealing, game_ids, get_game
from host.journal import Journal, SessionDamaged, SessionRecord
from voice.understanding.grammar_folder import GRAMMAR_DIR

CARD_DECK_KINDS = ("bid_reward", "pack")
"""The decks read from a YAML card file (--card-deck): 1%'s bid and reward decks, Centurion's pack."""
"""The games dealt from a YAML card file (--card-deck), and their shipped file."""


class Unresumable(PartyhostError):
    """A saved game that cannot be played on; the message is the reason, for the player."""


class SetupError(PartyhostError):
    """Options or deck files that cannot start a game (said before anything is saved)."""


@dataclass
class SavedGame:
    """Everything needed to continue a journaled game."""

    record: SessionRecord
    setup: SavedSetup
    game: Game[Any]
    options: GameOptions
    """The setup's, with the rule defaults it began with (_pinned_rules)."""
    decks: Decks
    actions: list[JsonObject]
    notes: list[str] = field(default_factory=list)
    """Things the player should know (an input changed and its saved copy is used)."""


# ---- decks --------------------------------------------------------------------


def deck_files(game: Game[Any], setup: SavedSetup) -> dict[str, list[Path]]:
    """The files each kind of deck of this game comes from: the ones given, else the
    shipped one its registry entry names (host.decks.DeckEntry)."""
    deck = game.deck
    shipped = [default_deck_dir() / deck.file] if deck.file else []
    files: dict[str, list[Path]] = {"questions": [], "words": [], "cards": []}
    given = setup.card_deck
    if deck.kind == "questions":
        files["questions"] = [Path(p) for p in setup.question_decks or shipped]
    elif deck.kind == "words":
        files["words"] = [Path(p) for p in setup.word_decks or shipped]
    elif deck.kind in CARD_DECK_KINDS:
        files["cards"] = [Path(given)] if given else shipped
    if given and deck.kind not in CARD_DECK_KINDS:
        card_games = [g for g in game_ids() if get_game(g).deck.kind in CARD_DECK_KINDS]
        raise SetupError(f"--card-deck is for {' and '.join(card_games)}, not {game.id}")
    return files


def load_game_decks(game: Game[Any], files: dict[str, list[Path]], used_questions: frozenset[str]) -> Decks:
    """Only the decks this game deals from: a broken word deck must not stop centurion."""
    cards = files["cards"][0] if files["cards"] else None
    try:
        return load_decks(
            files["questions"],
            files["words"],
            used_questions,
            question_games=dealing("questions"),
            bid_reward=cards if game.deck.kind == "bid_reward" else None,
            pack=cards if game.deck.kind == "pack" else None,
        )
    except DeckError as error:
        raise SetupError(f"bad deck: {error}") from error
    except OSError as error:
        raise SetupError(f"cannot read deck: {error}") from error


def rule_defaults(game: Game[Any]) -> JsonObject:
    """The engine's default rules, as JSON would store them (tuples become lists)."""
    return json.loads(json.dumps(game.rule_defaults, default=list))


def _pinned_rules(game: Game[Any], options: GameOptions, pinned: JsonObject | None) -> tuple[GameOptions, list[str]]:
    """The options with each default the game relied on, and an update changed, put back;
    a rule added since, with the value that plays as the game did before (RULES_BEFORE)."""
    if pinned is None:
        return options, []
    now = rule_defaults(game)
    before = {
        key: value
        for key, value in game.rules_before.items()
        if key not in pinned and key not in options.rules  # a rule added since the game began
    }
    was = {**pinned, **before}
    changed = sorted(key for key, value in was.items() if key in now and now[key] != value and key not in options.rules)
    if not changed:
        return options, []
    rules = {**options.rules, **{key: was[key] for key in changed}}
    return dataclasses.replace(options, rules=rules), [
        f"the default rules changed since this game began ({', '.join(changed)}); "
        "it goes on with the ones it began with"
    ]


def grammar_version(game_id: str) -> str:
    """A short hash of the grammar files a game is understood with."""
    digest = hashlib.sha256()
    for name in ("common", game_id):
        path = GRAMMAR_DIR / f"{name}.yaml"
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:16]


def _pinned_decks(
    journal: Journal, record: SessionRecord, files: dict[str, list[Path]], scratch: Path
) -> tuple[dict[str, list[Path]], list[str]]:
    """The deck files to load: each changed or missing one replaced by its journaled copy."""
    pinned = journal.pinned_inputs(record.id)
    notes: list[str] = []
    chosen: dict[str, list[Path]] = {}
    for kind, paths in files.items():
        chosen[kind] = []
        for i, path in enumerate(paths):
            if str(path) not in pinned:  # a game saved before inputs were pinned
                chosen[kind].append(path)
                continue
            digest, content = pinned[str(path)]
            try:
                now = hashlib.sha256(read_bytes(path, "deck file", DECK_BYTES)).hexdigest()
            except OSError:  # gone, or no longer a file (a FileProblem): the copy is used
                now = None
            if now == digest:
                chosen[kind].append(path)
                continue
            copy = scratch / f"{kind}-{i}" / path.name
            copy.parent.mkdir(parents=True)
            copy.write_bytes(content)
            chosen[kind].append(copy)
            notes.append(
                f"{path} {'changed' if now else 'is gone'} since this game began; "
                "it goes on with the copy saved when it began"
            )
    return chosen, notes


# ---- the saved setup -------------------------------------------------------------


@dataclass(frozen=True)
class Pins:
    """What a game began with that an update may change, so a resume can tell (see the
    module's docstring); each is empty in games saved before it was pinned."""

    grammar: str = ""
    """grammar_version when the game began."""
    rule_defaults: JsonObject | None = None
    """rule_defaults when the game began."""
    partyhost: str = ""
    """The version of partyhost that began it."""

    @classmethod
    def from_dict(cls, data: Any) -> Pins:
        """Pins read back; one missing or not of its kind counts as not pinned."""
        if not isinstance(data, dict):
            return cls()
        grammar, rules, version = data.get("grammar"), data.get("rule_defaults"), data.get("partyhost")
        return cls(
            grammar if isinstance(grammar, str) else "",
            rules if isinstance(rules, dict) else None,
            version if isinstance(version, str) else "",
        )

    def to_dict(self) -> JsonObject:
        return {"grammar": self.grammar, "rule_defaults": self.rule_defaults, "partyhost": self.partyhost}


@dataclass(frozen=True)
class SavedSetup:
    """A game's setup as the journal keeps it (SessionRecord.setup): what it was started
    with and dealt from. Read back by from_dict only, whichever version wrote it; a field
    added since takes its default. (A finished game's "result" is the journal's own,
    Journal.set_result, and not read here.)"""

    options: GameOptions
    question_decks: tuple[str, ...] = ()
    word_decks: tuple[str, ...] = ()
    card_deck: str | None = None
    used_questions: tuple[str, ...] = ()
    """The group's questions used before this game began: not dealt again."""
    group: str = ""
    """The players' question-memory group (host.play.SessionInfo.group)."""
    io: Mapping[str, Json] = field(default_factory=dict)
    """The input and output it was played with, as the settings file names them: its resume's."""
    pins: Pins = field(default_factory=Pins)
    events: str = ""
    """Its event log as the data folder keeps it (Place.stored_log); "": the default one."""

    @classmethod
    def from_dict(cls, data: JsonObject) -> SavedSetup:
        """The setup read back; Unresumable naming the first field that is wrong."""
        options = _options(data.get("options"))
        question_decks, word_decks, used_questions = (
            _names(data.get(key, []), key) for key in ("question_decks", "word_decks", "used_questions")
        )
        card_deck, group, events = data.get("card_deck"), data.get("group", ""), data.get("events", "")
        if not isinstance(card_deck, (str, type(None))):
            _unusable("card_deck")
        if not isinstance(group, str):
            _unusable("group")
        if not isinstance(events, str):
            _unusable("events path")
        io = data.get("io")
        return cls(
            options,
            question_decks,
            word_decks,
            card_deck,
            used_questions,
            group,
            io if isinstance(io, dict) else {},
            Pins.from_dict(data.get("pins")),
            events,
        )

    @staticmethod
    def events_of(data: JsonObject) -> str:
        """The event log a setup names, even one from_dict refuses (a damaged game is
        deleted with its log); "" when it names none."""
        events = data.get("events")
        return events if isinstance(events, str) else ""

    def to_dict(self) -> JsonObject:
        """As the journal keeps it (JSON)."""
        options = self.options
        return {
            "options": {
                "players": list(options.players),
                "teams": [list(t) for t in options.teams],
                "mode": options.mode,
                "deal": options.deal,
                "seed": options.seed,
                "rules": options.rules,
            },
            "question_decks": list(self.question_decks),
            "word_decks": list(self.word_decks),
            "card_deck": self.card_deck,
            "used_questions": list(self.used_questions),
            "group": self.group,
            "io": dict(self.io),
            "pins": self.pins.to_dict(),
            "events": self.events,
        }


def _options(data: Any) -> GameOptions:
    """GameOptions from a journaled setup; Unresumable naming the first field that is wrong."""
    if not isinstance(data, dict):
        raise Unresumable("its options are missing")
    players: Any = data.get("players")
    teams: Any = data.get("teams", [])
    _need(isinstance(players, list) and bool(players) and all(isinstance(p, str) for p in players), "players")
    _need(
        isinstance(teams, list) and all(isinstance(t, list) and all(isinstance(p, str) for p in t) for t in teams),
        "teams",
    )
    _need(isinstance(data.get("mode"), str), "mode")
    _need(isinstance(data.get("deal"), str), "deal")
    _need(isinstance(data.get("seed"), int) and not isinstance(data.get("seed"), bool), "seed")
    _need(isinstance(data.get("rules", {}), dict), "rules")
    return GameOptions(
        players=tuple(players),
        teams=tuple(tuple(t) for t in teams),
        mode=data["mode"],
        deal=data["deal"],
        seed=data["seed"],
        rules=data.get("rules", {}),
    )


def _need(ok: bool, name: str) -> None:
    if not ok:
        _unusable(name)


def _unusable(name: str) -> NoReturn:
    raise Unresumable(f"its setup has no usable {name}")


def _names(value: Json, name: str) -> tuple[str, ...]:
    """A setup's list of names (deck files, questions used); Unresumable when it is none."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        _unusable(name)
    return tuple(str(v) for v in value)


def quick_problem(record: SessionRecord) -> str | None:
    """Why a saved game cannot be resumed, as far as its own row tells (no replay)."""
    try:
        _readable(record)
    except Unresumable as reason:
        return str(reason)
    return None


def _readable(record: SessionRecord) -> SavedSetup:
    """A saved game's setup, when its own row tells of no problem; else Unresumable with it."""
    if record.problem:
        raise Unresumable(record.problem)
    if record.game not in game_ids():
        raise Unresumable(f"its game {record.game!r} is not one this version knows")
    return SavedSetup.from_dict(record.setup)


def open_saved(journal: Journal, record: SessionRecord) -> SavedGame:
    """Read a saved game back and replay it silently; Unresumable with the reason if it cannot be."""
    setup = _readable(record)
    game = get_game(record.game)
    options, notes = _pinned_rules(game, setup.options, setup.pins.rule_defaults)
    try:
        files = deck_files(game, setup)
        with tempfile.TemporaryDirectory(prefix="partyhost-pinned-") as scratch:
            files, deck_notes = _pinned_decks(journal, record, files, Path(scratch))
            decks = load_game_decks(game, files, frozenset(setup.used_questions))
        actions = journal.accepted_actions(record.id)
    except (SetupError, SessionDamaged) as error:
        raise Unresumable(str(error)) from error
    notes += deck_notes
    if setup.pins.grammar and setup.pins.grammar != grammar_version(game.id):
        notes.append(
            "the grammar changed since this game began; the moves made stand, "
            "and new replies are understood with the new grammar"
        )
    _replay(game, options, decks, actions)
    return SavedGame(record, setup, game, options, decks, actions, notes)


def _replay(game: Game[Any], options: GameOptions, decks: Decks, actions: list[JsonObject]) -> None:
    """Every journaled move again, as the session will; the first one refused is the reason."""
    try:
        state, _ = game.setup(options, decks)
    except RuleError as error:
        raise Unresumable(f"its options are refused: {error.reason}") from error
    for n, action in enumerate(actions, 1):
        try:
            state, _ = apply_move(game, state, cast(Action, action))  # checked by the rules as it replays
        except RuleError as error:
            raise Unresumable(
                f"move {n} ({action.get('intent')} by {action.get('player') or 'the table'}) "
                f"is refused by the rules: {error.reason}"
            ) from error
        except Exception as error:  # journal data is untrusted: any failure is that move's fault
            raise Unresumable(
                f"move {n} ({action.get('intent')}) cannot be replayed ({type(error).__name__}: {error})"
            ) from error
