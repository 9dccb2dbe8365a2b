"""Tests of the 1% engine (host/games/one_percent.py): every rule, choice and refusal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from host.decks import Decks, load_bid_reward_decks
from host.engine import GameOptions, RuleError
from host.games import one_percent as op
from host.games.one_percent import BidCard

ROOT = Path(__file__).resolve().parents[2]
FOUR = ("Ana", "Ben", "Cy", "Dee")
SHIPPED_FAMILIES = ("shark", "comet", "star", "lightning", "clover")  # decks/one-percent.yaml


# --------------------------------------------------------------------------- helpers


class ScriptedDice:
    """Stands in for the game's rng: dice come from a script, shuffles keep order."""

    def __init__(self, rolls=()):
        self.rolls = list(rolls)

    def randint(self, low, high):
        value = self.rolls.pop(0)
        assert low <= value <= high
        return value

    def shuffle(self, cards):
        pass

    def getstate(self):
        return tuple(self.rolls)


def new_game(players=FOUR, deal="host", seed=3, **rules):
    state, _ = op.setup(GameOptions(players=tuple(players), mode="basic", deal=deal, seed=seed, rules=rules), Decks())
    return state


def snapshot(state) -> str:
    """Everything in a state, the rng included, as comparable text."""
    fields = dict(vars(state))
    fields["rng"] = state.rng.getstate()
    return repr(fields)


def act(state, intent, player=None, **fields):
    """Apply an intent said by `player` (default: whoever is prompted)."""
    current = op.prompt(state)
    who = player or (current.player if current else state.players[0])
    return op.apply(state, {"intent": intent, "player": who, **fields})


def refused(state, intent, player=None, **fields) -> str:
    """Assert the action is refused and changes nothing; return the spoken reason."""
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        act(state, intent, player, **fields)
    assert snapshot(state) == before
    assert error.value.reason
    return error.value.reason


def texts(events) -> str:
    return " ".join(e["text"] for e in events if e["type"] == "say")


def hands(**cards):
    """hands(Ana="clover 4, shark 2") -> {"Ana": [BidCard("clover", 4), ...]}"""
    result = {}
    for player, spec in cards.items():
        result[player] = [BidCard(part.split()[0], int(part.split()[1])) for part in spec.split(",") if part.strip()]
    return result


def bidding(state, opener, dealt=None, in_play=None):
    """Put the game at the start of a bid phase opened by `opener`, hands as given."""
    state.phase = op.BID
    state.turn = opener
    state.last_bid = None
    state.challenge = None
    if in_play is not None:
        state.in_play = list(in_play)
    if dealt is not None:
        state.hands = dealt
    return state


def rewarding(state, player, row=(), owned=None, deck=None, left=3, dice=()):
    """Put the game at the start of `player`'s reward phase."""
    state.phase = op.REWARD
    state.turn = player
    state.in_play = [player]
    state.reward = op.RewardTurn(player=player, left=left)
    state.reward_row = list(row)
    if deck is not None:
        state.reward_deck = list(deck)
    for who, cards in (owned or {}).items():
        state.owned[who] = list(cards)
    state.rng = ScriptedDice(dice)
    return state


# --------------------------------------------------------------------------- setup


def test_setup_reveals_three_rewards_and_deals_three_cards_each():
    s, events = op.setup(GameOptions(players=FOUR, seed=5), Decks())
    assert len(s.reward_row) == 3
    assert len(s.reward_row) + len(s.reward_deck) == 34
    assert all(len(s.hands[p]) == 3 for p in FOUR)
    assert len(s.bid_deck) + sum(len(h) for h in s.hands.values()) == 50
    privates = [e for e in events if e["type"] == "private"]
    assert [e["player"] for e in privates] == list(FOUR)
    assert all("Your cards" in e["text"] for e in privates)
    assert "on offer" in texts(events)


def test_bid_deck_has_five_families_of_one_to_five_twice():
    s = new_game()
    cards = s.bid_deck + [c for h in s.hands.values() for c in h]
    assert s.cards.bid.family_names == SHIPPED_FAMILIES
    for family in SHIPPED_FAMILIES:
        for value in range(1, 6):
            assert cards.count(BidCard(family, value)) == 2


def test_reward_deck_default_composition():
    s = new_game()
    deck = s.reward_deck + s.reward_row
    assert all(deck.count(n) == 3 for n in range(1, 10))
    assert deck.count("steal") == 3
    assert deck.count("draw_two") == 2
    assert deck.count("reroll") == 2


def test_reward_deck_composition_is_configurable():
    s = new_game(winning_copies=1, steal_cards=0, draw_two_cards="1", reroll_cards=4)
    deck = s.reward_deck + s.reward_row
    assert len(deck) == 9 + 0 + 1 + 4
    assert "steal" not in deck


# --------------------------------------------------------------------------- deck files

ONLY_REROLLS = {
    "copies: 3": "copies: 0",
    "steal: 3": "steal: 0",
    "draw_two: 2": "draw_two: 0",
    "reroll: 2": "reroll: 5",
}
TWO_FAMILIES = {  # star and lightning only, valued 1 to 3, four copies: 24 cards
    "    - name: shark\n      plural: sharks\n": "",
    "    - name: comet\n      plural: comets\n": "",
    "    - name: clover\n      plural: clovers\n": "",
    "values: [1, 2, 3, 4, 5]": "values: [1, 2, 3]",
    "copies: 2": "copies: 4",
}


def deck_file(tmp_path, changes: dict[str, str]) -> Decks:
    """Decks holding the shipped decks/one-percent.yaml with `changes` made to its text."""
    text = (ROOT / "decks" / "one-percent.yaml").read_text(encoding="utf-8")
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "one-percent.yaml"
    path.write_text(text, encoding="utf-8")
    return Decks(bid_reward=load_bid_reward_decks(path))


def game_with(decks: Decks, players=FOUR, **rules):
    return op.setup(GameOptions(players=tuple(players), mode="basic", deal="host", seed=3, rules=rules), decks)


def test_the_reward_deck_is_dealt_from_the_file(tmp_path):
    s, events = game_with(deck_file(tmp_path, ONLY_REROLLS))
    assert s.reward_row + s.reward_deck == ["reroll"] * 5
    assert s.rules["reroll_cards"] == 5 and s.rules["winning_copies"] == 0
    assert "on offer: reroll, reroll and reroll" in texts(events)


def test_rules_still_override_the_files_counts(tmp_path):
    s, _ = game_with(deck_file(tmp_path, ONLY_REROLLS), steal_cards=2, reroll_cards="1", winning_copies=1)
    deck = s.reward_row + s.reward_deck
    assert sorted(deck, key=str) == [1, 2, 3, 4, 5, 6, 7, 8, 9, "reroll", "steal", "steal"]


def test_only_the_files_winning_numbers_are_dealt(tmp_path):
    changes = {"numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9]": "numbers: [7, 8]"}
    s, _ = game_with(deck_file(tmp_path, changes), winning_copies=2)
    deck = s.reward_row + s.reward_deck
    assert sorted(c for c in deck if isinstance(c, int)) == [7, 7, 8, 8]
    assert len(deck) == 4 + 3 + 2 + 2


def test_the_bid_deck_is_dealt_from_the_file(tmp_path):
    s, _ = game_with(deck_file(tmp_path, TWO_FAMILIES), players=("Ana", "Ben"))
    cards = s.bid_deck + [c for h in s.hands.values() for c in h]
    assert len(cards) == 24
    for family in ("star", "lightning"):
        for value in (1, 2, 3):
            assert cards.count(BidCard(family, value)) == 4


def test_families_and_their_plurals_come_from_the_file(tmp_path):
    s, _ = game_with(deck_file(tmp_path, TWO_FAMILIES), players=("Ana", "Ben"))
    s = bidding(s, "Ana", hands(Ana="star 3, star 3, lightning 1", Ben="star 2, lightning 3"))
    assert op.prompt(s).choices == ("3 stars", "5 lightning")
    assert "Name a family: star and lightning" in refused(s, "bid", count=2, family="shark")
    s, _ = act(s, "bid", count=2, family="lightnings")
    assert op.prompt(s).choices == ("3 lightning", "4 lightning", "that's false")
    s, events = act(s, "challenge")
    assert "Ben says that's false! Ana bid 2 lightning." in texts(events)
    assert "4 lightning in all: the bid holds!" in texts(events)


def test_table_totals_are_capped_by_the_files_values(tmp_path):
    """Three cards of a family valued 1 to 3 (four copies each) add up to 9 at most."""
    decks = deck_file(tmp_path, TWO_FAMILIES)
    s, _ = op.setup(GameOptions(players=("Ana", "Ben", "Cy"), deal="table", seed=3), decks)
    s = bidding(s, "Ana")
    s, _ = act(s, "bid", count=4, family="star")
    s, _ = act(s, "challenge")
    s, _ = act(s, "agree")
    assert "0 to 9 of a family" in refused(s, "number", value=10)
    s, _ = act(s, "number", value=9)


def test_a_hand_size_the_files_bid_deck_cannot_deal_is_refused(tmp_path):
    with pytest.raises(RuleError, match="too big for the 24 bid cards"):
        game_with(deck_file(tmp_path, TWO_FAMILIES), hand_size=5)


def test_table_deal_sends_no_private_hands():
    s, events = op.setup(GameOptions(players=FOUR, deal="table", seed=5), Decks())
    assert not [e for e in events if e["type"] == "private"]
    assert s.hands == {}


@pytest.mark.parametrize(
    "options, fragment",
    [
        (GameOptions(players=("Ana",)), "2 to 6"),
        (GameOptions(players=tuple("ABCDEFG")), "2 to 6"),
        (GameOptions(players=("Ana", "Ana")), "different name"),
        (GameOptions(players=FOUR, mode="pro"), "basic"),
        (GameOptions(players=FOUR, deal="mail"), "host or at the table"),
        (GameOptions(players=FOUR, rules={"jokers": 2}), "jokers"),
        (GameOptions(players=FOUR, rules={"dice": "app"}), "dice"),
        (GameOptions(players=FOUR, rules={"duplicates": "maybe"}), "duplicates"),
        (GameOptions(players=FOUR, rules={"max_cards": "lots"}), "whole number"),
        (GameOptions(players=FOUR, rules={"rewards": 0}), "at least 1"),
        (GameOptions(players=FOUR, rules={"steal_cards": -1}), "negative"),
        (GameOptions(players=FOUR, rules={"hand_size": 9}), "too big"),
    ],
)
def test_invalid_options_are_refused_with_a_reason(options, fragment):
    with pytest.raises(RuleError) as error:
        op.setup(options, Decks())
    assert fragment in error.value.reason


def test_same_seed_same_deal_and_rolls():
    a, events_a = op.setup(GameOptions(players=FOUR, seed=11), Decks())
    b, events_b = op.setup(GameOptions(players=FOUR, seed=11), Decks())
    assert snapshot(a) == snapshot(b)
    assert events_a == events_b
    c, _ = op.setup(GameOptions(players=FOUR, seed=12), Decks())
    assert snapshot(c) != snapshot(a)


# --------------------------------------------------------------------------- setup roll


def scripted_setup(monkeypatch, rolls, players=FOUR, **rules):
    monkeypatch.setattr(op, "new_rng", lambda seed: ScriptedDice(rolls))
    return op.setup(GameOptions(players=players, rules=rules), Decks())


def test_lowest_setup_roll_starts(monkeypatch):
    s, events = scripted_setup(monkeypatch, [5, 5, 2, 1, 9, 9, 4, 4])
    assert s.turn == "Ben" and s.phase == op.BID
    assert op.prompt(s).player == "Ben"
    assert "Ben has the lowest roll" in texts(events)
    assert [e["name"] for e in events if e["type"] == "sound"].count("dice") == 4


def test_setup_tie_rolls_again_among_the_tied_only(monkeypatch):
    # Ana 3, Ben 3, Cy 9, Dee 8: Ana and Ben tie; then Ana 6, Ben 2.
    s, events = scripted_setup(monkeypatch, [1, 2, 2, 1, 4, 5, 4, 4, 3, 3, 1, 1])
    assert "Ana and Ben tie on 3" in texts(events)
    assert s.turn == "Ben"
    assert s.rng.rolls == []  # exactly six rolls of two dice: nobody else rerolled


def test_double_zero_on_setup_roll_wins_at_once(monkeypatch):
    s, events = scripted_setup(monkeypatch, [4, 4, 0, 0, 7, 7])
    assert s.winner == "Ben" and s.phase == op.OVER
    assert op.prompt(s) is None
    over = events[-1]
    assert over["type"] == "game_over" and over["winners"] == ["Ben"]
    assert over["scores"] == {"Ana": 0, "Ben": 1, "Cy": 0, "Dee": 0}
    assert s.rng.rolls == [7, 7]  # Cy never rolled


def test_table_dice_setup_roll_asks_each_player(monkeypatch):
    s, _ = scripted_setup(monkeypatch, [], players=("Ana", "Ben", "Cy"), dice="table")
    p = op.prompt(s)
    assert (p.name, p.player) == ("one-percent/dice", "Ana")
    assert "Ana" in p.text
    s, _ = act(s, "dice", values=[4, 4])
    s, _ = act(s, "dice", values=[1, 2])
    s, events = act(s, "dice", values=[2, 1])
    assert "Ben and Cy tie on 3" in texts(events)
    assert op.prompt(s).player == "Ben"
    assert "single" not in refused(s, "dice", values=[3])
    s, _ = act(s, "dice", values=[3, 3])
    s, _ = act(s, "dice", values=[0, 5])
    assert s.phase == op.BID and s.turn == "Cy"


def test_table_dice_double_zero_spoken_as_double(monkeypatch):
    s, _ = scripted_setup(monkeypatch, [], players=("Ana", "Ben"), dice="table")
    s, events = act(s, "dice", values=[0], double=True)
    assert s.winner == "Ana"
    assert refused(s, "dice", values=[1, 1]) == "The game is over."


def test_table_dice_values_must_be_faces(monkeypatch):
    s, _ = scripted_setup(monkeypatch, [], players=("Ana", "Ben"), dice="table")
    assert "0 to 9" in refused(s, "dice", values=[10, 2])
    assert "dice" in refused(s, "bid", count=3, family="star")


# --------------------------------------------------------------------------- bidding


def test_bid_prompt_names_the_player_and_the_last_bid():
    s = bidding(new_game(), "Ana")
    p = op.prompt(s)
    assert (p.name, p.player, p.context) == ("one-percent/bid", "Ana", {"last": None})
    assert p.text.startswith("Ana")
    s, _ = act(s, "bid", count=8, family="clover")
    p = op.prompt(s)
    assert p.player == "Ben" and p.text.startswith("Ben")
    assert p.context == {"last": {"count": 8, "family": "clover"}}
    assert "8 clovers" in p.text and 2 <= len(p.choices) <= 4


def test_rulebook_bid_sequence_may_change_family():
    s = bidding(new_game(), "Ana")
    for count, family in [(8, "clover"), (9, "clover"), (10, "star"), (12, "clover")]:
        s, _ = act(s, "bid", count=count, family=family)
    assert s.last_bid == op.Bid(12, "clover", "Dee")
    assert s.turn == "Ana"


def test_a_bid_must_raise_the_number():
    s = bidding(new_game(), "Ana")
    s, _ = act(s, "bid", count=8, family="clover")
    assert "9 or more" in refused(s, "bid", count=8, family="star")
    refused(s, "bid", count=7, family="clover")


def test_bid_needs_a_real_family_and_a_positive_number():
    s = bidding(new_game(), "Ana")
    assert "family" in refused(s, "bid", count=3, family="unicorn")
    refused(s, "bid", count=0, family="star")
    refused(s, "bid", count=None, family="star")
    s, _ = act(s, "bid", count=3, family="stars")  # a plural is understood
    assert s.last_bid.family == "star"


def test_the_first_bid_of_a_phase_cannot_be_a_challenge():
    s = bidding(new_game(), "Ana")
    assert "no bid" in refused(s, "challenge")


def test_only_the_prompted_player_may_act():
    s = bidding(new_game(), "Ana")
    assert "Ana's turn" in refused(s, "bid", player="Ben", count=3, family="star")


def test_wrong_intent_for_the_prompt_is_refused():
    s = bidding(new_game(), "Ana")
    assert "family" in refused(s, "agree")
    refused(s, "roll")


def test_turns_skip_players_out_of_play():
    s = bidding(new_game(), "Ben", in_play=["Ana", "Ben", "Dee"])
    s, _ = act(s, "bid", count=2, family="star")
    assert s.turn == "Dee"
    s, _ = act(s, "bid", count=3, family="star")
    assert s.turn == "Ana"


# --------------------------------------------------------------------------- challenges

RULEBOOK_HANDS = dict(
    Ana="clover 1, star 2, shark 3",
    Ben="clover 2, star 5, comet 1",
    Cy="clover 2, lightning 4, lightning 1",
    Dee="shark 5, comet 2, comet 3",
)


def rulebook_challenge():
    """Cy opens; Ben bids 12 clovers and Cy calls it false (5 clovers in play)."""
    s = bidding(new_game(), "Cy", dealt=hands(**RULEBOOK_HANDS))
    for count, family in [(8, "clover"), (9, "clover"), (10, "star"), (12, "clover")]:
        s, _ = act(s, "bid", count=count, family=family)
    return act(s, "challenge")


def test_challenge_asks_the_others_in_turn_order_only():
    s, events = rulebook_challenge()
    assert "Cy says that's false" in texts(events)
    assert s.phase == op.VOTE
    p = op.prompt(s)
    assert (p.name, p.player) == ("one-percent/vote", "Dee")
    assert "12 clovers" in p.text and "Ben" in p.text
    s, _ = act(s, "disagree")
    assert op.prompt(s).player == "Ana"  # Ben (bidder) and Cy (challenger) are not asked
    assert "agree or disagree" in refused(s, "bid", count=13, family="star")


def test_rulebook_example_wrong_side_is_out_and_challenger_opens():
    s, _ = rulebook_challenge()
    s, _ = act(s, "disagree")  # Dee sides with Cy
    s, events = act(s, "agree")  # Ana sides with Ben
    said = texts(events)
    assert "5 clovers in all" in said and "false" in said
    assert "Ana and Ben are out" in said
    assert s.in_play == ["Cy", "Dee"]
    assert s.turn == "Cy" and s.phase == op.BID and s.last_bid is None
    reveals = [e for e in events if e["type"] == "reveal"]
    assert [(e["player"], e["value"]) for e in reveals] == [("Ana", 1), ("Ben", 2), ("Cy", 2), ("Dee", 0)]


def test_the_reveal_reads_each_hand_before_the_verdict():
    """The rulebook: "Everyone reveals their hand", then the named family is added up."""
    s = bidding(
        new_game(players=("Ana", "Ben", "Cy")),
        "Ana",
        dealt=hands(Ana="shark 2, comet 2, star 1", Ben="comet 1, star 3, clover 4", Cy="lightning 1, shark 5, star 2"),
    )
    s, _ = act(s, "bid", count=4, family="comet")
    s, _ = act(s, "challenge")  # Ben
    s, events = act(s, "agree")  # Cy
    spoken = [e["text"] for e in events if e["type"] == "say"]
    shown = [
        "Ana shows shark 2, comet 2 and star 1: 2 comets.",
        "Ben shows comet 1, star 3 and clover 4: 1 comet.",
        "Cy shows lightning 1, shark 5 and star 2: 0 comets.",
    ]
    verdict = next(i for i, text in enumerate(spoken) if text.startswith("3 comets in all: the bid was false"))
    assert [spoken.index(line) for line in shown] == list(range(verdict - 3, verdict))


def test_family_total_adds_card_values_not_card_count():
    s = bidding(
        new_game(players=("Ana", "Ben")),
        "Ana",
        dealt=hands(Ana="shark 2, shark 4, star 1", Ben="comet 1, comet 2, star 3"),
    )
    s, _ = act(s, "bid", count=6, family="shark")
    s, events = act(s, "challenge")  # Ben doubts: 6 sharks is exactly right
    assert "6 sharks in all: the bid holds" in texts(events)


def test_a_bid_holds_when_the_total_reaches_it_and_the_bidder_opens_next():
    s = bidding(
        new_game(players=("Ana", "Ben", "Cy")),
        "Ana",
        dealt=hands(
            Ana="star 3, comet 1, comet 2", Ben="star 2, clover 5, shark 1", Cy="lightning 3, lightning 2, clover 1"
        ),
    )
    s, _ = act(s, "bid", count=5, family="star")
    s, _ = act(s, "challenge")  # Ben challenges Ana
    s, events = act(s, "disagree")  # Cy sides with Ben
    assert "the bid holds" in texts(events)
    assert s.in_play == ["Ana"]
    assert s.phase == op.REWARD and s.reward.player == "Ana"


def test_bidder_opens_next_phase_when_the_bid_holds():
    s = bidding(
        new_game(),
        "Ana",
        dealt=hands(
            Ana="star 5, comet 1, comet 2",
            Ben="star 2, clover 5, shark 1",
            Cy="lightning 3, lightning 2, clover 1",
            Dee="shark 1, shark 2, comet 4",
        ),
    )
    s, _ = act(s, "bid", count=3, family="star")
    s, _ = act(s, "bid", count=4, family="star")  # Ben bids 4 stars: there are 7
    s, _ = act(s, "challenge")  # Cy
    s, _ = act(s, "disagree")  # Dee
    s, events = act(s, "agree")  # Ana
    assert s.in_play == ["Ana", "Ben"]
    assert s.turn == "Ben"


def test_two_players_in_play_reveal_without_votes():
    s = bidding(
        new_game(),
        "Cy",
        in_play=["Cy", "Dee"],
        dealt=hands(Cy="shark 3, comet 1, comet 2", Dee="shark 5, star 1, star 2"),
    )
    s, _ = act(s, "bid", count=9, family="shark")
    s, events = act(s, "challenge")
    assert "8 sharks in all: the bid was false" in texts(events)
    assert s.phase == op.REWARD and s.reward.player == "Dee"


def test_rulebook_second_phase_last_player_moves_to_rewards():
    """9 sharks in play: Cy was wrong to doubt, Dee alone is in and earns 3 rewards."""
    s = bidding(
        new_game(),
        "Cy",
        in_play=["Cy", "Dee"],
        dealt=hands(Cy="shark 4, comet 1, comet 2", Dee="shark 5, star 1, star 2"),
    )
    s, _ = act(s, "bid", count=7, family="shark")
    s, _ = act(s, "bid", count=9, family="shark")
    s, events = act(s, "challenge")
    assert "Cy is out" in texts(events)
    p = op.prompt(s)
    assert (p.name, p.player) == ("one-percent/reward", "Dee")
    assert s.reward.left == 3


def test_after_a_reveal_all_hands_are_discarded_and_those_in_draw_new_ones():
    s = new_game(seed=8)
    s = bidding(s, "Ana")
    old = {p: list(h) for p, h in s.hands.items()}
    s, _ = act(s, "bid", count=30, family="star")  # surely false
    s, _ = act(s, "challenge")  # Ben
    s, _ = act(s, "agree")  # Cy
    s, events = act(s, "disagree")  # Dee
    assert s.in_play == ["Ben", "Dee"]
    assert set(s.hands) == {"Ben", "Dee"} and all(len(h) == 3 for h in s.hands.values())
    assert all(card in s.bid_discard for hand in old.values() for card in hand)
    assert [e["player"] for e in events if e["type"] == "private"] == ["Ben", "Dee"]
    total = len(s.bid_deck) + len(s.bid_discard) + sum(len(h) for h in s.hands.values())
    assert total == 50


def test_empty_bid_pile_reshuffles_the_discards():
    s = bidding(new_game(seed=8), "Ana")
    moved = s.bid_deck[2:]
    s.bid_deck = s.bid_deck[:2]
    s.bid_discard = moved
    s, _ = act(s, "bid", count=30, family="star")
    s, _ = act(s, "challenge")
    s, _ = act(s, "disagree")
    s, events = act(s, "disagree")
    assert "shuffle the discards" in texts(events)
    assert all(len(h) == 3 for h in s.hands.values())
    total = len(s.bid_deck) + len(s.bid_discard) + sum(len(h) for h in s.hands.values())
    assert total == 50


def test_table_deal_asks_each_player_for_their_total():
    s = bidding(new_game(players=("Ana", "Ben", "Cy"), deal="table"), "Ana")
    s, _ = act(s, "bid", count=6, family="lightning")
    s, _ = act(s, "challenge")  # Ben
    s, events = act(s, "agree")  # Cy
    assert "reveal" in texts(events)
    p = op.prompt(s)
    assert (p.name, p.player) == ("one-percent/total", "Ana")  # from the bidder on
    assert "lightning" in p.text
    assert "0 to 14" in refused(s, "number", value=15)
    refused(s, "agree")
    s, events = act(s, "number", value=2)
    assert events == [{"type": "reveal", "player": "Ana", "value": 2}]
    s, _ = act(s, "number", value=0)
    s, events = act(s, "number", value=4)
    assert "6 lightning in all: the bid holds" in texts(events)
    assert s.in_play == ["Ana", "Cy"] and s.turn == "Ana"
    assert "discard your cards and draw 3" in texts(events)
    assert not [e for e in events if e["type"] == "private"]


# --------------------------------------------------------------------------- rewards


def test_reward_prompt_reads_the_row():
    s = rewarding(new_game(), "Dee", row=[6, "steal", 3])
    p = op.prompt(s)
    assert (p.name, p.player) == ("one-percent/reward", "Dee")
    assert p.context == {"revealed": [6, "steal", 3], "opponents": ["Ana", "Ben", "Cy"]}
    assert "6, steal and 3" in p.text and "3 rewards" in p.text
    assert ("Ana", "Ana") in p.slots["player"] and ("Dee", "Dee") not in p.slots["player"]


def test_rulebook_reward_example_takes_6_and_3_then_rolls_7_and_3():
    s = rewarding(new_game(), "Dee", row=[6, "steal", 3], dice=[7, 3])
    s, events = act(s, "take", card=6)
    assert "Dee takes the 6" in texts(events)
    s, _ = act(s, "take", card="3")
    assert s.owned["Dee"] == [6, 3] and s.reward_row == ["steal"]  # no refill yet
    s, events = act(s, "roll")
    said = texts(events)
    assert "7 and 3" in said and "the 7 misses" in said
    assert s.winner is None and s.phase == op.BID  # round over, nobody won
    assert s.owned["Dee"] == [6, 3]  # she keeps her winning numbers


def test_two_winning_dice_win_the_game():
    s = rewarding(new_game(), "Dee", row=[5], owned={"Dee": [6, 3]}, dice=[6, 0])
    s, events = act(s, "roll")
    assert s.winner == "Dee" and op.prompt(s) is None
    assert events[-1] == {"type": "game_over", "winners": ["Dee"], "scores": {"Ana": 0, "Ben": 0, "Cy": 0, "Dee": 1}}
    assert refused(s, "roll") == "The game is over."


def test_double_zero_wins_without_cards():
    s = rewarding(new_game(), "Ana", row=[5], dice=[0, 0])
    s, _ = act(s, "roll")
    assert s.winner == "Ana"


def test_winning_numbers_of_others_do_not_count():
    s = rewarding(new_game(), "Ana", row=[5], owned={"Ben": [4]}, dice=[4, 4])
    s, _ = act(s, "roll")
    assert s.winner is None


def test_three_rewards_then_the_round_ends_and_everyone_returns():
    s = new_game(seed=4)
    s.reward_deck = [1, 2, 9, 8]
    s = rewarding(s, "Cy", row=[4, 5, 7], dice=[1, 2])
    s.rng = random.Random(1)
    s, _ = act(s, "take", card=4)
    s, _ = act(s, "take", card=5)
    s, events = act(s, "take", card=7)
    said = texts(events)
    assert "Round 1 is over" in said and "Round 2: Cy opens" in said
    assert s.round == 2 and s.in_play == list(FOUR)
    assert s.reward_row == [8, 9, 2] and s.reward_deck == [1]
    assert s.phase == op.BID and s.turn == "Cy"
    assert all(len(s.hands[p]) == 3 for p in FOUR)
    total = len(s.bid_deck) + len(s.bid_discard) + sum(len(h) for h in s.hands.values())
    assert total == 50 and s.bid_discard == []


def test_cannot_take_a_card_not_on_offer():
    s = rewarding(new_game(), "Cy", row=[4, "reroll"])
    assert "no 6 on offer" in refused(s, "take", card=6)
    assert "Name a card" in refused(s, "take", card=12)


def test_done_is_refused_while_rewards_remain():
    s = rewarding(new_game(), "Cy", row=[4])
    assert "3 rewards" in refused(s, "done")


def test_empty_reward_deck_means_rolls_only():
    s = rewarding(new_game(), "Cy", row=[], deck=[], dice=[1, 2, 3, 4, 5, 6])
    assert "say roll" in op.prompt(s).text
    refused(s, "take", card=4)
    for _ in range(3):
        s, _ = act(s, "roll")
    assert s.round == 2
    assert s.reward_row == []


def test_round_end_with_a_short_reward_deck_refills_what_it_can():
    s = rewarding(new_game(), "Cy", row=[4, 5, 6], deck=[9], dice=[])
    s.rng = random.Random(1)
    for card in (4, 5, 6):
        s, events = act(s, "take", card=card)
    assert s.reward_row == [9]


def test_getting_a_bonus_counts_as_a_reward_but_using_it_does_not():
    s = rewarding(new_game(), "Cy", row=["steal", 4, 5], owned={"Ana": [7]})
    s, _ = act(s, "take", card="steal")
    assert s.reward.left == 2
    s, events = act(s, "use", card="steal", **{"from": "Ana"}, target=7)
    assert s.reward.left == 2
    assert "Cy steals the 7 from Ana" in texts(events)
    assert s.owned == {"Ana": [], "Ben": [], "Cy": [7], "Dee": []}
    assert "steal" in s.reward_discard


def test_steal_without_details_picks_the_most_useful_card():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": ["steal", 2], "Ana": [2, "reroll"], "Dee": [2, 8, 6]})
    s, events = act(s, "use", card="steal")
    assert s.owned["Dee"] == [2, 8] and s.owned["Cy"] == [2, 6]


def test_steal_refusals():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": ["steal"], "Ben": [5]})
    assert "opponents" in refused(s, "use", card="steal", **{"from": "Cy"})
    assert "no reward cards" in refused(s, "use", card="steal", **{"from": "Ana"})
    assert "Ben has no 6" in refused(s, "use", card="steal", **{"from": "Ben"}, target=6)
    assert "Nobody has a 9" in refused(s, "use", card="steal", target=9)
    s.owned["Ben"] = []
    assert "Nobody" in refused(s, "use", card="steal")
    assert "no reroll card" in refused(s, "use", card="reroll")
    assert "Only bonus" in refused(s, "use", card=4)


def test_draw_two_takes_the_top_two_reward_cards():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": ["draw_two"]}, deck=[1, 9, 8])
    s, events = act(s, "use", card="draw_two")
    assert s.owned["Cy"] == [8, 9] and s.reward_deck == [1]
    assert s.reward.left == 3 and s.reward_row == [4]
    assert "draws the 8 and the 9" in texts(events)


def test_draw_two_refused_on_an_empty_deck():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": ["draw_two"]}, deck=[])
    assert "empty" in refused(s, "use", card="draw_two")


def one_winning_die_state(dice_after, owned=("reroll",), dice_mode="host"):
    s = rewarding(new_game(dice=dice_mode), "Cy", row=[4], owned={"Cy": list(owned)}, dice=[0, 7] + list(dice_after))
    return s


def test_reroll_after_exactly_one_winning_die():
    s = one_winning_die_state([0])
    s, events = act(s, "roll")
    assert "the 7 misses" in texts(events) and "reroll card" in texts(events)
    s, events = act(s, "use", card="reroll")
    assert "Cy rerolls the 7: 0" in texts(events)
    assert s.winner == "Cy"


def test_reroll_keeps_the_reward_count_and_needs_a_fresh_roll():
    s = one_winning_die_state([5, 6], owned=("reroll", "reroll"))
    s, _ = act(s, "roll")
    s, _ = act(s, "use", card="reroll")
    assert s.reward.left == 2 and s.reward.dice == (0, 5)
    s, _ = act(s, "use", card="reroll")  # still one winning die: allowed again
    assert s.owned["Cy"] == []


def test_reroll_refused_without_one_winning_die_or_after_another_action():
    s = rewarding(new_game(), "Cy", row=[4, 5], owned={"Cy": ["reroll", 9]}, dice=[3, 7, 0, 7])
    s, _ = act(s, "roll")  # 3 and 7: no winning die
    assert "exactly one" in refused(s, "use", card="reroll")
    s, _ = act(s, "roll")  # 0 and 7: one winning die
    s, _ = act(s, "discard", card=9)  # something else first
    assert s.phase == op.REWARD
    assert "exactly one" in refused(s, "use", card="reroll")


def test_reroll_offered_after_the_last_reward():
    s = one_winning_die_state([3])
    s.reward.left = 1
    s, _ = act(s, "roll")
    p = op.prompt(s)
    assert "rewards are spent" in p.text and "reroll" in p.text
    s, events = act(s, "done")
    assert "Round 1 is over" in texts(events)


def test_unused_bonuses_are_offered_then_kept():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": ["steal"], "Ben": [6]}, left=1)
    s, _ = act(s, "take", card=4)
    assert "Use your steal, or say done" in op.prompt(s).text
    assert "spent" in refused(s, "roll")
    assert "spent" in refused(s, "take", card=4)
    s, _ = act(s, "done")
    assert s.owned["Cy"] == ["steal", 4] and s.phase == op.BID


def test_unusable_bonus_does_not_hold_up_the_round():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": ["steal"]}, left=1)
    s, events = act(s, "take", card=4)  # nobody else owns a card: nothing to steal
    assert s.phase == op.BID


def test_at_most_eight_reward_cards():
    full = [1, 2, 3, 4, 5, 6, 7, 8]
    s = rewarding(new_game(), "Cy", row=[9], owned={"Cy": full})
    assert "8 reward cards at most" in refused(s, "take", card=9)
    s, events = act(s, "discard", card=1)
    assert s.reward.left == 3 and 1 in s.reward_discard
    s, _ = act(s, "take", card=9)
    assert len(s.owned["Cy"]) == 8


def test_draw_two_refused_when_it_would_pass_the_limit():
    s = rewarding(new_game(), "Cy", row=[9], owned={"Cy": [1, 2, 3, 4, 5, 6, 7, "draw_two"]}, deck=[8, 9])
    assert "at most" in refused(s, "use", card="draw_two")
    s.reward_deck = [9]
    s, _ = act(s, "use", card="draw_two")  # draws one, net zero
    assert len(s.owned["Cy"]) == 8


def test_the_limit_is_a_rule():
    s = rewarding(new_game(max_cards=2), "Cy", row=[9], owned={"Cy": [1, 2]})
    assert "2 reward cards at most" in refused(s, "take", card=9)


def test_discard_refuses_a_card_you_do_not_own():
    s = rewarding(new_game(), "Cy", row=[9], owned={"Cy": [1]})
    assert "no 5" in refused(s, "discard", card=5)


def test_duplicate_winning_number_warns_by_default():
    s = rewarding(new_game(), "Cy", row=[6], owned={"Cy": [6]})
    s, events = act(s, "take", card=6)
    assert "adds nothing" in texts(events)
    assert s.owned["Cy"] == [6, 6]


def test_duplicate_winning_number_refused_by_rule():
    s = rewarding(new_game(duplicates="refuse"), "Cy", row=[6], owned={"Cy": [6]})
    assert "already have a 6" in refused(s, "take", card=6)


def test_draw_two_discards_duplicates_when_refusing_them():
    s = rewarding(new_game(duplicates="refuse"), "Cy", row=[1], owned={"Cy": [6, "draw_two"]}, deck=[7, 6])
    s, events = act(s, "use", card="draw_two")
    assert s.owned["Cy"] == [6, 7] and 6 in s.reward_discard


def test_table_dice_reward_roll_asks_for_the_dice():
    s = rewarding(new_game(dice="table"), "Dee", row=[5], owned={"Dee": [3, "reroll"]})
    s, events = act(s, "roll")
    p = op.prompt(s)
    assert (p.name, p.player) == ("one-percent/dice", "Dee")
    assert s.reward.left == 2
    assert "dice" in refused(s, "roll")
    s, events = act(s, "dice", values=[3, 8])
    assert "the 8 misses" in texts(events)
    s, _ = act(s, "use", card="reroll")
    p = op.prompt(s)
    assert p.name == "one-percent/dice" and "keep the 3" in p.text
    assert "rolled again" in refused(s, "dice", values=[5, 6])
    s, events = act(s, "dice", values=[0])
    assert s.winner == "Dee"
    assert not [e for e in events if e["type"] == "sound" and e["name"] == "dice"]


def test_table_dice_reroll_may_name_both_dice():
    s = rewarding(new_game(dice="table"), "Dee", row=[5], owned={"Dee": [3, "reroll"]})
    s, _ = act(s, "roll")
    s, _ = act(s, "dice", values=[8, 3])
    s, _ = act(s, "use", card="reroll")
    s, events = act(s, "dice", values=[3, 4])
    assert s.reward.dice == (4, 3) and s.winner is None


def test_winner_of_the_round_opens_the_next_one():
    s = rewarding(new_game(), "Ben", row=[], deck=[], dice=[1, 2, 1, 2, 1, 2])
    s.rng.shuffle = lambda cards: None
    for _ in range(3):
        s, _ = act(s, "roll")
    assert op.prompt(s).player == "Ben" and op.prompt(s).name == "one-percent/bid"


def test_scores_tell_who_holds_what():
    s = rewarding(new_game(), "Cy", row=[4], owned={"Cy": [6, "steal"], "Ana": [2]})
    spoken = op.scores(s)
    assert "Cy holds 6 and steal" in spoken and "Ana holds 2" in spoken
    assert "Ben has no reward cards" in spoken


# --------------------------------------------------------------------------- replay


def random_playthrough(seed: int, deal: str = "host", dice: str = "host", limit: int = 400):
    """Play a whole game with random legal-looking choices; return the actions."""
    chooser = random.Random(seed)
    state, _ = op.setup(GameOptions(players=FOUR, deal=deal, seed=seed, rules={"dice": dice}), Decks())
    actions = []
    while (p := op.prompt(state)) is not None and len(actions) < limit:
        action = _random_action(chooser, state, p)
        try:
            state, _ = op.apply(state, action)
        except RuleError:
            continue
        actions.append(action)
    return state, actions


def _random_action(chooser, state, p):
    name = p.name.split("/")[1]
    if name == "bid":
        last = p.context["last"]
        if last and chooser.random() < 0.4:
            action = {"intent": "challenge"}
        else:
            action = {
                "intent": "bid",
                "family": chooser.choice(state.cards.bid.family_names),
                "count": (last["count"] if last else 0) + chooser.randint(1, 3),
            }
    elif name == "vote":
        action = {"intent": chooser.choice(["agree", "disagree"])}
    elif name == "total":
        action = {"intent": "number", "value": chooser.randint(0, 6)}
    elif name == "dice":
        action = {"intent": "dice", "values": [chooser.randint(0, 9), chooser.randint(0, 9)]}
    else:
        options = [
            {"intent": "roll"},
            {"intent": "done"},
            {"intent": "use", "card": "reroll"},
            {"intent": "use", "card": "steal"},
            {"intent": "use", "card": "draw_two"},
        ]
        options += [{"intent": "take", "card": c} for c in p.context["revealed"]]
        action = chooser.choice(options)
    return {**action, "player": p.player}


@pytest.mark.parametrize("deal, dice", [("host", "host"), ("table", "table")])
def test_replaying_the_actions_rebuilds_the_same_state(deal, dice):
    state, actions = random_playthrough(21, deal, dice)
    assert actions
    replayed, _ = op.setup(GameOptions(players=FOUR, deal=deal, seed=21, rules={"dice": dice}), Decks())
    for action in actions:
        replayed, _ = op.apply(replayed, action)
    assert snapshot(replayed) == snapshot(state)


def test_random_games_end_with_a_winner():
    for seed in range(6):
        state, _ = random_playthrough(seed, limit=3000)
        assert state.winner in FOUR


def test_apply_never_changes_its_input():
    s = bidding(new_game(), "Ana")
    before = snapshot(s)
    act(s, "bid", count=3, family="star")
    assert snapshot(s) == before


# --------------------------------------------------------------------------- grammar


def test_grammar_covers_every_prompt_the_engine_asks():
    grammar = yaml.safe_load((ROOT / "grammars" / "one-percent.yaml").read_text())
    names = {"one-percent/bid", "one-percent/vote", "one-percent/total", "one-percent/reward", "one-percent/dice"}
    assert names <= set(grammar["prompts"])
    seen = set()
    for seed in range(4):
        for deal, dice in (("host", "host"), ("table", "table")):
            state, _ = op.setup(GameOptions(players=FOUR, deal=deal, seed=seed, rules={"dice": dice}), Decks())
            chooser = random.Random(seed)
            for _ in range(300):
                p = op.prompt(state)
                if p is None:
                    break
                seen.add(p.name)
                try:
                    state, _ = op.apply(state, _random_action(chooser, state, p))
                except RuleError:
                    pass
    assert seen <= set(grammar["prompts"])


@pytest.mark.parametrize(
    "prompt, heard, expected",
    [
        ("bid", "um, twelve clovers", {"intent": "bid", "count": 12, "family": "clover"}),
        ("bid", "make it 9 stars", {"intent": "bid", "count": 9, "family": "star"}),
        ("bid", "That's false!", {"intent": "challenge"}),
        ("vote", "it's right", {"intent": "agree"}),
        ("vote", "no way", {"intent": "disagree"}),
        ("total", "I have 5 clovers", {"intent": "number", "value": 5}),
        ("total", "none", {"intent": "number", "value": 0}),
        ("reward", "I'll take the six", {"intent": "take", "card": 6}),
        ("reward", "roll the dice", {"intent": "roll"}),
        ("reward", "steal the 6 from Ben", {"intent": "use", "card": "steal", "target": 6, "from": "Ben"}),
        ("reward", "take the top two", {"intent": "use", "card": "draw_two"}),
        ("dice", "seven and three", {"intent": "dice", "values": [7, 3]}),
        ("dice", "double zero", {"intent": "dice", "values": [0], "double": True}),
    ],
)
def test_grammar_understands_natural_phrasings(prompt, heard, expected):
    matcher = pytest.importorskip("voice.understanding.matcher")
    live = {"player": [("Ana", "Ana"), ("Ben", "Ben")]} if prompt == "reward" else None
    match = matcher.Matcher().match(f"one-percent/{prompt}", heard, live)
    assert match.intent is not None
    assert {k: match.intent.get(k) for k in expected} == expected


# --------------------------------------------------------------------------- info


def test_read_cards_repeats_the_hand_privately_without_changing_state():
    s = bidding(new_game(), "Ana", dealt=hands(Ana="star 3, comet 1, comet 2"))
    before = snapshot(s)
    same, events = act(s, "read_cards")
    assert same is s and snapshot(s) == before
    assert events == [{"type": "private", "player": "Ana", "text": "Your cards: star 3, comet 1 and comet 2."}]
    assert "table deal" in refused(bidding(new_game(deal="table"), "Ana"), "read_cards")


def test_read_rewards_reads_the_row_and_the_winning_numbers():
    s = rewarding(new_game(), "Cy", row=[4, "steal"], owned={"Cy": [6, "reroll"]})
    _, events = act(s, "read_rewards")
    assert texts(events) == ("Reward cards on offer: 4 and steal. Cy holds 6 and reroll; winning numbers: 0 and 6.")


def test_next_phase_opener_falls_back_to_the_next_player_in_play():
    s = bidding(new_game(), "Ana", in_play=["Ana", "Cy"])
    assert op._first_in_play_from(s, "Ben") == "Cy"
    assert op._first_in_play_from(s, "Dee") == "Ana"
    assert op._first_in_play_from(s, "Cy") == "Cy"


def test_stealing_a_duplicate_is_refused_by_rule():
    s = rewarding(new_game(duplicates="refuse"), "Cy", row=[4], owned={"Cy": ["steal", 6], "Ben": [6]})
    assert "already have a 6" in refused(s, "use", card="steal", **{"from": "Ben"}, target=6)
