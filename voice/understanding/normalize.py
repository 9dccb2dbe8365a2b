"""One canonical spelling for what was heard or typed, and for grammar phrases.

Both sides of a match go through `normalize`, so "12 Clovers!", "twelve clovers"
and "um, twelve clovers" all become "twelve clovers".
"""

from __future__ import annotations

import re

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
NUMBER_WORDS = frozenset(_ONES + _TENS[2:] + ["hundred", "thousand"])
"""Every word that number_words() writes (not "minus")."""
TENS_WORDS = frozenset(_TENS[2:] + ["hundred"])
"""The words of numbers from twenty up to a hundred: a number said there runs past a card's rank."""
MAX_SPELLED_DIGITS = 6
"""Longer digit runs are said digit by digit: nobody says a seven-digit number in a game,
and a run of thousands of digits must neither overflow int() nor recurse per digit."""

# Hesitations and hedges that carry no meaning for a command. Longest first, so
# "i think that" goes before "i think".
FILLERS = sorted(
    [
        "um",
        "umm",
        "uh",
        "uhh",
        "er",
        "erm",
        "hmm",
        "mm",
        "ah",
        "oh",
        "okay so",
        "so",
        "like",
        "please",
        "i think",
        "i guess",
        "let's say",
        "lets say",
        "how about",
        "maybe",
        "actually",
        "hey host",
        "ok",
        "okay",
    ],
    key=len,
    reverse=True,
)
_FILLER_RE = re.compile(r"\b(?:" + "|".join(re.escape(f) for f in FILLERS) + r")\b")


def number_words(n: int) -> str:
    """Spoken English for 0..999999 ("one hundred five"), the way players say numbers;
    beyond that, digit by digit."""
    if n < 0:
        return "minus " + number_words(-n)
    if n >= 10**MAX_SPELLED_DIGITS:
        return digit_words(str(n))
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("" if ones == 0 else " " + _ONES[ones])
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _ONES[hundreds] + " hundred" + ("" if rest == 0 else " " + number_words(rest))
    thousands, rest = divmod(n, 1000)
    return number_words(thousands) + " thousand" + ("" if rest == 0 else " " + number_words(rest))


_ORDINAL_ENDINGS = {
    "one": "first",
    "two": "second",
    "three": "third",
    "five": "fifth",
    "eight": "eighth",
    "nine": "ninth",
    "twelve": "twelfth",
}


def ordinal_words(n: int) -> str:
    """'first', 'second', 'twenty first', 'one hundredth': how "21st" is said."""
    *head, last = number_words(n).split()
    if last in _ORDINAL_ENDINGS:
        last = _ORDINAL_ENDINGS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return " ".join([*head, last])


def digit_words(digits: str) -> str:
    """'one two three' for "123": each digit said alone."""
    return " ".join(_ONES[int(d)] for d in digits)


def _spoken_number(digits: str) -> str:
    return number_words(int(digits)) if len(digits) <= MAX_SPELLED_DIGITS else digit_words(digits)


def _spoken_ordinal(digits: str) -> str:
    return ordinal_words(int(digits)) if len(digits) <= MAX_SPELLED_DIGITS else digit_words(digits)


def _digits_to_words(match: re.Match) -> str:
    return " " + _spoken_number(match.group()) + " "


def without_article(words: list[str]) -> list[str]:
    """The words with a leading "a", "an" or "the" dropped: players add one anywhere."""
    return words[1:] if words[:1] in (["a"], ["an"], ["the"]) else words


def normalize(text: str, strip_fillers: bool = True, hyphens: bool = False) -> str:
    """Lowercase words separated by single spaces; digits spelled; fillers dropped.
    `hyphens`: a hyphen between two letters stays ("wolf-dog": one word typed)."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 1,000 -> 1000
    text = re.sub(r"\b(\d+)(?:st|nd|rd|th)\b", lambda m: " " + _spoken_ordinal(m[1]) + " ", text)
    text = re.sub(r"(?:(?<=\s)|^)\+(?=\d)", " plus ", text)  # +50 -> plus 50
    text = re.sub(r"(?:(?<=\s)|^)[-\u2212](?=\d)", " minus ", text)  # -20 -> minus 20
    text = re.sub(r"(?<=\d)\s?%", " percent ", text)  # 1% -> 1 percent, as it is said
    text = re.sub(r"\d+", _digits_to_words, text)
    text = re.sub(r"[^a-z'\- ]+" if hyphens else r"[^a-z' ]+", " ", text)  # hyphens, punctuation
    text = re.sub(r"(?<![a-z])-|-(?![a-z])", " ", text)  # a hyphen kept only inside a word
    text = re.sub(r"(?<![a-z])'|'(?![a-z])", " ", text)  # quotes, not apostrophes
    if strip_fillers:
        text = _FILLER_RE.sub(" ", text)
    return " ".join(text.split())
