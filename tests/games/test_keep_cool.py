"""Keep Cool rules, one test per rule, on hand-built word cards.

Most tests deal known hands: `table_of` sets the game up with the face and line
preset (red, line 1) and swaps off, then replaces the dealt hands by cards whose
line-1 red word is the word we want.
"""

from __future__ import annotations

import dataclasses

import pytest

from host.decks import Decks, WordCard
from host.engine import GameOptions, RuleError
from host.games import keep_cool as kc

PLAYERS3 = ("Ana", "Ben", "Cy")
PLAYERS4 = ("Ana", "Ben", "Cy", "Dee")


def card(word: str, number: int = 0) -> WordCard:
    """A card whose every red line reads `word` (blue lines read word + 'x')."""
    return WordCard(number, tuple([word] * 10), tuple([word + "x"] * 10))


LETTERS = "abcfhkmpquvwxzjn"


def made_up_word(number: int) -> str:
    """A distinct 5-letter word per number, no two sharing a root ("abcfo" ...)."""
    letters = ""
    for _ in range(4):
        number, digit = divmod(number, len(LETTERS))
        letters += LETTERS[digit]
    return letters + "o"


def deck(size: int = 40) -> Decks:
    """A deck of distinct made-up words, 10 per face per card."""
    cards = tuple(
        WordCard(
            i,
            tuple(made_up_word(i * 20 + line) for line in range(10)),
            tuple(made_up_word(i * 20 + 10 + line) for line in range(10)),
        )
        for i in range(size)
    )
    return Decks(words=cards)


def options(players=PLAYERS3, mode="basic", deal="host", seed=7, **rules) -> GameOptions:
    return GameOptions(players=tuple(players), mode=mode, deal=deal, seed=seed, rules=rules)


def table_of(hands: dict[str, list[str]], mode: str = "basic", **rules) -> kc.KeepCoolState:
    """A game in play (round 1, first player's turn) with exactly these hands."""
    rules = {"face": "red", "line": 1, "swap": False, **rules}
    state, _ = kc.setup(options(players=tuple(hands), mode=mode, **rules), deck())
    number = 1000
    for player, words in hands.items():
        state.hands[player] = []
        for word in words:
            state.hands[player].append(card(word, number))
            number += 1
    return state


def play(state, *actions):
    """Apply (player-less) actions in turn; returns the final state and all events."""
    events = []
    for action in actions:
        state, new_events = kc.apply(state, {"player": kc.prompt(state).player, **action})
        events += new_events
    return state, events


def word(w):
    return {"intent": "word", "word": w}


CLUE = word(None)
TIMEOUT = {"intent": "timeout"}


def snapshot(state) -> dict:
    """Comparable contents of a state (Random objects only compare by identity)."""
    fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name != "rng"}
    return {**dataclasses.asdict(kc.KeepCoolState(**fields, rng=None)), "rng": state.rng.getstate()}


def assert_refused(state, action, fragment=""):
    """The action raises RuleError and the state is left exactly as it was."""
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        kc.apply(state, {"player": kc.prompt(state).player, **action})
    assert fragment.lower() in error.value.reason.lower()
    assert snapshot(state) == before


def assert_refused_quietly(state, action, aside=""):
    """Refused with the one public answer for every refused word (which tells the guesser
    nothing), its reason in the aside, to the player alone; the state left as it was."""
    before = snapshot(state)
    with pytest.raises(RuleError) as error:
        kc.apply(state, {"player": kc.prompt(state).player, **action})
    assert error.value.reason == kc.REFUSED
    assert aside.lower() in error.value.aside.lower()
    assert snapshot(state) == before


def says(events) -> str:
    return " ".join(e["text"] for e in events if e["type"] == "say")


def sounds(events) -> list[str]:
    return [e["name"] for e in events if e["type"] == "sound"]


# ---------------------------------------------------------------- options and setup


@pytest.mark.parametrize(
    "opts, fragment",
    [
        (options(players=("Ana", "Ben")), "3 to 8"),
        (options(players=tuple(f"P{i}" for i in range(9))), "3 to 8"),
        (options(players=("Ana", "ana", "Cy")), "same name"),
        (options(mode="expert"), "mode"),
        (options(deal="online"), "deal"),
        (options(colour="green"), "no rule called colour"),
        (options(face="green"), "red or blue"),
        (options(line=11), "1 to 10"),
        (options(turn_seconds=-1), "from 3 to 60 seconds"),
        (options(turn_seconds=0), "relaxed=true: no timer"),  # one way to turn it off
        (options(turn_seconds=2), "from 3 to 60 seconds"),
        (options(turn_seconds=100), "from 3 to 60 seconds"),
        (options(rounds_to_win=0), "rounds_to_win"),
        (options(relaxed="maybe"), "true or false"),
        (options(first_player="Zed"), "not at the table"),
    ],
)
def test_setup_refuses_bad_options(opts, fragment):
    with pytest.raises(RuleError) as error:
        kc.setup(opts, deck())
    assert fragment.lower() in error.value.reason.lower()


def test_host_deal_needs_four_cards_per_player():
    with pytest.raises(RuleError, match="11 cards"):
        kc.setup(options(), deck(11))
    kc.setup(options(), deck(12))  # exactly enough


def test_table_deal_needs_no_deck():
    state, _ = kc.setup(options(deal="table", face="red", line=1), Decks())
    assert kc.prompt(state).context == {"step": "ready"}


def test_rules_given_as_text_are_understood():
    state, _ = kc.setup(options(face="Blue", line="3", relaxed="true", rounds_to_win="1", turn_seconds="5"), deck())
    assert (state.face, state.line, state.rules["relaxed"], state.rules["rounds_to_win"]) == ("blue", 3, True, 1)


def test_defaults_are_basic_mode_and_host_deal():
    state, _ = kc.setup(GameOptions(players=PLAYERS3), deck())
    assert (state.mode, state.deal) == ("basic", "host")


def test_face_then_line_are_asked_when_not_preset():
    state, events = kc.setup(options(), deck())
    asked = kc.prompt(state)
    assert (asked.name, asked.player, asked.context) == ("keep-cool/setup", "Ana", {"step": "face"})
    assert "Ana" in asked.text
    assert not [e for e in events if e["type"] == "private"]  # nothing dealt yet
    assert_refused(state, {"intent": "face", "face": "green"}, "red or blue")
    assert_refused(state, {"intent": "line", "line": 3}, "red or blue")
    state, _ = play(state, {"intent": "face", "face": "blue"})
    assert kc.prompt(state).context == {"step": "line"}
    assert_refused(state, {"intent": "line", "line": 0}, "1 to 10")
    state, events = play(state, {"intent": "line", "line": 4})
    assert (state.face, state.line) == ("blue", 4)
    hands = {e["player"]: e["text"] for e in events if e["type"] == "private"}
    assert set(hands) == set(PLAYERS3)
    for player in PLAYERS3:
        for card_ in state.hands[player]:
            assert card_.word("blue", 4) in hands[player]


def test_preset_face_and_line_deal_at_once():
    state, events = kc.setup(options(face="red", line=2), deck())
    assert kc.prompt(state).context["step"] == "swap"
    assert len([e for e in events if e["type"] == "private"]) == 3
    assert all(len(state.hands[p]) == 4 for p in PLAYERS3)


def test_each_players_private_words_tell_who_guesses_whom():
    state, events = kc.setup(options(face="red", line=2), deck())
    ana = next(e["text"] for e in events if e["type"] == "private" and e["player"] == "Ana")
    assert "Ben guesses your words" in ana and "you guess Cy's" in ana


def test_same_seed_same_deal_and_other_seed_other_deal():
    first, _ = kc.setup(options(face="red", line=1, seed=3), deck())
    again, _ = kc.setup(options(face="red", line=1, seed=3), deck())
    other, _ = kc.setup(options(face="red", line=1, seed=4), deck())
    assert snapshot(first) == snapshot(again)
    assert kc.words_in_play(first) != kc.words_in_play(other)


def test_first_player_rule_chooses_who_starts():
    state, _ = kc.setup(options(face="red", line=1, swap=False, first_player="Cy"), deck())
    assert kc.prompt(state).player == "Cy"


# --------------------------------------------------------------------------- swaps


def test_swap_replaces_the_named_card_and_tells_only_its_owner():
    state, _ = kc.setup(options(face="red", line=1), deck())
    old = list(state.hands["Ana"])
    top = state.draw_pile[-1]
    state, events = play(state, {"intent": "reject_card", "card": 2})
    assert state.hands["Ana"] == [old[0], top, old[2], old[3]]
    assert state.set_aside == [old[1]]
    private = [e for e in events if e["type"] == "private"]
    assert [e["player"] for e in private] == ["Ana"] and top.word("red", 1) in private[0]["text"]
    assert old[1].word("red", 1) not in says(events)


def test_swap_goes_round_in_play_order_then_the_starter_plays():
    state, _ = kc.setup(options(face="red", line=1), deck())
    asked = []
    for _ in PLAYERS3:
        asked.append(kc.prompt(state).player)
        state, _ = play(state, {"intent": "no"})
    assert asked == ["Ana", "Ben", "Cy"]
    assert kc.prompt(state).name == "keep-cool/word" and kc.prompt(state).player == "Ana"


def test_a_bare_number_at_the_swap_step_names_a_card():
    state, _ = kc.setup(options(face="red", line=1), deck())
    old = list(state.hands["Ana"])
    state, _ = play(state, {"intent": "line", "line": 3.0})
    assert state.hands["Ana"][2] != old[2] and state.hands["Ana"][:2] == old[:2]


def test_bad_swaps_are_refused():
    state, _ = kc.setup(options(face="red", line=1), deck())
    assert_refused(state, {"intent": "reject_card", "card": 5}, "1 to 4")
    assert_refused(state, {"intent": "reject_card", "card": None}, "1 to 4")
    assert_refused(state, {"intent": "word", "word": "r1l1"}, "or no")


def test_no_swap_when_the_rule_is_off():
    state, _ = kc.setup(options(face="red", line=1, swap=False), deck())
    assert kc.prompt(state).name == "keep-cool/word"


def test_a_swap_needs_a_spare_card():
    state, _ = kc.setup(options(face="red", line=1), deck(13))
    state, _ = play(state, {"intent": "reject_card", "card": 1})  # takes the 13th card
    assert_refused(state, {"intent": "reject_card", "card": 1}, "no spare card")
    state, _ = play(state, {"intent": "no"})
    assert kc.prompt(state).player == "Cy"


# ---------------------------------------------------------------- the word prompt


def test_word_prompt_is_for_the_player_and_lists_every_word_in_play_with_its_plural():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger"], "Cy": ["castle"]})
    asked = kc.prompt(state)
    assert (asked.name, asked.player) == ("keep-cool/word", "Ana")
    assert asked.text == ""  # quiet turns: the session's turn cue alone
    assert asked.context == {"words": ["piano", "river", "tiger", "castle"], "roster": list(PLAYERS3)}
    words = ["piano", "river", "tiger", "castle"]
    assert asked.slots["word"] == [(w, w) for w in words] + [(w + "s", w) for w in words]
    assert [value for _, value in asked.slots["player"]] == list(PLAYERS3)
    assert 2 <= len(asked.choices) <= 4
    assert asked.timeout == 8 and asked.warning == 3
    assert asked.unclear == {"intent": "word", "word": None}  # speech not understood is a clue


def test_say_names_puts_the_players_name_in_the_word_prompt():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]}, say_names=True)
    assert kc.prompt(state).text == "Ana."


@pytest.mark.parametrize(
    "word, forms",
    [("glass", ["glasses"]), ("cherry", ["cherries"]), ("day", ["days"]), ("wolf-dog", []), ("ice cream", [])],
)
def test_plurals_of_words_in_play(word, forms):
    assert kc.plurals(word) == forms


@pytest.mark.parametrize(
    "rules, warning", [({}, 3), ({"warning_seconds": 0}, None), ({"warning_seconds": 20}, 8), ({"relaxed": True}, None)]
)
def test_last_seconds_warning_follows_the_rules(rules, warning):
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]}, **rules)
    assert kc.prompt(state).warning == warning


def test_the_timer_changes_by_voice_and_the_turn_goes_on():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]})
    state, events = play(state, {"intent": "relaxed", "on": True})
    assert kc.prompt(state).timeout is None and kc.prompt(state).player == "Ana"
    assert "no timer" in says(events)
    state, events = play(state, {"intent": "relaxed", "on": False})
    assert kc.prompt(state).timeout == 8 and "8 seconds" in says(events)
    state, _ = play(state, {"intent": "timer", "seconds": 12})
    assert kc.prompt(state).timeout == 12 and kc.prompt(state).player == "Ana"
    assert_refused(state, {"intent": "timer", "seconds": 2}, "3 to 60")


@pytest.mark.parametrize("rules, timeout", [({"relaxed": True}, None), ({"turn_seconds": 12}, 12)])
def test_turn_timer_follows_the_rules(rules, timeout):
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]}, **rules)
    assert kc.prompt(state).timeout == timeout


def test_turns_go_clockwise_in_round_one():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]})
    order = []
    for _ in range(4):
        order.append(kc.prompt(state).player)
        state, events = play(state, CLUE)
        assert sounds(events) == [] and says(events) == ""  # a clue: the session's turn cue, no words
    assert order == ["Ana", "Ben", "Cy", "Ana"]


def test_timeout_sounds_the_buzzer_and_passes_the_turn():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]})
    state, events = play(state, TIMEOUT)
    assert sounds(events) == ["buzzer"] and kc.prompt(state).player == "Ben"
    assert state.spoken == []


# ------------------------------------------------------------------ guesses


def test_guessing_the_previous_players_word_wins_it_for_both():
    # Round 1: Cy gives clues to Ana, so Ana guesses Cy's words.
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE)  # Ana, Ben and Cy each speak once
    state, events = play(state, word("castle"))  # Ana guesses
    assert [w.word for w in state.won] == ["castle"]
    won = state.won[0]
    assert (won.owner, won.winner, won.attack) == ("Cy", "Ana", False)
    assert [c.word("red", 1) for c in state.hands["Cy"]] == ["wolf"]
    assert "win_card" in sounds(events)
    assert {"type": "reveal", "player": "Cy", "card": "castle", "value": "castle"} in events
    assert "Castle!" in says(events) and "Ana and Cy" in says(events)
    assert kc.prompt(state).player == "Ben"
    assert kc.round_points(state) == {"Ana": 1, "Ben": 0, "Cy": 1}


def test_a_guess_before_its_owner_gave_a_clue_counts_for_nothing_silently():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, events = play(state, word("castle"))  # Cy has not spoken yet
    assert state.won == [] and len(state.hands["Cy"]) == 2
    assert sounds(events) == [] and says(events) == ""
    assert not [e for e in events if e["type"] == "reveal"]


def test_a_card_nobody_clued_yet_is_not_revealed_though_its_owner_spoke():
    """The rulebook: a word named before a clue for it was given is not revealed. Cy
    gave one clue, and castle was won with it: wolf has had no clue of its own."""
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf", "bread"]})
    state, _ = play(state, CLUE, CLUE, CLUE, word("castle"), CLUE)  # Ana, Ben, Cy's one clue, castle, Ben
    state, _ = play(state, TIMEOUT)  # Cy says nothing
    state, events = play(state, word("wolf"))  # Ana: Cy has not clued again
    assert [w.word for w in state.won] == ["castle"] and not [e for e in events if e["type"] == "reveal"]
    assert sounds(events) == [] and says(events) == ""  # silently, as a clue
    state, _ = play(state, CLUE, CLUE, word("wolf"))  # Ben, Cy's second clue, Ana again
    assert [w.word for w in state.won] == ["castle", "wolf"]


def test_clued_per_player_counts_every_card_once_its_owner_spoke():
    state = table_of(
        {"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf", "bread"]}, clued="per_player"
    )
    state, _ = play(state, CLUE, CLUE, CLUE, word("castle"), CLUE, TIMEOUT, word("wolf"))
    assert [w.word for w in state.won] == ["castle", "wolf"]


def test_table_deal_a_claim_for_a_card_nobody_clued_is_refused():
    """Cy's one clue wins one card; with no second clue from Cy, the next claim does
    not count, until Cy clues again."""
    state = table_game()
    state, _ = play(state, {"intent": "ready"}, CLUE, CLUE, CLUE, CLUE)  # Ana, Ben, Cy (a clue), Ana
    state, _ = play(state, {"intent": "hit", "owner": "Cy"})
    assert len(state.won) == 1
    state, _ = play(state, CLUE, TIMEOUT, CLUE)  # Ben, Cy silent, Ana
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "had not given a clue for it")
    state, _ = play(state, CLUE, CLUE, CLUE)  # Ben, Cy (a clue), Ana
    state, _ = play(state, {"intent": "hit", "owner": "Cy"})
    assert len(state.won) == 2


def test_a_timeout_is_not_a_clue():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, TIMEOUT, word("castle"))
    assert state.won == []


def test_basic_game_ignores_other_players_words():
    # Ana names Ben's word: Ben is the one who guesses Ana's words, not the reverse.
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE)
    state, events = play(state, word("tiger"))
    assert state.won == [] and len(state.hands["Ben"]) == 2
    assert sounds(events) == []


def test_too_cool_attack_on_the_next_player_goes_in_front_of_the_attacker():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]}, mode="too-cool")
    state, _ = play(state, CLUE, CLUE, CLUE)
    state, events = play(state, word("tiger"))
    won = state.won[0]
    assert (won.word, won.owner, won.winner, won.attack) == ("tiger", "Ben", "Ana", True)
    assert "Attack" in says(events)
    assert kc.round_points(state) == {"Ana": 1, "Ben": 0, "Cy": 0}


def test_too_cool_attack_across_the_table_and_shared_cards_score_two():
    hands = {"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"], "Dee": ["ocean", "drum"]}
    state = table_of(hands, mode="too-cool")
    state, _ = play(state, CLUE, CLUE, CLUE, CLUE)
    state, _ = play(state, word("castle"))  # Ana attacks Cy, who sits opposite
    state, _ = play(state, word("piano"))  # Ben guesses Ana: shared
    assert [(w.owner, w.winner, w.attack) for w in state.won] == [("Cy", "Ana", True), ("Ana", "Ben", False)]
    assert kc.round_points(state) == {"Ana": 3, "Ben": 2, "Cy": 0, "Dee": 0}


def test_too_cool_attack_needs_its_owner_to_have_spoken():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]}, mode="too-cool")
    state, _ = play(state, word("tiger"))
    assert state.won == []


def test_rulebook_laura_scores_six_basic_and_thirteen_too_cool():
    # Laura guessed 4 of Mike's cards, Matthieu guessed 2 of Laura's, one attack.
    hands = {"Laura": ["a"], "Matthieu": ["b"], "Mike": ["c"], "Zoe": ["d"]}
    basic = table_of(hands)
    basic.won = [kc.WonCard(None, None, "Mike", "Laura", False)] * 4 + [
        kc.WonCard(None, None, "Laura", "Matthieu", False)
    ] * 2
    assert kc.round_points(basic)["Laura"] == 6
    cool = table_of(hands, mode="too-cool")
    cool.won = basic.won + [kc.WonCard(None, None, "Zoe", "Laura", True)]
    assert kc.round_points(cool)["Laura"] == 13


# --------------------------------------------------------------------- root check


@pytest.mark.parametrize(
    "said, own",
    [
        ("arm", "armour"),
        ("dog", "wolf-dog"),
        ("painter", "painting"),
        ("flies", "fly"),
        ("grandmother", "mother"),
        ("piano", "piano"),
        ("broke", "broker"),
        ("sweat", "sweater"),
        ("volley", "volleyball"),
        ("sweaters", "sweater"),
    ],
)
def test_words_sharing_a_root(said, own):
    assert kc.share_root(said, own)


@pytest.mark.parametrize(
    "said, own",
    [("velvit", "velvet"), ("velvits", "velvet"), ("kolour", "colour"), ("pilow", "pillow"), ("sweter", "sweater")],
)
def test_a_root_misspelt_or_said_near_shares_it_too(said, own):
    assert kc.share_root(said, own) and not kc.share_root(said, own, near=False)


@pytest.mark.parametrize(
    "said, own",
    [("ear", "heart"), ("ring", "spring"), ("river", "piano"), ("ice", "nice"), ("horse", "house"), ("tune", "dune")]
    + [("timer", "tiger"), ("ladder", "letter"), ("melon", "lemon"), ("battle", "bottle"), ("paper", "pepper")],
)
def test_words_only_looking_alike_are_allowed(said, own):
    assert not kc.share_root(said, own)


def test_the_rule_roots_exact_takes_a_misspelt_root_as_before():
    state = table_of({"Ana": ["velvet", "river"], "Ben": ["tiger"], "Cy": ["castle"]})
    assert_refused_quietly(state, {"intent": "word", "word": None, "text": "velvit"}, "velvit shares a root")
    exact = table_of({"Ana": ["velvet", "river"], "Ben": ["tiger"], "Cy": ["castle"]}, roots="exact")
    exact, _ = play(exact, {"intent": "word", "word": None, "text": "velvit"})
    assert kc.prompt(exact).player == "Ben"


def test_saying_your_own_word_is_refused():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger"], "Cy": ["castle"]})
    assert_refused_quietly(state, word("piano"), "piano is your own word")


def test_a_heard_clue_sharing_a_root_with_your_word_is_refused():
    state = table_of({"Ana": ["armour", "river"], "Ben": ["tiger"], "Cy": ["castle"]})
    assert_refused_quietly(
        state, {"intent": "word", "word": None, "text": "arm"}, "arm shares a root with your word armour"
    )
    state, _ = play(state, {"intent": "word", "word": None, "text": "knight"})
    assert kc.prompt(state).player == "Ben"


def test_a_word_in_play_sharing_a_root_with_your_own_is_refused():
    state = table_of({"Ana": ["painting"], "Ben": ["tiger"], "Cy": ["painter"]})
    assert_refused_quietly(state, word("painter"), "root")


# -------------------------------------------------------------- invalid actions


def test_other_intents_during_play_are_refused():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]})
    assert_refused(state, {"intent": "face", "face": "red"}, "one word")
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "no word is waiting")  # nothing said yet to claim


def test_apply_never_changes_its_input():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]})
    before = snapshot(state)
    kc.apply(state, {"player": "Ana", **CLUE})
    assert snapshot(state) == before


# ------------------------------------------------------------ rounds and the game


def test_round_ends_when_a_hand_is_empty_and_the_next_round_mirrors():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle"]})
    state, _ = play(state, CLUE, CLUE, CLUE)
    state, events = play(state, word("castle"))  # Cy's last card: round over
    text = says(events)
    assert "Cy has no cards left" in text and "Ana 1, Ben 0, Cy 1" in text
    assert "Ana and Cy win the round" in text
    assert [e for e in events if e["type"] == "score"] == [
        {"type": "score", "player": "Ana", "delta": 1, "total": 1, "reason": "won round 1"},
        {"type": "score", "player": "Cy", "delta": 1, "total": 1, "reason": "won round 1"},
    ]
    assert state.round_wins == {"Ana": 1, "Ben": 0, "Cy": 1}
    # Round 2: Ana (who said the last word) starts, the other way round.
    assert (state.round_number, state.direction, state.starter) == (2, -1, "Ana")
    assert "Ana, Cy and Ben" in text
    assert all(len(state.hands[p]) == 4 for p in PLAYERS3)
    assert len([e for e in events if e["type"] == "private"]) == 3
    assert state.won == [] and state.spoken == []
    assert kc.previous_player(state, "Ana") == "Ben" and kc.next_player(state, "Ana") == "Cy"


def test_swaps_are_offered_again_in_a_new_round_in_the_new_order():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle"]}, swap=True)
    state.phase = "play"
    state, _ = play(state, CLUE, CLUE, CLUE, word("castle"))
    assert kc.prompt(state).context["step"] == "swap"
    assert state.swap_queue == ["Ana", "Cy", "Ben"]


def test_a_single_round_winner_and_the_game_to_two_round_wins():
    state = table_of({"Ana": ["piano"], "Ben": ["tiger"], "Cy": ["castle"]}, rounds_to_win=1)
    state, _ = play(state, CLUE, CLUE, CLUE)
    state, _ = play(state, word("castle"))
    assert state.phase == "over"  # Ana and Cy tied on 1 and share the game
    assert state.winners == ["Ana", "Cy"]


def test_two_round_wins_end_the_game():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]}, mode="too-cool")
    state, _ = play(state, CLUE, CLUE, CLUE)
    state, _ = play(state, word("tiger"), CLUE, CLUE)  # Ana attacks Ben; Ben, Cy clue
    state, events = play(state, word("lemon"))  # Ana attacks Ben's last card: 2 points
    assert state.round_wins == {"Ana": 1, "Ben": 0, "Cy": 0}
    assert "Ana wins the round" in says(events)
    assert state.starter == "Ana" and kc.prompt(state).player == "Ana"  # swaps are off
    # Round 2 goes the other way (Ana, Cy, Ben): Ana now guesses Ben's words.
    state.hands = {"Ana": [card("apple")], "Ben": [card("bread"), card("sugar")], "Cy": [card("cloud")]}
    state, _ = play(state, CLUE, CLUE, CLUE)  # Ana, Cy, Ben
    state, events = play(state, word("bread"))  # shared card: 2 points each
    assert state.round_wins == {"Ana": 1, "Ben": 0, "Cy": 0}  # nobody is out of cards yet
    state, _ = play(state, CLUE, CLUE)  # Cy, Ben
    state, events = play(state, word("sugar"))
    assert state.phase == "over" and state.winners == ["Ana"]
    assert {"type": "game_over", "scores": {"Ana": 2, "Ben": 1, "Cy": 0}, "winners": ["Ana"]} in events
    assert "Ana wins the game" in says(events)
    assert "game_over" in sounds(events)
    assert kc.prompt(state) is None
    assert_refused_over(state)
    assert "Game over" in kc.scores(state)


def assert_refused_over(state):
    with pytest.raises(RuleError, match="over"):
        kc.apply(state, {"player": "Ana", **CLUE})


def test_scores_reports_round_wins_and_this_rounds_points():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, word("castle"))
    text = kc.scores(state)
    assert "Round wins: Ana 0, Ben 0, Cy 0" in text and "Ana 1, Ben 0, Cy 1" in text


# ----------------------------------------------------------------------- the deck


def test_rejected_cards_stay_out_until_the_round_ends_and_the_deck_is_reused():
    state, _ = kc.setup(options(face="red", line=1, seed=5), deck(13))
    rejected = state.hands["Ana"][0]
    state, _ = play(state, {"intent": "reject_card", "card": 1}, {"intent": "no"}, {"intent": "no"})
    assert rejected not in [c for hand in state.hands.values() for c in hand]
    # Play the round out: Ana's words are guessed by Ben once Ana has spoken.
    anas = [c.word("red", 1) for c in state.hands["Ana"]]
    state, _ = play(state, CLUE)  # Ana
    for guess in anas:
        state, events = play(state, word(guess))  # Ben guesses
        if state.round_number == 2:
            break
        state, _ = play(state, CLUE, CLUE)  # Cy, Ana
    assert state.round_number == 2
    assert "Shuffling the used word cards back in" in says(events)
    in_hands = [c for hand in state.hands.values() for c in hand]
    assert len(in_hands) == 12 and len(set(map(id, in_hands))) == 12
    assert len(in_hands) + len(state.draw_pile) + len(state.discard_pile) == 13


# ----------------------------------------------------------------------- table deal


def table_game(mode="basic", **rules) -> kc.KeepCoolState:
    state, _ = kc.setup(options(mode=mode, deal="table", face="red", line=3, **rules), Decks())
    return state


def test_table_deal_waits_for_ready_then_plays_with_no_words_known():
    state = table_game()
    asked = kc.prompt(state)
    assert asked.context == {"step": "ready"} and "Ana" in asked.text and "red" in asked.text
    assert_refused(state, {"intent": "no"}, "ready")
    state, _ = play(state, {"intent": "ready"})
    asked = kc.prompt(state)
    assert asked.context["words"] == [] and asked.player == "Ana"
    assert "Cy got it" in asked.choices


def test_table_hit_wins_the_last_word_said():
    state = table_game()
    state, _ = play(state, {"intent": "ready"}, CLUE, CLUE, CLUE, CLUE)  # Ana, Ben, Cy, Ana
    state, events = play(state, {"intent": "hit", "owner": "Cy"})  # at Ben's prompt
    won = state.won[0]
    assert (won.owner, won.winner, won.attack, won.word) == ("Cy", "Ana", False, None)
    assert len(state.hands["Cy"]) == 3 and "Ana and Cy" in says(events)
    assert kc.prompt(state).player == "Ben"  # still Ben's turn
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "no word is waiting")


def test_table_hit_without_a_name_is_the_guessed_neighbour_in_the_basic_game():
    state = table_game()
    state, _ = play(state, {"intent": "ready"}, CLUE, CLUE, CLUE, CLUE)
    state, _ = play(state, {"intent": "hit"})
    assert state.won[0].owner == "Cy"


def test_table_hits_that_break_the_rules_are_refused():
    state = table_game()
    state, _ = play(state, {"intent": "ready"})
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "no word is waiting")
    state, _ = play(state, CLUE)  # Ana speaks; Cy has not given a clue yet
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "not given a clue")
    assert_refused(state, {"intent": "hit", "owner": "Ana"}, "own")
    assert_refused(state, {"intent": "hit", "owner": "Ben"}, "basic game")
    assert_refused(state, {"intent": "hit", "owner": "Zed"}, "not playing")


def test_table_too_cool_attack_needs_a_name():
    state = table_game(mode="too-cool")
    state, _ = play(state, {"intent": "ready"}, CLUE, CLUE, CLUE, CLUE)  # Ana's word is last
    assert_refused(state, {"intent": "hit"}, "whose card")
    state, events = play(state, {"intent": "hit", "owner": "Ben"})
    assert (state.won[0].owner, state.won[0].winner, state.won[0].attack) == ("Ben", "Ana", True)


def test_table_round_ends_on_the_fourth_hit_and_asks_ready_again():
    state = table_game()
    state, _ = play(state, {"intent": "ready"}, CLUE, CLUE, CLUE)  # everyone has spoken
    for hit in range(4):
        state, _ = play(state, CLUE, {"intent": "hit", "owner": "Cy"})  # Ana guesses Cy
        if hit < 3:
            assert state.round_number == 1 and len(state.hands["Cy"]) == 3 - hit
            state, _ = play(state, CLUE, CLUE)  # Ben, Cy
    assert state.round_number == 2
    assert state.round_wins == {"Ana": 1, "Ben": 0, "Cy": 1}
    assert kc.prompt(state).context == {"step": "ready"}
    assert state.starter == "Ana" and state.direction == -1
    assert all(len(state.hands[p]) == 4 for p in PLAYERS3)


# ----------------------------------------------------------------- replay


def test_replaying_the_accepted_actions_rebuilds_the_same_state():
    opts = options(mode="too-cool", seed=11)
    state, _ = kc.setup(opts, deck(20))
    journal = [
        {"intent": "face", "face": "blue"},
        {"intent": "line", "line": 2},
        {"intent": "reject_card", "card": 3},
        {"intent": "no"},
        {"intent": "reject_card", "card": 1},
    ]
    state, _ = play(state, *journal)
    journal = [{"player": None, **a} for a in journal]
    # then guess every word in play, whatever it is, until something happens
    for _ in range(30):
        asked = kc.prompt(state)
        if asked is None:
            break
        if asked.name == "keep-cool/setup":  # a new round's swaps
            action = {"player": asked.player, "intent": "no"}
            state, _ = kc.apply(state, action)
            journal.append(action)
            continue
        words = [
            w
            for w in asked.context["words"]
            if not any(kc.share_root(w, c.word("blue", 2)) for c in state.hands[asked.player])
        ]
        action = {"player": asked.player, "intent": "word", "word": words[len(journal) % len(words)]}
        state, _ = kc.apply(state, action)
        journal.append(action)
    replayed, _ = kc.setup(opts, deck(20))
    for action in journal:
        replayed, _ = kc.apply(replayed, action)
    assert snapshot(replayed) == snapshot(state)
    assert state.round_number > 1 or state.won  # the game really moved on


# ------------------------------------------------------- host deal: a missed hit claimed


MISSED_CASTLE = {"intent": "word", "word": None, "text": "cassel", "heard": ["castle"]}
"""A clue as the ears give it when one ear wrote "castle" and the other did not."""


def test_host_deal_a_missed_hit_is_claimed_and_the_owner_names_the_word():
    # Ana guesses Cy's words; the host heard a clue where Ana said "castle".
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, MISSED_CASTLE)  # Ana, Ben, Cy, then Ana's missed word
    assert kc.prompt(state).player == "Ben"
    state, events = play(state, {"intent": "hit", "owner": "Cy"})
    asked = kc.prompt(state)
    assert (asked.name, asked.player, asked.timeout) == ("keep-cool/claim", "Cy", None)
    assert asked.slots["word"][:2] == [("castle", "castle"), ("wolf", "wolf")]
    assert ("second one", "wolf") in asked.slots["word"]  # or by its place
    assert_refused(state, word("piano"), "by its place: first or second")  # never the words: the table hears
    state, events = play(state, word("castle"))
    won = state.won[0]
    assert (won.word, won.owner, won.winner, won.attack) == ("castle", "Cy", "Ana", False)
    assert "Castle!" in says(events) and kc.prompt(state).player == "Ben"  # Ben's turn goes on
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "no word")  # claimed once


def test_host_deal_a_claim_can_be_taken_back():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, MISSED_CASTLE, {"intent": "hit"})
    state, events = play(state, {"intent": "no"})
    assert state.won == [] and kc.prompt(state).name == "keep-cool/word"
    assert kc.prompt(state).player == "Ben"


def test_host_deal_a_hit_the_host_heard_cannot_be_claimed_again():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, word("castle"))
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "no word")


def test_host_deal_claims_follow_the_same_rules():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE)  # Ana spoke; Cy has not
    assert_refused(state, {"intent": "hit", "owner": "Cy"}, "had not given a clue")
    assert_refused(state, {"intent": "hit", "owner": "Ben"}, "can only win")


def test_host_deal_a_claim_wins_only_a_card_whose_word_was_said():
    """Rulebook: the card is won "If the word said really is one of the words on the
    right-hand neighbour's card". Typed, Cy says banana; a claim for Ben's pasta wins nothing."""
    state = table_of({"Ana": ["piano", "river"], "Ben": ["pasta", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE)  # Ana, then Ben: Ben's cards are clued
    state, _ = play(state, {"intent": "word", "word": None, "text": "banana"})  # Cy
    assert_refused(state, {"intent": "hit"}, kc.CLAIM_MISMATCH)  # Ben's, as Cy guesses Ben's words
    assert_refused(state, {"intent": "hit", "owner": "Ben"}, kc.CLAIM_MISMATCH)
    assert state.won == [] and kc.prompt(state).player == "Ana"


def test_host_deal_a_claim_names_the_card_whose_word_was_said():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, MISSED_CASTLE, {"intent": "hit"})
    assert_refused(state, word("wolf"), kc.CLAIM_MISMATCH)  # not the word said: still asked which
    assert kc.prompt(state).name == "keep-cool/claim"
    state, _ = play(state, word("castle"))
    assert [won.word for won in state.won] == ["castle"]


def test_host_deal_a_claim_matches_the_plural_or_any_reading_of_the_word_said():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    castles = {"intent": "word", "word": None, "text": "the castles"}
    state, _ = play(state, CLUE, CLUE, CLUE, castles, {"intent": "hit"}, word("castle"))
    assert [won.word for won in state.won] == ["castle"]


def test_host_deal_a_claim_after_the_buzzer_is_too_late():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, MISSED_CASTLE, TIMEOUT)  # Ana's word, then Ben's buzzer
    assert_refused(state, {"intent": "hit"}, "too late")


def test_host_deal_claims_trusted_as_before_the_rule():
    """A game saved before claims were checked resumes with the rule claims=trusted."""
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]}, claims="trusted")
    state, _ = play(state, CLUE, CLUE, CLUE, CLUE, TIMEOUT, {"intent": "hit"}, word("wolf"))
    assert [won.word for won in state.won] == ["wolf"]
    assert kc.RULES_BEFORE["claims"] == "trusted" and kc.RULE_DEFAULTS["claims"] == "checked"


def test_the_owners_phone_page_offers_the_claimed_words_as_buttons():
    state = table_of({"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf"]})
    state, _ = play(state, CLUE, CLUE, CLUE, MISSED_CASTLE, {"intent": "hit", "owner": "Cy"})
    view = kc.hand_view(state, "Cy")
    assert [card.play for card in view.cards] == [
        {"intent": "word", "word": "castle"},
        {"intent": "word", "word": "wolf"},
    ]
    assert view.actions == (("None of them", {"intent": "no"}),)
    assert all(card.play is None for card in kc.hand_view(state, "Ana").cards)


# ---------------------------------------------------------------- one word a turn


def test_a_clue_of_two_words_is_refused_and_the_turn_stays():
    """Rulebook: a player "Says exactly one word"."""
    state = table_of({"Ana": ["apple"], "Ben": ["piano"], "Cy": ["river"]})
    assert_refused_quietly(state, {"intent": "word", "word": None, "text": "big tree"}, "one word")
    state, _ = play(state, {"intent": "word", "word": None, "text": "wolf-dog"})  # a compound is one
    assert kc.prompt(state).player == "Ben"


def test_a_clue_with_an_article_before_it_is_one_word_as_by_voice():
    state = table_of({"Ana": ["apple"], "Ben": ["piano"], "Cy": ["river"]})
    state, _ = play(state, {"intent": "word", "word": None, "text": "a rabbit"})
    assert kc.prompt(state).player == "Ben"
    assert_refused_quietly(state, {"intent": "word", "word": None, "text": "the big tree"}, "one word")


@pytest.mark.parametrize("typed", ["wolf-dog", "ice-cream", "Grand-Mother!"])
def test_a_typed_hyphenated_compound_is_one_word_as_in_spoken_play(typed):
    """Rulebook: "compound words, which count as one word (examples: wolf-dog,
    grandmother)". Typed, the matcher keeps the hyphen, so "One word." is not said."""
    from voice.understanding.matcher import Matcher

    state = table_of({"Ana": ["apple"], "Ben": ["piano"], "Cy": ["river"]})
    prompt = kc.prompt(state)
    intent = Matcher().match(prompt.name, typed, prompt.slots).intent
    assert intent == {"intent": "word", "word": None, "text": typed.lower().strip("!")}
    state, events = play(state, intent)
    assert kc.prompt(state).player == "Ben" and not says(events)


@pytest.mark.parametrize("deal", ["host", "table"])
@pytest.mark.parametrize("text", ["meow", "crack", "bow wow", "bow-wow", "bang bang", "WOOF"])
def test_a_sound_word_is_refused_and_the_turn_stays(deal, text):
    """Rulebook: "It is forbidden to say ... onomatopoeias (examples: crack, meow)"."""
    state = table_of({"Ana": ["apple"], "Ben": ["piano"], "Cy": ["river"]}, deal=deal)
    if deal == "table":
        state, _ = play(state, {"intent": "ready"})
    assert_refused_quietly(state, {"intent": "word", "word": None, "text": text.lower()}, "no sound words")


def test_a_word_that_only_contains_a_sound_is_a_clue_and_a_sound_word_in_play_a_guess():
    state = table_of({"Ana": ["apple"], "Ben": ["piano"], "Cy": ["crash", "river"]})
    state, _ = play(
        state,
        {"intent": "word", "word": None, "text": "boomerang"},
        {"intent": "word", "word": None, "text": "doorbell"},
    )
    assert kc.prompt(state).player == "Cy"
    state, _ = play(state, CLUE, {"intent": "word", "word": "crash", "text": "crash"})  # Ana guesses Cy's
    assert [won.word for won in state.won] == ["crash"]


def test_the_sound_word_list_names_its_source_and_licence():
    from host.decks import SOUND_WORDS_FILE, default_deck_dir, sound_words

    header = (default_deck_dir() / SOUND_WORDS_FILE).read_text(encoding="utf-8").split("\n\n")[0]
    assert "Source:" in header and "Licence:" in header
    assert {"meow", "crack", "bowwow", "cockadoodledoo"} <= sound_words()
    assert not {"bell", "drum", "whistle", "ring", "bark"} & sound_words()


@pytest.mark.parametrize("deal", ["host", "table"])
def test_a_split_clue_stays_a_clue_when_several_words_is_clue(deal):
    """By voice a recogniser may split one word ("a low" for "pillow"): the turn passes."""
    state, _ = kc.setup(options(deal=deal, face="red", line=1, swap=False, several_words="clue"), deck())
    if deal == "table":
        state, _ = play(state, {"intent": "ready"})
    first = kc.prompt(state).player
    state, events = play(state, {"intent": "word", "word": None, "text": "a low"})
    assert kc.prompt(state).player != first and not says(events)


def test_several_words_rule_takes_only_refuse_or_clue():
    with pytest.raises(RuleError, match="refuse or clue"):
        kc.setup(options(several_words="maybe"), deck())


def test_the_table_reads_every_card_won_this_round_face_up():
    state = table_of(
        {"Ana": ["piano", "river"], "Ben": ["tiger", "lemon"], "Cy": ["castle", "wolf", "bread"]}, mode="too-cool"
    )
    assert "No card won yet this round." in kc.table_text(state)
    state, _ = play(state, CLUE, CLUE, CLUE, CLUE, CLUE, CLUE)  # two rounds of clues: Cy clued two words
    state, _ = play(state, word("castle"), word("wolf"))  # Ana guesses, Ben attacks
    text = kc.table_text(state)
    assert "Cards won: castle, between Ana and Cy; wolf, taken by Ben from Cy." in text
    assert "It is Cy's turn." in text


def test_relaxed_play_takes_any_turn_time_since_no_timer_runs():
    """The refusal's own advice (relaxed=true: no timer) is taken: 0 with relaxed sets up."""
    with pytest.raises(RuleError):
        kc.setup(options(turn_seconds=0), deck())
    state, _ = kc.setup(options(turn_seconds=0, relaxed=True), deck())
    assert state.rules["relaxed"]
