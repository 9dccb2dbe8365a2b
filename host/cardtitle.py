"""Short titles for question cards, so the host can name a hand without reading it.

A card with a spoken name in its deck (Question.name, "June") is called by it: "the
June one" alone, the bare name in a list of the hand ("June, President and Phileas
Fogg"), and a player says either back (the grammars take the name as a card word,
`with_names`). The titles below are for decks without names.

A player holding five questions needs to hear which is which, not all of them in
full at every turn: "almond fat, watermelon water and ..." in hand order. The title
is a few of the question's own words, the longest ones (long words are the rare,
telling ones), in the order the question says them, so "the almond one" picks the
card by a word the player just heard, and "the second one" by its place. "read card
2" gives the full question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from host.contract import JsonObject
from host.engine import join_names
from host.rules import FALSE_WORDS, TRUE_WORDS

TITLE_WORDS = 3
HAND_TITLE_WORDS = 2
"""Fewer words a title when a whole hand is named: six cards of three words took 10 s."""
READ_HAND = ("titles", "first", "full", "off")
"""How a hand is read as its turn starts (rule read_hand of the question games):
by titles, in full the first time then by titles, in full every time, or not at all."""

COMMON = frozenset(
    """
a about above across after again against all almost also always am among an and any are
around as at average be because been before being below between both but by can could
did do does doing during each either enough ever every for from get gets got had has have
having how however i if in into is it its just least less like likely many may might more
most much must never no nor not of off on once one only or other our out over own per
percent percentage rather roughly said same say says share should since so some still such
than that the their them then there these they this those though through to too under
until up usually very was were what when where whether which while who whom whose why will
with within without would year years yes you your typical typically total whole number numbers
people adults americans share rounded nearest according survey surveyed asked answered
american america united states union european worldwide world standard counting aged
country countries used use make made poll concerned actually become lived full typical
""".split()
)
"""Words too common in questions to tell cards apart (function words, and the deck's
most frequent ones: "American" is in one question in five)."""


class Card(Protocol):
    """What naming needs of a question card (host.decks.Question fits)."""

    @property
    def text(self) -> str: ...

    @property
    def name(self) -> str: ...


def spoken_name(name: str) -> str:
    """ "June" -> "the June one": how a card's name is said, and said back."""
    return f"the {name} one"


def card_name(card: Card, words: int = TITLE_WORDS) -> str:
    """The card as the host names it: by its deck name, else by a title of its words."""
    return spoken_name(card.name) if card.name else card_title(card.text, words)


def names_text(cards: Sequence[Card], words: int = HAND_TITLE_WORDS) -> str:
    """A hand named card by card, in order, by the bare names: "June, President and
    Phileas Fogg." (a hand of six "the ... one"s took longer than the titles did; the
    player says back "the June one" or "June", both taken); cards without a deck name
    by titles of words the hand's other cards do not have,
    where they can be ("almond fat, watermelon water and tattoo")."""
    seen = [{w.lower() for w in _title_words(card.text)} for card in cards]
    said = [
        card.name if card.name else card_title(card.text, words, frozenset().union(*(seen[:i] + seen[i + 1 :])))
        for i, card in enumerate(cards)
    ]
    return join_names(said) + "."


def names_context(cards: Sequence[Card]) -> dict[str, list[str]]:
    """A prompt context's {"names": [...]}, or nothing where the deck has no names."""
    return {"names": [card.name for card in cards]} if any(card.name for card in cards) else {}


def with_names(words: list[tuple[str, int]], names: Sequence[str]) -> list[tuple[str, int]]:
    """A hand's card words (word -> card number, 1-based) with each card's deck name
    added, so "the June one" picks it; a word that is another card's name is dropped,
    so the name alone decides."""
    named = {" ".join(name.lower().split()): n for n, name in enumerate(names, 1) if name.strip()}
    kept = [(word, n) for word, n in words if named.get(word.lower(), n) == n]
    return kept + [(name, n) for name, n in named.items() if (name, n) not in kept]


def card_title(text: str, words: int = TITLE_WORDS, shared: frozenset[str] = frozenset()) -> str:
    """A few telling words of a question, in its own order ("almond weight fat"); words
    in `shared` (the other cards' of a hand) only when it has too few of its own."""
    found = _title_words(text)
    chosen = set(sorted(found, key=lambda w: (w.lower() in shared, -len(w), found.index(w)))[:words])
    return " ".join(word for word in found if word in chosen)


def _title_words(text: str) -> list[str]:
    found: list[str] = []
    for word in re.findall(r"[A-Za-z][A-Za-z'-]*", text):
        clean = word.removesuffix("'s").strip("'-")
        if len(clean) >= 3 and clean.lower() not in COMMON and clean.lower() not in (w.lower() for w in found):
            found.append(clean)
    return found


def read_hand_rule(given: JsonObject) -> JsonObject:
    """Rules with read_hand as one of READ_HAND. It was on/off before titles: on read
    every card in full ("full"), off nothing ("off"); those values still work."""
    value = given.get("read_hand")
    word = str(value).strip().lower()
    if isinstance(value, str) and word in READ_HAND:
        return {**given, "read_hand": word}
    if isinstance(value, bool) or word in TRUE_WORDS + FALSE_WORDS:
        return {**given, "read_hand": "full" if word in TRUE_WORDS else "off"}
    return given
