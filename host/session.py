"""The session loop: ask, understand, apply, journal, narrate; and the common commands.

It knows games only through host.engine.Game and players only through two small
interfaces: Ears (something that hears a reply to a prompt and hands it over
understood, host.contract.Understood) and Mouth (something that speaks, plays cues
and tells a player a secret); it never matches words itself. Text, microphones, WAV files
and speakers all plug in there, so the loop is the same for typed and spoken play.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final, Protocol, cast

from .contract import PAUSED_PROMPT, Ending, Outcome, Prompt, Source, Understood, Verdict, joined_prompt
from .engine import (
    REDRAW,
    Action,
    Event,
    Game,
    GameOptions,
    RuleError,
    apply_move,
    crosses_reveal,
    join_names,
    private,
    redraw_seed,
    say,
)
from .eventlog import EventLog
from .journal import Journal
from .narrowing import MOVED_ON, YES_NO_PROMPT, Narrowing, Reply, Trouble, addressed, likeliest_choice

COMMON_INTENTS = {
    "repeat",
    "help",
    "what_can_i_say",
    "score",
    "whose_turn",
    "undo",
    "pause",
    "resume",
    "rules",
    "slower",
    "faster",
    "louder",
    "quieter",
    "quit",
    "read_table",
}
CHANGES_THE_GAME = frozenset({"undo", "pause", "quit"})
"""Common commands that change the game or end it: never done on a doubtful reading among a
narrowed question's few choices or in answer to "Did you mean ...?" ("no wait", an undo,
for the choice "no bet"). The others only say something, and the question is asked again."""
CORRECTIONS = 3
"""How many times "Did you mean ...?" is asked about one reply (each answer may correct it)."""
SORRY = "Sorry?"
YES = "Yes?"
"""The answer to the wake word said alone: the host is listening for what follows."""
AGAIN = "Again?"
"""The answer to a Keep Cool clue likely misheard: said inside the turn's clock."""
AGAIN_MIN_S = 1.0
AGAIN_MAX = 1
""""Again?" said at most this often a turn: a clue misheard once more is taken as a clue
whose words the host could not read (Prompt.unclear), so a player who keeps speaking
never loses the turn to the clock through the host's ears."""
"""A timed prompt asked again has at least this long left for the reply."""
MISSED_START = "Sorry, I missed the start of that. Please say it again."


class _Again(Enum):
    """What _take_reply gives when the host listens again for the same prompt (its own
    type, so it can never be mistaken for an ending or None)."""

    LISTEN = "listen again"


_LISTEN_AGAIN: Final = _Again.LISTEN
_Taken = Ending | _Again | None
"""A reply taken: how the session ends, listen again, or None (go on)."""
CANNOT_TELL = "I'm sorry, I can't tell."
"""When the narrowed questions found no move; the other ways to answer follow, then TRY_AGAIN."""
NONE_OF_THOSE = "None of those, then."
"""Said instead of CANNOT_TELL when the last narrowed choice got a plain "no"."""
TRY_AGAIN = "Say it once more, a little slower."
"""Spoken play; typed play is told what it may type instead (a typed reply was not misheard)."""
GENERAL_HELP = (
    "At any time you can say: repeat, what can I say, score, whose turn, read the table, "
    "undo, rules, pause, slower, faster, louder, quieter, or quit."
)
UNDO_REFUSED = "That can't be undone: it showed something that was hidden, and whoever moves again would now know it."
UNDO_ASK = "That move showed something that was hidden. Take it back anyway? Only if everyone agrees: yes or no?"
UNDO_STANDS = "Okay, it stands."
CONFIRM_AGAIN = "Sorry? Yes or no?"
CONFIRM_TRIES = 2
"""Tries at a yes-or-no question the host could not read before it counts as a no."""
UNDO_CONSENT = "That takes back "
"""How undo_consent_question begins (a simulated table answers it: lab/partyhost_lab/table_player.py)."""


def undo_consent_question(owner: str | None) -> str:
    """What the host asks before taking back a move the awaited player did not make: the
    move's player answers (the table, for a move the table made). It names no speaker:
    by voice the host knows only whose turn it is, not who spoke."""
    if owner is None:
        return f"{UNDO_CONSENT}the table's last move. Does everyone agree? Yes or no?"
    return f"{UNDO_CONSENT}{owner}'s last move. {owner}, do you agree? Yes or no?"


class Ears(Protocol):
    """Something that hears replies and understands them: the session never matches words."""

    def hear(self, prompt: Prompt) -> Understood | None:
        """The next reply to `prompt`, understood; None when the input has ended for good."""

    def reread(self, prompt: Prompt, text: str) -> Understood:
        """Words heard before, understood against another prompt (a narrowed question's
        choices: which one the missed replies sound like)."""


class Mouth(Protocol):
    def say(self, text: str) -> None: ...
    def sound(self, name: str) -> None: ...
    def private(self, player: str, text: str) -> None: ...
    def adjust(self, change: str) -> str:
        """Apply "slower" | "faster" | "louder" | "quieter"; return what to say about it."""


@dataclass
class SessionInfo:
    """What identifies a journaled session and its question-memory group."""

    id: str
    group: str


class Session:
    """One game being played: state rebuilt from the journal, then the live loop."""

    def __init__(
        self,
        game: Game[Any],
        options: GameOptions,
        decks: Any,
        journal: Journal,
        info: SessionInfo,
        log: EventLog,
        ears: Ears,
        mouth: Mouth,
        clock: Callable[[], float],
        *,
        remind_after: float | None = None,
        undo_after_reveal: bool = False,
        watchers: Iterable[Callable[[Any], None]] = (),
        other_ways: Callable[[Prompt, Any], str] | None = None,
    ):
        self.game, self.options, self.decks = game, options, decks
        self.journal, self.info, self.log = journal, info, log
        self.ears, self.mouth, self.clock = ears, mouth, clock
        self.info_intents: set[str] = set(game.info_intents)
        self.last_spoken: list[str] = []
        self.state: Any = None
        self.actions: list[Action] = []
        self.watchers: list[Callable[[Any], None]] = list(watchers)
        """Called with the new state whenever it changes (the phone pages follow it)."""
        self.remind_after = remind_after
        """Seconds of no reply to an untimed prompt before a brief reminder (then doubling);
        None: never (typed play)."""
        self._reminders: tuple[Prompt, float, float] | None = None
        """The question being waited for, the wait before its next reminder, and when."""
        self.undo_after_reveal = undo_after_reveal
        """Whether "undo" may take back a move that showed something hidden, once the table
        agrees (settings.undo_after_reveal); off: refused with the reason (docs/rules.md)."""
        self._trouble: Trouble | None = None
        """Replies the host could not use at the current prompt (host/narrowing.py)."""
        self._last_narrowed: Understood | None = None
        """The last answer to a narrowed question (what the host says if no move came of it)."""
        self._yes_words: dict[str, bool] = {}
        """Words already checked for reading as "yes" (_reads_as_yes)."""
        self.other_ways = other_ways or (lambda prompt, state: "")
        """How else the player asked can move now in this state, said when narrowing found
        no move ("You can also choose on your phone page."); "" when there is no other way."""

    # ---- starting -------------------------------------------------------

    def start(self) -> None:
        """A new game: log its start and narrate the deal."""
        state, events = self.game.setup(self.options, self.decks)
        self.state = state
        self._changed()
        self.log.write(
            {
                "type": "game_start",
                "game": self.game.id,
                "mode": self.options.mode,
                "deal": self.options.deal,
                "players": list(self.options.players),
                "teams": [list(t) for t in self.options.teams] or None,
                "seed": self.options.seed,
                "session": self.info.id,
            }
        )
        self._narrate(events)

    def restore(self, actions: list[Action]) -> None:
        """A resumed game: replay the journal silently, then say where we are.

        When the last move journaled ended the game, the crash came between saving it and
        saying it (or while it was said): its ending is said now, winner and scores, as it
        would have been, rather than scores alone (the secrets it dealt are not repeated)."""
        self.actions = list(actions)
        self.state = self._replay(self.actions[:-1])
        last: list[Event] = []
        if self.actions:
            self.state, last = apply_move(self.game, self.state, self.actions[-1])  # a redraw too
        self._changed()
        self.log.write({"type": "resumed", "session": self.info.id, "actions": len(actions)})
        if self.actions and self.game.prompt(self.state) is None:
            self._say(f"Welcome back to {self.game.title}. The game is over: the last move saved ended it.")
            self._narrate([event for event in last if event["type"] != "private"])
            self._say(self.game.scores(self.state))
            return
        self._say(f"Welcome back to {self.game.title}. We were in the middle of the game.")
        self._say(self.game.scores(self.state))
        remind = self.game.resumed
        if remind is not None:
            self._narrate(remind(self.state))

    def _changed(self) -> None:
        for watch in self.watchers:
            watch(self.state)

    def _replay(self, actions: list[Action]) -> Any:
        state, _ = self.game.setup(self.options, self.decks)
        for action in actions:
            state, _ = apply_move(self.game, state, action)
        return state

    # ---- the loop -------------------------------------------------------

    def run(self) -> Ending:
        """Play until the game ends (OVER), the players quit (QUIT) or the input ends (EOF)."""
        while True:
            prompt = self.game.prompt(self.state)
            if prompt is None:
                self.journal.set_status(self.info.id, "over")
                return Ending.OVER
            self.log.write({"type": "prompt", "player": prompt.player, "prompt": prompt.name})
            if prompt.player:
                self.log.write({"type": "sound", "name": "your_turn"})  # the turn change, timed
                self.mouth.sound("your_turn")
            if prompt.text:  # Keep Cool's turns are a cue alone
                self._say(prompt.text, remember=False)
            ending = self._one_reply(prompt)
            if ending is not None:
                return ending

    def _one_reply(self, prompt: Prompt) -> Ending | None:
        """One reply taken; after a missed start or a "Sorry?" the host listens again
        without re-reading the prompt, as often as it takes (a loop, so a long run of
        unclear replies never deepens the stack)."""
        while True:
            taken = self._take_reply(prompt)
            if taken is not _LISTEN_AGAIN:
                return taken

    def _take_reply(self, prompt: Prompt) -> _Taken:
        heard = self._hear_addressed(prompt)
        if heard is None:
            return Ending.EOF
        for name, at in heard.cues:  # played live by the ears (the last seconds' ticks)
            self.log.write({"type": "sound", "name": name, "at": round(at, 3), "live": True})
        if heard.outcome is Outcome.TIMED_OUT:
            self.log.write(
                {"type": "heard", "player": prompt.player, "text": "", "timeout": True, **_timing(heard, prompt)}
            )
            self._accept(prompt, {"intent": "timeout"})
            return None
        if heard.outcome is Outcome.MISSED_START:
            self._missed_start(prompt, heard)
            return _LISTEN_AGAIN  # asked again by saying so; the prompt is not re-read
        if heard.outcome is Outcome.DECIDED and heard.intent is not None:
            # Decided where it was made (a phone's button, a command after an address): no "did you mean?".
            self.log.write({"type": "heard", "player": prompt.player, "text": heard.text, "source": heard.source.value})
            return self._act(prompt, dict(heard.intent), heard.seat)
        if heard.outcome is Outcome.UNCLEAR and prompt.unclear is not None:
            # Speech the host could not read, where any speech is a move (a Keep Cool clue).
            self.log.write(
                {
                    "type": "heard",
                    "player": prompt.player,
                    "text": "",
                    "unclear": True,
                    "confidence": round(heard.confidence or 0.0, 3),
                    **({"reason": heard.reason} if heard.reason else {}),  # e.g. misheard again
                    **_timing(heard, prompt),
                }
            )
            self._accept(prompt, dict(prompt.unclear))
            return None
        return self._take_understood(prompt, heard)

    def _take_understood(self, prompt: Prompt, heard: Understood) -> _Taken:
        """A reply with its verdict: acted on, asked about first, or asked again (narrowed
        after the second miss at this prompt, or "Sorry?" when it was spoken)."""
        confidence = heard.confidence if heard.confidence is not None else heard.score / 100
        self.log.write(
            {
                "type": "heard",
                "player": prompt.player,
                "text": heard.text,
                "confidence": round(confidence, 3),
                **({"unsure": True} if heard.rival else {}),
                **({"reason": heard.reason} if heard.reason else {}),  # why a reading was a miss
                **_timing(heard, prompt),
            }
        )
        intent, verdict = heard.intent, heard.verdict
        trouble = self._trouble_at(prompt)
        # A spoken reading the player already said "no" to is a miss: never acted on, and
        # never the same "Did you mean" again (not even after narrowing found nothing).
        # Typed or pressed, the move is the player's own choice and is taken.
        refused = (
            heard.spoken
            and intent is not None
            and intent["intent"] not in COMMON_INTENTS
            and self._said_no_to(prompt, trouble, intent)
        )
        if intent is None or verdict is Verdict.ASK_AGAIN or refused:
            # Words read from speech that was no reliable reply do not point narrowing anywhere.
            if trouble.miss(heard.text if heard.outcome is not Outcome.UNCLEAR else ""):
                return self._narrow(prompt)
            if heard.spoken and not heard.unavailable:
                self._reject(prompt, "not understood", SORRY)  # spoken, and plausibly a reply
                return _LISTEN_AGAIN  # the prompt is not re-read
            self._not_understood(prompt, heard)
            return None
        refusal = self._refusal(prompt, intent) if verdict is Verdict.ASK_FIRST else None
        if refusal is not None:
            # An unsure reading the rules refuse now (a card not held) is never asked
            # about: a "Did you mean" would name it. It is a miss. Spoken, the player
            # hears the rules' reason and the question, as for a sure one, instead of
            # "Sorry?": nothing changes either way, and a player who said it learns why,
            # one who did not hears what was heard.
            if trouble.miss(heard.text):
                return self._narrow(prompt)
            if heard.spoken:
                self._refuse(prompt, refusal)
            else:
                self._reject(prompt, "not understood", self._sorry(prompt))
            return None
        if verdict is Verdict.ASK_FIRST and self._yes_is_an_answer(prompt):
            # "Right" would be both a yes and a guess: ask with the choices themselves.
            trouble.heard.append(heard.text)
            return self._narrow(prompt)
        if verdict is Verdict.ASK_FIRST:
            settled = self._did_you_mean(prompt, heard.phrase, intent)
            if not isinstance(settled, dict):
                return settled
            intent = settled
        refusal = self._refusal(prompt, intent) if heard.spoken else None
        if refusal is not None and intent in trouble.ruled_out:
            # The same spoken move refused again ("take the number two card", six times, for
            # "take the draw two card"): likely misheard, so a miss as well. The reason
            # first, then the narrowed questions once due, which offer what is possible.
            self._refuse(prompt, refusal)
            return self._narrow(prompt) if trouble.miss(heard.text) else None
        if refusal is not None:
            trouble.ruled_out.append(dict(intent))
        return self._act(prompt, intent)

    def _act(self, prompt: Prompt, intent: dict[str, Any], seat: str = "") -> Ending | None:
        """A common command is carried out; a move goes to the rules."""
        if intent["intent"] in COMMON_INTENTS:
            return self._common(prompt, intent["intent"])
        self._accept(prompt, intent, seat)
        return None

    def _hear_addressed(self, prompt: Prompt, remind: bool = True) -> Understood | None:
        """The next reply meant for the host. Speech the ears found not said to it is
        logged with the reason and not answered; after `remind_after` seconds with no
        reply to an untimed prompt, a brief reminder, then at doubling intervals (unless
        `remind` is off: a paused table is not reminded)."""
        wait = self.remind_after if prompt.timeout is None and remind else None
        schedule = (wait, self.clock() + wait) if wait else None  # (wait, when the reminder is due)
        if schedule and self._reminders is not None and self._reminders[0] == prompt:
            schedule = self._reminders[1:]  # the same question again: its schedule goes on
        runs_until: float | None = None  # a timed prompt's clock, running on while the host answers
        graced = False  # the second after "Again?" past the clock's end is given once
        again = 0  # "Again?" said at this prompt
        while True:
            self._reminders = (prompt, *schedule) if schedule else None
            asked = prompt if schedule is None else replace(prompt, timeout=max(0.5, schedule[1] - self.clock()))
            if runs_until is not None:
                left = runs_until - self.clock()
                if left < AGAIN_MIN_S and graced:
                    assert prompt.timeout is not None, "runs_until is only set for a timed prompt"
                    return Understood(Outcome.TIMED_OUT, Source.VOICE, listening_from=runs_until - prompt.timeout)
                graced = left < AGAIN_MIN_S
                asked = replace(prompt, timeout=max(AGAIN_MIN_S, left))
            heard = self.ears.hear(asked)
            if heard is not None and schedule is not None and heard.outcome is Outcome.TIMED_OUT:
                self._remind(prompt)
                wait = schedule[0] * 2
                schedule = (wait, self.clock() + wait)
                continue
            if heard is not None and heard.outcome is Outcome.MISHEARD and again >= AGAIN_MAX and prompt.unclear:
                return replace(heard, outcome=Outcome.UNCLEAR)  # a clue all the same
            if heard is not None and heard.outcome in (Outcome.WOKEN, Outcome.MISHEARD):
                again += heard.outcome is Outcome.MISHEARD
                self._answer_at_once(prompt, heard)
                if prompt.timeout is not None and heard.listening_from is not None and runs_until is None:
                    runs_until = heard.listening_from + prompt.timeout
                continue
            if heard is None or heard.outcome is not Outcome.IGNORED:
                if heard is not None and heard.outcome is not Outcome.MISSED_START:
                    self._reminders = None  # a reply, even a refused one, starts the wait anew
                return heard
            self.log.write(
                {
                    "type": "ignored",
                    "player": prompt.player,
                    "reason": heard.reason,
                    "text": heard.text,
                    **_timing(heard, prompt),
                }
            )

    def _answer_at_once(self, prompt: Prompt, heard: Understood) -> None:
        """The wake word said alone gets "Yes?", a Keep Cool clue likely misheard "Again?":
        short, so a timed turn keeps most of its clock, and never silence."""
        woken = heard.outcome is Outcome.WOKEN
        self.log.write(
            {
                "type": "woken" if woken else "misheard",
                "player": prompt.player,
                "text": heard.text,
                **({"reason": heard.reason} if heard.reason else {}),
                **_timing(heard, prompt),
            }
        )
        self._say(YES if woken else AGAIN, remember=False)

    def _remind(self, prompt: Prompt) -> None:
        """Name and question, not the whole prompt (which may read out a hand)."""
        question = addressed(prompt.player, _question(prompt.text))
        self.log.write({"type": "reminder", "player": prompt.player})
        self._say(question, remember=False)

    def _missed_start(self, prompt: Prompt, heard: Understood) -> None:
        """Speech whose beginning the ears lost (said over the host, or cut): never a move.
        The host says so, which asks for it again."""
        self.log.write(
            {
                "type": "ignored",
                "player": prompt.player,
                "reason": "missed start",
                "detail": heard.reason,
                **_timing(heard, prompt),
            }
        )
        self._say(MISSED_START, remember=False)

    def _accept(self, prompt: Prompt, intent: dict[str, Any], seat: str = "") -> None:
        """A move by the player asked, or, where anyone of several may answer (player
        None), by the seat of the phone page it came from."""
        # The ears build intents from the grammar as plain dicts; their keys are Intent's.
        action = cast(Action, {**intent, "player": prompt.player or seat or None})
        try:
            new_state, events = self.game.apply(self.state, action)
        except RuleError as error:
            self._refuse(prompt, error)
            return
        if intent["intent"] not in self.info_intents:
            # Journal first: once it is on disk, a crash while speaking loses nothing.
            self.journal.append(self.info.id, "action", action, self.clock())
            self.actions.append(action)
            self.state = new_state
            self._trouble = None
            self._changed()
        self.log.write({"type": "intent", "player": prompt.player, "intent": intent})
        self.last_spoken = []
        self._narrate(events)

    def _reject(self, prompt: Prompt, reason: str, spoken: str) -> None:
        self.log.write({"type": "rejected", "player": prompt.player, "reason": reason})
        self.mouth.sound("wrong")
        self._say(spoken, remember=False)

    def _refuse(self, prompt: Prompt, error: RuleError) -> None:
        """A move the rules refuse: their reason aloud, and the aside (which names the
        player's own secret cards) to that player only. The readings the player said no
        to here are forgotten: told why, they may now mean what they refused before
        ("card one" after "card one with plus twenty" was refused: plus 20 is used)."""
        if self._trouble is not None and self._trouble.prompt == prompt:
            self._trouble.refused.clear()
        self._reject(prompt, error.reason, error.reason)
        if error.aside and prompt.player:
            self._narrate([private(prompt.player, error.aside)])

    def _narrate(self, events: list[Event]) -> None:
        for event in events:  # tested on event["type"] itself, which narrows the union
            if event["type"] == "say":
                self._say(event["text"], read_out=event.get("read_out", False))
            elif event["type"] == "sound":
                self.log.write(event)
                self.mouth.sound(event["name"])
            elif event["type"] == "private":
                self.log.write(event)
                self.mouth.private(event["player"], event["text"])
            elif event["type"] == "questions_used":
                self.journal.mark_questions_used(self.info.group, list(event["ids"]))
                self.log.write(event)
            elif event["type"] == "game_over":
                self.journal.set_result(self.info.id, event["scores"])
                self.log.write(event)
            else:
                self.log.write(event)

    def _say(self, text: str, remember: bool = True, read_out: bool = False) -> None:
        self.log.write(say(text, read_out))
        self.mouth.say(text)
        if remember:
            self.last_spoken.append(text)

    # ---- common commands ------------------------------------------------

    def _common(self, prompt: Prompt, name: str) -> Ending | None:
        if name == "repeat":
            for text in self.last_spoken[-4:]:
                self._say(text, remember=False)
        elif name in ("help", "what_can_i_say"):
            self._say(self._options_sentence(prompt), remember=False)
            if name == "help":
                self._say(self.game.help.get(prompt.name, GENERAL_HELP), remember=False)
        elif name == "score":
            self._say(self.game.scores(self.state), remember=False)
        elif name == "read_table":
            table = self.game.table_text or self.game.scores
            self._say(table(self.state), remember=False)
        elif name == "whose_turn":
            who = prompt.player or "anyone"
            self._say(f"It's {who}'s turn." if prompt.player else "Anyone may answer now.", remember=False)
        elif name == "rules":
            self._say(self.game.rules_summary, remember=False)
        elif name in ("slower", "faster", "louder", "quieter"):
            self._say(self.mouth.adjust(name), remember=False)
        elif name == "undo":
            self._undo(prompt)
        elif name == "pause":
            return self._pause()
        elif name == "resume":  # only the pause's prompt hears it (PAUSED_PROMPT): decided elsewhere
            self._say("We're not paused. Carry on.", remember=False)
        elif name == "quit":
            if self._confirm(prompt, "Do you want to stop the game? It is saved, and you can resume it later."):
                self._say("Game saved. See you next time!", remember=False)
                return Ending.QUIT
            self._say("Okay, we keep playing.", remember=False)
        self.log.write({"type": "intent", "player": prompt.player, "intent": {"intent": name}})
        return None

    def _undo(self, prompt: Prompt) -> None:
        """Take back the last move (docs/rules.md, "In every game"). Its own player may;
        anyone else needs that player's yes (the table's, for a table move), so an undo
        cannot take back what another player did after seeing it. A move that showed
        something hidden (a card's value, a roll, the host's card, a tiebreak number) is
        refused, or taken back with the table's consent where the settings allow it, and
        then the game's randomness is drawn afresh, so the same roll does not come again."""
        moves = [n for n, action in enumerate(self.actions) if action.get("intent") != REDRAW]
        if not moves:
            self._say("There is nothing to undo yet.", remember=False)
            return
        last = moves[-1]
        undone = self.actions[last]
        before = self._replay(self.actions[:last])
        _, events = apply_move(self.game, before, undone)
        revealed = crosses_reveal(events)
        if revealed:
            if not self.undo_after_reveal:
                self._reject(prompt, "undo after a reveal", UNDO_REFUSED)
                return
            agreed = self._confirm(replace(prompt, player=None), UNDO_ASK)
        else:
            owner = undone.get("player")
            agreed = owner == prompt.player or self._confirm(
                replace(prompt, player=owner), undo_consent_question(owner)
            )
        if not agreed:
            self._say(UNDO_STANDS, remember=False)
            return
        dropped = self.actions[last:]  # the move, and any redraw after it
        for _ in dropped:
            position = self.journal.append(self.info.id, "undo", None, self.clock())
        del self.actions[last:]
        self.state = before
        if revealed or len(dropped) > 1:
            # What was drawn after the move has been seen: the next draw must not repeat it.
            redraw: Action = {"intent": REDRAW, "seed": redraw_seed(self.options.seed, position)}
            self.journal.append(self.info.id, "redraw", redraw, self.clock())
            self.actions.append(redraw)
            self.state, _ = apply_move(self.game, self.state, redraw)
        self._changed()
        self.log.write({"type": "undo", "action": undone})
        self._say(f"Undone. Back to before {undone.get('player') or 'the table'}'s last move.", remember=False)

    def _pause(self) -> Ending | None:
        self._say("Paused. Say resume when you are ready.", remember=False)
        pause_prompt = Prompt(PAUSED_PROMPT, None, "Paused.", choices=("resume",))
        while True:
            heard = self._hear_addressed(pause_prompt, remind=False)  # table talk while paused: no answer
            if heard is None:
                return Ending.EOF
            if heard.outcome is Outcome.TIMED_OUT:
                continue
            intent = heard.intent
            if intent and intent["intent"] == "resume":
                self._say("Let's go on.", remember=False)
                return None
            if intent and intent["intent"] == "quit":
                return Ending.QUIT
            self._say("We're paused. Say resume to continue.", remember=False)

    # ---- a player the host cannot understand ---------------------------

    def _trouble_at(self, prompt: Prompt) -> Trouble:
        """What went wrong so far at this prompt (forgotten when the prompt changes)."""
        if self._trouble is None or self._trouble.prompt != prompt:
            self._trouble = Trouble(prompt)
        return self._trouble

    def _narrow(self, prompt: Prompt) -> _Taken:
        """The prompt's narrowed questions (host/narrowing.py) instead of the open one again.
        A move found is applied; when none was found, the other ways to answer are
        offered and the host listens again, narrowing anew at the next misses."""
        trouble = self._trouble_at(prompt)
        self._last_narrowed = None
        self.log.write({"type": "narrowing", "player": prompt.player, "prompt": prompt.name, "misses": trouble.misses})
        likeliest = likeliest_choice(prompt, trouble.heard, self.ears.reread)
        asking = Narrowing(prompt, trouble, lambda ask: self._ask_narrowed(prompt, ask), self._reads_as_yes)
        found = asking.run(likeliest)
        if isinstance(found, dict):
            self._accept(prompt, found)
            return None
        if found is MOVED_ON:
            return None
        if found is not None:
            return found  # an ending
        trouble.misses = 0
        self.log.write({"type": "rejected", "player": prompt.player, "reason": "no choice taken"})
        self._say(self._no_choice_taken(prompt), remember=False)
        return _LISTEN_AGAIN

    def _no_choice_taken(self, prompt: Prompt) -> str:
        """What the host says when narrowing found no move, by the last answer it had: a "no"
        is taken at its word, and typing is not asked to be slower."""
        last = self._last_narrowed
        opening = NONE_OF_THOSE if last is not None and (last.intent or {}).get("intent") == "no" else CANNOT_TELL
        typed = last is not None and last.source is Source.TYPED
        again = self._options_sentence(prompt) if typed else TRY_AGAIN
        return " ".join(part for part in (opening, self.other_ways(prompt, self.state), again) if part)

    def _ask_narrowed(self, prompt: Prompt, ask: Prompt) -> Reply:
        """Say one narrowed question and understand its answer against `ask`. A common
        command is carried out and the question said again; one that changes the game
        (undo) ends the narrowing. Each question is logged as a prompt of its own."""
        self.log.write(
            {
                "type": "narrowed_prompt",
                "player": prompt.player,
                "prompt": ask.name,
                "narrows": prompt.name,
                "text": ask.text,
                "choices": list(ask.choices),
            }
        )
        self._say(ask.text, remember=False)
        while True:
            heard = self._hear_addressed(ask)
            if heard is None:
                return Reply(cut=Ending.EOF)
            if heard.outcome is Outcome.MISSED_START:
                self._missed_start(ask, heard)
                continue
            if heard.outcome is Outcome.TIMED_OUT:
                return Reply()
            self._last_narrowed = heard
            reply = self._narrowed_reply(prompt, ask, heard)
            if reply.intent is None:
                reply = self._whole_move(prompt, heard) or reply
            command = (reply.intent or {}).get("intent")
            if command not in COMMON_INTENTS:
                return reply
            if command in CHANGES_THE_GAME and not reply.sure:
                return Reply()
            if command != "repeat":
                ending = self._common(prompt, command)
                if ending is not None:
                    return Reply(cut=ending)
                if self.game.prompt(self.state) != prompt:
                    return Reply(cut=MOVED_ON)
            self._say(ask.text, remember=False)

    def _narrowed_reply(self, prompt: Prompt, ask: Prompt, heard: Understood) -> Reply:
        """The answer to a narrowed question, logged: a button on the player's page is sure."""
        if heard.outcome is Outcome.DECIDED:
            said: dict[str, Any] = {"source": heard.source.value, "narrowed": ask.text}
        else:
            said = {"narrowed": ask.text, **({"unsure": True} if heard.rival else {}), **_timing(heard, ask)}
        self.log.write({"type": "heard", "player": prompt.player, "text": heard.text, **said})
        return Reply(heard.intent, heard.verdict is Verdict.ACT, heard.phrase, guess=self._guess(ask, heard))

    def _guess(self, ask: Prompt, heard: Understood) -> int | None:
        """The choice an answer not understood surely names all the same (a choice read
        unsurely, or its words read against the question's choices): a hint, never acted
        on alone (host/narrowing.py)."""
        if heard.verdict is Verdict.ACT or not heard.spoken or not heard.text:
            return None
        intent = heard.intent or self.ears.reread(ask, heard.text).intent or {}
        index = intent.get("index") if intent.get("intent") == "choice" else None
        return index if isinstance(index, int) else None

    def _said_no_to(self, prompt: Prompt, trouble: Trouble, intent: dict[str, Any]) -> bool:
        """Whether the player already said no to this move here: a reading they refused,
        however worded ("between 20 and 50" after a no to "before 50"), but not one that
        adds to it what the rules take otherwise ("card one with plus twenty" after a no
        to "card one": they said no because the plus twenty was missing)."""
        return any(self._same_result(prompt, intent, refused) for refused in trouble.named(intent))

    def _same_result(self, prompt: Prompt, one: dict[str, Any], other: dict[str, Any]) -> bool:
        """The rules do the same with both moves now: the same new state and events, or
        the same refusal."""
        first, second = self._tried(prompt, one), self._tried(prompt, other)
        if isinstance(first, RuleError) and isinstance(second, RuleError):
            return first.reason == second.reason
        return first == second

    def _tried(self, prompt: Prompt, intent: dict[str, Any]) -> tuple[Any, list[Event]] | RuleError:
        """What the rules would do with the move now (the state stays as it is)."""
        try:
            return self.game.apply(self.state, cast(Action, {**intent, "player": prompt.player}))
        except RuleError as error:
            return error

    def _whole_move(self, prompt: Prompt, heard: Understood) -> Reply | None:
        """A narrowed question answered with a whole move the rules refuse, as a player
        does when no choice is what they meant ("card one with plus twenty" to "which
        card: 1, 2 or 3?" once plus 20 is used): the words, read as an answer to the open
        question, get the rules' reason, and the narrowing ends with the open question
        said again, as at first. Nothing changes, so an unsure reading may be answered
        so; a move the rules allow is never taken from such words (they fit none of the
        choices, and table talk would make moves). None: no refused move."""
        if not heard.spoken or not heard.text:
            return None
        whole = self.ears.reread(prompt, heard.text)
        intent = whole.intent
        if intent is None or intent["intent"] in COMMON_INTENTS or whole.verdict is Verdict.ASK_AGAIN:
            return None
        refusal = self._refusal(prompt, intent)
        if refusal is None:
            return None
        self._refuse(prompt, refusal)
        return Reply(cut=MOVED_ON)

    def _not_understood(self, prompt: Prompt, heard: Understood) -> None:
        """A clear value that is not possible now is answered as such; anything else is "sorry?"."""
        if heard.unavailable:
            self._reject(prompt, "not available", heard.unavailable)
        else:
            self._reject(prompt, "not understood", self._sorry(prompt))

    def _sorry(self, prompt: Prompt) -> str:
        return "Sorry, I didn't catch that. " + self._options_sentence(prompt)

    def _refusal(self, prompt: Prompt, intent: dict[str, Any]) -> RuleError | None:
        """Why the rules refuse the move now, or None when they take it (tried on the
        state, which stays as it is)."""
        if intent["intent"] in COMMON_INTENTS:
            return None
        tried = self._tried(prompt, intent)
        return tried if isinstance(tried, RuleError) else None

    def _reads_as_yes(self, words: str) -> bool:
        """Whether `words` (a choice's label) would be heard as "yes": then no yes or no
        is asked where it is an answer ("right" in "lower, right or higher")."""
        if words not in self._yes_words:
            heard = self.ears.reread(Prompt(YES_NO_PROMPT, None, "", choices=("yes", "no")), words)
            yes = heard.intent is not None and heard.intent.get("intent") == "yes"
            self._yes_words[words] = yes and heard.verdict is Verdict.ACT  # read surely, not a near sound
        return self._yes_words[words]

    def _yes_is_an_answer(self, prompt: Prompt) -> bool:
        """Whether some answer the prompt takes would be heard as "yes" (its narrowed
        choices and its examples)."""
        labels = [c.label for c in prompt.narrow.choices] if prompt.narrow is not None else []
        return any(self._reads_as_yes(words) for words in labels + list(prompt.choices))

    def _did_you_mean(self, prompt: Prompt, phrase: str, intent: dict[str, Any]) -> dict[str, Any] | _Taken:
        """Ask before acting on an unsure reply. "yes" settles it, "no" refuses it (never
        acted on unasked at this prompt again), and a corrected answer to the prompt is
        taken (asked about in its turn if it is unsure itself); a common command still
        works (one that CHANGES_THE_GAME only when said surely). Returns the intent to
        act on, None to ask the prompt again, or how the session ends (EOF, QUIT); when
        nothing was settled twice at this prompt, what the narrowed questions found
        (_narrow)."""
        unclear_before = say_again = False
        for _ in range(CORRECTIONS):
            heard = self._ask_did_you_mean(prompt, phrase, again=say_again)
            say_again = False  # a corrected answer is asked about by its own words
            if heard is None:
                return Ending.EOF
            if heard.outcome is Outcome.UNCLEAR and not unclear_before:
                unclear_before = say_again = True  # an answer heard but not read: "Sorry? Yes or no?", once
                continue
            if heard.outcome in (Outcome.TIMED_OUT, Outcome.MISSED_START, Outcome.UNCLEAR):
                break
            answer = heard.intent
            if answer is None:
                if heard.unavailable:
                    self._not_understood(prompt, heard)
                    return None
                break
            if answer["intent"] == "yes":
                return intent
            if answer["intent"] == "no":
                self._trouble_at(prompt).refuse(intent)
                break
            if answer["intent"] in COMMON_INTENTS:
                if answer["intent"] in CHANGES_THE_GAME and heard.verdict is not Verdict.ACT:
                    break  # "yes, that's wrong" is no undo
                ending = self._common(prompt, answer["intent"])
                if ending is not None:
                    return ending
                continue
            if heard.verdict is Verdict.ACT or answer == intent:
                return answer  # said surely, or said again as it was asked about
            if self._refusal(prompt, answer) is not None:
                break  # never asked about a move the rules refuse now
            phrase, intent = heard.phrase, answer
        if self._trouble_at(prompt).miss():
            return self._narrow(prompt)
        self._say("Okay, let's try again.")
        return None

    def _ask_did_you_mean(self, prompt: Prompt, phrase: str, again: bool = False) -> Understood | None:
        """Say "Did you mean: <phrase>?" (`again`: "Sorry? Yes or no?", after an answer not
        read) and hear the answer: yes or no, or a corrected answer to the prompt (the
        question's prompt accepts both); logged when it was spoken."""
        question = f"Did you mean: {phrase}?"
        ask = Prompt(
            joined_prompt(YES_NO_PROMPT, prompt.name),
            prompt.player,
            question,
            prompt.context,
            prompt.slots,
            choices=("yes", "no"),
        )
        self._say(CONFIRM_AGAIN if again else question, remember=False)
        heard = self._hear_addressed(ask)
        if heard is not None and heard.outcome not in (Outcome.TIMED_OUT, Outcome.MISSED_START):
            self._log_answer(prompt, heard, phrase)
        return heard

    def _log_answer(self, prompt: Prompt, heard: Understood, confirming: str) -> None:
        """The answer to a question the host asked about something (`confirming`), as heard."""
        said = {"type": "heard", "player": prompt.player, "text": heard.text, "confirming": confirming}
        unclear = {"unclear": True} if heard.outcome is Outcome.UNCLEAR else {}
        self.log.write({**said, **unclear, **({"unsure": True} if heard.rival else {})})

    def _confirm(self, prompt: Prompt, question: str) -> bool:
        """Ask yes or no; only a yes agrees, so nothing happens by accident. A reply that
        could not be read is asked about once more, never taken for a no unheard; what
        was heard is logged, as any reply is."""
        ask = Prompt(YES_NO_PROMPT, prompt.player, question, choices=("yes", "no"))
        self._say(question, remember=False)
        for attempt in range(CONFIRM_TRIES):
            heard = self._hear_addressed(ask)
            if heard is None or heard.outcome is Outcome.TIMED_OUT:
                return False
            if heard.outcome in (Outcome.UNCLEAR, Outcome.MISSED_START):
                if attempt + 1 < CONFIRM_TRIES:
                    self._say(CONFIRM_AGAIN, remember=False)
                continue
            self._log_answer(prompt, heard, question)
            return bool(heard.intent and heard.intent["intent"] == "yes")
        return False

    def _options_sentence(self, prompt: Prompt) -> str:
        if prompt.choices:
            return "You can say, for example: " + join_names([f'"{c}"' for c in prompt.choices], "or") + "."
        return "Say help to hear what you can say."


def _question(text: str) -> str:
    """ "You hold 3, 7 and 9. Which card?" -> "Which card?" (the question, not the hand); the
    last question when advice follows it ("Which is closest to 50? Add power cards if you
    like."), else the last sentence."""
    sentences = [part.strip() for part in re.split(r"(?<=[.?!])\s+", text.strip()) if part.strip()]
    questions = [sentence for sentence in sentences if sentence.endswith("?")]
    return (questions or sentences or [text])[-1]


def _timing(heard: Understood, prompt: Prompt) -> dict[str, Any]:
    """When a spoken reply was listened for and said, and how loud it came in, for the
    event log (typed: nothing).

    deadline is when a timed prompt's clock ran out (listening_from + timeout), so the
    log shows a word said across the buzzer, and how close to schedule the buzzer was.
    """
    timing: dict[str, Any] = {
        key: round(value, 3)
        for key, value in (("listening_from", heard.listening_from), ("start", heard.start), ("end", heard.end))
        if value is not None
    }
    if heard.listening_from is not None and prompt.timeout:
        timing["deadline"] = round(heard.listening_from + prompt.timeout, 3)
    if heard.input_level:
        timing["input_level"] = dict(heard.input_level)
    if heard.snr_db is not None:
        timing["snr_db"] = heard.snr_db
    return timing
