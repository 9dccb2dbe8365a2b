"""When the host is unsure of a reply, or cannot use it: ask, narrow, and say why not.

An unsure reading is asked about ("Did you mean: card one?"); the rules' refusal is said
with its reason; a reply the host cannot use is a miss, and after the second miss at one
prompt the game's narrowed questions are asked instead of the open one again
(host/narrowing.py). What was refused and missed at the prompt is remembered until a
move is taken or the prompt changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .announcer import Announcer
from .awaiting import CONFIRM_AGAIN, Awaiting, timing
from .common_commands import CHANGES_THE_GAME, COMMON_INTENTS, CORRECT, CommonCommands
from .contract import Ending, Intent, Outcome, Prompt, Source, Understood, joined_prompt
from .engine import RuleError, cannot_take_back
from .log_events import Heard, NarrowedAsked, NarrowingBegun, Rejected
from .narrowing import MOVED_ON, YES_NO_PROMPT, Narrowing, Reply, Trouble, leads_to, likeliest_choice
from .play import Play
from .reply_policy import Act, Chosen, End, ListenAgain, Taken, Verdict, acts, verdict

CORRECTIONS = 3
"""How many times "Did you mean ...?" is asked about one reply (each answer may correct it)."""
SURE_TO_REVEAL = 0.9
"""A spoken move that cannot be taken back (it shows something hidden: a card's value, a
roll, a hand; or it ends the game: host.engine.cannot_take_back) is acted on unasked
only when read at least this surely (confidence: the recogniser's x the match's);
below, "Ben says lower: is that your answer?" first.
An ordinary move is acted on from the reader's own line, as undo can take it back.
Measured on the tuning voices (docs/recognition.md, "Before a reveal")."""
SORRY = "Sorry?"
CANNOT_TELL = "I'm sorry, I can't tell."
"""When the narrowed questions found no move; the other ways to answer follow, then TRY_AGAIN."""
NONE_OF_THOSE = "None of those, then."
"""Said instead of CANNOT_TELL when the last narrowed choice got a plain "no"."""
TRY_AGAIN = "Say it once more, a little slower."
"""Spoken play; typed play is told what it may type instead (a typed reply was not misheard)."""
UNDO_WAY = "If the last move was misheard, say undo to take it back."
"""Said after TRY_AGAIN in spoken play when the last move may be taken back: a player
stuck at a question may be there because the move before it was misread."""
UNSURE_COMMANDS_MAX = 3
"""Answers to one narrowed question read only unsurely as a command: at the last, the
answer is one the host could not use ("undo" read "one two" is no "repeat" each time)."""


class Clarifier:
    """Asks about what the host is unsure of, and narrows the question for a player it
    cannot understand. A move it settles on is handed back (Act, Chosen): the session takes it."""

    def __init__(
        self,
        play: Play,
        announcer: Announcer,
        awaiting: Awaiting,
        commands: CommonCommands,
        other_ways: Callable[[Prompt, Any], str] | None = None,
    ):
        self.play, self.announcer, self.awaiting, self.commands = play, announcer, awaiting, commands
        self.log = awaiting.log
        self.other_ways = other_ways or (lambda prompt, state: "")
        """How else the player asked can move now in this state, said when narrowing found
        no move ("You can also choose on your phone page."); "" when there is no other way."""
        self._trouble: Trouble | None = None
        """Replies the host could not use at the current prompt (host/narrowing.py)."""
        self._last_narrowed: Understood | None = None
        """The last answer to a narrowed question (what the host says if no move came of it)."""
        self._yes_words: dict[str, bool] = {}
        """Words already checked for reading as "yes" (_reads_as_yes)."""

    def forget(self) -> None:
        """A move was taken: what went wrong before it no longer counts."""
        self._trouble = None

    def refuse(self, prompt: Prompt, error: RuleError) -> None:
        """A move the rules refuse: their reason aloud, and the aside (which names the
        player's own secret cards) to that player only. The readings the player said no
        to here are forgotten: told why, they may now mean what they refused before
        ("card one" after "card one with plus twenty" was refused: plus 20 is used).
        A spoken move refused for a secret reason never comes here (secret_refusal)."""
        if self._trouble is not None and self._trouble.prompt == prompt:
            self._trouble.refused.clear()
        self.announcer.refuse(prompt, error)

    def secret_refusal(self, prompt: Prompt, intent: Intent) -> RuleError | None:
        """The rules' refusal of a spoken move whose reason would tell a secret aloud
        (RuleError.secret: "You don't hold the ace of clubs"), told now to the player
        asked alone, with its aside; None when the move is not so refused. The host cannot
        tell who spoke, so the session answers such a reply as one it could not read
        ("Sorry?", a miss): whoever said it to learn the hand hears nothing of it. Only
        for spoken replies: typed or pressed, the player is known (refuse)."""
        error = self.refusal(prompt, intent)
        if error is None or not error.secret:
            return None
        self.announcer.refuse_privately(prompt.player, error)
        return error

    def trouble_at(self, prompt: Prompt) -> Trouble:
        """What went wrong so far at this prompt (forgotten when the prompt changes)."""
        if self._trouble is None or self._trouble.prompt != prompt:
            self._trouble = Trouble(prompt)
        return self._trouble

    def narrow(self, prompt: Prompt) -> Chosen | Taken:
        """The prompt's narrowed questions (host/narrowing.py) instead of the open one again.
        A move found is handed back (Chosen); when none was found, the other ways to answer are
        offered and the host listens again, narrowing anew at the next misses."""
        trouble = self.trouble_at(prompt)
        self._last_narrowed = None
        self.log.write(NarrowingBegun(prompt.player, prompt.name, trouble.misses))
        likeliest = likeliest_choice(prompt, trouble.heard, self.awaiting.ears.reread)
        asking = Narrowing(prompt, trouble, lambda ask: self._ask_narrowed(prompt, ask), self._reads_as_yes)
        found = asking.run(likeliest)
        if isinstance(found, dict):
            return Chosen(found)
        if found is MOVED_ON:
            return None
        if found is not None:
            return End(found)
        trouble.misses = 0
        self.log.write(Rejected(prompt.player, "no choice taken"))
        self.announcer.say(self._no_choice_taken(prompt), remember=False)
        return ListenAgain()

    def _no_choice_taken(self, prompt: Prompt) -> str:
        """What the host says when narrowing found no move, by the last answer it had: a "no"
        is taken at its word, and typing is not asked to be slower."""
        last = self._last_narrowed
        opening = NONE_OF_THOSE if last is not None and (last.intent or {}).get("intent") == "no" else CANNOT_TELL
        typed = last is not None and last.source is Source.TYPED
        again = self.commands.options_sentence(prompt) if typed else TRY_AGAIN
        undo = UNDO_WAY if not typed and self._undoable() else ""
        return " ".join(part for part in (opening, self.other_ways(prompt, self.play.state), again, undo) if part)

    def _undoable(self) -> bool:
        """Whether "undo" would take back the last move now (not one that showed something
        hidden, unless the settings let the table agree to it)."""
        last = self.play.last_move()
        return last is not None and (not last.revealed or self.commands.undo_after_reveal)

    def _ask_narrowed(self, prompt: Prompt, ask: Prompt) -> Reply:
        """Say one narrowed question and understand its answer against `ask`. A common
        command is carried out and the question said again; one that changes the game
        (undo) ends the narrowing. A command heard unsurely is asked about first where it
        changes the game ("Did you mean: undo?"); the UNSURE_COMMANDS_MAX-th unsure one
        is an answer the host could not use, so a misheard answer cannot keep the question
        coming back. Each question is logged as a prompt of its own."""
        self.log.write(NarrowedAsked(prompt.player, ask.name, prompt.name, ask.text, list(ask.choices)))
        self.announcer.say(ask.text, remember=False)
        unsure = 0
        while True:
            heard = self.awaiting.hear(ask)
            if heard is None:
                return Reply(cut=Ending.EOF)
            if heard.outcome is Outcome.MISSED_START:
                self.awaiting.missed_start(ask, heard)
                continue
            if heard.outcome is Outcome.TIMED_OUT:
                return Reply()
            self._last_narrowed = heard
            reply = self._narrowed_reply(prompt, ask, heard)
            if reply.intent is None:
                reply = self._whole_move(prompt, heard) or reply
            intent = reply.intent or {}
            command = intent.get("intent")
            if command not in COMMON_INTENTS:
                return reply
            if not reply.sure:
                unsure += 1
                if unsure >= UNSURE_COMMANDS_MAX:
                    return Reply()  # an answer the host could not use, not a question said once more
                if command in CHANGES_THE_GAME and not self.awaiting.confirm(prompt, f"Did you mean: {reply.phrase}?"):
                    return Reply()
            if command == "never_mind" and reply.sure:  # back to the open question, its misses forgotten
                self.commands.carry_out(prompt, intent, heard)
                self.trouble_at(prompt).misses = 0
                return Reply(cut=MOVED_ON)
            if command != "repeat":
                ending = self.commands.carry_out(prompt, intent, heard)
                if ending is not None:
                    return Reply(cut=ending)
                if self.play.game.prompt(self.play.state) != prompt:
                    return Reply(cut=MOVED_ON)
            self.announcer.say(ask.text, remember=False)

    def _narrowed_reply(self, prompt: Prompt, ask: Prompt, heard: Understood) -> Reply:
        """The answer to a narrowed question, logged: a button on the player's page is sure."""
        if heard.outcome is Outcome.DECIDED:
            said = Heard(prompt.player, heard.text, source=heard.source.value, narrowed=ask.text)
        else:
            said = Heard(
                prompt.player,
                heard.text,
                unsure=bool(heard.evidence.rival),
                narrowed=ask.text,
                timing=timing(heard, ask),
            )
        self.log.write(said)
        return Reply(heard.intent, acts(heard), heard.phrase, guess=self._guess(ask, heard))

    def _guess(self, ask: Prompt, heard: Understood) -> int | None:
        """The choice an answer not understood surely names all the same (a choice read
        unsurely, or its words read against the question's choices): a hint, never acted
        on alone (host/narrowing.py)."""
        if acts(heard) or not heard.spoken or not heard.text:
            return None
        intent = heard.intent or self.awaiting.ears.reread(ask, heard.text).intent or {}
        index = intent.get("index") if intent.get("intent") == "choice" else None
        return index if isinstance(index, int) else None

    def said_no_to(self, prompt: Prompt, trouble: Trouble, intent: Intent) -> bool:
        """Whether the player already said no to this move here: a reading they refused,
        however worded ("between 20 and 50" after a no to "before 50"), but not one that
        adds to it what the rules take otherwise ("card one with plus twenty" after a no
        to "card one": they said no because the plus twenty was missing). A common command
        is never refused so: it is no reading of a move."""
        if intent["intent"] in COMMON_INTENTS:
            return False
        return any(self._same_result(prompt, intent, refused) for refused in trouble.named(intent))

    def _same_result(self, prompt: Prompt, one: Intent, other: Intent) -> bool:
        """The rules do the same with both moves now: the same new state and events, or
        the same refusal."""
        first, second = self.play.tried(one, prompt.player), self.play.tried(other, prompt.player)
        if isinstance(first, RuleError) and isinstance(second, RuleError):
            return first.reason == second.reason
        return first == second

    def _whole_move(self, prompt: Prompt, heard: Understood) -> Reply | None:
        """A narrowed question answered with a whole move, as a player does who says it all
        at once ("4 sharks" to "how many: 1 to 6?"), read as an answer to the open question.
        One the rules take is the answer when its words were read (not speech the ears
        could not read, Outcome.UNCLEAR), read surely as a move the narrowed questions lead
        to (host/narrowing.py, leads_to): words that fit none of them, or read unsurely,
        make no move (table talk would). One the rules refuse, as when no
        choice is what the player meant ("card one with plus twenty" to "which card: 1, 2
        or 3?" once plus 20 is used), gets the rules' reason, and the narrowing ends with
        the open question said again, as at first: nothing changes, so an unsure reading
        may be answered so; typed, a refused move is a miss as ever. None: neither."""
        if not heard.text:
            return None
        whole = self.awaiting.ears.reread(prompt, heard.text)
        intent = whole.intent
        if intent is None or intent["intent"] in COMMON_INTENTS or verdict(whole) is Verdict.ASK_AGAIN:
            return None
        refusal = self.refusal(prompt, intent)
        if refusal is None:
            read = heard.outcome is Outcome.REPLY and acts(whole)
            return Reply(intent, sure=True, phrase=whole.phrase) if read and leads_to(prompt.narrow, intent) else None
        if not heard.spoken:
            return None
        if refusal.secret:  # as words that fit no choice, the reason told privately
            self.announcer.refuse_privately(prompt.player, refusal)
            return None
        self.refuse(prompt, refusal)
        return Reply(cut=MOVED_ON)

    def not_understood(self, prompt: Prompt, heard: Understood) -> None:
        """A clear value that is not possible now is answered as such; anything else is "sorry?"."""
        if heard.unavailable:
            self.announcer.reject(prompt, "not available", heard.unavailable)
        else:
            self.announcer.reject(prompt, "not understood", self.sorry(prompt))

    def sorry(self, prompt: Prompt) -> str:
        return "Sorry, I didn't catch that. " + self.commands.options_sentence(prompt)

    def refusal(self, prompt: Prompt, intent: Intent) -> RuleError | None:
        """Why the rules refuse the move now, or None when they take it (tried on the
        state, which stays as it is)."""
        if intent["intent"] in COMMON_INTENTS:
            return None
        tried = self.play.tried(intent, prompt.player)
        return tried if isinstance(tried, RuleError) else None

    def _reads_as_yes(self, words: str) -> bool:
        """Whether `words` (a choice's label) would be heard as "yes": then no yes or no
        is asked where it is an answer ("right" in "lower, right or higher")."""
        if words not in self._yes_words:
            heard = self.awaiting.ears.reread(Prompt(YES_NO_PROMPT, None, "", choices=("yes", "no")), words)
            yes = heard.intent is not None and heard.intent.get("intent") == "yes"
            self._yes_words[words] = yes and acts(heard)  # read surely, not a near sound
        return self._yes_words[words]

    def yes_is_an_answer(self, prompt: Prompt) -> bool:
        """Whether some answer the prompt takes would be heard as "yes" (its narrowed
        choices and its examples)."""
        labels = [c.label for c in prompt.narrow.choices] if prompt.narrow is not None else []
        return any(self._reads_as_yes(words) for words in labels + list(prompt.choices))

    def needs_surer(self, prompt: Prompt, heard: Understood, intent: Intent | None) -> bool:
        """A spoken move read surely enough to act on, but not surely enough for a move
        that cannot be taken back (it shows something hidden or ends the game:
        SURE_TO_REVEAL), or one the player said no to at this prompt before, however
        surely read now ("3 and 3" after "Did you mean: 3 and 3?" "no", and a refused
        "three": the rules' refusal forgot the no, Clarifier.refuse): asked "is that
        your answer?" first. Not at a timed prompt (a Keep Cool turn cannot stop to ask)."""
        if not heard.spoken or not acts(heard) or intent is None or prompt.timeout is not None:
            return False
        if intent["intent"] in COMMON_INTENTS:
            return False
        sure = (heard.evidence.confidence or 0.0) >= SURE_TO_REVEAL
        if sure and not self.trouble_at(prompt).was_denied(intent):
            return False
        tried = self.play.tried(intent, prompt.player)
        return not isinstance(tried, RuleError) and cannot_take_back(tried[1])

    def did_you_mean(
        self, prompt: Prompt, phrase: str, intent: Intent, sure_only: bool = False
    ) -> Act | Chosen | Taken:
        """Ask before acting on an unsure reply (`sure_only`: a reply sure enough for a move
        that can be taken back, but not for this one: "Ben says lower: is that your
        answer?"). "yes" settles it, "no" refuses it (never acted on unasked at this
        prompt again), and a corrected answer to the prompt is taken (asked about in its
        turn if it is unsure itself; "no, I said higher" too); a common command still
        works (one that CHANGES_THE_GAME only when said surely). Returns the intent to
        act on (Act), None to ask the prompt again, or how the session ends (End: EOF, QUIT); when
        nothing was settled twice at this prompt, what the narrowed questions found
        (narrow)."""
        unclear_before = say_again = False
        question = your_answer(prompt, phrase) if sure_only else ""
        for _ in range(CORRECTIONS):
            heard = self._ask_did_you_mean(prompt, phrase, again=say_again, question=question)
            say_again, question = False, ""  # a corrected answer is asked about by its own words
            if heard is None:
                return End(Ending.EOF)
            if heard.outcome is Outcome.UNCLEAR and not unclear_before:
                unclear_before = say_again = True  # an answer heard but not read: "Sorry? Yes or no?", once
                continue
            if heard.outcome in (Outcome.TIMED_OUT, Outcome.MISSED_START, Outcome.UNCLEAR):
                break
            heard = self._as_corrected(prompt, heard)
            answer = heard.intent
            if answer is None:
                if heard.unavailable:
                    self.not_understood(prompt, heard)
                    return None
                break
            if answer["intent"] == "yes":
                return Act(intent)
            if answer["intent"] == "no":
                self.trouble_at(prompt).refuse(intent)
                break
            if answer["intent"] in COMMON_INTENTS:
                if answer["intent"] in CHANGES_THE_GAME and not acts(heard):
                    break  # "yes, that's wrong" is no undo
                ending = self.commands.carry_out(prompt, answer)
                if ending is not None:
                    return End(ending)
                continue
            if acts(heard) or answer == intent:
                return Act(answer)  # said surely, or said again as it was asked about
            if self.refusal(prompt, answer) is not None:
                break  # never asked about a move the rules refuse now
            phrase, intent = heard.phrase, answer
        return self._unsettled(prompt)

    def _as_corrected(self, prompt: Prompt, heard: Understood) -> Understood:
        """An answer to "Did you mean" that corrects the reply ("no, I said higher") as the
        reply it says, read against the prompt; any other answer as it was heard."""
        if heard.intent is not None and heard.intent["intent"] == CORRECT and heard.intent.get("said"):
            said = str(heard.intent["said"])
            return replace(self.awaiting.ears.reread(prompt, said), source=heard.source)
        return heard

    def _unsettled(self, prompt: Prompt) -> Chosen | Taken:
        """Nothing settled by asking: the narrowed questions once misses are due, else the prompt again."""
        if self.trouble_at(prompt).miss():
            return self.narrow(prompt)
        self.announcer.say("Okay, let's try again.")
        return None

    def _ask_did_you_mean(
        self, prompt: Prompt, phrase: str, again: bool = False, question: str = ""
    ) -> Understood | None:
        """Say "Did you mean: <phrase>?" (or `question`; `again`: "Sorry? Yes or no?", after
        an answer not read) and hear the answer: yes or no, or a corrected answer to the
        prompt (the question's prompt accepts both); logged when it was spoken."""
        question = question or f"Did you mean: {phrase}?"
        ask = Prompt(
            joined_prompt(YES_NO_PROMPT, prompt.name),
            prompt.player,
            question,
            prompt.context,
            prompt.slots,
            choices=("yes", "no"),
            confirming=True,
        )
        self.announcer.say(CONFIRM_AGAIN if again else question, remember=False)
        heard = self.awaiting.hear(ask)
        if heard is not None and heard.outcome not in (Outcome.TIMED_OUT, Outcome.MISSED_START):
            self.awaiting.log_answer(prompt, heard, phrase)
        return heard


def your_answer(prompt: Prompt, phrase: str) -> str:
    """The question before a move that cannot be taken back: "Ben says lower: is that your answer?"."""
    who = f"{prompt.player} says" if prompt.player else "I heard"
    return f"{who} {phrase}: is that your answer?"
