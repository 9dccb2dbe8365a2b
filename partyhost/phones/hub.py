"""Between the session and the phone pages: each seat's current page, and what the pages ask for.

The session thread writes (a new state, a private message); the web server's thread
reads and listens. Every seat has its own page and nothing is shared between seats,
so a bug in one page's handling cannot show another player's cards. A page button
never carries an intent: it names an action by number in the page version it saw,
and the hub turns that into the intent only while that version is still current.
Accepted button presses go into `inbox`, the queue PhoneEars reads beside the
microphone or keyboard, so they reach the game by the same path as speech.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from host.views import HandView

MESSAGES_KEPT = 12


@dataclass(frozen=True)
class PageAction:
    """A button pressed on `player`'s page, for the page version it was shown in."""

    player: str
    version: int
    intent: dict[str, Any]
    label: str


@dataclass
class SeatPage:
    """One seat's page as it stands, and the intents of its buttons."""

    view: dict[str, Any] | None = None
    version: int = 0
    intents: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    marks: set[str] = field(default_factory=set)
    over: bool = False


class PageRefused(Exception):
    """A page request that cannot be done now; `reason` is shown and announced on the page."""


def page_json(view: HandView | None) -> tuple[dict[str, Any] | None, list[tuple[str, dict[str, Any]]]]:
    """A HandView as the page's JSON, with each button's intent kept back on the server."""
    if view is None:
        return None, []
    intents: list[tuple[str, dict[str, Any]]] = []
    cards = []
    for card in view.cards:
        action = None
        if card.play is not None:
            action = len(intents)
            intents.append((card.play_label or card.label, dict(card.play)))
        cards.append({"label": card.label, "detail": card.detail, "action": action, "action_label": card.play_label})
    actions = []
    for label, intent in view.actions:
        actions.append({"label": label, "action": len(intents)})
        intents.append((label, dict(intent)))
    number = None
    if view.number is not None:
        entry = view.number
        number = {"label": entry.label, "low": entry.low, "high": entry.high, "action": len(intents)}
        intents.append((entry.label, {**entry.intent, NUMBER_SLOT: (entry.slot, entry.low, entry.high)}))
    data = asdict(view)
    data.update(cards=cards, actions=actions, facts=list(view.facts), number=number)
    return data, intents


NUMBER_SLOT = "_number"
"""Kept back on the server in a number entry's intent: (slot, low, high) the typed value fills."""


def _with_number(intent: dict[str, Any], value: Any) -> dict[str, Any]:
    """A number entry's intent with the typed value in its slot; PageRefused when it can't be."""
    if NUMBER_SLOT not in intent:
        return intent
    slot, low, high = intent[NUMBER_SLOT]
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise PageRefused(f"Enter a whole number from {low} to {high}.")
    return {**{k: v for k, v in intent.items() if k != NUMBER_SLOT}, slot: value}


class PhoneHub:
    """The pages of one game's seats."""

    def __init__(self, title: str, players: list[str], hand_view: Callable[[Any, str], HandView | None]):
        self.title, self.players, self.hand_view = title, list(players), hand_view
        self.pages = {p: SeatPage() for p in players}
        self.inbox: queue.Queue = queue.Queue()
        self._listeners: dict[str, list[Callable[[], None]]] = {p: [] for p in players}
        self._lock = threading.Lock()
        self._message_seq = 0
        self._announcements: list[str] = []

    # ---- from the session -------------------------------------------------

    def update(self, state: Any) -> None:
        """The game changed: recompute every seat's page; tell the pages that changed."""
        changed = []
        for player in self.players:
            view, intents = page_json(self.hand_view(state, player))
            with self._lock:
                page = self.pages[player]
                if view != page.view:
                    page.view, page.intents = view, intents
                    page.version += 1
                    labels = {c["label"] for c in (view or {}).get("cards", [])}
                    page.marks &= labels
                    changed.append(player)
        for player in changed:
            self._notify(player)

    def message(self, player: str, text: str) -> None:
        """A private line for one player (what text mode prints as "[to Ana only] ...")."""
        if player not in self.pages:
            return
        with self._lock:
            self._message_seq += 1
            page = self.pages[player]
            page.messages = (page.messages + [{"n": self._message_seq, "text": text}])[-MESSAGES_KEPT:]
        self._notify(player)

    def end(self) -> None:
        """The game is over or the host is stopping: every page says so."""
        with self._lock:
            for page in self.pages.values():
                page.over = True
        for player in self.players:
            self._notify(player)

    def announcements(self) -> list[str]:
        """What the server asked the host to say at the table, taken (said before its next words)."""
        with self._lock:
            taken, self._announcements = self._announcements, []
        return taken

    # ---- from the pages ---------------------------------------------------

    def announce(self, text: str) -> None:
        """Something for the whole table to hear (joining paused): the host says it next time it speaks."""
        with self._lock:
            self._announcements.append(text)

    def snapshot(self, player: str) -> dict[str, Any]:
        """Everything `player`'s page shows, and nothing about any other seat."""
        with self._lock:
            page = self.pages[player]
            view = dict(page.view) if page.view else None
            if view is not None:
                view["cards"] = [{**c, "marked": c["label"] in page.marks} for c in view["cards"]]
            return {
                "player": player,
                "game": self.title,
                "version": page.version,
                "view": view,
                "messages": list(page.messages),
                "over": page.over,
            }

    def press(self, player: str, version: int, action: int, value: Any = None) -> str:
        """Queue button `action` of page `version` for the session (with the typed `value`
        of a number entry); the label, or PageRefused."""
        with self._lock:
            page = self.pages[player]
            if page.over:
                raise PageRefused("The game has ended.")
            if version != page.version:
                raise PageRefused("Your cards changed just before that; look again and choose.")
            if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < len(page.intents):
                raise PageRefused("That choice is not available now.")
            label, intent = page.intents[action]
            intent = _with_number(intent, value)
        self.inbox.put(PageAction(player, version, intent, label))
        return label

    def still_current(self, pressed: PageAction) -> bool:
        with self._lock:
            page = self.pages[pressed.player]
            return not page.over and page.version == pressed.version

    def mark(self, player: str, label: str, on: bool) -> None:
        """Keep Cool: mark a word as the one you are cluing (for your own eyes only)."""
        with self._lock:
            page = self.pages[player]
            view = page.view or {}
            if not view.get("markable") or label not in {c["label"] for c in view.get("cards", [])}:
                raise PageRefused("That word cannot be marked now.")
            if on:
                page.marks.add(label)
            else:
                page.marks.discard(label)
        self._notify(player)

    def listen(self, player: str, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` (from any thread) whenever `player`'s page changes; returns stop()."""
        with self._lock:
            self._listeners[player].append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._listeners[player]:
                    self._listeners[player].remove(callback)

        return stop

    def _notify(self, player: str) -> None:
        with self._lock:
            callbacks = list(self._listeners[player])
        for callback in callbacks:
            callback()
