"""Who may see which hand: one unguessable token per seat, and a short join code per game.

The join code is said aloud and printed, so only people at the table can claim a
seat; claiming one hands that phone the seat's token, which is the only key to its
cards. A seat is claimed once (a second phone cannot take it over); its token stays
valid for the whole game, also after a host restart, so a reload brings the same
hand back. Tokens are never spoken, printed or shown on another seat's page.

Guessing the four digits is slowed per address, never stopped for good: after
FREE_WRONG_CODES wrong codes each further one makes that address wait twice as long
as the last (1 s, 2 s, 4 s ... at most MAX_WAIT_S), so trying all 10,000 codes takes
days, while a player who mistyped can still join once the wait is over.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

CODE_DIGITS = 4
FREE_WRONG_CODES = 5
"""Wrong join codes one address may try before it has to wait between tries."""
MAX_WAIT_S = 60.0


class SeatRefused(Exception):
    """A join or a request that is not allowed; `status` is the HTTP answer, `reason` the words."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def new_code() -> str:
    """A join code that is easy to say: four digits."""
    return "".join(str(secrets.randbelow(10)) for _ in range(CODE_DIGITS))


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class SeatBook:
    """The seats of one game. Thread-safe: the web server and the session both use it."""

    code: str
    tokens: dict[str, str]  # player -> token
    claimed: set[str] = field(default_factory=set)
    on_claim: Callable[[str], None] | None = None  # persists a claim (the journal)
    clock: Callable[[], float] = time.monotonic
    _wrong: dict[str, int] = field(default_factory=dict)
    _wait_until: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def fresh(cls, players: tuple[str, ...] | list[str]) -> SeatBook:
        return cls(code=new_code(), tokens={p: new_token() for p in players})

    @property
    def players(self) -> list[str]:
        return list(self.tokens)

    def player_for(self, token: str | None) -> str | None:
        """The seat a token opens, or None; compared in constant time."""
        if not token:
            return None
        found = None
        for player, known in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = player
        return found

    def wait_s(self, address: str) -> float:
        """How long `address` must wait before its next join code is looked at (0: none)."""
        return max(0.0, self._wait_until.get(address, 0.0) - self.clock())

    def join(self, code: str, player: str, address: str) -> str:
        """The token of `player`'s seat for the phone at `address`; SeatRefused if not allowed."""
        with self._lock:
            wait = self.wait_s(address)
            if wait > 0:
                raise SeatRefused(
                    429, f"Too many wrong join codes from this phone. Try again in {math.ceil(wait)} seconds."
                )
            if not hmac.compare_digest(code.strip().encode(), self.code.encode()):
                wrong = self._wrong[address] = self._wrong.get(address, 0) + 1
                if wrong >= FREE_WRONG_CODES:
                    delay = min(MAX_WAIT_S, 2.0 ** (wrong - FREE_WRONG_CODES))
                    self._wait_until[address] = self.clock() + delay
                raise SeatRefused(403, "That join code is not right. Listen for the host's code and try again.")
            self._wrong.pop(address, None)
            self._wait_until.pop(address, None)
            if player not in self.tokens:
                raise SeatRefused(404, "Choose one of the seats listed.")
            if player in self.claimed:
                raise SeatRefused(
                    409, f"{player}'s seat is already taken. If that is you, open the link you got on your phone again."
                )
            self.claimed.add(player)
        if self.on_claim is not None:
            self.on_claim(player)
        return self.tokens[player]
