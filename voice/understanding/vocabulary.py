"""Which words the speech recognizer knows, and which ones sound too much alike.

A recognizer can only hear a word it has a pronunciation for. PocketSphinx ships
an English pronouncing dictionary (the CMU dictionary, 130,000 words, one line per
pronunciation: `word  P R AH N AH N S IY EY SH AH N`, with `word(2)` for a second
way of saying it). grammars/pronunciations.dict, in the same format, adds words
that dictionary lacks; it is optional.

Two words are confusable when some pronunciation of one is within `max_distance`
phone edits (insert, delete or replace one phone) of some pronunciation of the
other: "candle" K AE N D AH L / "handle" HH AE N D AH L differ by one phone.
Homophones ("flour" / "flower") are at distance 0. Stress marks (AH0, AH1) are
ignored, so the comparison is the same for either dictionary style.

Nothing here knows about games: callers decide which words can be in play
together and ask about those.
"""

from __future__ import annotations

import bisect
import gc
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from host.errors import PartyhostError
from voice.understanding.grammar_folder import GRAMMAR_DIR

EXTRA_PRONUNCIATIONS = GRAMMAR_DIR / "pronunciations.dict"
"""Pronunciations this project adds to PocketSphinx's dictionary (optional file)."""

POCKETSPHINX_DICTIONARY = ("en-us", "cmudict-en-us.dict")
"""Where the English dictionary sits inside pocketsphinx's model folder."""

Phones = tuple[str, ...]
Dictionary = Mapping[str, tuple[Phones, ...]]
"""A word (lowercase) -> its pronunciations, each a tuple of phones without stress."""

_ALTERNATE = re.compile(r"\(\d+\)$")  # "read(2)" is the second way of saying "read"
_DIGITS = "0123456789"  # stress marks: "AH0" -> "AH"


class VocabularyError(PartyhostError, RuntimeError):
    """The pronouncing dictionary cannot be loaded; the message says what to do."""


def pocketsphinx_dictionary_path() -> Path:
    """The English dictionary file bundled with the pocketsphinx package."""
    try:
        import pocketsphinx
    except ImportError:
        raise VocabularyError(
            "pocketsphinx is not installed, so the pronouncing dictionary is missing: pip install 'pocketsphinx>=5'"
        ) from None
    get_model_path = getattr(pocketsphinx, "get_model_path", None)
    model_dir = Path(get_model_path()) if get_model_path else Path(pocketsphinx.__file__).resolve().parent / "model"
    path = model_dir.joinpath(*POCKETSPHINX_DICTIONARY)
    if not path.is_file():
        raise VocabularyError(
            f"pocketsphinx is installed but its dictionary {path} is "
            "missing; reinstall it: pip install --force-reinstall pocketsphinx"
        )
    return path


def parse_dictionary(text: str, source: str = "dictionary") -> dict[str, tuple[Phones, ...]]:
    """Pronunciations from CMU-format text. Blank lines and `;;;` or `#` comments are skipped."""
    entries: dict[str, list[Phones]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith((";;;", "#")):
            continue
        word, phones = _entry(stripped, source, number)
        variants = entries.setdefault(word, [])
        if phones not in variants:
            variants.append(phones)
    return {word: tuple(variants) for word, variants in entries.items()}


def _entry(line: str, source: str, number: int) -> tuple[str, Phones]:
    """One stripped, non-comment line as (word, phones without stress)."""
    parts = line.split()
    if len(parts) < 2:
        raise VocabularyError(f"{source}:{number}: '{line}' has a word but no phones")
    return _headword(parts[0]).lower(), tuple(phone.rstrip(_DIGITS).upper() for phone in parts[1:])


def _headword(token: str) -> str:
    """The word a line is about: "read(2)" is a second way of saying "read"."""
    return _ALTERNATE.sub("", token) if token.endswith(")") else token


def load_dictionary(extra: Path | None = EXTRA_PRONUNCIATIONS) -> Dictionary:
    """PocketSphinx's English dictionary plus `extra` (when that file exists).

    Raises VocabularyError when pocketsphinx is not installed. The result is cached
    per extra file; treat it as read-only.
    """
    return _load(pocketsphinx_dictionary_path(), extra)


@lru_cache(maxsize=4)
def _load(base: Path, extra: Path | None) -> Dictionary:
    added = parse_dictionary(extra.read_text(encoding="utf-8"), str(extra)) if extra and extra.is_file() else {}
    return PronouncingFile(base, added)


WORDS_REMEMBERED = 1 << 17
"""Lookups a PronouncingFile keeps (about as many words as the English dictionary has)."""


class PronouncingFile(Mapping[str, tuple[Phones, ...]]):
    """A CMU-format dictionary file, plus added pronunciations, read as a mapping.

    A game needs the sounds of a few hundred words, and parsing all 135,000 lines
    costs half a second in every process that plays. PocketSphinx's file is in
    sorted order, so a word is found by bisection over its lines; a file that is
    not sorted, has comments or blank lines, or a line without phones is parsed whole
    instead (which refuses that line). Iterating parses it whole.
    """

    def __init__(self, path: Path, added: Dictionary | None = None) -> None:
        self._source = str(path)
        self._lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        self._heads = [_headword(words[0]) if len(words := line.split(maxsplit=1)) == 2 else "" for line in self._lines]
        """Each line's word; "" for a blank line or one without phones, which only the whole parse takes."""
        self._added = dict(added or {})
        self._found: dict[str, tuple[Phones, ...]] = {}
        """Words looked up so far: the deck checks ask about each word once per pair it is in."""
        self._whole: dict[str, tuple[Phones, ...]] | None = None
        if not self._sorted_words():
            self._whole = self._parse_whole()  # which refuses a line without phones, as it always did

    def _sorted_words(self) -> bool:
        heads = self._heads
        return (
            all(heads)
            and all(a <= b for a, b in zip(heads, heads[1:]))
            and not any(head.startswith((";;;", "#")) for head in heads)
            and "".join(heads) == "".join(heads).lower()
        )

    def _parse_whole(self) -> dict[str, tuple[Phones, ...]]:
        with _cycle_collector_paused():
            entries = parse_dictionary("\n".join(self._lines), self._source)
        for word, variants in self._added.items():
            entries[word] = _merged(entries.get(word, ()), variants)
        return entries

    def __getitem__(self, word: str) -> tuple[Phones, ...]:
        if self._whole is not None:
            return self._whole[word]
        if word not in self._found:
            if len(self._found) >= WORDS_REMEMBERED:
                self._found.clear()  # a long served game hears words without end
            self._found[word] = self._look_up(word)
        if not self._found[word]:
            raise KeyError(word)
        return self._found[word]

    def _look_up(self, word: str) -> tuple[Phones, ...]:
        start = bisect.bisect_left(self._heads, word)
        end = bisect.bisect_right(self._heads, word, lo=start)
        lines = (_entry(self._lines[number].strip(), self._source, number + 1)[1] for number in range(start, end))
        return _merged(_merged((), lines), self._added.get(word, ()))

    def _everything(self) -> dict[str, tuple[Phones, ...]]:
        if self._whole is None:
            self._whole = self._parse_whole()
        return self._whole

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())


def _merged(known: tuple[Phones, ...], more: Iterable[Phones]) -> tuple[Phones, ...]:
    """`known` and then each pronunciation of `more` that it does not have yet."""
    variants = list(known)
    for phones in more:
        if phones not in variants:
            variants.append(phones)
    return tuple(variants)


@contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """The English dictionary is 400,000 new tuples and lists, none in a cycle; the
    collector would walk them again at every pass, half of the parse's time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def missing_words(words: Iterable[str], dictionary: Dictionary | None = None) -> list[str]:
    """The words (in the order given, each once) that have no pronunciation."""
    known = load_dictionary() if dictionary is None else dictionary
    return [word for word in dict.fromkeys(words) if not pronunciations(word, known)]


def pronunciations(word: str, dictionary: Dictionary | None = None) -> tuple[Phones, ...]:
    """How a word can be said; a possessive ("panda's") is its word plus an s sound."""
    known = load_dictionary() if dictionary is None else dictionary
    word = word.lower()
    if word in known:
        return known[word]
    if word.endswith("'s") and word[:-2] in known:
        return tuple(phones + _possessive_ending(phones) for phones in known[word[:-2]])
    return ()


def _possessive_ending(phones: Phones) -> Phones:
    """English adds IH Z after a hissing sound, S after a voiceless one, Z otherwise."""
    last = phones[-1] if phones else ""
    if last in ("S", "Z", "SH", "ZH", "CH", "JH"):
        return ("IH", "Z")
    return ("S",) if last in ("P", "T", "K", "F", "TH") else ("Z",)


def phone_distance(a: Phones, b: Phones) -> int:
    """How many phones must be inserted, deleted or replaced to turn a into b."""
    return Levenshtein.distance(a, b)


def sounds_alike(a: str, b: str, max_distance: int = 1, dictionary: Dictionary | None = None) -> bool:
    """True when some pronunciation of a is within max_distance phones of one of b.

    The same word (in any case) is not compared with itself; a word without a
    pronunciation sounds like nothing.
    """
    known = load_dictionary() if dictionary is None else dictionary
    if a.lower() == b.lower():
        return False
    variants_a, variants_b = known.get(a.lower(), ()), known.get(b.lower(), ())
    return any(_within(x, y, max_distance) for x in variants_a for y in variants_b)


def confusable_pairs(
    words: Iterable[str], max_distance: int = 1, dictionary: Dictionary | None = None
) -> list[tuple[str, str]]:
    """Pairs of different words that sound within max_distance phones of each other.

    Each pair is (earlier word, later word) in the order given. Words without a
    pronunciation are left out (missing_words lists them).
    """
    known = load_dictionary() if dictionary is None else dictionary
    spoken = [word for word in dict.fromkeys(words) if word.lower() in known]
    return [(a, b) for a, b in itertools.combinations(spoken, 2) if sounds_alike(a, b, max_distance, known)]


def _within(a: Phones, b: Phones, max_distance: int) -> bool:
    if abs(len(a) - len(b)) > max_distance:
        return False  # cheap test first: most pairs differ in length
    return Levenshtein.distance(a, b, score_cutoff=max_distance) <= max_distance
