"""Refusals whose reason would tell a hidden hand (host.engine.RuleError.secret).

By voice the host cannot tell who spoke, so in Centurion between two people anyone could
name cards at the other's turn and learn from "You don't hold the ace of clubs" what that
hand lacks. Spoken, such a move gets exactly what words the host could not read get
("Sorry?", then the narrowed questions), and the reason goes privately to the player
asked; typed, the player is known and hears it. Played through the real Session and
matcher (tests/replay.py play_lines), with spoken lines (a Say with a start).
"""

from __future__ import annotations

import json

from replay import play_lines
from understood import Say

from host.decks import load_game_decks
from host.engine import GameOptions
from host.games import get_game
from host.games.centurion import Card

PVP = dict(players=("Ana", "Ben"), mode="pvp", deal="host", seed=7, rules={"read_hand": "off"})


def _to_move_and_absent(options: dict) -> tuple[str, str]:
    """Who is asked first, and a card of the pack that player does not hold."""
    game = get_game("centurion")
    state, _ = game.setup(GameOptions(**options), load_game_decks(game.deck, []))
    hand = state.hands[state.turn]
    absent = next(
        Card(rank, suit) for suit in ("clubs", "hearts") for rank in range(2, 10) if Card(rank, suit) not in hand
    )
    return state.players[state.turn], state.name(absent)


def _spoken(text: str, at: float) -> Say:
    return Say(text, start=at, end=at + 1.0)


def _public(said: list[str]) -> list[str]:
    """What the table hears: the host's words without the lines sent to one player."""
    return [line for line in said if not line.startswith("[")]


def _rejected(folder) -> list[str]:
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    return [e["reason"] for e in events if e["type"] == "rejected"]


def test_a_card_not_held_said_aloud_sounds_like_words_not_understood(tmp_path):
    player, absent = _to_move_and_absent(PVP)
    probe = [_spoken(absent, 1.0), _spoken(absent, 3.0)]  # twice: the second is a miss too, so narrowing
    noise = [_spoken("banana bread", 1.0), _spoken("banana bread", 3.0)]
    _, probed, _ = play_lines(tmp_path / "probe", "centurion", probe, **PVP)
    _, unread, _ = play_lines(tmp_path / "noise", "centurion", noise, **PVP)
    assert _public(probed.said) == _public(unread.said) and probed.sounds == unread.sounds
    assert "Sorry?" in probed.said and not any(absent in line.lower() for line in _public(probed.said))
    assert probed.said[-1].startswith(f"{player}, which card, by its place in your hand")  # the second: narrowing
    assert probed.said.count(f"[{player}] You don't hold the {absent}.") == 2  # each time, on their page
    assert _rejected(tmp_path / "probe") == [f"You don't hold the {absent}."]  # the log keeps why


def test_a_spoken_correction_naming_a_card_not_held_sounds_like_words_that_are_no_move(tmp_path):
    """ "No, I said the 2 of clubs" after Ana's card, at Ben's turn: the rules would refuse it
    because Ana does not hold it, which the table must not learn (host/corrections.py)."""
    game = get_game("centurion")
    state, _ = game.setup(GameOptions(**PVP), load_game_decks(game.deck, []))
    holder, laid = state.players[state.turn], state.name(state.hands[state.turn][0])
    _, absent = _to_move_and_absent(PVP)
    said = {}
    for name, words in (("probe", absent), ("noise", "banana bread")):
        lines = [_spoken(laid, 1.0), _spoken(f"no, I said the {words}", 3.0)]
        said[name] = play_lines(tmp_path / name, "centurion", lines, **PVP)[1].said
    assert _public(said["probe"]) == _public(said["noise"])
    assert "Sorry, I couldn't tell what the move should be. Nothing changed." in said["probe"]
    assert f"[{holder}] You don't hold the {absent}." in said["probe"]


def test_typed_the_player_is_known_and_hears_the_reason(tmp_path):
    _, absent = _to_move_and_absent(PVP)
    _, mouth, _ = play_lines(tmp_path, "centurion", [absent], **PVP)
    assert f"You don't hold the {absent}." in _public(mouth.said)


def test_against_the_host_a_spoken_card_not_held_is_told_aloud(tmp_path):
    solo = dict(players=("Ana",), mode="vs-host", deal="host", seed=2, rules={"read_hand": "off"})
    _, absent = _to_move_and_absent(solo)
    _, mouth, _ = play_lines(tmp_path, "centurion", [_spoken(absent, 1.0)], **solo)
    assert f"You don't hold the {absent}." in _public(mouth.said)  # nobody else hears it
