"""Heard words aligned to a word graph: the cheapest path, by a weighted edit distance.

A Viterbi search over (graph state, words heard so far). Taking an arc says its
word: the heard word it stands for costs what separates the two, by spelling or by
sound (rapidfuzz on letters, and on phone strings from the pronouncing dictionary),
whichever is closer; one graph word may also stand for two heard words ("and you"
for "undo"). A graph word not heard, or a heard word the path does not say, costs
its length. Optional words have their own way around, so dropping them is free;
slot words weigh more (voice/understanding/graph.py). Two different number words are never
taken for each other, but for -teen and -ty (TEEN_TY): a number is what was said.

Costs are in letters, as rapidfuzz's ratio counts them, so a path's score is the
familiar 0-100: 100 x (1 - cost / (letters heard + letters of the path)).
The search relaxes one level of graph states at a time across every column, so
the work is a few numpy operations per level, not per arc.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.process import cdist

from voice.understanding.graph import MIN_SOUND, WordGraph
from voice.understanding.normalize import NUMBER_WORDS
from voice.understanding.phonetic import sound_of

ANY_WORD_COST = 1.0
"""What a word costs standing in for a misheard command prefix ("post" for "host")."""
INF = 1e9
TEEN_TY = {
    f"{stem}teen": f"{tens}"
    for stem, tens in (
        ("thir", "thirty"),
        ("four", "forty"),
        ("fif", "fifty"),
        ("six", "sixty"),
        ("seven", "seventy"),
        ("eigh", "eighty"),
        ("nine", "ninety"),
    )
}
"""The one slip between number words a recogniser makes, by sound: "seventeen nine" is
no number, so it may be "seventy nine" (at a cost: asked about, not snapped silently)."""


@dataclass(frozen=True)
class Step:
    """One arc of the best path, and the heard words it took (start, end)."""

    arc: int
    heard: tuple[int, int]


@dataclass(frozen=True)
class Path:
    """A path through the graph, its cost and score."""

    steps: tuple[Step, ...]
    words: tuple[str, ...]
    cost: float
    score: float


class Alignment:
    """The search's table for one reading, from which paths are read back."""

    def __init__(self, graph: WordGraph, heard: list[str]):
        self.graph, self.heard = graph, heard
        n = len(heard)
        self.sub, self.sub2 = _substitution(graph, heard)
        lengths = np.array([len(h) + 1 for h in heard], float)
        self.insert = lengths
        self.heard_letters = float(lengths.sum())
        self.cum_insert = np.concatenate([[0.0], np.cumsum(lengths)])
        word_len = np.array([len(w) + 1 for w in graph.words], float)
        self.delete = np.where(graph.word >= 0, word_len[np.maximum(graph.word, 0)] * graph.weight, 0.0)
        self.delete = self.delete + graph.extra
        self.said, self.said2 = self._arc_costs(self.sub), self._arc_costs(self.sub2)
        self.cost = np.full((graph.n_states, n + 1), INF)
        self.cost[graph.start, 0] = 0.0
        self._search()

    def _arc_costs(self, table: np.ndarray) -> np.ndarray:
        """Per arc, what saying its word for each heard word (or pair) costs."""
        g = self.graph
        rows = table[np.maximum(g.word, 0)] * g.weight[:, None]
        if g.has_exact:
            rows[g.exact] = np.where(table[g.word[g.exact]] > 0, INF, 0.0)
        if g.has_any_word:
            rows[g.any_word] = np.minimum(rows[g.any_word], ANY_WORD_COST)
        return rows + g.extra[:, None]

    def _search(self) -> None:
        g, cost, n = self.graph, self.cost, len(self.heard)
        for states, eps, words in g.levels:
            rows = cost[states]
            # extra heard words, said before leaving these states
            cost[states] = self.cum_insert + np.minimum.accumulate(rows - self.cum_insert, axis=1)
            if len(eps):
                _relax(cost, g.dst[eps], cost[g.src[eps]] + g.extra[eps, None])
            if len(words):
                src, dst = g.src[words], g.dst[words]
                from_rows = cost[src]
                candidates = from_rows + self.delete[words, None]
                if n:
                    said = from_rows[:, :-1] + self.said[words]
                    candidates[:, 1:] = np.minimum(candidates[:, 1:], said)
                if n > 1:
                    said = from_rows[:, :-2] + self.said2[words]
                    candidates[:, 2:] = np.minimum(candidates[:, 2:], said)
                _relax(cost, dst, candidates)

    def best(self, finals: np.ndarray | None = None) -> Path | None:
        """The cheapest path ending at one of `finals` (default: any final state)."""
        finals = self.graph.finals if finals is None else finals
        if not len(finals):
            return None
        ends = self.cost[finals, len(self.heard)]
        pick = int(np.argmin(ends))
        if ends[pick] >= INF / 2:
            return None
        return self._trace(int(finals[pick]))

    def _trace(self, final: int) -> Path:
        g, cost = self.graph, self.cost
        state, j = final, len(self.heard)
        steps: list[Step] = []
        here = cost[state, j]
        close = 1e-9
        while not (state == g.start and j == 0):
            found = None
            if j > 0 and abs(cost[state, j - 1] + self.insert[j - 1] - here) < close:
                state, j, here = state, j - 1, cost[state, j - 1]
                continue
            for arc in g.incoming[state]:
                s = int(g.src[arc])
                if g.word[arc] < 0:
                    if abs(cost[s, j] + g.extra[arc] - here) < close:
                        found = (s, j, arc, (j, j))
                        break
                    continue
                if j > 0:
                    sub = self.said[arc, j - 1]
                    if abs(cost[s, j - 1] + sub - here) < close:
                        found = (s, j - 1, arc, (j - 1, j))
                        break
                if j > 1:
                    sub = self.said2[arc, j - 2]
                    if abs(cost[s, j - 2] + sub - here) < close:
                        found = (s, j - 2, arc, (j - 2, j))
                        break
                if abs(cost[s, j] + self.delete[arc] - here) < close:
                    found = (s, j, arc, (j, j))
                    break
            if found is None:  # rounding: take the cheapest way in
                raise RuntimeError("alignment trace lost its way")
            state, j, arc, span = found
            here = cost[state, j]
            steps.append(Step(arc, span))
        steps.reverse()
        words = tuple(g.words[g.word[s.arc]] for s in steps if g.word[s.arc] >= 0)
        total = float(cost[final, len(self.heard)])
        return Path(tuple(steps), words, total, self.score(total, words))

    @property
    def graph_word_index(self) -> dict[str, int]:
        return self.graph.word_index

    def score(self, cost: float, words: tuple[str, ...]) -> float:
        letters = max(0.0, self.heard_letters - 1) + max(0, sum(len(w) + 1 for w in words) - 1)
        return 100.0 if letters == 0 else float(min(100.0, max(0.0, 100.0 * (1 - cost / letters))))


def _relax(cost: np.ndarray, dst: np.ndarray, candidates: np.ndarray) -> None:
    """cost[dst[i]] = min(cost[dst[i]], candidates[i]) for every i, duplicates included
    (sorted and reduced in blocks: much faster than ufunc.at)."""
    if len(dst) == 1:
        cost[dst[0]] = np.minimum(cost[dst[0]], candidates[0])
        return
    order = np.argsort(dst, kind="stable")
    dst_sorted = dst[order]
    starts = np.flatnonzero(np.r_[True, dst_sorted[1:] != dst_sorted[:-1]])
    reduced = np.minimum.reduceat(candidates[order], starts, axis=0)
    targets = dst_sorted[starts]
    cost[targets] = np.minimum(cost[targets], reduced)


def _substitution(graph: WordGraph, heard: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Cost of each graph word standing for each heard word, and for each pair of
    adjacent heard words: letters apart by spelling or by sound, whichever is less."""
    words = graph.words
    if not heard or not words:
        return np.zeros((len(words), len(heard))), np.zeros((len(words), max(0, len(heard) - 1)))
    pairs = [heard[i] + heard[i + 1] for i in range(len(heard) - 1)]
    return (
        _cost(words, heard, [sound_of(h) for h in heard], graph),
        _cost(words, pairs, [_joined_sound(heard[i], heard[i + 1]) for i in range(len(pairs))], graph, extra=1.0)
        if pairs
        else np.zeros((len(words), 0)),
    )


def _cost(
    words: list[str], said: list[str], said_sounds: list[str | None], graph: WordGraph, extra: float = 0.0
) -> np.ndarray:
    spelled = cdist(words, said, scorer=fuzz.ratio, dtype=np.float64)
    said_codes = [s if s and len(s) >= MIN_SOUND else "" for s in said_sounds]
    if any(said_codes):
        by_sound = cdist(graph.sounds, said_codes, scorer=fuzz.ratio, dtype=np.float64)
        by_sound[graph.no_sound] = 0.0
        by_sound[:, [not s for s in said_codes]] = 0.0
        ratio = np.maximum(spelled, by_sound)
    else:
        ratio = spelled
    letters = graph.letters[:, None] + np.array([len(s) + extra for s in said])[None, :]
    cost = (1.0 - ratio / 100.0) * letters
    said_numbers = np.array([s in NUMBER_WORDS for s in said])
    if said_numbers.any():
        said_array = np.array(said, object)
        differ = graph.is_number[:, None] & said_numbers[None, :] & (graph.words_array[:, None] != said_array[None, :])
        slips = np.array([[TEEN_TY.get(w) == h or TEEN_TY.get(h) == w for h in said] for w in graph.words], bool)
        cost[differ & ~slips] = INF
    return cost


def _joined_sound(first: str, second: str) -> str | None:
    a, b = sound_of(first), sound_of(second)
    return None if a is None or b is None else a + b
