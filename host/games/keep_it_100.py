"""Keep It 100: slide survey questions into number lines, then guess the hidden answers.

How a turn goes (competitive modes, "basic" and "over100"):
  1. The Slider picks a question card from their hand (by number, by its name or by a word
     from the question) and the host reads it aloud.
  2. The Slider names a spot in one of the two lines ("between 42 and 60").
  3. Every other player, in seat order, predicts whether the true answer is
     lower than that spot, right, or higher.
  4. In "over100" every player with points, the Slider first, may bet.
  5. The host reveals the answer: a right spot keeps the card in its line and
     pays the Slider; right predictions pay their players; bets pay 1:1 or are lost.
  6. The Slider role moves to the next seat. When every hand is empty, the most
     points wins; tied leaders play tiebreak questions until one is closest.

The cooperative "challenge" mode uses one line and a shared deck: each Slider
chooses between two cards (the one the previous Slider passed on plus a fresh
draw), places it, and the team wins on reaching the target count of placed
cards or loses when the lives run out.

Rules choices (what the rulebook leaves open; keys are in RULE_DEFAULTS):
  - Starter cards: seven values spread over 0-100 (`starters`); any list works.
  - Hand size follows the rulebook table by player count; `hand_size` overrides it.
  - Seat order is the roster order. Who starts follows the rulebook: when the same
    players finished a game earlier the same day, its lowest scorer (the first of
    them in seat order, on a tie) is the first Slider (`again_first: lowest`,
    found by the application in its saved games); for the day's first game the
    host cannot know whose age is closest to 100, so list that player first: the
    first name starts. `again_first: listed` makes the first name start every
    game (the behaviour before 2026-12); `first_slider` names someone outright.
  - A spot is named by its neighbours: "after N" means just right of N, "before
    N" just left of N; the line may be left out when the numbers make it unique.
    The extension field "end" ("low" / "high") names the start or end of a line.
  - A card equal to a neighbour is in the right spot.
  - When a Slider has a single card left, the host picks it without asking.
  - `read_hand`: at the start of each turn the host names the Slider's cards in
    order by their names in the deck ("June, President and Phileas Fogg"), which a
    player says back to pick one ("the June one"); a deck without names
    gives short titles instead ("almond fat, watermelon water and ..."), two of each
    question's own words, the first time they are the Slider, and by one word each
    after (`titles`, the default); "read card 2" reads one card in full, "read my
    cards" all of them. `first` reads a player's hand in full the first time they
    are the Slider, then one word a card; `full` reads it in full every turn (the
    behaviour before 2026-12); `off` names nothing. At the deal each player is told
    their full cards privately (their phone page, or the terminal). In the
    Challenge the two cards on offer are named in the question itself.
  - Bets come after all predictions, Slider first, and only from players with
    points; a bet is a multiple of `bet_step` and at most the player's points.
    A bet won pays its amount plus the card points; a bet lost goes to the bank.
  - Scores are read after each full rotation of Sliders.
  - Tiebreak: the rulebook has the tied players call their numbers at once, so
    nobody hears another's first. A host cannot hear voices at once, so each
    number is settled before any is heard. With phones (`tiebreak_entry: phone`,
    set by `partyhost play --phones`) each types it on their own page, which no one
    else sees; the host says only "Got it" and reveals them all with the answer.
    All of them type at once, in any order.
    By voice (`say`) each tied player writes a number down, the table says
    "ready", and then the host asks each in turn for the number they wrote and
    repeats it. The intro says which of the two to do. Who is asked first rotates
    each round. If no fresh question is left, tied players share the win.
  - Challenge: draw 2 keep 1, the other passes on. When no fresh card is left,
    the last passed card is played alone (`challenge_play_leftover`, on), so all
    the challenge deck's cards can be played, as the rulebook allows; only once
    no card at all is left does the team lose. Off: the team loses as soon as
    no fresh card is left. The score is lives left times `life_points`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from random import Random
from typing import Any, Literal, TypedDict, cast

from host.cardtitle import (
    HAND_TITLE_WORDS,
    READ_HAND,
    card_name,
    names_context,
    names_text,
    read_hand_rule,
    spoken_name,
    with_names,
)
from host.contract import Choice, Intent, JsonObject, Narrow, Prompt
from host.decks import QUESTIONS_FILE, DeckEntry, Decks, Question
from host.engine import (
    NARROW_LIST_MAX,
    ORDINALS,
    Action,
    Event,
    Game,
    GameOptions,
    RuleError,
    check_player_count,
    evolve,
    game_over,
    join_names,
    narrow_numbers,
    new_rng,
    private,
    required,
    say,
    score,
    sound,
)
from host.moves import Number, Said, named
from host.rules import convert_rule, merge_rules
from host.views import CardView, HandView, NumberEntry

ID = "keep-it-100"
TITLE = "Keep It 100"
ORDER = 1
DECK = DeckEntry("questions", QUESTIONS_FILE, min_cards=16)
"""min_cards: enough for the biggest deal, 14 in co-op plus tiebreaks."""
MODES = ("basic", "over100", "challenge")
DEALS = ("host",)
MIN_PLAYERS = 1
MAX_PLAYERS = 8
INFO_INTENTS = frozenset({"read_cards", "read_card", "read_question"})
"""Intents that only read something out: the session does not journal them."""


class Rules(TypedDict):
    """The game's own rules (GameOptions.rules), as check_rules gives them."""

    starters: list[int]
    hand_size: int
    slider_points: int
    predictor_points: int
    bet_step: int
    read_hand: str
    first_slider: str
    again_first: str
    challenge_deck: int
    challenge_lives: int
    challenge_target: int
    life_points: int
    challenge_play_leftover: bool
    tiebreak_entry: str


RULE_DEFAULTS: Rules = {
    "starters": [5, 20, 35, 50, 65, 80, 95],
    "hand_size": 0,  # 0: by player count, as in the rulebook table
    "slider_points": 20,
    "predictor_points": 10,
    "bet_step": 10,
    "read_hand": "titles",  # titles | first (in full the first time) | full | off
    "first_slider": "",  # "": the rulebook's (see again_first); a name: that player starts
    "again_first": "lowest",  # a later game of the day: "lowest" scorer of the last starts; "listed": first name
    "challenge_deck": 14,
    "challenge_lives": 5,
    "challenge_target": 10,
    "life_points": 20,
    "challenge_play_leftover": True,  # false: lose once no fresh card is left (before 2026-12)
    "tiebreak_entry": "say",  # "say": numbers said in turn; "phone": typed on each phone
}

RULES_BEFORE = {"again_first": "listed"}
"""A game saved before the rule again_first existed resumes as it was played."""
RULES_SUMMARY = (
    "Keep It 100. Every question's answer is a number from 0 to 100: how many people "
    "out of 100 said or did something, or a percentage, of a country, a food or the planet. "
    "On your turn you are the Slider: pick a card, hear the question, and say where "
    "its hidden number fits in one of the two lines, for example between 42 and 60. "
    "Everyone else says lower, right, or higher. A right spot earns the Slider 20 "
    "points and keeps the card in the line; each right prediction earns 10. "
    "In Over 100 you may also bet points: a right call pays the bet back double. "
    "When all hands are empty, the most points wins. "
    "In the Challenge the team builds one line: place 10 cards before losing 5 lives."
)

HAND_SIZE_BY_PLAYERS = {2: 7, 3: 6, 4: 5, 5: 4, 6: 3, 7: 2, 8: 2}
COMPETITIVE_PLAYERS = (2, 8)
REVEAL_CUE = "drumroll"
LINE_NAMES = ("one", "two")
GUESSES = ("lower", "correct", "higher")
GUESS_WORDS = {"lower": "lower", "correct": "right", "higher": "higher"}

# Phases of play: what the host waits for. WRITE: a tiebreak by voice, while the tied
# players write their numbers down (the table says "ready"); TIEBREAK: collecting them.
CHOOSE, PLACE, PREDICT, BET, WRITE, TIEBREAK, OVER = ("choose", "place", "predict", "bet", "write", "tiebreak", "over")
EXPECTED_INTENT = {
    CHOOSE: "choose_card",
    PLACE: "place",
    PREDICT: "predict",
    BET: "bet",
    WRITE: "ready",
    TIEBREAK: "number",
}
WHAT_NOW = {
    CHOOSE: "pick a card",
    PLACE: "say where the card goes",
    PREDICT: "say lower, right, or higher",
    BET: "bet or say no bet",
    WRITE: "say ready once every number is written down",
    TIEBREAK: "say a number",
}


# ---------------------------------------------------------------- values


@dataclass(frozen=True)
class Spot:
    """A gap in a line: insert at `index` of line `line` (0-based), between low and high."""

    line: int
    index: int
    low: int | None
    high: int | None


@dataclass
class Turn:
    """One Slider's card, spot, and what the others said about it."""

    slider: str
    card: Question | None = None
    spot: Spot | None = None
    predictions: dict[str, str] = field(default_factory=dict)
    bettors: list[str] = field(default_factory=list)
    bets: dict[str, int] = field(default_factory=dict)


@dataclass
class Challenge:
    """The cooperative game's shared deck, the cards on offer, and the life line."""

    deck: list[Question]
    lives: int
    offer: list[Question] = field(default_factory=list)
    leftover: Question | None = None
    placed: int = 0


@dataclass
class Tiebreak:
    """Tied leaders guessing one fresh question's answer."""

    players: list[str]
    question: Question
    guesses: dict[str, int] = field(default_factory=dict)
    round: int = 1


@dataclass
class State:
    """Everything about one game; `apply` changes only a copy of it."""

    mode: str
    players: tuple[str, ...]
    rules: Rules
    rng: Random
    lines: list[list[int]]
    deck: list[Question]  # unused questions (tiebreaks draw here)
    hands: dict[str, list[Question]]
    points: dict[str, int]
    slider_seat: int
    turn: Turn
    phase: str = CHOOSE
    turns_played: int = 0
    discards: list[Question] = field(default_factory=list)
    challenge: Challenge | None = None
    tiebreak: Tiebreak | None = None
    winners: list[str] = field(default_factory=list)
    heard_hand: list[str] = field(default_factory=list)  # Sliders who have heard their hand named


# ---------------------------------------------------------------- setup


def setup(options: GameOptions, decks: Decks) -> tuple[State, list[Event]]:
    """Check the options, build the lines, deal the hands (or the challenge deck)."""
    mode = options.mode or MODES[0]
    players = tuple(options.players)
    rules = check_rules(options.rules)
    _check_table(mode, options.deal, players, rules)
    rng = new_rng(options.seed)
    questions = _shuffled_questions(decks, rng)
    starters = list(rules["starters"])
    rng.shuffle(starters)
    first = players.index(rules["first_slider"]) if rules["first_slider"] else 0
    state = State(
        mode=mode,
        players=players,
        rules=rules,
        rng=rng,
        lines=[],
        deck=questions,
        hands={p: [] for p in players},
        points={p: 0 for p in players},
        slider_seat=first,
        turn=Turn(slider=players[first]),
    )
    events: list[Event] = [say(f"{TITLE}!")]
    if mode == "challenge":
        _setup_challenge(state, starters, events)
    else:
        _setup_competitive(state, starters, events)
    _start_turn(state, events)
    return state, events


def check_rules(given: JsonObject) -> Rules:
    """Defaults overlaid with the given rules, typed by merge_rules, then range-checked.
    Needs no table, so the settings check every game's rules before any game starts."""
    rules = merge_rules(TITLE, RULE_DEFAULTS, read_hand_rule(given))
    if rules["tiebreak_entry"] not in ("say", "phone"):
        raise RuleError("The rule tiebreak_entry must be say or phone.")
    if rules["again_first"] not in ("lowest", "listed"):
        raise RuleError("The rule again_first must be lowest or listed.")
    if rules["read_hand"] not in READ_HAND:
        raise RuleError(f"The rule read_hand must be one of {', '.join(READ_HAND)}.")
    rules["starters"] = _starters(rules["starters"])
    if any(not 0 <= value <= 100 for value in rules["starters"]):
        raise RuleError("Starter values must be between 0 and 100.")
    for key in ("slider_points", "predictor_points", "hand_size"):
        if rules[key] < 0:
            raise RuleError(f"The rule {key} can't be negative.")
    for size in ("bet_step", "challenge_deck", "challenge_lives", "challenge_target"):
        if rules[size] < 1:
            raise RuleError(f"The rule {size} must be at least 1.")
    return rules


def _starters(value: Any) -> list[int]:
    """The starter values: a list of numbers, or text from the command line ("5,20,80")."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise RuleError("The rule starters must be a list of whole numbers, like 5,20,80.")
    return [convert_rule("starters", item, int) for item in items]


def _check_table(mode: str, deal: str, players: tuple[str, ...], rules: Rules) -> None:
    """Refuse a mode, deal, roster or starter set this game can't be played with."""
    if mode not in MODES:
        raise RuleError(f"{TITLE} has no mode {mode!r}; choose {', '.join(MODES)}.")
    if deal not in DEALS:
        raise RuleError(f"In {TITLE} the host deals: the deal must be host.")
    if len(set(players)) != len(players) or not all(players):
        raise RuleError("Every player needs a different name.")
    low, high = (MIN_PLAYERS, MAX_PLAYERS) if mode == "challenge" else COMPETITIVE_PLAYERS
    check_player_count(TITLE, mode, players, low, high)
    if rules["first_slider"] and rules["first_slider"] not in players:
        raise RuleError(f"{rules['first_slider']} isn't playing, so can't start.")
    needed = 1 if mode == "challenge" else 4
    if len(rules["starters"]) < needed:
        raise RuleError(f"The {mode} game needs at least {needed} starter values.")


def _shuffled_questions(decks: Decks, rng: Random) -> list[Question]:
    """This game's questions shuffled, the ones this group hasn't played first."""
    questions = decks.questions_for(ID)
    rng.shuffle(questions)
    fresh = [q for q in questions if q.id not in decks.used_questions]
    played = [q for q in questions if q.id in decks.used_questions]
    return fresh + played


def _setup_competitive(state: State, starters: list[int], events: list[Event]) -> None:
    """Two lines of two starters each, and a hand for everyone."""
    count = len(state.players)
    size = state.rules["hand_size"] or HAND_SIZE_BY_PLAYERS[count]
    if len(state.deck) < size * count:
        raise RuleError(f"The deck has {len(state.deck)} questions; {count} players need {size * count}.")
    state.lines = [sorted(starters[0:2]), sorted(starters[2:4])]
    for player in state.players:
        state.hands[player] = [state.deck.pop(0) for _ in range(size)]
    events.append(say(_lines_text(state.lines)))
    for player in state.players:
        events.append(private(player, "Your cards: " + _hand_text(state.hands[player])))


def _setup_challenge(state: State, starters: list[int], events: list[Event]) -> None:
    """One line from one starter, and the team's challenge deck."""
    size = state.rules["challenge_deck"]
    if len(state.deck) < size:
        raise RuleError(f"The deck has {len(state.deck)} questions; the challenge needs {size}.")
    deck = [state.deck.pop(0) for _ in range(size)]
    state.lines = [[starters[0]]]
    state.challenge = Challenge(deck=deck, lives=state.rules["challenge_lives"])
    events.append(
        say(
            f"The Challenge: place {state.rules['challenge_target']} cards "
            f"before you lose {state.challenge.lives} lives. "
            f"{_lines_text(state.lines)}"
        )
    )


# ---------------------------------------------------------------- prompts


def prompt(state: State) -> Prompt | None:
    """What the host asks now, of whom; None once the game is over."""
    if state.phase == OVER:
        return None
    if state.phase == CHOOSE:
        return _choose_prompt(state)
    if state.phase == PLACE:
        return _place_prompt(state)
    if state.phase == PREDICT:
        return _predict_prompt(state)
    if state.phase == BET:
        return _bet_prompt(state)
    if state.phase == WRITE:
        return Prompt(
            name=f"{ID}/tiebreak_ready",
            player=None,
            text="Say ready when every number is written down.",
            choices=("ready", "read the question"),
            narrow=Narrow("Ready?", (Choice("ready", {"intent": "ready"}),)),
        )
    return _tiebreak_prompt(state)


def _choose_prompt(state: State) -> Prompt:
    hand = _current_hand(state)
    slider = state.turn.slider
    name = f"{ID}/choose_card"
    context = {"hand": [q.text for q in hand], **names_context(hand)}
    slots = grammar_slots(name, context)
    words = slots["card_word"]
    example = card_name(hand[0]) if hand and hand[0].name else spoken_name(words[0][0]) if words else "the first one"
    if state.mode == "challenge" and state.rules["read_hand"] == "titles":
        text = f"{slider}: {join_names([card_name(q, HAND_TITLE_WORDS) for q in hand], 'or')}?"
    elif state.mode == "challenge":
        text = f"{slider}, card 1 or 2?"
    elif state.turns_played == 0:  # the first turn says how; later ones ask
        by = "its name" if all(q.name for q in hand) else "a word from it"
        text = f"{slider}, pick a card by number or by {by}, or say read card 2 to hear one in full."
    else:
        text = f"{slider}, which card?"
    return Prompt(
        name=name,
        player=slider,
        text=text,
        context=context,
        slots=slots,
        choices=("card 1", example, "read card 2", "read my cards"),
        narrow=_cards_narrow(len(hand)),
    )


def _place_prompt(state: State) -> Prompt:
    slider = state.turn.slider
    line = state.lines[0]
    examples = [f"below {line[0]}", f"above {line[-1]}"]
    if len(line) > 1:
        examples.insert(0, f"between {line[0]} and {line[1]}")
    if len(state.lines) > 1:
        examples.append(f"above {state.lines[1][-1]} on line two")
    name = f"{ID}/place"
    context = {"lines": [list(values) for values in state.lines]}
    return Prompt(
        name=name,
        player=slider,
        text=(f"{slider}, where does it go? " if state.turns_played == 0 else f"{slider}, where? ")
        + _lines_text(state.lines),
        context=context,
        slots=grammar_slots(name, context),
        choices=tuple(examples[:4]),
        narrow=_spots_narrow(state.lines),
    )


def _predict_prompt(state: State) -> Prompt:
    player = _next_predictor(state)
    allowed = _allowed_guesses(required(state.turn.spot, "spot"))
    words = [GUESS_WORDS[g] for g in allowed]
    asked = f"{player}: {join_names(words, 'or')}?"
    if state.turn.predictions:  # the choices were just asked of the one before
        asked = f"{player}, and you?"
    return Prompt(  # the spot was just said: "Ana slides it ..."
        name=f"{ID}/predict",
        player=player,
        text=asked,
        choices=tuple(words),
        narrow=Narrow("Your guess?", tuple(Choice(GUESS_WORDS[g], {"intent": "predict", "guess": g}) for g in allowed)),
    )


def _bet_prompt(state: State) -> Prompt:
    player = required(_next_bettor(state), "bettor")
    most = state.points[player]
    step = state.rules["bet_step"]
    all_in = _all_in(most, step)
    name = f"{ID}/bet"
    context = {"max": most, "step": step}
    return Prompt(
        name=name,
        player=player,
        text=f"{player}, bet up to {most}, or no bet?",
        context=context,
        slots=grammar_slots(name, context),
        choices=("no bet", f"bet {min(all_in, step)}", "all in"),
        narrow=Narrow(
            "Your bet?",
            tuple(
                Choice(
                    f"{amount}" if amount else "no bet",
                    {"intent": "bet", "amount": amount},
                    f"Bet {amount}?" if amount else "No bet?",
                )
                for amount in range(0, all_in + 1, step)
            ),
        ),
    )


def _all_in(most: int, step: int) -> int:
    """The biggest bet allowed: the player's points rounded down to the step."""
    return most - most % step


def _sayable_bets(most: int, step: int) -> list[int]:
    """Amounts the grammar should understand: beyond the player's points and off the
    step too, so a bet of 15 or of more than they have gets a reason, not a shrug."""
    return [n for n in range(0, most + 101) if n <= 300 or n % step == 0]


def _tiebreak_prompt(state: State) -> Prompt:
    """By voice, each tied player in turn for the number they wrote; with phones, all
    of them at once (player None: any of `answering` types it on their own page)."""
    tiebreak = _tiebreak(state)
    waiting = [p for p in tiebreak.players if p not in tiebreak.guesses]
    narrow = narrow_numbers("Your number?", range(101), lambda n: {"intent": "number", "value": n})
    if state.rules["tiebreak_entry"] == "phone":
        noun = "your number on your phone" if len(waiting) == 1 else "your numbers on your phones"
        return Prompt(
            name=f"{ID}/tiebreak",
            player=None,
            text=f"{join_names(waiting)}, enter {noun}.",
            context={"answering": waiting},
            choices=("42", "seventy five"),
            narrow=narrow,
        )
    return Prompt(
        name=f"{ID}/tiebreak",
        player=waiting[0],
        text=f"{waiting[0]}, the number you wrote?",
        choices=("42", "seventy five"),
        narrow=narrow,
    )


def _cards_narrow(count: int) -> Narrow:
    """Which card of a hand, by its number."""
    return Narrow(
        "Which card?",
        tuple(Choice(str(n), {"intent": "choose_card", "card": n}, f"Card {n}?") for n in range(1, count + 1)),
    )


def _spots_narrow(lines: list[list[int]]) -> Narrow:
    """Every spot of the lines, the line first when there are two."""

    def spots(index: int) -> Narrow:
        values = lines[index]
        gaps = [Choice(_gap_words(spot), _gap_intent(spot, len(values))) for spot in _gaps(index, values)]
        if len(gaps) <= NARROW_LIST_MAX:
            return Narrow("Where?", tuple(gaps))
        # A long line: a stretch of it first ("below 73"), then the gap, each a short list.
        spans = _gaps(index, values)
        size = -(-len(gaps) // NARROW_LIST_MAX)
        stretches = []
        for start in range(0, len(gaps), size):
            inside = gaps[start : start + size]
            low, high = spans[start].low, spans[start + len(inside) - 1].high
            stretch = _gap_words(Spot(index, start, low, high))
            stretches.append(
                inside[0] if len(inside) == 1 else Choice(stretch, {}, then=Narrow("Where?", tuple(inside)))
            )
        return Narrow("Where?", tuple(stretches))

    if len(lines) == 1:
        return spots(0)
    return Narrow(
        "Which line?",
        tuple(Choice(LINE_NAMES[i], {}, f"Line {LINE_NAMES[i]}?", then=spots(i)) for i in range(len(lines))),
    )


def _gap_words(spot: Spot) -> str:
    """ "between 20 and 50", "below 20", "above 95": a gap by its neighbours."""
    if spot.low is None and spot.high is None:
        return "into the empty line"
    if spot.low is None:
        return f"below {spot.high}"
    if spot.high is None:
        return f"above {spot.low}"
    return f"between {spot.low} and {spot.high}"


def _gap_intent(spot: Spot, length: int) -> Intent:
    """The place intent naming exactly this gap (find_spot finds it again)."""
    intent: Intent = {"intent": "place", "line": spot.line + 1}
    if spot.low is not None:
        intent["after"] = spot.low
    if spot.high is not None:
        intent["before"] = spot.high
    if spot.index == 0 or spot.index == length:
        intent["end"] = "low" if spot.index == 0 else "high"
    return intent


def grammar_slots(prompt: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    """The live slot lists of a prompt's grammar, built from its context alone.

    The accuracy benchmark knows a recorded prompt only by its name and manifest
    context, so the grammar must not depend on anything else in the game state.
    Contexts: choose_card {"hand": [question text, ...], "names": [card name, ...]}
    (names optional), place {"lines": [[int,
    ...], ...]}, bet {"max": int, "step": int} (step defaults to the rule's
    default). Other prompts have no live lists. Lists or tuples are both fine.
    """
    if prompt == f"{ID}/choose_card":
        hand = [str(text) for text in context.get("hand") or []]
        return {
            "card_number": [(str(i), i) for i in range(1, len(hand) + 1)],
            "card_ordinal": _ordinals(len(hand)),
            "card_word": with_names(telling_words(hand), [str(n) for n in context.get("names") or []]),
        }
    if prompt == f"{ID}/place":
        numbers = sorted({int(value) for values in context.get("lines") or [] for value in values})
        return {"table_number": [(str(n), n) for n in numbers]}
    if prompt == f"{ID}/bet":
        most = int(context.get("max") or 0)
        step = int(context.get("step") or RULE_DEFAULTS["bet_step"])
        all_in = _all_in(most, step)
        return {
            "bet_amount": [(str(n), n) for n in _sayable_bets(most, step)],
            "bet_all": [("all in", all_in), ("everything", all_in)],
        }
    return {}


# ---------------------------------------------------------------- actions


class ChooseCard(Said):
    intent: Literal["choose_card"]
    card: int  # 1-based, in the Slider's hand


class ReadCards(Said):
    intent: Literal["read_cards"]


class ReadCard(Said):
    intent: Literal["read_card"]
    card: int


class _Place(Said):
    intent: Literal["place"]


class Place(_Place, total=False):
    """`place`: the gap its neighbours name ("between 42 and 60": after 42, before 60), or
    an end ("low", "high"); the line (1-based) left out where the numbers name one place."""

    line: int
    after: int
    before: int
    end: str


class ReadQuestion(Said):
    intent: Literal["read_question"]


class CardAgain(Said):
    intent: Literal["card_again"]  # a card named once it is chosen: refused with what to do now
    card: int


class Predict(Said):
    intent: Literal["predict"]
    guess: str  # one of GUESSES


class Bet(Said):
    intent: Literal["bet"]
    amount: int  # 0: no bet


class Ready(Said):
    intent: Literal["ready"]  # the tied players have written their numbers down


Move = ChooseCard | ReadCards | ReadCard | Place | ReadQuestion | CardAgain | Predict | Bet | Ready | Number
"""Every intent Keep It 100's prompts hear (docs/specs/intents.md), by kind."""


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check the action against the rules and return the next state and its events."""
    if state.phase == OVER:
        raise RuleError("The game is over.")
    move = cast(Move, named(action))  # by its name; each field is checked where it is used
    asked = required(prompt(state), "prompt").player
    speaker = move.get("player")
    if speaker is not None and asked is not None and speaker != asked:
        raise RuleError(f"It's {asked}'s turn to answer.")
    intent = move.get("intent")
    if intent == "read_cards" and state.phase == CHOOSE:
        return state, _read_hand(state)
    if move["intent"] == "read_card" and state.phase == CHOOSE:
        return state, [say(_read_one_card(state, move))]
    if intent == "read_question" and state.phase != CHOOSE:
        if state.phase in (WRITE, TIEBREAK):
            card = _tiebreak(state).question
        else:
            card = required(state.turn.card, "card being played")
        return state, [say(_question_text(card))]
    if intent == "card_again" and state.phase == PLACE:
        example = _place_prompt(state).choices[0]
        raise RuleError(f"{asked}, your card is chosen. Now say where it goes, for example: {example}.")
    if intent != EXPECTED_INTENT[state.phase]:
        raise RuleError(f"Now {asked or 'the table'} should {WHAT_NOW[state.phase]}.")
    s = evolve(state)
    events: list[Event] = []
    _take(s, move, events)
    return s, events


def _take(s: State, move: Move, events: list[Event]) -> None:
    """The move the phase expects (apply checked its name: EXPECTED_INTENT), by its kind."""
    if move["intent"] == "choose_card":
        _choose_card(s, move, events)
    elif move["intent"] == "place":
        _place(s, move, events)
    elif move["intent"] == "predict":
        _predict(s, move, events)
    elif move["intent"] == "bet":
        _bet(s, move, events)
    elif move["intent"] == "ready":
        _numbers_written(s, events)
    elif move["intent"] == "number":
        _tiebreak_guess(s, move, events)


def resumed(state: State) -> list[Event]:
    """After a resume the question in play is read again (the card being placed or predicted,
    and where it was slid; the tiebreak's question), as the table would ask after a break:
    nobody remembers it, and the next question is about it."""
    if state.phase in (WRITE, TIEBREAK):
        return [say(_question_text(_tiebreak(state).question))]
    if state.phase in (CHOOSE, OVER) or state.turn.card is None:
        return []
    events: list[Event] = [say(_question_text(state.turn.card))]
    if state.turn.spot is not None:
        events.append(say(f"{state.turn.slider} slid it {_spot_text(state, state.turn.spot)}."))
    return events


def _choose_card(s: State, action: ChooseCard, events: list[Event]) -> None:
    hand = _current_hand(s)
    number = whole_number(action.get("card"))
    if number is None or not 1 <= number <= len(hand):
        raise RuleError(f"Pick a card from 1 to {len(hand)}.")
    _take_card(s, number - 1, events)


def _place(s: State, action: Place, events: list[Event]) -> None:
    spot = find_spot(s.lines, action)
    s.turn.spot = spot
    if s.mode == "challenge":  # the reveal follows at once: it says where it went
        _reveal(s, events)
    else:
        events.append(say(f"{s.turn.slider} slides it {_spot_text(s, spot)}."))
        s.phase = PREDICT


def _predict(s: State, action: Predict, events: list[Event]) -> None:
    player = required(_next_predictor(s), "predictor")
    guess = action.get("guess")
    allowed = _allowed_guesses(required(s.turn.spot, "spot"))
    if guess not in GUESSES:
        raise RuleError("Say lower, right, or higher.")
    if guess not in allowed:
        end = "start" if guess == "lower" else "end"
        raise RuleError(
            f"That spot is the {end} of the line, so it can't be {guess}. "
            f"Say {join_names([GUESS_WORDS[g] for g in allowed], 'or')}."
        )
    s.turn.predictions[player] = guess
    events.append(say(f"{player} says {GUESS_WORDS[guess]}."))
    if _next_predictor(s) is None:
        _after_predictions(s, events)


def _bet(s: State, action: Bet, events: list[Event]) -> None:
    player = required(_next_bettor(s), "bettor")
    amount = whole_number(action.get("amount"))
    most = s.points[player]
    step = s.rules["bet_step"]
    if amount is None or amount < 0:
        raise RuleError("Say an amount of points, or no bet.")
    if amount > most:
        raise RuleError(f"{player}, you only have {most} points to bet.")
    if amount % step:
        raise RuleError(f"Bets go in steps of {step}.")
    s.turn.bets[player] = amount
    events.append(say(f"{player} bets {amount}." if amount else f"{player}: no bet."))
    if _next_bettor(s) is None:
        _reveal(s, events)


def _numbers_written(s: State, events: list[Event]) -> None:
    """By voice: every tied player has written a number down; the host collects them."""
    s.phase = TIEBREAK
    events.append(say("Let's hear them."))


def _tiebreak_guess(s: State, action: Number, events: list[Event]) -> None:
    """A tied player's number: typed on their phone (hidden until all are in, in any
    order: the move names its page's seat), or read out from what they wrote down (said
    aloud, so known from now on). A number with no seat goes to the first still waiting."""
    tiebreak = _tiebreak(s)
    waiting = [p for p in tiebreak.players if p not in tiebreak.guesses]
    player = action.get("player") or waiting[0]
    if player not in waiting:
        raise RuleError(
            f"{player}, your number is in already."
            if player in tiebreak.guesses
            else f"{player} is not in the tiebreak."
        )
    value = whole_number(action.get("value"))
    if value is None or not 0 <= value <= 100:
        raise RuleError("Say a number from 0 to 100.")
    tiebreak.guesses[player] = value
    if s.rules["tiebreak_entry"] == "say":
        events += [
            {"type": "reveal", "player": player, "card": "tiebreak number", "value": value},
            say(f"{player}: {value}."),
        ]
    elif len(tiebreak.guesses) < len(tiebreak.players):
        events.append(say(f"Got it, {player}."))
    if len(tiebreak.guesses) == len(tiebreak.players):
        _settle_tiebreak(s, events)


# ---------------------------------------------------------------- turns


def _start_turn(s: State, events: list[Event]) -> None:
    """Announce the Slider; read or offer the cards; pick the only card if just one."""
    s.phase = CHOOSE
    s.turn = Turn(slider=s.players[s.slider_seat])
    slider = s.turn.slider
    if s.mode == "challenge":
        if not _offer_challenge_cards(s, events):
            return
        hand = _challenge(s).offer
    else:
        hand = s.hands[slider]
    if len(hand) > 1 and not (s.mode == "challenge" and s.rules["read_hand"] == "titles"):
        named = _turn_hand_text(s, hand)  # (the Challenge's two: in its prompt)
        opening = slider if s.mode == "challenge" else f"{slider}, you're the Slider"
        events.append(say(f"{opening}:{named}" if named else f"{opening}."))
    if len(hand) == 1:
        events.append(say(f"{slider}, your last card:"))
        _take_card(s, 0, events)


def _offer_challenge_cards(s: State, events: list[Event]) -> bool:
    """Put the passed-on card and fresh draws on offer; False if the team ran out."""
    challenge = _challenge(s)
    offer = [challenge.leftover] if challenge.leftover else []
    needed = 2 - len(offer)
    if len(challenge.deck) < needed:
        if not (offer and s.rules["challenge_play_leftover"]):
            events.append(say("The challenge deck can't supply another card."))
            _finish_challenge(s, won=False, events=events)
            return False
        needed = 0
        events.append(say("The deck is empty: only the passed-on card is left."))
    offer += [challenge.deck.pop(0) for _ in range(needed)]
    challenge.offer = offer
    challenge.leftover = None
    return True


def _take_card(s: State, index: int, events: list[Event]) -> None:
    """Move the chosen card out of the hand (passing the other on) and read it."""
    if s.mode == "challenge":
        challenge = _challenge(s)
        offer = challenge.offer
        card = offer.pop(index)
        challenge.leftover = offer[0] if offer else None
        challenge.offer = []
    else:
        card = s.hands[s.turn.slider].pop(index)
    s.turn.card = card
    s.phase = PLACE
    events.append(say(_question_text(card)))


def _after_predictions(s: State, events: list[Event]) -> None:
    """Go to the bets in Over 100 (if anyone can bet), else straight to the reveal."""
    if s.mode == "over100":
        order = _seat_order_from(s, s.turn.slider)
        s.turn.bettors = [p for p in order if s.points[p] > 0]
        if s.turn.bettors:
            s.phase = BET
            return
    _reveal(s, events)


def _reveal(s: State, events: list[Event]) -> None:
    """Turn the card over, score, keep or discard it, and move on."""
    card, spot = required(s.turn.card, "card being played"), required(s.turn.spot, "spot")
    truth = true_direction(spot, card.answer)
    events += [
        sound(REVEAL_CUE),
        {"type": "reveal", "player": s.turn.slider, "card": card.text, "value": card.answer},
        questions_used([card]),
    ]
    where = f" {_spot_text(s, spot)}" if s.mode == "challenge" else ""
    if truth == "correct":
        s.lines[spot.line].insert(spot.index, card.answer)
        events += [say(f"{card.answer}!"), sound("correct"), say(f"Right spot{where}!")]
    else:
        s.discards.append(card)
        events += [say(f"{card.answer}!"), sound("wrong"), say(f"Wrong spot: it belonged {truth}.")]
    if s.mode == "challenge":
        _score_challenge_turn(s, truth == "correct", events)
    else:
        _score_turn(s, truth, events)
        _end_turn(s, events)


def _score_turn(s: State, truth: str, events: list[Event]) -> None:
    """Pay the Slider, the right predictors, and the bets; one sentence for all."""
    parts = []
    for player in _seat_order_from(s, s.turn.slider):
        is_slider = player == s.turn.slider
        right = truth == "correct" if is_slider else s.turn.predictions.get(player) == truth
        base = s.rules["slider_points" if is_slider else "predictor_points"]
        bet = s.turn.bets.get(player, 0)
        delta = base + bet if right else -bet
        if delta == 0:
            continue
        s.points[player] += delta
        reason = _score_reason(is_slider, right, bet)
        events.append(score(player, delta, s.points[player], reason))
        parts.append(f"{player} {'gets' if delta > 0 else 'loses'} {abs(delta)}.")
    events.append(say(" ".join(parts) if parts else "No points this time."))


def _score_reason(is_slider: bool, right: bool, bet: int) -> str:
    if not right:
        return "bet lost"
    reason = "right spot" if is_slider else "right prediction"
    return f"{reason} and bet won" if bet else reason


def _end_turn(s: State, events: list[Event]) -> None:
    """Pass the Slider role on; read scores each rotation; end when hands are empty."""
    s.turns_played += 1
    if not any(s.hands.values()):
        _finish(s, events)
        return
    if s.turns_played % len(s.players) == 0:
        events.append(say(f"Scores: {scores(s)}"))
    _advance_slider(s)
    _start_turn(s, events)


def _advance_slider(s: State) -> None:
    """The next seat that still holds cards becomes the Slider."""
    for step in range(1, len(s.players) + 1):
        seat = (s.slider_seat + step) % len(s.players)
        if s.mode == "challenge" or s.hands[s.players[seat]]:
            s.slider_seat = seat
            return


# ---------------------------------------------------------------- the challenge


def _score_challenge_turn(s: State, right: bool, events: list[Event]) -> None:
    """Count a placed card or lose a life; then win, lose, or hand over."""
    challenge = _challenge(s)
    if right:
        challenge.placed += 1
    else:
        challenge.lives -= 1
    s.turns_played += 1
    target = s.rules["challenge_target"]
    if challenge.placed >= target:
        _finish_challenge(s, won=True, events=events)
    elif challenge.lives <= 0:
        _finish_challenge(s, won=False, events=events)
    else:
        lives = challenge.lives
        events.append(
            say(f"{challenge.placed} placed." if right else f"{lives} {'life' if lives == 1 else 'lives'} left.")
        )
        _advance_slider(s)
        _start_turn(s, events)


def _finish_challenge(s: State, won: bool, events: list[Event]) -> None:
    challenge = _challenge(s)
    lives = challenge.lives
    team_score = lives * s.rules["life_points"] if won else 0
    s.points = {p: team_score for p in s.players}
    s.winners = list(s.players) if won else []
    s.phase = OVER
    if won:
        text = (
            f"You did it: {challenge.placed} cards placed with {lives} "
            f"{'life' if lives == 1 else 'lives'} left. You kept it {team_score}!"
        )
    else:
        text = f"The challenge is lost, with {challenge.placed} cards placed."
    events += [sound("game_over"), say(text), game_over(dict(s.points), s.winners)]


# ---------------------------------------------------------------- the end


def _finish(s: State, events: list[Event]) -> None:
    """Read the final scores; a single leader wins, tied leaders go to a tiebreak."""
    events.append(say(f"All cards are played. Final scores: {scores(s)}"))
    best = max(s.points.values())
    leaders = [p for p in s.players if s.points[p] == best]
    if len(leaders) == 1:
        _declare(s, leaders, f"{leaders[0]} wins with {best} points!", events)
    else:
        events.append(say(f"It's a tie between {join_names(leaders)} at {best}!"))
        _start_tiebreak(s, leaders, 1, events)


def _start_tiebreak(s: State, tied: list[str], round_number: int, events: list[Event]) -> None:
    """Draw a fresh question for the tied players, or let them share the win."""
    if not s.deck:
        _declare(s, tied, f"No fresh question is left, so {join_names(tied)} share the win!", events)
        return
    shift = (round_number - 1) % len(tied)
    order = tied[shift:] + tied[:shift]
    question = s.deck.pop(0)
    s.tiebreak = Tiebreak(players=order, question=question, round=round_number)
    if s.rules["tiebreak_entry"] == "phone":
        s.phase = TIEBREAK
        how = "each enter a number from 0 to 100 on your phone, where no one else sees it."
    else:
        s.phase = WRITE
        how = "each write down a number from 0 to 100 and keep it hidden. When all are written, I will ask for them."
    events.append(say(f"Tiebreak! Closest number wins. {_question_text(question)} {join_names(order)}, {how}"))


def _settle_tiebreak(s: State, events: list[Event]) -> None:
    tiebreak = _tiebreak(s)
    answer = tiebreak.question.answer
    events += [
        sound(REVEAL_CUE),
        {"type": "reveal", "card": tiebreak.question.text, "value": answer},
        questions_used([tiebreak.question]),
        say(f"The answer is {answer}."),
    ]
    distance = {p: abs(g - answer) for p, g in tiebreak.guesses.items()}
    off = ", ".join(f"{p} {distance[p]} off" for p in tiebreak.players)
    if s.rules["tiebreak_entry"] == "phone":  # by voice they were heard as they came in
        said = join_names([f"{p} {tiebreak.guesses[p]}" for p in tiebreak.players])
        events.append({"type": "reveal", "card": "tiebreak numbers", "value": dict(tiebreak.guesses)})
        off = f"You said: {said}. {off}"
    events.append(say(f"{off}."))
    closest = min(distance.values())
    best = [p for p in s.players if p in distance and distance[p] == closest]
    if len(best) == 1:
        _declare(s, best, f"{best[0]} wins the tiebreak and the game!", events)
    else:
        events.append(say(f"Still tied: {join_names(best)}. Another question!"))
        _start_tiebreak(s, best, tiebreak.round + 1, events)


def _declare(s: State, winners: list[str], text: str, events: list[Event]) -> None:
    s.winners = list(winners)
    s.phase = OVER
    events += [sound("game_over"), say(text), game_over(dict(s.points), s.winners)]


def table_text(state: State) -> str:
    """What lies face up ("read the table"): the lines, the card being played with its
    question, spot, predictions and bets so far, or the tiebreak's question; the scores."""
    s = state
    parts = [_lines_text(s.lines)]
    if s.phase in (PLACE, PREDICT, BET) and s.turn.card is not None:
        parts.append(f"{s.turn.slider}'s card: {_question_text(s.turn.card)}")
        if s.turn.spot is not None:
            parts.append(f"{s.turn.slider} slid it {_spot_text(s, s.turn.spot)}.")
        parts += [f"{p} says {GUESS_WORDS[g]}." for p, g in s.turn.predictions.items()]
        parts += [f"{p} bets {amount}." for p, amount in s.turn.bets.items() if amount]
    if s.phase in (WRITE, TIEBREAK):
        tiebreak = _tiebreak(s)
        parts.append(f"Tiebreak for {join_names(tiebreak.players)}: {_question_text(tiebreak.question)}")
    return " ".join(parts + [f"Scores: {scores(s)}"])


def rules_after(last_scores: dict[str, int], players: tuple[str, ...], given: JsonObject) -> JsonObject:
    """The rulebook's first Slider for a later game of the day: the last game's lowest
    scorer still at the table, the first of them in seat order on a tie (Game.rules_after)."""
    if given.get("first_slider") or str(given.get("again_first", RULE_DEFAULTS["again_first"])).lower() != "lowest":
        return {}
    scored = [player for player in players if player in last_scores]
    if not scored:
        return {}
    return {"first_slider": min(scored, key=lambda player: last_scores[player])}


def scores(state: State) -> str:
    """Points from most to fewest; in the challenge, cards placed and lives left."""
    if state.mode == "challenge":
        challenge = _challenge(state)
        return (
            f"{challenge.placed} of {state.rules['challenge_target']} cards placed, "
            f"{challenge.lives} {'life' if challenge.lives == 1 else 'lives'} left."
        )
    ranked = sorted(state.players, key=lambda p: -state.points[p])
    return join_names([f"{p} {state.points[p]}" for p in ranked]) + "."


# ---------------------------------------------------------------- spots


def find_spot(lines: list[list[int]], action: Place) -> Spot:
    """The one gap the place intent names, or a RuleError saying why there isn't one.

    after/before name the neighbours left and right of the gap; "end" ("low" or
    "high", an extension of intents.md) names either end; line (1-based) may be
    missing when only one line has such a gap.
    """
    after, before = whole_number(action.get("after")), whole_number(action.get("before"))
    line, end = whole_number(action.get("line")), action.get("end")
    if after is None and before is None and end is None:
        raise RuleError("Say where it goes, for example between two numbers, or below one.")
    if after is not None and before is not None and after > before:
        after, before = before, after
    if line is not None and line not in range(1, len(lines) + 1):
        raise RuleError(f"There {'is only one line' if len(lines) == 1 else 'are two lines'}.")
    searched = [line - 1] if line is not None else list(range(len(lines)))
    spots = [
        spot
        for index in searched
        for spot in _gaps(index, lines[index])
        if _spot_matches(spot, len(lines[index]), after, before, end)
    ]
    if len(spots) == 1:
        return spots[0]
    if len(spots) > 1:
        if len({spot.line for spot in spots}) > 1:
            raise RuleError("Both lines have that spot: say line one or line two.")
        raise RuleError("That number is there twice: say between which two numbers.")
    raise RuleError(_no_spot_reason(lines, searched, after, before))


def _gaps(line_index: int, values: list[int]) -> list[Spot]:
    """Every gap of a line, left end to right end, equal-meaning gaps once."""
    gaps, seen = [], set()
    for index in range(len(values) + 1):
        low = values[index - 1] if index > 0 else None
        high = values[index] if index < len(values) else None
        if (low, high) not in seen:
            seen.add((low, high))
            gaps.append(Spot(line_index, index, low, high))
    return gaps


def _spot_matches(spot: Spot, length: int, after: int | None, before: int | None, end: str | None) -> bool:
    if end == "low" and spot.index != 0:
        return False
    if end == "high" and spot.index != length:
        return False
    if after is not None and spot.low != after:
        return False
    return before is None or spot.high == before


def _no_spot_reason(lines: list[list[int]], searched: list[int], after: int | None, before: int | None) -> str:
    on_table = {value for index in searched for value in lines[index]}
    where = f"line {LINE_NAMES[searched[0]]}" if len(searched) == 1 else "the table"
    for number in (after, before):
        if number is not None and number not in on_table:
            return f"There's no {number} on {where}."
    if after is not None and before is not None:
        return f"{after} and {before} aren't next to each other."
    return "There's no such spot."


def whole_number(value: Any) -> int | None:
    """An intent's number as an int (a matcher may give 42.0); None if it isn't one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else None


def true_direction(spot: Spot, answer: int) -> str:
    """Where the answer really belongs relative to the spot; equal neighbours are right."""
    if spot.low is not None and answer < spot.low:
        return "lower"
    if spot.high is not None and answer > spot.high:
        return "higher"
    return "correct"


def _allowed_guesses(spot: Spot) -> list[str]:
    """At an end of a line the card can't be further out than the spot."""
    return [g for g in GUESSES if not (g == "lower" and spot.low is None) and not (g == "higher" and spot.high is None)]


# ---------------------------------------------------------------- words


STOPWORDS = frozenset(
    """
a about after all also am an and any are as at be been before being but by can card
could did do does doing done don't during each ever every for from get got had has
have having how i if in into is it its just least like many more most much never no
not of on one ones only or other out over own people per percent question rather said
say says should so some than that the their them then there these they this those
time times to too up very was were what when where whether which while who whom why
will with would yes you your
again cards choose eighth fifth first fourth hand last number pick play read second
seventh sixth take third
""".split()
)


def card_words(hand: list[Question], per_card: int = 6) -> list[tuple[str, int]]:
    """Words that tell the hand's cards apart ("pizza" -> card 2), for "the pizza one"."""
    return telling_words([q.text for q in hand], per_card)


def telling_words(texts: list[str], per_card: int = 6) -> list[tuple[str, int]]:
    """card_words from the question texts alone, as a prompt's context carries them.

    At most `per_card` words a card (the longest) to keep the grammar small.
    """
    words_of = [_content_words(text) for text in texts]
    cards_with = Counter(word for words in words_of for word in set(words))
    found = []
    for number, words in enumerate(words_of, 1):
        distinct = [word for word in words if cards_with[word] == 1]
        distinct = sorted(distinct, key=len, reverse=True)[:per_card]
        found += [(word, number) for word in words if word in distinct]
    for number, text in enumerate(texts, 1):  # two telling words side by side: "olive oil"
        said = [w.removesuffix("'s") for w in re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower())]
        found += [(f"{a} {b}", number) for a, b in zip(said, said[1:]) if (a, number) in found and (b, number) in found]
    return found


def _content_words(text: str) -> list[str]:
    words = []
    for word in re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower()):
        word = word.removesuffix("'s")
        if len(word) >= 3 and word not in STOPWORDS and word not in words:
            words.append(word)
    return words


def _ordinals(count: int) -> list[tuple[str, int]]:
    ordinals = [(ORDINALS[i], i + 1) for i in range(min(count, len(ORDINALS)))]
    return ordinals + [("last", count)]


# ---------------------------------------------------------------- spoken text


def questions_used(cards: list[Question]) -> Event:
    """Tells the session these answers are known now, so later games prefer others."""
    return {"type": "questions_used", "ids": [card.id for card in cards]}


def _question_text(card: Question) -> str:
    """The question as spoken; a survey's year is added when the text does not say it (the
    rulebook: "the year the survey was conducted"). Other facts carry no year aloud: a
    card's year is when its figure was true, which for a law or a measure is no help."""
    survey = card.category == "survey" and card.year and str(card.year) not in card.text
    return f"{card.text} From {card.year}." if survey else card.text


def _hand_text(hand: list[Question]) -> str:
    return " ".join(f"Card {i}: {q.text}" for i, q in enumerate(hand, 1))


def _turn_hand_text(s: State, hand: list[Question]) -> str:
    """What the host says of the Slider's cards as the turn starts (rule read_hand)."""
    how = s.rules["read_hand"]
    slider = s.turn.slider
    if how == "off":
        return ""
    heard = slider in s.heard_hand
    if not heard:
        s.heard_hand.append(slider)
    if how == "full" or how == "first" and not heard:
        return " " + _hand_text(hand)
    # Titles the first time; later, each card by its one telling word, as a reminder
    # ("read my cards" reads them in full).
    return " " + names_text(hand, HAND_TITLE_WORDS if not heard else 1)


def _read_one_card(state: State, action: ReadCard) -> str:
    """ "read card 3": one card of the hand in full, nothing changed."""
    hand = _current_hand(state)
    number = whole_number(action.get("card"))
    if number is None or not 1 <= number <= len(hand):
        raise RuleError(f"Your cards are numbered 1 to {len(hand)}.")
    return f"Card {number}: {hand[number - 1].text}"


def _read_hand(state: State) -> list[Event]:
    hand = _current_hand(state)
    return [say(f"{state.turn.slider}, your cards. {_hand_text(hand)}")]


def _lines_text(lines: list[list[int]]) -> str:
    if len(lines) == 1:
        return "The line: " + ", ".join(map(str, lines[0])) + "."
    return " ".join(f"Line {LINE_NAMES[i]}: {', '.join(map(str, values))}." for i, values in enumerate(lines))


def _line_name(s: State, index: int) -> str:
    return "the line" if len(s.lines) == 1 else f"line {LINE_NAMES[index]}"


def _spot_text(s: State, spot: Spot) -> str:
    where = _gap_words(spot)
    return where if len(s.lines) == 1 else f"{where} on {_line_name(s, spot.line)}"


# ---------------------------------------------------------------- who is next


def _challenge(state: State) -> Challenge:
    """The challenge mode's shared deck and lives: set by its setup."""
    return required(state.challenge, "challenge")


def _tiebreak(state: State) -> Tiebreak:
    """The tiebreak under way: set from its start (phases WRITE and TIEBREAK) to the game's end."""
    return required(state.tiebreak, "tiebreak")


def _current_hand(state: State) -> list[Question]:
    if state.mode == "challenge":
        return _challenge(state).offer
    return state.hands[state.turn.slider]


def _seat_order_from(state: State, first: str) -> list[str]:
    seat = state.players.index(first)
    return [state.players[(seat + k) % len(state.players)] for k in range(len(state.players))]


def _next_predictor(state: State) -> str | None:
    others = _seat_order_from(state, state.turn.slider)[1:]
    return next((p for p in others if p not in state.turn.predictions), None)


def _next_bettor(state: State) -> str | None:
    return next((p for p in state.turn.bettors if p not in state.turn.bets), None)


# ---------------------------------------------------------------- phone pages


def hand_view(state: State, player: str) -> HandView | None:
    """`player`'s page: their cards by title with the full question, a button to play
    one on their turn, and at a tiebreak their own number field, seen by no one else."""
    s = state
    if player not in s.players:
        return None
    tiebreak = s.tiebreak if s.phase == TIEBREAK else None
    if tiebreak is not None and player in tiebreak.players:
        facts = (f"Tiebreak: {_question_text(tiebreak.question)}",)
        if player in tiebreak.guesses:
            return HandView(
                heading="Tiebreak",
                cards=(),
                spoken="Your number is in.",
                facts=facts + (f"Your number: {tiebreak.guesses[player]}.",),
            )
        asked = required(prompt(s), "tiebreak prompt").player in (player, None)  # by phone: all at once
        return HandView(
            heading="Tiebreak",
            cards=(),
            spoken=facts[0],
            facts=facts,
            number=NumberEntry("Your tiebreak number", {"intent": "number"}, "value") if asked else None,
        )
    hand = s.hands.get(player, []) if s.mode != "challenge" else []
    choosing = s.phase == CHOOSE and s.turn.slider == player
    cards = tuple(
        CardView(
            label=f"Card {i}: {card_name(q)}",
            detail=q.text,
            play={"intent": "choose_card", "card": i} if choosing else None,
            play_label=f"Play card {i}: {q.text}",
        )
        for i, q in enumerate(hand, 1)
    )
    spoken = "Your cards. " + _hand_text(hand) if hand else "You hold no cards."
    return HandView(heading="Your question cards", cards=cards, spoken=spoken, facts=(_lines_text(s.lines),))


GAME = Game(
    id=ID,
    title=TITLE,
    modes=MODES,
    deals=DEALS,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rule_defaults=RULE_DEFAULTS,
    rules_summary=RULES_SUMMARY,
    setup=setup,
    prompt=prompt,
    apply=apply,
    scores=scores,
    grammar_slots=grammar_slots,
    order=ORDER,
    deck=DECK,
    info_intents=INFO_INTENTS,
    hand_view=hand_view,
    table_text=table_text,
    check_rules=check_rules,
    rules_before=RULES_BEFORE,
    rules_after=rules_after,
    resumed=resumed,
)
