"""What a player's own phone page shows of a game: their cards, the numbers they may
enter, and the moves a button sends. Engines build these (Game.hand_view); the phone
pages (partyhost/phones/) render them. Values only, so host/ knows nothing of the web.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.contract import Intent


@dataclass(frozen=True)
class CardView:
    """One card on its holder's phone page.

    play is the intent a button on the card sends when the card can be acted on
    right now by its holder (swap it, play it), else None; play_label names that
    button for a screen reader ("Play the queen of hearts").
    """

    label: str  # "piano", "queen of hearts", "clover 4"
    detail: str = ""  # "card 1", "worth 36"
    play: Intent | None = None
    play_label: str = ""


@dataclass(frozen=True)
class NumberEntry:
    """A number typed on the player's own page, sent as `intent` with `slot` = the number:
    a tiebreak guess no one else hears before the host reveals them all together."""

    label: str  # "Your tiebreak number"
    intent: Intent  # {"intent": "number"}
    slot: str  # "value"
    low: int = 0
    high: int = 100


@dataclass(frozen=True)
class HandView:
    """What one player's private page shows: their own cards and nothing secret of anyone else.

    A pure function of the state, so after a restart the replayed state gives every
    player the same page again. spoken is what the page's "Read me my cards" button
    reads aloud on the phone; facts are short lines about the hand (who guesses your
    words, cards won); actions are extra buttons (label, intent) valid right now;
    markable lets the player mark cards on the page (Keep Cool: "I am cluing this"),
    which stays on the page and never reaches the game.
    """

    heading: str
    cards: tuple[CardView, ...]
    spoken: str
    facts: tuple[str, ...] = ()
    actions: tuple[tuple[str, Intent], ...] = ()
    markable: bool = False
    number: NumberEntry | None = None
