"""Zero to 100 engine: every rule, the rules choices, bad moves, determinism, replay.

Decks are built by hand: question "qN" has the answer given at position N, and the
deal is in deck order, so team 1 holds q0..q(h-1), team 2 the next h cards, and so on.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from host.decks import Decks, Question
from host.engine import GameOptions, RuleError, crosses_reveal
from host.games import zero_to_100 as z
from voice.understanding.grammar import Grammar
from voice.understanding.matcher import Matcher

GRAMMAR = Path(__file__).resolve().parents[2] / "grammars" / "zero-to-100.yaml"


def question(index: int, answer: int, text: str | None = None) -> Question:
    return Question(
        id=f"q{index}",
        text=text or f"Question {index}?",
        answer=answer,
        year=2024,
        source="test",
        category="quantity",
        games=("zero-to-100",),
    )


def decks(answers: list[int], used: tuple[str, ...] = (), texts: dict[int, str] | None = None) -> Decks:
    texts = texts or {}
    cards = tuple(question(i, a, texts.get(i)) for i, a in enumerate(answers))
    return Decks(questions=cards, used_questions=frozenset(used))


def start(answers: list[int], players=("Ana", "Ben", "Cy"), given_teams=(), seed=1, **rules):
    """A game on a hand-made deck; keyword arguments are rules."""
    state, events = z.setup(
        GameOptions(players=tuple(players), teams=given_teams, seed=seed, rules=rules), decks(answers)
    )
    return state, events


def choose(state, card=1, powers=(), player=None):
    """The current team picks `card` (1-based) with `powers`."""
    prompt = z.prompt(state)
    assert prompt.name == "zero-to-100/choose_card"
    action = {"intent": "choose_card", "card": card, "powers": list(powers), "player": player or prompt.player}
    return z.apply(state, action)


def play_round(state, *picks):
    """Every team in turn; each pick is a card number or (card, [powers])."""
    all_events = []
    for pick in picks:
        card, powers = (pick, ()) if isinstance(pick, int) else pick
        state, events = choose(state, card, powers)
        all_events += events
    return state, all_events


def said(events) -> str:
    return " ".join(e["text"] for e in events if e["type"] == "say")


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def hand_ids(state, team_index):
    return [q.id for q in state.teams[team_index].hand]


def assert_refused(state, action, reason_part=""):
    """A RuleError with a spoken reason, and the state exactly as it was."""
    before = copy.deepcopy(state)
    rng_before = state.rng.getstate()
    with pytest.raises(RuleError) as error:
        z.apply(state, action)
    assert reason_part.lower() in error.value.reason.lower()
    assert state == before
    assert state.rng.getstate() == rng_before


FILLER = [50] * 40  # plenty of cards whose answers do not matter


# ---- setup: teams ---------------------------------------------------------


def test_two_players_make_two_teams_of_one():
    state, _ = start(FILLER, players=("Ana", "Ben"))
    assert [t.name for t in state.teams] == ["Team Ana", "Team Ben"]
    assert [t.members for t in state.teams] == [("Ana",), ("Ben",)]


def test_three_teams_by_default_seated_round_robin():
    state, _ = start(FILLER, players=("Ana", "Ben", "Cy", "Dan", "Eve"))
    assert [t.members for t in state.teams] == [("Ana", "Dan"), ("Ben", "Eve"), ("Cy",)]
    assert [t.name for t in state.teams] == ["Team Ana", "Team Ben", "Team Cy"]


def test_two_teams_by_rule_and_numbered_names():
    state, _ = start(FILLER, players=("Ana", "Ben", "Cy", "Dan"), teams=2, team_names="number")
    assert [t.members for t in state.teams] == [("Ana", "Cy"), ("Ben", "Dan")]
    assert [t.name for t in state.teams] == ["Team 1", "Team 2"]


def test_given_teams_are_used():
    state, events = start(FILLER, players=("Ana", "Ben", "Cy", "Dan"), given_teams=(("Ana", "Ben"), ("Cy", "Dan")))
    assert [t.members for t in state.teams] == [("Ana", "Ben"), ("Cy", "Dan")]
    assert "Teams: Ana and Ben. Cy and Dan." in said(events)


def test_each_team_is_its_own_sentence_so_no_name_is_heard_in_the_wrong_team():
    """ "Teams: Ana with Dan, Ben and Cy." could be two teams or three, aloud."""
    _, events = start(FILLER, players=("Ana", "Ben", "Cy", "Dan"), given_teams=(("Ana", "Dan"), ("Ben",), ("Cy",)))
    assert "Teams: Ana and Dan. Ben. Cy." in said(events)
    assert " with " not in said(events)


@pytest.mark.parametrize(
    "teams, reason",
    [
        ((("Ana",), ("Ben",), ("Cy",), ("Dan",)), "2 or 3 teams"),
        ((("Ana", "Ben"), ("Cy",)), "exactly one team: Dan is in no team"),
        ((("Ana", "Ben"), ("Ben", "Cy", "Dan")), "exactly one team: Ben is in two teams"),
        ((("Ana", "Ben"), ("Cy", "Eve")), "Dan is in no team; Eve is in a team but not among the players"),
        ((("Ana", "Ben", "Cy", "Dan"), ()), "at least one player"),
    ],
)
def test_bad_teams_are_refused(teams, reason):
    with pytest.raises(RuleError, match=reason):
        start(FILLER, players=("Ana", "Ben", "Cy", "Dan"), given_teams=teams)


# ---- setup: options and rules --------------------------------------------


@pytest.mark.parametrize(
    "options, reason",
    [
        (dict(players=("Ana",)), "2 to 12 players"),
        (dict(players=tuple(f"P{i}" for i in range(13))), "2 to 12 players"),
        (dict(players=("Ana", "Ana")), "different name"),
        (dict(players=("Ana", "Ben"), mode="expert"), "no mode"),
        (dict(players=("Ana", "Ben"), deal="table"), "deal must be host"),
        (dict(players=("Ana", "Ben"), rules={"jokers": True}), "no rule called jokers"),
        (dict(players=("Ana", "Ben"), rules={"teams": 4}), "teams must be 2 or 3"),
        (dict(players=("Ana", "Ben"), rules={"tie_draw": "nobody"}), "tie_draw"),
        (dict(players=("Ana", "Ben"), rules={"hand_size": 1}), "hand_size must be 2 to 10"),
        (dict(players=("Ana", "Ben"), rules={"shuffle": "perhaps"}), "shuffle must be true or false"),
    ],
)
def test_bad_options_are_refused(options, reason):
    with pytest.raises(RuleError, match=reason):
        z.setup(GameOptions(**options), decks(FILLER))


def test_rule_values_from_the_command_line_are_converted():
    state, _ = start(FILLER, players=("Ana", "Ben", "Cy", "Dan"), teams="2", shuffle="false", tie_draw="ALL")
    assert len(state.teams) == 2
    assert state.rules["shuffle"] is False and state.rules["tie_draw"] == "all"


def test_not_enough_questions_is_refused():
    with pytest.raises(RuleError, match="needs 18 question cards"):
        start([50] * 17)


def test_mode_and_deal_defaults_are_accepted():
    state, _ = z.setup(GameOptions(players=("Ana", "Ben"), mode="basic", deal="host"), decks(FILLER))
    assert state.phase == "choose"


# ---- setup: the deal --------------------------------------------------------


def test_six_questions_each_in_deck_order_and_three_power_cards():
    state, _ = start(FILLER)
    assert hand_ids(state, 0) == [f"q{i}" for i in range(0, 6)]
    assert hand_ids(state, 1) == [f"q{i}" for i in range(6, 12)]
    assert hand_ids(state, 2) == [f"q{i}" for i in range(12, 18)]
    assert [q.id for q in state.deck][:2] == ["q18", "q19"]
    assert all(t.powers == ["50", "20", "spot_on"] for t in state.teams)


def test_starting_target_is_50_and_configurable():
    assert start(FILLER)[0].target == 50
    assert start(FILLER, start_target=30)[0].target == 30


def test_questions_already_played_by_the_group_go_to_the_bottom():
    state, _ = z.setup(GameOptions(players=("Ana", "Ben")), decks(FILLER, used=("q0", "q1", "q7")))
    assert hand_ids(state, 0) == ["q2", "q3", "q4", "q5", "q6", "q8"]
    assert [q.id for q in state.deck][-3:] == ["q0", "q1", "q7"]


def test_only_this_games_questions_are_dealt():
    other = Question("k1", "Keep it 100 only?", 10, 2024, "t", "survey", ("keep-it-100",))
    deck = decks(FILLER)
    state, _ = z.setup(GameOptions(players=("Ana", "Ben")), Decks(questions=(other,) + deck.questions))
    all_ids = [q.id for t in state.teams for q in t.hand] + [q.id for q in state.deck]
    assert "k1" not in all_ids


def test_shuffle_keeps_fresh_questions_first_and_is_seeded():
    used = tuple(f"q{i}" for i in range(30, 40))
    options = GameOptions(players=("Ana", "Ben"), seed=5, rules={"shuffle": True})
    one, _ = z.setup(options, decks(list(range(40)), used=used))
    two, _ = z.setup(options, decks(list(range(40)), used=used))
    dealt = hand_ids(one, 0) + hand_ids(one, 1) + [q.id for q in one.deck]
    assert dealt == hand_ids(two, 0) + hand_ids(two, 1) + [q.id for q in two.deck]
    assert dealt != [f"q{i}" for i in range(40)]
    assert set(dealt[-10:]) == set(used)


def test_same_seed_same_game_different_seed_different_shuffle():
    def deal(seed):
        state, events = z.setup(
            GameOptions(players=("Ana", "Ben", "Cy"), seed=seed, rules={"shuffle": True}), decks(list(range(40)))
        )
        return [hand_ids(state, i) for i in range(3)], events

    assert deal(3) == deal(3)
    assert deal(3)[0] != deal(4)[0]


def test_setup_narrates_teams_target_and_first_hand():
    _, events = start(FILLER)
    text = said(events)
    assert "3 teams of one: Team Ana, Team Ben and Team Cy." in text
    assert "Target 50." in text
    assert "Team Ana's questions: Question, Question, Question" in text


def test_a_hand_is_named_by_titles_unless_read_hand_says_full():
    texts = {0: "How many keys does a standard modern piano have?", 1: "How many days are there in the month of June?"}
    _, events = z.setup(GameOptions(players=("Ana", "Ben"), seed=1), decks(FILLER, texts=texts))
    assert "Team Ana's questions: modern piano, days month, Question" in said(events)  # words of its own
    assert texts[0] not in said(events)
    for how in ("full", "first", True):
        _, events = z.setup(
            GameOptions(players=("Ana", "Ben"), seed=1, rules={"read_hand": how}), decks(FILLER, texts=texts)
        )
        assert f"1: {texts[0]} 2: {texts[1]}" in said(events)
    _, events = start(FILLER, read_hand="off")
    assert "questions:" not in said(events)
    with pytest.raises(RuleError, match="read_hand"):
        start(FILLER, read_hand="loud")


def test_read_card_reads_one_question_in_full_and_changes_nothing():
    state, _ = start(FILLER)
    new_state, events = z.apply(state, {"intent": "read_card", "card": 2, "player": "Team Ana"})
    assert new_state == state and said(events) == "Card 2: Question 1?"
    assert "read_card" in z.INFO_INTENTS
    assert_refused(state, {"intent": "read_card", "card": 9, "player": "Team Ana"}, "1 to 6")


# ---- prompts ----------------------------------------------------------------


def test_choose_prompt_names_the_team_target_hand_and_powers():
    state, _ = start(FILLER)
    prompt = z.prompt(state)
    assert prompt.name == "zero-to-100/choose_card"
    assert prompt.player == "Team Ana"
    assert prompt.text.startswith("Team Ana,") and "50" in prompt.text
    assert prompt.context == {
        "hand": [f"Question {i}?" for i in range(6)],
        "powers": ["50", "20", "spot_on"],
        "teams": [["Ana"], ["Ben"], ["Cy"]],
    }
    assert prompt.slots["card"] == [(str(n), n) for n in range(1, 7)]
    assert prompt.slots["ordinal"][2] == ("third", 3)
    assert 2 <= len(prompt.choices) <= 4


def test_card_words_name_each_question_by_what_only_it_mentions():
    texts = {
        0: "How many slices are in a large pizza?",
        1: "How many keys does a standard piano have?",
        2: "How many minutes does a large pizza take to bake?",
    }
    state, _ = z.setup(GameOptions(players=("Ana", "Ben")), decks(FILLER, texts=texts))
    words = dict(z.prompt(state).slots["card_word"])
    assert words["piano"] == 2 and words["keys"] == 2
    assert words["slices"] == 1 and words["minutes"] == 3
    assert "pizza" not in words and "large" not in words  # on two cards: not telling
    assert "many" not in words  # too common to tell


# ---- choosing -----------------------------------------------------------------


def test_a_pick_is_held_until_the_reveal_and_told_only_to_its_team():
    """The rulebook has the teams choose as if at once: the table hears who has chosen,
    nothing of the question or the powers; the team is told its pick privately."""
    state, _ = start(FILLER)
    state, events = choose(state, 2, ["spot_on", "+50"])
    assert state.plays[0].card.id == "q1" and state.plays[0].powers == ["+50", "spot_on"]
    assert hand_ids(state, 0) == ["q0", "q1", "q2", "q3", "q4", "q5"]  # in its row until the reveal
    assert state.teams[0].powers == ["50", "20", "spot_on"]
    assert said(events).startswith("Team Ana has chosen. Team Ben's questions: Question")
    assert not any(word in said(events) for word in ("Card 2", "50", "Spot On"))
    assert of_type(events, "private") == [
        {
            "type": "private",
            "player": "Team Ana",
            "text": "Your pick: card 2, with plus 50 and Spot On.",
            "by_owner": True,
        }
    ]
    assert not crosses_reveal(events)  # told back its own choice: a misheard pick may be undone
    assert z.prompt(state).player == "Team Ben"
    assert not of_type(events, "reveal")  # nothing revealed before all chose


def test_without_hide_picks_a_pick_is_repeated_aloud_as_before():
    state, _ = start(FILLER, hide_picks=False)
    state, events = choose(state, 2, ["spot_on", "+50"])
    assert "Card 2, with plus 50 and Spot On." in said(events) and not of_type(events, "private")
    assert "Team Ana has played: Question 1? With plus 50 and Spot On." in z.table_text(state)
    ana = z.apply(state, {"intent": "read_cards", "team": 1})[1][0]["text"]
    assert "Question 1?" not in ana and ana.endswith("Power cards: plus or minus 20.")  # slid forward


def test_before_the_reveal_the_table_hears_who_has_chosen_and_nothing_more():
    state, _ = start(FILLER)
    fresh = z.table_text(state)
    state, _ = choose(state, 2, ["spot_on", "+50"])
    table = z.table_text(state)
    assert table == fresh + " Team Ana has chosen."  # its row and power cards read as before it chose
    state, _ = choose(state, 1, ["-20"])
    assert z.table_text(state).endswith("Team Ana and Team Ben have chosen.")
    another = z.apply(state, {"intent": "read_cards", "team": 1})[1][0]["text"]
    assert "Question 1?" in another and another.endswith("Power cards: plus or minus 50, plus or minus 20 and Spot On.")


def test_the_reveal_reads_every_teams_question_powers_and_sides():
    answers = [30] + [0] * 5 + [70] + [0] * 5 + [52] + FILLER
    state, _ = start(answers)
    state, events = play_round(state, (1, ["+50", "spot_on"]), (1, ["-20"]), 1)
    spoken = said(events)
    assert spoken.index("Team Ana has chosen.") < spoken.index("Team Ben has chosen.") < spoken.index("Team Ana:")
    assert "Team Ana: Question 0? Team Ana 30, plus 50 makes 80. Spot On missed." in spoken
    assert "Team Ben: Question 6? Team Ben 70, minus 20 makes 50, right on target!" in spoken
    assert "Team Cy: Question 12? Team Cy 52." in spoken
    assert hand_ids(state, 0) == ["q1", "q2", "q3", "q4", "q5", "q18"]  # played, and drew (furthest)
    assert state.teams[0].powers == ["20"] and state.teams[1].powers == ["50", "spot_on"]


def change(state, team):
    return z.apply(state, {"intent": "change_pick", "team": team, "player": z.prompt(state).player})


def test_a_team_may_change_its_pick_until_the_last_team_has_chosen():
    answers = [30, 60] + [0] * 4 + [70] + [0] * 5 + [52] + FILLER
    state, _ = start(answers)
    state, _ = choose(state, 1, ["+50"])
    state, events = change(state, 1)  # at Team Ben's turn
    assert said(events) == "Team Ana may change its pick."
    assert of_type(events, "private")[0]["text"] == "Your pick now: card 1, with plus 50."
    prompt = z.prompt(state)
    assert prompt.player == "Team Ana" and prompt.text == "Team Ana, your new pick? Or say keep our pick."
    assert len(prompt.context["hand"]) == 6 and "50" in prompt.context["powers"]
    state, events = choose(state, 2, ["-50"])  # the 50 card again, on its other side
    assert said(events) == "Team Ana has changed its pick."
    assert of_type(events, "private")[0]["text"] == "Your pick: card 2, with minus 50."
    assert z.prompt(state).player == "Team Ben"  # whose turn it was
    state, events = play_round(state, 1, 1)
    assert "Team Ana 60, minus 50 makes 10." in said(events)
    assert hand_ids(state, 0)[0] == "q0"  # the first pick stayed in the row


def test_keep_our_pick_leaves_the_pick_as_it_was():
    state, _ = start(FILLER)
    state, _ = choose(state, 3, ["spot_on"])
    held = state.plays[0]
    state, _ = change(state, 1)
    state, events = z.apply(state, {"intent": "keep_pick", "player": "Team Ana"})
    assert said(events) == "Team Ana keeps its pick." and state.plays[0] == held and state.changing is None
    assert z.prompt(state).player == "Team Ben"


def test_bad_picks_and_changes_are_refused_in_one_line_and_change_nothing():
    answers = [0] * 6 + [30] + [0] * 5 + [52] + [90] + FILLER
    state, _ = start(answers, hand_size=6)
    state, _ = choose(state, 2, ["+50"])
    state, _ = change(state, 1)
    # a pick said again as it is: the reason names nothing of it, the aside (private) does
    with pytest.raises(RuleError) as said_twice:
        z.apply(state, {"intent": "choose_card", "card": 2, "powers": ["+50"], "player": "Team Ana"})
    assert said_twice.value.reason == "That is your pick already: say another, or keep our pick."
    assert said_twice.value.aside == "Your pick: card 2, with plus 50." and not said_twice.value.secret
    assert_refused(state, {"intent": "change_pick", "team": 1}, "say your new pick")
    state, _ = z.apply(state, {"intent": "keep_pick", "player": "Team Ana"})
    assert_refused(state, {"intent": "keep_pick", "player": "Team Ben"}, "Team Ben has not chosen yet")
    assert_refused(state, {"intent": "change_pick", "team": 3}, "Team Cy has no pick to change")
    assert_refused(state, {"intent": "change_pick", "team": 9}, "The teams are")
    state, _ = play_round(state, 1, 1)  # Ana 0 + 50, Ben 30, Cy 52: Ben is furthest
    assert state.round == 2 and state.phase == "choose"
    assert_refused(state, {"intent": "change_pick", "team": 1}, "has not chosen since the last reveal")


def test_a_change_once_the_picks_are_revealed_is_too_late():
    state, _ = start([50, 10, 20] + [50] * 3 + [90] * 6 + FILLER, players=("Ana", "Ben"), hand_size=6)
    state, _ = play_round(state, (1, ["spot_on"]), 1)  # Ana right on target: she throws one away
    assert state.phase == "discard"
    assert_refused(state, {"intent": "change_pick", "team": 1}, "too late to change")


def test_a_member_may_answer_for_the_team():
    state, _ = start(FILLER, players=("Ana", "Ben", "Cy", "Dan"))
    state, _ = choose(state, 1, player="Dan")  # Dan is in Team Ana
    assert 0 in state.plays


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"card": 0}, "from 1 to 6"),
        ({"card": 7}, "from 1 to 6"),
        ({"card": None}, "from 1 to 6"),
        ({"card": "two"}, "from 1 to 6"),
        ({"card": True}, "from 1 to 6"),
        ({"powers": ["+30"]}, "power cards are"),
        ({"powers": [{"card": 50}]}, "power cards are"),
        ({"powers": ["50"]}, "plus 50 or minus 50"),
        ({"powers": ["+50", "-50"]}, "only one plus or minus 50 card"),
        ({"powers": "spot_on"}, "which power cards"),
        ({"intent": "discard"}, "pick a question"),
        ({"intent": "number", "value": 4}, "pick a question"),
        ({"player": "Ben"}, "Team Ana's turn"),
        ({"player": "Team Cy"}, "Team Ana's turn"),
    ],
)
def test_bad_choices_are_refused_and_change_nothing(change, reason):
    state, _ = start(FILLER)
    action = {"intent": "choose_card", "card": 1, "powers": [], "player": "Team Ana", **change}
    assert_refused(state, action, reason)


def test_a_spent_power_card_cannot_be_played_again():
    state, _ = start([10, 90, 50, 50, 20, 80] + FILLER, players=("Ana", "Ben"), hand_size=3)
    state, _ = play_round(state, (1, ["+20"]), 1)  # target 50: Ana 30 (20 off), Ben 50
    assert state.teams[0].powers == ["50", "spot_on"]
    # round 2 starts with Team Ben; then Team Ana tries the 20 card again
    state, _ = choose(state, 1)
    assert_refused(
        state,
        {"intent": "choose_card", "card": 1, "powers": ["-20"], "player": "Team Ana"},
        "already used its plus or minus 20",
    )


def test_powers_may_be_left_out_of_the_intent():
    state, _ = start(FILLER)
    state, _ = z.apply(state, {"intent": "choose_card", "card": 3, "player": "Team Ana"})
    assert state.plays[0].powers == []


# ---- the reveal -------------------------------------------------------------------


def test_reveal_in_order_with_answers_and_used_ids():
    answers = [40] + [0] * 5 + [75] + [0] * 5 + [52] + FILLER
    state, _ = start(answers)
    state, events = play_round(state, 1, 1, 1)
    reveals = of_type(events, "reveal")
    assert [(r["player"], r["card"], r["value"]) for r in reveals] == [
        ("Team Ana", "q0", 40),
        ("Team Ben", "q6", 75),
        ("Team Cy", "q12", 52),
    ]
    text = said(events)
    assert "Team Ana 40. Team Ben: Question 6? Team Ben 75. Team Cy: Question 12? Team Cy 52." in text
    assert of_type(events, "questions_used") == [{"type": "questions_used", "ids": ["q0", "q6", "q12"]}]


def test_furthest_card_becomes_the_target_and_only_that_team_draws():
    answers = [40] + [0] * 5 + [75] + [0] * 5 + [52] + [0] * 5 + [33, 44]
    state, events = play_round(start(answers)[0], 1, 1, 1)
    assert state.target == 75
    assert [len(t.hand) for t in state.teams] == [5, 6, 5]  # Ben played one, drew one
    assert hand_ids(state, 1)[-1] == "q18"  # the top of the deck
    assert [q.id for q in state.deck] == ["q19"]
    assert "Team Ben is furthest and draws: Question. Target 75." in said(events)  # its new card named
    assert "Cards left" not in said(events)  # on request: "score"
    scores = {e["player"]: (e["delta"], e["total"]) for e in of_type(events, "score")}
    assert scores == {"Team Ana": (-1, 5), "Team Ben": (0, 6), "Team Cy": (-1, 5)}


def test_power_cards_move_the_answer_past_100_without_clipping():
    answers = [90] + [0] * 5 + [20] + [0] * 5 + [60] + FILLER
    state, events = play_round(start(answers)[0], (1, ["+50"]), (1, ["+20"]), (1, ["-20"]))
    text = said(events)
    assert "Team Ana 90, plus 50 makes 140." in text
    assert "Team Ben 20, plus 20 makes 40." in text
    assert "Team Cy 60, minus 20 makes 40." in text
    assert state.target == 90  # the printed answer, not 140
    assert len(state.teams[0].hand) == 6  # Ana was furthest and drew


def test_the_reveal_says_each_distance_when_the_table_asks_for_it():
    answers = [90] + [0] * 5 + [20] + [0] * 5 + [50] + FILLER
    state, events = play_round(
        start(answers, say_distances=True, reveal_question=False)[0], (1, ["+50"]), (1, ["+20"]), 1
    )
    assert (
        "Team Ana 90, plus 50 makes 140, 90 away. Team Ben 20, plus 20 makes 40, 10 away. "
        "Team Cy 50, right on target!" in said(events)
    )


def test_both_shift_cards_add_up():
    answers = [95] + [0] * 5 + [50] + [0] * 5 + [50] + FILLER
    state, events = play_round(start(answers)[0], (1, ["-50", "-20"]), 1, 1)
    assert "Team Ana 95, minus 50 makes 45, minus 20 makes 25." in said(events)


def test_a_power_card_can_save_a_team_from_being_furthest():
    answers = [5] + [0] * 5 + [70] + [0] * 5 + [50] + FILLER
    state, _ = play_round(start(answers)[0], (1, ["+50"]), 1, 1)  # 55 is 5 away
    assert state.target == 70
    assert [len(t.hand) for t in state.teams] == [5, 6, 5]


def test_tie_for_furthest_every_team_draws_by_default():
    """The rulebook: on a tie for the furthest question, all teams take a new card."""
    answers = [20] + [0] * 5 + [80] + [0] * 5 + [50] + FILLER
    state, events = play_round(start(answers)[0], 1, 1, 1)
    assert [len(t.hand) for t in state.teams] == [6, 6, 6]
    assert state.target == 20  # the first tied card revealed
    assert "Tie for furthest, 30 away: Team Ana and Team Ben. Every team draw" in said(events)


def test_tie_draw_tied_makes_only_the_tied_teams_draw():
    answers = [20] + [0] * 5 + [80] + [0] * 5 + [50] + FILLER
    state, events = play_round(start(answers, tie_draw="tied")[0], 1, 1, 1)
    assert [len(t.hand) for t in state.teams] == [6, 6, 5]
    assert "They each draw" in said(events)


def test_the_reveal_reads_each_teams_question_before_its_answer():
    """The rulebook has each team read its question aloud at the reveal."""
    answers = [20] + [0] * 5 + [80] + [0] * 5 + [50] + FILLER
    texts = {0: "How many moons?", 6: "How many legs", 12: "How many days?"}
    state, _ = z.setup(GameOptions(players=("Ana", "Ben", "Cy"), seed=1), decks(answers, texts=texts))
    state, events = play_round(state, 1, 1, 1)
    spoken = [e["text"] for e in events if e["type"] == "say"]
    for question, answer in (
        ("Team Ana: How many moons?", "Team Ana 20."),
        ("Team Ben: How many legs.", "Team Ben 80."),
        ("Team Cy: How many days?", "Team Cy 50, right on target!"),
    ):
        assert spoken.index(question) + 1 == spoken.index(answer)
    state, _ = z.setup(
        GameOptions(players=("Ana", "Ben", "Cy"), seed=1, rules={"reveal_question": False}), decks(answers, texts=texts)
    )
    assert "How many moons" not in said(play_round(state, 1, 1, 1)[1])


def test_tie_target_random_picks_one_tied_card_from_the_seed():
    answers = [20] + [0] * 5 + [80] + [0] * 5 + [50] + FILLER
    targets = {play_round(start(answers, seed=seed, tie_target="random")[0], 1, 1, 1)[0].target for seed in range(20)}
    assert targets == {20, 80}


def test_played_cards_are_gone_for_good():
    answers = [40] + [0] * 5 + [75] + [0] * 5 + [52] + FILLER
    state, _ = play_round(start(answers)[0], 1, 1, 1)
    everywhere = [q.id for t in state.teams for q in t.hand] + [q.id for q in state.deck]
    assert not {"q0", "q6", "q12"} & set(everywhere)


def test_empty_deck_means_no_draw():
    state, _ = start([40, 0, 0, 75, 0, 0], players=("Ana", "Ben"), hand_size=3)
    state, events = play_round(state, 1, 1)
    assert "The deck is empty: Team Ben draws nothing." in said(events)
    assert [len(t.hand) for t in state.teams] == [2, 2]


# ---- rounds -----------------------------------------------------------------------


def test_first_team_to_pick_moves_on_each_round():
    state, _ = start(FILLER)
    state, _ = play_round(state, 1, 1, 1)
    assert state.round == 2 and z.prompt(state).player == "Team Ben"
    state, _ = play_round(state, 1, 1, 1)
    assert z.prompt(state).player == "Team Cy"


def test_without_rotation_the_first_team_always_starts():
    state, _ = start(FILLER, rotate_first=False)
    state, _ = play_round(state, 1, 1, 1)
    assert z.prompt(state).player == "Team Ana"


def test_read_hand_off_keeps_turns_short():
    state, events = start(FILLER, read_hand=False)
    assert "questions:" not in said(events)


# ---- Spot On ----------------------------------------------------------------------


def spot_on_game(answer_ana: int, **rules):
    """Ana plays q0 with Spot On against 50; Ben (70) is furthest; Cy plays 50."""
    answers = [answer_ana] + [0] * 5 + [70] + [0] * 5 + [50] + FILLER
    state, _ = start(answers, **rules)
    return play_round(state, (1, ["spot_on"]), 1, 1)


def test_spot_on_within_five_asks_which_card_to_throw_away():
    state, events = spot_on_game(55)  # exactly 5 away
    assert [e["name"] for e in of_type(events, "sound")] == ["drumroll", "correct"]
    assert "Spot On! Team Ana will throw away one more question." in said(events)
    prompt = z.prompt(state)
    assert (prompt.name, prompt.player) == ("zero-to-100/discard", "Team Ana")
    assert prompt.context["hand"] == [f"Question {i}?" for i in range(1, 6)]
    assert prompt.slots["card"][-1] == ("5", 5)
    state, events = z.apply(state, {"intent": "discard", "card": 2, "player": "Team Ana"})
    assert hand_ids(state, 0) == ["q1", "q3", "q4", "q5"]
    assert "Team Ana throws away card 2: Question 2?" in said(events)
    assert z.prompt(state).name == "zero-to-100/choose_card"


def test_spot_on_six_away_misses_and_the_card_is_spent():
    state, events = spot_on_game(56)
    assert "Spot On missed." in said(events)
    assert [e["name"] for e in of_type(events, "sound")] == ["drumroll", "wrong"]
    assert z.prompt(state).name == "zero-to-100/choose_card"
    assert len(state.teams[0].hand) == 5 and "spot_on" not in state.teams[0].powers


def test_spot_on_is_judged_after_the_shift_cards():
    answers = [97] + [0] * 5 + [70] + [0] * 5 + [50] + FILLER
    state, events = play_round(start(answers)[0], (1, ["-50", "spot_on"]), 1, 1)  # 47
    assert "Spot On! Team Ana" in said(events)


def test_spot_on_margin_is_a_rule():
    state, events = spot_on_game(58, spot_on_margin=10)
    assert z.prompt(state).name == "zero-to-100/discard"


def test_spot_on_discard_random_rule_needs_no_question():
    state, events = spot_on_game(50, spot_on_discard="random")
    assert len(state.teams[0].hand) == 4
    assert "Team Ana throws away a question" in said(events)
    assert z.prompt(state).name == "zero-to-100/choose_card"


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"intent": "discard", "card": 6}, "from 1 to 5"),
        ({"intent": "choose_card", "card": 1}, "throw away"),
        ({"intent": "discard", "card": 1, "player": "Team Ben"}, "Team Ana's turn"),
    ],
)
def test_bad_discards_are_refused(action, reason):
    state, _ = spot_on_game(50)
    assert_refused(state, {"player": "Team Ana", **action}, reason)


def test_spot_on_with_the_last_card_is_a_supreme_victory():
    # 2 teams of 2 cards: Ana plays her first card with Spot On (right), Ben is furthest.
    state, _ = start([48, 10, 90, 0, 30], players=("Ana", "Ben"), hand_size=2)
    state, events = play_round(state, (1, ["spot_on"]), 1)
    assert state.phase == "over" and z.prompt(state) is None
    assert "Team Ana throws away its last question" in said(events)
    assert "Team Ana has no questions left: Supreme Victory!" in said(events)
    over = of_type(events, "game_over")
    assert over == [{"type": "game_over", "scores": {"Team Ana": 0, "Team Ben": 2}, "winners": ["Team Ana"]}]


# ---- the end ----------------------------------------------------------------------


def test_one_card_left_wins():
    state, _ = start([48, 10, 90, 0, 30], players=("Ana", "Ben"), hand_size=2)
    state, events = play_round(state, 1, 1)
    assert "Team Ana is down to one question and wins!" in said(events)
    assert of_type(events, "game_over")[0]["winners"] == ["Team Ana"]
    assert of_type(events, "sound")[-1]["name"] == "game_over"
    assert z.prompt(state) is None
    assert z.scores(state) == "Game over: Team Ana won. Cards left: Team Ana 1 and Team Ben 2."


def test_no_move_after_the_game_is_over():
    state, _ = start([48, 10, 90, 0, 30], players=("Ana", "Ben"), hand_size=2)
    state, _ = play_round(state, 1, 1)
    assert_refused(state, {"intent": "choose_card", "card": 1, "player": "Team Ana"}, "over")


def test_supreme_victory_beats_a_team_on_one_card():
    # 3 teams of 2 cards; Ana's Spot On is right, Ben plays 50, Cy is furthest.
    answers = [50, 7, 50, 8, 95, 9, 30]
    state, _ = start(answers, hand_size=2)
    state, events = play_round(state, (1, ["spot_on"]), 1, 1)
    assert of_type(events, "game_over")[0]["winners"] == ["Team Ana"]


def test_two_supreme_victories_in_one_round_share_it():
    answers = [50, 7, 52, 8, 95, 9, 30]
    state, _ = start(answers, hand_size=2)
    state, events = play_round(state, (1, ["spot_on"]), (1, ["spot_on"]), 1)
    assert of_type(events, "game_over")[0]["winners"] == ["Team Ana", "Team Ben"]
    assert "they share a Supreme Victory!" in said(events)


def tiebreak_game(**rules):
    """3 teams of 2: Cy is furthest, Ana and Ben are both left on one card."""
    answers = [45, 30, 55, 62, 99, 0, 10]
    state, _ = start(answers, hand_size=2, **rules)
    return play_round(state, 1, 1, 1)


def test_several_teams_on_one_card_guess_their_last_answer():
    state, events = tiebreak_game()
    assert "Team Ana and Team Ben are down to one question each! Tiebreak" in said(events)
    assert not of_type(events, "game_over")
    prompt = z.prompt(state)
    assert (prompt.name, prompt.player) == ("zero-to-100/tiebreak", "Team Ana")
    assert "Question 1?" in prompt.text and prompt.context["question"] == "Question 1?"
    state, events = z.apply(state, {"intent": "number", "value": 40, "player": "Team Ana"})
    assert said(events) == "Team Ana says 40."
    assert z.prompt(state).player == "Team Ben"
    state, events = z.apply(state, {"intent": "number", "value": 60, "player": "Team Ben"})
    # Ana's card is 30 (10 off), Ben's is 62 (2 off): Ben wins.
    assert [(r["player"], r["value"]) for r in of_type(events, "reveal")] == [("Team Ana", 30), ("Team Ben", 62)]
    assert {"type": "questions_used", "ids": ["q1", "q3"]} in events
    assert "You said 60, 2 off." in said(events)
    assert of_type(events, "game_over")[0]["winners"] == ["Team Ben"]
    assert "Team Ben wins!" in said(events)


def test_tiebreak_still_tied_shares_the_victory():
    state, _ = tiebreak_game()
    state, _ = z.apply(state, {"intent": "number", "value": 35, "player": "Team Ana"})
    state, events = z.apply(state, {"intent": "number", "value": 57, "player": "Team Ben"})
    assert of_type(events, "game_over")[0]["winners"] == ["Team Ana", "Team Ben"]
    assert "Team Ana and Team Ben share the victory!" in said(events)


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"intent": "number", "value": 101}, "0 to 100"),
        ({"intent": "number", "value": -1}, "0 to 100"),
        ({"intent": "number", "value": None}, "0 to 100"),
        ({"intent": "choose_card", "card": 1}, "0 to 100"),
        ({"intent": "number", "value": 5, "player": "Team Ben"}, "Team Ana's turn"),
    ],
)
def test_bad_tiebreak_guesses_are_refused(action, reason):
    state, _ = tiebreak_game()
    assert_refused(state, {"player": "Team Ana", **action}, reason)


# ---- information --------------------------------------------------------------------


def test_read_our_cards_reads_hand_powers_and_target_and_changes_nothing():
    state, _ = start(FILLER)
    new_state, events = z.apply(state, {"intent": "read_cards", "player": "Team Ana"})
    assert new_state == state
    assert "Team Ana, your questions. 1: Question 0?" in said(events)
    assert "Power cards: plus or minus 50, plus or minus 20 and Spot On." in said(events)
    assert "The target is 50." in said(events)
    assert "read_cards" in z.INFO_INTENTS


def test_read_our_cards_in_discard_and_tiebreak():
    state, _ = spot_on_game(50)
    assert "Question 5?" in said(z.apply(state, {"intent": "read_cards"})[1])
    state, _ = tiebreak_game()
    assert said(z.apply(state, {"intent": "read_cards"})[1]) == ("Team Ana, your last question: Question 1?")


def test_scores_say_cards_left_and_target():
    state, _ = start(FILLER)
    assert z.scores(state) == ("Round 1, target 50. Cards left: Team Ana 6, Team Ben 6 and Team Cy 6.")


# ---- purity, determinism, replay -----------------------------------------------------


def scripted_game():
    """A whole 3-team game driven by a fixed policy; returns the actions taken."""
    state, _ = z.setup(
        GameOptions(players=("Ana", "Ben", "Cy"), seed=9, rules={"shuffle": True, "tie_target": "random"}),
        decks([(i * 37) % 101 for i in range(60)]),
    )
    actions = []
    while (prompt := z.prompt(state)) is not None:
        if prompt.name == "zero-to-100/choose_card":
            powers = ["spot_on"] if "spot_on" in prompt.context["powers"] else []
            action = {"intent": "choose_card", "card": len(prompt.context["hand"]), "powers": powers}
        elif prompt.name == "zero-to-100/discard":
            action = {"intent": "discard", "card": 1}
        else:
            action = {"intent": "number", "value": 50}
        action["player"] = prompt.player
        before = copy.deepcopy(state)
        state, _ = z.apply(state, action)
        assert z.prompt(before) == prompt  # apply left its input alone
        actions.append(action)
    return state, actions


def test_replaying_the_actions_rebuilds_the_same_state():
    final, actions = scripted_game()
    assert final.phase == "over" and final.winners
    state, _ = z.setup(
        GameOptions(players=("Ana", "Ben", "Cy"), seed=9, rules={"shuffle": True, "tie_target": "random"}),
        decks([(i * 37) % 101 for i in range(60)]),
    )
    for action in actions:
        state, _ = z.apply(state, action)
    assert state == final
    assert state.rng.getstate() == final.rng.getstate()


def test_apply_never_changes_its_input():
    state, _ = start(FILLER)
    before = copy.deepcopy(state)
    z.apply(state, {"intent": "choose_card", "card": 1, "powers": ["+50"], "player": "Team Ana"})
    assert state == before


# ---- grammar -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grammar():
    return Grammar.load(GRAMMAR)


def phrase_table(grammar, prompt):
    return dict(Matcher(common=False).table(prompt.name, prompt.slots).examples)


def test_every_prompt_the_engine_makes_is_in_the_grammar_and_modest(grammar):
    texts = {
        i: f"How many {w} are there in a typical {w} box?"
        for i, w in enumerate("apples pears plums limes kiwis dates".split())
    }
    state, _ = z.setup(GameOptions(players=("Ana", "Ben")), decks(FILLER, texts=texts))
    assert grammar.graph("zero-to-100/choose_card", z.prompt(state).slots).size < 20_000
    for prompt in [z.prompt(state), z.prompt(spot_on_game(50)[0]), z.prompt(tiebreak_game()[0])]:
        assert prompt.name in grammar.prompts
        assert grammar.graph(prompt.name, prompt.slots).size < 20_000


@pytest.mark.parametrize(
    "heard, expected",
    [
        ("card three", {"intent": "choose_card", "card": 3}),
        ("we play number two", {"intent": "choose_card", "card": 2}),
        ("the fourth one", {"intent": "choose_card", "card": 4}),
        ("the piano one", {"intent": "choose_card", "card": 2}),
        ("card five with plus fifty", {"intent": "choose_card", "card": 5, "powers": ["+50"]}),
        ("card one with minus twenty and spot on", {"intent": "choose_card", "card": 1, "powers": ["-20", "spot_on"]}),
        (
            "card six with plus fifty minus twenty and spot on",
            {"intent": "choose_card", "card": 6, "powers": ["+50", "-20", "spot_on"]},
        ),
        ("card two with the fifty card", {"intent": "choose_card", "card": 2, "powers": ["50"]}),
        ("card two with twenty and spot on", {"intent": "choose_card", "card": 2, "powers": ["20", "spot_on"]}),
        ("spot on on card three", {"intent": "choose_card", "card": 3, "powers": ["spot_on"]}),
        ("piano", {"intent": "choose_card", "card": 2}),
        ("third", {"intent": "choose_card", "card": 3}),
        ("read our cards", {"intent": "read_cards"}),
    ],
)
def test_choose_card_phrases(grammar, heard, expected):
    texts = {1: "How many keys does a piano have?"}
    state, _ = z.setup(GameOptions(players=("Ana", "Ben")), decks(FILLER, texts=texts))
    intent = phrase_table(grammar, z.prompt(state))[heard]
    assert {k: v for k, v in intent.items() if k in expected} == expected
    assert intent.get("powers", []) == expected.get("powers", [])


def test_discard_and_tiebreak_phrases(grammar):
    discard = phrase_table(grammar, z.prompt(spot_on_game(50)[0]))
    assert discard["throw away card two"] == {"intent": "discard", "card": 2}
    assert "throw away card six" not in discard  # only 5 cards left
    tiebreak = phrase_table(grammar, z.prompt(tiebreak_game()[0]))
    assert tiebreak["we say forty two"] == {"intent": "number", "value": 42}
    assert tiebreak["a hundred"] == {"intent": "number", "value": 100}
