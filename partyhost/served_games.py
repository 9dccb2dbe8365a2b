"""The games of a served table, one after another, until the service stops.

`partyhost serve` plays exactly as `partyhost resume` and `partyhost play` do (the same
GamesFolder, partyhost/games_folder.py, with the conversation as its ears and mouth): first the
unfinished game, if any (not one its players quit: they chose to stop, and "resume" at
the menu goes on with it), then the spoken menu and a new game, again and again. Each game
ends with a line of its own, saying what may come next; the menu's greeting waits for the
next request. A game that cannot start is explained to the players; nothing starts again
until someone speaks, so a broken setting cannot spin the loop, and what they say then is
the menu's (Conversation.rest). A disk that refuses to save pauses the table: the players
hear why, and the next words they say try the unfinished game again.
"""

from __future__ import annotations

import dataclasses
import sys
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

from host.contract import Ending
from host.errors import PartyhostError
from host.journal import JournalUnwritable
from host.sessionlock import SessionBusy
from partyhost.config import Settings
from partyhost.conversation import MENU_PROMPT, Conversation
from partyhost.game_setup import SPOKEN, GameSetup
from partyhost.games_folder import GamesFolder, NothingToResume, UserError
from partyhost.sitting import GameEnd
from partyhost.voiceio import GameIO, Opener
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding

if TYPE_CHECKING:
    from partyhost.discovery import Announced

NOT_RESUMED = (UserError, SessionBusy)
"""What a resume at the start of serving may meet: no game to resume, or one open elsewhere."""
PLAY_AGAIN = "Thanks for playing! To play again, say the name of a game."
RESUME_LATER = 'To go on with it another time, say "resume".'
"""Said after a game ends or is quit: its own last line, and what the players may say next."""


def opener_for(conversation: Conversation) -> Opener:
    """The conversation as every game's ears and mouth, on a real-time clock."""
    started = time.monotonic()

    def opener(settings: Settings, t0: float) -> GameIO:
        return GameIO(ears=conversation, mouth=conversation, clock=lambda: t0 + time.monotonic() - started)

    return opener


Ready = Callable[[str, int, "Announced | None"], None]
"""Told when the service listens: the address, the port, and where it was announced or why
not (None: announcing is off)."""


def serve(folder: GamesFolder, settings: Settings, ready: Ready) -> None:
    """Games through Home Assistant's Assist devices until SIGINT or SIGTERM (partyhost/wyoming_service.py)."""
    import socket

    from partyhost.phones.service import bind_address
    from partyhost.wyoming_service import GameThread, run_service

    folder.check()  # a journal that cannot open is refused now
    bind = bind_address(settings.serve_bind)
    matcher = Matcher(accept=settings.accept_score, confirm=settings.confirm_score)
    conversation = Conversation(show_private=settings.show_private, understanding=TextUnderstanding(matcher))

    def playing(talk: Conversation) -> None:
        matcher.table(MENU_PROMPT)  # the pronouncing dictionary and the menu now, not in the first request
        play_games(talk, folder)

    served = GameThread(conversation, playing)
    name = f"partyhost-{socket.gethostname().split('.')[0]}"[:60]
    announce_as = name if settings.serve_zeroconf else None
    run_service(served, bind, settings.serve_port, announce_as, lambda port, announced: ready(bind, port, announced))


def play_games(conversation: Conversation, folder: GamesFolder) -> None:
    """Resume the unfinished game (unless NOT_RESUMED), then play until the conversation closes.

    A PartyhostError is told in its own words; any other error is a bug: its traceback
    goes to the terminal, the players hear that the game is saved.
    """
    choice = dataclasses.replace(SPOKEN, opener=opener_for(conversation), hidden_hands_on_phones=True)
    unfinished = True
    while not conversation.closed:
        try:
            if unfinished:
                unfinished = False
                try:
                    _signed_off(conversation, folder.resume(None, choice, quit_too=False))
                    continue
                except NothingToResume:
                    print("partyhost: no unfinished game to continue; a new one starts from the menu", file=sys.stderr)
                except NOT_RESUMED as reason:
                    print(f"partyhost: {reason}; starting the menu", file=sys.stderr)
            _signed_off(conversation, folder.play(GameSetup(), choice))
        except JournalUnwritable as error:
            print(f"partyhost: {error}", file=sys.stderr)
            unfinished = True
            _wait_after(
                conversation,
                ("" if error.told else f"Sorry, I cannot save games now: {error.short}. ")
                + "When there is room on the disk again, say anything and we go on.",
            )
        except PartyhostError as error:
            print(f"partyhost: {error}", file=sys.stderr)
            _wait_after(conversation, f"Sorry, I could not start that game: {error}")
        except Exception:
            traceback.print_exc()
            _wait_after(conversation, "Sorry, something went wrong. Your game is saved.")


def _signed_off(conversation: Conversation, end: GameEnd | None) -> None:
    """A game's last line: to the players, what they may say next (the menu hears it, and
    greets only then); at the terminal, when the service stopped it, that it is saved (the
    next start goes on with it, so no command to resume it is suggested)."""
    if end is None:
        return
    if end.outcome is Ending.OVER:
        conversation.say(PLAY_AGAIN)
    elif end.outcome is Ending.QUIT:
        conversation.say(RESUME_LATER)
    else:
        print(f"The game is saved ({end.session_id}); serve goes on with it when it starts again.")


def _wait_after(conversation: Conversation, apology: str) -> None:
    conversation.say(apology)
    conversation.rest()
