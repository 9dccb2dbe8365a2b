"""How a phrase sounds, as a string: one character per phone, for fuzzy matching by sound.

A recogniser's slips are slips of sound, not of spelling: "and you" for "undo",
"then" for "Ben", "bred" for "bread". Spelled, these are far apart; as phones
(AH N D Y UW / AH N D UW) they are one phone apart. Turning each phone into one
character lets rapidfuzz compare pronunciations as quickly as it compares text.
"""

from __future__ import annotations

from functools import lru_cache

from voice.understanding import vocabulary

_PHONES = (
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH"
).split()
_CODE = {phone: chr(ord("A") + i) if i < 26 else chr(ord("a") + i - 26) for i, phone in enumerate(_PHONES)}


@lru_cache(maxsize=1)
def _dictionary() -> vocabulary.Dictionary | None:
    try:
        return vocabulary.load_dictionary()
    except vocabulary.VocabularyError:
        return None  # no dictionary: matching falls back to spelling only


@lru_cache(maxsize=100_000)
def sound_of(text: str) -> str | None:
    """The phone string of a normalised text (first pronunciation of each word), or
    None when a word has no known pronunciation."""
    dictionary = _dictionary()
    if dictionary is None or not text:
        return None
    codes: list[str] = []
    for word in text.split():
        variants = vocabulary.pronunciations(word, dictionary)
        if not variants:
            return None
        codes.extend(_CODE.get(phone, "?") for phone in variants[0])
    return "".join(codes)
