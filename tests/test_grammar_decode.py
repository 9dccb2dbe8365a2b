"""Decoding inside the prompt's grammar (voice/understanding/grammar_decode.py).

The search is checked here against a tiny fake decoder whose "audio" is a text: it
gives each next token of that text a high log-probability and every other token a
low one, so what the search makes of it can be read off. The real Whisper decoder
reads real speech in tests/test_grammar_reading.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from voice.understanding.grammar_decode import SaidValue, TokenGraph, decode
from voice.understanding.graph import IntentTag
from voice.understanding.matcher import Matcher

COFFEE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "coffee_maker.yaml"
TOKENS = [
    "<end>",
    ",",
    ".",
    "?",
    " Card",
    " card",
    " two",
    " Two",
    " 2",
    " with",
    " +",
    "20",
    " twenty",
    " plus",
    " fifty",
    " minus",
    "50",
    " um",
    " and",
    " spot",
    " on",
    " one",
    " 1",
    " three",
    " 3",
    " the",
    " first",
    " nine",
    " 9",
    " Can",
    " I",
    " get",
    " a",
    " large",
    " lat",
    "te",
    " with",
    " sk",
    "im",
    " skim",
    " milk",
    " whole",
    " ph",
    "one",
    " and",
    " sugar",
    " pass",
    " the",
    " chips",
]


class FakeVocabulary:
    def __init__(self) -> None:
        self._texts = list(dict.fromkeys(TOKENS))
        self._ids = {text: i for i, text in enumerate(self._texts)}
        self.end = 0
        self.punctuation = tuple(self._ids[p] for p in (",", ".", "?"))

    def token(self, text: str) -> int | None:
        return self._ids.get(text)

    def text(self, token: int) -> str:
        return "" if token == self.end else self._texts[token]

    def tokens(self, text: str) -> list[int]:
        """Greedy longest-first: how the fake "audio" is written."""
        out, rest = [], text
        while rest:
            piece = max((t for t in self._texts[1:] if rest.startswith(t)), key=len)
            out.append(self._ids[piece])
            rest = rest[len(piece) :]
        return out


@dataclass
class FakeCache:
    rows_: list[tuple[int, ...]]

    def rows(self, chosen: np.ndarray) -> FakeCache:
        return FakeCache([self.rows_[i] for i in chosen])


class FakeDecoder:
    """Each row's next token: the said text's next token at -0.05, the end after it,
    anything else at -9."""

    def __init__(self, vocabulary: FakeVocabulary, said: str):
        self.vocabulary, self.said = vocabulary, vocabulary.tokens(said) + [vocabulary.end]

    def step(self, tokens: np.ndarray, cache: FakeCache, cross: object) -> tuple[np.ndarray, FakeCache]:
        rows = [row + tuple(int(t) for t in tokens[i]) for i, row in enumerate(cache.rows_)]
        out = np.full((len(rows), len(self.vocabulary._texts)), -9.0)
        for i, row in enumerate(rows):
            written = row[1:]  # after the start token
            if list(written) == self.said[: len(written)] and len(written) < len(self.said):
                out[i, self.said[len(written)]] = -0.05
        return out, FakeCache(rows)


def decoded(prompt: str, said: str, live: dict | None = None, matcher: Matcher | None = None):
    matcher = matcher or Matcher()
    table = matcher.table(prompt, live or {})
    vocabulary = FakeVocabulary()
    paths = decode(FakeDecoder(vocabulary, said), None, FakeCache([()]), TokenGraph(table.graph, vocabulary), -1)
    return table, paths


def best_move(table, path):
    return [table.said(meaning, words) for meaning, words in path.readings]


def cards() -> dict:
    return {"card": [(str(n), n) for n in range(1, 4)]}


def test_the_decoder_writes_only_paths_of_the_grammar_and_reads_their_values():
    table, paths = decoded("zero-to-100/choose_card", " Card 2 with +20.", cards())
    assert paths[0].text == "Card 2 with +20."
    moves = best_move(table, paths[0])
    assert moves[0].intent == {"intent": "choose_card", "card": 2, "powers": ["+20"]}
    assert paths[0].regret == pytest.approx(0.0, abs=1e-6)  # it wrote what it heard


def test_fillers_and_punctuation_come_free_and_a_number_may_be_words():
    table, paths = decoded("zero-to-100/choose_card", " um card two, with plus twenty.", cards())
    assert paths[0].text == "um card two, with plus twenty."
    assert best_move(table, paths[0])[0].phrase == "card two with plus twenty"


def test_words_outside_the_grammar_are_never_written_and_cost_regret():
    table, paths = decoded("zero-to-100/choose_card", " pass the chips.", cards())
    for path in paths:
        assert all(m.intent is not None or m.unavailable for m in best_move(table, path))
    assert not paths or paths[0].regret > 8.0


def test_the_text_ends_only_where_a_path_ends():
    table, paths = decoded("zero-to-100/choose_card", " Card 2 with", cards())
    assert all(not p.text.endswith("with") for p in paths)


def test_a_clear_number_not_on_offer_is_decoded_as_said_so_it_can_be_answered():
    table, paths = decoded("zero-to-100/choose_card", " Card 9.", cards())
    move = best_move(table, paths[0])[0]
    assert move.intent is None and "no card nine" in move.unavailable.lower()


def test_one_text_read_two_ways_keeps_both_meanings():
    matcher = Matcher(common=False, grammar_file=COFFEE)
    table, paths = decoded("coffee_maker/order", " Can I get a large latte with skim milk.", matcher=matcher)
    meanings = {tuple(item for item in m if isinstance(item, SaidValue)) for m, _ in paths[0].readings}
    assert any(any(v.value == "skim milk" for v in values) for values in meanings)
    assert all(isinstance(m[0], IntentTag) for m, _ in paths[0].readings)
