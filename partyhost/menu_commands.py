"""What the spoken menu answers to the commands that work at any prompt (grammars/common.yaml,
common/any: repeat, help, what can I say, rules, quit ...).

During a game the session answers them (host/session.py). Before one there is no score,
turn, table or move to take back, yet a player who asks "what can I say" and hears
"Sorry, I didn't catch that" is stuck. So the menu answers every one of them: what may be
said at this question, the rules of the game chosen, the voice's speed and volume, a step
back ("go back" is an undo, and so is "never mind" where there is one), quit, "resume" at
the game question (the saved games, or that there are none), and for the rest that no
game has started yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from host.announcer import Mouth
from host.common_commands import NEVER_MIND

NO_GAME_YET = "No game has started yet."
RULES_LATER = "Choose a game first, and I'll tell you its rules."
NOTHING_BEFORE = "This is the first question: there is nothing to go back to."
NOTHING_SAVED = "There is no saved game to resume."
ADJUSTMENTS = ("slower", "faster", "louder", "quieter")


class Next(Enum):
    """What the menu does after a command: the same question again, the one before, or stop."""

    ASK_AGAIN = "ask again"
    BACK = "back"
    QUIT = "quit"
    RESUME = "resume"


@dataclass(frozen=True)
class MenuStep:
    """One question of the menu, as the commands need to know it."""

    examples: str
    """What may be said here, as a sentence (for "what can I say" and "help")."""
    rules: str = ""
    """The chosen game's rules ("": no game chosen yet)."""
    can_go_back: bool = False
    saved: int | None = None
    """The saved games "resume" may offer here (None: resuming is not asked here)."""

    def help(self) -> str:
        back = '"go back", ' if self.can_go_back else ""
        resume = '"resume" to go on with a saved game, ' if self.saved else ""
        return f'{self.examples} You can also say "repeat", {back}{resume}"slower" or "louder", and "quit" to stop.'


def answer_command(name: str, step: MenuStep, mouth: Mouth) -> Next:
    """Say the menu's answer to the common command `name`; what the menu does next."""
    if name == "quit":
        return Next.QUIT
    if name in ("undo", "never_mind") and step.can_go_back:
        return Next.BACK
    if name == "undo":
        mouth.say(NOTHING_BEFORE)
    elif name == "never_mind":
        mouth.say(NEVER_MIND)
    elif name == "what_can_i_say":
        mouth.say(step.examples)
    elif name == "help":
        mouth.say(step.help())
    elif name == "rules":
        mouth.say(step.rules or RULES_LATER)
    elif name in ADJUSTMENTS:
        mouth.say(mouth.adjust(name))
    elif name == "resume" and step.saved is not None:
        if step.saved:
            return Next.RESUME
        mouth.say(NOTHING_SAVED)
    elif name != "repeat":  # score, whose turn, read the table, pause, resume
        mouth.say(NO_GAME_YET)
    return Next.ASK_AGAIN
