"""Who may see which hand: one unguessable token per seat, and a short join code per game.

The join code is said aloud and printed, so only people at the table can claim a
seat; claiming one hands that phone the seat's token, which is the only key to its
cards. A seat is claimed once (a second phone cannot take it over); its token stays
valid for the whole game, also after a host restart, so a reload brings the same
hand back. Tokens are never spoken, printed or shown on another seat's page.

Guessing the code is slowed per address, never stopped for good: after
FREE_WRONG_CODES wrong codes each further one makes that address wait twice as long
as the last (1 s, 2 s, 4 s ... at most MAX_WAIT_S), while a player who mistyped can
still join once the wait is over. An address is cheap on a LAN, though (issue 58), so
wrong codes from all addresses together have a budget too: the
WRONG_CODES_PER_MINUTE-th within a minute pauses joining for everyone for PAUSE_S (no
code is looked at, the right one neither), and gives the game a new code LONGER_BY
digits longer (up to LONGEST_CODE), which the host announces (`on_guessing`). So at
most that many codes a minute are ever looked at, and each pause starts the guessing
over against a code a hundred times harder to find (docs/phones.md has what that makes
of trying them all).
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

CODE_DIGITS = 4
FREE_WRONG_CODES = 5
"""Wrong join codes one address may try before it has to wait between tries."""
MAX_WAIT_S = 60.0
WRONG_CODES_PER_MINUTE = 20
"""Wrong join codes from all addresses together in a minute; the last of them pauses joining.
A table mistyping makes a few; one address alone, slowed as above, makes 10 in 31 s."""
PAUSE_S = 60.0
LONGER_BY = 2
LONGEST_CODE = 8
"""Digits: a code of eight is still sayable, and fits the join page's field."""


class SeatRefused(Exception):
    """A join or a request that is not allowed; `status` is the HTTP answer, `reason` the words."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


def new_code(digits: int = CODE_DIGITS) -> str:
    """A join code that is easy to say: four digits, unless guessing made it longer."""
    return "".join(str(secrets.randbelow(10)) for _ in range(digits))


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class SeatBook:
    """The seats of one game. Thread-safe: the web server and the session both use it."""

    code: str
    tokens: dict[str, str]  # player -> token
    claimed: set[str] = field(default_factory=set)
    on_claim: Callable[[str], None] | None = None  # persists a claim (the journal)
    on_guessing: Callable[[Guessing], None] | None = None  # persists the new code, and has it announced
    clock: Callable[[], float] = time.monotonic
    _wrong: dict[str, int] = field(default_factory=dict)
    _wait_until: dict[str, float] = field(default_factory=dict)
    _wrong_lately: deque[float] = field(default_factory=deque)  # when each recent wrong code came, any address
    _paused_until: float = 0.0
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

    def paused_s(self) -> float:
        """How long joining stays paused for everyone after too many wrong codes (0: not paused)."""
        return max(0.0, self._paused_until - self.clock())

    def join(self, code: str, player: str, address: str) -> str:
        """The token of `player`'s seat for the phone at `address`; SeatRefused if not allowed."""
        with self._lock:
            paused, wait = self.paused_s(), self.wait_s(address)
            if paused > 0:
                raise SeatRefused(
                    429,
                    "Too many wrong join codes were tried, so joining is paused. "
                    f"Try again in {math.ceil(paused)} seconds, with the code the host says.",
                )
            if wait > 0:
                raise SeatRefused(
                    429, f"Too many wrong join codes from this phone. Try again in {math.ceil(wait)} seconds."
                )
            if not hmac.compare_digest(code.strip().encode(), self.code.encode()):
                self._count_wrong(address)
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

    def _count_wrong(self, address: str) -> None:
        """Count a wrong code against its address and against the budget of all; when the budget
        is spent, pause joining, lengthen the code, and tell `on_guessing` (module docstring)."""
        now = self.clock()
        wrong = self._wrong[address] = self._wrong.get(address, 0) + 1
        if wrong >= FREE_WRONG_CODES:
            self._wait_until[address] = now + min(MAX_WAIT_S, 2.0 ** (wrong - FREE_WRONG_CODES))
        lately = self._wrong_lately
        lately.append(now)
        while lately[0] <= now - 60.0:
            lately.popleft()
        if len(lately) < WRONG_CODES_PER_MINUTE:
            return
        lately.clear()
        self._paused_until = now + PAUSE_S
        digits = min(LONGEST_CODE, len(self.code) + LONGER_BY)
        changed = digits > len(self.code)
        if changed:
            self.code = new_code(digits)
        if self.on_guessing is not None:
            self.on_guessing(Guessing(WRONG_CODES_PER_MINUTE, PAUSE_S, self.code if changed else None))


@dataclass(frozen=True)
class Guessing:
    """Joining paused after `wrong` wrong codes within a minute, for `pause_s`; the new, longer
    code, or None when it is as long as codes get."""

    wrong: int
    pause_s: float
    new_code: str | None

    @property
    def spoken(self) -> str:
        paused = f"Someone has been guessing the join code, so joining is paused for {self.pause_s:g} seconds."
        if self.new_code is None:
            return paused
        return f"{paused} The join code is now longer: {' '.join(self.new_code)}."
