"""Rules of Keep It 100 (host/games/keep_it_100.py), checked one at a time.

Most tests deal a real game from a hand-built deck, then set the lines or the
answers they need directly on the state, so each rule is checked with known numbers.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from host.cardtitle import names_text
from host.contract import Ending
from host.decks import Decks, Question
from host.engine import GameOptions, RuleError
from host.games import dealing
from host.games import keep_it_100 as k100

FOODS = (
    "pizza soup cake rice tacos curry salad bread noodles eggs fish steak chips "
    "beans sushi pie waffles bagels cereal yogurt oatmeal pancakes muffins toast "
    "bacon sausage ham cheese olives grapes melon apples pears plums kiwi mango "
    "lemons limes dates figs peas corn kale leeks onions garlic"
).split()


def question(i: int, word: str, answer: int) -> Question:
    return Question(
        id=f"q{i}",
        text=f"Have you ever eaten {word} for breakfast?",
        answer=answer,
        year=2021,
        source="test",
        category="food",
        games=("keep-it-100",),
    )


def make_deck(count: int = 60) -> Decks:
    """`count` questions, each about a different food, answers spread over 0-100."""

    def food(i: int) -> str:
        return FOODS[i % len(FOODS)] + ("" if i < len(FOODS) else "s")

    return Decks(questions=tuple(question(i, food(i), (i * 37) % 101) for i in range(count)))


def new_game(players=("Ana", "Ben", "Cy"), mode="basic", seed=7, decks=None, **rules):
    options = GameOptions(players=tuple(players), mode=mode, seed=seed, rules=rules)
    return k100.setup(options, decks or make_deck())


def act(state, intent, **fields):
    """Apply one intent from the prompted player."""
    action = {"intent": intent, "player": k100.prompt(state).player, **fields}
    return k100.apply(state, action)


def with_answer(state, answer: int, slot: int = 0):
    """Give the current Slider's card number `slot` (0-based) a known answer."""
    hand = k100._current_hand(state)
    hand[slot] = dataclasses.replace(hand[slot], answer=answer)
    return state


def texts(events) -> str:
    return " ".join(e["text"] for e in events if e["type"] == "say")


def snapshot(state) -> dict:
    """Everything in a state, comparable (the generator by its internal state)."""
    values = {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name != "rng"}
    return {**values, "rng": state.rng.getstate()}


def take_turn(state, answer, place, guesses=(), bets=()):
    """One whole competitive turn: choose card 1 (given `answer`), place, predict, bet."""
    if state.phase == k100.CHOOSE:
        state = with_answer(state, answer)
        state, _ = act(state, "choose_card", card=1)
    else:
        state.turn.card = dataclasses.replace(state.turn.card, answer=answer)
    events = []
    state, new = act(state, "place", **place)
    events += new
    for guess in guesses:
        state, new = act(state, "predict", guess=guess)
        events += new
    for amount in bets:
        state, new = act(state, "bet", amount=amount)
        events += new
    return state, events


def assert_refused(state, intent, **fields):
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        act(state, intent, **fields)
    assert snapshot(state) == before
    return error.value.reason


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("count, size", [(2, 7), (3, 6), (4, 5), (5, 4), (6, 3), (7, 2), (8, 2)])
def test_hand_size_follows_player_count(count, size):
    state, _ = new_game(players=[f"P{i}" for i in range(count)])
    assert all(len(hand) == size for hand in state.hands.values())


def test_hand_size_rule_overrides_table():
    state, _ = new_game(hand_size=2)
    assert [len(h) for h in state.hands.values()] == [2, 2, 2]


def test_two_sorted_lines_of_two_starters():
    state, events = new_game(starters=[90, 10, 60, 30])
    assert len(state.lines) == 2
    assert all(len(line) == 2 and line == sorted(line) for line in state.lines)
    assert sorted(state.lines[0] + state.lines[1]) == [10, 30, 60, 90]
    assert "Line one:" in texts(events) and "Line two:" in texts(events)


def test_default_starters_are_seven_values_spread_over_0_to_100():
    starters = k100.RULE_DEFAULTS["starters"]
    assert len(starters) == 7 and min(starters) < 15 and max(starters) > 85


def test_starters_given_as_text_from_the_command_line():
    state, _ = new_game(starters="5,50,70,95")
    assert sorted(state.lines[0] + state.lines[1]) == [5, 50, 70, 95]


def test_each_player_gets_a_private_list_of_their_cards():
    state, events = new_game()
    privates = {e["player"]: e["text"] for e in events if e["type"] == "private"}
    assert set(privates) == {"Ana", "Ben", "Cy"}
    assert state.hands["Ben"][0].text in privates["Ben"]


def test_same_seed_same_deal_and_other_seed_differs():
    first, _ = new_game(seed=11)
    again, _ = new_game(seed=11)
    other, _ = new_game(seed=12)
    assert snapshot(first) == snapshot(again)
    assert (first.hands, first.lines) != (other.hands, other.lines)


def test_unplayed_questions_are_dealt_before_played_ones():
    decks = make_deck(30)
    used = frozenset(q.id for q in decks.questions[:12])
    decks = dataclasses.replace(decks, used_questions=used)
    state, _ = new_game(players=("Ana", "Ben"), decks=decks)
    dealt = [q.id for hand in state.hands.values() for q in hand]
    assert not set(dealt) & used


def test_first_slider_rule():
    state, _ = new_game(first_slider="Cy")
    assert k100.prompt(state).player == "Cy"


def test_a_later_game_of_the_day_starts_with_the_last_games_lowest_scorer():
    """The rulebook: "If you play again, the player who scored the lowest in the last
    game goes first"; on a tie, the first of them in seat order."""
    last = {"Ana": 60, "Ben": 20, "Cy": 40}
    assert k100.rules_after(last, ("Ana", "Ben", "Cy"), {}) == {"first_slider": "Ben"}
    assert k100.rules_after({"Ana": 20, "Ben": 20, "Cy": 20}, ("Cy", "Ana", "Ben"), {}) == {"first_slider": "Cy"}
    assert k100.rules_after(last, ("Ana", "Cy", "Dee"), {}) == {"first_slider": "Cy"}  # Ben has left
    assert k100.rules_after(last, ("Ana", "Ben", "Cy"), {"first_slider": "Ana"}) == {}  # named outright
    assert k100.rules_after(last, ("Ana", "Ben", "Cy"), {"again_first": "listed"}) == {}
    state, _ = new_game(**k100.rules_after(last, ("Ana", "Ben", "Cy"), {}))
    assert k100.prompt(state).player == "Ben"


@pytest.mark.parametrize(
    "options, reason",
    [
        (dict(mode="speed"), "no mode"),
        (dict(players=("Ana",)), "2 to 8"),
        (dict(players=[f"P{i}" for i in range(9)]), "2 to 8"),
        (dict(players=("Ana", "Ana")), "different name"),
        (dict(colour="red"), "no rule called colour"),
        (dict(hand_size="lots"), "hand_size must be a whole number"),
        (dict(starters=[10, 20, 30]), "at least 4"),
        (dict(starters=[10, 20, 30, 140]), "between 0 and 100"),
        (dict(first_slider="Zed"), "isn't playing"),
        (dict(again_first="oldest"), "lowest or listed"),
        (dict(decks=make_deck(10)), "need 18"),
        (dict(mode="challenge", decks=make_deck(10)), "needs 14"),
        (dict(mode="challenge", players=[f"P{i}" for i in range(9)]), "1 to 8"),
    ],
)
def test_invalid_options_are_refused(options, reason):
    with pytest.raises(RuleError) as error:
        new_game(**options)
    assert reason in error.value.reason


def test_table_deal_is_refused():
    with pytest.raises(RuleError):
        k100.setup(GameOptions(players=("Ana", "Ben"), deal="table"), make_deck())


# ---------------------------------------------------------------- choosing a card


def test_slider_is_asked_first_and_prompt_names_them():
    state, _ = new_game()
    prompt = k100.prompt(state)
    assert prompt.name == "keep-it-100/choose_card" and prompt.player == "Ana"
    assert prompt.text.startswith("Ana")
    assert prompt.context["hand"] == [q.text for q in state.hands["Ana"]]


def test_choose_by_number_reads_the_question():
    state, _ = new_game()
    second = state.hands["Ana"][1]
    state, events = act(state, "choose_card", card=2)
    assert state.turn.card == second and second not in state.hands["Ana"]
    assert second.text in texts(events)
    assert k100.prompt(state).name == "keep-it-100/place"


def test_a_resumed_game_reads_the_question_in_play_again_and_where_it_was_slid():
    state, _ = new_game()
    assert k100.resumed(state) == []  # a card still to be chosen: the prompt names them
    card = state.hands["Ana"][0]
    state, _ = act(state, "choose_card", card=1)
    assert card.text in texts(k100.resumed(state))  # the Slider places it next
    low, high = state.lines[0][:2]
    state, placing = act(state, "place", line=1, after=low, before=high)
    said = texts(k100.resumed(state))
    where = texts(placing).split("Ana slides it ")[1].split(".")[0]
    assert card.text in said and f"Ana slid it {where}." in said, said  # the others predict on it


def test_words_from_each_card_pick_it():
    hand = [question(1, "pizza", 10), question(2, "soup", 20)]
    words = dict(k100.card_words(hand))
    assert words["pizza"] == 1 and words["soup"] == 2
    assert "breakfast" not in words and "eaten" not in words  # shared by both cards
    assert "have" not in words  # a stop word


def test_prompt_gives_live_word_and_number_lists():
    state, _ = new_game()
    slots = k100.prompt(state).slots
    assert [v for _, v in slots["card_number"]] == [1, 2, 3, 4, 5, 6]
    assert ("last", 6) in slots["card_ordinal"]
    first_word = state.hands["Ana"][0].text.split()[4]
    assert (first_word, 1) in slots["card_word"]


def test_read_my_cards_speaks_the_hand_and_changes_nothing():
    state, _ = new_game()
    before = snapshot(state)
    after, events = act(state, "read_cards")
    assert snapshot(after) == before
    spoken = texts(events)
    assert all(q.text in spoken for q in state.hands["Ana"])


def test_a_turn_names_the_cards_by_titles_and_the_full_text_is_a_command_away():
    state, events = new_game()
    hand = state.hands["Ana"]
    turn = next(e["text"] for e in events if e["type"] == "say" and "Slider" in e["text"])
    assert turn == "Ana, you're the Slider: " + names_text(hand)  # in hand order
    assert not any(q.text in turn for q in hand)
    private = [e["text"] for e in events if e["type"] == "private" and e["player"] == "Ana"]
    assert all(q.text in private[0] for q in hand)  # told in full, privately
    after, events = act(state, "read_card", card=3)
    assert snapshot(after) == snapshot(state) and texts(events) == f"Card 3: {hand[2].text}"
    assert "1 to 6" in assert_refused(state, "read_card", card=7)


@pytest.mark.parametrize(
    "how, full_first, full_later",
    [("titles", False, False), ("first", True, False), ("full", True, True), (True, True, True)],
)
def test_read_hand_rule_says_when_a_hand_is_read_in_full(how, full_first, full_later):
    state, events = new_game(players=("Ana", "Ben"), read_hand=how)
    first_turn = texts(events)
    assert (state.hands["Ana"][0].text in first_turn) == full_first
    for _ in range(2):  # Ana's and Ben's turns: Ana again
        state = with_answer(state, 50)
        state, _ = act(state, "choose_card", card=1)
        state, _ = act(state, "place", line=1, end="high")
        state, events = act(state, "predict", guess="lower")
    assert k100.prompt(state).player == "Ana"
    assert (state.hands["Ana"][0].text in texts(events)) == full_later


def test_read_hand_off_names_no_cards():
    state, events = new_game(read_hand="off")
    assert "Card 1" not in texts(events).split("Slider.")[1]


def test_choosing_a_card_not_in_hand_is_refused():
    state, _ = new_game()
    assert "1 to 6" in assert_refused(state, "choose_card", card=7)
    assert_refused(state, "choose_card", card=0)


def test_only_the_prompted_player_may_answer():
    state, _ = new_game()
    with pytest.raises(RuleError) as error:
        k100.apply(state, {"intent": "choose_card", "card": 1, "player": "Ben"})
    assert "Ana" in error.value.reason


def test_an_intent_for_another_moment_is_refused():
    state, _ = new_game()
    assert_refused(state, "predict", guess="lower")


def test_last_card_is_played_without_asking():
    state, _ = new_game(players=("Ana", "Ben"), hand_size=1)
    assert k100.prompt(state).name == "keep-it-100/place"
    assert state.hands["Ana"] == [] and state.turn.card is not None


# ---------------------------------------------------------------- placing


def placed(state):
    state, _ = act(state, "choose_card", card=1)
    state.lines = [[12, 42, 60], [5, 80]]
    return state


@pytest.mark.parametrize(
    "fields, spot",
    [
        (dict(after=42, before=60), (0, 2, 42, 60)),
        (dict(after=60, before=42), (0, 2, 42, 60)),  # said high first
        (dict(before=12), (0, 0, None, 12)),  # "below 12"
        (dict(line=2, after=80), (1, 2, 80, None)),  # "above 80 on line two"
        (dict(after=42), (0, 2, 42, 60)),  # just above 42
        (dict(line=2, end="low"), (1, 0, None, 5)),  # "start of line two"
        (dict(line=1, end="high"), (0, 3, 60, None)),
        (dict(line=1, after=12.0, before=42.0), (0, 1, 12, 42)),  # matcher numbers as floats
    ],
)
def test_place_names_one_spot(fields, spot):
    state = placed(new_game()[0])
    state, events = act(state, "place", **fields)
    s = state.turn.spot
    assert (s.line, s.index, s.low, s.high) == spot
    assert "Ana slides it" in texts(events)


@pytest.mark.parametrize(
    "fields, reason",
    [
        (dict(after=12, before=60), "aren't next to each other"),
        (dict(after=42, before=77), "no 77"),
        (dict(line=2, after=42, before=60), "no 42 on line two"),
        (dict(end="low"), "Both lines"),
        (dict(line=3, after=5), "two lines"),
        (dict(), "Say where"),
    ],
)
def test_invalid_spots_are_refused(fields, reason):
    state = placed(new_game()[0])
    assert reason in assert_refused(state, "place", **fields)


def test_same_spot_on_both_lines_needs_the_line():
    state = placed(new_game()[0])
    state.lines = [[10, 50], [10, 90]]
    assert "Both lines" in assert_refused(state, "place", before=10)
    state, _ = act(state, "place", line=2, before=10)
    assert state.turn.spot.line == 1


def test_a_number_there_twice_needs_both_neighbours():
    state = placed(new_game()[0])
    state.lines = [[30, 30, 70], [5, 80]]
    assert "twice" in assert_refused(state, "place", after=30)
    state, _ = act(state, "place", after=30, before=70)
    assert state.turn.spot.index == 2


def test_place_prompt_reads_both_lines_and_gives_table_numbers():
    state = placed(new_game()[0])
    prompt = k100.prompt(state)
    assert "Line one: 12, 42, 60. Line two: 5, 80." in prompt.text
    assert prompt.context == {"lines": [[12, 42, 60], [5, 80]]}
    assert [v for _, v in prompt.slots["table_number"]] == [5, 12, 42, 60, 80]


# ---------------------------------------------------------------- predicting


def test_others_predict_in_seat_order_after_the_slider():
    state, _ = new_game(players=("Ana", "Ben", "Cy", "Dee"), first_slider="Cy")
    state, _ = act(state, "choose_card", card=1)
    state.lines = [[25, 87], [5, 80]]
    state, _ = act(state, "place", after=25, before=87)
    order = []
    while state.phase == k100.PREDICT:
        order.append(k100.prompt(state).player)
        state, _ = act(state, "predict", guess="correct")
    assert order == ["Dee", "Ana", "Ben"]


def test_nothing_is_lower_than_the_start_of_a_line():
    state = placed(new_game()[0])
    state, _ = act(state, "place", before=12)
    assert k100.prompt(state).choices == ("right", "higher")
    reason = assert_refused(state, "predict", guess="lower")
    assert "can't be lower" in reason


def test_nothing_is_higher_than_the_end_of_a_line():
    state = placed(new_game()[0])
    state, _ = act(state, "place", line=2, after=80)
    assert "can't be higher" in assert_refused(state, "predict", guess="higher")


def test_unknown_guess_is_refused():
    state = placed(new_game()[0])
    state, _ = act(state, "place", after=42, before=60)
    assert_refused(state, "predict", guess="sideways")


# ---------------------------------------------------------------- revealing and scoring


def scores_of(events):
    return {e["player"]: e["delta"] for e in events if e["type"] == "score"}


def test_rulebook_example_between_25_and_87_right_spot():
    state, _ = new_game()
    state.lines = [[25, 87], [5, 80]]
    state, events = take_turn(state, 60, dict(after=25, before=87), guesses=["correct", "higher"])
    assert state.lines[0] == [25, 60, 87]
    assert scores_of(events) == {"Ana": 20, "Ben": 10}
    assert {"type": "sound", "name": "correct"} in events
    reveal = next(e for e in events if e["type"] == "reveal")
    assert (reveal["player"], reveal["value"]) == ("Ana", 60)


def test_revealed_questions_are_reported_as_used():
    state, _ = new_game()
    card_id = state.hands["Ana"][0].id
    state, events = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"] * 2)
    assert {"type": "questions_used", "ids": [card_id]} in events


def test_reading_intents_are_marked_as_info_for_the_session():
    assert k100.INFO_INTENTS == {"read_cards", "read_card", "read_question"}
    state = placed(new_game()[0])
    after, events = act(state, "read_question")
    assert after is state and state.turn.card.text in texts(events)


def test_wrong_spot_discards_card_and_pays_right_direction():
    state, _ = new_game()
    state.lines = [[25, 87], [5, 80]]
    state, events = take_turn(state, 95, dict(after=25, before=87), guesses=["higher", "lower"])
    assert state.lines[0] == [25, 87]
    assert state.discards[-1].answer == 95
    assert scores_of(events) == {"Ben": 10}
    assert "belonged higher" in texts(events)
    assert {"type": "sound", "name": "wrong"} in events


def test_reveal_comes_after_a_drumroll_cue():
    state, _ = new_game()
    state.lines = [[25, 87], [5, 80]]
    state, events = take_turn(state, 30, dict(after=25, before=87), guesses=["correct"] * 2)
    kinds = [e.get("name", e["type"]) for e in events]
    assert kinds.index(k100.REVEAL_CUE) < kinds.index("reveal") < kinds.index("correct")


@pytest.mark.parametrize("answer", [25, 87])
def test_equal_to_a_neighbour_counts_as_right(answer):
    state, _ = new_game()
    state.lines = [[25, 87], [5, 80]]
    state, events = take_turn(state, answer, dict(after=25, before=87), guesses=["higher", "correct"])
    assert state.lines[0] == sorted([25, 87, answer])
    assert scores_of(events) == {"Ana": 20, "Cy": 10}


def test_points_are_configurable():
    state, _ = new_game(slider_points=30, predictor_points=5)
    state.lines = [[25, 87], [5, 80]]
    state, events = take_turn(state, 50, dict(after=25, before=87), guesses=["correct"] * 2)
    assert scores_of(events) == {"Ana": 30, "Ben": 5, "Cy": 5}


def test_slider_rotates_to_the_next_seat():
    state, _ = new_game()
    state, _ = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"] * 2)
    assert k100.prompt(state).player == "Ben"
    state, _ = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"] * 2)
    assert k100.prompt(state).player == "Cy"


def test_scores_are_read_after_each_full_rotation_only():
    state, _ = new_game(players=("Ana", "Ben"))
    state, events = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"])
    assert "Scores:" not in texts(events)
    state, events = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"])
    assert "Scores:" in texts(events)


def test_game_ends_when_all_hands_are_empty_and_most_points_win():
    state, _ = new_game(players=("Ana", "Ben"), hand_size=1)
    state.lines = [[25, 87], [5, 80]]
    state, _ = take_turn(state, 50, dict(after=25, before=87), guesses=["lower"])
    state, events = take_turn(state, 99, dict(line=2, after=5, before=80), guesses=["higher"])
    over = events[-1]
    assert over["type"] == "game_over"
    assert over == {"type": "game_over", "scores": {"Ana": 30, "Ben": 0}, "winners": ["Ana"]}
    assert k100.prompt(state) is None
    with pytest.raises(RuleError):
        k100.apply(state, {"intent": "choose_card", "card": 1})


# ---------------------------------------------------------------- over 100


def test_no_betting_while_nobody_has_points():
    state, _ = new_game(mode="over100")
    state, events = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"] * 2)
    assert any(e["type"] == "reveal" for e in events)


def over100_with_points(points):
    state, _ = new_game(mode="over100")
    state.points = dict(points)
    state.lines = [[25, 87], [5, 80]]
    return state


def test_everyone_with_points_bets_slider_first():
    state = over100_with_points({"Ana": 0, "Ben": 40, "Cy": 20})
    state, _ = act(state, "choose_card", card=1)
    state, _ = act(state, "place", after=25, before=87)
    state, _ = act(state, "predict", guess="correct")
    state, _ = act(state, "predict", guess="correct")
    assert k100.prompt(state).player == "Ben"  # Ana (Slider) has nothing to bet
    state = over100_with_points({"Ana": 30, "Ben": 40, "Cy": 20})
    state, _ = act(state, "choose_card", card=1)
    state, _ = act(state, "place", after=25, before=87)
    state, _ = act(state, "predict", guess="correct")
    state, _ = act(state, "predict", guess="correct")
    prompt = k100.prompt(state)
    assert (prompt.name, prompt.player) == ("keep-it-100/bet", "Ana")
    assert prompt.context == {"max": 30, "step": 10}
    assert ("all in", 30) in prompt.slots["bet_all"]


def test_bets_pay_one_to_one_plus_card_points_or_are_lost():
    state = over100_with_points({"Ana": 30, "Ben": 40, "Cy": 20})
    state, events = take_turn(state, 50, dict(after=25, before=87), guesses=["correct", "higher"], bets=[30, 20, 20])
    assert scores_of(events) == {"Ana": 50, "Ben": 30, "Cy": -20}
    assert state.points == {"Ana": 80, "Ben": 70, "Cy": 0}


def test_no_bet_still_earns_card_points():
    state = over100_with_points({"Ana": 30, "Ben": 40, "Cy": 20})
    state, events = take_turn(state, 50, dict(after=25, before=87), guesses=["correct", "correct"], bets=[0, 0, 0])
    assert scores_of(events) == {"Ana": 20, "Ben": 10, "Cy": 10}


def test_bet_above_your_points_or_off_step_is_refused():
    state = over100_with_points({"Ana": 30, "Ben": 40, "Cy": 20})
    state, _ = act(state, "choose_card", card=1)
    state, _ = act(state, "place", after=25, before=87)
    state, _ = act(state, "predict", guess="correct")
    state, _ = act(state, "predict", guess="correct")
    assert "only have 30" in assert_refused(state, "bet", amount=40)
    assert "steps of 10" in assert_refused(state, "bet", amount=15)
    assert_refused(state, "bet", amount=-10)


def test_basic_mode_has_no_bets():
    state, _ = new_game()
    state.points = {"Ana": 50, "Ben": 50, "Cy": 50}
    state, events = take_turn(state, 50, dict(line=1, end="high"), guesses=["correct"] * 2)
    assert any(e["type"] == "reveal" for e in events)


# ---------------------------------------------------------------- tiebreak


def tied_game(deck_size=60, **rules):
    state, _ = new_game(players=("Ana", "Ben", "Cy"), hand_size=1, decks=make_deck(deck_size), **rules)
    state.lines = [[25, 87], [5, 80]]
    state, _ = take_turn(state, 50, dict(after=25, before=87), guesses=["lower", "lower"])
    state, _ = take_turn(state, 50, dict(line=2, after=5, before=80), guesses=["lower", "lower"])
    state, events = take_turn(state, 99, dict(line=1, after=25, before=50), guesses=["lower", "lower"])
    return state, events


def written(state):
    """By voice: the tied players have written their numbers down and the table said ready."""
    return act(state, "ready")[0]


def test_tie_goes_to_a_tiebreak_question_for_the_tied_players():
    state, events = tied_game()
    assert state.points == {"Ana": 20, "Ben": 20, "Cy": 0}
    assert "tie between Ana and Ben" in texts(events)
    assert state.tiebreak.question.text in texts(events)
    prompt = k100.prompt(written(state))
    assert (prompt.name, prompt.player) == ("keep-it-100/tiebreak", "Ana")


def test_closest_tiebreak_guess_wins():
    state, _ = tied_game()
    state.tiebreak.question = dataclasses.replace(state.tiebreak.question, answer=40)
    state, _ = act(written(state), "number", value=45)
    state, events = act(state, "number", value=30)
    assert events[-1] == {"type": "game_over", "scores": state.points, "winners": ["Ana"]}
    assert "Ana 5 off, Ben 10 off" in texts(events)


def test_tied_tiebreak_repeats_with_a_fresh_question():
    state, _ = tied_game()
    first = state.tiebreak.question
    state.tiebreak.question = dataclasses.replace(first, answer=40)
    state, _ = act(written(state), "number", value=45)
    state, events = act(state, "number", value=35)
    assert "Still tied" in texts(events)
    assert state.tiebreak.question.id != first.id
    assert "write down a number" in texts(events) and k100.prompt(state).player is None
    assert k100.prompt(written(state)).player == "Ben"  # the order rotates


def test_by_voice_every_number_is_written_down_before_any_is_heard():
    """Rulebook: "On the count of 3, all tied players shout out the exact number", so no one
    hears another's first. By voice each writes it down; only once the table says ready
    does the host ask for them, one at a time."""
    state, events = tied_game()
    assert "Ana and Ben, each write down a number from 0 to 100" in texts(events)
    assert "say a number" not in texts(events)
    prompt = k100.prompt(state)
    assert (prompt.name, prompt.player) == ("keep-it-100/tiebreak_ready", None)
    with pytest.raises(RuleError, match="ready once every number is written down"):
        act(state, "number", value=45)
    state.tiebreak.question = dataclasses.replace(state.tiebreak.question, answer=40)
    state = written(state)
    assert "the number you wrote" in k100.prompt(state).text
    state, events = act(state, "number", value=45)
    assert texts(events) == "Ana: 45."
    assert {"type": "reveal", "player": "Ana", "card": "tiebreak number", "value": 45} in events
    state, events = act(state, "number", value=30)
    assert "The answer is 40. Ana 5 off, Ben 10 off." in texts(events)


def test_with_phones_each_tied_player_types_the_number_on_their_own_page():
    """Rulebook: "all tied players shout out the exact number" at once; with phones every
    tied player's field is open at once, they type in any order, and the host reveals
    the numbers together."""
    state, events = tied_game(tiebreak_entry="phone")
    assert "each enter a number from 0 to 100 on your phone" in texts(events)
    assert "write" not in texts(events) and "each say" not in texts(events)
    prompt = k100.prompt(state)
    assert prompt.player is None and prompt.context == {"answering": ["Ana", "Ben"]}
    assert prompt.text == "Ana and Ben, enter your numbers on your phones."
    ana, ben, cy = (k100.hand_view(state, p) for p in ("Ana", "Ben", "Cy"))
    assert ana.number is not None and ana.number.intent == {"intent": "number"}
    assert ben.number is not None and cy.number is None  # both fields open at once
    assert state.tiebreak.question.text in ana.facts[0]
    state, events = k100.apply(state, {"intent": "number", "value": 30, "player": "Ben"})  # Ben first
    assert "30" not in texts(events) and "Got it, Ben." in texts(events)
    assert k100.prompt(state).context == {"answering": ["Ana"]}
    assert "Your number: 30." in k100.hand_view(state, "Ben").facts
    assert "30" not in " ".join(k100.hand_view(state, "Ana").facts)  # nobody sees another's
    with pytest.raises(RuleError, match="Ben, your number is in already"):
        k100.apply(state, {"intent": "number", "value": 50, "player": "Ben"})
    with pytest.raises(RuleError, match="Cy is not in the tiebreak"):
        k100.apply(state, {"intent": "number", "value": 50, "player": "Cy"})
    state, events = k100.apply(state, {"intent": "number", "value": 45, "player": "Ana"})
    assert "You said: Ana 45 and Ben 30." in texts(events)


def test_a_phone_page_shows_the_full_cards_and_plays_one_on_your_turn():
    state, _ = new_game()
    ana, ben = k100.hand_view(state, "Ana"), k100.hand_view(state, "Ben")
    assert [c.detail for c in ana.cards] == [q.text for q in state.hands["Ana"]]
    assert ana.cards[0].play == {"intent": "choose_card", "card": 1}
    assert all(c.play is None for c in ben.cards)
    assert not set(c.detail for c in ben.cards) & set(c.detail for c in ana.cards)


def test_tiebreak_question_can_be_read_again():
    state, _ = tied_game()
    for ready in (False, True):
        state = written(state) if ready else state
        after, events = act(state, "read_question")
        assert after is state and state.tiebreak.question.text in texts(events)


def test_tiebreak_number_out_of_range_is_refused():
    state, _ = tied_game()
    assert_refused(written(state), "number", value=101)


def test_no_fresh_question_left_means_a_shared_win():
    state, events = tied_game(deck_size=3)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == ["Ana", "Ben"]


# ---------------------------------------------------------------- the challenge


def challenge(players=("Ana", "Ben"), **rules):
    state, events = new_game(players=players, mode="challenge", starters=[50], **rules)
    return state, events


def challenge_turn(state, answer, **place):
    state = with_answer(state, answer)
    state, _ = act(state, "choose_card", card=1)
    return act(state, "place", **place)


def test_challenge_setup_one_line_one_starter_fourteen_cards():
    state, events = challenge()
    assert state.lines == [[50]]
    assert len(state.challenge.deck) == 12 and len(state.challenge.offer) == 2
    assert state.challenge.lives == 5
    assert "place 10 cards" in texts(events)


def test_challenge_works_solo():
    state, _ = challenge(players=("Ana",))
    state, _ = challenge_turn(state, 70, after=50)
    assert k100.prompt(state).player == "Ana"


def test_challenge_unchosen_card_passes_to_the_next_slider():
    state, _ = challenge()
    passed = state.challenge.offer[1]
    state, events = challenge_turn(state, 70, after=50)
    assert state.lines == [[50, 70]]
    prompt = k100.prompt(state)
    assert prompt.player == "Ben" and prompt.context["hand"][0] == passed.text
    assert len(state.challenge.offer) == 2 and len(state.challenge.deck) == 11


def test_challenge_wrong_card_costs_a_life():
    state, _ = challenge()
    state, events = challenge_turn(state, 20, after=50)
    assert state.challenge.lives == 4 and state.lines == [[50]]
    assert "Wrong spot: it belonged lower. 4 lives left." in texts(events)


def test_challenge_has_no_predictions():
    state, _ = challenge(players=("Ana", "Ben", "Cy"))
    state, events = challenge_turn(state, 70, after=50)
    assert any(e["type"] == "reveal" for e in events)


def test_challenge_won_at_ten_placed_scores_lives_times_twenty():
    state, _ = challenge()
    for _ in range(2):
        state, _ = challenge_turn(state, 10, line=1, end="high")  # wrong, wrong
    for value in range(51, 61):
        state, events = challenge_turn(state, value, line=1, end="high")
    assert events[-1] == {"type": "game_over", "scores": {"Ana": 60, "Ben": 60}, "winners": ["Ana", "Ben"]}
    assert "kept it 60" in texts(events)


def test_challenge_lost_at_zero_lives():
    state, _ = challenge()
    for _ in range(5):
        state, events = challenge_turn(state, 10, after=50)
    assert events[-1] == {"type": "game_over", "scores": {"Ana": 0, "Ben": 0}, "winners": []}


def test_challenge_can_end_when_no_fresh_card_is_left():
    state, _ = challenge(challenge_deck=4, challenge_play_leftover=False)
    state, _ = challenge_turn(state, 70, line=1, end="high")
    state, _ = challenge_turn(state, 80, line=1, end="high")
    state, events = challenge_turn(state, 90, line=1, end="high")
    assert "can't supply" in texts(events)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == []


def test_challenge_plays_the_last_passed_card_alone_by_default():
    """Rulebook: "It's possible to win the game without playing up to 4 of the cards"."""
    state, _ = challenge(challenge_deck=3, challenge_target=3)
    state, _ = challenge_turn(state, 70, line=1, end="high")
    state, _ = challenge_turn(state, 80, line=1, end="high")
    assert k100.prompt(state).name == "keep-it-100/place"  # only one card: no choice
    state.turn.card = dataclasses.replace(state.turn.card, answer=90)
    state, events = act(state, "place", line=1, end="high")
    assert events[-1]["winners"] == ["Ana", "Ben"]


def test_challenge_goes_on_while_lives_and_a_passed_card_are_left():
    """Rulebook: "Play until either you've collectively placed 10 cards ... or you have
    lost all your lives": with 9 placed, 4 lost and a life left, the 14th card is played."""
    state, _ = challenge()
    for _ in range(4):
        state, _ = challenge_turn(state, 10, line=1, end="high")  # wrong
    for value in range(51, 60):
        state, events = challenge_turn(state, value, line=1, end="high")  # right
    assert (state.challenge.placed, state.challenge.lives) == (9, 1)
    assert not state.challenge.deck and k100.prompt(state).name == "keep-it-100/place"
    state.turn.card = dataclasses.replace(state.turn.card, answer=99)
    state, events = act(state, "place", line=1, end="high")
    assert events[-1]["winners"] == ["Ana", "Ben"] and "10 cards placed" in texts(events)


def test_challenge_has_a_single_line():
    state, _ = challenge()
    state, _ = act(state, "choose_card", card=1)
    assert "only one line" in assert_refused(state, "place", line=2, after=50)


# ---------------------------------------------------------------- replay


def test_replaying_the_actions_rebuilds_the_same_state():
    options = GameOptions(players=("Ana", "Ben"), mode="over100", seed=5, rules={"hand_size": 3})
    state, _ = k100.setup(options, make_deck())
    actions = []
    while k100.prompt(state) is not None:
        prompt = k100.prompt(state)
        kind = prompt.name.split("/")[1]
        action = {
            "player": prompt.player,
            **{
                "choose_card": {"intent": "choose_card", "card": 1},
                "place": {"intent": "place", "line": 1, "end": "high"},
                "predict": {"intent": "predict", "guess": "correct"},
                "bet": {"intent": "bet", "amount": prompt.context.get("max", 0)},
                "tiebreak_ready": {"intent": "ready"},
                "tiebreak": {"intent": "number", "value": 50},
            }[kind],
        }
        state, _ = k100.apply(state, action)
        actions.append(action)
    replayed, _ = k100.setup(options, make_deck())
    for action in actions:
        replayed, _ = k100.apply(replayed, action)
    assert snapshot(replayed) == snapshot(state)
    assert replayed.winners == state.winners


def test_apply_leaves_its_input_untouched():
    state, _ = new_game()
    before = snapshot(state)
    k100.apply(state, {"intent": "choose_card", "card": 1, "player": "Ana"})
    assert snapshot(state) == before


def test_scores_summary():
    state, _ = new_game()
    state.points = {"Ana": 10, "Ben": 40, "Cy": 20}
    assert k100.scores(state) == "Ben 40, Cy 20 and Ana 10."


# ---------------------------------------------------------------- grammar


def heard(state, text):
    """What the matcher makes of `text` at the current prompt (None if refused)."""
    from voice.understanding.matcher import Matcher

    prompt = k100.prompt(state)
    return Matcher().match(prompt.name, text, prompt.slots).intent


def test_grammar_covers_every_prompt_the_engine_asks():
    from voice.understanding.grammar import load_grammar

    grammar = load_grammar("keep-it-100")
    for name in ("choose_card", "place", "predict", "bet", "tiebreak_ready", "tiebreak"):
        assert f"keep-it-100/{name}" in grammar.prompts


@pytest.mark.parametrize(
    "text, expected",
    [
        ("card two", {"intent": "choose_card", "card": 2}),
        ("the second one", {"intent": "choose_card", "card": 2}),
        ("the last one", {"intent": "choose_card", "card": 6}),
        ("read my cards", {"intent": "read_cards"}),
    ],
)
def test_choose_card_phrases(text, expected):
    state, _ = new_game()
    assert heard(state, text) == expected


def test_choose_card_by_a_word_from_the_question():
    state, _ = new_game()
    word = state.hands["Ana"][2].text.split()[4]
    assert heard(state, f"um, the {word} one") == {"intent": "choose_card", "card": 3}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("between 42 and 60", {"after": 42, "before": 60}),
        ("below 12", {"before": 12}),
        ("above 80 on line two", {"after": 80, "line": 2}),
        ("line one, between 12 and 42", {"line": 1, "after": 12, "before": 42}),
        ("at the end of line two", {"end": "high", "line": 2}),
        ("the start of the top line", {"end": "low", "line": 1}),
    ],
)
def test_place_phrases(text, expected):
    state = placed(new_game()[0])
    assert heard(state, text) == {"intent": "place", **expected}


@pytest.mark.parametrize(
    "text, guess",
    [
        ("lower", "lower"),
        ("I think it's lower", "lower"),
        ("that's right", "correct"),
        ("correct", "correct"),
        ("higher", "higher"),
        ("more", "higher"),
    ],
)
def test_predict_phrases(text, guess):
    state = placed(new_game()[0])
    state, _ = act(state, "place", after=42, before=60)
    assert heard(state, text) == {"intent": "predict", "guess": guess}


@pytest.mark.parametrize(
    "text, amount",
    [
        ("no bet", 0),
        ("pass", 0),
        ("bet 20", 20),
        ("20 points", 20),
        ("all in", 30),
    ],
)
def test_bet_phrases(text, amount):
    state = over100_with_points({"Ana": 30, "Ben": 40, "Cy": 20})
    state, _ = act(state, "choose_card", card=1)
    state, _ = act(state, "place", after=25, before=87)
    state, _ = act(state, "predict", guess="correct")
    state, _ = act(state, "predict", guess="correct")
    assert heard(state, text) == {"intent": "bet", "amount": amount}


@pytest.mark.parametrize(
    "text, value", [("57", 57), ("fifty seven", 57), ("a hundred", 100), ("zero", 0), ("my guess is 12", 12)]
)
def test_tiebreak_phrases(text, value):
    state, _ = tied_game()
    assert heard(written(state), text) == {"intent": "number", "value": value}


@pytest.mark.parametrize("text", ["ready", "we're ready", "done", "we've written them down"])
def test_tiebreak_ready_phrases(text):
    state, _ = tied_game()
    assert heard(state, text) == {"intent": "ready"}


# ---------------------------------------------------------------- the shipped cards, as spoken


def test_a_year_is_said_only_on_survey_cards():
    """The rulebook's year is "the year the survey was conducted": "80 proof ... From 2024"
    or "VAT in Germany ... From 2007" dated a law, not a survey."""
    from host.decks import load_default_decks

    cards = load_default_decks(question_games=dealing("questions")).questions_for(k100.ID)
    dated = [q for q in cards if k100._question_text(q) != q.text]
    assert dated and {q.category for q in dated} == {"survey"}
    assert all(k100._question_text(q).endswith(f" From {q.year}.") for q in dated)


def test_the_spoken_rules_describe_the_questions_as_they_are():
    """Many cards are percentages of things, not of people ("What percent of a cucumber is
    water?"): the rules say so rather than "how many people said yes"."""
    from host.decks import load_default_decks

    cards = load_default_decks(question_games=dealing("questions")).questions_for(k100.ID)
    people = (
        "people",
        "adults",
        "americans",
        "europeans",
        "teens",
        "teenagers",
        "owners",
        "workers",
        "men",
        "women",
        "children",
        "you",
        "your",
    )
    about_things = [q for q in cards if not set(re.findall(r"[a-z]+", q.text.lower())) & set(people)]
    assert len(about_things) > len(cards) / 3  # 115 of 267 (2026-12)
    assert "said yes" not in k100.RULES_SUMMARY
    assert "number from 0 to 100" in k100.RULES_SUMMARY and "percentage" in k100.RULES_SUMMARY


def test_with_phones_the_tied_players_type_at_once_through_the_session(tmp_path):
    """The real Session, PhoneEars and page hub: Ben's page answers before Ana's, though
    the roster names Ana first; each number is journaled as its own seat's move."""
    import queue

    from host.eventlog import EventLog
    from host.journal import Journal
    from host.play import SessionInfo
    from host.session import Session
    from partyhost.phones.hub import PhoneHub
    from partyhost.phones.relay import PhoneEars, PhoneMouth

    class Silent:
        """Typed ears where nobody types: the pages answer; after 3 s the input ends
        (a session still waiting for a refused press stops so)."""

        def __init__(self):
            self.stop: queue.Queue = queue.Queue()

        def hear(self, prompt):
            try:
                return self.stop.get(timeout=3)
            except queue.Empty:
                return None

        def reread(self, prompt, text):
            raise AssertionError("nothing is typed")

    class Mouth:
        def __init__(self):
            self.said: list[str] = []

        def say(self, text):
            self.said.append(text)

        def sound(self, name):
            pass

        def private(self, player, text):
            pass

        def adjust(self, change):
            return ""

    state, _ = tied_game(tiebreak_entry="phone")
    hub = PhoneHub("Keep It 100", ["Ana", "Ben", "Cy"], k100.hand_view)
    journal = Journal(tmp_path / "db.sqlite3")
    sid = journal.create(k100.ID, {"options": {}})
    mouth, inner = Mouth(), Silent()
    session = Session(
        k100.GAME,
        GameOptions(players=("Ana", "Ben", "Cy")),
        None,
        journal,
        SessionInfo(sid, "g"),
        EventLog(tmp_path / "events.jsonl", lambda: 0.0),
        PhoneEars(inner, hub),
        PhoneMouth(mouth, hub),
        lambda: 0.0,
        watchers=[hub.update],
    )
    session.play.state = state  # the game from its tie on, as no deal gives it
    hub.update(state)

    def enter(player, value):
        page = hub.snapshot(player)
        hub.press(player, page["version"], page["view"]["number"]["action"], value)

    enter("Ben", 30)
    enter("Ana", 45)
    assert session.run() is Ending.OVER, mouth.said
    assert [(a["player"], a["value"]) for a in journal.accepted_actions(sid)] == [("Ben", 30), ("Ana", 45)]
    assert "Got it, Ben." in mouth.said and any("You said: Ana 45 and Ben 30." in t for t in mouth.said)
    inner.stop.put(None)
    journal.close()
