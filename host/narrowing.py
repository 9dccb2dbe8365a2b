"""Getting a move from a player the host cannot understand: narrow the question, never repeat it.

A reply the host could not use (not understood, a "no" to "Did you mean ...?", a
reading the player already refused) is a miss. After the second miss at one prompt
the host stops asking the open question and asks the game's Prompt.narrow instead,
one short question at a time, each decoded against its own few choices and the
commands only (never the whole first prompt, whose other readings caused the misses;
words that fit no choice are read against it too, only to answer a move the rules
refuse with their reason: host/clarifying.py, _whole_move):

1. a yes or no about the likeliest reading, when the misses point to one choice;
2. the choices that remain. Numbers and places are said as a span ("1 to 6", "0, 10,
   20 and so on up to 100", "first to seventh"); other words are listed, at most
   NARROW_LIST_MAX at a time, "something else" leading on to the rest;
3. if that answer is not understood either, other words: a number digit by digit,
   or a yes or no about each listed choice in turn (where a choice reads as yes or
   no, the list once more, for one word; two answers whose words name the same choice
   settle it, though neither was read surely);
4. a choice that needs more leads to the next part (the tens, then the number; the
   suit, then the rank; the card, then the power card).

A whole move said at any of these questions ("4 sharks" to "how many: 1 to 6?"), read
surely against the first prompt and one the questions lead to, is the answer
(host/clarifying.py, _whole_move). "Never mind" ends the narrowing: the host asks the
first question again, and the misses before it no longer count.

Built that way every move of every game is reached in at most three questions when
the answers are understood. A yes or no is never asked where a choice's own words
read as yes or no ("right" in Keep It 100's "lower, right or higher"): the choices
are asked instead. After UNUSED_MAX answers the host could not use, or when every
choice got a "no", the session says so, offers the other ways to answer (the phone
page) and listens again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from .contract import Choice, Ending, Intent, Narrow, Prompt, joined_prompt
from .engine import NARROW_LIST_MAX, ORDINALS, join_names

NARROW_AFTER = 2
"""Misses at one prompt before the host narrows its question."""
UNUSED_MAX = 2
"""Answers to narrowed questions the host could not use before it stops narrowing
and offers the other ways to answer."""
CHOICE_PROMPT = "common/choice"
YES_NO_PROMPT = "common/yes_no"
SOMETHING_ELSE = "something else"
SPAN_OTHERS_MAX = NARROW_LIST_MAX + 1
"""Words said beside a span in one question: a card's rank is "2 to 10, ace, jack,
queen, king or joker", one question rather than three."""
DIGITS = "Say it digit by digit, like 4 2."
"""The other words for a number whose span was not understood."""
ONE_WORD = "Just one word, please"
"""How the choices are asked again where no yes or no can be ("right" reads as yes)."""


@dataclass
class Trouble:
    """What went wrong so far at one prompt: how often, what was heard, what was refused."""

    prompt: Prompt
    misses: int = 0
    refused: list[Intent] = field(default_factory=list)
    """Readings the player said "no" to: never acted on unasked again at this prompt."""
    heard: list[str] = field(default_factory=list)
    """The texts of the missed replies, latest last (where the likeliest reading comes from)."""
    ruled_out: list[Intent] = field(default_factory=list)
    """Spoken moves the rules refused here: heard again, the same one is a miss as well."""
    denied: list[Intent] = field(default_factory=list)
    """Every reading the player said "no" to here, kept when a refusal of the rules forgets
    `refused`: a move that cannot be taken back is not acted on unasked after a no to it
    (host/clarifying.py needs_surer)."""

    def miss(self, text: str = "") -> bool:
        """Count one miss; True once the question should be narrowed."""
        self.misses += 1
        if text:
            self.heard.append(text)
        return self.misses >= NARROW_AFTER and self.prompt.narrow is not None

    def refuse(self, intent: Intent) -> None:
        self.refused.append(intent.copy())
        self.denied.append(intent.copy())

    def was_denied(self, intent: Intent) -> bool:
        """The player said no to this move here, however it was named, even if told since
        why another cannot be played."""
        return any(_names(intent, denied) for denied in self.denied)

    def was_refused(self, intent: Intent) -> bool:
        """The move was refused, however it was named ("before 50" is "between 20 and 50")."""
        return bool(self.named(intent))

    def named(self, intent: Intent) -> list[Intent]:
        """The refused readings `intent` names: it says at least all they said."""
        return [refused for refused in self.refused if _names(intent, refused)]


class MovedOn(Enum):
    """An answer to a narrowed question the session dealt with in full: a command that
    changed the game (undo), or a whole move the rules refused, with their reason said.
    The narrowing ends, with nothing more to do (its own type, never mistaken for an
    ending or a move)."""

    MOVED_ON = "moved on"


MOVED_ON: Final = MovedOn.MOVED_ON
Cut = Ending | MovedOn
"""What ends a narrowing before a move: the session's ending (Ending.EOF, Ending.QUIT),
or an answer dealt with already (MOVED_ON)."""


@dataclass(frozen=True)
class Reply:
    """An answer to a narrowed question, as the session understood it.

    intent: what was understood (None: nothing); sure: whether the host may act on it
    unasked; phrase: the words it matched; cut: what ends the narrowing here (None: go on);
    guess: the index of the choice the words heard name, where they were not understood
    surely enough to act on (a loud room's "higher", or "right lower one" read nearly as
    well as "lower"), else None.
    """

    intent: Intent | None = None
    sure: bool = False
    phrase: str = ""
    cut: Cut | None = None
    guess: int | None = None


Ask = Callable[[Prompt], Reply]
"""Say a question's text, listen, and understand the answer against the question's prompt."""


class _Stop(Exception):
    """Too many answers the host could not use: the narrowing ends without a move."""


class _Rest(Enum):
    """Not one of the choices just asked about: the part goes on to ask about the rest."""

    GO_ON = "go on"


_GO_ON: Final = _Rest.GO_ON
_Answer = Choice | Intent | Cut
"""What questions about some choices gave: one of them, a full move (a phone's button),
or what cut the narrowing short."""


class Narrowing:
    """The narrowed questions of one prompt, until a move, an ending, or no move found.

    `yes_no_word(label)`: whether a choice's words read as yes or no; where one does,
    no yes-or-no question is asked in its part.
    """

    def __init__(self, prompt: Prompt, trouble: Trouble, ask: Ask, yes_no_word: Callable[[str], bool] | None = None):
        self.prompt, self.trouble, self.ask = prompt, trouble, ask
        self.yes_no_word = yes_no_word or (lambda label: False)
        self.unused = 0

    def run(self, likeliest: int | None = None) -> Intent | Cut | None:
        """The move (an intent), what cut the narrowing short, or None when no move was
        found. `likeliest`: the index of the first part's choice the misses point to, if any."""
        part = self.prompt.narrow
        taken: Intent = {}
        try:
            while part is not None:
                step = self._part(part, taken, likeliest)
                if not isinstance(step, Choice):
                    return step  # nothing found, cut short, or a full move
                taken = taken | step.intent
                part, likeliest = step.then, None
        except _Stop:
            return None
        return taken

    # ---- one part: the likeliest, the span or the list, then other words ---------

    def _part(self, part: Narrow, taken: Intent, likeliest: int | None) -> _Answer | None:
        """One part of the move (`taken`: what earlier parts settled); None: nothing in
        it (every choice refused)."""
        left = [c for c in part.choices if c.then is not None or not self.trouble.was_refused({**taken, **c.intent})]
        plain = not any(self.yes_no_word(c.label) for c in part.choices)
        if plain and likeliest is not None and 0 <= likeliest < len(part.choices) and part.choices[likeliest] in left:
            first = part.choices[likeliest]
            answer = self._yes_no(first, part)
            if answer is not _GO_ON:
                return answer
            left.remove(first)
        if not left:
            return None
        if part.said:
            found = self._from_list(part, left, more=False, plain=plain, said=part.said)
            return None if found is _GO_ON else found
        if spoken_span([c.label for c in left]) is not None or len(left) <= NARROW_LIST_MAX:
            found = self._from_list(part, left, more=False, plain=plain)
            return None if found is _GO_ON else found
        while left:
            breath, left = left[: NARROW_LIST_MAX - 1], left[NARROW_LIST_MAX - 1 :]
            if len(left) == 1:  # the last one would be alone: read it with these
                breath, left = breath + left, []
            found = self._from_list(part, breath, more=bool(left), plain=plain)
            if found is not _GO_ON:
                return found
        return None

    def _from_list(
        self, part: Narrow, breath: list[Choice], more: bool, plain: bool, said: str = ""
    ) -> _Answer | _Rest:
        """Ask for one of `breath` (`said`: in those words); _GO_ON: none of these."""
        if len(breath) == 1 and not more and plain and not said:
            return self._yes_no(breath[0], part)
        labels = [c.label for c in breath]
        question = said or list_question(self.prompt.player, part.question, labels, more)
        reply = self._ask(CHOICE_PROMPT, question, breath, labels + ([SOMETHING_ELSE] if more else []))
        if reply.cut is not None:
            return reply.cut
        if (reply.intent or {}).get("intent") == "something_else" and more:
            return _GO_ON
        chosen = self._chosen(reply, breath)
        if chosen is not None:
            return chosen
        self._unused()
        return self._other_words(part, breath, plain, reply.guess)

    def _other_words(self, part: Narrow, breath: list[Choice], plain: bool, guess: int | None) -> _Answer | _Rest:
        """The same choices asked with other words after an answer not understood: a
        number digit by digit, else one yes or no at a time; where a choice reads as yes
        or no, the list once more, for one word (_one_word)."""
        numbers = _leaf_numbers(breath)
        if numbers is not None and any(n >= 10 for n, _ in numbers):
            choices = [Choice(" ".join(str(n)), move) for n, move in numbers]
            question = addressed(self.prompt.player, DIGITS)
            reply = self._ask(CHOICE_PROMPT, question, choices, [c.label for c in choices])
            if reply.cut is not None:
                return reply.cut
            chosen = self._chosen(reply, choices)
            if chosen is not None:
                return chosen.intent if isinstance(chosen, Choice) else chosen
            self._unused()
            return _GO_ON
        if part.said:
            raise _Stop  # no yes or no here: it would tell a secret
        if not plain:
            return self._one_word(breath, guess)
        if guess is not None and 0 <= guess < len(breath):  # the choice the words named, asked first
            breath = [breath[guess], *breath[:guess], *breath[guess + 1 :]]
        for choice in breath:
            answer = self._yes_no(choice, part)
            if answer is not _GO_ON:
                return answer
        return _GO_ON

    def _one_word(self, breath: list[Choice], guess: int | None) -> _Answer:
        """The list asked once more in other words, where a yes or no would be heard as an
        answer. A choice understood is taken; so is one the words of both answers name
        though neither was read surely (two readings that agree); else the host stops."""
        labels = [c.label for c in breath]
        question = f"{addressed(self.prompt.player, ONE_WORD)}: {join_names(labels, 'or')}."
        reply = self._ask(CHOICE_PROMPT, question, breath, labels)
        if reply.cut is not None:
            return reply.cut
        chosen = self._chosen(reply, breath)
        if chosen is not None:
            return chosen
        if guess is not None and reply.guess == guess and 0 <= guess < len(breath):
            return breath[guess]
        raise _Stop

    def _yes_no(self, choice: Choice, part: Narrow) -> _Answer | _Rest:
        """Ask about one choice; _GO_ON: not this one."""
        reply = self._ask(YES_NO_PROMPT, question_alone(choice), list(part.choices), [c.label for c in part.choices])
        if reply.cut is not None:
            return reply.cut
        kind = (reply.intent or {}).get("intent")
        if kind == "yes":
            return choice
        if kind == "no":
            return _GO_ON
        chosen = self._chosen(reply, list(part.choices))
        if chosen is not None:
            return chosen
        self._unused()
        return _GO_ON

    def _unused(self) -> None:
        self.unused += 1
        if self.unused >= UNUSED_MAX:
            raise _Stop

    def _chosen(self, reply: Reply, among: Sequence[Choice]) -> Choice | Intent | None:
        """The choice the reply names surely (one read nearly as well as another choice is
        only a guess: "right lower one"), a full move said surely (a phone's button), or None."""
        intent = reply.intent
        if intent is None:
            return None
        if intent.get("intent") == "choice":
            index = intent.get("index") if reply.sure else None
            return among[index] if isinstance(index, int) and 0 <= index < len(among) else None
        if intent.get("intent") in ("yes", "no", "something_else"):
            return None
        if reply.sure and not self.trouble.was_refused(intent):
            return intent.copy()
        return None

    def _ask(self, kind: str, text: str, choices: Sequence[Choice], labels: list[str]) -> Reply:
        """The question as a prompt of its own few answers (and the commands, which every
        prompt hears), asked once."""
        return self.ask(narrowed_prompt(self.prompt, kind, text, choices, labels))


def narrowed_prompt(prompt: Prompt, kind: str, text: str, choices: Sequence[Choice], labels: list[str]) -> Prompt:
    """A narrowed question of `prompt` as a prompt of its own: `kind` CHOICE_PROMPT (one
    of the choices) or YES_NO_PROMPT (a yes or no, or one of the choices), heard with
    the commands, which every prompt hears; `labels`: what may be said, for "what can I say"."""
    name = joined_prompt(kind, CHOICE_PROMPT) if kind != CHOICE_PROMPT else CHOICE_PROMPT
    slots = {"choice": [(c.label, i) for i, c in enumerate(choices)]}
    return Prompt(name, prompt.player, text, prompt.context, slots, choices=tuple(labels))


def question_alone(choice: Choice) -> str:
    """The yes-or-no question about one choice: its own, or its label asked ("Lower?")."""
    return choice.named or f"{choice.label[:1].upper()}{choice.label[1:]}?"


def addressed(player: str | None, question: str) -> str:
    """ "Which card?" to Ana -> "Ana, which card?" (unchanged when it names her already)."""
    if not player or question.startswith(player):
        return question
    return f"{player}, {question[:1].lower()}{question[1:]}"


def list_question(player: str | None, question: str, labels: list[str], more: bool = False) -> str:
    """ "Which card?" with one, two, three -> "Ana, which card: one, two or three?"; a run
    of numbers or places is said as a span: "Ana, which card: 1 to 6?"."""
    asked = addressed(player, question.rstrip("?").strip())
    said = spoken_span(labels) if not more else None
    return f"{asked}: {said or join_names(labels + ([SOMETHING_ELSE] if more else []), 'or')}?"


def spoken_span(labels: list[str]) -> str | None:
    """Labels that are a run of numbers or places, with at most SPAN_OTHERS_MAX others,
    said without listing them all: "1 to 6", "0, 10, 20 and so on up to 100", "first to
    fifth or none"; None when they are not (or are too few to be worth it)."""
    run = [label for label in labels if _rank(label) is not None]
    others = [label for label in labels if _rank(label) is None]
    ranks = [r for r in (_rank(label) for label in run) if r is not None]
    if len(run) <= 3 or len(others) > SPAN_OTHERS_MAX or ranks != sorted(ranks):
        return None
    step = ranks[1] - ranks[0]
    if step <= 0 or any(b - a != step for a, b in zip(ranks, ranks[1:])):
        return None
    span = f"{run[0]} to {run[-1]}" if step == 1 else f"{run[0]}, {run[1]}, {run[2]} and so on up to {run[-1]}"
    return join_names([span] + others, "or") if others else span


def _rank(label: str) -> int | None:
    """A label's place in a run: a number's value, a place's order ("third": 3)."""
    if label.isdigit():
        return int(label)
    return ORDINALS.index(label) + 1 if label in ORDINALS else None


def _leaf_numbers(choices: list[Choice]) -> list[tuple[int, Intent]] | None:
    """Every number reachable from `choices` with its full move (the tens lead to their
    numbers), or None when some choice is no number."""
    found: list[tuple[int, Intent]] = []

    def walk(options: Sequence[Choice], taken: Intent) -> bool:
        for choice in options:
            move = taken | choice.intent
            if choice.then is not None:
                if not walk(choice.then.choices, move):
                    return False
            elif choice.label.isdigit():
                found.append((int(choice.label), move))
            else:
                return False
        return True

    return found if walk(choices, {}) else None


def leads_to(narrow: Narrow | None, intent: Intent) -> bool:
    """Whether `intent` is a move the narrowed questions lead to, said whole at one of them
    ("4 sharks" to "how many: 1 to 6?"): it says all that some path of their choices says."""

    def walk(part: Narrow, taken: Intent) -> bool:
        for choice in part.choices:
            move = taken | choice.intent
            if walk(choice.then, move) if choice.then is not None else _names(intent, move):
                return True
        return False

    return narrow is not None and walk(narrow, {})


def likeliest_choice(prompt: Prompt, texts: list[str], understand: Callable[[Prompt, str], Any]) -> int | None:
    """Which choice of the first narrowed part the missed replies sound most like, if any:
    the latest text that reads as one of its labels, however unsure."""
    if prompt.narrow is None:
        return None
    choices = list(prompt.narrow.choices)
    ask = Prompt(CHOICE_PROMPT, prompt.player, "", slots={"choice": [(c.label, i) for i, c in enumerate(choices)]})
    for text in reversed(texts):
        intent = understand(ask, text).intent
        if intent and intent.get("intent") == "choice":
            return intent.get("index")
    return None


def _names(intent: Intent, refused: Intent) -> bool:
    """Whether `intent` says at least everything `refused` said (the same move, maybe more fully)."""
    return all(intent.get(key) == value for key, value in refused.items() if key != "player")
