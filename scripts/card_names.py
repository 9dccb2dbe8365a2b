"""Propose a spoken name for every question card of decks/questions.csv (issue 40).

A hand read aloud by its cards' names ("the June one, the President one and the
Phileas Fogg one") is easier to follow and to say back than titles cut from the
question ("month June, minimum President and Jules Phileas"). This script suggests
a name of one or two of the question's own words for every card without one:

- the card's topic first: a word of its id that the question says ("octopus-hearts"
  gives "the octopus one"), the one fewest other questions use;
- else a name in capitals ("the Mayflower one"), then the last word of a phrase
  after "the", "a", "of" ... (a noun, likely: "a paper book" gives "book"), then
  any other word; each among words a listener knows (the 10,000 most frequent
  English words, decks/frequent-words.txt, or a name the pronouncing dictionary
  has), never one ending -ly, -ed or -ing, the one fewest other questions use;
- never a word the title rules call too common (host/cardtitle.COMMON);
- unique in the deck, case aside: a name already taken gets a second word.

Names already in the file are kept. The result is a proposal: read it through, fix
what sounds odd, then `partyhost decks check` (unique, known words, understood).

Run:  python scripts/card_names.py            (print the proposals)
      python scripts/card_names.py --write    (fill the name column in place)
"""

from __future__ import annotations

import argparse
import csv
import io
import re
from collections import Counter
from pathlib import Path

from host.cardtitle import COMMON
from voice.understanding import vocabulary

DECK = Path(__file__).resolve().parents[1] / "decks" / "questions.csv"
FREQUENT = DECK.parent / "frequent-words.txt"


def _words(text: str) -> list[str]:
    """The question's words in order, a possessive cut to its word, each once."""
    found: list[str] = []
    for word in re.findall(r"[A-Za-z][A-Za-z-]*(?:'s)?", text):
        word = word.removesuffix("'s").strip("-")
        if word and word.lower() not in (w.lower() for w in found):
            found.append(word)
    return found


LEADS = frozenset("the a an its their his her your our this that each every per of".split())
"""Words a noun phrase starts after."""
NOT_NAMES = frozenset("another she few next near already somewhat fairly ahead apart".split())


def _heads(text: str) -> set[str]:
    """The last word of each run of content words after a lead word ("the Berlin Wall" gives "Wall")."""
    tokens = re.findall(r"[A-Za-z][A-Za-z'-]*|[^\sA-Za-z]", text)
    heads, run, open_ = set(), [], False
    for token in [*tokens, "."]:
        word = token.removesuffix("'s")
        if word.lower() in LEADS:
            if run:
                heads.add(run[-1])
            run, open_ = [], True
        elif open_ and word[:1].isalpha() and word.lower() not in COMMON:
            run.append(word)
        else:
            if run:
                heads.add(run[-1])
            run, open_ = [], False
    return heads


def _full_name(text: str, word: str) -> str:
    """A name in capitals with the capitalised word beside it ("Lisa" gives "Mona Lisa")."""
    if not word[:1].isupper():
        return word
    said = re.findall(r"[A-Za-z][A-Za-z-]*", text)
    at = said.index(word) if word in said else -1
    if at > 0 and said[at - 1][:1].isupper() and at - 1 > 0:
        return f"{said[at - 1]} {word}"
    if 0 <= at < len(said) - 1 and said[at + 1][:1].isupper():
        return f"{word} {said[at + 1]}"
    return word


def propose(rows: list[dict[str, str]]) -> list[str]:
    """A name for each row (its own when it has one)."""
    rank = {
        w: i
        for i, w in enumerate(line.strip() for line in FREQUENT.read_text().splitlines() if not line.startswith("#"))
    }
    dictionary = vocabulary.load_dictionary()
    words_of = [_words(row["text"]) for row in rows]
    deck_count = Counter(w.lower() for words in words_of for w in words)
    taken = {row.get("name", "").strip().lower() for row in rows if row.get("name", "").strip()}
    names = []
    for row, words in zip(rows, words_of):
        if row.get("name", "").strip():
            names.append(row["name"].strip())
            continue
        first = words[0] if words else ""

        def everyday(word: str, first: str = first) -> bool:
            low = word.lower()
            if len(low) < 3 or low in COMMON or low in NOT_NAMES or not vocabulary.pronunciations(low, dictionary):
                return False
            if low.endswith(("ly", "ed", "ing")) and not word[0].isupper():
                return False
            proper = word[0].isupper() and word != first
            return low in rank or proper

        said = {w.lower(): w for w in words}
        topic = [
            said[part]
            for part in row["id"].lower().split("-")
            if part in said and len(part) >= 3 and part not in COMMON and vocabulary.pronunciations(part, dictionary)
        ]
        heads = _heads(row["text"])

        def kind(word: str, first: str = first, heads: set[str] = heads) -> int:
            return 0 if word[0].isupper() and word != first else 1 if word in heads else 2

        candidates = sorted(topic, key=lambda w: deck_count[w.lower()]) + sorted(
            (w for w in words if everyday(w) and w not in topic),
            key=lambda w: (kind(w), deck_count[w.lower()], rank.get(w.lower(), 5000)),
        )
        name = next((_full_name(row["text"], w) for w in candidates if w.lower() not in taken), "")
        if not name or name.lower() in taken:
            pairs = [f"{a} {b}" for a, b in zip(words, words[1:]) if everyday(a) and everyday(b)]
            pairs += [f"{a} {b}" for a in candidates[:3] for b in candidates[:3] if words.index(a) < words.index(b)]
            name = next((p for p in pairs if p.lower() not in taken), "")
        taken.add(name.lower())
        names.append(name)
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="fill the name column of decks/questions.csv")
    args = parser.parse_args()
    with DECK.open(newline="", encoding="utf-8") as file:
        reader = csv.DictReader(file)
        fields = list(reader.fieldnames or [])
        rows = list(reader)
    names = propose(rows)
    if not args.write:
        for row, name in zip(rows, names):
            print(f"{row['id']:32} the {name or '???'} one    | {row['text']}")
        return 0
    if "name" not in fields:
        fields.insert(2, "name")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row, name in zip(rows, names):
        writer.writerow({**row, "name": name})
    DECK.write_text(out.getvalue(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
