"""A prompt's grammar is a pure function of its context.

The accuracy benchmark knows a recorded utterance only by its prompt name and the
manifest's `context`, yet must build exactly the grammar a live game builds. So
every prompt of every scripted game (lab/scripted_games/cases.yaml: the same scripts, seeds and decks as
tests/test_play_*.py) must get back its live slot lists from
`host.games.grammar_slots(name, context)` after the context has been through JSON,
as a JSONL manifest stores it. The intents.md context examples must give slots
that let the matcher understand the examples' sentences.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from replay import load_cases, play_script

from host.contract import Ending
from host.games import grammar_slots
from voice.understanding.matcher import Matcher

CASES = load_cases()


def as_lists(value: Any) -> Any:
    """Tuples as lists, all the way down, so (text, value) pairs compare to [text, value]."""
    if isinstance(value, (list, tuple)):
        return [as_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: as_lists(item) for key, item in value.items()}
    return value


@pytest.mark.slow  # whole scripted games, one per case
@pytest.mark.parametrize("case", CASES, ids=[f"{c.script}-{c.deal or 'default'}-{len(c.teams)}" for c in CASES])
def test_every_scripted_prompt_gets_its_slots_back_from_its_context(case, tmp_path):
    transcript = play_script(case, tmp_path)
    assert transcript.outcome is Ending.OVER and not transcript.unused_lines
    prompts = [exchange.prompt for exchange in transcript.exchanges]
    assert [p for p in prompts if p.name.startswith(case.game + "/")]
    for prompt in prompts:
        stored = json.loads(json.dumps(prompt.context))  # what a JSONL manifest gives back
        assert as_lists(grammar_slots(prompt.name, stored)) == as_lists(prompt.slots), prompt.name


@pytest.mark.slow  # all the scripted games again
def test_every_game_prompt_with_live_lists_was_covered(tmp_path):
    """The scripts reach every prompt that has live lists, so the test above checks them all."""
    seen = set()
    for number, case in enumerate(CASES):
        folder = tmp_path / str(number)
        seen |= {e.prompt.name for e in play_script(case, folder).exchanges if e.prompt.slots}
    assert {
        "keep-it-100/choose_card",
        "keep-it-100/place",
        "keep-it-100/bet",
        "zero-to-100/choose_card",
        "zero-to-100/discard",
        "keep-cool/word",
        "one-percent/reward",
    } <= seen


# ---- the manifest-style examples of intents.md -----------------------------

MATCHER = Matcher()


def understood(prompt: str, context: dict[str, Any], heard: str) -> dict[str, Any] | None:
    """What the matcher makes of `heard` with the grammar built from `context` alone."""
    slots = grammar_slots(prompt, json.loads(json.dumps(context)))
    return MATCHER.match(prompt, heard, slots).intent


def test_place_between_two_numbers_of_the_lines():
    context = {"lines": [[12, 42, 60], [5, 80]]}
    assert [value for _, value in grammar_slots("keep-it-100/place", context)["table_number"]] == [5, 12, 42, 60, 80]
    intent = understood("keep-it-100/place", context, "between 42 and 60")
    assert intent is not None
    assert {k: intent[k] for k in ("intent", "after", "before")} == {"intent": "place", "after": 42, "before": 60}
    assert intent.get("line") in (None, 1)
    above = understood("keep-it-100/place", context, "above 80 on line two")
    assert above is not None and (above["after"], above["line"]) == (80, 2)


def test_bet_up_to_the_players_points():
    intent = understood("keep-it-100/bet", {"max": 120}, "bet thirty")
    assert intent == {"intent": "bet", "amount": 30}
    assert ("all in", 120) in grammar_slots("keep-it-100/bet", {"max": 120})["bet_all"]


def test_choose_a_question_card_by_a_word_from_it():
    context = {
        "hand": ["How many people out of 100 have eaten pizza for breakfast?", "How many people out of 100 can swim?"]
    }
    assert understood("keep-it-100/choose_card", context, "the pizza one") == {"intent": "choose_card", "card": 1}
    assert understood("keep-it-100/choose_card", context, "the second one") == {"intent": "choose_card", "card": 2}


def test_zero_to_100_choose_a_card_with_powers():
    context = {
        "hand": ["How many keys does a standard piano have?", "How many minutes does a large pizza take to bake?"],
        "powers": ["50", "20", "spot_on"],
    }
    intent = understood("zero-to-100/choose_card", context, "the piano one with spot on")
    assert intent is not None
    assert (intent["intent"], intent["card"], intent["powers"]) == ("choose_card", 1, ["spot_on"])
    intent = understood("zero-to-100/choose_card", context, "card two")
    assert intent is not None and (intent["card"], intent.get("powers", [])) == (2, [])


def test_one_percent_bid_over_the_last_one():
    context = {"last": {"count": 11, "family": "star"}}
    assert grammar_slots("one-percent/bid", context) == {}
    assert understood("one-percent/bid", context, "twelve clovers") == {
        "intent": "bid",
        "count": 12,
        "family": "clover",
    }
    assert understood("one-percent/bid", context, "that's false") == {"intent": "challenge"}


def test_one_percent_reward_steals_from_an_opponent():
    context = {"revealed": [6, "steal", 3], "opponents": ["Ana", "Ben"]}
    assert grammar_slots("one-percent/reward", context) == {"player": [("Ana", "Ana"), ("Ben", "Ben")]}
    intent = understood("one-percent/reward", context, "steal from Ben")
    assert intent is not None and intent.get("from") == "Ben"


def test_keep_cool_word_in_play_and_a_clue():
    context = {"words": ["piano", "river"]}
    assert understood("keep-cool/word", context, "piano") == {"intent": "word", "word": "piano"}
    clue = understood("keep-cool/word", context, "banana")
    assert clue is not None and clue["intent"] == "word" and clue["word"] is None


@pytest.mark.parametrize(
    "said, owner",
    [
        ("that's one of Ben's", "Ben"),
        ("one of Ben's words", "Ben"),
        ("got it, that's Ben's", "Ben"),
        ("yes, it's Cy's card", "Cy"),
        ("that's Ben's", "Ben"),
        ("got it, that's mine", None),
    ],
)
def test_keep_cool_claims_as_people_say_them_name_the_owner(said, owner):
    """The short ways a table claims a card (issue 56): "that's one of Ben's" and "got it,
    that's Ben's" were no phrase of the turn, so by voice they were clues asked again."""
    context = {"words": [], "roster": ["Ana", "Ben", "Cy"]}  # a table deal: no words known
    assert understood("keep-cool/word", context, said) == {"intent": "hit", **({"owner": owner} if owner else {})}


def test_centurion_play_card_needs_no_live_lists():
    context = {"count": 37}
    assert grammar_slots("centurion/play_card", context) == {}
    assert understood("centurion/play_card", context, "queen of hearts") == {
        "intent": "play_card",
        "rank": 12,
        "suit": "hearts",
    }


def test_common_prompts_have_no_lists_but_the_roster():
    assert grammar_slots("common/yes_no", {}) == {}
    context = {"roster": ["Ana", "Ben"]}
    assert understood("common/name", context, "it's Ben") == {"intent": "name", "name": "Ben"}


def test_unknown_game_is_refused():
    with pytest.raises(KeyError):
        grammar_slots("snap/play", {})
