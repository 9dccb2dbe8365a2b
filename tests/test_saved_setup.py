"""The saved setup (partyhost/saved.py SavedSetup): written and read back whole, an old one
read with the defaults of what it lacks, and a broken one refused with the field it lacks."""

from __future__ import annotations

import pytest

from host.engine import GameOptions
from partyhost.saved import Pins, SavedSetup, Unresumable

OPTIONS = GameOptions(players=("Ana", "Ben"), mode="pvp", deal="host", seed=7, rules={"rounds": 3})


def test_a_setup_reads_back_as_it_was_written():
    setup = SavedSetup(
        OPTIONS,
        question_decks=("/decks/q.yaml",),
        card_deck="/decks/cards.yaml",
        used_questions=("q1", "q2"),
        group="ana,ben",
        io={"input": "mic"},
        pins=Pins("abc", {"rounds": 5}, "1.0"),
        events="events/x.jsonl",
    )
    assert SavedSetup.from_dict(setup.to_dict()) == setup


def test_a_setup_saved_before_a_field_existed_takes_its_default():
    old = {"options": {"players": ["Ana"], "mode": "solo", "deal": "host", "seed": 1}}
    assert SavedSetup.from_dict(old) == SavedSetup(GameOptions(players=("Ana",), mode="solo", deal="host", seed=1))


@pytest.mark.parametrize(
    ("broken", "reason"),
    [
        ({"options": None}, "its options are missing"),
        ({"options": {"players": [], "mode": "m", "deal": "d", "seed": 1}}, "its setup has no usable players"),
        ({"options": {"players": ["Ana"], "mode": "m", "deal": "d", "seed": True}}, "its setup has no usable seed"),
        ({"word_decks": "words.yaml"}, "its setup has no usable word_decks"),
        ({"card_deck": 3}, "its setup has no usable card_deck"),
        ({"events": ["x"]}, "its setup has no usable events path"),
    ],
)
def test_a_broken_setup_is_refused_with_the_field_that_is_wrong(broken, reason):
    good = SavedSetup(OPTIONS).to_dict()
    with pytest.raises(Unresumable, match=f"^{reason}$"):
        SavedSetup.from_dict({**good, **broken})


def test_pins_and_io_not_of_their_kind_count_as_not_kept():
    setup = SavedSetup.from_dict({**SavedSetup(OPTIONS).to_dict(), "pins": "x", "io": [1]})
    assert (setup.pins, setup.io) == (Pins(), {})
    assert Pins.from_dict({"grammar": 5, "rule_defaults": [], "partyhost": "2.0"}) == Pins(partyhost="2.0")


def test_the_event_log_of_a_setup_that_does_not_read_is_still_found():
    assert SavedSetup.events_of({"options": 5, "events": "events/x.jsonl"}) == "events/x.jsonl"
    assert SavedSetup.events_of({"events": 5}) == ""
