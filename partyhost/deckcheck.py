"""Check deck files for problems a loader cannot see, and print the answer spread.

The loaders in host/decks.py already refuse broken files (bad columns, answers
outside 0..100, duplicate ids, incomplete word cards). This script adds the
content checks that make a deck good to play by voice:
- questions: unique ids, every field filled in, answers 0..100, text that a
  speech engine reads cleanly (no %, &, #, /, unit abbreviations, "US"...),
  no two questions that are nearly the same (rapidfuzz token_sort_ratio >= 90);
- words: lowercase a-z, at least 4 letters, each word once in the deck, every
  face complete (10 lines), no two words on one card sharing a root (one inside
  the other, the same first 5 letters, or the same stem once a light suffix such
  as -s, -er, -ing is cut off), every word in the speech recognizer's pronouncing
  dictionary, no two words of one face and line (the words that can be in
  play together) within one phone of each other (voice/understanding/vocabulary.py), no two
  words of the whole deck that sound exactly the same, and no word that sounds
  exactly like an English word a player may say (homophone_counts: Zipf 2.5 or above,
  names included, and common or not far rarer than the deck word; wordfreq:
  decks/frequent-words.txt; or an everyday word of decks/clue-words.txt);
- the shipped word deck, or any deck given with --full: 120 cards numbered 1 to
  120, 2,400 different words, none of decks/unfit-words.txt (slurs, regional words),
  and none of decks/hard-words.txt above line 8 (words a casual player may not know).
- question names (the spoken "the June one", Question.name): one or two words, every
  word in the pronouncing dictionary, no number word (it would be heard as a card or
  a value), no two cards that can be in one hand (a game they share) with one name,
  and each name understood as its own card by that game's grammar ("the June one"
  at its choose_card prompt, among every name of the deck);
Warnings (not errors unless --strict): answers bunched in one tenth (over 15
percent of the deck), too few questions for a game, speech checks skipped because
pocketsphinx (which holds the dictionary) is not installed.

Run:  partyhost decks check                 (the shipped decks)
      partyhost decks check --questions my.csv --words my-words.csv
      partyhost decks check --words full-deck.csv --full
      partyhost decks stats                 (counts, answer histogram, difficulty table)
Exit status: 0 fine, 1 problems found, 2 a file could not be loaded.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz, process, utils

from host.cardtitle import spoken_name
from host.decks import (
    ANSWER_MAX,
    ANSWER_MIN,
    BID_REWARD_FILE,
    CATEGORIES,
    FACES,
    LINES_PER_FACE,
    PACK_FILE,
    QUESTIONS_FILE,
    WORDS_FILE,
    DeckError,
    Decks,
    Question,
    WordCard,
    default_deck_dir,
    load_bid_reward_decks,
    load_decks,
    load_pack,
)
from host.engine import ORDINALS
from host.games import dealing, get_game, grammar_slots
from voice.understanding import normalize as normalize_words
from voice.understanding import vocabulary
from voice.understanding.normalize import normalize

NEAR_DUPLICATE_SCORE = 90
MAX_SHARE_PER_TENTH = 0.15
MAX_TEXT_LENGTH = 160
MIN_WORD_LETTERS = 4
SHARED_PREFIX = 5
LIGHT_SUFFIXES = ("ings", "ing", "ers", "er", "es", "ed", "s", "ly", "ness", "ment", "ful", "less")
"""Cut before comparing stems; the same list as the game's own root check (keep_cool.py)."""
MIN_STEM_LETTERS = 3
CONFUSABLE_PHONES = 1
"""Two words of one face and line may not be this many phone edits apart, or fewer."""
FULL_DECK_CARDS = 120
FULL_DECK_WORDS = FULL_DECK_CARDS * len(FACES) * LINES_PER_FACE  # 2,400, as in the boxed game

_SYMBOLS = "%&#/\\@*+=<>~^|_$€£¥°[]{}"
_UNIT_ABBREVIATIONS = r"km|kg|cm|mm|ml|mph|kph|ft|lbs?|oz|hrs?|mins?|secs?|approx|etc|vs"
_UNIT_PATTERN = re.compile(rf"\b({_UNIT_ABBREVIATIONS})\b\.?", re.IGNORECASE)
_DIGIT_THEN_SYMBOL = re.compile(r"\d\s?[^\w\s,.?!'\"():;-]")
_SYMBOL_THEN_DIGIT = re.compile(r"[^\w\s,.?!'\"():;-]\s?\d")
_LATIN_ABBREVIATION = re.compile(r"\b(e\.g|i\.e)\b", re.IGNORECASE)
_BARE_US = re.compile(r"\bUS\b")  # read as the word "us"


@dataclass
class Report:
    """What a validation found: errors must be fixed, warnings are worth a look."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    histogram: dict[str, int] = field(default_factory=dict)

    def ok(self, strict: bool = False) -> bool:
        return not self.errors and not (strict and self.warnings)


# ---------------------------------------------------------------------------
# Questions


def speakability_problems(text: str) -> list[str]:
    """Why a question text would be read badly aloud (empty when it reads well)."""
    problems = []
    symbols = sorted({ch for ch in text if ch in _SYMBOLS})
    if symbols:
        problems.append(f"symbol {' '.join(symbols)} (write it out in words)")
    if _DIGIT_THEN_SYMBOL.search(text) or _SYMBOL_THEN_DIGIT.search(text):
        problems.append("a number joined to a symbol")
    unit = _UNIT_PATTERN.search(text)
    if unit:
        problems.append(f"abbreviation '{unit.group(0)}' (write the unit in full)")
    if _LATIN_ABBREVIATION.search(text):
        problems.append("'e.g.' or 'i.e.' (write 'for example' or 'that is')")
    if _BARE_US.search(text):
        problems.append("'US' is read as 'us' (write 'United States' or 'American')")
    if len(text) > MAX_TEXT_LENGTH:
        problems.append(f"{len(text)} characters, too long to read aloud (at most {MAX_TEXT_LENGTH})")
    if not text.rstrip().endswith("?"):
        problems.append("does not end with a question mark")
    return problems


def check_questions(questions: Sequence[Question]) -> list[str]:
    """Errors in a question deck, one sentence each, naming the question id."""
    errors: list[str] = []
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            errors.append(f"question {q.id}: duplicate id")
        seen.add(q.id)
        errors.extend(f"question {q.id}: {problem}" for problem in _field_problems(q))
        errors.extend(f"question {q.id}: {problem}" for problem in speakability_problems(q.text))
    errors.extend(near_duplicates(questions))
    return errors


_SOURCE_YEAR = re.compile(r"(?<![\w:.+/-])(1[5-9]\d\d|20\d\d)(?:[-–](1[5-9]\d\d|20\d\d))?(?!\w|[.+:/]\w)")
"""A year standing alone in a source ("..., 2025", "1993-2001"), not a code's digits
("29 CFR 1904.39", "IEC 60038:2009+A1")."""


def source_year(source: str) -> int | None:
    """The latest year a source names, or None when it names none."""
    years = [int(y) for match in _SOURCE_YEAR.finditer(source) for y in match.groups() if y]
    return max(years) if years else None


def _year_problems(q: Question) -> list[str]:
    """A card's year (the survey's or the figure's) cannot be later than its source."""
    published = source_year(q.source)
    if q.year is not None and published is not None and q.year > published:
        return [f"year {q.year} is after its source's {published}"]
    return []


def _field_problems(q: Question) -> list[str]:
    problems = _year_problems(q)
    for name in ("id", "text", "source", "category"):
        if not str(getattr(q, name)).strip():
            problems.append(f"empty {name}")
    if not ANSWER_MIN <= q.answer <= ANSWER_MAX:
        problems.append(f"answer {q.answer} outside {ANSWER_MIN} to {ANSWER_MAX}")
    if q.category not in CATEGORIES:
        problems.append(f"unknown category '{q.category}'")
    if not q.games or any(game not in dealing("questions") for game in q.games):
        problems.append(f"games must be among {', '.join(dealing('questions'))}")
    return problems


def near_duplicates(questions: Sequence[Question], threshold: int = NEAR_DUPLICATE_SCORE) -> list[str]:
    """Pairs of questions whose texts are almost the same words."""
    texts = [q.text for q in questions]
    if len(texts) < 2:
        return []
    found = []
    for i, text in enumerate(texts):
        # process.extract, not cdist: cdist needs numpy, which the project does not depend on
        for _, score, j in process.extract(
            text,
            texts[i + 1 :],
            scorer=fuzz.token_sort_ratio,
            processor=utils.default_process,
            score_cutoff=threshold,
            limit=None,
        ):
            found.append(
                f"questions {questions[i].id} and {questions[i + 1 + j].id} are nearly "
                f"the same (similarity {score:.0f})"
            )
    return found


def tenth_label(answer: int) -> str:
    """'0-9', '10-19', ... '90-100' (100 joins the top tenth)."""
    low = min(answer // 10, 9) * 10
    return f"{low}-{low + 9}" if low < 90 else "90-100"


def answer_histogram(questions: Iterable[Question]) -> dict[str, int]:
    """How many answers fall in each tenth of 0..100, every tenth listed."""
    counts = {tenth_label(low): 0 for low in range(0, 100, 10)}
    for q in questions:
        counts[tenth_label(q.answer)] += 1
    return counts


def spread_warnings(questions: Sequence[Question], max_share: float = MAX_SHARE_PER_TENTH) -> list[str]:
    """Tenths holding more than max_share of the answers (guessing gets too easy)."""
    total = len(questions)
    if not total:
        return []
    return [
        f"{count} of {total} answers ({count / total:.0%}) are in {label}; keep each tenth under {max_share:.0%}"
        for label, count in answer_histogram(questions).items()
        if count / total > max_share
    ]


def game_count_warnings(questions: Sequence[Question]) -> list[str]:
    warnings = []
    for game in dealing("questions"):
        minimum = get_game(game).deck.min_cards
        count = sum(game in q.games for q in questions)
        if count < minimum:
            warnings.append(f"only {count} questions for {game}; a full game can need {minimum}")
    return warnings


# ---------------------------------------------------------------------------
# Keep Cool words


def light_stem(word: str) -> str:
    """The word without one light suffix, keeping 3 letters ("flies" -> "fli" -> "fly")."""
    stem = word
    for suffix in LIGHT_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM_LETTERS:
            stem = word[: -len(suffix)]
            break
    return stem[:-1] + "y" if stem.endswith("i") else stem


def share_root(a: str, b: str) -> bool:
    """Too close for one card: one word inside the other ("butter", "butterfly"), the
    same first 5 letters ("teacher", "teaching"), or the same stem ("baker", "bakes")."""
    return a in b or b in a or a[:SHARED_PREFIX] == b[:SHARED_PREFIX] or light_stem(a) == light_stem(b)


def check_words(cards: Sequence[WordCard]) -> list[str]:
    """Errors in a word deck: bad words, incomplete faces, repeats across the deck,
    roots shared on a card."""
    errors: list[str] = []
    first_card: dict[str, int] = {}
    for card in cards:
        for face in FACES:
            count = len(getattr(card, face))
            if count != LINES_PER_FACE:
                errors.append(f"card {card.id}: the {face} face has {count} words; each face needs {LINES_PER_FACE}")
        words = list(card.red) + list(card.blue)
        for word in words:
            if not (word.isascii() and word.isalpha() and word.islower()):
                errors.append(f"card {card.id}: '{word}' must be lowercase letters a-z")
            if len(word) < MIN_WORD_LETTERS:
                errors.append(f"card {card.id}: '{word}' is shorter than {MIN_WORD_LETTERS} letters")
            if word in first_card and first_card[word] != card.id:
                errors.append(f"card {card.id}: '{word}' is also on card {first_card[word]}")
            first_card.setdefault(word, card.id)
        for i, word in enumerate(words):
            for other in words[i + 1 :]:
                if share_root(word, other):
                    errors.append(f"card {card.id}: '{word}' and '{other}' share a root")
    return errors


def check_full_deck(cards: Sequence[WordCard], size: int = FULL_DECK_CARDS) -> list[str]:
    """Errors unless the deck is complete: cards 1 to `size`, every word different."""
    errors = []
    numbers = [card.id for card in cards]
    if len(numbers) != size:
        errors.append(f"the word deck has {len(numbers)} cards; a full deck has {size}")
    missing = sorted(set(range(1, size + 1)) - set(numbers))
    extra = sorted(set(numbers) - set(range(1, size + 1)))
    if missing:
        errors.append(f"cards missing from the full deck: {_number_list(missing)}")
    if extra:
        errors.append(f"cards numbered outside 1 to {size}: {_number_list(extra)}")
    words = [word for card in cards for word in card.red + card.blue]
    wanted = size * len(FACES) * LINES_PER_FACE
    if len(set(words)) != wanted:
        errors.append(f"{len(set(words))} different words; a full deck has {wanted}")
    return errors


def _number_list(numbers: list[int], shown: int = 10) -> str:
    listed = ", ".join(str(n) for n in numbers[:shown])
    return listed + (f" and {len(numbers) - shown} more" if len(numbers) > shown else "")


def words_in_play_together(cards: Sequence[WordCard]) -> dict[tuple[str, int], list[tuple[str, int]]]:
    """(face, line) -> [(word, card)]: a game uses one face and line for every card."""
    groups: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for card in cards:
        for face in FACES:
            for line, word in enumerate(getattr(card, face), start=1):
                groups.setdefault((face, line), []).append((word, card.id))
    return groups


def check_speech(
    cards: Sequence[WordCard], dictionary: vocabulary.Dictionary, max_distance: int = CONFUSABLE_PHONES
) -> list[str]:
    """Errors for words the recognizer cannot hear, and for words of one face and line
    that sound alike (homophones, or one phone apart: "candle" / "handle")."""
    errors = []
    seen_missing: set[str] = set()
    for card in cards:
        for word in vocabulary.missing_words(card.red + card.blue, dictionary):
            if word not in seen_missing:
                seen_missing.add(word)
                errors.append(
                    f"card {card.id}: '{word}' is not in the pronouncing dictionary "
                    "(choose another word, or add it to grammars/pronunciations.dict)"
                )
    for (face, line), entries in sorted(
        words_in_play_together(cards).items(), key=lambda item: (FACES.index(item[0][0]), item[0][1])
    ):
        card_of: dict[str, int] = {}
        for word, card_id in entries:
            card_of.setdefault(word, card_id)
        for a, b in vocabulary.confusable_pairs([w for w, _ in entries], max_distance, dictionary):
            errors.append(f"{face} line {line}: '{a}' (card {card_of[a]}) and '{b}' (card {card_of[b]}) sound alike")
    return errors


FREQUENT_WORDS_FILE = "frequent-words.txt"
"""The English words at Zipf HOMOPHONE_ZIPF or above (wordfreq 3.1.1, names included)
that sound like another word of the pronouncing dictionary, each with its Zipf
frequency (word, a tab, the figure), written by scripts/build_keep_cool.py."""

HOMOPHONE_ZIPF = 2.5
"""A word rarer than this is not one a player says in passing or as a clue."""
COMMON_ZIPF = 3.5
"""A word this frequent (about 3 per million words) counts whatever the deck word."""
RARER_BY = 1.5
"""Below COMMON_ZIPF, a word counts only when at most this much rarer (Zipf is a log10
scale: 1.5 is about 30 times) than the deck word it sounds like: "gait" (3.09) spoils
"gate" (4.47), but "Appel" (2.53) is a name nobody says for "apple" (4.76)."""


def homophone_counts(word_zipf: float | None, other_zipf: float) -> bool:
    """Whether a word sounding like a deck word is one a player may say at a turn, and so
    would win the card. `word_zipf` is the deck word's Zipf frequency, None when below
    HOMOPHONE_ZIPF (not in decks/frequent-words.txt). The one place of the rule: the deck
    builder and `decks check` both ask it."""
    if other_zipf < HOMOPHONE_ZIPF:
        return False
    return other_zipf >= COMMON_ZIPF or word_zipf is None or other_zipf >= word_zipf - RARER_BY


CLUE_WORDS_FILE = "clue-words.txt"
"""Everyday English words a player may well say ("hoarse", "wring") that the Zipf rule
lets through beside a much more frequent deck word ("horse", "ring"): each counts as a
homophone partner whatever its frequency. Judged by hand, each with its reason."""


UNFIT_WORDS_FILE = "unfit-words.txt"
"""Words a full deck must not hold, each with its reason: a slur somewhere English is
spoken, or a word that means another thing, or nothing, in another country."""


def unfit_words(path: Path | None = None) -> dict[str, str]:
    """decks/unfit-words.txt: word -> why it is left out (comment lines skipped); the
    format of decks/hard-words.txt too."""
    path = path or default_deck_dir() / UNFIT_WORDS_FILE
    pairs = [
        line.split("\t", 1)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return {word.strip(): reason.strip() for word, reason in pairs}


def check_unfit(cards: Sequence[WordCard]) -> list[str]:
    """Errors for words of decks/unfit-words.txt (slurs, regional words) in a full deck."""
    unfit = unfit_words()
    return [
        f"card {card.id}: '{word}' is left out of a full deck: {unfit[word]}"
        for card in cards
        for word in card.red + card.blue
        if word in unfit
    ]


HARD_WORDS_FILE = "hard-words.txt"
"""Words a casual player may not know, though wordfreq ranks them as familiar (a place,
a name or another sense lifts them: "mesa", "myrtle", "tote"), each with its reason: in a
full deck they go on line FIRST_HARD_LINE or later, the lines the rulebook calls harder."""
FIRST_HARD_LINE = 8


def hard_words(path: Path | None = None) -> dict[str, str]:
    """decks/hard-words.txt: word -> why a casual player may not know it."""
    return unfit_words(path or default_deck_dir() / HARD_WORDS_FILE)


def check_hard_words(cards: Sequence[WordCard]) -> list[str]:
    """Errors for words of decks/hard-words.txt above line FIRST_HARD_LINE in a full deck."""
    hard = hard_words()
    return [
        f"card {card.id}: '{word}' is on {face} line {line}; a word a casual player may not know "
        f"({hard[word]}) goes on line {FIRST_HARD_LINE} or later"
        for card in cards
        for face, words in (("red", card.red), ("blue", card.blue))
        for line, word in enumerate(words, 1)
        if word in hard and line < FIRST_HARD_LINE
    ]


def frequent_words(path: Path | None = None) -> dict[str, float]:
    """The shipped list of frequent English words that have a homophone: word -> its Zipf
    frequency (comment lines skipped)."""
    path = path or default_deck_dir() / FREQUENT_WORDS_FILE
    pairs = [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return {word.strip(): float(zipf) for word, zipf in pairs}


def clue_words(path: Path | None = None) -> dict[str, str]:
    """decks/clue-words.txt: word -> why a player may say it (see CLUE_WORDS_FILE)."""
    return unfit_words(path or default_deck_dir() / CLUE_WORDS_FILE)


def homophones(words: Iterable[str], others: Iterable[str], dictionary: vocabulary.Dictionary) -> list[tuple[str, str]]:
    """(word, other) pairs spelt differently that share a pronunciation: at a Keep Cool
    turn nobody can tell them apart by ear ("flour" / "flower", "sari" / "sorry")."""
    said_as: dict[tuple[str, ...], list[str]] = {}
    for other in dict.fromkeys(others):
        for phones in vocabulary.pronunciations(other, dictionary):
            said_as.setdefault(phones, []).append(other)
    pairs: list[tuple[str, str]] = []
    for word in dict.fromkeys(words):
        for phones in vocabulary.pronunciations(word, dictionary):
            pairs += [
                (word, other) for other in said_as.get(phones, ()) if other != word and (word, other) not in pairs
            ]
    return pairs


def said_homophones(
    words: Iterable[str],
    frequent: Mapping[str, float],
    dictionary: vocabulary.Dictionary,
    clue: Iterable[str] = (),
) -> list[tuple[str, str]]:
    """(word, other) pairs where `other` is a frequent word a player may say that sounds
    like `word` (homophone_counts), or one of `clue` (decks/clue-words.txt)."""
    said = set(clue)
    return [
        (word, other)
        for word, other in homophones(words, [*frequent, *said], dictionary)
        if other in said or homophone_counts(frequent.get(word), frequent[other])
    ]


def check_homophones(
    cards: Sequence[WordCard],
    dictionary: vocabulary.Dictionary,
    frequent: Mapping[str, float],
    clue: Iterable[str] = (),
) -> list[str]:
    """Errors for deck words that sound exactly like another deck word anywhere in the
    deck, or like a frequent English word a player may say (a stray "sorry" is "sari")."""
    deck = [word for card in cards for word in card.red + card.blue]
    errors = [
        f"'{a}' and '{b}' sound the same (both in the deck)" for a, b in homophones(deck, deck, dictionary) if a < b
    ]
    errors += [
        f"'{word}' sounds like the common word '{other}'"
        for word, other in said_homophones(deck, frequent, dictionary, clue)
    ]
    return errors


def check_question_words(questions: Sequence[Question], dictionary: vocabulary.Dictionary) -> list[str]:
    """Players pick a card by its words ("the pizza one"), so every word of every
    question must be one the recognizer can hear."""
    errors = []
    for q in questions:
        words = normalize(q.text, strip_fillers=False).split()
        for word in vocabulary.missing_words(words, dictionary):
            errors.append(
                f"question {q.id}: '{word}' is not in the pronouncing dictionary "
                "(reword it, or add it to grammars/pronunciations.dict)"
            )
    return errors


NAME_WORDS_MAX = 2
"""A card's name is one or two words, said as "the NAME one" (host.decks.Question.name)."""
NUMBER_WORDS = normalize_words.NUMBER_WORDS | {"oh", "million", "billion", *ORDINALS}
"""Words a name must not hold: a player saying them back would be heard as a card's number or place."""


def check_card_names(questions: Sequence[Question], dictionary: vocabulary.Dictionary | None) -> list[str]:
    """Errors for question names a player could not hear or say back: too long, a word
    the recogniser does not know, a number word, the same name on two cards one hand
    may hold, or a name the game's grammar does not take for its own card. Without
    `dictionary` (pocketsphinx missing) only length, numbers and duplicates are checked."""
    errors: list[str] = []
    named = [q for q in questions if q.name]
    for q in named:
        words = normalize(q.name, strip_fillers=False).split()
        if not words or len(words) > NAME_WORDS_MAX:
            errors.append(f"question {q.id}: name '{q.name}' must be 1 to {NAME_WORDS_MAX} words")
        numbers = [w for w in words if w in NUMBER_WORDS or w.isdigit()]
        if numbers:
            errors.append(f"question {q.id}: name '{q.name}' holds the number word '{numbers[0]}'")
        for word in vocabulary.missing_words(words, dictionary) if dictionary is not None else []:
            errors.append(f"question {q.id}: name '{q.name}': '{word}' is not in the pronouncing dictionary")
    for game in dealing("questions"):
        deck = [q for q in named if game in q.games]
        first_with: dict[str, Question] = {}
        for q in deck:
            key = " ".join(normalize(q.name, strip_fillers=False).split())
            if key in first_with:
                errors.append(
                    f"questions {first_with[key].id} and {q.id} are both '{spoken_name(q.name)}' "
                    f"and can be in one {game} hand"
                )
            first_with.setdefault(key, q)
        errors += _names_misheard(game, deck) if dictionary is not None else []
    return errors


def _names_misheard(game: str, deck: Sequence[Question]) -> list[str]:
    """Names the game's choose_card grammar does not take, said as "the NAME one", for
    their own card unasked, with every name of the deck in play at once."""
    from voice.understanding.matcher import Matcher

    if not deck:
        return []
    prompt = f"{game}/choose_card"
    table = Matcher().table(prompt, grammar_slots(prompt, {"hand": [], "names": [q.name for q in deck]}))
    errors = []
    for number, q in enumerate(deck, 1):
        match = table.match(spoken_name(q.name))
        if match.intent is None or match.intent.get("card") != number or match.needs_confirmation:
            errors.append(f"question {q.id}: '{spoken_name(q.name)}' is not understood as that card in {game}")
    return errors


# ---------------------------------------------------------------------------
# Putting it together


def validate(
    questions: Sequence[Question], cards: Sequence[WordCard], full_deck: bool = False, speech: bool = True
) -> Report:
    """Every check; `full_deck` also requires a complete 120-card word deck, `speech`
    the pronouncing-dictionary checks (a warning says when they cannot run)."""
    report = Report(histogram=answer_histogram(questions))
    report.errors += check_questions(questions)
    report.errors += check_words(cards)
    if full_deck:
        report.errors += check_full_deck(cards) + check_unfit(cards) + check_hard_words(cards)
    if (cards or questions) and speech:
        try:
            dictionary = vocabulary.load_dictionary()
        except vocabulary.VocabularyError as error:
            report.warnings.append(f"speech checks skipped: {error}")
            report.errors += check_card_names(questions, None)
        else:
            report.errors += check_speech(cards, dictionary)
            if cards:
                report.errors += check_homophones(cards, dictionary, frequent_words(), clue_words())
            report.errors += check_question_words(questions, dictionary)
            report.errors += check_card_names(questions, dictionary)
    if questions:
        report.warnings += spread_warnings(questions)
        report.warnings += game_count_warnings(questions)
    return report


def format_histogram(histogram: dict[str, int]) -> list[str]:
    lines = ["answers per tenth:"]
    width = max(histogram.values(), default=0)
    for label, count in histogram.items():
        bar = "#" * round(40 * count / width) if width else ""
        lines.append(f"  {label:>6}  {count:3}  {bar}")
    return lines


def format_report(report: Report, question_count: int, card_count: int) -> str:
    lines = [f"{question_count} questions, {card_count} word cards"]
    if question_count:
        lines += format_histogram(report.histogram)
    lines += [f"error: {e}" for e in report.errors]
    lines += [f"warning: {w}" for w in report.warnings]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--questions",
        action="append",
        default=[],
        metavar="FILE",
        help="question deck (CSV or YAML); repeatable (default: the shipped decks)",
    )
    parser.add_argument(
        "--words", action="append", default=[], metavar="FILE", help="Keep Cool word deck (CSV); repeatable"
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help=f"the word deck must be complete: {FULL_DECK_CARDS} cards, "
        f"{FULL_DECK_WORDS} different words (always on for the shipped deck)",
    )
    parser.add_argument(
        "--card-deck",
        action="append",
        default=[],
        metavar="FILE",
        help="1%% bid/reward deck or Centurion pack (YAML); repeatable",
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")


def _load(args: argparse.Namespace) -> tuple[Decks, bool] | None:
    question_paths, word_paths, full_deck = args.questions, args.words, args.full
    card_paths = list(args.card_deck)
    if not question_paths and not word_paths and not card_paths:
        question_paths = [default_deck_dir() / QUESTIONS_FILE]
        word_paths = [default_deck_dir() / WORDS_FILE]
        card_paths = [default_deck_dir() / BID_REWARD_FILE, default_deck_dir() / PACK_FILE]
        full_deck = True
    try:
        for path in card_paths:  # a YAML card deck is either kind: the loaders tell them apart
            _load_card_deck(Path(path))
        return load_decks(question_paths, word_paths, question_games=dealing("questions")), full_deck
    except DeckError as error:
        print(f"error: {error}")
        return None


def _load_card_deck(path: Path) -> None:
    """Load a 1% deck file or a Centurion pack file, whichever it is, or raise DeckError."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if "bid_deck" in text or "reward_deck" in text:
        load_bid_reward_decks(path)
    else:
        load_pack(path)


def run_check(args: argparse.Namespace) -> int:
    """`partyhost decks check`: exit 0 fine, 1 problems found, 2 a file could not be loaded."""
    loaded = _load(args)
    if loaded is None:
        return 2
    decks, full_deck = loaded
    report = validate(decks.questions, decks.words, full_deck=full_deck)
    print(format_report(report, len(decks.questions), len(decks.words)))
    return 0 if report.ok(strict=args.strict) else 1


def run_stats(args: argparse.Namespace) -> int:
    """`partyhost decks stats`: counts, the answer histogram and the Keep Cool difficulty table."""
    loaded = _load(args)
    if loaded is None:
        return 2
    print(format_stats(loaded[0]))
    return 0


def format_stats(decks: Decks) -> str:
    questions, cards = decks.questions, decks.words
    lines = [f"questions: {len(questions)}"]
    for game in dealing("questions"):
        lines.append(f"  for {game}: {sum(game in q.games for q in questions)}")
    categories = Counter(q.category for q in questions)
    lines.append("  by category: " + ", ".join(f"{c} {n}" for c, n in categories.most_common()))
    if questions:
        lines += format_histogram(answer_histogram(questions))
    words = {word for card in cards for face in FACES for word in getattr(card, face)}
    lines.append(f"keep cool: {len(cards)} cards, {len(words)} different words")
    if cards:
        lines.append(difficulty_table(cards))
    return "\n".join(lines)


def difficulty_table(cards: Sequence[WordCard]) -> str:
    """Per line: how many words, their length, examples, and (with wordfreq) Zipf frequency."""
    zipf_frequency: Callable[[str, str], float] | None
    try:
        from wordfreq import zipf_frequency  # build-time tool, optional here
    except ImportError:
        zipf_frequency = None
    rows = ["  line  words  letters  zipf range   examples"]
    for line in range(1, LINES_PER_FACE + 1):
        words = sorted({card.word(face, line) for card in cards for face in FACES})
        letters = sum(map(len, words)) / len(words)
        zipf = "(wordfreq?)"
        if zipf_frequency is not None:
            values = [zipf_frequency(w, "en") for w in words]
            zipf = f"{min(values):.2f}-{max(values):.2f}"
        examples = ", ".join(words[:: max(1, len(words) // 4)][:4])
        rows.append(f"  {line:4}  {len(words):5}  {letters:7.1f}  {zipf:<11}  {examples}")
    return "\n".join(rows)
