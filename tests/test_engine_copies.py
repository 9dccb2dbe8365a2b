"""Every engine is pure: `apply` leaves its input state as it was, through whole games.

A state's deep copy shares the values marked host.unchanging.Unchanging (cards, questions,
bids, decks) and copies the generator through its state (host.engine.GameRandom). If a
value that a move changes were ever marked Unchanging, the move would change the state
it was given too: each scripted game is replayed here move by move, and the state given
to `apply` is compared, as pickled bytes, before and after.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from replay import load_cases, play_script

from host.engine import GameRandom, new_rng
from host.games import get_game
from host.journal import Journal
from host.unchanging import Unchanging

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.script for case in CASES])
def test_apply_never_changes_the_state_it_is_given(case, tmp_path):
    play_script(case, tmp_path)
    journal = Journal(tmp_path / "db.sqlite3")
    [record] = journal.sessions()
    actions = journal.accepted_actions(record.id)
    journal.close()
    assert actions, "the script made no move"
    game = get_game(case.game)
    state, _ = game.setup(case.options(), case.decks())
    for action in actions:
        before = pickle.dumps(state)
        after, _ = game.apply(state, action)
        assert pickle.dumps(state) == before, action
        assert after is not state
        state = after


def test_the_generator_is_copied_to_the_same_point_and_then_goes_its_own_way():
    rng = new_rng(7)
    rng.random()
    clone = copy.deepcopy(rng)
    assert isinstance(clone, GameRandom) and clone is not rng
    assert [clone.random() for _ in range(5)] == [rng.random() for _ in range(5)]
    clone.random()
    assert clone.getstate() != rng.getstate()


def test_an_unchanging_value_is_shared_by_a_deep_copy_and_anything_else_is_copied():
    class Card(Unchanging):
        pass

    card = Card()
    state = {"hand": [card], "rng": new_rng(1)}
    clone = copy.deepcopy(state)
    assert clone["hand"][0] is card and clone["hand"] is not state["hand"]
    assert clone["rng"] is not state["rng"]
