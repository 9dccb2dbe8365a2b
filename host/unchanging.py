"""The mark of a value no move changes, which a game state's deep copy shares.

Below host.decks and host.engine both: the decks' cards and questions carry the mark,
and the engine's `evolve` copies states that hold them.
"""

from __future__ import annotations

from typing import Any


class Unchanging:
    """A value no move changes (a card, a question, a bid, a deck): a state's deep copy
    shares it instead of rebuilding it field by field, which keeps `evolve` fast.
    Only for frozen values whose fields are immutable too."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self
