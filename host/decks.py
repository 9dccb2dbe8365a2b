"""Card decks as data: the values engines deal from, and their validating loaders.

A deck file is read whole and checked before anything is returned, so a broken
file never half-loads: the first problem raises DeckError naming file, line and
what is wrong. Formats are documented in docs/decks.md.

Four kinds of deck exist:
- question decks (CSV or YAML), one question per row, answered by 0..100;
- Keep Cool word decks (CSV), one word per row: card, face, line, word;
- 1%'s bid and reward decks (one YAML file: decks/one-percent.yaml);
- Centurion's 52-card pack (one YAML file: decks/cards.yaml).
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from host.contract import Json, JsonObject
from host.errors import PartyhostError
from host.files import DECK_BYTES, FileProblem, check_regular, read_text
from host.unchanging import Unchanging


class DeckError(PartyhostError):
    """A deck file that cannot be used; the message names file, line and problem."""


@dataclass(frozen=True)
class Question(Unchanging):
    """A question card: read aloud, answered by a whole number from 0 to 100."""

    id: str
    text: str
    answer: int
    year: int | None  # the year of the survey or figure; None for a fact without one
    source: str
    category: str
    games: tuple[str, ...]  # which games it suits, among those dealt questions (host.games.dealing)
    name: str = ""
    """What the card is called aloud, one or two everyday words ("June" for "the June
    one"; host/cardtitle.py, partyhost/deckcheck.py NAME_WORDS_MAX); "" where a deck has
    none (its title is said instead)."""


@dataclass(frozen=True)
class WordCard(Unchanging):
    """A Keep Cool card: ten words on each face, line 1 easiest."""

    id: int
    red: tuple[str, ...]
    blue: tuple[str, ...]

    def word(self, face: str, line: int) -> str:
        return (self.red if face == "red" else self.blue)[line - 1]


@dataclass(frozen=True)
class Family:
    """A 1% bid family: its name (intents use it; the host says it for one) and plural."""

    name: str
    plural: str


@dataclass(frozen=True)
class BidDeck:
    """1%'s bid cards: one card of each value per family, `copies` times over."""

    families: tuple[Family, ...]
    values: tuple[int, ...]
    copies: int

    @property
    def family_names(self) -> tuple[str, ...]:
        return tuple(family.name for family in self.families)

    @property
    def size(self) -> int:
        return len(self.families) * len(self.values) * self.copies

    def family(self, name: str) -> Family:
        """The family called `name` (KeyError if the deck has none)."""
        for family in self.families:
            if family.name == name:
                return family
        raise KeyError(name)


@dataclass(frozen=True)
class RewardDeck:
    """1%'s reward cards: how many of each kind (the defaults of the count rules)."""

    winning_numbers: tuple[int, ...]  # die faces 1-9 that have winning number cards
    winning_copies: int  # cards of each of those numbers
    steal: int
    draw_two: int
    reroll: int


@dataclass(frozen=True)
class BidRewardDecks(Unchanging):
    """Everything 1% deals from, as read from decks/one-percent.yaml."""

    bid: BidDeck
    reward: RewardDeck


@dataclass(frozen=True)
class Rank:
    """A playing-card rank: corner index ("Q"), how the host says it ("queen"), face value."""

    name: str
    spoken: str
    value: int


@dataclass(frozen=True)
class Suit:
    """A suit and its value (Centurion multiplies a card's face value by it)."""

    name: str
    value: int


@dataclass(frozen=True)
class Pack(Unchanging):
    """Centurion's 52-card pack, as read from decks/cards.yaml."""

    ranks: tuple[Rank, ...]  # by face value, ace first
    suits: tuple[Suit, ...]  # in file order: the order of a suit_values list
    jokers_allowed: tuple[int, ...]
    jokers: int  # how many when the players do not say

    @property
    def suit_names(self) -> tuple[str, ...]:
        return tuple(suit.name for suit in self.suits)

    @property
    def suit_values(self) -> dict[str, int]:
        return {suit.name: suit.value for suit in self.suits}

    def spoken(self, value: int) -> str:
        """How the host says the rank of face value `value`: 'ace', '7', 'queen'."""
        return next(rank.spoken for rank in self.ranks if rank.value == value)


@dataclass(frozen=True)
class DeckEntry:
    """Which deck a game deals from: with its module and its grammar, all a game is.

    kind: the Decks field it reads ("questions", "words", "bid_reward", "pack"), or
        "" for none. The command line passes --deck to "questions", --word-deck to
        "words" and --card-deck to the other two.
    file: the shipped file of decks/ it deals from when no other is given.
    min_cards: `partyhost decks check` wants at least this many of the game's cards
        in a question deck: enough for its biggest deal.
    """

    kind: str = ""
    file: str = ""
    min_cards: int = 0


@dataclass(frozen=True)
class Decks:
    """Every deck a game may deal from; engines take what they need."""

    questions: tuple[Question, ...] = ()
    words: tuple[WordCard, ...] = ()
    used_questions: frozenset[str] = field(default_factory=frozenset)
    """Question ids this group has already played (zero-to-100 prefers new ones)."""
    bid_reward: BidRewardDecks | None = None
    """1%'s bid and reward decks; None: the engine deals from the shipped file."""
    pack: Pack | None = None
    """Centurion's pack; None: the engine deals from the shipped file."""

    def questions_for(self, game: str) -> list[Question]:
        return [q for q in self.questions if game in q.games]


# ---------------------------------------------------------------------------
# What a valid deck contains

QUESTION_FIELDS = ("id", "text", "answer", "year", "source", "category", "games")
QUESTION_OPTIONAL = ("name",)
"""Fields a question deck may leave out (partyhost decks check checks the names)."""
CATEGORIES = (
    "food",
    "home",
    "work",
    "money",
    "tech",
    "travel",
    "health",
    "sport",
    "animals",
    "nature",
    "history",
    "culture",
    "survey",
    "quantity",
)
ANSWER_MIN, ANSWER_MAX = 0, 100
YEAR_MIN, YEAR_MAX = 1000, 2100
GAME_SEPARATOR = ";"

WORD_FIELDS = ("card", "face", "line", "word")
FACES = ("red", "blue")
LINES_PER_FACE = 10

BID_REWARD_KEYS = ("bid_deck", "reward_deck")
WINNING_NUMBERS = range(1, 10)  # die faces a winning number card can name (0 always wins)
PACK_KEYS = ("ranks", "suits", "jokers")
RANK_VALUES = range(1, 14)  # ace 1 to king 13: the numbers the grammar gives a rank
PACK_SUITS = ("clubs", "diamonds", "hearts", "spades")  # the suit names players say
JOKER_COUNTS = (0, 2, 4)

QUESTIONS_FILE = "questions.csv"
WORDS_FILE = "keep-cool.csv"
BID_REWARD_FILE = "one-percent.yaml"
PACK_FILE = "cards.yaml"
SOUND_WORDS_FILE = "onomatopoeia.txt"

PathLike = str | Path

_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
# Letters of any alphabet, parts joined by one space, hyphen or apostrophe.
_WORD_PATTERN = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")


@dataclass(frozen=True)
class _Row:
    """One record of a deck file and the line it starts on, for error messages."""

    path: Path
    line: int
    fields: JsonObject

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def fail(self, problem: str) -> DeckError:
        return DeckError(f"{self.where}: {problem}")


# ---------------------------------------------------------------------------
# Public loaders


def default_deck_dir() -> Path:
    """The shipped decks/ folder, installed with partyhost as the package data
    host.deck_files (no top-level `decks` name in site-packages)."""
    return Path(str(resources.files("host.deck_files")))


def load_questions(path: PathLike, question_games: Collection[str]) -> tuple[Question, ...]:
    """Every question of one CSV or YAML file, or DeckError on its first problem.

    question_games: the games a question may name, those dealt from a question deck
    (host.games.dealing("questions")); passed in, as the games import this module."""
    return tuple(question for _, question in _questions_with_rows(Path(path), question_games))


def load_words(path: PathLike) -> tuple[WordCard, ...]:
    """Every Keep Cool card of one CSV file, or DeckError on its first problem."""
    return tuple(card for _, card in _cards_with_rows(Path(path)))


def load_decks(
    question_paths: Iterable[PathLike] | PathLike,
    word_paths: Iterable[PathLike] | PathLike,
    used_questions: Iterable[str] = frozenset(),
    *,
    question_games: Collection[str] = (),
    bid_reward: PathLike | None = None,
    pack: PathLike | None = None,
) -> Decks:
    """All the given files as one Decks; ids and card numbers unique across files too.

    `question_games` as for load_questions, needed where question files are given.
    `bid_reward` (1%) and `pack` (Centurion) are one file each, loaded only when given.
    """
    questions: list[Question] = []
    first_seen: dict[str, str] = {}
    for path in _as_paths(question_paths):
        for row, question in _questions_with_rows(path, question_games):
            if question.id in first_seen:
                raise row.fail(f"duplicate id '{question.id}' (already in {first_seen[question.id]})")
            first_seen[question.id] = row.where
            questions.append(question)

    cards: list[WordCard] = []
    card_seen: dict[int, str] = {}
    for path in _as_paths(word_paths):
        for row, card in _cards_with_rows(path):
            if card.id in card_seen:
                raise row.fail(
                    f"duplicate card {card.id} (already in {card_seen[card.id]}); "
                    "number the cards of each file differently"
                )
            card_seen[card.id] = row.where
            cards.append(card)

    return Decks(
        tuple(questions),
        tuple(cards),
        frozenset(used_questions),
        bid_reward=None if bid_reward is None else load_bid_reward_decks(bid_reward),
        pack=None if pack is None else load_pack(pack),
    )


def load_game_decks(
    deck: DeckEntry,
    given: Iterable[PathLike] = (),
    used_questions: Iterable[str] = frozenset(),
    *,
    question_games: Collection[str] = (),
) -> Decks:
    """Only the deck one game deals from (a broken word deck must not stop Centurion):
    the files given, else its shipped file. `question_games` as for load_questions."""
    paths = list(given) or ([default_deck_dir() / deck.file] if deck.file else [])
    return load_decks(
        paths if deck.kind == "questions" else [],
        paths if deck.kind == "words" else [],
        used_questions,
        question_games=question_games,
        bid_reward=paths[0] if deck.kind == "bid_reward" else None,
        pack=paths[0] if deck.kind == "pack" else None,
    )


def load_default_decks(used_questions: Iterable[str] = frozenset(), *, question_games: Collection[str]) -> Decks:
    """The starter decks shipped in decks/; `question_games` as for load_questions."""
    deck_dir = default_deck_dir()
    return load_decks(
        [deck_dir / QUESTIONS_FILE], [deck_dir / WORDS_FILE], used_questions, question_games=question_games
    )


def load_bid_reward_decks(path: PathLike) -> BidRewardDecks:
    """1%'s bid and reward decks from one YAML file, or DeckError on its first problem."""
    top = _yaml_document(Path(path)).mapping(BID_REWARD_KEYS)
    return BidRewardDecks(bid=_bid_deck(top["bid_deck"]), reward=_reward_deck(top["reward_deck"]))


def load_pack(path: PathLike) -> Pack:
    """Centurion's pack from one YAML file, or DeckError on its first problem."""
    top = _yaml_document(Path(path)).mapping(PACK_KEYS)
    allowed, default = _jokers(top["jokers"])
    return Pack(ranks=_ranks(top["ranks"]), suits=_suits(top["suits"]), jokers_allowed=allowed, jokers=default)


@functools.cache
def default_bid_reward_decks() -> BidRewardDecks:
    """The shipped decks/one-percent.yaml, read once: for callers whose Decks lack it."""
    return load_bid_reward_decks(default_deck_dir() / BID_REWARD_FILE)


@functools.cache
def sound_words() -> frozenset[str]:
    """The shipped decks/onomatopoeia.txt: words that imitate a sound, which Keep Cool
    forbids as clues; written without hyphens or spaces ("bowwow"), as sound_key does."""
    text = (default_deck_dir() / SOUND_WORDS_FILE).read_text(encoding="utf-8")
    return frozenset(sound_key(line) for line in text.splitlines() if line.strip() and not line.startswith("#"))


def sound_key(text: str) -> str:
    """ "bow-wow", "bow wow" and "bowwow" alike: how a sound word is looked up."""
    return re.sub(r"[\s-]+", "", text.strip().lower())


@functools.cache
def default_pack() -> Pack:
    """The shipped decks/cards.yaml, read once: for callers whose Decks lack it."""
    return load_pack(default_deck_dir() / PACK_FILE)


def _as_paths(paths: Iterable[PathLike] | PathLike) -> list[Path]:
    """Accept one path as well as a list, so a lone string is not split into letters."""
    if isinstance(paths, (str, Path)):
        return [Path(paths)]
    return [Path(p) for p in paths]


# ---------------------------------------------------------------------------
# Questions


def _questions_with_rows(path: Path, question_games: Collection[str]) -> list[tuple[_Row, Question]]:
    """Parse and check a question file; ids must be unique within it."""
    rows = _read_question_rows(path)
    if not rows:
        raise DeckError(f"{path}:1: no questions in the file")
    result: list[tuple[_Row, Question]] = []
    first_line: dict[str, int] = {}
    for row in rows:
        question = _question_from_row(row, question_games)
        if question.id in first_line:
            raise row.fail(f"duplicate id '{question.id}' (first used on line {first_line[question.id]})")
        first_line[question.id] = row.line
        result.append((row, question))
    return result


def _read_question_rows(path: Path) -> list[_Row]:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _read_csv_rows(path, QUESTION_FIELDS, QUESTION_OPTIONAL)
    if suffix in (".yaml", ".yml"):
        return _read_yaml_rows(path)
    try:  # a folder, a device or a missing file is told as what it is, not as a format
        check_regular(path, "deck file")
    except FileProblem as problem:
        raise DeckError(str(problem)) from None
    raise DeckError(f"{path}: unknown question deck format '{path.suffix}'; use a .csv or .yaml file")


def _question_from_row(row: _Row, question_games: Collection[str]) -> Question:
    _check_field_names(row, QUESTION_FIELDS + QUESTION_OPTIONAL)
    question_id = _text_field(row, "id")
    if not _ID_PATTERN.fullmatch(question_id):
        raise row.fail(f"id '{question_id}' must be letters, digits, '-', '_' or '.' without spaces")
    category = _text_field(row, "category")
    if category not in CATEGORIES:
        raise row.fail(f"unknown category '{category}'; use one of {', '.join(CATEGORIES)}")
    return Question(
        id=question_id,
        text=_text_field(row, "text"),
        answer=_whole_number_field(row, "answer", ANSWER_MIN, ANSWER_MAX),
        year=_optional_year(row),
        source=_text_field(row, "source"),
        category=category,
        games=_games_field(row, question_games),
        name=_optional_text(row, "name"),
    )


def _games_field(row: _Row, question_games: Collection[str]) -> tuple[str, ...]:
    """'keep-it-100;zero-to-100' in CSV, a string or a list in YAML."""
    value = _present(row, "games")
    if isinstance(value, (list, tuple)):
        names = [str(v).strip() for v in value]
    else:
        names = [part.strip() for part in str(value).split(GAME_SEPARATOR)]
    names = [name for name in names if name]
    if not names:
        raise row.fail(f"games is empty; use {' or '.join(question_games)} (both separated by ';')")
    for name in names:
        if name not in question_games:
            raise row.fail(f"unknown game '{name}'; use {' or '.join(question_games)}")
    return tuple(dict.fromkeys(names))  # drop repeats, keep order


# ---------------------------------------------------------------------------
# Keep Cool word cards


@dataclass
class _CardDraft:
    """A card being assembled from its rows: words by face and line."""

    card_id: int
    first_row: _Row
    words: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)
    """(face, line) -> (word, file line where it was given)."""


def _cards_with_rows(path: Path) -> list[tuple[_Row, WordCard]]:
    """Parse and check a word file: every card has all 20 words, none repeated."""
    if path.suffix.lower() != ".csv":
        raise DeckError(f"{path}: a word deck must be a .csv file")
    rows = _read_csv_rows(path, WORD_FIELDS)
    if not rows:
        raise DeckError(f"{path}:1: no word cards in the file")
    drafts: dict[int, _CardDraft] = {}
    for row in rows:
        _add_word_row(drafts, row)
    return [(draft.first_row, _finish_card(draft)) for draft in sorted(drafts.values(), key=lambda d: d.card_id)]


def _add_word_row(drafts: dict[int, _CardDraft], row: _Row) -> None:
    _check_field_names(row, WORD_FIELDS)
    card_id = _whole_number_field(row, "card", 1, 10**9)
    face = _text_field(row, "face")
    if face not in FACES:
        raise row.fail(f"face '{face}' must be red or blue")
    line = _whole_number_field(row, "line", 1, LINES_PER_FACE)
    word = _text_field(row, "word")
    if word != word.lower():
        raise row.fail(f"word '{word}' must be lowercase")
    if not _WORD_PATTERN.fullmatch(word):
        raise row.fail(f"word '{word}' must be letters only (one space or hyphen may join two parts)")

    draft = drafts.setdefault(card_id, _CardDraft(card_id, row))
    if (face, line) in draft.words:
        _, first = draft.words[(face, line)]
        raise row.fail(f"card {card_id} has two words for {face} line {line} (first on line {first})")
    for other_word, first in draft.words.values():
        if other_word == word:
            raise row.fail(f"word '{word}' appears twice on card {card_id} (first on line {first})")
    draft.words[(face, line)] = (word, row.line)


def _finish_card(draft: _CardDraft) -> WordCard:
    faces: dict[str, tuple[str, ...]] = {}
    for face in FACES:
        missing = [n for n in range(1, LINES_PER_FACE + 1) if (face, n) not in draft.words]
        if missing:
            listed = ", ".join(str(n) for n in missing)
            raise draft.first_row.fail(
                f"card {draft.card_id} is missing {face} line{'s' if len(missing) > 1 else ''}"
                f" {listed} (each face needs lines 1 to {LINES_PER_FACE})"
            )
        faces[face] = tuple(draft.words[(face, n)][0] for n in range(1, LINES_PER_FACE + 1))
    return WordCard(draft.card_id, red=faces["red"], blue=faces["blue"])


# ---------------------------------------------------------------------------
# 1%'s bid and reward decks


def _bid_deck(node: _YamlNode) -> BidDeck:
    keys = node.mapping(("families", "values", "copies"))
    families = _families(keys["families"])
    values = _distinct_numbers(keys["values"], 1)
    if not values:
        raise keys["values"].fail("needs at least one card value")
    return BidDeck(families=families, values=values, copies=keys["copies"].whole(1))


def _families(node: _YamlNode) -> tuple[Family, ...]:
    """Each family once, and no word naming two families (intents carry the name)."""
    items = node.items()
    if not items:
        raise node.fail("needs at least one family")
    families: list[Family] = []
    named: dict[str, tuple[str, int]] = {}  # word said -> (family, its line)
    for item in items:
        keys = item.mapping(("name", "plural"))
        name, plural = _word(keys["name"]), _word(keys["plural"])
        if name in named and named[name][0] == name:
            raise keys["name"].fail(f"duplicate family '{name}' (first on line {named[name][1]})")
        for word, where in ((name, keys["name"]), (plural, keys["plural"])):
            if word in named and named[word][0] != name:
                raise where.fail(
                    f"'{word}' already names the family '{named[word][0]}' "
                    f"(line {named[word][1]}); each family needs its own words"
                )
            named[word] = (name, item.line)
        families.append(Family(name, plural))
    return tuple(families)


def _word(node: _YamlNode) -> str:
    """A family word: lowercase letters, as the matcher compares them."""
    text = node.text()
    if text != text.lower() or not _WORD_PATTERN.fullmatch(text):
        raise node.fail(f"'{text}' must be lowercase letters (a space or hyphen may join two)")
    return text


def _reward_deck(node: _YamlNode) -> RewardDeck:
    keys = node.mapping(("winning_numbers", "steal", "draw_two", "reroll"))
    winning = keys["winning_numbers"].mapping(("numbers", "copies"))
    return RewardDeck(
        winning_numbers=_distinct_numbers(winning["numbers"], WINNING_NUMBERS.start, WINNING_NUMBERS.stop - 1),
        winning_copies=winning["copies"].whole(0),
        steal=keys["steal"].whole(0),
        draw_two=keys["draw_two"].whole(0),
        reroll=keys["reroll"].whole(0),
    )


# ---------------------------------------------------------------------------
# Centurion's pack


def _ranks(node: _YamlNode) -> tuple[Rank, ...]:
    """The 13 ranks, face values ace 1 to king 13 each once, sorted by value."""
    ranks: dict[int, tuple[Rank, int]] = {}  # face value -> (rank, its line)
    names: dict[str, int] = {}
    for item in node.items():
        keys = item.mapping(("name", "spoken", "value"))
        rank = Rank(
            name=keys["name"].text(),
            spoken=keys["spoken"].text(),
            value=keys["value"].whole(RANK_VALUES.start, RANK_VALUES.stop - 1),
        )
        if rank.name in names:
            raise keys["name"].fail(f"duplicate rank '{rank.name}' (first on line {names[rank.name]})")
        if rank.value in ranks:
            raise keys["value"].fail(f"face value {rank.value} appears twice (first on line {ranks[rank.value][1]})")
        names[rank.name] = item.line
        ranks[rank.value] = (rank, item.line)
    missing = [str(v) for v in RANK_VALUES if v not in ranks]
    if missing:
        raise node.fail(
            f"no rank with face value {', '.join(missing)}; the pack needs "
            "each face value from 1 (ace) to 13 (king) once"
        )
    return tuple(ranks[v][0] for v in RANK_VALUES)


def _suits(node: _YamlNode) -> tuple[Suit, ...]:
    """The four suits players name, each once, with a value of at least 1."""
    suits: list[Suit] = []
    lines: dict[str, int] = {}
    for item in node.items():
        keys = item.mapping(("name", "value"))
        name = keys["name"].text()
        if name not in PACK_SUITS:
            raise keys["name"].fail(f"unknown suit '{name}'; the suits are {', '.join(PACK_SUITS)}")
        if name in lines:
            raise keys["name"].fail(f"duplicate suit '{name}' (first on line {lines[name]})")
        lines[name] = item.line
        suits.append(Suit(name, keys["value"].whole(1)))
    missing = [name for name in PACK_SUITS if name not in lines]
    if missing:
        raise node.fail(
            f"missing suit{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
            f"the pack needs {', '.join(PACK_SUITS)}"
        )
    return tuple(suits)


def _jokers(node: _YamlNode) -> tuple[tuple[int, ...], int]:
    """The joker counts players may choose (each 0, 2 or 4) and the default among them."""
    keys = node.mapping(("allowed", "default"))
    allowed = _distinct_numbers(keys["allowed"], 0)
    if not allowed:
        raise keys["allowed"].fail("needs at least one count, e.g. [0]")
    for item, count in zip(keys["allowed"].items(), allowed):
        if count not in JOKER_COUNTS:
            raise item.fail(f"{count} jokers is not a choice; use {_or_list(JOKER_COUNTS)}")
    default = keys["default"].whole(0)
    if default not in allowed:
        raise keys["default"].fail(f"{default} is not one of the allowed counts ({_or_list(allowed)})")
    return allowed, default


def _distinct_numbers(node: _YamlNode, low: int, high: int | None = None) -> tuple[int, ...]:
    """A list of whole numbers in range, none repeated, in file order."""
    numbers: list[int] = []
    for item in node.items():
        number = item.whole(low, high)
        if number in numbers:
            raise item.fail(f"{number} appears twice")
        numbers.append(number)
    return tuple(numbers)


def _or_list(numbers: Iterable[int]) -> str:
    """'0, 2 or 4'."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# ---------------------------------------------------------------------------
# Field checks shared by both kinds of deck


def _check_field_names(row: _Row, allowed: tuple[str, ...]) -> None:
    unknown = [name for name in row.fields if name not in allowed]
    if unknown:
        raise row.fail(f"unknown field '{unknown[0]}'; the fields are {', '.join(allowed)}")


def _present(row: _Row, name: str) -> Json:
    if name not in row.fields or row.fields[name] is None:
        raise row.fail(f"missing field '{name}'")
    return row.fields[name]


def _text_field(row: _Row, name: str) -> str:
    value = _present(row, name)
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise row.fail(f"{name} must be plain text")
    text = str(value).strip()
    if not text:
        raise row.fail(f"empty {name}")
    return text


def _optional_text(row: _Row, name: str) -> str:
    """A text field that may be missing or empty (""); a list or a yes/no there is refused,
    never read aloud as "['June']" or "True"."""
    value = row.fields.get(name)
    if value is None or isinstance(value, str) and not value.strip():
        return ""
    return " ".join(_text_field(row, name).split())


def _optional_year(row: _Row) -> int | None:
    """The card's year, or None where the field is left empty (a fact with no year)."""
    if "year" not in row.fields:
        raise row.fail("missing field 'year' (leave it empty for a fact with no year)")
    value = row.fields["year"]
    if value is None or isinstance(value, str) and not value.strip():
        return None
    return _whole_number_field(row, "year", YEAR_MIN, YEAR_MAX)


def _whole_number_field(row: _Row, name: str, low: int, high: int) -> int:
    value = _present(row, name)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise row.fail(f"{name} {value!r} is not a whole number")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise row.fail(f"empty {name}")
        if not re.fullmatch(r"[+-]?\d+", text):
            raise row.fail(f"{name} '{text}' is not a whole number")
        value = int(text)
    if not low <= value <= high:
        raise row.fail(f"{name} {value} is out of range ({low} to {high})")
    return value


# ---------------------------------------------------------------------------
# Reading files


def _read_text(path: Path) -> str:
    """The file as text; a byte-order mark (as spreadsheets write) is dropped; a regular file of
    at most DECK_BYTES only (host/files.py)."""
    try:
        return read_text(path, "deck file", DECK_BYTES)
    except FileProblem as problem:
        raise DeckError(str(problem)) from None


def _read_csv_rows(path: Path, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> list[_Row]:
    """The data rows of a CSV file with a header (`required` columns, and any of
    `optional`); blank lines are skipped."""
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), strict=True)
    start = 1  # first line of the record being read; a quoted field may span lines
    try:
        header = [name.strip() for name in next(reader, [])]
        if not any(header):
            raise DeckError(f"{path}:1: empty file; the first line must be the header {','.join(required)}")
        _check_header(path, header, required, optional)
        rows = []
        start = reader.line_num + 1
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in cells):
                continue
            rows.append(_row_from_cells(path, line, header, cells))
        return rows
    except csv.Error as error:
        raise DeckError(f"{path}:{start}: not valid CSV ({error}); check the quotes") from None


def _check_header(path: Path, header: list[str], required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise DeckError(f"{path}:1: column '{repeated[0]}' appears twice in the header")
    missing = [name for name in required if name not in header]
    if missing:
        raise DeckError(
            f"{path}:1: missing column{'s' if len(missing) > 1 else ''} "
            f"{', '.join(missing)}; the header must be {','.join(required)}"
        )
    unknown = [name for name in header if name not in required + optional]
    if unknown:
        also = f" (and may hold {','.join(optional)})" if optional else ""
        raise DeckError(f"{path}:1: unknown column '{unknown[0]}'; the header must be {','.join(required)}{also}")


def _row_from_cells(path: Path, line: int, header: list[str], cells: list[str]) -> _Row:
    if len(cells) > len(header):
        raise DeckError(
            f"{path}:{line}: {len(cells)} fields but the header has {len(header)} (quote text that contains commas)"
        )
    if len(cells) < len(header):
        raise DeckError(f"{path}:{line}: missing field '{header[len(cells)]}'")
    return _Row(path, line, dict(zip(header, cells)))


def _read_yaml_rows(path: Path) -> list[_Row]:
    """A YAML question deck: a list of mappings, each remembered with its line."""

    text = _read_text(path)
    root = _compose_yaml(path, text)
    data = yaml.safe_load(text)  # the same text just composed without error
    if root is None:
        raise DeckError(f"{path}:1: no questions in the file")
    if not isinstance(data, list):
        raise DeckError(
            f"{path}:{root.start_mark.line + 1}: expected a list of questions (each item starting with '- ')"
        )
    rows = []
    for node, item in zip(root.value, data):
        line = node.start_mark.line + 1
        if not isinstance(item, dict):
            raise DeckError(f"{path}:{line}: each question must be a mapping of field: value")
        rows.append(_Row(path, line, {str(key): value for key, value in item.items()}))
    return rows


# ---------------------------------------------------------------------------
# YAML documents checked key by key (the 1% decks and the pack)


@dataclass(frozen=True)
class _YamlNode:
    """A node of a composed YAML document with its key path, so that every problem
    names the file, the line and the key ("bid_deck.families[2].name")."""

    path: Path
    key: str
    node: Any  # a yaml.Node: its .id is "scalar", "sequence" or "mapping"

    @property
    def line(self) -> int:
        return self.node.start_mark.line + 1

    def fail(self, problem: str) -> DeckError:
        where = f"{self.key}: " if self.key else ""
        return DeckError(f"{self.path}:{self.line}: {where}{problem}")

    def child(self, key: str, node: Any) -> _YamlNode:
        return _YamlNode(self.path, f"{self.key}.{key}" if self.key else key, node)

    def mapping(self, keys: tuple[str, ...]) -> dict[str, _YamlNode]:
        """The values of a mapping that has exactly `keys`, each once."""
        if self.node.id != "mapping":
            raise self.fail(f"must be a mapping with the keys {', '.join(keys)}")
        found: dict[str, _YamlNode] = {}
        for key_node, value_node in self.node.value:
            name = key_node.value if key_node.id == "scalar" else None
            at = self.child(str(name), key_node)
            if name not in keys:
                raise at.fail(f"unknown key; the keys here are {', '.join(keys)}")
            if name in found:
                raise at.fail(f"appears twice (first on line {found[name].line})")
            found[name] = self.child(name, value_node)
        missing = [key for key in keys if key not in found]
        if missing:
            raise self.fail(f"missing key '{missing[0]}'")
        return found

    def items(self) -> list[_YamlNode]:
        """The items of a list, keyed from 1 as people count: families[1], families[2]."""
        if self.node.id != "sequence":
            raise self.fail("must be a list ([a, b] or one '- ' item a line)")
        return [_YamlNode(self.path, f"{self.key}[{i}]", item) for i, item in enumerate(self.node.value, start=1)]

    def scalar(self) -> Any:
        """A single value, typed as YAML reads it (7 is a number, '7' text)."""
        from yaml.constructor import SafeConstructor

        if self.node.id != "scalar":
            raise self.fail(f"must be a single value, not a {self.node.id}")
        return SafeConstructor().construct_object(self.node)

    def text(self) -> str:
        """The value as written: `name: 7` and `name: yes` are text here, not 7 and True."""
        if self.scalar() is None or not self.node.value.strip():
            raise self.fail("is empty")
        return self.node.value.strip()

    def whole(self, low: int, high: int | None = None) -> int:
        """A whole number from `low` to `high` (no upper limit when None)."""
        value = self.scalar()
        if value is None:
            raise self.fail("is empty")
        if isinstance(value, bool) or not isinstance(value, int):
            shown = repr(value) if isinstance(value, float) else f"'{self.node.value}'"
            raise self.fail(f"must be a whole number, not {shown}")
        if value < low or (high is not None and value > high):
            limits = f"at least {low}" if high is None else f"from {low} to {high}"
            raise self.fail(f"must be {limits}, not {value}")
        return value


def _yaml_document(path: Path) -> _YamlNode:
    """The file's one YAML document, composed (not loaded) so that lines are known."""

    root = _compose_yaml(path, _read_text(path))
    if root is None:
        raise DeckError(f"{path}:1: empty file")
    return _YamlNode(path, "", root)


def _compose_yaml(path: Path, text: str) -> yaml.Node | None:
    """The YAML node tree (it keeps line numbers for error messages), or DeckError."""
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error)
        raise DeckError(f"{path}:{line}: not valid YAML ({problem})") from None
