"""The game as played so far: its state, the moves taken, and the journal that keeps them.

Every change of the state goes through here, journal first, so a crash between saving a
move and saying it loses nothing; and everyone following the game (the phone pages) is
told of each new state. The session decides what to do; this only does it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from .contract import Intent, Understood
from .decks import Decks
from .engine import REDRAW, Action, Event, Game, GameOptions, RuleError, apply_move, crosses_reveal, redraw_seed
from .journal import Journal


@dataclass
class SessionInfo:
    """What identifies a journaled session and its question-memory group."""

    id: str
    group: str


@dataclass(frozen=True)
class LastMove:
    """The last move a player made (redraws are the journal's own), as undo sees it."""

    position: int
    """Its place among the moves taken."""
    action: Action
    before: Any
    """The state before it."""
    revealed: bool
    """It showed something hidden (host.engine.crosses_reveal)."""
    events: list[Event]
    """What it made the host say and do."""
    heard: Understood | None
    """The reply it was taken from, while this process remembers it (None: typed or
    chosen step by step, or resumed since): a correction of it is weighed against it."""


class Play:
    """One game's state and moves, kept in its journal."""

    def __init__(
        self,
        game: Game[Any],
        options: GameOptions,
        decks: Decks,
        journal: Journal,
        info: SessionInfo,
        clock: Callable[[], float],
        watchers: Iterable[Callable[[Any], None]] = (),
    ):
        self.game, self.options, self.decks = game, options, decks
        self.journal, self.info, self.clock = journal, info, clock
        self.state: Any = None
        self.actions: list[Action] = []
        self.watchers: list[Callable[[Any], None]] = list(watchers)
        """Called with the new state whenever it changes (the phone pages follow it)."""
        self._heard: tuple[int, Understood] | None = None
        """The last move's place among the moves and the reply it was taken from."""

    def start(self) -> list[Event]:
        """A new game: the deal, and what it says."""
        self.state, events = self.game.setup(self.options, self.decks)
        self._changed()
        return events

    def restore(self, actions: list[Action]) -> list[Event]:
        """A resumed game, replayed silently; the events of its last move (its ending, if
        the crash came between saving that move and saying it)."""
        self.actions = list(actions)
        self.state = self.replay(self.actions[:-1])
        last: list[Event] = []
        if self.actions:
            self.state, last = apply_move(self.game, self.state, self.actions[-1])  # a redraw too
        self._changed()
        return last

    def replay(self, actions: list[Action]) -> Any:
        """The state after `actions` from the deal (the state now stays as it is)."""
        state, _ = self.game.setup(self.options, self.decks)
        for action in actions:
            state, _ = apply_move(self.game, state, action)
        return state

    def tried(self, intent: Intent, player: str | None, state: Any = None) -> tuple[Any, list[Event]] | RuleError:
        """What the rules would do with the move now, or in `state` (which stays as it is)."""
        try:
            return self.game.apply(self.state if state is None else state, _action(intent, player))
        except RuleError as error:
            return error

    def take(self, intent: Intent, player: str | None, state: Any, heard: Understood | None = None) -> None:
        """A move the rules took (`tried`): journaled first, then the game goes on from
        `state`. `heard`: the reply it was taken from, kept for a correction of it."""
        action = _action(intent, player)
        self.journal.append(self.info.id, "action", action, self.clock())
        self.actions.append(action)
        self._heard = (len(self.actions) - 1, heard) if heard is not None else None
        self.state = state
        self._changed()

    def correct(self, last: LastMove, intent: Intent) -> None:
        """`last` as its player said it, `intent`, where the host misheard it: journaled as
        a correction first, then the game goes on as if it had been taken so (the redraws
        after it replayed too). Its player stays the same."""
        action = _action(intent, last.action.get("player"))
        self.journal.append(self.info.id, "correction", action, self.clock())
        self.actions[last.position] = action
        self._heard = None
        self.state = self.replay(self.actions)
        self._changed()

    def last_move(self) -> LastMove | None:
        """The last move made, with the state before it; None before any."""
        moves = [n for n, action in enumerate(self.actions) if action.get("intent") != REDRAW]
        if not moves:
            return None
        position = moves[-1]
        before = self.replay(self.actions[:position])
        _, events = apply_move(self.game, before, self.actions[position])
        heard = self._heard[1] if self._heard is not None and self._heard[0] == position else None
        return LastMove(position, self.actions[position], before, crosses_reveal(events), events, heard)

    def events_so_far(self) -> list[Event]:
        """The events that led to the question asked now: the last move's, the deal's before any."""
        last = self.last_move()
        return last.events if last is not None else self.game.setup(self.options, self.decks)[1]

    def take_back(self, last: LastMove) -> None:
        """Undo `last` (and any redraw after it) in the journal. Where something drawn since
        has been seen, the game's randomness is drawn afresh, so it does not come again."""
        dropped = self.actions[last.position :]
        for _ in dropped:
            position = self.journal.append(self.info.id, "undo", None, self.clock())
        del self.actions[last.position :]
        self._heard = None
        self.state = last.before
        if last.revealed or len(dropped) > 1:
            redraw: Action = {"intent": REDRAW, "seed": redraw_seed(self.options.seed, position)}
            self.journal.append(self.info.id, "redraw", redraw, self.clock())
            self.actions.append(redraw)
            self.state, _ = apply_move(self.game, self.state, redraw)
        self._changed()

    def over(self) -> None:
        self.journal.set_status(self.info.id, "over")

    def _changed(self) -> None:
        for watch in self.watchers:
            watch(self.state)


def _action(intent: Intent, player: str | None) -> Action:
    """The move as the rules and the journal take it. The ears build intents from the
    grammar as plain dicts; their keys are Intent's."""
    return cast(Action, {**intent, "player": player})
