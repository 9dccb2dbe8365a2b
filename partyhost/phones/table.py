"""One game's phone pages from start to end: seats, server, and the session's ears and mouth.

The command line calls `PhoneTable.open` for a host-deal game with secret hands,
`attach` once the session exists, and `close` when it ends. Seat tokens and the
join code are kept in the session's journal while the game lasts, so after a host
restart every phone's link opens the same seat again; they are dropped when the
game is over, and with them every link.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from host.announcer import Mouth
from host.awaiting import Ears
from host.contract import Ending, Prompt
from host.engine import Game, GameOptions
from host.journal import Journal
from host.views import HandView

from .hub import PhoneHub
from .relay import PhoneEars, PhoneMouth
from .seats import Guessing, SeatBook
from .service import LOG, JoinAddress, PhoneService


@dataclass(frozen=True)
class Seated:
    """A session's ears and mouth with the phone pages in, and what else it is given:
    who follows each new state, and how else a player can move (host.session.Session)."""

    ears: PhoneEars
    mouth: PhoneMouth
    watch: Callable[[Any], None]
    other_ways: Callable[[Prompt, Any], str]


def has_secret_hands(game: Game[Any], options: GameOptions) -> bool:
    """Phones help only where the host deals secret cards."""
    return game.hand_view is not None and options.deal == "host"


def hands_of(game: Game[Any]) -> Callable[[Any, str], HandView | None]:
    """What each phone page shows (the game's hand_view): phones are opened only for a
    game that has secret hands."""
    if game.hand_view is None:
        raise ValueError(f"{game.title} has no secret hands to show on phones")
    return game.hand_view


PHONE_WAY = "You can also choose on your phone page."
"""Said to a player the host could not understand, when their page has the move."""


def page_can_move(game: Game[Any], state: Any, player: str | None) -> bool:
    """Whether `player`'s phone page offers a move now (a card to play, a button, a number)."""
    view = hands_of(game)(state, player) if player else None
    return view is not None and (any(card.play for card in view.cards) or bool(view.actions) or view.number is not None)


def seat_players(game: Game[Any], options: GameOptions, decks: Any) -> list[str]:
    """The players who hold a hand the host deals (not the host's own seat in vs-host)."""
    hands = hands_of(game)
    state, _ = game.setup(options, decks)
    return [p for p in options.players if hands(state, p) is not None]


def load_or_make_seats(journal: Journal, session_id: str, players: list[str]) -> SeatBook:
    """The saved seats of this session (a restart), else new ones, saved at once."""
    code, saved = journal.seat_tokens(session_id)
    if code is not None and set(saved) == set(players):
        return SeatBook(
            code=code, tokens={p: saved[p][0] for p in players}, claimed={p for p in players if saved[p][1]}
        )
    seats = SeatBook.fresh(players)
    journal.drop_seat_tokens(session_id)
    journal.save_seat_tokens(session_id, seats.code, seats.tokens)
    return seats


@dataclass
class PhoneTable:
    hub: PhoneHub
    seats: SeatBook
    service: PhoneService
    journal: Journal
    session_id: str

    @classmethod
    def open(
        cls, game: Game[Any], options: GameOptions, decks: Any, journal: Journal, session_id: str, bind: str, port: int
    ) -> PhoneTable:
        """Seats and a running server; raises service.PhoneServerError if it cannot listen."""
        players = seat_players(game, options, decks)
        seats = load_or_make_seats(journal, session_id, players)
        path = journal.path

        def persist_claim(player: str) -> None:
            # Called on the server's thread: SQLite connections stay in their own thread.
            own = Journal(path)
            try:
                own.claim_seat(session_id, player)
            finally:
                own.close()

        seats.on_claim = persist_claim
        hub = PhoneHub(game.title, players, hands_of(game))
        service = PhoneService(hub, seats, bind, port)

        def paused(guessing: Guessing) -> None:
            # On the server's thread too: the new code is saved, the terminal told at once, and
            # the table when the host next speaks.
            if guessing.new_code is not None:
                own = Journal(path)
                try:
                    own.save_seat_tokens(session_id, guessing.new_code, seats.tokens)
                finally:
                    own.close()
            new_code = f"; the join code is now {guessing.new_code}: {service.address.url}" if guessing.new_code else ""
            LOG.warning(
                "%d wrong join codes within a minute: joining is paused for %g s%s",
                guessing.wrong,
                guessing.pause_s,
                new_code,
            )
            hub.announce(guessing.spoken)

        seats.on_guessing = paused
        service.start()
        return cls(hub, seats, service, journal, session_id)

    @property
    def address(self) -> JoinAddress:
        """Where phones join, with the code as it is now (guessing makes it longer)."""
        return self.service.address

    def seat(self, game: Game[Any], ears: Ears, mouth: Mouth) -> Seated:
        """The session's parts with the pages in: secrets to the pages, page buttons into
        the ears, every new state to the pages, and the page named as another way to move."""

        def other_ways(prompt: Prompt, state: Any) -> str:
            return PHONE_WAY if page_can_move(game, state, prompt.player) else ""

        return Seated(PhoneEars(ears, self.hub), PhoneMouth(mouth, self.hub), self.hub.update, other_ways)

    def close(self, outcome: Ending) -> None:
        """Stop serving; when the game is over its seat tokens die with it."""
        if outcome is Ending.OVER:
            self.hub.end()
            self.journal.drop_seat_tokens(self.session_id)
            time.sleep(0.2)  # let the pages hear "game over" before the server goes
        self.service.stop()
