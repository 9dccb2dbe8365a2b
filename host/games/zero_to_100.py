"""Zero to 100: teams race to get rid of their question cards.

How a game goes, in short. Every team has a row of question cards whose answers
(whole numbers from 0 to 100) only the host knows, and three power cards. Each
round there is a target number. Every team, one after another, picks the question
it believes is closest to the target, and may add power cards: the 50 card and the
20 card shift the answer up or down (the team says which sign), and Spot On bets
that the result lands within 5 of the target. When all teams have picked, the host
reveals each card and applies the powers (each distance too, with rule
`say_distances`). The team furthest
from the target gives its card to the middle, where that card's answer becomes the
next target, and draws a new question. Every played card and power card is gone
for good. A right Spot On lets its team throw away one more question. A team with a
single card left wins; a team with no card left wins a Supreme Victory.

Teams and names
---------------
`options.teams` (tuples of player names) sets the teams: 2 or 3 of them, every
player in exactly one. Without it, players are seated round-robin into
`rules["teams"]` teams (3 by default, or 2), and 2 players always make 2 teams of
one. A team is called after its first player ("Team Ana"), or "Team 1", "Team 2" ...
with `team_names: number`. The prompted player is the team's name; any member's
name is accepted as well.

Rules choices
-------------
(the rulebook leaves these open; keys in RULE_DEFAULTS where players may differ)
- Deck order: question cards come in deck order, not shuffled, as the rulebook
  advises; cards this group never played come first, cards already played in
  earlier games go to the bottom. `shuffle: true` shuffles each of the two parts.
- Turns: teams pick one after another (the physical game is simultaneous), so a
  pick is held until the reveal as if all had chosen at once (`hide_picks`, the
  rulebook): the table hears "Team Ana has chosen." and nothing of the question,
  the powers or their sides, and the team is told its pick in a private event (the
  game has no phone pages yet: the terminal shows it, unless `--hide-private`). By
  voice the other teams still hear what a team says, and a "Did you mean ...?"
  about it; the host adds nothing. Until the last team has chosen, a team may
  change its pick: "change team Ana's pick" (at another team's turn) asks Team Ana
  for its new pick, and "keep our pick" leaves it as it was. A pick said again as
  it is, a change once the picks are revealed (or of a team that has not chosen
  this round), and a power card already spent are refused with a one-line reason
  and change nothing; the reason names nothing of a held pick (the pick goes in the
  private aside), and a power card spent is known to all from an earlier reveal.
  `hide_picks: false` repeats each pick aloud (the behaviour before 2026-12): a
  table without a private screen hears what the host understood. The first
  team to pick moves on by one each round (`rotate_first`); reveals follow the same
  order. At its first turn a team hears its questions by their names in the deck
  ("the June one"), which it says back to pick one (a deck without names: short
  titles, two of each question's own words; `read_hand: titles`), and after that only a question
  it drew (named as the furthest team draws it); "read card 2" reads one question
  in full, "read our cards" all of them, at any time. `first` reads a team's
  questions in full at its first turn; `full` reads them in full every turn (the
  behaviour before 2026-12); `off` names nothing. A pick is repeated back by its
  number and powers (privately, with `hide_picks`); the reveal (a drumroll) reads
  each team's question aloud, as the rulebook has the teams do, then its answer and
  each power card with its side, step by step, and a Spot On's outcome (`reveal_question:
  false` gives the answers alone, the behaviour before 2026-12); the furthest team
  is named, and the next round says its target. The distances are left out by
  default, for the host's pace (what they cost: the pace section below); a table that
  wants them sets `say_distances: true` ("Team Ana 60, plus 20 makes 80, 5 away."). The power cards
  are named by "read our cards"; the first round's prompt reminds teams of them.
- By ear, what lies face up on a real table: "read team Ben's cards" reads another
  team's questions in full and its power cards left; "read the table" reads every
  team's, who has chosen this round (with `hide_picks: false`, the picks: the
  questions and powers, not their answers) and the last reveal in full. A held pick
  is not shown by its absence either: a team's questions and power cards are read
  as they were before it chose, until the reveal. The welcome says each team in a
  sentence of its own ("Teams: Ana and Dan. Ben."), so no name is heard in the
  wrong team.
- Power arithmetic: results may leave 0-100 (90 plus 50 is 140); nothing is clipped.
- Spot On is judged on the result after the 50 and 20 cards, and is right when the
  distance is at most `spot_on_margin` (5). A missed Spot On is simply lost.
- The new target is the printed answer of the furthest card (power cards are
  discarded with it, so they do not change the target).
- Tie for the furthest: every team draws, as the rulebook says (`tie_draw: all`);
  `tie_draw: tied` makes only the tied teams draw (the default before 2026-12).
  The new target is the tied card revealed first (`tie_target: first`) or one
  chosen at random (`tie_target: random`).
- Spot On discards come after the draws, in reveal order; the team says which card
  goes (`spot_on_discard: ask`), unless only one card is left (then it goes, which
  is a Supreme Victory), or `spot_on_discard: random` lets the host pick.
- Winning is checked once the round is over (draws and discards done). Any team at
  zero cards wins outright with a Supreme Victory, several of them share it. Else
  one team at one card wins; several teams at one card each guess the answer of
  their last card (in reveal order) and the closest wins; still tied, they share.
- Empty deck: a team that must draw from an empty deck draws nothing (the host
  says so). Previously played questions sit at the bottom of the deck, so this
  only happens once every question has been played in this very game.
- Questions used: the ids of cards whose answers were revealed (played cards and
  tiebreak cards) are reported in questions_used events; dealt cards that were
  never revealed stay fresh for the next game.
- Score: the cards each team has left (fewer is better), said on "score" (not
  after every round since 2026-12); score events carry the change of each round;
  game_over lists cards left and the winning team names.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

from host.cardtitle import READ_HAND, card_name, names_context, names_text, read_hand_rule, with_names

from ..contract import Choice, JsonObject, Narrow, Prompt
from ..decks import QUESTIONS_FILE, DeckEntry, Decks, Question
from ..engine import (
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
    say,
    score,
    sound,
)
from ..moves import Number, Said, named
from ..rules import merge_rules

ID = "zero-to-100"
TITLE = "Zero to 100"
ORDER = 2
DECK = DeckEntry("questions", QUESTIONS_FILE, min_cards=30)
"""min_cards: enough for the biggest deal, 6 per team to 3 teams, and more drawn as it goes."""
MODES = ("basic",)
DEALS = ("host",)
MIN_PLAYERS = 2
MAX_PLAYERS = 12
INFO_INTENTS = ("read_cards", "read_card")
"""Intents that only inform: the session does not journal them."""
TEAMS = True
"""Played in teams (--teams)."""


class Rules(TypedDict):
    """The game's own rules (GameOptions.rules), as check_rules gives them."""

    teams: int
    team_names: str
    hand_size: int
    start_target: int
    shuffle: bool
    spot_on_margin: int
    tie_draw: str
    tie_target: str
    spot_on_discard: str
    rotate_first: bool
    read_hand: str
    reveal_question: bool
    say_distances: bool
    hide_picks: bool


RULE_DEFAULTS: Rules = {
    "teams": 3,  # 2 or 3 teams when options.teams is empty
    "team_names": "player",  # "player": Team Ana; "number": Team 1
    "hand_size": 6,  # question cards per team at the start (2..10)
    "start_target": 50,  # the starting card
    "shuffle": False,  # deck order, as the rulebook advises
    "spot_on_margin": 5,  # Spot On is right within this distance
    "tie_draw": "all",  # "all": every team draws on a tie for furthest (the rulebook); "tied": only those tied
    "tie_target": "first",  # "first" tied card in reveal order, or "random"
    "spot_on_discard": "ask",  # "ask" the team which card, or "random"
    "rotate_first": True,  # the first team to pick moves on each round
    "read_hand": "titles",  # a team's questions as its turn starts: titles | first | full | off
    "reveal_question": True,  # the reveal reads each team's question before its answer (the rulebook)
    "say_distances": False,  # the reveal says each team's distance from the target
    "hide_picks": True,  # a pick is told only to its team until the reveal (the rulebook)
}
RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "teams": (2, 3),
    "team_names": ("player", "number"),
    "hand_size": tuple(range(2, 11)),
    "start_target": tuple(range(0, 101)),
    "spot_on_margin": tuple(range(0, 101)),
    "tie_draw": ("tied", "all"),
    "tie_target": ("first", "random"),
    "spot_on_discard": ("ask", "random"),
}

RULES_BEFORE = {"reveal_question": False, "hide_picks": False}
"""A game saved before the rules reveal_question or hide_picks existed resumes as it was played."""
RULES_SUMMARY = (
    "Zero to 100. Each team has a row of questions whose answers run from 0 to 100. "
    "Each round, every team picks the question it thinks is closest to the target, "
    "and may add power cards: the 50 card and the 20 card move the answer up or down, "
    "you choose the sign; Spot On says you will land within 5 of the target, and if "
    "you do, you throw away one more question. The team furthest from the target "
    "gives its card to the middle, where it becomes the new target, and draws a new "
    "question. Get down to one card to win, or to none for a Supreme Victory. "
    "Until the last team has chosen, a team may still change its pick: say "
    "change team Ana's pick."
)

POWER_CARDS = ("50", "20", "spot_on")
"""The three power cards every team starts with, as named in prompt contexts."""

PLAYED_POWERS = {
    "+50": ("50", 50),
    "-50": ("50", -50),
    "+20": ("20", 20),
    "-20": ("20", -20),
    "spot_on": ("spot_on", 0),
}
"""What a team may say it plays -> (the power card it spends, the shift it adds)."""

_NOT_DISTINCTIVE = set(
    """
    about above after again also always among another average before being below
    between both could does doing during each ever every from have having here how
    into just know many more most much never number often only other over percent
    percentage people same should since some such than that their them then there
    these they this those through under until usually very were what when where which
    while will with would your year years typical standard count counted total whole
    like maybe please okay actually rounded nearest roughly approximately around
    according provide provides without made make makes take takes give gives used
    expect expected called known kind part whole full first last
    zero one two three four five six seven eight nine ten eleven twelve thirteen
    fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty
    sixty seventy eighty ninety hundred thousand million billion
""".split()
)
"""Words too common (or too number-like) to tell one question from another."""


# ---- values ---------------------------------------------------------------


@dataclass
class Team:
    """A team: its members, its row of questions and its unspent power cards."""

    name: str
    members: tuple[str, ...]
    hand: list[Question]
    powers: list[str] = field(default_factory=lambda: list(POWER_CARDS))


@dataclass
class Play:
    """The question a team slid forward this round and the powers it added. Both stay in
    the team's hand and powers until the reveal, so the pick may still change."""

    card: Question
    powers: list[str]  # "+50" "-50" "+20" "-20" "spot_on", in that card order

    @property
    def result(self) -> int:
        """The answer moved by the 50 and 20 cards (may leave 0..100)."""
        return self.card.answer + sum(PLAYED_POWERS[p][1] for p in self.powers)


@dataclass
class State:
    """Everything about a game in progress; `apply` returns a changed copy."""

    rules: Rules
    teams: list[Team]
    deck: list[Question]  # the draw pile, top first
    rng: random.Random = field(compare=False)
    target: int = 50
    round: int = 0
    order: list[int] = field(default_factory=list)  # team indices: pick/reveal order
    plays: dict[int, Play] = field(default_factory=dict)  # held until the reveal
    changing: int | None = None  # a team that chose, asked for its new pick
    phase: str = "choose"  # choose | discard | tiebreak | over
    to_discard: list[int] = field(default_factory=list)  # teams owed a Spot On discard
    cards_at_round_start: list[int] = field(default_factory=list)
    tied: list[int] = field(default_factory=list)  # teams in the tiebreak
    guesses: dict[int, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    heard_hand: list[int] = field(default_factory=list)  # teams read their hand in full
    revealed: list[tuple[int, Play]] = field(default_factory=list)  # the last reveal, in its order
    named: list[str] = field(default_factory=list)  # questions (ids) named to their team


# ---- setup ----------------------------------------------------------------


def setup(options: GameOptions, decks: Decks) -> tuple[State, list[Event]]:
    """Form the teams, deal the questions in deck order and open round 1."""
    rules = check_rules(options.rules)
    _check_mode_deal_players(options)
    rng = new_rng(options.seed)
    memberships = _form_teams(options, rules["teams"])
    deck = _deck_in_order(decks, rules["shuffle"], rng)
    hand_size = rules["hand_size"]
    needed = hand_size * len(memberships)
    if len(deck) < needed:
        raise RuleError(
            f"Zero to 100 needs {needed} question cards for {len(memberships)} "
            f"teams, but the deck has only {len(deck)}."
        )
    teams = []
    for number, members in enumerate(memberships, start=1):
        name = f"Team {members[0]}" if rules["team_names"] == "player" else f"Team {number}"
        teams.append(Team(name, members, deck[:hand_size]))
        deck = deck[hand_size:]
    state = State(rules=rules, teams=teams, deck=deck, rng=rng, target=rules["start_target"])
    return state, _welcome(state) + _start_round(state)


def check_rules(given: JsonObject) -> Rules:
    """The rule parameters, typed by merge_rules; values outside RULE_CHOICES refused.
    Needs no table, so the settings check every game's rules before any game starts."""
    rules = merge_rules(TITLE, RULE_DEFAULTS, read_hand_rule(given))
    by_key = cast(dict[str, object], rules)  # the same dict, read rule by rule
    for key, allowed in {**RULE_CHOICES, "read_hand": READ_HAND}.items():
        value = by_key[key]
        if isinstance(value, str):
            value = by_key[key] = value.lower()
        if value not in allowed:
            shown = f"{allowed[0]} to {allowed[-1]}" if len(allowed) > 4 else " or ".join(map(str, allowed))
            raise RuleError(f"The rule {key} must be {shown}, not {value}.")
    return rules


def _check_mode_deal_players(options: GameOptions) -> None:
    if (options.mode or MODES[0]) not in MODES:
        raise RuleError(f"Zero to 100 has no mode {options.mode}; its mode is basic.")
    if (options.deal or DEALS[0]) not in DEALS:
        raise RuleError("In Zero to 100 the host holds the deck: the deal must be host.")
    players = options.players
    check_player_count(TITLE, options.mode or MODES[0], players, MIN_PLAYERS, MAX_PLAYERS)
    if len(set(players)) != len(players) or not all(p.strip() for p in players):
        raise RuleError("Every player needs a different name.")


def _form_teams(options: GameOptions, team_count: int) -> list[tuple[str, ...]]:
    """The given teams, checked; or players seated round-robin into teams."""
    players = options.players
    if not options.teams:
        count = min(team_count, len(players))
        return [tuple(players[i::count]) for i in range(count)]
    teams = [tuple(team) for team in options.teams]
    if len(teams) not in (2, 3):
        raise RuleError("Zero to 100 is played by 2 or 3 teams.")
    if any(not team for team in teams):
        raise RuleError("Every team needs at least one player.")
    members = [name for team in teams for name in team]
    if sorted(members) != sorted(players):
        raise RuleError(f"Every player must be in exactly one team: {_team_mismatch(members, players)}.")
    return teams


def _team_mismatch(members: list[str], players: tuple[str, ...]) -> str:
    """Which names the teams and the players disagree on: in no team, in no list of
    players, in two teams."""
    told = []
    teamless = [name for name in players if name not in members]
    if teamless:
        told.append(f"{join_names(teamless)} {'is' if len(teamless) == 1 else 'are'} in no team")
    outside = list(dict.fromkeys(name for name in members if name not in players))
    if outside:
        told.append(f"{join_names(outside)} {'is' if len(outside) == 1 else 'are'} in a team but not among the players")
    twice = list(dict.fromkeys(name for name in members if members.count(name) > 1))
    if twice:
        told.append(f"{join_names(twice)} {'is' if len(twice) == 1 else 'are'} in two teams")
    return "; ".join(told)


def _deck_in_order(decks: Decks, shuffle: bool, rng: random.Random) -> list[Question]:
    """Questions never played by this group first, then the others, each in deck order."""
    cards = decks.questions_for(ID)
    fresh = [q for q in cards if q.id not in decks.used_questions]
    seen = [q for q in cards if q.id in decks.used_questions]
    if shuffle:
        rng.shuffle(fresh)
        rng.shuffle(seen)
    return fresh + seen


def _welcome(s: State) -> list[Event]:
    return [say(f"Zero to 100! {_line_up(s)}")]


def _line_up(s: State) -> str:
    """Who plays in which team, a sentence a team, so no name can be heard in the wrong one:
    "Teams: Ana and Dan. Ben. Cy." (a team named after its first player needs no name
    of its own: it is short, which the pace at the first prompt needs), or "Team 1: Ana
    and Cy. Team 2: Ben and Dan." """
    if all(len(t.members) == 1 and t.name == f"Team {t.members[0]}" for t in s.teams):
        return f"{len(s.teams)} teams of one: {join_names([t.name for t in s.teams])}."
    if all(t.name == f"Team {t.members[0]}" for t in s.teams):
        return "Teams: " + " ".join(f"{join_names(t.members)}." for t in s.teams)
    return " ".join(f"{t.name}: {join_names(t.members)}." for t in s.teams)


# ---- prompts --------------------------------------------------------------


def prompt(state: State) -> Prompt | None:
    """Ask the team whose move it is: pick a question, throw one away, or guess."""
    if state.phase == "choose":
        return _choose_prompt(state)
    if state.phase == "discard":
        return _discard_prompt(state)
    if state.phase == "tiebreak":
        return _tiebreak_prompt(state)
    return None


def _choose_prompt(state: State) -> Prompt:
    """The choosing team's pick: a question card, with power cards if they like."""
    team = state.teams[_choosing_team(state)]
    name = "zero-to-100/choose_card"
    context = {
        "hand": [q.text for q in team.hand],
        **names_context(team.hand),
        "powers": list(team.powers),
        "teams": _members(state),
    }
    if state.changing is not None:  # its held pick is still in its hand and powers
        text = f"{team.name}, your new pick? Or say keep our pick."
        choices = (*_choose_examples(team)[:2], "keep our pick")
    elif state.round == 1 and not state.plays:  # the game's first pick says how
        text = f"{team.name}, which question is closest to {state.target}?"
        text += " Add power cards if you like." if team.powers else ""
        choices = _choose_examples(team)
    else:  # the round's opening named the target
        text, choices = f"{team.name}, your pick?", _choose_examples(team)
    return Prompt(
        name=name,
        player=team.name,
        text=text,
        context=context,
        slots=grammar_slots(name, context),
        choices=choices,
        narrow=_cards_narrow(team, "choose_card"),
    )


def _discard_prompt(state: State) -> Prompt:
    """The next team to throw a question card away."""
    team = state.teams[state.to_discard[0]]
    name = "zero-to-100/discard"
    context = {"hand": [q.text for q in team.hand], **names_context(team.hand), "teams": _members(state)}
    return Prompt(
        name=name,
        player=team.name,
        text=f"{team.name}, which question do you throw away? Card 1 to {len(team.hand)}.",
        context=context,
        slots=grammar_slots(name, context),
        choices=("card 1", "the second one", "read our cards"),
        narrow=_cards_narrow(team, "discard"),
    )


def _tiebreak_prompt(state: State) -> Prompt:
    """The next tied team's guess at the answer of its last question."""
    team = state.teams[state.tied[len(state.guesses)]]
    question = team.hand[0].text
    context = {"question": question, "teams": _members(state)}
    return Prompt(
        name="zero-to-100/tiebreak",
        player=team.name,
        text=f"{team.name}, your last question: {_sentence(question)} What is its answer, from 0 to 100?",
        context=context,
        slots=grammar_slots("zero-to-100/tiebreak", context),
        choices=("42", "it's 75"),
        narrow=narrow_numbers("Your answer?", range(101), lambda n: {"intent": "number", "value": n}),
    )


def _members(s: State) -> list[list[str]]:
    """Each team's players, for the grammar's "read team Ben's cards"."""
    return [list(team.members) for team in s.teams]


def _cards_narrow(team: Team, intent: str) -> Narrow:
    """A card by its number; to choose one, then a power card (or none) when the team has any."""
    powers = None
    if intent == "choose_card" and team.powers:
        played = [p for p in PLAYED_POWERS if PLAYED_POWERS[p][0] in team.powers]
        powers = Narrow(
            "Power card?",
            (Choice("none", {"powers": []}, "No power card?"),)
            + tuple(Choice(_played_power_name(p), {"powers": [p]}) for p in played),
        )
    return Narrow(
        "Which card?",
        tuple(
            Choice(str(n), {"intent": intent, "card": n}, f"Card {n}?", then=powers)
            for n in range(1, len(team.hand) + 1)
        ),
    )


def _choosing_team(s: State) -> int:
    """The team asked now: one changing its pick, else the first in order yet to choose."""
    if s.changing is not None:
        return s.changing
    return next(i for i in s.order if i not in s.plays)


def grammar_slots(prompt: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    """The live slot lists of a prompt's grammar, built from its context alone.

    The accuracy benchmark knows a recorded prompt only by its name and manifest
    context, so the grammar must not depend on anything else in the game state.
    choose_card and discard need {"hand": [question text, ...]}: card numbers,
    ordinals and each card's telling words; {"names": [card name, ...]} adds the
    cards' deck names ("the June one"). The powers are a fixed grammar list.
    Every prompt's {"teams": [[player, ...], ...]} names the teams for "read team
    Ben's cards": a member's name or the team's number gives it (1-based).
    """
    teams = [
        (str(name), number) for number, members in enumerate(context.get("teams") or [], start=1) for name in members
    ] + [(str(n), n) for n in range(1, len(context.get("teams") or []) + 1)]
    if prompt not in ("zero-to-100/choose_card", "zero-to-100/discard"):
        return {"team": teams} if teams else {}
    hand = [str(text) for text in context.get("hand") or []]
    numbers = range(1, len(hand) + 1)
    return {
        "card": [(str(n), n) for n in numbers],
        "ordinal": [(ORDINALS[n - 1], n) for n in numbers],
        "card_word": with_names(_card_words(hand), [str(n) for n in context.get("names") or []]),
        "team": teams,
    }


def _card_words(hand: list[str]) -> list[tuple[str, int]]:
    """Up to 3 words per question that no other question in the hand has ("the pizza one")."""
    words = [_content_words(text) for text in hand]
    cards_with = Counter(word for card_words in words for word in card_words)
    result = []
    for number, card_words in enumerate(words, start=1):
        telling = [w for w in card_words if cards_with[w] == 1]
        for word in sorted(telling, key=len, reverse=True)[:3]:
            result.append((word, number))
    return result


def _content_words(text: str) -> list[str]:
    found = []
    for word in re.findall(r"[a-z]+", text.lower()):
        if len(word) >= 4 and word not in _NOT_DISTINCTIVE and word not in found:
            found.append(word)
    return found


def _choose_examples(team: Team) -> tuple[str, ...]:
    examples = ["card 1"]
    if "50" in team.powers:
        examples.append("card 2 with plus 50")
    if "20" in team.powers:
        examples.append("card 2 with minus 20")
    if "spot_on" in team.powers:
        examples.append("card 3 with Spot On")
    return tuple(examples[:3]) + ("read our cards",)


# ---- actions --------------------------------------------------------------


class _ChooseCard(Said):
    intent: Literal["choose_card"]
    card: int  # 1-based, in the team's hand


class ChooseCard(_ChooseCard, total=False):
    powers: list[str]  # among PLAYED_POWERS; left out when none is played


class KeepPick(Said):
    intent: Literal["keep_pick"]


class _ReadCards(Said):
    intent: Literal["read_cards"]


class ReadCards(_ReadCards, total=False):
    team: int  # another team's, by its number (1-based); left out: the team asked


class ReadCard(Said):
    intent: Literal["read_card"]
    card: int


class ChangePick(Said):
    intent: Literal["change_pick"]
    team: int


class Discard(Said):
    intent: Literal["discard"]
    card: int


Move = ChooseCard | KeepPick | ReadCards | ReadCard | ChangePick | Discard | Number
"""Every intent Zero to 100's prompts hear (docs/specs/intents.md), by kind."""


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """One team's move; the state passed in is never changed."""
    move = cast(Move, named(action))  # by its name; each field is checked where it is used
    if move["intent"] == "read_cards" and move.get("team") is not None:
        shown = _face_up(state, state.teams.index(_named_team(state, move.get("team"))))
        return state, [say(_hand_sentence(shown, own=False))]
    if move["intent"] == "read_cards":
        return state, _read_cards(state)
    if move["intent"] == "read_card":
        return state, _read_one_card(state, move)
    handlers = {"choose": _choose_card, "discard": _discard_card, "tiebreak": _guess_answer}
    if state.phase not in handlers:
        raise RuleError("The game is over.")
    s = evolve(state)
    if move["intent"] == "change_pick":
        return s, _change_pick(s, move)
    events = handlers[s.phase](s, move)
    return s, events


def _read_cards(s: State) -> list[Event]:
    """The current team's questions and powers again, without changing anything."""
    if s.phase == "choose":
        team = s.teams[_choosing_team(s)]
        return [say(_hand_sentence(team)), say(f"The target is {s.target}.")]
    if s.phase == "discard":
        return [say(_hand_sentence(s.teams[s.to_discard[0]]))]
    if s.phase == "tiebreak":
        team = s.teams[s.tied[len(s.guesses)]]
        return [say(f"{team.name}, your last question: {_sentence(team.hand[0].text)}")]
    return [say("The game is over.")]


def _named_team(s: State, number: Any) -> Team:
    """The team a "read team Ben's cards" names: its number, 1 to the number of teams."""
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(s.teams):
        raise RuleError(f"The teams are {join_names([t.name for t in s.teams])}.")
    return s.teams[number - 1]


def _check_speaker(team: Team, action: Move) -> None:
    """Only the prompted team (by its name or a member's) may answer."""
    player = action.get("player")
    if player is not None and player != team.name and player not in team.members:
        raise RuleError(f"It's {team.name}'s turn.")


def _card_index(action: ChooseCard | Discard, team: Team) -> int:
    """The 0-based hand position of the card named (1-based) in the action."""
    card = action.get("card")
    if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= len(team.hand):
        raise RuleError(f"Pick a card from 1 to {len(team.hand)}.")
    return card - 1


def _choose_card(s: State, action: Move) -> list[Event]:
    """A team's pick, held until the last team has chosen; a changed pick replaces its old one."""
    team_index = _choosing_team(s)
    team = s.teams[team_index]
    if action["intent"] == "keep_pick":
        return _keep_pick(s, team, action)
    if action["intent"] != "choose_card":
        raise RuleError("Pick a question: say card and its number, and any power cards.")
    _check_speaker(team, action)
    index = _card_index(action, team)
    play = Play(team.hand[index], _checked_powers(action.get("powers") or [], team))
    words, held = _pick_words(team, play), s.plays.get(team_index)
    if play == held:
        raise RuleError("That is your pick already: say another, or keep our pick.", aside=f"Your pick: {words}.")
    s.plays[team_index] = play
    s.changing = None
    if not s.rules["hide_picks"]:
        events: list[Event] = [say(f"{words[0].upper()}{words[1:]}.")]
    else:
        done = "has changed its pick" if held is not None else "has chosen"
        events = [say(f"{team.name} {done}."), private(team.name, f"Your pick: {words}.", by_owner=True)]
    if len(s.plays) < len(s.order):
        return events + _start_turn(s)
    return events + _reveal_round(s)


def _pick_words(team: Team, play: Play) -> str:
    """ "card 2, with plus 50 and Spot On": a pick by its place in the team's hand."""
    with_powers = f", with {_powers_played(play.powers)}" if play.powers else ""
    return f"card {team.hand.index(play.card) + 1}{with_powers}"


def _change_pick(s: State, action: ChangePick) -> list[Event]:
    """ "change team Ana's pick": a team that has chosen is asked for its new pick (its old
    one stands until it says another); once the picks are revealed it is too late."""
    team = _named_team(s, action.get("team"))
    team_index = s.teams.index(team)
    if s.phase != "choose":
        raise RuleError("Every team has chosen and the picks are revealed: too late to change.")
    if team_index not in s.plays:
        raise RuleError(f"{team.name} has no pick to change: it has not chosen since the last reveal.")
    if s.changing == team_index:
        raise RuleError(f"{team.name}, say your new pick, or keep our pick.")
    s.changing = team_index
    events: list[Event] = [say(f"{team.name} may change its pick.")]
    if s.rules["hide_picks"]:
        events.append(private(team.name, f"Your pick now: {_pick_words(team, s.plays[team_index])}.", by_owner=True))
    return events


def _keep_pick(s: State, team: Team, action: KeepPick) -> list[Event]:
    """ "keep our pick": a team asked for its new pick keeps the one it had."""
    if s.changing is None:
        raise RuleError(f"{team.name} has not chosen yet: say your pick.")
    _check_speaker(team, action)
    s.changing = None
    return [say(f"{team.name} keeps its pick.")] + _start_turn(s)


def _checked_powers(said: Any, team: Team) -> list[str]:
    """The played powers, checked against the team's cards, in 50, 20, Spot On order."""
    if not isinstance(said, (list, tuple)):
        raise RuleError("Say which power cards you play: plus or minus 50, plus or minus 20, or Spot On.")
    spent = []
    for power in said:
        if power in ("50", "20"):
            raise RuleError(f"Plus {power} or minus {power}? Say which side you play.")
        if not isinstance(power, str) or power not in PLAYED_POWERS:
            raise RuleError("The power cards are plus or minus 50, plus or minus 20, and Spot On.")
        card = PLAYED_POWERS[power][0]
        if card in spent:
            raise RuleError(f"You have only one {_power_card_name(card)} card: play one side of it.")
        if card not in team.powers:
            raise RuleError(f"{team.name} has already used its {_power_card_name(card)} card.")
        spent.append(card)
    return sorted(said, key=lambda p: POWER_CARDS.index(PLAYED_POWERS[p][0]))


def _discard_card(s: State, action: Move) -> list[Event]:
    team = s.teams[s.to_discard[0]]
    if action["intent"] != "discard":
        raise RuleError("Say which card you throw away, for example card 2.")
    _check_speaker(team, action)
    index = _card_index(action, team)
    card = team.hand.pop(index)
    s.to_discard.pop(0)
    events: list[Event] = [say(f"{team.name} throws away card {index + 1}: {_sentence(card.text)}")]
    return events + _spot_on_discards(s)


def _guess_answer(s: State, action: Move) -> list[Event]:
    team_index = s.tied[len(s.guesses)]
    team = s.teams[team_index]
    if action["intent"] != "number":
        raise RuleError("Say a number from 0 to 100.")
    _check_speaker(team, action)
    value = action.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
        raise RuleError("Say a number from 0 to 100.")
    s.guesses[team_index] = value
    events: list[Event] = [say(f"{team.name} says {value}.")]
    if len(s.guesses) < len(s.tied):
        return events
    return events + _settle_tiebreak(s)


# ---- the round ------------------------------------------------------------


def _start_round(s: State) -> list[Event]:
    """A new round: who picks first, and the target."""
    s.round += 1
    count = len(s.teams)
    first = (s.round - 1) % count if s.rules["rotate_first"] else 0
    s.order = [(first + k) % count for k in range(count)]
    s.plays = {}
    s.cards_at_round_start = [len(t.hand) for t in s.teams]
    opening = f"Target {s.target}."
    return [say(opening)] + _start_turn(s)


def _start_turn(s: State) -> list[Event]:
    """Name the team's questions (rule read_hand): the whole hand at its first turn (by
    titles, or in full), then only questions new since (a card drawn); the rest is
    there on request ("read our cards"). `full` reads the whole hand in full every turn."""
    how, index = s.rules["read_hand"], _choosing_team(s)
    team = s.teams[index]
    if how == "off":
        return []
    new = [q for q in team.hand if q.id not in s.named]
    s.named += [q.id for q in new]
    if how == "full" or index not in s.heard_hand:
        s.heard_hand.append(index)
        return [say(_hand_sentence(team, how != "titles"))]
    if not new:
        return []
    noun = "question" if len(new) == 1 else "questions"
    return [say(f"{team.name}, new {noun}: {names_text(new)}")]


def _reveal_round(s: State) -> list[Event]:
    """All teams have picked: the picks leave the hands, each is revealed in order, then
    the furthest team's card moves."""
    for team_index, play in s.plays.items():
        team = s.teams[team_index]
        team.hand.remove(play.card)
        for power in play.powers:
            team.powers.remove(PLAYED_POWERS[power][0])
    s.revealed = [(i, s.plays[i]) for i in s.order]
    events: list[Event] = [sound("drumroll")]
    distances = {i: abs(s.plays[i].result - s.target) for i in s.order}
    for team_index in s.order:
        events += _reveal_play(s, team_index, distances[team_index])
    events.append({"type": "questions_used", "ids": [s.plays[i].card.id for i in s.order]})
    return events + _move_furthest(s, distances) + _spot_on_discards(s)


def _reveal_play(s: State, team_index: int, distance: int) -> list[Event]:
    """One team's card: question, answer, powers step by step, distance, Spot On."""
    team = s.teams[team_index]
    play = s.plays[team_index]
    card = play.card
    events: list[Event] = [{"type": "reveal", "player": team.name, "card": card.id, "value": card.answer}]
    if s.rules["reveal_question"]:
        events.append(say(f"{team.name}: {_sentence(card.text)}", read_out=True))
    value = card.answer
    spoken = [f"{team.name} {value}"]
    for power in play.powers:
        if power != "spot_on":
            value += PLAYED_POWERS[power][1]
            spoken.append(f"{_played_power_name(power)} makes {value}")
    if distance == 0:
        ending = ", right on target!"
    else:
        ending = f", {distance} away." if s.rules["say_distances"] else "."
    events.append(say(", ".join(spoken) + ending))
    if "spot_on" in play.powers:
        if distance <= s.rules["spot_on_margin"]:
            s.to_discard.append(team_index)
            events += [sound("correct"), say(f"Spot On! {team.name} will throw away one more question.")]
        else:
            events += [sound("wrong"), say("Spot On missed.")]
    return events


def _move_furthest(s: State, distances: dict[int, int]) -> list[Event]:
    """The furthest card becomes the target; the furthest team (or teams) draw."""
    furthest = max(distances.values())
    tied = [i for i in s.order if distances[i] == furthest]
    if len(tied) == 1 or s.rules["tie_target"] == "first":
        target_team = tied[0]
    else:
        target_team = s.rng.choice(tied)
    s.target = s.plays[target_team].card.answer
    names = [s.teams[i].name for i in tied]
    events: list[Event]
    if len(tied) == 1:
        drawers = tied
        drawn = s.deck[0] if s.deck else None
        events = [say(f"{names[0]} is furthest and draws" + (f": {card_name(drawn)}." if drawn else "."))]
        if drawn is not None:
            s.named.append(drawn.id)  # named now, not again at the team's turn
    else:
        drawers = tied if s.rules["tie_draw"] == "tied" else list(s.order)
        who_draws = "They each" if drawers == tied else "Every team"
        events = [
            say(
                f"Tie for furthest, {furthest} away: {join_names(names)}. "
                f"{who_draws} draw a question. The new target is {s.target}, "
                f"from {s.teams[target_team].name}."
            )
        ]
    for team_index in drawers:
        team = s.teams[team_index]
        if s.deck:
            team.hand.append(s.deck.pop(0))
        else:
            events.append(say(f"The deck is empty: {team.name} draws nothing."))
    return events


def _spot_on_discards(s: State) -> list[Event]:
    """Settle Spot On discards that need no question; stop at the first that does."""
    events: list[Event] = []
    while s.to_discard:
        team = s.teams[s.to_discard[0]]
        if len(team.hand) > 1 and s.rules["spot_on_discard"] == "ask":
            s.phase = "discard"
            return events
        index = s.rng.randrange(len(team.hand)) if len(team.hand) > 1 else 0
        card = team.hand.pop(index)
        s.to_discard.pop(0)
        last = "its last question" if not team.hand else "a question"
        events.append(say(f"{team.name} throws away {last}: {_sentence(card.text)}"))
    s.phase = "choose"
    return events + _end_round(s)


def _end_round(s: State) -> list[Event]:
    """Cards left per team, then a winner, a tiebreak, or the next round."""
    events: list[Event] = []
    for team, before in zip(s.teams, s.cards_at_round_start):
        events.append(score(team.name, len(team.hand) - before, len(team.hand), "cards left"))
    empty = [i for i in s.order if not s.teams[i].hand]
    last_card = [i for i in s.order if len(s.teams[i].hand) == 1]
    if empty:
        names = _team_names(s, empty)
        line = (
            f"{names} has no questions left: Supreme Victory!"
            if len(empty) == 1
            else f"{names} have no questions left: they share a Supreme Victory!"
        )
        return events + _finish(s, empty, line)
    if len(last_card) == 1:
        return events + _finish(s, last_card, f"{_team_names(s, last_card)} is down to one question and wins!")
    if last_card:
        return events + _start_tiebreak(s, last_card)
    return events + _start_round(s)


def _start_tiebreak(s: State, teams: list[int]) -> list[Event]:
    s.phase = "tiebreak"
    s.tied = teams
    s.guesses = {}
    return [
        say(
            f"{_team_names(s, teams)} are down to one question each! Tiebreak: "
            "each team guesses the answer on its last card, and the closest wins."
        )
    ]


def _settle_tiebreak(s: State) -> list[Event]:
    events: list[Event] = []
    misses = {}
    for team_index in s.tied:
        team = s.teams[team_index]
        card = team.hand[0]
        misses[team_index] = abs(card.answer - s.guesses[team_index])
        events += [
            {"type": "reveal", "player": team.name, "card": card.id, "value": card.answer},
            say(
                f"{team.name}: {_sentence(card.text)} The answer is {card.answer}. "
                f"You said {s.guesses[team_index]}, {misses[team_index]} off."
            ),
        ]
    events.append({"type": "questions_used", "ids": [s.teams[i].hand[0].id for i in s.tied]})
    best = min(misses.values())
    closest = [i for i in s.tied if misses[i] == best]
    outcome = "wins" if len(closest) == 1 else "share the victory"
    return events + _finish(s, closest, f"{_team_names(s, closest)} {outcome}!")


def _finish(s: State, winners: list[int], announcement: str) -> list[Event]:
    """The game is over: say who won, with cards left as the final score."""
    s.phase = "over"
    s.winners = [s.teams[i].name for i in winners]
    final = {t.name: len(t.hand) for t in s.teams}
    return [sound("game_over"), say(announcement), game_over(final, list(s.winners))]


# ---- words ----------------------------------------------------------------


def scores(state: State) -> str:
    """Cards left per team (fewer is better), and the target or the winners."""
    if state.phase == "over":
        return f"Game over: {join_names(state.winners)} won. Cards left: {_cards_left(state)}."
    return f"Round {state.round}, target {state.target}. Cards left: {_cards_left(state)}."


def _team_names(s: State, team_indices: list[int]) -> str:
    return join_names([s.teams[i].name for i in team_indices])


def _cards_left(s: State) -> str:
    return join_names([f"{t.name} {len(t.hand)}" for t in s.teams])


def _hand_sentence(team: Team, full: bool = True, own: bool = True) -> str:
    """A team's questions by titles ("Card 1: days month June."), or in full with its powers:
    to the team itself, or (own False) to another team, as they lie face up on a table."""
    if not full:
        return f"{team.name}'s questions: {names_text(team.hand)}"
    cards = " ".join(f"{n}: {_sentence(q.text)}" for n, q in enumerate(team.hand, start=1))
    return f"{team.name}{', your' if own else ':'} questions. {cards} {_powers_sentence(team)}"


def table_text(state: State) -> str:
    """Everything face up on a real table, in full ("read the table"): the target, each
    team's questions and power cards, this round's picks so far, and the last reveal."""
    s = state
    parts = [f"Round {s.round}, target {s.target}." if s.phase != "over" else scores(s), _line_up(s)]
    parts += [_hand_sentence(_face_up(s, i), own=False) for i, team in enumerate(s.teams) if team.hand]
    chosen = [s.teams[i].name for i in s.order if i in s.plays]
    if s.phase == "choose" and chosen and s.rules["hide_picks"]:  # held: who, and nothing more
        parts.append(f"{join_names(chosen)} {'has' if len(chosen) == 1 else 'have'} chosen.")
    elif s.phase == "choose":  # picked this round, face up, their answers still hidden
        parts += [
            f"{s.teams[i].name} has played: {_sentence(s.plays[i].card.text)}"
            + (f" With {_powers_played(s.plays[i].powers)}." if s.plays[i].powers else "")
            for i in s.order
            if i in s.plays
        ]
    if s.revealed:
        parts.append("The last reveal. " + " ".join(_revealed_text(s.teams[i], play) for i, play in s.revealed))
    return " ".join(parts)


def _face_up(s: State, team_index: int) -> Team:
    """A team as the other teams see it this round. A pick held (rule hide_picks) leaves
    its row and power cards as they were, so nothing of it shows by its absence; without
    hide_picks the picked question and powers are out of them, told apart."""
    team, play = s.teams[team_index], s.plays.get(team_index)
    if play is None or s.rules["hide_picks"] or s.phase != "choose":
        return team
    spent = [PLAYED_POWERS[p][0] for p in play.powers]
    powers = [p for p in team.powers if p not in spent]
    return Team(team.name, team.members, [q for q in team.hand if q != play.card], powers)


def _powers_played(powers: list[str]) -> str:
    """ "plus 50 and Spot On"."""
    return join_names([_played_power_name(p) for p in powers])


def _revealed_text(team: Team, play: Play) -> str:
    """One revealed card in full: "Team Ana: How many ...? 35, with plus 20: 55." """
    moved = f", with {_powers_played(play.powers)}: {play.result}" if play.result != play.card.answer else ""
    return f"{team.name}: {_sentence(play.card.text)} {play.card.answer}{moved}."


def _read_one_card(s: State, action: ReadCard) -> list[Event]:
    """ "read card 2": one of the asked team's questions in full, nothing changed."""
    if s.phase not in ("choose", "discard"):
        return _read_cards(s)
    team = s.teams[_choosing_team(s) if s.phase == "choose" else s.to_discard[0]]
    number = action.get("card")
    if not isinstance(number, int) or not 1 <= number <= len(team.hand):
        raise RuleError(f"Your questions are numbered 1 to {len(team.hand)}.")
    return [say(f"Card {number}: {_sentence(team.hand[number - 1].text)}")]


def _powers_sentence(team: Team) -> str:
    if not team.powers:
        return "No power cards left."
    return "Power cards: " + join_names([_power_card_name(p) for p in team.powers]) + "."


def _power_card_name(card: str) -> str:
    """How a power card is spoken: "plus or minus 50", "Spot On"."""
    return "Spot On" if card == "spot_on" else f"plus or minus {card}"


def _played_power_name(power: str) -> str:
    """How a played power is spoken: "plus 50", "minus 20", "Spot On"."""
    if power == "spot_on":
        return "Spot On"
    return ("plus " if power.startswith("+") else "minus ") + power[1:]


def _sentence(text: str) -> str:
    """Question text ending in punctuation, so spoken sentences do not run together."""
    text = text.strip()
    return text if text.endswith(("?", ".", "!")) else text + "."


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
    teams=TEAMS,
    table_text=table_text,
    check_rules=check_rules,
    rules_before=RULES_BEFORE,
)
