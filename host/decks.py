"""Card decks as data: the values engines deal from, and their validating loaders.

A deck file is read whole and checked before anything is returned, so a broken
file never half-loads: the first problem raises DeckError naming file, line and
what is wrong. Formats are documented in docs/decks.md.

Two kinds of deck exist:
- question decks (CSV or YAML), one question per row, answered by 0..100;
- Keep Cool word decks (CSV), one word per row: card, face, line, word.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Union


class DeckError(Exception):
    """A deck file that cannot be used; the message names file, line and problem."""


@dataclass(frozen=True)
class Question:
    """A question card: read aloud, answered by a whole number from 0 to 100."""

    id: str
    text: str
    answer: int
    year: int
    source: str
    category: str
    games: tuple[str, ...]  # which games it suits: "keep-it-100", "zero-to-100"


@dataclass(frozen=True)
class WordCard:
    """A Keep Cool card: ten words on each face, line 1 easiest."""

    id: int
    red: tuple[str, ...]
    blue: tuple[str, ...]

    def word(self, face: str, line: int) -> str:
        return (self.red if face == "red" else self.blue)[line - 1]


@dataclass(frozen=True)
class Decks:
    """Every deck a game may deal from; engines take what they need."""

    questions: tuple[Question, ...] = ()
    words: tuple[WordCard, ...] = ()
    used_questions: frozenset[str] = field(default_factory=frozenset)
    """Question ids this group has already played (zero-to-100 prefers new ones)."""

    def questions_for(self, game: str) -> list[Question]:
        return [q for q in self.questions if game in q.games]


# ---------------------------------------------------------------------------
# What a valid deck contains

QUESTION_FIELDS = ("id", "text", "answer", "year", "source", "category", "games")
GAMES = ("keep-it-100", "zero-to-100")
CATEGORIES = ("food", "home", "work", "money", "tech", "travel", "health", "sport",
              "animals", "nature", "history", "culture", "survey", "quantity")
ANSWER_MIN, ANSWER_MAX = 0, 100
YEAR_MIN, YEAR_MAX = 1000, 2100
GAME_SEPARATOR = ";"

WORD_FIELDS = ("card", "face", "line", "word")
FACES = ("red", "blue")
LINES_PER_FACE = 10

QUESTIONS_FILE = "questions.csv"
WORDS_FILE = "keep-cool.csv"

PathLike = Union[str, Path]

_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
# Letters of any alphabet, parts joined by one space, hyphen or apostrophe.
_WORD_PATTERN = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")


@dataclass(frozen=True)
class _Row:
    """One record of a deck file and the line it starts on, for error messages."""

    path: Path
    line: int
    fields: dict[str, Any]

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def fail(self, problem: str) -> DeckError:
        return DeckError(f"{self.where}: {problem}")


# ---------------------------------------------------------------------------
# Public loaders

def default_deck_dir() -> Path:
    """The repository's decks/ folder, found next to the host package."""
    return Path(__file__).resolve().parent.parent / "decks"


def load_questions(path: PathLike) -> tuple[Question, ...]:
    """Every question of one CSV or YAML file, or DeckError on its first problem."""
    return tuple(question for _, question in _questions_with_rows(Path(path)))


def load_words(path: PathLike) -> tuple[WordCard, ...]:
    """Every Keep Cool card of one CSV file, or DeckError on its first problem."""
    return tuple(card for _, card in _cards_with_rows(Path(path)))


def load_decks(question_paths: Iterable[PathLike] | PathLike,
               word_paths: Iterable[PathLike] | PathLike,
               used_questions: Iterable[str] = frozenset()) -> Decks:
    """All the given files as one Decks; ids and card numbers unique across files too."""
    questions: list[Question] = []
    first_seen: dict[str, str] = {}
    for path in _as_paths(question_paths):
        for row, question in _questions_with_rows(path):
            if question.id in first_seen:
                raise row.fail(f"duplicate id '{question.id}' (already in "
                               f"{first_seen[question.id]})")
            first_seen[question.id] = row.where
            questions.append(question)

    cards: list[WordCard] = []
    card_seen: dict[int, str] = {}
    for path in _as_paths(word_paths):
        for row, card in _cards_with_rows(path):
            if card.id in card_seen:
                raise row.fail(f"duplicate card {card.id} (already in {card_seen[card.id]}); "
                               "number the cards of each file differently")
            card_seen[card.id] = row.where
            cards.append(card)

    return Decks(tuple(questions), tuple(cards), frozenset(used_questions))


def load_default_decks(used_questions: Iterable[str] = frozenset()) -> Decks:
    """The starter decks shipped in decks/."""
    deck_dir = default_deck_dir()
    return load_decks([deck_dir / QUESTIONS_FILE], [deck_dir / WORDS_FILE], used_questions)


def _as_paths(paths: Iterable[PathLike] | PathLike) -> list[Path]:
    """Accept one path as well as a list, so a lone string is not split into letters."""
    if isinstance(paths, (str, Path)):
        return [Path(paths)]
    return [Path(p) for p in paths]


# ---------------------------------------------------------------------------
# Questions

def _questions_with_rows(path: Path) -> list[tuple[_Row, Question]]:
    """Parse and check a question file; ids must be unique within it."""
    rows = _read_question_rows(path)
    if not rows:
        raise DeckError(f"{path}:1: no questions in the file")
    result: list[tuple[_Row, Question]] = []
    first_line: dict[str, int] = {}
    for row in rows:
        question = _question_from_row(row)
        if question.id in first_line:
            raise row.fail(f"duplicate id '{question.id}' (first used on line "
                           f"{first_line[question.id]})")
        first_line[question.id] = row.line
        result.append((row, question))
    return result


def _read_question_rows(path: Path) -> list[_Row]:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _read_csv_rows(path, QUESTION_FIELDS)
    if suffix in (".yaml", ".yml"):
        return _read_yaml_rows(path)
    raise DeckError(f"{path}: unknown question deck format '{path.suffix}'; "
                    "use a .csv or .yaml file")


def _question_from_row(row: _Row) -> Question:
    _check_field_names(row, QUESTION_FIELDS)
    question_id = _text_field(row, "id")
    if not _ID_PATTERN.fullmatch(question_id):
        raise row.fail(f"id '{question_id}' must be letters, digits, '-', '_' or '.' "
                       "without spaces")
    category = _text_field(row, "category")
    if category not in CATEGORIES:
        raise row.fail(f"unknown category '{category}'; use one of {', '.join(CATEGORIES)}")
    return Question(
        id=question_id,
        text=_text_field(row, "text"),
        answer=_whole_number_field(row, "answer", ANSWER_MIN, ANSWER_MAX),
        year=_whole_number_field(row, "year", YEAR_MIN, YEAR_MAX),
        source=_text_field(row, "source"),
        category=category,
        games=_games_field(row),
    )


def _games_field(row: _Row) -> tuple[str, ...]:
    """'keep-it-100;zero-to-100' in CSV, a string or a list in YAML."""
    value = _present(row, "games")
    if isinstance(value, (list, tuple)):
        names = [str(v).strip() for v in value]
    else:
        names = [part.strip() for part in str(value).split(GAME_SEPARATOR)]
    names = [name for name in names if name]
    if not names:
        raise row.fail(f"games is empty; use {' or '.join(GAMES)} (both separated by ';')")
    for name in names:
        if name not in GAMES:
            raise row.fail(f"unknown game '{name}'; use {' or '.join(GAMES)}")
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
    return [(draft.first_row, _finish_card(draft)) for draft in
            sorted(drafts.values(), key=lambda d: d.card_id)]


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
        raise row.fail(f"word '{word}' must be letters only (one space or hyphen "
                       "may join two parts)")

    draft = drafts.setdefault(card_id, _CardDraft(card_id, row))
    if (face, line) in draft.words:
        _, first = draft.words[(face, line)]
        raise row.fail(f"card {card_id} has two words for {face} line {line} "
                       f"(first on line {first})")
    for other_word, first in draft.words.values():
        if other_word == word:
            raise row.fail(f"word '{word}' appears twice on card {card_id} "
                           f"(first on line {first})")
    draft.words[(face, line)] = (word, row.line)


def _finish_card(draft: _CardDraft) -> WordCard:
    faces: dict[str, tuple[str, ...]] = {}
    for face in FACES:
        missing = [n for n in range(1, LINES_PER_FACE + 1) if (face, n) not in draft.words]
        if missing:
            listed = ", ".join(str(n) for n in missing)
            raise draft.first_row.fail(
                f"card {draft.card_id} is missing {face} line{'s' if len(missing) > 1 else ''}"
                f" {listed} (each face needs lines 1 to {LINES_PER_FACE})")
        faces[face] = tuple(draft.words[(face, n)][0] for n in range(1, LINES_PER_FACE + 1))
    return WordCard(draft.card_id, red=faces["red"], blue=faces["blue"])


# ---------------------------------------------------------------------------
# Field checks shared by both kinds of deck

def _check_field_names(row: _Row, allowed: tuple[str, ...]) -> None:
    unknown = [name for name in row.fields if name not in allowed]
    if unknown:
        raise row.fail(f"unknown field '{unknown[0]}'; the fields are {', '.join(allowed)}")


def _present(row: _Row, name: str) -> Any:
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
    """The file as text; a byte-order mark (as spreadsheets write) is dropped."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise DeckError(f"{path}: cannot read the file ({error.strerror or error})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise DeckError(f"{path}:{line}: not UTF-8 text; save the file as UTF-8") from None


def _read_csv_rows(path: Path, required: tuple[str, ...]) -> list[_Row]:
    """The data rows of a CSV file with a header; blank lines are skipped."""
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), strict=True)
    start = 1  # first line of the record being read; a quoted field may span lines
    try:
        header = [name.strip() for name in next(reader, [])]
        if not any(header):
            raise DeckError(f"{path}:1: empty file; the first line must be the header "
                            f"{','.join(required)}")
        _check_header(path, header, required)
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


def _check_header(path: Path, header: list[str], required: tuple[str, ...]) -> None:
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise DeckError(f"{path}:1: column '{repeated[0]}' appears twice in the header")
    missing = [name for name in required if name not in header]
    if missing:
        raise DeckError(f"{path}:1: missing column{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(missing)}; the header must be {','.join(required)}")
    unknown = [name for name in header if name not in required]
    if unknown:
        raise DeckError(f"{path}:1: unknown column '{unknown[0]}'; the header must be "
                        f"{','.join(required)}")


def _row_from_cells(path: Path, line: int, header: list[str], cells: list[str]) -> _Row:
    if len(cells) > len(header):
        raise DeckError(f"{path}:{line}: {len(cells)} fields but the header has "
                        f"{len(header)} (quote text that contains commas)")
    if len(cells) < len(header):
        raise DeckError(f"{path}:{line}: missing field '{header[len(cells)]}'")
    return _Row(path, line, dict(zip(header, cells)))


def _read_yaml_rows(path: Path) -> list[_Row]:
    """A YAML question deck: a list of mappings, each remembered with its line."""
    import yaml  # only YAML decks need it

    text = _read_text(path)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error)
        raise DeckError(f"{path}:{line}: not valid YAML ({problem})") from None
    if root is None:
        raise DeckError(f"{path}:1: no questions in the file")
    if not isinstance(data, list):
        raise DeckError(f"{path}:{root.start_mark.line + 1}: expected a list of questions "
                        "(each item starting with '- ')")
    rows = []
    for node, item in zip(root.value, data):
        line = node.start_mark.line + 1
        if not isinstance(item, dict):
            raise DeckError(f"{path}:{line}: each question must be a mapping of "
                            "field: value")
        rows.append(_Row(path, line, {str(key): value for key, value in item.items()}))
    return rows
