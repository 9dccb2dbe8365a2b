"""One reading of one utterance: the recogniser's n-best weighed by the matcher.

The bottom of the reading pipeline (voice/listening/pipeline.py is its front door): the
checks and the second listener build on a Reading, and nothing here imports them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

import numpy as np

from host.contract import Acts, Intent, Prompt, Source, loud_room  # where host and voice meet
from voice.audio_types import Hypothesis, Recognizer, Utterance
from voice.understanding.clues import clue_doubt
from voice.understanding.grammar_decode import DecodedPath
from voice.understanding.graph import WordGraph
from voice.understanding.matcher import Match, Matcher, PromptGraph, PromptTable
from voice.understanding.understand import understood

RIVAL_MARGIN = 0.1
"""A reading that beats the best reading naming something else by less than this (in
quality, confidence x match score / 100) is unsure: the host asks "Did you mean ...?"
before acting. Whisper's n-best often holds both "yes" and "pass" for one word;
tuned on Piper's voice, measured on held-apart voices and people (docs/lab/recognition.md)."""


ACT_POSTERIOR = 0.9
"""Decoded inside the grammar: a move at least this likely among the decoded paths is
acted on even where the free reading names another (see judge)."""
OVERRULE_MIN_WORDS = 2
"""A single word is read better by the matcher's sound-alike reading of the free text
than by a decoder held to the grammar's spellings ("and you" is "undo")."""
OVERRULE_SHORTER_BY = 2
"""The free reading heard more words than this beyond the decoded path's: the path
may have ended early."""
ADDRESSED_REGRET_PER_WORD = 5.0
"""A command after its prefix, decoded where the free reading found none ("post onto"
for "host, undo"), stands up to this regret per word: the prefix is a word Whisper
rarely writes alone ("host, undo" said clearly decoded at 3.3-3.8), while a clue
decoded into a command costs far more (13 for "post onto" said as such). So does a
claim naming a player (`by_sound`) where the free reading is no likely clue: "that's
Ben's" and "that's Dee's" said clearly decoded at 0 to 4.2, two-word clues and
misreadings decoded into a named claim at 7.2 or more. Chosen on the tuning voices
(docs/lab/recognition.md)."""
AGREE_POSTERIOR = 0.7
"""A move the free reading names too is acted on from this posterior."""
REGRET_PER_WORD = 1.5
"""Nats per word the grammar had to pull the decoder from its own choices: more, and
the reply was not a path of the grammar (table talk, another word); the decoded
reading has no say. Tuned on the tuning voices (docs/lab/recognition.md)."""


@runtime_checkable
class DecodesInGrammar(Protocol):
    """A recogniser that can also decode inside a prompt's word graph (Whisper,
    voice/understanding/grammar_decode.py); others give the free reading alone."""

    def decode_in_grammar(self, audio: np.ndarray, graph: WordGraph) -> list[DecodedPath]: ...


@dataclass(frozen=True)
class Reading:
    """What the ears made of one utterance."""

    text: str  # the chosen hypothesis ("" when rejected)
    confidence: float  # 0..1: recogniser confidence x match quality
    rejected: bool
    utterance: Utterance
    hypotheses: tuple[Hypothesis, ...]
    rival: str = ""  # a reading naming something else, nearly as good: ask before acting
    match: Match | None = None
    """The matcher's verdict on the chosen text (None: nothing matched): the host takes
    it as it is, so a reply is matched once (every check that changes the text matches
    the new text)."""
    closest: float = 0.0
    """The best match score any hypothesis reached (0-100): how near the prompt the speech was."""
    posterior: float | None = None
    """Decoded inside the grammar: how likely the move is among the paths (None: a free reading)."""
    agreed: bool | None = None
    """Decoded inside the grammar as well: whether that reading is sure, a path the audio
    fits, and does not contradict the free reading: the same intent, every value the free
    reading heard kept, more values allowed (fills_in: noise takes words away). None: not
    decoded. In a loud room only an agreed move is acted on unasked (host/reply_policy.py)."""
    heard_as: tuple[str, ...] = ()
    """Speech two ears read and did not agree on, or that Whisper was unsure of: what each
    ear wrote, and the word in play each names (voice/listening/second_opinion.py). It is
    not taken as read: the host asks again, or takes it unread, these words kept with it."""

    @property
    def unsure(self) -> bool:
        """Taken, but with a rival close behind: the host asks before acting on it."""
        return bool(self.rival) and not self.rejected


def read_utterance(
    recognizer: Recognizer,
    matcher: Matcher,
    prompt: Prompt,
    utterance: Utterance,
    min_confidence: float = 0.5,
    rival_margin: float = RIVAL_MARGIN,
    in_grammar: bool = True,
    *,
    acts: Acts,
) -> Reading:
    """read_table with the prompt's own table."""
    table = matcher.table(prompt.name, prompt.slots)
    return read_table(recognizer, table, utterance, min_confidence, rival_margin, in_grammar, acts=acts)


def read_table(
    recognizer: Recognizer,
    table: PromptTable,
    utterance: Utterance,
    min_confidence: float = 0.5,
    rival_margin: float = RIVAL_MARGIN,
    in_grammar: bool = True,
    *,
    acts: Acts,
) -> Reading:
    """The recogniser's n-best for the table's phrases, each matched once, then weighed
    by weigh(); where the recogniser can decode inside the table's grammar (and
    `in_grammar`), that decides (judge). A free reading settled alone is decoded too
    where the room was loud (Utterance.snr_db): there it is acted on only if the
    decoded reading agrees."""
    grammar = recognizer.compile(table.texts)  # backends cache by phrase set
    hypotheses = tuple(recognizer.recognize(utterance.audio, grammar))
    matches = [table.match(hypothesis.text) for hypothesis in hypotheses]
    free = weigh(hypotheses, matches, bool(table.exact), utterance, min_confidence, rival_margin)
    if not isinstance(recognizer, DecodesInGrammar) or not in_grammar:
        return free
    graph = table.decodable()
    if graph is None:
        addressed = table.addressed()
        if addressed is None or not _may_be_addressed(free):
            return free
        return addressed_command(recognizer.decode_in_grammar(utterance.audio, addressed.graph), addressed, free)
    if settled(free, acts) and not loose_command(free, graph) and not loud_room(utterance.snr_db):
        return free
    return judge(recognizer.decode_in_grammar(utterance.audio, graph.graph), graph, free)


def _may_be_addressed(free: Reading) -> bool:
    """The free reading is no phrase of the grammar: nothing read, or words taken only as
    the prompt's fallback (a clue), which a misheard "host, undo" ("post onto") becomes."""
    return free.rejected or free.match is None or free.match.intent is None or free.match.fallback


def addressed_command(paths: list[DecodedPath], table: PromptGraph, free: Reading) -> Reading:
    """At a prompt whose commands need their prefix ("host, undo" at a Keep Cool turn),
    the prefix and a command found by sound: decoded inside the prompt's whole grammar
    (its words in play and claims compete), it stands when the likeliest move is a
    command said after the prefix, or a move naming a live value that the grammar lets
    be found by sound (a claim, "that's Ben's" read "that spins") where the free reading
    is no likely clue (_by_sound), sure among the paths (ACT_POSTERIOR) and a path the
    audio fits (ADDRESSED_REGRET_PER_WORD). Otherwise the free reading stands as read."""
    decoded = _decoded(paths, table)
    if decoded is None or decoded.match.intent is None:
        return free
    if _after_prefix(decoded.match, table):
        posterior = decoded.posterior
    elif _by_sound(decoded.match, table, free):
        posterior = _posterior_filling_in(paths, table)
    else:
        return free
    if posterior < ACT_POSTERIOR or decoded.regret_per_word > ADDRESSED_REGRET_PER_WORD:
        return free
    note = Hypothesis(
        "",
        0.0,
        {
            "decoded": [p.text for p in paths[:3]],
            "posterior": round(posterior, 3),
            "regret_per_word": round(decoded.regret_per_word, 2),
        },
    )
    return Reading(
        decoded.match.phrase,
        posterior,
        False,
        free.utterance,
        free.hypotheses + (note,),
        "",
        decoded.match,
        free.closest,
        posterior,
    )


def _after_prefix(decoded: Match, table: PromptGraph) -> bool:
    """A common command said after the prompt's prefix ("host, undo")."""
    assert decoded.intent is not None
    prefix = f"{table.prefix} " if table.prefix else None
    return (
        prefix is not None and decoded.intent["intent"] in table.addressed_intents and decoded.phrase.startswith(prefix)
    )


def _by_sound(decoded: Match, table: PromptGraph, free: Reading) -> bool:
    """A move the grammar lets be found by sound (`by_sound`), naming a live value ("that's
    Ben's"; not "that's it", which "that is" decodes to), where the free reading is no
    likely clue: nothing read, or words the ears would ask "Again?" about
    (voice/understanding/clues.py). A clue read as one word stands."""
    assert decoded.intent is not None
    if decoded.intent["intent"] not in table.by_sound or len(decoded.intent) < 2:
        return False
    heard = None if free.rejected else free.match
    return (
        heard is None or heard.intent is None or (heard.fallback and bool(clue_doubt(heard.phrase, table.live_words())))
    )


def settled(free: Reading, acts: Acts) -> bool:
    """The free reading alone would be acted on (`acts`, the host's rule): a phrase of the
    grammar said as it is, with no rival close. Decoding it as well changed the outcome of
    1 in 500 such replies on the tuning sets (docs/lab/recognition.md), so the time is saved."""
    if free.rejected or free.match is None:
        return False
    return acts(understood(free.match, Source.VOICE, free.text, free.rival))


def loose_command(free: Reading, table: PromptGraph) -> bool:
    """The free reading names a common command (not one of the prompt's own moves) in
    words that are not the command's own ("and you" for "undo"): decoded as well, so the
    decoder may disagree (judge)."""
    match = free.match
    return match is not None and match.intent is not None and match.score < 100.0 and table.order_of(match) >= table.own


def judge(paths: list[DecodedPath], table: PromptGraph, free: Reading) -> Reading:
    """The free reading and the reading decoded inside the grammar, weighed together.

    The decoded reading is the likeliest move among the decoded paths, with its
    posterior among the moves they name and its regret per word (how hard the
    grammar had to pull the decoder: a reply outside the grammar costs much). It is
    trusted when its regret is low: where it names the move the free reading names,
    that move is acted on from AGREE_POSTERIOR, however unsure the free reading was
    alone (one differing word in a long order barely moves its averaged confidence);
    where it names another move, it is acted on from ACT_POSTERIOR (_may_overrule). Otherwise the free reading stands as
    weighed: on short replies the matcher's sound-alike reading of the free text
    ("and you" for "undo") hears what a decoder held to the grammar's words misses.
    Either way the reading says whether the two agreed (`agreed`: the decoded reading sure,
    fitting the audio and not contradicting the free one, fills_in), which the verdict
    asks for in a loud room."""
    decoded = _decoded(paths, table)
    free = replace(free, hypotheses=free.hypotheses + (_decoding_note(paths, decoded),), agreed=False)
    if decoded is None or decoded.regret_per_word > REGRET_PER_WORD:
        return free
    if _command_disputed(decoded, table, free):
        # A command read loosely from the free text, and the sound decodes as another
        # move: never acted on unasked (the reply is asked about, the decoded move its rival).
        return replace(free, rival=decoded.match.phrase or free.rival)
    heard = None if free.rejected else free.match
    same = (
        decoded.posterior >= AGREE_POSTERIOR
        and heard is not None
        and decoded.match.intent is not None
        and heard.intent == decoded.match.intent
    )
    agreed = decoded.posterior >= AGREE_POSTERIOR and fills_in(heard, decoded.match)
    if not same and not _may_overrule(decoded, table, free):
        return replace(free, agreed=agreed)
    return Reading(
        decoded.match.phrase,
        decoded.posterior,
        False,
        free.utterance,
        free.hypotheses,
        "",
        decoded.match,
        free.closest,
        decoded.posterior,
        agreed,
    )


def _decoding_note(paths: list[DecodedPath], decoded: _Decoded | None) -> Hypothesis:
    """What the decoder heard, for the reading's log: its best paths and their scores, and
    the decoded reading's posterior and regret per word where there is one."""
    return Hypothesis(
        "",
        0.0,
        {
            "decoded": [p.text for p in paths[:3]],
            "score": [round(p.score, 2) for p in paths[:3]],
            **(
                {"posterior": round(decoded.posterior, 3), "regret_per_word": round(decoded.regret_per_word, 2)}
                if decoded
                else {}
            ),
        },
    )


def decoded_says(recognizer: DecodesInGrammar, utterance: Utterance, table: PromptGraph, intent: Intent) -> bool:
    """Whether the utterance decoded inside the prompt's grammar, with no prompt, names this
    move surely (AGREE_POSTERIOR) on a path the audio fits (REGRET_PER_WORD): a witness
    the recogniser's prompt did not steer (voice/listening/steering.py)."""
    decoded = _decoded(recognizer.decode_in_grammar(utterance.audio, table.graph), table)
    return (
        decoded is not None
        and decoded.posterior >= AGREE_POSTERIOR
        and decoded.regret_per_word <= REGRET_PER_WORD
        and decoded.match.intent == intent
    )


def fills_in(heard: Match | None, decoded: Match) -> bool:
    """The decoded move does not contradict the free reading's: the same intent, and every
    slot value the free reading heard is in the decoded move with the same value (the
    decoded move may name more). Noise takes words away, it rarely puts different ones
    in: where the free reading lost a word ("a triple shot cappuccino" for "a triple shot
    light roast cappuccino"), a decoder that fills the gap agrees with it; one that
    changes a value the free reading heard does not. A free reading with no move
    (`heard` None, or refused) agrees with nothing."""
    if heard is None or heard.intent is None or decoded.intent is None:
        return False
    return all(decoded.intent.get(slot) == value for slot, value in heard.intent.items())


def _command_disputed(decoded: _Decoded, table: PromptGraph, free: Reading) -> bool:
    """The free reading is a loose command and the decoder, sure, names another move."""
    return (
        not free.rejected
        and loose_command(free, table)
        and decoded.posterior >= AGREE_POSTERIOR
        and free.match is not None
        and decoded.match.intent != free.match.intent
    )


def _may_overrule(decoded: _Decoded, table: PromptGraph, free: Reading) -> bool:
    """The decoded reading may stand against the free one: it is sure, a reply of
    several words (where averaged confidence fails), one of the prompt's own moves (a
    common command needs its own words heard: the decoder alone read a running tap as
    "I can't hear you"), and it explains about as many words as the free reading heard
    (a path that ends early has lost the order's tail, which the endpointer may also
    have cut)."""
    words = len(decoded.match.phrase.split())
    heard = next((len(h.text.split()) for h in free.hypotheses if h.text), 0)
    return (
        decoded.posterior >= ACT_POSTERIOR
        and words >= OVERRULE_MIN_WORDS
        and table.order_of(decoded.match) < table.own
        and heard <= words + OVERRULE_SHORTER_BY
    )


@dataclass(frozen=True)
class _Decoded:
    match: Match
    posterior: float
    regret_per_word: float


def _decoded(paths: list[DecodedPath], table: PromptGraph) -> _Decoded | None:
    """The likeliest move the decoded paths name, its posterior among them, and its regret per word."""
    ranked = _moves(paths, table)
    if not ranked:
        return None
    best_score, best, path = ranked[0]
    posterior = 1.0 / sum(math.exp(score - best_score) for score, _, _ in ranked)
    return _Decoded(best, posterior, path.regret / max(1, len(best.phrase.split())))


def _moves(paths: list[DecodedPath], table: PromptGraph) -> list[tuple[float, Match, DecodedPath]]:
    """Each move the decoded paths name with its best path and that path's score, best first."""
    moves: dict[str, tuple[float, Match, DecodedPath]] = {}  # the best path of each move
    for path in paths:
        # one text the graph reads two ways is read as the text matcher reads it: grammar order
        match = min((table.said(meaning, words) for meaning, words in path.readings), key=table.order_of)
        moves.setdefault(_move_key(match), (path.score, match, path))
    return sorted(moves.values(), key=lambda move: -move[0])


def _posterior_filling_in(paths: list[DecodedPath], table: PromptGraph) -> float:
    """The likeliest move's posterior with the moves it fills in counted as its own: "that's
    Ben's" is also the "got it" said before it (fills_in), not a rival of it."""
    ranked = _moves(paths, table)
    best_score, best = ranked[0][0], ranked[0][1]
    weights = [(math.exp(score - best_score), match) for score, match, _ in ranked]
    return sum(weight for weight, match in weights if fills_in(match, best)) / sum(weight for weight, _ in weights)


def _move_key(match: Match) -> str:
    return repr(sorted(match.intent.items())) if match.intent is not None else f"unavailable: {match.unavailable}"


def weigh(
    hypotheses: tuple[Hypothesis, ...],
    matches: Sequence[Match],
    exact: bool,
    utterance: Utterance,
    min_confidence: float = 0.5,
    rival_margin: float = RIVAL_MARGIN,
) -> Reading:
    """The best hypothesis by match score (`matches[i]` is hypothesis i's), weighed by
    the recogniser's confidence, with its rival when one naming something else comes
    within `rival_margin` (not at `exact` prompts: a Keep Cool turn cannot stop to ask,
    and its words are checked in voice/listening/wordcheck.py). Pure, so a benchmark weighs
    stored n-best lists exactly as the ears do."""
    readings: list[tuple[float, str, Match]] = []  # (quality, text, match), in n-best order
    for hypothesis, match in zip(hypotheses, matches):
        if match.intent is not None:
            readings.append((hypothesis.confidence * match.score / 100, hypothesis.text, match))
            rival_match = match.rival
            if match.unsure and rival_match is not None:  # the same words sit between two moves
                readings.append((hypothesis.confidence * rival_match.score / 100, rival_match.phrase, rival_match))
    closest = max((match.score for match in matches), default=0.0)
    if not readings:
        return Reading("", 0.0, True, utterance, hypotheses, closest=closest)
    best, text, chosen = max(readings, key=lambda r: r[0])
    rivals = [r for r in readings if r[2].intent != chosen.intent]
    rival = max(rivals, key=lambda r: r[0]) if rivals and not exact else None
    close = rival is not None and best >= min_confidence and best - rival[0] < rival_margin
    rival_text = rival[1] if close and rival is not None else ""  # a close rival is never None
    return Reading(
        text if best > 0 else "",
        best,
        best < min_confidence,
        utterance,
        hypotheses,
        rival_text,
        chosen,
        closest,
    )


CUT_SPEECH_PROB = 0.65
"""The neural VAD heard speech at least this likely in the silence that ended the reply,
or in the last moments of one cut at the length limit (Utterance.end_speech_prob): it
may have gone on. Set on the tuning half of the Picovoice recordings, where kitchen
noise alone often reaches 0.9, so it counts only with the grammar's sign
(docs/recognition.md)."""
FORCED = "the reply ran to the length limit where it could go on"
STILL_SPEAKING = "speech was still heard where the reply ended and could go on"


def cut_sign(reading: Reading, table: PromptTable) -> str:
    """Why the reading may be of a reply cut before its end ("" if nothing says so): a
    path of the grammar goes on past the reading's last word ("a coffee" may go on
    "with ..."), and the speech went on as far as the ears can tell: the end was forced,
    or the speech probability was still high at the end (CUT_SPEECH_PROB). Such a
    reading is asked about, not acted on (host/reply_policy.py): in kitchen noise the
    part heard of "a coffee with lots of almond milk" is a valid, wrong, order. On the
    tuning recordings either sign alone was mostly noise: replies run to the limit
    whole, and kitchen clatter sounds like speech to the model."""
    utterance, prob = reading.utterance, reading.utterance.end_speech_prob
    graph = table.decodable()
    if reading.match is None or prob is None or prob < CUT_SPEECH_PROB or graph is None:
        return ""
    if not goes_on(graph.graph, reading.match.phrase.split()):
        return ""
    return FORCED if utterance.forced else STILL_SPEAKING


def goes_on(graph: WordGraph, words: Sequence[str]) -> bool:
    """A path of the graph says these words from its start and has more words after them
    (False where the words are not a path's beginning)."""
    out: dict[int, list[int]] = {}
    for arc, src in enumerate(graph.src.tolist()):
        out.setdefault(src, []).append(arc)

    def closure(states: set[int]) -> set[int]:
        todo, seen = list(states), set(states)
        while todo:
            for arc in out.get(todo.pop(), []):
                dst = int(graph.dst[arc])
                if graph.word[arc] < 0 and dst not in seen:
                    seen.add(dst)
                    todo.append(dst)
        return seen

    states = closure({graph.start})
    for word in words:
        index = graph.word_index.get(word)
        states = closure({int(graph.dst[a]) for s in states for a in out.get(s, []) if graph.word[a] == index})
        if index is None or not states:
            return False
    return any(graph.word[a] >= 0 for s in states for a in out.get(s, []))
