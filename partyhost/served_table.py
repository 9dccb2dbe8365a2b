"""The games of a served table, one after another, until the service stops.

`partyhost serve` plays exactly as `partyhost resume` and `partyhost play` do (the
command line passes them in, with the conversation as their ears and mouth): first the
unfinished game, if any, then the spoken menu and a new game, again and again. A game
that cannot start is explained to the players; nothing starts again until someone speaks,
so a broken setting cannot spin the loop. A disk that refuses to save pauses the table:
the players hear why, and the next words they say try the unfinished game again.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable

from host.contract import Prompt
from host.journal import JournalUnwritable
from partyhost.config import Settings
from partyhost.conversation import MENU_PROMPT, Conversation
from partyhost.voiceio import GameIO, Opener


def opener_for(conversation: Conversation) -> Opener:
    """The conversation as every game's ears and mouth, on a real-time clock."""
    started = time.monotonic()

    def opener(settings: Settings, t0: float) -> GameIO:
        return GameIO(ears=conversation, mouth=conversation, clock=lambda: t0 + time.monotonic() - started)

    return opener


def play_games(
    conversation: Conversation,
    resume: Callable[[Opener], object],
    play: Callable[[Opener], object],
    refusals: tuple[type[BaseException], ...],
    not_resumed: tuple[type[BaseException], ...],
) -> None:
    """Resume (errors in `not_resumed`: none to resume, or open elsewhere), then play until closed.

    `refusals` are the errors a user can fix, told in their own words; any other error is
    a bug: its traceback goes to the terminal, the players hear that the game is saved.
    """
    opener = opener_for(conversation)
    unfinished = True
    while not conversation.closed:
        try:
            if unfinished:
                unfinished = False
                try:
                    resume(opener)
                    continue
                except not_resumed as reason:
                    print(f"partyhost: {reason}; starting the menu", file=sys.stderr)
            play(opener)
        except JournalUnwritable as error:
            print(f"partyhost: {error}", file=sys.stderr)
            unfinished = True
            _wait_after(
                conversation,
                ("" if error.told else f"Sorry, I cannot save games now: {error.short}. ")
                + "When there is room on the disk again, say anything and we go on.",
            )
        except refusals as error:
            print(f"partyhost: {error}", file=sys.stderr)
            _wait_after(conversation, f"Sorry, I could not start that game: {error}")
        except Exception:
            traceback.print_exc()
            _wait_after(conversation, "Sorry, something went wrong. Your game is saved.")


def _wait_after(conversation: Conversation, apology: str) -> None:
    conversation.say(apology)
    conversation.hear(Prompt(MENU_PROMPT, None, ""))
