"""Undo never takes back a move that showed something hidden (docs/rules.md, "In every game").

Each game is played through the real Session, matcher and engine with typed lines:
a move that turned a card over, rolled dice, showed the host's card or dealt a card
is refused with the reason, and changes nothing; moves before any reveal can still
be taken back; and with the setting undo_after_reveal the table may agree to it.
"""
from __future__ import annotations

from pathlib import Path

from host.session import UNDO_ASK, UNDO_REFUSED
from replay import play_lines as play

REPO = Path(__file__).resolve().parents[1]


def refused(mouth) -> bool:
    return UNDO_REFUSED in mouth.said and "wrong" in mouth.sounds and not undone(mouth)


def undone(mouth) -> bool:
    return any(text.startswith("Undone.") for text in mouth.said)


KEEP_IT_100 = dict(players=("Ana", "Ben"), seed=7, rules={"hand_size": 2},
                   deck="tests/data/questions-starter.csv")
TO_THE_REVEAL = ["card 1", "at the end of line one", "right"]


def test_keep_it_100_an_answer_once_shown_stays(tmp_path):
    """"17! Wrong spot", undo, predict again: refused, with the reason."""
    session, mouth, actions = play(tmp_path, "keep-it-100", TO_THE_REVEAL + ["undo"], **KEEP_IT_100)
    assert refused(mouth)
    assert [a["intent"] for a in actions] == ["choose_card", "place", "predict"]
    assert session.state.turn.slider == "Ben"            # the game went on past the reveal


def test_keep_it_100_a_move_before_the_reveal_can_still_be_undone(tmp_path):
    session, mouth, actions = play(tmp_path, "keep-it-100", TO_THE_REVEAL[:2] + ["undo"], **KEEP_IT_100)
    assert undone(mouth) and [a["intent"] for a in actions] == ["choose_card"]


def test_with_the_setting_on_the_table_may_agree_to_take_it_back(tmp_path):
    session, mouth, actions = play(tmp_path, "keep-it-100", TO_THE_REVEAL + ["undo", "yes"],
                                   undo_after_reveal=True, **KEEP_IT_100)
    assert UNDO_ASK in mouth.said and undone(mouth)
    assert [a["intent"] for a in actions] == ["choose_card", "place"]
    session, mouth, actions = play(tmp_path / "no", "keep-it-100", TO_THE_REVEAL + ["undo", "no"],
                                   undo_after_reveal=True, **KEEP_IT_100)
    assert "Okay, it stands." in mouth.said and not undone(mouth) and len(actions) == 3


def test_zero_to_100_no_card_is_picked_again_after_the_reveal(tmp_path):
    session, mouth, actions = play(tmp_path, "zero-to-100", ["card 1", "card 2", "undo"],
                                   players=("Ana", "Ben"), seed=7, rules={"hand_size": 3},
                                   deck="tests/data/zero-to-100-test.csv")
    assert "drumroll" in mouth.sounds                   # the reveal
    assert refused(mouth) and len(actions) == 2


def test_one_percent_a_roll_stays_rolled(tmp_path):
    session, mouth, actions = play(tmp_path, "one-percent", ["7 and 3", "undo"], players=("Ana", "Ben"),
                                   seed=3, rules={"dice": "table"})
    assert refused(mouth) and actions == [{"intent": "dice", "values": [7, 3], "player": "Ana"}]


def test_centurion_the_hosts_card_once_shown_stays(tmp_path):
    session, mouth, actions = play(tmp_path, "centurion", ["read my cards"], players=("Ana",), mode="vs-host",
                                   seed=2)
    card = next(text for text in mouth.said if text.startswith("Your cards:")).split(": ")[1].split(" ")
    first = " ".join(card[:3])                            # "king of spades"
    session, mouth, actions = play(tmp_path / "game", "centurion", [first, "undo"], players=("Ana",),
                                   mode="vs-host", seed=2)
    assert any(text.startswith("I play the") for text in mouth.said)
    assert refused(mouth) and len(actions) == 1


def test_centurion_between_two_people_a_card_laid_can_be_taken_back(tmp_path):
    """A card its holder laid face up taught the mover nothing: a misheard card is undone."""
    session, mouth, actions = play(tmp_path, "centurion", ["read my cards"], players=("Ana", "Ben"), seed=7)
    leader = session.game.prompt(session.state).player
    seat = session.state.players.index(leader)
    card = session.game.card_name(session.state.hands[seat][0], session.state.pack)
    session, mouth, actions = play(tmp_path / "game", "centurion", [card, "undo"], players=("Ana", "Ben"), seed=7)
    assert undone(mouth) and actions == []


def test_keep_cool_a_card_drawn_in_a_swap_stays_drawn(tmp_path):
    session, mouth, actions = play(tmp_path, "keep-cool", ["card 2", "undo"], players=("Ana", "Ben", "Cy"),
                                   seed=7, rules={"face": "red", "line": 1},
                                   deck="tests/data/keep-cool-test.csv")
    assert any(text.startswith("[Ana] New card 2.") for text in mouth.said)
    assert refused(mouth) and len(actions) == 1


def test_the_setting_reaches_the_game_from_config_toml(tmp_path):
    """config.toml's undo_after_reveal, through `partyhost play` as a player types it."""
    import os
    import subprocess
    import sys
    config = tmp_path / "config.toml"
    config.write_text("undo_after_reveal = true\n", encoding="utf-8")
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": str(config)}
    result = subprocess.run([sys.executable, "-m", "partyhost", "play", "one-percent", "--players", "Ana,Ben",
                             "--seed", "3", "--rules", "dice=table", "--input", "text", "--output", "text"],
                            cwd=REPO, env=env, input="7 and 3\nundo\nyes\n", capture_output=True, text=True,
                            timeout=120)
    assert UNDO_ASK in result.stdout and "HOST: Undone." in result.stdout, result.stdout[-1500:]
