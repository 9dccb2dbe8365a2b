"""What a sighted player sees on the table, a player can hear on request, in full.

"Read the table" works at every prompt of every game (Keep Cool: "host, read the table");
in Zero to 100 another team's questions and power cards are read with "read team Ben's
cards", and the last reveal's questions are read in full. Played through the real
Session, matcher and engines with typed lines (tests/replay.py play_lines).
"""

from __future__ import annotations

from replay import play_lines

ZERO = dict(
    players=("Ana", "Ben", "Cy"), seed=7, rules={"hand_size": 3}, deck="lab/scripted_games/decks/zero-to-100-test.csv"
)


def test_zero_to_100_another_teams_questions_and_powers_in_full(tmp_path):
    session, mouth, _ = play_lines(tmp_path, "zero-to-100", ["read team Ben's cards"], **ZERO)
    ben = session.state.teams[1]
    answer = mouth.said[-2]  # then the prompt is asked again
    assert answer.startswith("Team Ben: questions. 1: ") and "your" not in answer
    assert all(card.text in answer for card in ben.hand)
    assert answer.endswith("Power cards: plus or minus 50, plus or minus 20 and Spot On.")


def test_zero_to_100_the_table_picks_and_the_last_reveal_in_full(tmp_path):
    lines = ["card 1 with plus fifty", "read the table"]
    session, mouth, _ = play_lines(tmp_path, "zero-to-100", lines, **ZERO)
    table = mouth.said[-2]
    assert table.endswith("Power cards: plus or minus 50, plus or minus 20 and Spot On. Team Ana has chosen.")
    assert "plus 50" not in table and "has played" not in table  # held until the reveal: who, nothing more
    open_picks = {**ZERO, "rules": {**ZERO["rules"], "hide_picks": False}}
    session, mouth, _ = play_lines(tmp_path / "open", "zero-to-100", lines, **open_picks)
    picked = session.state.plays[0].card
    table = mouth.said[-2]
    assert f"Team Ana has played: {picked.text} With plus 50." in table
    assert str(picked.answer) not in table.split(picked.text)[1].split(".")[0]  # still hidden
    lines = ["card 1 with plus fifty", "card 1", "card 1", "read the table"]
    session, mouth, _ = play_lines(tmp_path / "reveal", "zero-to-100", lines, **ZERO)
    table = mouth.said[-2]
    assert "The last reveal. Team Ana: " in table
    for _, play in session.state.revealed:  # the reveal itself said only titles
        assert f"{play.card.text} {play.card.answer}" in table


def test_centurion_the_cards_played_this_deal(tmp_path):
    session, mouth, _ = play_lines(tmp_path, "centurion", ["read my cards"], players=("Ana",), mode="vs-host", seed=2)
    first = " ".join(next(t for t in mouth.said if t.startswith("Your cards:")).split(": ")[1].split(" ")[:3])
    session, mouth, _ = play_lines(
        tmp_path / "game", "centurion", [first, "what's been played"], players=("Ana",), mode="vs-host", seed=2
    )
    state = session.state
    table = mouth.said[-2]
    played = "; ".join(f"{state.players[seat]}, {state.name(card)} {state.value(card)}" for seat, card in state.played)
    assert len(state.played) >= 2 and f"Played: {played}. Count {state.count}." in table
    assert f"Cards in hand: Ana {state.cards_left[0]}, Host {state.cards_left[1]}" in table


def test_keep_it_100_the_lines_and_the_card_in_play(tmp_path):
    session, mouth, _ = play_lines(
        tmp_path,
        "keep-it-100",
        ["card 1", "at the end of line one", "read the table"],
        players=("Ana", "Ben", "Cy"),
        seed=7,
        rules={"hand_size": 2},
        deck="lab/scripted_games/decks/questions-starter.csv",
    )
    table = mouth.said[-2]
    state = session.state
    assert table.startswith("Line one: ") and f"Ana's card: {state.turn.card.text}" in table
    assert "Ana slid it above" in table and "Scores:" in table


def test_keep_cool_the_turn_the_order_and_the_cards_won(tmp_path):
    session, mouth, _ = play_lines(
        tmp_path,
        "keep-cool",
        ["apple", "host, read the table"],
        players=("Ana", "Ben", "Cy"),
        seed=7,
        rules={"face": "red", "line": 1, "swap": False, "relaxed": True},
        deck="lab/scripted_games/decks/keep-cool-test.csv",
    )
    assert mouth.said[-1].startswith(
        "Round 1. Order of play: Ana, Ben and Cy. It is Ben's turn. No card won yet this round. Round wins:"
    )


def test_one_percent_the_bid_and_the_reward_cards(tmp_path):
    session, mouth, _ = play_lines(tmp_path, "one-percent", ["read the table"], players=("Ana", "Ben", "Cy"), seed=26)
    table = mouth.said[-2]
    assert table.startswith("Reward cards on offer: ") and "In play: Ana, Ben and Cy." in table
