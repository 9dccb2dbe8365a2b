"""Undo never takes back a move that showed something hidden (docs/rules.md, "In every game").

Each game is played through the real Session, matcher and engine with typed lines:
a move that turned a card over, rolled dice, showed the host's card or dealt a card
is refused with the reason, and changes nothing; moves before any reveal can still
be taken back; and with the setting undo_after_reveal the table may agree to it.
"""

from __future__ import annotations

from pathlib import Path

from replay import play_lines as play

from host.common_commands import UNDO_ASK, UNDO_REFUSED, UNDO_STANDS, undo_consent_question
from host.games import centurion

REPO = Path(__file__).resolve().parents[1]


def refused(mouth) -> bool:
    return UNDO_REFUSED in mouth.said and "wrong" in mouth.sounds and not undone(mouth)


def undone(mouth) -> bool:
    return any(text.startswith("Undone.") for text in mouth.said)


def undos(mouth) -> int:
    return sum(text.startswith("Undone.") for text in mouth.said)


KEEP_IT_100 = dict(
    players=("Ana", "Ben"), seed=7, rules={"hand_size": 2}, deck="lab/scripted_games/decks/questions-starter.csv"
)
TO_THE_REVEAL = ["card 1", "at the end of line one", "right"]


def test_keep_it_100_an_answer_once_shown_stays(tmp_path):
    """ "17! Wrong spot", undo, predict again: refused, with the reason."""
    session, mouth, actions = play(tmp_path, "keep-it-100", TO_THE_REVEAL + ["undo"], **KEEP_IT_100)
    assert refused(mouth)
    assert [a["intent"] for a in actions] == ["choose_card", "place", "predict"]
    assert session.state.turn.slider == "Ben"  # the game went on past the reveal


def test_keep_it_100_a_move_before_the_reveal_can_still_be_undone(tmp_path):
    """Ben (asked to predict) takes back Ana's placing: Ana agrees, so it is undone."""
    session, mouth, actions = play(tmp_path, "keep-it-100", TO_THE_REVEAL[:2] + ["undo", "yes"], **KEEP_IT_100)
    assert undo_consent_question("Ana") in mouth.said
    assert undone(mouth) and [a["intent"] for a in actions] == ["choose_card"]


def test_with_the_setting_on_the_table_may_agree_to_take_it_back(tmp_path):
    session, mouth, actions = play(
        tmp_path, "keep-it-100", TO_THE_REVEAL + ["undo", "yes"], undo_after_reveal=True, **KEEP_IT_100
    )
    assert UNDO_ASK in mouth.said and undone(mouth)
    assert [a["intent"] for a in actions] == ["choose_card", "place", "redraw"]  # drawn afresh
    session, mouth, actions = play(
        tmp_path / "no", "keep-it-100", TO_THE_REVEAL + ["undo", "no"], undo_after_reveal=True, **KEEP_IT_100
    )
    assert UNDO_STANDS in mouth.said and not undone(mouth) and len(actions) == 3


def test_zero_to_100_no_card_is_picked_again_after_the_reveal(tmp_path):
    session, mouth, actions = play(
        tmp_path,
        "zero-to-100",
        ["card 1", "card 2", "undo"],
        players=("Ana", "Ben"),
        seed=7,
        rules={"hand_size": 3},
        deck="lab/scripted_games/decks/zero-to-100-test.csv",
    )
    assert "drumroll" in mouth.sounds  # the reveal
    assert refused(mouth) and len(actions) == 2


def test_one_percent_a_roll_stays_rolled(tmp_path):
    session, mouth, actions = play(
        tmp_path, "one-percent", ["7 and 3", "undo"], players=("Ana", "Ben"), seed=3, rules={"dice": "table"}
    )
    assert refused(mouth) and actions == [{"intent": "dice", "values": [7, 3], "player": "Ana"}]


def test_centurion_the_hosts_card_once_shown_stays(tmp_path):
    session, mouth, actions = play(tmp_path, "centurion", ["read my cards"], players=("Ana",), mode="vs-host", seed=2)
    card = next(text for text in mouth.said if text.startswith("Your cards:")).split(": ")[1].split(" ")
    first = " ".join(card[:3])  # "king of spades"
    session, mouth, actions = play(
        tmp_path / "game", "centurion", [first, "undo"], players=("Ana",), mode="vs-host", seed=2
    )
    assert any(text.startswith("I play the") for text in mouth.said)
    assert refused(mouth) and len(actions) == 1


def test_centurion_between_two_people_a_card_laid_can_be_taken_back(tmp_path):
    """A card its holder laid face up taught the mover nothing: a misheard card is undone."""
    session, mouth, actions = play(tmp_path, "centurion", ["read my cards"], players=("Ana", "Ben"), seed=7)
    leader = session.game.prompt(session.state).player
    seat = session.state.players.index(leader)
    card = centurion.card_name(session.state.hands[seat][0], session.state.pack)
    session, mouth, actions = play(
        tmp_path / "game", "centurion", [card, "undo", "yes"], players=("Ana", "Ben"), seed=7
    )
    assert undo_consent_question(leader) in mouth.said  # asked at the other player's turn
    assert undone(mouth) and actions == []


def test_keep_cool_a_card_drawn_in_a_swap_stays_drawn(tmp_path):
    session, mouth, actions = play(
        tmp_path,
        "keep-cool",
        ["card 2", "undo"],
        players=("Ana", "Ben", "Cy"),
        seed=7,
        rules={"face": "red", "line": 1},
        deck="lab/scripted_games/decks/keep-cool-test.csv",
    )
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
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            "one-percent",
            "--players",
            "Ana,Ben",
            "--seed",
            "3",
            "--rules",
            "dice=table",
            "--input",
            "text",
            "--output",
            "text",
        ],
        cwd=REPO,
        env=env,
        input="7 and 3\nundo\nyes\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert UNDO_ASK in result.stdout and "HOST: Undone." in result.stdout, result.stdout[-1500:]


# ---- a player takes back only their own move (issue 42) ----------------------------


def test_a_player_takes_back_their_own_move_without_being_asked(tmp_path):
    session, mouth, actions = play(tmp_path, "keep-it-100", ["card 1", "undo"], **KEEP_IT_100)
    assert undone(mouth) and actions == []
    assert not any("do you agree" in text for text in mouth.said)


def test_centurion_a_lead_cannot_be_taken_back_once_the_other_player_answered(tmp_path):
    """The issue's run, typed as written: Ana leads, Ben answers with the king of
    diamonds, and two undos would let Ana lead again knowing Ben's card. Ana's undo
    asks Ben first, and his reply ("undo") is no yes: both cards stay."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data")}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            "centurion",
            "--mode",
            "pvp",
            "--players",
            "Ana,Ben",
            "--seed",
            "5",
            "--input",
            "text",
            "--output",
            "text",
        ],
        cwd=REPO,
        env=env,
        input="queen of clubs\nking of diamonds\nundo\nundo\nscore\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = result.stdout
    assert "HOST: King of diamonds, 26. Count 38." in out, out[-1500:]
    assert "Undone." not in out
    assert f"HOST: {undo_consent_question('Ben')}" in out
    assert out.count(f"HOST: {UNDO_STANDS}") == 1  # the second "undo" was Ben's answer: no
    assert "Ana, you lead." not in out.split("King of diamonds")[1]  # Ana never leads that trick again


ONE_PERCENT_TABLE = dict(players=("Ana", "Ben", "Cy", "Dee"), seed=187, deal="table", rules={"dice": "table"})


def _to_bens_vote() -> list[str]:
    """The table script of 1% up to Ben's vote ("disagree"); Cy votes next."""
    lines = (REPO / "lab/scripted_games/one-percent-basic-table.txt").read_text(encoding="utf-8").splitlines()
    return lines[: lines.index("disagree") + 1]


def test_one_percent_cy_cannot_take_back_bens_vote(tmp_path):
    session, mouth, actions = play(tmp_path, "one-percent", _to_bens_vote() + ["undo", "no"], **ONE_PERCENT_TABLE)
    assert undo_consent_question("Ben") in mouth.said and UNDO_STANDS in mouth.said
    assert undos(mouth) == 1  # the script's own, earlier
    assert actions[-1] == {"intent": "disagree", "player": "Ben"}
    assert session.game.prompt(session.state).player == "Cy"


def test_one_percent_ben_may_agree_to_cys_undo_of_his_vote(tmp_path):
    session, mouth, actions = play(tmp_path, "one-percent", _to_bens_vote() + ["undo", "yes"], **ONE_PERCENT_TABLE)
    assert undos(mouth) == 2 and actions[-1]["intent"] == "challenge"
    assert session.game.prompt(session.state).player == "Ben"


# ---- with undo_after_reveal, an undone draw is drawn afresh -------------------------


def _to_the_roll() -> list[str]:
    """The host-dealt 1% script up to Cy's reward roll (the host rolls the dice)."""
    lines = (REPO / "lab/scripted_games/one-percent-basic-host.txt").read_text(encoding="utf-8").splitlines()
    return lines[: lines.index("roll the dice") + 1]


def _cys_rolls(mouth) -> list[str]:
    return [text for text in mouth.said if text.startswith("Cy: ") and " and " in text]


def _same_game(one, other) -> bool:
    fields = {key: value for key, value in vars(one).items() if key != "rng"}
    return fields == {key: value for key, value in vars(other).items() if key != "rng"} and (
        one.rng.getstate() == other.rng.getstate()
    )


def test_an_undone_roll_is_rolled_afresh_and_replays_from_the_journal(tmp_path):
    from fakes import RecordingMouth

    from host.eventlog import EventLog
    from host.session import Session

    lines = _to_the_roll() + ["undo", "yes", "roll the dice", "undo", "yes", "roll the dice"]
    session, mouth, actions = play(
        tmp_path, "one-percent", lines, players=("Ana", "Ben", "Cy"), seed=26, deal="host", undo_after_reveal=True
    )
    first, second, third = _cys_rolls(mouth)[-3:]
    assert first == "Cy: 0 and 1." and second != first and third not in (first, second)
    redraws = [action for action in actions if action["intent"] == "redraw"]
    assert len(redraws) == 2 and redraws[0]["seed"] != redraws[1]["seed"]
    # a resumed game replays the journal, redraws included, to the very same state
    again = Session(
        session.game,
        session.play.options,
        session.play.decks,
        session.play.journal,
        session.play.info,
        EventLog(tmp_path / "again.jsonl", lambda: 0.0),
        session.awaiting.ears,
        RecordingMouth(),
        lambda: 0.0,
    )
    again.restore(actions)
    assert _same_game(again.state, session.state)


def test_a_game_saved_just_after_a_redraw_resumes(tmp_path):
    """The table took back a roll, then the power went: the journal ends in its redraw."""
    from fakes import RecordingMouth

    from host.eventlog import EventLog
    from host.session import Session

    session, _, actions = play(
        tmp_path,
        "one-percent",
        _to_the_roll() + ["undo", "yes"],
        players=("Ana", "Ben", "Cy"),
        seed=26,
        deal="host",
        undo_after_reveal=True,
    )
    assert actions[-1]["intent"] == "redraw"
    mouth = RecordingMouth()
    again = Session(
        session.game,
        session.play.options,
        session.play.decks,
        session.play.journal,
        session.play.info,
        EventLog(tmp_path / "again.jsonl", lambda: 0.0),
        session.awaiting.ears,
        mouth,
        lambda: 0.0,
    )
    again.restore(actions)
    assert _same_game(again.state, session.state) and mouth.said[0].startswith("Welcome back")


def test_without_a_reveal_undone_nothing_is_redrawn(tmp_path):
    """A misheard card taken back by its own player leaves the game's draws as they were."""
    session, mouth, actions = play(tmp_path, "keep-it-100", ["card 1", "undo", "card 1"], **KEEP_IT_100)
    fresh, _, fresh_actions = play(tmp_path / "fresh", "keep-it-100", ["card 1"], **KEEP_IT_100)
    assert actions == fresh_actions and _same_game(session.state, fresh.state)


def test_repeat_after_an_undo_says_what_led_to_the_question_asked_again(tmp_path):
    """Card 1, undo, repeat: the host repeats what it said before "pick a card" (the deal),
    never the question of the card taken back (issue 57). A placing taken back: what led to
    "where does it go?", the card's question."""
    session, _, _ = play(tmp_path / "card", "keep-it-100", ["card 1"], **KEEP_IT_100)
    card_said = session.announcer.last_spoken  # the card's question, said when it was taken
    assert card_said

    def after_undo(mouth) -> list[str]:
        return mouth.said[next(i for i, text in enumerate(mouth.said) if text.startswith("Undone.")) :]

    session, mouth, actions = play(tmp_path / "one", "keep-it-100", ["card 1", "undo", "repeat"], **KEEP_IT_100)
    assert actions == [] and not set(card_said) & set(after_undo(mouth)), after_undo(mouth)
    assert "Keep It 100!" in after_undo(mouth)  # the deal, as "repeat" said it before card 1

    placed = ["card 1", "at the end of line one", "undo", "yes", "repeat"]
    session, mouth, actions = play(tmp_path / "two", "keep-it-100", placed, **KEEP_IT_100)
    assert [a["intent"] for a in actions] == ["choose_card"]
    assert set(card_said) <= set(after_undo(mouth))  # the card's question again, to place it
    assert not any("slides it" in text for text in after_undo(mouth))
