"""Whether a spoken clue outside the grammar is likely what the player said.

Where any speech is a move (a Keep Cool turn, the prompt's fallback), a misreading is
scored as a clue: "kettle" read "katelyn" ends a turn with a word nobody said. A
player says one English word, so a reading of two words, or of a word no
pronouncing dictionary knows, is more likely a mishearing than a clue; the ears ask
"Again?" instead (voice/listening/ears.py). The rule, as docs/rules.md states it: a clue
is one word of the host's pronouncing dictionary (which holds every word of the
shipped decks, grammars/pronunciations.dict adding those it lacked), or a hyphenated
compound of such words ("wolf-dog"); several words count when together they are one
such word the recogniser wrote apart ("candle stick"), an article perhaps before it
("a fruit", "a candle stick"). Text only:
typed play keeps its own rule (Keep Cool's several_words).
"""

from __future__ import annotations

from collections.abc import Iterable

from voice.understanding.vocabulary import Dictionary, VocabularyError, load_dictionary, pronunciations

TWO_WORDS = "two words"
NOT_A_WORD = "not a word"


def clue_doubt(said: str, also_known: Iterable[str] = (), dictionary: Dictionary | None = None) -> str:
    """Why the clue `said` (normalised, hyphens kept) is likely misheard, or "" when it is
    one known word. `also_known`: words the prompt's live lists hold (the words in play),
    known whatever the dictionary says. Without a dictionary every single word is known
    (nothing a player said is refused for the host's want of a file)."""
    words = said.lower().split()
    if not words:
        return TWO_WORDS
    try:
        known = load_dictionary() if dictionary is None else dictionary
    except VocabularyError:
        return "" if len(words) == 1 else TWO_WORDS
    extra = {word.lower() for word in also_known}
    if len(words) > 1:
        return _split_compound(words, known, extra)
    word = words[0]
    parts = [part for part in word.split("-") if part]
    if not parts or any(part not in extra and not pronunciations(part, known) for part in parts):
        return "" if word in extra else NOT_A_WORD
    return ""


ARTICLES = ("a", "an", "the")


def _split_compound(words: list[str], known: Dictionary, extra: set[str]) -> str:
    """Several words are one clue only when they are one known word, perhaps written
    apart by the recogniser ("candle stick" for "candlestick"), with perhaps an article
    before it, which players add and Whisper writes ("a fruit")."""
    rest = words[1:] if words[0] in ARTICLES else words
    joined = "".join(rest)
    if rest and (joined in extra or pronunciations(joined, known)):
        return ""
    return TWO_WORDS
