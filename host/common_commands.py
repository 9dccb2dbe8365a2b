"""The commands every prompt hears besides its own replies: repeat, help, score, whose
turn, read the table, rules, the voice's speed and loudness, never mind, undo, pause and quit.

Those that only say something leave the game as it was; undo, pause and quit change it
or end it, so they are asked about where another player's move or the whole game is at
stake (docs/rules.md, "In every game").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import get_args

from .announcer import Announcer
from .awaiting import Awaiting, said_yes
from .contract import PAUSED_PROMPT, Ending, Intent, Outcome, Prompt, Understood
from .engine import join_names
from .eventlog import EventLog
from .log_events import Accepted, Undone
from .moves import CommandName
from .play import Play
from .reply_policy import acts

CORRECT = "correct"
"""A correction of the last move: "no, I said lower" (host/corrections.py)."""
COMMON_INTENTS: set[str] = {*get_args(CommandName), CORRECT}
"""Every common command: said at any prompt, answered by the session (host/moves.py types them)."""
CHANGES_THE_GAME = frozenset({"undo", CORRECT, "pause", "quit"})
"""Common commands that change the game or end it: never done on a doubtful reading among a
narrowed question's few choices or in answer to "Did you mean ...?" ("no wait", an undo,
for the choice "no bet"). The others only say something, and the question is asked again."""
CORRECTION_HINT = (
    'If I took a move wrong, say what was said: "no, I said lower"; '
    'if I keep mishearing it, "that\'s not what I said", and I ask for it another way.'
)
GENERAL_HELP = (
    "At any time you can say: repeat, what can I say, score, whose turn, read the table, "
    "undo, rules, pause, slower, faster, louder, quieter, or quit. " + CORRECTION_HINT
)
UNDO_REFUSED = "That can't be undone: it showed something that was hidden, and whoever moves again would now know it."
UNDO_ASK = "That move showed something that was hidden. Take it back anyway? Only if everyone agrees: yes or no?"
UNDO_STANDS = "Okay, it stands."
NEVER_MIND = "Okay."
QUIT_ASK = "Do you want to stop the game? It is saved, and you can resume it later."
SAYS_ONLY = COMMON_INTENTS - CHANGES_THE_GAME - {"resume"}
"""The commands that only say something: answered while the game is paused too."""
UNDO_CONSENT = "That takes back "
"""How undo_consent_question begins (a simulated table answers it: lab/partyhost_lab/table_player.py)."""


def undo_consent_question(owner: str | None) -> str:
    """What the host asks before taking back a move the awaited player did not make: the
    move's player answers (the table, for a move the table made). It names no speaker:
    by voice the host knows only whose turn it is, not who spoke."""
    if owner is None:
        return f"{UNDO_CONSENT}the table's last move. Does everyone agree? Yes or no?"
    return f"{UNDO_CONSENT}{owner}'s last move. {owner}, do you agree? Yes or no?"


class CommonCommands:
    """Carries out a common command at a prompt."""

    def __init__(
        self,
        play: Play,
        announcer: Announcer,
        awaiting: Awaiting,
        log: EventLog,
        correct: Callable[[Prompt, Intent, Understood | None], Ending | None],
        undo_after_reveal: bool = False,
        take: Callable[[Prompt, Intent], None] | None = None,
    ):
        self.play, self.announcer, self.awaiting, self.log = play, announcer, awaiting, log
        self.correct = correct
        """Puts the last move right (the session's, over host/corrections.py): how the
        session ends, if it does while the move is asked for again."""
        self.undo_after_reveal = undo_after_reveal
        """Whether "undo" may take back a move that showed something hidden, once the table
        agrees (settings.undo_after_reveal); off: refused with the reason (docs/rules.md)."""
        self.take = take
        """Takes a move said instead of an answer to "Do you want to stop the game?" (the
        session's own way to take a move); None: such a move is not taken."""

    def carry_out(self, prompt: Prompt, intent: Intent, heard: Understood | None = None) -> Ending | None:
        """The command `intent` names, heard at `prompt` (`heard`: the reply it came in, if any)."""
        name = intent["intent"]
        if name == "repeat":
            for text in self.announcer.last_spoken[-4:]:
                self.announcer.say(text, remember=False)
        elif name in ("help", "what_can_i_say"):
            self.announcer.say(self.options_sentence(prompt), remember=False)
            if name == "what_can_i_say" and self.play.actions and prompt.timeout is None:
                self.announcer.say(CORRECTION_HINT, remember=False)  # a move to put right
            if name == "help":
                self.announcer.say(self.play.game.help.get(prompt.name, GENERAL_HELP), remember=False)
        elif name == "score":
            self.announcer.say(self.play.game.scores(self.play.state), remember=False)
        elif name == "read_table":
            table = self.play.game.table_text or self.play.game.scores
            self.announcer.say(table(self.play.state), remember=False)
        elif name == "whose_turn":
            who = prompt.player or "anyone"
            self.announcer.say(f"It's {who}'s turn." if prompt.player else "Anyone may answer now.", remember=False)
        elif name == "rules":
            self.announcer.say(self.play.game.rules_summary, remember=False)
        elif name in ("slower", "faster", "louder", "quieter"):
            self.announcer.say(self.announcer.mouth.adjust(name), remember=False)
        elif name == "undo":
            self.undo(prompt)
        elif name == CORRECT:
            ending = self.correct(prompt, intent, heard)
            if ending is not None:
                return ending
        elif name == "pause":
            return self._pause(prompt)
        elif name == "never_mind":  # the question is asked again (at a narrowed one: the open one)
            self.announcer.say(NEVER_MIND, remember=False)
        elif name == "resume":  # only the pause's prompt hears it (PAUSED_PROMPT): decided elsewhere
            self.announcer.say("We're not paused. Carry on.", remember=False)
        elif name == "quit":
            heard = self.awaiting.yes_or_no(prompt, QUIT_ASK)
            if said_yes(heard):
                self.announcer.say("Game saved. See you next time!", remember=False)
                return Ending.QUIT
            self.announcer.say("Okay, we keep playing.", remember=False)
            self.log.write(Accepted(prompt.player, {"intent": name}))
            move = self._move_instead(prompt, heard)
            if move is not None and self.take is not None:
                self.take(prompt, move)
            return None
        self.log.write(Accepted(prompt.player, {"intent": name}))
        return None

    def _move_instead(self, prompt: Prompt, heard: Understood | None) -> Intent | None:
        """A move said instead of yes or no ("5 clovers" to "Do you want to stop the
        game?"): the words read surely as an answer to the game's question, never lost."""
        if heard is None or heard.intent is not None or not heard.text:
            return None
        whole = self.awaiting.ears.reread(prompt, heard.text)
        intent = whole.intent
        if intent is None or intent["intent"] in COMMON_INTENTS or not acts(whole):
            return None
        return intent.copy()

    def undo(self, prompt: Prompt) -> bool:
        """Take back the last move (docs/rules.md, "In every game"). Its own player may;
        anyone else needs that player's yes (the table's, for a table move), so an undo
        cannot take back what another player did after seeing it. A move that showed
        something hidden (a card's value, a roll, the host's card, a tiebreak number) is
        refused, or taken back with the table's consent where the settings allow it, and
        then the game's randomness is drawn afresh, so the same roll does not come again.
        Whether the move was taken back."""
        last = self.play.last_move()
        if last is None:
            self.announcer.say("There is nothing to undo yet.", remember=False)
            return False
        if last.revealed:
            if not self.undo_after_reveal:
                self.announcer.reject(prompt, "undo after a reveal", UNDO_REFUSED)
                return False
            agreed = self.awaiting.confirm(replace(prompt, player=None), UNDO_ASK)
        else:
            owner = last.action.get("player")
            agreed = owner == prompt.player or self.awaiting.confirm(
                replace(prompt, player=owner), undo_consent_question(owner)
            )
        if not agreed:
            self.announcer.say(UNDO_STANDS, remember=False)
            return False
        self.play.take_back(last)
        self.announcer.remember_said(self.play.events_so_far())
        self.log.write(Undone(last.action))
        undone_by = last.action.get("player") or "the table"
        self.announcer.say(f"Undone. Back to before {undone_by}'s last move.", remember=False)
        return True

    def _pause(self, prompt: Prompt) -> Ending | None:
        """Wait for "resume" (or "quit"); what only says something (the score) is answered."""
        self.announcer.say("Paused. Say resume when you are ready.", remember=False)
        pause_prompt = Prompt(PAUSED_PROMPT, None, "Paused.", choices=("resume",))
        while True:
            heard = self.awaiting.hear(pause_prompt, remind=False)  # table talk while paused: no answer
            if heard is None:
                return Ending.EOF
            if heard.outcome is Outcome.TIMED_OUT:
                continue
            intent = heard.intent
            if intent and intent["intent"] == "resume":
                self.announcer.say("Let's go on.", remember=False)
                return None
            if intent and intent["intent"] == "quit":
                return Ending.QUIT
            if intent and intent["intent"] in SAYS_ONLY:
                self.carry_out(prompt, intent)
                continue
            self.announcer.say("We're paused. Say resume to continue.", remember=False)

    def options_sentence(self, prompt: Prompt) -> str:
        if prompt.choices:
            return "You can say, for example: " + join_names([f'"{c}"' for c in prompt.choices], "or") + "."
        return "Say help to hear what you can say."
