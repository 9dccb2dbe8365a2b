"""Getting a move from a player the host cannot understand: narrow the question, never repeat it.

A reply the host could not use (not understood, a "no" to "Did you mean ...?", a
reading the player already refused) is a miss. After the second miss at one prompt
the host stops asking the open question and asks the game's Prompt.narrow instead,
one short question at a time, each said once:

1. a yes or no about the likeliest reading, when the misses point to one choice;
2. the choices that remain, read out: "Ana, which card: one, two or three?" (a long
   list NARROW_LIST_MAX at a time, "something else" leading on to the rest);
3. if that answer is not understood either, a yes or no about each choice in turn;
4. a choice that needs more leads to the next part (the card, then the power card).

A full answer to the first prompt counts at any step. When every choice got a "no"
the session offers the other ways to answer (the phone page) and listens again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .contract import PROMPT_UNION, Choice, Narrow, Prompt
from .engine import NARROW_LIST_MAX, join_names

NARROW_AFTER = 2
"""Misses at one prompt before the host narrows its question."""
CHOICE_PROMPT = "common/choice"
YES_NO_PROMPT = "common/yes_no"
SOMETHING_ELSE = "something else"


@dataclass
class Trouble:
    """What went wrong so far at one prompt: how often, what was heard, what was refused."""

    prompt: Prompt
    misses: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    """Readings the player said "no" to: never acted on unasked again at this prompt."""
    heard: list[str] = field(default_factory=list)
    """The texts of the missed replies, latest last (where the likeliest reading comes from)."""

    def miss(self, text: str = "") -> bool:
        """Count one miss; True once the question should be narrowed."""
        self.misses += 1
        if text:
            self.heard.append(text)
        return self.misses >= NARROW_AFTER and self.prompt.narrow is not None

    def refuse(self, intent: dict[str, Any]) -> None:
        self.refused.append(dict(intent))

    def was_refused(self, intent: dict[str, Any]) -> bool:
        """The move was refused, however it was named ("before 50" is "between 20 and 50")."""
        return any(_names(intent, refused) for refused in self.refused)


@dataclass(frozen=True)
class Reply:
    """An answer to a narrowed question, as the session understood it.

    outcome: how the session ends ("eof", "quit"), else "". intent: what was
    understood (None: nothing); sure: whether the host may act on it unasked;
    phrase: the words it matched, for a "Did you mean ...?".
    """

    intent: dict[str, Any] | None = None
    sure: bool = False
    phrase: str = ""
    outcome: str = ""


Ask = Callable[[Prompt], Reply]
"""Say a question's text, listen, and understand the answer against the question's prompt."""


class Narrowing:
    """The narrowed questions of one prompt, until a move, an ending, or every choice refused."""

    def __init__(self, prompt: Prompt, trouble: Trouble, ask: Ask):
        self.prompt, self.trouble, self.ask = prompt, trouble, ask

    def run(self, likeliest: int | None = None) -> dict[str, Any] | str | None:
        """The move (an intent), how the session ends ("eof", "quit"), or None when
        every choice got a "no". `likeliest`: the index of the first part's choice the
        misses point to, if any."""
        part = self.prompt.narrow
        taken: dict[str, Any] = {}
        while part is not None:
            step = self._part(part, taken, likeliest)
            if step is None or isinstance(step, str):
                return step
            if isinstance(step, dict):
                return step  # a full answer to the prompt
            taken = {**taken, **step.intent}
            part, likeliest = step.then, None
        return taken

    # ---- one part: the likeliest, the list, then one at a time ----------------

    def _part(self, part: Narrow, taken: dict[str, Any], likeliest: int | None) -> Choice | dict[str, Any] | str | None:
        """One part of the move (`taken`: what earlier parts settled): a choice, a full
        move, how the session ends, or None when no choice was taken."""
        left = [c for c in part.choices if c.then is not None or not self.trouble.was_refused({**taken, **c.intent})]
        if likeliest is not None and 0 <= likeliest < len(part.choices) and part.choices[likeliest] in left:
            first = part.choices[likeliest]
            answer = self._yes_no(first, part)
            if answer is not False:
                return answer
            left.remove(first)
        while left:
            breath, rest = left[:NARROW_LIST_MAX], left[NARROW_LIST_MAX:]
            if rest and len(breath) == NARROW_LIST_MAX:
                breath, rest = left[: NARROW_LIST_MAX - 1], left[NARROW_LIST_MAX - 1 :]
            found = self._from_list(part, breath, more=bool(rest))
            if found is not False:
                return found
            left = rest
        return None

    def _from_list(
        self, part: Narrow, breath: list[Choice], more: bool
    ) -> Choice | dict[str, Any] | str | None | Literal[False]:
        """Read `breath` out; False: none of these (go on to the rest)."""
        if len(breath) == 1 and not more:
            return self._yes_no(breath[0], part)
        labels = [c.label for c in breath] + ([SOMETHING_ELSE] if more else [])
        question = _list_question(self.prompt.player, part.question, labels)
        reply = self.ask(self._prompt(CHOICE_PROMPT, question, breath, labels))
        if reply.outcome:
            return reply.outcome
        kind = (reply.intent or {}).get("intent")
        if kind == "something_else" and more:
            return False
        chosen = self._chosen(reply, breath)
        if isinstance(chosen, dict):
            return chosen
        if chosen is not None:
            return chosen if reply.sure else self._yes_no(chosen, part, asked=[c for c in breath if c is not chosen])
        return self._one_at_a_time(part, breath)

    def _one_at_a_time(self, part: Narrow, breath: list[Choice]) -> Choice | dict[str, Any] | str | Literal[False]:
        for choice in breath:
            answer = self._yes_no(choice, part)
            if answer is not False:
                return answer
        return False

    def _yes_no(
        self, choice: Choice, part: Narrow, asked: list[Choice] | None = None
    ) -> Choice | dict[str, Any] | str | Literal[False]:
        """Ask about one choice; False: not this one. A "no" to a choice picked from a
        list goes on with the others of that list, one at a time (`asked`)."""
        question = question_alone(choice)
        reply = self.ask(self._prompt(YES_NO_PROMPT, question, list(part.choices), [c.label for c in part.choices]))
        if reply.outcome:
            return reply.outcome
        kind = (reply.intent or {}).get("intent")
        if kind == "yes":
            return choice
        chosen = self._chosen(reply, list(part.choices)) if kind != "no" else None
        if isinstance(chosen, dict) or (chosen is not None and reply.sure):
            return chosen
        return self._one_at_a_time(part, asked) if asked else False

    def _chosen(self, reply: Reply, among: list[Choice]) -> Choice | dict[str, Any] | None:
        """The choice the reply names, a full move of the prompt said surely, or None."""
        intent = reply.intent
        if intent is None:
            return None
        if intent.get("intent") == "choice":
            index = intent.get("index")
            labels = [c.label for c in among]
            return among[index] if isinstance(index, int) and 0 <= index < len(labels) else None
        if intent.get("intent") in ("yes", "no", "something_else"):
            return None
        if reply.sure and not self.trouble.was_refused(intent):
            return dict(intent)
        return None

    def _prompt(self, kind: str, text: str, choices: list[Choice], labels: list[str]) -> Prompt:
        """The question as a prompt: its own answers, or any answer to the first prompt."""
        names = [kind] + ([CHOICE_PROMPT] if kind != CHOICE_PROMPT else []) + [self.prompt.name]
        slots = {**self.prompt.slots, "choice": [(c.label, i) for i, c in enumerate(choices)]}
        return Prompt(
            PROMPT_UNION.join(names), self.prompt.player, text, self.prompt.context, slots, choices=tuple(labels)
        )


def question_alone(choice: Choice) -> str:
    """The yes-or-no question about one choice: its own, or its label asked ("Lower?")."""
    return choice.named or f"{choice.label[:1].upper()}{choice.label[1:]}?"


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


def _list_question(player: str | None, question: str, labels: list[str]) -> str:
    """ "Which card?" with one, two, three -> "Ana, which card: one, two or three?"."""
    asked = question.rstrip("?").strip()
    if player and not asked.startswith(player):
        asked = f"{player}, {asked[:1].lower()}{asked[1:]}"
    return f"{asked}: {join_names(labels, 'or')}?"


def _names(intent: dict[str, Any], refused: dict[str, Any]) -> bool:
    """Whether `intent` says at least everything `refused` said (the same move, maybe more fully)."""
    return all(intent.get(key) == value for key, value in refused.items() if key != "player")
