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
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from host.contract import Intent
from host.views import HandView

MESSAGES_KEPT = 12


@dataclass(frozen=True)
class PageAction:
    """A button pressed on `player`'s page, for the page version it was shown in."""

    player: str
    version: int
    intent: Intent
    label: str


class PageCard(TypedDict):
    """One card on a page: `action` is the number of its button, if it has one."""

    label: str
    detail: str
    action: int | None
    action_label: str


class ShownCard(PageCard, total=False):
    marked: bool  # the player marked it (Keep Cool: "I am cluing this"), added when the page is sent


class PageButton(TypedDict):
    label: str
    action: int


class PageNumber(TypedDict):
    """A number entry: the typed number is sent with button `action`."""

    label: str
    low: int
    high: int
    action: int


class PageView(TypedDict):
    """A HandView as the page's JSON: each button an action number, never its intent."""

    heading: str
    cards: list[ShownCard]
    spoken: str
    facts: list[str]
    actions: list[PageButton]
    markable: bool
    number: PageNumber | None


class PageMessage(TypedDict):
    n: int  # counts up over the game, so the page shows each message once
    text: str


class PageSnapshot(TypedDict):
    """Everything one seat's page shows, as the server sends it."""

    player: str
    game: str
    version: int
    view: PageView | None
    messages: list[PageMessage]
    over: bool


@dataclass(frozen=True)
class NumberSlot:
    """A number entry's button, kept back on the server: the slot of its intent the typed
    value fills, and the range it must be in."""

    slot: str
    low: int
    high: int


Button = tuple[str, Intent, NumberSlot | None]
"""A page button as the server keeps it: its label, its intent, and the number it takes, if any."""


@dataclass
class SeatPage:
    """One seat's page as it stands, and the intents of its buttons."""

    view: PageView | None = None
    version: int = 0
    intents: list[Button] = field(default_factory=list)
    messages: list[PageMessage] = field(default_factory=list)
    marks: set[str] = field(default_factory=set)
    over: bool = False


class PageRefused(Exception):
    """A page request that cannot be done now; `reason` is shown and announced on the page."""


def page_json(view: HandView | None) -> tuple[PageView | None, list[Button]]:
    """A HandView as the page's JSON, with each button's intent kept back on the server."""
    if view is None:
        return None, []
    intents: list[Button] = []
    cards: list[ShownCard] = []
    for card in view.cards:
        action = None
        if card.play is not None:
            action = len(intents)
            intents.append((card.play_label or card.label, card.play.copy(), None))
        cards.append({"label": card.label, "detail": card.detail, "action": action, "action_label": card.play_label})
    actions: list[PageButton] = []
    for label, intent in view.actions:
        actions.append({"label": label, "action": len(intents)})
        intents.append((label, intent.copy(), None))
    number: PageNumber | None = None
    if view.number is not None:
        entry = view.number
        number = {"label": entry.label, "low": entry.low, "high": entry.high, "action": len(intents)}
        intents.append((entry.label, entry.intent.copy(), NumberSlot(entry.slot, entry.low, entry.high)))
    data: PageView = {
        "heading": view.heading,
        "cards": cards,
        "spoken": view.spoken,
        "facts": list(view.facts),
        "actions": actions,
        "markable": view.markable,
        "number": number,
    }
    return data, intents


def _with_number(intent: Intent, number: NumberSlot | None, value: object) -> Intent:
    """A number entry's intent with the typed value in its slot; PageRefused when it can't be."""
    if number is None:
        return intent
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not number.low <= value <= number.high:
        raise PageRefused(f"Enter a whole number from {number.low} to {number.high}.")
    filled = intent.copy()
    cast(MutableMapping[str, object], filled)[number.slot] = value  # NumberEntry.slot: one of Intent's keys
    return filled


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
                    labels = {c["label"] for c in view["cards"]} if view else set()
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

    def snapshot(self, player: str) -> PageSnapshot:
        """Everything `player`'s page shows, and nothing about any other seat."""
        with self._lock:
            page = self.pages[player]
            view = page.view.copy() if page.view else None
            if view is not None:
                view["cards"] = [c | {"marked": c["label"] in page.marks} for c in view["cards"]]
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
            label, intent, number = page.intents[action]
            intent = _with_number(intent, number, value)
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
            view = page.view
            if view is None or not view["markable"] or label not in {c["label"] for c in view["cards"]}:
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
