"""1% (one-percent): bluff about the cards in everyone's hands, then chase a double zero.

How a game runs here
--------------------
Every round has a bid phase and a reward phase. In the bid phase the players in
play take turns naming a number and a family ("9 clovers"): the number must go up
each time. Instead of raising, a player may say "that's false!": every other player
in play then sides with the bid or against it, the named family is added up over
all hands, and whoever picked the wrong side is out until the round ends. Those
still in get fresh cards and bid again, until one player is left. That player earns
three rewards: dice rolls, or reward cards from the face-up row (winning numbers,
which count as a zero on the dice, and one-use bonuses). Two winning dice in one
roll win the whole game; otherwise everyone comes back in for the next round.

Deals: "host" (the host shuffles and deals; each hand is sent in a private event)
or "table" (physical bid cards; at a reveal each player in play says their own
total of the named family). Dice (rule "dice"): "host" rolls with the game's random
generator and a dice sound; "table" asks the player for the two dice
(prompt one-percent/dice).

Rules choices (where the rulebook is silent or players might disagree)
---------------------------------------------------------------------
- Votes: after a challenge, each player in play other than the bidder and the
  challenger votes, in seat order starting after the challenger. The challenger
  counts as disagreeing with the bid and the bidder as agreeing; they are not asked.
- A bid must name a strictly higher number; the family may change. The opening
  bid of a phase cannot be a challenge. There is no upper limit (a bid above what
  the deck could hold is legal, just surely false).
- A bid "holds" when the named family adds up to at least the bid.
- At a reveal (host deal) everyone in play shows their hand, as the rulebook has it:
  the host reads each hand, card by card, and its total of the named family ("Ana
  shows comet 2, shark 3 and star 1: 2 comets."), in seat order, before the verdict.
- At a reveal every hand goes to the discard pile, including the hands of players
  who are now out; only players still in draw a new hand. When the draw pile runs
  out mid-deal, the discards are shuffled into a new draw pile.
- The next phase is opened by the challenger if the bid was false, else by the
  bidder. That player is always still in (they were on the right side), but the
  code falls back to the next player in play after them, in seat order, anyway.
- The setup roll is in seat order; if a player rolls 0 and 0 they win at once and
  nobody else rolls. Players tied for the lowest total roll again, among themselves.
- Reward cards: the host always keeps the reward deck and the face-up row, in both
  deals (with a table deal, players may mirror it with their physical reward cards).
- The cards come from decks/one-percent.yaml (format: docs/decks.md; another file
  with --card-deck). Bid deck: the families (with how each is said, "9 sharks",
  "4 lightning"), the values and the copies of each card; shipped: shark, comet,
  star, lightning and clover, 1 to 5, twice each (50 cards).
- Reward deck (the file's open choice): shipped, winning numbers 1-9 three times
  each, 3 steal, 2 draw two (take the top 2 reward cards), 2 reroll. Every count
  is also a rule ("winning_copies", "steal_cards", "draw_two_cards",
  "reroll_cards") whose default is the file's count.
- Rewards ("rewards", default 3): a roll or taking a card from the row uses one;
  using or discarding a card you own does not. Taken row cards are replaced only at
  the end of the round. When the row is empty, rolling is the only reward left.
  Used bonus cards go to a reward discard pile, which is never reshuffled.
- "done" is refused while rewards remain. When the rewards are spent the phase ends
  by itself, unless the player still holds a bonus they could use now; then the
  host offers it and waits for "use ..." or "done".
- Steal ("use steal", optionally "from" a player and "target" card): takes one
  reward card (number or bonus) from any opponent. If the player or card is not
  said, the host picks: the opponent holding the most winning numbers the thief
  lacks (seat order breaks ties), and from them a winning number the thief lacks
  (lowest first), else a bonus, else a duplicate.
- Draw two: takes the top 2 cards of the reward deck (1 if only 1 is left); refused
  when the deck is empty.
- Reroll: allowed straight after a roll (reward roll or reroll) with exactly one
  winning die, before any other action; it rerolls the losing die. Winning numbers
  are those owned at the moment of the roll.
- At most "max_cards" (default 8) reward cards each: taking or drawing past it is
  refused with a reason; the player says "discard the 4" (intent discard, allowed
  any time in their reward phase) or uses a bonus first. Stealing is net zero
  (the steal card is used up) so it is always allowed.
- Duplicates of a winning number ("duplicates"): "warn" (default) allows taking or
  stealing one but says it adds nothing; "refuse" refuses taking or stealing one,
  and a draw two discards a duplicate it draws.
- Scores: there are no points; game_over gives 1 to the winner and 0 to the others.
- Table deal: each player in play says their own total, in seat order from the
  bidder; a total above what one hand can hold (14 with 3 cards) is refused.
  The host cannot check bluffs at the table; it trusts the totals.
- Intents beyond intents.md: {"intent": "done"} ends a reward phase whose rewards
  are spent; {"intent": "discard", "card": 4} throws away an owned reward card;
  "use" may carry "from" (an opponent) and "target" (a card) for a steal.
- Info intents (not journaled, state unchanged): "read_cards" sends the player's
  hand again as a private event (host deal only); "read_rewards" reads the row,
  the player's reward cards and their winning numbers.
- With table dice, the dice intent may carry one value only for a reroll (the new
  die), and {"values": [n], "double": true} ("double zero") means [n, n].
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypedDict, cast

from host.contract import Choice, JsonObject, Narrow, Prompt
from host.decks import BID_REWARD_FILE, BidDeck, BidRewardDecks, DeckEntry, Decks, RewardDeck, default_bid_reward_decks
from host.engine import (
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
from host.rules import merge_rules
from host.unchanging import Unchanging
from host.views import CardView, HandView

ID = "one-percent"
TITLE = "1%"
ORDER = 4
DECK = DeckEntry("bid_reward", BID_REWARD_FILE)
MODES = ("basic",)
DEALS = ("host", "table")
MIN_PLAYERS = 2
MAX_PLAYERS = 6


class DeckCounts(TypedDict):
    """The reward deck's counts, as rules: the deck file's unless the players change them."""

    winning_copies: int
    steal_cards: int
    draw_two_cards: int
    reroll_cards: int


class Rules(DeckCounts):
    """The game's own rules (GameOptions.rules), as check_rules gives them."""

    dice: str
    rewards: int
    max_cards: int
    duplicates: str
    hand_size: int


RULE_DEFAULTS: Rules = {
    "dice": "host",  # "host": the host rolls; "table": players say their dice
    "rewards": 3,  # rewards earned by the last player in play
    "max_cards": 8,  # reward cards a player may own
    "duplicates": "warn",  # "warn" or "refuse" a second copy of a winning number
    "hand_size": 3,  # bid cards dealt to each player in play
    # Reward deck counts: the game's defaults are the deck file's counts (these are
    # the shipped decks/one-percent.yaml's, for docs/rules.md).
    "winning_copies": 3,  # copies of each winning number in the reward deck
    "steal_cards": 3,
    "draw_two_cards": 2,
    "reroll_cards": 2,
}
INFO_INTENTS = ("read_cards", "read_rewards")
"""Intents that only read something out: the session does not journal them."""
RULES_SUMMARY = (
    "Everyone holds 3 secret bid cards from five families: shark, comet, star, "
    "lightning and clover, valued 1 to 5. On your turn, raise the bid with a higher "
    "number and any family, like 9 clovers, meaning the whole table holds at least "
    "that much of it. Or say that's false. Then everyone else picks a side, the "
    "cards are counted, and whoever was wrong sits out the rest of the round. The "
    "last player standing gets 3 rewards: roll the two dice, or take reward cards. "
    "A winning number card makes that number count as a zero. Roll two zeros, or "
    "winning numbers on both dice, and you win the game."
)

BONUSES = ("steal", "draw_two", "reroll")
BONUS_NAMES = {"steal": "steal", "draw_two": "draw two", "reroll": "reroll"}
ROW_SIZE = 3
DIE_FACES = range(10)

INT_RULES: Final = (
    "rewards",
    "max_cards",
    "hand_size",
    "winning_copies",
    "steal_cards",
    "draw_two_cards",
    "reroll_cards",
)
CHOICE_RULES: dict[Literal["dice", "duplicates"], tuple[str, ...]] = {
    "dice": ("host", "table"),
    "duplicates": ("warn", "refuse"),
}

# Phases: what the host is waiting for.
SETUP_ROLL = "setup_roll"  # table dice: players say their setup roll
BID = "bid"
VOTE = "vote"
TOTAL = "total"  # table deal: players say their total of the family
REWARD = "reward"
DICE = "dice"  # table dice: a reward roll or a reroll is awaited
OVER = "over"

RewardCard = Any
"""An int 1-9 (a winning number) or one of BONUSES."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class BidCard(Unchanging):
    family: str
    value: int


@dataclass(frozen=True)
class Bid(Unchanging):
    count: int
    family: str
    bidder: str


@dataclass
class Challenge:
    """A bid under challenge: who sides with it, who against, who is still to speak."""

    bid: Bid
    challenger: str
    believers: list[str]
    doubters: list[str]
    voters: list[str]  # still to vote, in order
    reporters: list[str] = field(default_factory=list)  # table deal: still to say a total
    totals: dict[str, int] = field(default_factory=dict)


@dataclass
class RewardTurn:
    """The reward phase of the last player in play."""

    player: str
    left: int
    reroll_die: int | None = None  # index of the losing die when a reroll is allowed
    dice: tuple[int, int] | None = None

    def kept_die(self) -> int:
        """The die a reroll keeps: the winning one of the last roll."""
        return required(self.dice, "roll")[1 - required(self.reroll_die, "die to reroll")]


@dataclass
class DiceWait:
    """Table dice: what the dice the player is about to say are for."""

    purpose: str  # "reward" or "reroll"
    player: str


@dataclass
class State:
    players: tuple[str, ...]
    deal: str
    rules: Rules
    rng: random.Random
    cards: BidRewardDecks  # the deck file's composition
    phase: str = BID
    round: int = 1
    bid_deck: list[BidCard] = field(default_factory=list)
    bid_discard: list[BidCard] = field(default_factory=list)
    hands: dict[str, list[BidCard]] = field(default_factory=dict)
    reward_deck: list[RewardCard] = field(default_factory=list)
    reward_row: list[RewardCard] = field(default_factory=list)
    reward_discard: list[RewardCard] = field(default_factory=list)
    owned: dict[str, list[RewardCard]] = field(default_factory=dict)
    in_play: list[str] = field(default_factory=list)
    turn: str | None = None
    last_bid: Bid | None = None
    challenge: Challenge | None = None
    reward: RewardTurn | None = None
    dice_wait: DiceWait | None = None
    setup_queue: list[str] = field(default_factory=list)
    setup_totals: dict[str, int] = field(default_factory=dict)
    winner: str | None = None

    @property
    def host_dice(self) -> bool:
        return self.rules["dice"] == "host"

    @property
    def host_deal(self) -> bool:
        return self.deal == "host"


def _reward_turn(s: State) -> RewardTurn:
    """The reward phase under way: set from a bid phase's last player in to the round's end."""
    return required(s.reward, "reward turn")


def _turn(s: State) -> str:
    """Whose bid it is: set throughout the bid phase."""
    return required(s.turn, "bidder")


# --------------------------------------------------------------------------- words


def family_words(s: State, family: str, count: int) -> str:
    """'1 shark', '9 clovers', '4 lightning': the deck file says each family's plural."""
    return f"{count} {family if count == 1 else family_plural(s, family)}"


def bid_words(s: State, bid: Bid) -> str:
    return family_words(s, bid.family, bid.count)


def family_plural(s: State, family: str) -> str:
    return s.cards.bid.family(family).plural


def card_words(card: RewardCard) -> str:
    """How a reward card is read out: '6', 'steal', 'draw two'."""
    return str(card) if isinstance(card, int) else BONUS_NAMES[card]


def card_name(card: RewardCard) -> str:
    """'the 6', 'the steal card': a reward card in a sentence."""
    return f"the {card}" if isinstance(card, int) else f"the {BONUS_NAMES[card]} card"


def cards_words(cards: list[RewardCard]) -> str:
    return join_names([card_words(c) for c in cards]) if cards else "nothing"


def hand_words(hand: list[BidCard]) -> str:
    return join_names([f"{c.family} {c.value}" for c in hand])


def plural(count: int, noun: str) -> str:
    """'1 reward', '3 rewards'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def is_are(names: list[str]) -> str:
    return "is" if len(names) == 1 else "are"


# --------------------------------------------------------------------------- setup


def setup(options: GameOptions, decks: Decks) -> tuple[State, list[Event]]:
    """Shuffle, reveal 3 rewards, deal, then the setup roll picks the first bidder."""
    cards = _deck_data(decks)
    rules = check_rules(options.rules, cards)
    players = _checked_players(options)
    deal = options.deal or DEALS[0]
    if deal not in DEALS:
        raise RuleError(f"1% can be dealt by the host or at the table, not {deal!r}.")
    if (options.mode or MODES[0]) not in MODES:
        raise RuleError(f"1% has only the basic mode, not {options.mode!r}.")
    s = State(players=players, deal=deal, rules=rules, rng=new_rng(options.seed), cards=cards)
    s.bid_deck = _bid_deck(cards.bid)
    s.rng.shuffle(s.bid_deck)
    s.reward_deck = _reward_deck(rules, cards.reward)
    s.rng.shuffle(s.reward_deck)
    s.owned = {p: [] for p in players}
    s.in_play = list(players)
    events: list[Event] = [say("Welcome to 1%! Bluff well.")]
    events += _refill_row(s)
    events += _deal_hands(s)
    events += _start_setup_roll(s)
    return s, events


def _checked_players(options: GameOptions) -> tuple[str, ...]:
    players = tuple(options.players)
    check_player_count(TITLE, options.mode or MODES[0], players, MIN_PLAYERS, MAX_PLAYERS)
    if any(not p for p in players) or len(set(players)) != len(players):
        raise RuleError("Every player needs a different name.")
    return players


def _deck_data(decks: Decks) -> BidRewardDecks:
    """The 1% decks the session loaded, or the shipped file's when it loaded none."""
    return decks.bid_reward or default_bid_reward_decks()


def _deck_rule_defaults(reward: RewardDeck) -> DeckCounts:
    """The reward count rules' defaults: the deck file's counts."""
    return {
        "winning_copies": reward.winning_copies,
        "steal_cards": reward.steal,
        "draw_two_cards": reward.draw_two,
        "reroll_cards": reward.reroll,
    }


def check_rules(given: JsonObject, cards: BidRewardDecks | None = None) -> Rules:
    """The defaults (the deck's counts among them; the shipped deck's unless given)
    overridden by the given rules, then checked."""
    cards = cards or default_bid_reward_decks()
    defaults: Rules = {**RULE_DEFAULTS, **_deck_rule_defaults(cards.reward)}
    rules = merge_rules(TITLE, defaults, given)
    for key, allowed in CHOICE_RULES.items():
        if rules[key] not in allowed:
            raise RuleError(f"The {key} rule must be {' or '.join(allowed)}.")
    for count in INT_RULES:
        if rules[count] < 0:
            raise RuleError(f"The {count} rule cannot be negative.")
    for least_one in ("rewards", "max_cards", "hand_size"):
        if rules[least_one] < 1:
            raise RuleError(f"The {least_one} rule must be at least 1.")
    if rules["hand_size"] * MAX_PLAYERS > cards.bid.size:
        raise RuleError(f"The hand size is too big for the {cards.bid.size} bid cards.")
    return rules


def _bid_deck(bid: BidDeck) -> list[BidCard]:
    """Every family's card of every value, `copies` times, in file order (then shuffled)."""
    return [BidCard(family.name, value) for family in bid.families for value in bid.values for _ in range(bid.copies)]


def _reward_deck(rules: Rules, reward: RewardDeck) -> list[RewardCard]:
    """The file's winning numbers and bonus kinds, in the counts the rules settled on."""
    deck: list[RewardCard] = [n for n in reward.winning_numbers for _ in range(rules["winning_copies"])]
    counts = {"steal": rules["steal_cards"], "draw_two": rules["draw_two_cards"], "reroll": rules["reroll_cards"]}
    for bonus in BONUSES:
        deck += [bonus] * counts[bonus]
    return deck


# --------------------------------------------------------------------------- prompts


def prompt(state: State) -> Prompt | None:
    """What the host asks now; None once someone has won."""
    asks = {
        SETUP_ROLL: _setup_roll_prompt,
        BID: _bid_prompt,
        VOTE: _vote_prompt,
        TOTAL: _total_prompt,
        REWARD: _reward_prompt,
        DICE: _dice_prompt,
    }
    ask = asks.get(state.phase)
    return ask(state) if ask else None


def _bid_prompt(s: State) -> Prompt:
    player = s.turn
    families = s.cards.bid.families
    if s.last_bid is None:
        text = f"{player}, you open the bidding: say a number and a family."
        choices: tuple[str, ...] = (f"3 {families[0].plural}", f"5 {families[-1].plural}")
        last = None
    else:
        bid = s.last_bid
        text = f"{player}, {bid.bidder} bids {bid_words(s, bid)}. Raise it, or say that's false."
        middle = families[len(families) // 2]
        choices = (
            f"{bid.count + 1} {family_plural(s, bid.family)}",
            f"{bid.count + 2} {middle.plural}",
            "that's false",
        )
        last = {"count": bid.count, "family": bid.family}
    return Prompt(
        name="one-percent/bid", player=player, text=text, context={"last": last}, choices=choices, narrow=_bid_narrow(s)
    )


BID_COUNTS_OFFERED = 6
"""How many bid numbers the narrowed question offers, from the lowest allowed."""


def _bid_narrow(s: State) -> Narrow:
    """A number, then a family; after a bid the numbers and "that's false" in one question
    (so a raise is two answers, as a first bid is)."""
    families = Narrow("Which family?", tuple(Choice(f.plural, {"family": f.name}) for f in s.cards.bid.families))
    low = s.last_bid.count + 1 if s.last_bid else 1
    counts = Narrow(
        "How many?",
        tuple(
            Choice(str(n), {"intent": "bid", "count": n}, then=families) for n in range(low, low + BID_COUNTS_OFFERED)
        ),
    )
    if s.last_bid is None:
        return counts
    return Narrow(counts.question, counts.choices + (Choice("that's false", {"intent": "challenge"}, "Is it false?"),))


def _vote_prompt(s: State) -> Prompt:
    c = required(s.challenge, "challenge")
    voter = c.voters[0]
    text = (
        f"{voter}, {c.challenger} says {bid_words(s, c.bid)} from {c.bid.bidder} is false. "
        f"Do you agree with the bid, or disagree?"
    )
    return Prompt(
        name="one-percent/vote",
        player=voter,
        text=text,
        context={"last": {"count": c.bid.count, "family": c.bid.family}},
        choices=("agree", "disagree"),
        narrow=Narrow(
            "Your vote?",
            (
                Choice("agree", {"intent": "agree"}, "Do you agree?"),
                Choice("disagree", {"intent": "disagree"}, "Do you disagree?"),
            ),
        ),
    )


def _total_prompt(s: State) -> Prompt:
    c = required(s.challenge, "challenge")
    player = c.reporters[0]
    family = c.bid.family
    text = f"{player}, show your cards: how many {family_plural(s, family)} do you have in total?"
    return Prompt(
        name="one-percent/total",
        player=player,
        text=text,
        context={"family": family},
        choices=("4", "none"),
        narrow=narrow_numbers(
            "How many?", range(_largest_hand_total(s) + 1), lambda n: {"intent": "number", "value": n}
        ),
    )


def _reward_prompt(s: State) -> Prompt:
    r = _reward_turn(s)
    player = r.player
    opponents = [p for p in s.players if p != player]
    if r.left > 0:
        offer = (
            f"On offer: {cards_words(s.reward_row)}. Roll the dice or take a card."
            if s.reward_row
            else "No cards on offer: say roll."
        )
        text = f"{player}, {plural(r.left, 'reward')} to choose. {offer}"
        usable = _usable_bonuses(s)
        if usable:
            text += f" You may also use {_or_words(usable)}."
        choices = ["roll"] + [f"take {card_name(c)}" for c in s.reward_row[:2]]
    else:
        usable = _usable_bonuses(s)
        text = f"{player}, your rewards are spent. Use {_or_words(usable)}, or say done."
        choices = [f"use {BONUS_NAMES[b]}" for b in usable] + ["done"]
    name = "one-percent/reward"
    context = {"revealed": list(s.reward_row), "opponents": opponents}
    return Prompt(
        name=name,
        player=player,
        text=text,
        context=context,
        slots=grammar_slots(name, context),
        choices=tuple(choices[:4]),
        narrow=_reward_narrow(s),
    )


def _reward_narrow(s: State) -> Narrow:
    """The rewards allowed now: a roll or a card from the row while rewards are left, the
    bonuses that can be used, and done once they are spent."""
    r = _reward_turn(s)
    choices = []
    if r.left > 0:
        choices.append(Choice("roll", {"intent": "roll"}, "Roll the dice?"))
        room = len(s.owned[r.player]) < s.rules["max_cards"]
        for card in dict.fromkeys(s.reward_row):
            refused = _is_duplicate(s, r.player, card) and s.rules["duplicates"] == "refuse"
            if room and not refused:
                choices.append(Choice(card_words(card), {"intent": "take", "card": card}, f"Take {card_name(card)}?"))
    choices += [
        Choice(f"use {BONUS_NAMES[b]}", {"intent": "use", "card": b}, f"Use your {BONUS_NAMES[b]} card?")
        for b in _usable_bonuses(s)
    ]
    if r.left == 0:
        choices.append(Choice("done", {"intent": "done"}, "Are you done?"))
    return Narrow("Which reward?", tuple(choices))


def grammar_slots(prompt: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    """The live slot lists of a prompt's grammar, built from its context alone.

    The accuracy benchmark knows a recorded prompt only by its name and manifest
    context, so the grammar must not depend on anything else in the game state.
    Only one-percent/reward has one: {"opponents": [names]}, whom a steal may
    name. Families, numbers and dice are fixed grammar lists.
    """
    if prompt != "one-percent/reward":
        return {}
    return {"player": [(p, p) for p in context.get("opponents") or []]}


def _or_words(bonuses: list[str]) -> str:
    names = [f"your {BONUS_NAMES[b]}" for b in bonuses]
    return " or ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def _setup_roll_prompt(s: State) -> Prompt:
    player = s.setup_queue[0]
    return Prompt(
        name="one-percent/dice",
        player=player,
        text=f"{player}, roll both dice to see who starts. What do they show?",
        context={"purpose": "setup"},
        choices=("7 and 3", "double 0"),
        narrow=_dice_narrow(2),
    )


def _dice_prompt(s: State) -> Prompt:
    wait = required(s.dice_wait, "dice awaited")
    if wait.purpose == "reroll":
        kept = _reward_turn(s).kept_die()
        text = f"{wait.player}, keep the {kept} and roll the other die. What does it show?"
        choices: tuple[str, ...] = ("4",)
    else:
        text = f"{wait.player}, roll both dice. What do they show?"
        choices = ("7 and 3", "double 0")
    return Prompt(
        name="one-percent/dice",
        player=wait.player,
        text=text,
        context={"purpose": wait.purpose},
        choices=choices,
        narrow=_dice_narrow(1 if wait.purpose == "reroll" else 2),
    )


def _dice_narrow(dice: int) -> Narrow:
    """One die's face, then the other's."""

    def faces(shown: list[int]) -> Narrow:
        question = "The other die?" if shown else ("Which number?" if dice == 1 else "The first die?")
        return Narrow(
            question,
            tuple(
                Choice(
                    str(face),
                    {"intent": "dice", "values": shown + [face]},
                    then=faces(shown + [face]) if len(shown) + 1 < dice else None,
                )
                for face in DIE_FACES
            ),
        )

    return faces([])


# --------------------------------------------------------------------------- apply


class BidMove(Said):
    intent: Literal["bid"]
    count: int
    family: str  # shark, comet, star, lightning or clover


class ChallengeMove(Said):
    intent: Literal["challenge"]  # "that's false"


class Vote(Said):
    intent: Literal["agree", "disagree"]


class Roll(Said):
    intent: Literal["roll"]


class RewardCardMove(Said):
    """`take` a reward card from the row, `discard` one of your own: a winning number, or
    a bonus card by its kind ("steal")."""

    intent: Literal["take", "discard"]
    card: int | str


class _Use(Said):
    intent: Literal["use"]
    card: str  # the bonus card: steal, draw_two or reroll


_Steal = TypedDict("_Steal", {"from": str, "target": "int | str"}, total=False)
"""A steal's victim and the card taken (each may be left out: the host picks)."""


class Use(_Use, _Steal):
    """`use` a bonus card; a steal may name whom from and which card."""


class Done(Said):
    intent: Literal["done"]  # the reward phase ends


class _Dice(Said):
    intent: Literal["dice"]
    values: list[int]  # both dice, or one with double


class Dice(_Dice, total=False):
    double: bool  # "double 3": values [3]


class Read(Said):
    intent: Literal["read_cards", "read_rewards"]


Move = BidMove | ChallengeMove | Vote | Number | Roll | RewardCardMove | Use | Done | Dice | Read
"""Every intent 1%'s prompts hear (docs/specs/intents.md), by kind."""


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """One player's spoken action; invalid ones raise RuleError and change nothing."""
    current = prompt(state)
    if current is None:
        raise RuleError("The game is over.")
    move = cast(Move, named(action))  # by its name; each field is checked where it is used
    speaker = move.get("player", current.player)
    if speaker != current.player:
        raise RuleError(f"It's {current.player}'s turn to answer.")
    if move["intent"] == "read_cards" or move["intent"] == "read_rewards":
        return state, _inform(state, move["intent"], required(current.player, "player to answer"))
    s = evolve(state)
    handlers = {
        SETUP_ROLL: _on_setup_roll,
        BID: _on_bid_phase,
        VOTE: _on_vote,
        TOTAL: _on_total,
        REWARD: _on_reward,
        DICE: _on_dice,
    }
    events = handlers[s.phase](s, move)
    return s, events


def _inform(s: State, intent: str, player: str) -> list[Event]:
    """read_cards: the player's hand again, privately; read_rewards: the reward cards."""
    if intent == "read_cards":
        if not s.host_deal:
            raise RuleError("In a table deal your cards are in your hand.")
        if player not in s.hands:
            raise RuleError(f"{player} holds no bid cards right now.")
        return [private(player, f"Your cards: {hand_words(s.hands[player])}.")]
    offer = f"Reward cards on offer: {cards_words(s.reward_row)}." if s.reward_row else "No reward cards on offer."
    wins = sorted(_winning_numbers(s, player))
    return [
        say(
            f"{offer} {player} holds {cards_words(s.owned[player])}; "
            f"winning numbers: {join_names([str(n) for n in wins])}."
        )
    ]


HINTS = {
    SETUP_ROLL: "Say what your dice show, like 7 and 3.",
    BID: "Raise the bid with a number and a family, or say that's false.",
    VOTE: "Say agree or disagree.",
    TOTAL: "Say your total of that family, like 4, or none.",
    REWARD: "Say roll, take a card, or use a bonus card.",
    DICE: "Say what the dice show, like 7 and 3.",
}


def _intent(s: State, action: Move, *allowed: str) -> str:
    """The action's intent if this phase accepts it; else a hint of what to say."""
    intent = action.get("intent")
    if intent not in allowed:
        raise RuleError(HINTS[s.phase])
    return intent


# --- the setup roll


def _start_setup_roll(s: State) -> list[Event]:
    s.setup_queue = list(s.players)
    s.setup_totals = {}
    if not s.host_dice:
        s.phase = SETUP_ROLL
        return [say("Everyone rolls both dice: the lowest total starts.")]
    events: list[Event] = [say("Lowest roll starts.")]
    while s.setup_queue and s.phase != OVER:
        events += _record_setup_roll(s, _roll_two(s))
    return events


def _on_setup_roll(s: State, action: Move) -> list[Event]:
    _intent(s, action, "dice")
    return _record_setup_roll(s, _two_dice(action))


def _record_setup_roll(s: State, dice: tuple[int, int]) -> list[Event]:
    """The next player in the setup queue rolled `dice`; decide when all have."""
    player = s.setup_queue.pop(0)
    events = _dice_events(player, dice, s.host_dice)
    if dice == (0, 0):
        return events + _win(s, player, "a double zero on the setup roll")
    s.setup_totals[player] = sum(dice)
    if s.setup_queue:
        return events
    lowest = min(s.setup_totals.values())
    tied = [p for p in s.players if s.setup_totals.get(p) == lowest]
    if len(tied) == 1:
        return events + [say(f"{tied[0]} has the lowest roll and starts.")] + _start_bid_phase(s, tied[0])
    s.setup_queue = tied
    s.setup_totals = {}
    return events + [say(f"{join_names(tied)} tie on {lowest}: roll again.")]


# --- the bid phase


def _on_bid_phase(s: State, action: Move) -> list[Event]:
    _intent(s, action, "bid", "challenge")
    if action["intent"] != "bid":
        return _challenge(s, _turn(s))
    return _bid(s, action)


def _bid(s: State, action: BidMove) -> list[Event]:
    family = _family(s, action.get("family"))
    count = _whole_number(action.get("count"))
    if count is None or count < 1:
        raise RuleError("A bid needs a number of at least 1.")
    last = s.last_bid
    if last is not None and count <= last.count:
        raise RuleError(f"You must beat {bid_words(s, last)}: say {last.count + 1} or more.")
    bidder = _turn(s)
    s.last_bid = Bid(count, family, bidder)
    s.turn = _next_in_play(s, bidder)
    return []


def _challenge(s: State, challenger: str) -> list[Event]:
    bid = s.last_bid
    if bid is None:
        raise RuleError("There is no bid to call false yet: open with a number and a family.")
    voters = [p for p in _seat_order_after(s, challenger) if p != bid.bidder]
    s.challenge = Challenge(
        bid=bid, challenger=challenger, believers=[bid.bidder], doubters=[challenger], voters=voters
    )
    events: list[Event] = [
        sound("buzzer"),
        say(f"{challenger} says that's false! {bid.bidder} bid {bid_words(s, bid)}."),
    ]
    if voters:
        s.phase = VOTE
        return events
    return events + _reveal(s)


def _on_vote(s: State, action: Move) -> list[Event]:
    intent = _intent(s, action, "agree", "disagree")
    c = required(s.challenge, "challenge")
    voter = c.voters.pop(0)
    (c.believers if intent == "agree" else c.doubters).append(voter)
    events: list[Event] = [say(f"{voter} {'agrees' if intent == 'agree' else 'disagrees'}.")]
    if c.voters:
        return events
    return events + _reveal(s)


def _reveal(s: State) -> list[Event]:
    """Count the named family: from the hands (host deal) or ask each player (table)."""
    c = required(s.challenge, "challenge")
    if not s.host_deal:
        s.phase = TOTAL
        c.reporters = _seat_order_from(s, c.bid.bidder)
        return [say("Everyone, reveal your cards!")]
    events: list[Event] = [say("Cards on the table!")]
    for player in s.in_play:
        total = sum(card.value for card in s.hands[player] if card.family == c.bid.family)
        c.totals[player] = total
        events.append({"type": "reveal", "player": player, "card": hand_words(s.hands[player]), "value": total})
        events.append(say(f"{player} shows {hand_words(s.hands[player])}: {family_words(s, c.bid.family, total)}."))
    return events + _settle(s)


def _on_total(s: State, action: Move) -> list[Event]:
    _intent(s, action, "number")
    total = _whole_number(action.get("value"))
    most = _largest_hand_total(s)
    if total is None or not 0 <= total <= most:
        raise RuleError(f"A hand of {s.rules['hand_size']} holds 0 to {most} of a family.")
    c = required(s.challenge, "challenge")
    player = c.reporters.pop(0)
    c.totals[player] = total
    events: list[Event] = [{"type": "reveal", "player": player, "value": total}]
    if c.reporters:
        return events
    return events + _settle(s)


def _largest_hand_total(s: State) -> int:
    bid = s.cards.bid
    values = sorted([v for v in bid.values for _ in range(bid.copies)], reverse=True)
    return sum(values[: s.rules["hand_size"]])


def _settle(s: State) -> list[Event]:
    """Who was right? The wrong side is out; the next phase or the rewards follow."""
    c = required(s.challenge, "challenge")
    found = sum(c.totals.values())
    holds = found >= c.bid.count
    verdict = "the bid holds" if holds else "the bid was false"
    losers = [p for p in s.players if p in (c.doubters if holds else c.believers)]
    s.in_play = [p for p in s.in_play if p not in losers]
    events: list[Event] = [
        sound("correct"),
        say(
            f"{family_words(s, c.bid.family, found)} in all: {verdict}! "
            f"{join_names(losers)} {is_are(losers)} out of play."
        ),
    ]
    opener = c.bid.bidder if holds else c.challenger
    s.challenge = None
    s.last_bid = None
    _discard_hands(s)
    if len(s.in_play) == 1:
        return events + _start_reward_phase(s, s.in_play[0])
    if s.host_deal:
        events.append(say(f"{join_names(s.in_play)}: new cards for you."))
    else:
        events.append(say(f"{join_names(s.in_play)}: discard your cards and draw {s.rules['hand_size']} new ones."))
    events += _deal_hands(s)
    return events + _start_bid_phase(s, _first_in_play_from(s, opener))


def _start_bid_phase(s: State, opener: str) -> list[Event]:
    s.phase = BID
    s.turn = opener
    s.last_bid = None
    return []


# --- cards and seats


def _deal_hands(s: State) -> list[Event]:
    """Host deal: a new hand for each player in play, each told privately."""
    if not s.host_deal:
        return []
    events: list[Event] = []
    for player in s.in_play:
        s.hands[player] = [_draw_bid_card(s, events) for _ in range(s.rules["hand_size"])]
        events.append(private(player, f"Your cards: {hand_words(s.hands[player])}."))
    return events


def _draw_bid_card(s: State, events: list[Event]) -> BidCard:
    if not s.bid_deck:
        s.bid_deck, s.bid_discard = s.bid_discard, []
        s.rng.shuffle(s.bid_deck)
        events.append(say("The bid pile is empty: I shuffle the discards."))
    return s.bid_deck.pop()


def _discard_hands(s: State) -> None:
    for hand in s.hands.values():
        s.bid_discard += hand
    s.hands = {}


def _seat_order_from(s: State, player: str) -> list[str]:
    """Players in play in seat order, starting with `player` (who must be in play)."""
    i = s.players.index(player)
    seats = s.players[i:] + s.players[:i]
    return [p for p in seats if p in s.in_play]


def _seat_order_after(s: State, player: str) -> list[str]:
    return [p for p in _seat_order_from(s, player) if p != player]


def _others_after(s: State, player: str) -> list[str]:
    """Every other player, in or out of play, in seat order after `player`."""
    i = s.players.index(player)
    return list(s.players[i + 1 :] + s.players[:i])


def _next_in_play(s: State, player: str) -> str:
    return _seat_order_after(s, player)[0]


def _first_in_play_from(s: State, player: str) -> str:
    """`player` if still in play, else the next player in play after them."""
    i = s.players.index(player)
    seats = s.players[i:] + s.players[:i]
    return next(p for p in seats if p in s.in_play)


# --- the reward phase


def _start_reward_phase(s: State, player: str) -> list[Event]:
    s.phase = REWARD
    s.turn = player
    s.reward = RewardTurn(player=player, left=s.rules["rewards"])
    events: list[Event] = [
        sound("win_card"),
        say(f"{player} is the last one in play and earns {plural(s.rules['rewards'], 'reward')}!"),
    ]
    wins = _winning_numbers(s, player)
    if len(wins) > 1:
        numbers = join_names([str(n) for n in sorted(wins)])
        events.append(say(f"{player}'s winning numbers: {numbers}."))
    return events


def _on_reward(s: State, action: Move) -> list[Event]:
    intent = _intent(s, action, "roll", "take", "use", "discard", "done")
    r = _reward_turn(s)
    if intent != "use" or action.get("card") != "reroll":
        r.reroll_die = None  # a reroll must come straight after its roll
    if action["intent"] == "use":
        events = _use(s, action)
    else:
        handlers = {"roll": _roll_reward, "take": _take, "discard": _discard, "done": _done}
        events = handlers[intent](s, action)
    if s.phase == REWARD:
        events += _end_round_if_finished(s)
    return events


def _roll_reward(s: State, action: Move) -> list[Event]:
    r = _reward_turn(s)
    if r.left < 1:
        raise RuleError("Your rewards are spent: use a bonus card or say done.")
    r.left -= 1
    if not s.host_dice:
        s.phase = DICE
        s.dice_wait = DiceWait("reward", r.player)
        return []
    return _judge_roll(s, _roll_two(s))


def _take(s: State, action: Move) -> list[Event]:
    r = _reward_turn(s)
    card = _reward_card(action.get("card"))
    if r.left < 1:
        raise RuleError("Your rewards are spent: use a bonus card or say done.")
    if card not in s.reward_row:
        raise RuleError(f"There is no {card_words(card)} on offer. On offer: {cards_words(s.reward_row)}.")
    _check_room(s, r.player, 1)
    warning = _duplicate_check(s, r.player, card)
    r.left -= 1
    s.reward_row.remove(card)
    s.owned[r.player].append(card)
    events: list[Event] = [sound("win_card"), say(f"{r.player} takes {card_name(card)}.")]
    return events + warning


def _use(s: State, action: Use) -> list[Event]:
    card = _reward_card(action.get("card"))
    player = _reward_turn(s).player
    if card not in BONUSES:
        raise RuleError("Only bonus cards are used: steal, draw two or reroll.")
    if card not in s.owned[player]:
        raise RuleError(f"You have no {BONUS_NAMES[card]} card.")
    uses = {"steal": _use_steal, "draw_two": _use_draw_two, "reroll": _use_reroll}
    return uses[card](s, action)


def _spend_bonus(s: State, player: str, bonus: str) -> None:
    s.owned[player].remove(bonus)
    s.reward_discard.append(bonus)


def _use_steal(s: State, action: Use) -> list[Event]:
    thief = _reward_turn(s).player
    target = action.get("target")
    target = None if target is None else _reward_card(target)
    victim = _steal_victim(s, thief, action.get("from"), target)
    if target is None:
        target = _best_card_to_steal(s, thief, s.owned[victim])
    elif target not in s.owned[victim]:
        raise RuleError(f"{victim} has no {card_words(target)}. {victim} holds {cards_words(s.owned[victim])}.")
    warning = _duplicate_check(s, thief, target)
    _spend_bonus(s, thief, "steal")
    s.owned[victim].remove(target)
    s.owned[thief].append(target)
    return [sound("win_card"), say(f"{thief} steals {card_name(target)} from {victim}!"), *warning]


def _steal_victim(s: State, thief: str, named: str | None, target: RewardCard | None) -> str:
    """The opponent named, or the one the thief gains most from (seat order on ties)."""
    opponents = _others_after(s, thief)
    if named is not None:
        if named not in opponents:
            raise RuleError(f"Steal from one of your opponents: {join_names(opponents)}.")
        if not s.owned[named]:
            raise RuleError(f"{named} has no reward cards to steal.")
        return named
    holders = [p for p in opponents if s.owned[p] and (target is None or target in s.owned[p])]
    if not holders:
        what = "reward cards" if target is None else f"a {card_words(target)}"
        raise RuleError(f"Nobody has {what} to steal.")
    mine = _winning_numbers(s, thief)

    def gain(p: str) -> int:
        return len({c for c in s.owned[p] if isinstance(c, int)} - mine)

    return max(holders, key=lambda p: (gain(p), -holders.index(p)))


def _best_card_to_steal(s: State, thief: str, cards: list[RewardCard]) -> RewardCard:
    mine = _winning_numbers(s, thief)
    new_numbers = sorted(c for c in cards if isinstance(c, int) and c not in mine)
    if new_numbers:
        return new_numbers[0]
    bonuses = [b for b in ("reroll", "draw_two", "steal") if b in cards]
    if bonuses:
        return bonuses[0]
    return sorted(cards)[0]


def _use_draw_two(s: State, action: Use) -> list[Event]:
    player = _reward_turn(s).player
    if not s.reward_deck:
        raise RuleError("The reward deck is empty: nothing to draw.")
    drawn_count = min(2, len(s.reward_deck))
    _check_room(s, player, drawn_count - 1)
    _spend_bonus(s, player, "draw_two")
    drawn = [s.reward_deck.pop() for _ in range(drawn_count)]
    drawn_words = join_names([card_name(c) for c in drawn])
    events: list[Event] = [
        sound("win_card"),
        {"type": "reveal", "player": player, "card": "reward deck", "value": [card_name(c) for c in drawn]},
        say(f"{player} draws {drawn_words}."),
    ]
    for card in drawn:
        if _is_duplicate(s, player, card) and s.rules["duplicates"] == "refuse":
            s.reward_discard.append(card)
            events.append(say(f"{player} already has a {card}: it is discarded."))
            continue
        events += _duplicate_check(s, player, card)
        s.owned[player].append(card)
    return events


def _use_reroll(s: State, action: Use) -> list[Event]:
    r = _reward_turn(s)
    if r.reroll_die is None:
        raise RuleError("A reroll is only for straight after a roll with exactly one winning die.")
    _spend_bonus(s, r.player, "reroll")
    if not s.host_dice:
        s.phase = DICE
        s.dice_wait = DiceWait("reroll", r.player)
        return []
    return _judge_reroll(s, s.rng.randint(0, 9))


def _discard(s: State, action: Move) -> list[Event]:
    player = _reward_turn(s).player
    card = _reward_card(action.get("card"))
    if card not in s.owned[player]:
        raise RuleError(f"You have no {card_words(card)}. You hold {cards_words(s.owned[player])}.")
    s.owned[player].remove(card)
    s.reward_discard.append(card)
    return [say(f"{player} discards {card_name(card)}.")]


def _done(s: State, action: Move) -> list[Event]:
    left = _reward_turn(s).left
    if left > 0:
        raise RuleError(f"You still have {plural(left, 'reward')} to choose: roll or take a card.")
    return _end_round(s)


def _end_round_if_finished(s: State) -> list[Event]:
    """Rewards spent and no bonus worth offering: the round ends by itself."""
    if _reward_turn(s).left == 0 and not _usable_bonuses(s):
        return _end_round(s)
    return []


def _usable_bonuses(s: State) -> list[str]:
    """The bonuses the reward player could use right now."""
    r = _reward_turn(s)
    mine = s.owned[r.player]
    usable = []
    if "steal" in mine and any(s.owned[p] for p in s.players if p != r.player):
        usable.append("steal")
    if "draw_two" in mine and s.reward_deck and len(mine) - 1 + min(2, len(s.reward_deck)) <= s.rules["max_cards"]:
        usable.append("draw_two")
    if "reroll" in mine and r.reroll_die is not None:
        usable.append("reroll")
    return usable


def _check_room(s: State, player: str, extra: int) -> None:
    limit = s.rules["max_cards"]
    if len(s.owned[player]) + extra > limit:
        raise RuleError(
            f"You may hold {limit} reward cards at most: use or discard one first, for example: discard the 4."
        )


def _is_duplicate(s: State, player: str, card: RewardCard) -> bool:
    return isinstance(card, int) and card in s.owned[player]


def _duplicate_check(s: State, player: str, card: RewardCard) -> list[Event]:
    """Refuse a second copy of a winning number, or warn that it adds nothing."""
    if not _is_duplicate(s, player, card):
        return []
    if s.rules["duplicates"] == "refuse":
        raise RuleError(f"You already have a {card}: a second one adds nothing.")
    return [say(f"Note: {player} already had a {card}, so this one adds nothing.")]


def _reward_card(value: Any) -> RewardCard:
    """A card as said: 6, "6" or a bonus name."""
    number = _whole_number(value)
    if number is not None and 1 <= number <= 9:
        return number
    if value in BONUSES:
        return value
    raise RuleError("Name a card: a number from 1 to 9, steal, draw two or reroll.")


# --- dice


def _on_dice(s: State, action: Move) -> list[Event]:
    _intent(s, action, "dice")
    wait = required(s.dice_wait, "dice awaited")
    s.dice_wait = None
    s.phase = REWARD
    if wait.purpose == "reroll":
        events = _judge_reroll(s, _rerolled_die(s, action))
    else:
        events = _judge_roll(s, _two_dice(action))
    if s.phase == REWARD:
        events += _end_round_if_finished(s)
    return events


def _two_dice(action: Move) -> tuple[int, int]:
    values = _dice_values(action)
    if len(values) != 2:
        raise RuleError("Say both dice, like 7 and 3.")
    return values[0], values[1]


def _rerolled_die(s: State, action: Move) -> int:
    """The new die: said alone, or with the kept die ("3 and 8" keeping the 3)."""
    values = _dice_values(action)
    kept = _reward_turn(s).kept_die()
    if len(values) == 1:
        return values[0]
    if len(values) == 2 and kept in values:
        rest = list(values)
        rest.remove(kept)
        return rest[0]
    raise RuleError("Say the number on the die you rolled again, like 4.")


def _dice_values(action: Move) -> list[int]:
    raw = action.get("values")
    if not isinstance(raw, (list, tuple)):
        raise RuleError("Say what the dice show, like 7 and 3.")
    said = [_whole_number(v) for v in raw]
    values = [v for v in said if v is not None and v in DIE_FACES]
    if len(values) != len(said):
        raise RuleError("Each die shows a number from 0 to 9.")
    if action.get("double") and len(values) == 1:
        values = values * 2
    return values


def _roll_two(s: State) -> tuple[int, int]:
    return s.rng.randint(0, 9), s.rng.randint(0, 9)


def _dice_events(player: str, dice: tuple[int, int], rolled_by_host: bool) -> list[Event]:
    events: list[Event] = [sound("dice")] if rolled_by_host else []
    return events + [_rolled(player, list(dice)), say(f"{player}: {dice[0]} and {dice[1]}.")]


def _rolled(player: str, dice: list[int]) -> Event:
    """A roll is chance made known: the move that rolled cannot be taken back to roll
    again (host.engine.crosses_reveal)."""
    return {"type": "reveal", "player": player, "card": "dice", "value": dice}


def _winning_numbers(s: State, player: str) -> set[int]:
    """0 always wins; so does every winning number card the player owns."""
    return {0} | {c for c in s.owned[player] if isinstance(c, int)}


def _judge_roll(s: State, dice: tuple[int, int]) -> list[Event]:
    """A reward roll: both dice winning wins the game; one lets a reroll card help."""
    r = _reward_turn(s)
    events = _dice_events(r.player, dice, s.host_dice)
    return events + _judge(s, dice)


def _judge_reroll(s: State, new_value: int) -> list[Event]:
    r = _reward_turn(s)
    dice = list(required(r.dice, "roll"))
    rerolled = required(r.reroll_die, "die to reroll")
    old = dice[rerolled]
    dice[rerolled] = new_value
    events: list[Event] = [sound("dice")] if s.host_dice else []
    events += [_rolled(r.player, [new_value]), say(f"{r.player} rerolls the {old}: {new_value}.")]
    return events + _judge(s, (dice[0], dice[1]))


def _judge(s: State, dice: tuple[int, int]) -> list[Event]:
    r = _reward_turn(s)
    wins = _winning_numbers(s, r.player)
    winning = [d in wins for d in dice]
    r.dice = dice
    r.reroll_die = None
    if all(winning):
        return _win(s, r.player, "a winning roll")
    if any(winning):
        r.reroll_die = winning.index(False)
        hint = " A reroll card could save it." if "reroll" in s.owned[r.player] else ""
        return [sound("wrong"), say(f"One winning die, the {dice[r.reroll_die]} misses.{hint}")]
    return [sound("wrong"), say("No winning die.")]


def _win(s: State, player: str, how: str) -> list[Event]:
    s.phase = OVER
    s.winner = player
    s.turn = None
    s.setup_queue = []
    final = {p: int(p == player) for p in s.players}
    return [
        sound("game_over"),
        say(f"{player} wins the game with {how}!"),
        score(player, 1, 1, how),
        game_over(final, [player]),
    ]


# --- the end of a round


def _end_round(s: State) -> list[Event]:
    """Nobody won: refill the row, everyone back in, the reward player opens."""
    opener = _reward_turn(s).player
    events: list[Event] = [say(f"No winning roll this time. Round {s.round} is over: everyone is back in.")]
    s.reward = None
    s.round += 1
    s.in_play = list(s.players)
    _discard_hands(s)
    s.bid_deck += s.bid_discard
    s.bid_discard = []
    s.rng.shuffle(s.bid_deck)
    events += _refill_row(s)
    if not s.host_deal:
        events.append(say(f"Shuffle all the bid cards and deal {s.rules['hand_size']} to everyone."))
    events += _deal_hands(s)
    events.append(say(f"Round {s.round}: {opener} opens the bidding."))
    return events + _start_bid_phase(s, opener)


def _refill_row(s: State) -> list[Event]:
    added = [s.reward_deck.pop() for _ in range(min(ROW_SIZE - len(s.reward_row), len(s.reward_deck)))]
    s.reward_row += added
    if not s.reward_row:
        return [say("The reward cards are all gone: from now on, rewards are dice rolls.")]
    shown: list[Event] = (
        [{"type": "reveal", "card": "reward deck", "value": [card_name(c) for c in added]}] if added else []
    )
    return shown + [say(f"Reward cards on offer: {cards_words(s.reward_row)}.")]


# --------------------------------------------------------------------------- scores


def table_text(state: State) -> str:
    """What lies face up ("read the table"): the bid standing (and a challenge's sides),
    the reward cards on offer, the last roll, and who is in and holds which reward cards."""
    s = state
    parts = []
    if s.challenge is not None:
        c = s.challenge
        parts.append(
            f"{c.challenger} says {c.bid.bidder}'s {bid_words(s, c.bid)} is false. "
            f"With the bid: {join_names(c.believers) or 'nobody yet'}; "
            f"against it: {join_names(c.doubters) or 'nobody yet'}."
        )
    elif s.last_bid is not None:
        parts.append(f"The bid: {bid_words(s, s.last_bid)}, by {s.last_bid.bidder}.")
    parts.append(
        f"Reward cards on offer: {cards_words(s.reward_row)}." if s.reward_row else "No reward cards on offer."
    )
    if s.reward is not None and s.reward.dice is not None:
        parts.append(f"{s.reward.player}'s last roll: {s.reward.dice[0]} and {s.reward.dice[1]}.")
    return " ".join(parts + [scores(s)])


def scores(state: State) -> str:
    """Who holds which reward cards, who is still in, and who has won."""
    s = state
    if s.winner is not None:
        head = f"{s.winner} has won the game."
    else:
        head = f"Round {s.round}. In play: {join_names(s.in_play)}."
    holdings = []
    for player in s.players:
        cards = s.owned[player]
        holdings.append(f"{player} holds {cards_words(cards)}." if cards else f"{player} has no reward cards.")
    return " ".join([head] + holdings)


def _family(s: State, value: Any) -> str:
    """A family of the deck as said; its plural ("clovers", or just an added s) too."""
    names = s.cards.bid.family_names
    if isinstance(value, str):
        word = value.strip().lower()
        for family in s.cards.bid.families:
            if word in (family.name, family.plural):
                return family.name
        if word.endswith("s") and word[:-1] in names:
            return word[:-1]
    raise RuleError(f"Name a family: {join_names(list(names))}.")


def _whole_number(value: Any) -> int | None:
    """An int from an int or digit text; None for anything else (bools included)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


# --------------------------------------------------------------------------- the phone page


def hand_view(state: State, player: str) -> HandView | None:
    """`player`'s own bid cards and reward cards for their phone page (host deal only).

    Out-of-play players hold no bid cards until the round ends; the page says so.
    The bid on the table and the player's rewards are public, shown as reminders.
    """
    s = state
    if not s.host_deal or player not in s.players:
        return None
    hand = s.hands.get(player, [])
    cards = tuple(CardView(label=f"{c.family} {c.value}", detail=f"card {i}") for i, c in enumerate(hand, start=1))
    facts: list[str] = []
    if s.phase == OVER:
        facts.append("The game is over.")
    elif player not in s.in_play:
        facts.append("You are out of play until the round ends.")
    if s.last_bid is not None:
        facts.append(f"The bid: {bid_words(s, s.last_bid)}, by {s.last_bid.bidder}.")
    owned = s.owned.get(player, [])
    facts.append(f"Your reward cards: {cards_words(owned)}.")
    wins = sorted(_winning_numbers(s, player))
    if wins:
        facts.append(f"Your winning numbers: {join_names([str(n) for n in wins])}.")
    spoken = f"Your cards: {hand_words(hand)}." if hand else "You hold no bid cards now."
    return HandView(heading=f"Your {plural(len(hand), 'bid card')}", cards=cards, spoken=spoken, facts=tuple(facts))


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
    hidden_hands=lambda options: options.deal == "host",
    table_text=table_text,
    check_rules=check_rules,
)
