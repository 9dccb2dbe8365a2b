"""Centurion: a two-player card race to make the running count exactly 100.

How a deal goes. Each player holds seven cards. Starting with the player who did
not deal, the two take turns laying one card on a shared pile; every card adds its
value (face value times suit value, jokers 0) to a running count. The player whose
card makes the count exactly 100, or any higher multiple of ten once 100 is passed,
wins the deal and scores one point per card on the pile, minus one for every ten
above 100. If all fourteen cards go down without such a stop, nobody scores and the
next deal's score is doubled (then trebled, and so on until a deal is won).

Modes: "pvp" (two people) and "vs-host" (one person against the host, whose moves
are made inside `apply` straight after the person's and announced). Deals: "host"
(the host shuffles and deals; hands go to the players' private pages) and "table"
(pvp only: two people play a real pack and say each card; the host checks that no
card comes up twice and keeps the count).

Rules choices
-------------
- The pack comes from decks/cards.yaml (format: docs/decks.md; another file with
  --card-deck): the ranks, ace 1 to king 13, with how the host says each; the
  suits and their values; the joker counts allowed and the default.
- Suit values (the file's open choice): clubs 1, diamonds 2, hearts 3, spades 4.
  Rule "suit_values" changes them for one game, as {"clubs": 4, ...} or four
  numbers in the file's suit order ("4,3,2,1"); its default is the file's values.
- Jokers: rule "jokers" is a count the file allows (0, 2 or 4), by default the
  file's (0); a joker is worth 0 and may be played at any turn, like any other card.
- Who deals first is drawn with the game's random generator; the deal then
  alternates, and the player who did not deal always leads.
- Past 100 there is no bust: the count goes on until it lands on a multiple of
  ten or the cards run out.
- Deal score = cards on the pile minus one per ten above 100, never below 0,
  times the multiplier (1 + the number of scoreless deals just before it). A stop
  worth 0 still ends the deal and resets the multiplier.
- Game end, rule "pool": 0 plays to rule "target" points (first to reach it wins;
  only one player scores per deal, so there is no tie). A pool of N counters
  (21 or 31 in the rulebook) instead: the deal's winner takes one counter per
  point; if the deal is worth more than the pool holds, they take what is left.
  The game ends when the pool is empty and the most counters win (a tie, only
  possible with an even pool, is shared).
- Rule "highest_first": each player's first card of a deal must be one of their
  highest-valued cards. The host checks it in host deal; in table deal it can only
  remind the players.
- Rule "joker_at_multiple" (house rule, off by default): when a card makes a stop,
  the other player may lay a joker on it. The count stays put, the joker counts as
  one more card on the pile, and the joker's player takes the deal and its score;
  the first player may answer with a joker of their own, and so on. Off: the deal
  ends the moment a stop is made and no joker can be added.
  The question is the prompt centurion/joker_steal: play_card with joker (or
  "yes") lays the joker, "pass" (or "no") lets the stop stand. In pvp the host
  asks whenever the stop's maker cannot see where every unplayed joker is (so
  the question gives nothing away); in vs-host only when the person really holds
  one; the host itself always steals when it can.
- Rule "read_hand" (vs-host, host deal): the person hears their cards with the
  prompt at their first turn of each deal ("first", the default; by name, their
  values on request), at every turn with their values ("full", the behaviour
  before 2026-12), or never unasked ("off"). "read my cards" reads them with their
  values at any time (aloud in vs-host, privately in pvp).
- Rule "replenish" (the rulebook's alternative): played cards leave the game and
  both hands are topped up to seven from the stock after each deal (next
  non-dealer first). When the stock cannot fill both hands, rule "stock_out"
  decides: "end" (default, as the rulebook says) finishes the game, most points
  (or counters) winning, ties shared; "reshuffle" gathers the whole pack for a
  fresh deal of seven each and plays on.
- In table deal a card counts as "played twice" if it already came up this deal
  (or, with "replenish", since the pack was last gathered and shuffled); the host
  tracks how many cards each hand holds from the seven dealt.
- Refusals that would tell a hand (pvp, host deal): "You don't hold the ace of
  clubs", "Which king? Say its suit as well." (two kings held), the first-card rule
  (the card is held) and "You don't hold a joker" would tell whoever said the card
  what the hand holds or lacks, and by voice the host cannot tell who spoke. So to a
  spoken card they get what any reply the host could not read gets ("Sorry?", and
  its narrowed questions by place in the hand after the second), and the reason goes
  to the player's phone page. Typed (or pressed on the page), the player is known
  and hears the reason.
- In vs-host the host is a player called "Host" (or "Robo" if the person is
  called Host). It sees only its own hand and the played cards: it makes a stop
  whenever it can, otherwise it avoids counts the other player could stop on.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

from host.contract import Choice, Intent, JsonObject, Narrow, Prompt
from host.decks import PACK_FILE, DeckEntry, Decks, Pack, default_pack
from host.engine import (
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
    new_rng,
    private,
    required,
    say,
    score,
    sound,
)
from host.moves import No, Said, Yes, named
from host.rules import convert_rule, merge_rules
from host.unchanging import Unchanging
from host.views import CardView, HandView

ID = "centurion"
TITLE = "Centurion"
ORDER = 5
DECK = DeckEntry("pack", PACK_FILE)
MODES = ("pvp", "vs-host")
SOLO_MODE = "vs-host"  # one person plays against the host
DEALS = ("host", "table")
MIN_PLAYERS = 1
MAX_PLAYERS = 2


class Rules(TypedDict):
    """The game's own rules (GameOptions.rules), as check_rules gives them."""

    suit_values: dict[str, int]
    jokers: int
    target: int
    pool: int
    highest_first: bool
    joker_at_multiple: bool
    replenish: bool
    stock_out: str
    read_hand: str


RULE_DEFAULTS: Rules = {
    # The game's defaults for these two are the pack file's (these are the shipped
    # decks/cards.yaml's, for docs/rules.md).
    "suit_values": {"clubs": 1, "diamonds": 2, "hearts": 3, "spades": 4},
    "jokers": 0,  # jokers in the pack: a count the file allows
    "target": 21,  # points to win (when no pool is used)
    "pool": 0,  # 0: play to target; N: a pool of N counters
    "highest_first": False,  # first card of each hand must be its highest
    "joker_at_multiple": False,  # a joker may be laid on a stop to steal it
    "replenish": False,  # top hands up to seven from the stock
    "stock_out": "end",  # with replenish: "end" (the rulebook) or "reshuffle"
    "read_hand": "first",  # vs-host: the person's cards read at "first" | "full" | "off"
}
INFO_INTENTS = frozenset({"read_cards"})
"""Intents that only tell something: the session does not journal them."""

RULES_SUMMARY = (
    "Centurion is for two. Each of you gets seven cards. A card is worth its face "
    "value, ace 1 up to king 13, times its suit: clubs 1, diamonds 2, hearts 3, "
    "spades 4, so the king of spades is worth 52. Take turns laying a card and I "
    "keep the running count. Whoever brings the count to exactly 100, or past 100 to "
    "110, 120 and so on, wins the deal: one point per card played, minus one for "
    "each ten above 100. If all fourteen cards go down without that, nobody scores "
    "and the next deal counts double. To play, just name your card, like queen of "
    "hearts."
)

HAND_SIZE = 7
STOP = 100
NEAR = 80  # from this count on the host says how far to 100
COMPUTER_NAMES = ("Host", "Robo")
JOKER_KEEP_BONUS = 0.15  # how much the host prefers to keep a joker for stealing
MULTIPLIER_WORDS = {2: "doubled", 3: "trebled", 4: "quadrupled"}


# ---------------------------------------------------------------- cards


@dataclass(frozen=True, order=True)
class Card(Unchanging):
    """One playing card: its rank's face value and its suit; rank 0 with no suit is a joker.

    How a card is said depends on the pack file: see `card_name`.
    """

    rank: int
    suit: str | None = None

    @property
    def is_joker(self) -> bool:
        return self.rank == 0


JOKER = Card(0, None)


def card_value(card: Card, suit_values: dict[str, int]) -> int:
    """Face value times suit value; a joker is worth nothing."""
    if card.is_joker:
        return 0
    return card.rank * suit_values[required(card.suit, "suit")]


def card_name(card: Card, pack: Pack) -> str:
    """As spoken, with the pack's rank names: 'queen of hearts', '7 of clubs', 'joker'."""
    if card.is_joker:
        return "joker"
    return f"{pack.spoken(card.rank)} of {card.suit}"


def full_pack(jokers: int, pack: Pack | None = None) -> list[Card]:
    """The pack's 52 cards (the shipped one by default) plus the agreed jokers, in a
    fixed order: suit by suit as in the file, ace to king (shuffle it after)."""
    pack = pack or default_pack()
    cards = [Card(rank.value, suit.name) for suit in pack.suits for rank in pack.ranks]
    return cards + [JOKER] * jokers


def is_stop(count: int) -> bool:
    """A count that ends the deal: exactly 100 or a higher multiple of ten."""
    return count >= STOP and count % 10 == 0


def deal_points(cards_played: int, count: int) -> int:
    """Points for making `count` with the pile `cards_played` high (before multiplier)."""
    tens_over = (count - STOP) // 10
    return max(0, cards_played - tens_over)


# ---------------------------------------------------------------- state


@dataclass
class State:
    """The whole game; `apply` works on a deep copy of it."""

    players: tuple[str, str]  # seat 0 and seat 1
    computer: str | None  # the seat name played by the host (vs-host)
    mode: str
    deal: str  # "host" or "table"
    rules: Rules
    rng: random.Random
    pack: Pack  # the pack file: rank names, suits, jokers allowed
    dealer: int = 0
    deal_number: int = 0
    hands: list[list[Card]] = field(default_factory=lambda: [[], []])  # host deal only
    cards_left: list[int] = field(default_factory=lambda: [0, 0])  # both deals
    stock: list[Card] = field(default_factory=list)  # host deal only
    stock_size: int = 0  # both deals
    played: list[tuple[int, Card]] = field(default_factory=list)  # this deal
    out_of_play: list[Card] = field(default_factory=list)  # replenish only
    count: int = 0
    turn: int = 0
    played_first: list[bool] = field(default_factory=lambda: [False, False])
    multiplier: int = 1
    points: list[int] = field(default_factory=lambda: [0, 0])  # points or counters
    pool_left: int = 0
    phase: str = "play"  # "play", "steal" (joker offer) or "over"
    maker: int | None = None  # seat holding the stop while a joker is offered
    winners: list[str] = field(default_factory=list)

    @property
    def suit_values(self) -> dict[str, int]:
        return self.rules["suit_values"]

    def value(self, card: Card) -> int:
        return card_value(card, self.suit_values)

    def name(self, card: Card) -> str:
        return card_name(card, self.pack)

    @property
    def stop_maker(self) -> int:
        """The seat holding the stop while a joker is offered: set throughout phase "steal"."""
        return required(self.maker, "stop maker")

    def other(self, seat: int) -> int:
        return 1 - seat

    def seat_of(self, name: str) -> int:
        return self.players.index(name)


# ---------------------------------------------------------------- options


def _as_suit_values(value: Any, suits: tuple[str, ...]) -> dict[str, int]:
    """Accepts {"clubs": 1, ...}, [1, 2, 3, 4] or "1,2,3,4" (in the pack file's suit order)."""
    if isinstance(value, str):
        value = [part for part in value.replace(" ", ",").split(",") if part]
    if isinstance(value, (list, tuple)):
        if len(value) != len(suits):
            raise RuleError(f"Rule suit_values needs four numbers: {', '.join(suits)}.")
        value = dict(zip(suits, value))
    if not isinstance(value, dict) or set(value) != set(suits):
        raise RuleError(f"Rule suit_values must give a value to {join_names(list(suits))}.")
    values = {suit: convert_rule("suit_values", value[suit], int) for suit in suits}
    if any(v < 1 for v in values.values()):
        raise RuleError("Suit values must be at least 1.")
    return values


def _pack_of(decks: Decks) -> Pack:
    """The pack the session loaded, or the shipped one when it loaded none."""
    return decks.pack or default_pack()


def check_rules(given: JsonObject, pack: Pack | None = None) -> Rules:
    """Defaults (suit values and jokers from the pack file, the shipped one unless given)
    overlaid with the players' rules (typed by merge_rules), then checked."""
    pack = pack or default_pack()
    defaults: Rules = {**RULE_DEFAULTS, "suit_values": pack.suit_values, "jokers": pack.jokers}
    rules = merge_rules(TITLE, defaults, given)
    rules["suit_values"] = _as_suit_values(rules["suit_values"], pack.suit_names)
    if rules["jokers"] not in pack.jokers_allowed:
        counts = join_names([str(n) for n in pack.jokers_allowed], "or")
        raise RuleError(f"Play with {counts} jokers.")
    if rules["target"] < 1:
        raise RuleError("The target must be at least 1 point.")
    if rules["pool"] < 0:
        raise RuleError("The pool cannot hold fewer than 0 counters.")
    if rules["stock_out"] not in ("reshuffle", "end"):
        raise RuleError("Rule stock_out must be reshuffle or end.")
    if rules["read_hand"] not in ("first", "full", "off"):
        raise RuleError("Rule read_hand must be first, full or off.")
    return rules


def _seat_names(options: GameOptions, mode: str) -> tuple[tuple[str, str], str | None]:
    """The two seats, and which of them the host plays (vs-host) or None."""
    names = tuple(options.players)
    if any(not str(name).strip() for name in names):
        raise RuleError("Every player needs a name.")
    if mode == "pvp":
        check_player_count(TITLE, mode, names, 2, 2)
        if names[0] == names[1]:
            raise RuleError("The two players need different names.")
        return (names[0], names[1]), None
    check_player_count(TITLE, mode, names, 1, 1)
    computer = next(c for c in COMPUTER_NAMES if c.lower() != names[0].lower())
    return (names[0], computer), computer


# ---------------------------------------------------------------- setup


def setup(options: GameOptions, decks: Decks) -> tuple[State, list[Event]]:
    """Check the options, draw the first dealer, deal, and let the host move if it leads."""
    mode = options.mode or MODES[0]
    if mode not in MODES:
        raise RuleError(f"Centurion modes are {' and '.join(MODES)}, not {mode}.")
    deal = options.deal or DEALS[0]
    if deal not in DEALS:
        raise RuleError(f"Centurion deals are {' and '.join(DEALS)}, not {deal}.")
    if deal == "table" and mode != "pvp":
        raise RuleError("A table deal needs two people; against the host, the host deals.")
    players, computer = _seat_names(options, mode)
    pack = _pack_of(decks)
    rules = check_rules(dict(options.rules), pack)
    rng = new_rng(options.seed)
    s = State(
        players=players,
        computer=computer,
        mode=mode,
        deal=deal,
        rules=rules,
        rng=rng,
        pack=pack,
        dealer=rng.randrange(2),
        pool_left=rules["pool"],
    )
    events: list[Event] = [say(_opening_line(s))]
    _start_deal(s, events, fresh_pack=True)
    _let_computer_move(s, events)
    return s, events


def _opening_line(s: State) -> str:
    if s.rules["pool"]:
        goal = f"A pool of {s.rules['pool']} counters; most counters when it runs dry wins."
    else:
        goal = f"First to {s.rules['target']} points wins."
    extras = []
    if s.rules["highest_first"]:
        extras.append("Your first card each deal must be your highest.")
    if s.rules["jokers"]:
        extras.append(f"{s.rules['jokers']} jokers are in the pack, worth 0.")
    return " ".join([f"Centurion! {goal}", *extras])


def _start_deal(s: State, events: list[Event], fresh_pack: bool) -> None:
    """Deal (or top up) the hands and hand the lead to the non-dealer."""
    s.deal_number += 1
    s.played = []
    s.count = 0
    s.played_first = [False, False]
    s.phase = "play"
    s.maker = None
    leader = s.other(s.dealer)
    s.turn = leader
    dealer_name, leader_name = s.players[s.dealer], s.players[leader]
    lines = [f"Deal {s.deal_number}."]
    if fresh_pack:
        s.out_of_play = []
        _deal_fresh(s)
        if s.deal == "table":
            lines.append(f"{dealer_name}, shuffle and deal seven cards each.")
    else:
        draws = _top_up(s)
        lines.append(_top_up_line(s, draws))
    lines.append(f"{leader_name} leads.")
    if s.multiplier > 1:
        lines.append(f"This deal's score is {_multiplier_word(s.multiplier)}.")
    events.append(say(" ".join(lines)))
    events.extend(_hands_dealt(s) + _hand_notes(s))


def _deal_fresh(s: State) -> None:
    """A whole shuffled pack, seven cards each, dealt one at a time from the leader."""
    pack = full_pack(s.rules["jokers"], s.pack)
    s.cards_left = [HAND_SIZE, HAND_SIZE]
    s.stock_size = len(pack) - 2 * HAND_SIZE
    if s.deal == "table":
        s.hands, s.stock = [[], []], []
        return
    s.rng.shuffle(pack)
    leader = s.other(s.dealer)
    s.hands = [[], []]
    for i in range(2 * HAND_SIZE):
        s.hands[(leader + i) % 2].append(pack[i])
    s.stock = pack[2 * HAND_SIZE :]


def _top_up(s: State) -> list[int]:
    """Replenish: fill each hand back to seven from the stock, next leader first."""
    leader = s.other(s.dealer)
    draws = [0, 0]
    for seat in (leader, s.other(leader)):
        draws[seat] = HAND_SIZE - s.cards_left[seat]
        if s.deal == "host":
            s.hands[seat].extend(s.stock[: draws[seat]])
            s.stock = s.stock[draws[seat] :]
        s.cards_left[seat] = HAND_SIZE
        s.stock_size -= draws[seat]
    return draws


def _top_up_line(s: State, draws: list[int]) -> str:
    takes = [f"{s.players[seat]} {draws[seat]}" for seat in (0, 1)]
    return f"Top up to seven from the stock: {takes[0]}, {takes[1]}. {s.stock_size} left in the stock."


def _hands_dealt(s: State) -> list[Event]:
    """Each person's new hand (host deal) is something they did not know before the deal,
    so the move that ended the last deal cannot be taken back (host.engine.crosses_reveal)."""
    if s.deal != "host":
        return []
    return [
        {"type": "reveal", "player": name, "card": "hand", "value": _hand_text(s, seat)}
        for seat, name in enumerate(s.players)
        if name != s.computer
    ]


def _hand_notes(s: State) -> list[Event]:
    """Each person's hand, privately (host deal only; the host's own hand stays hidden).
    In vs-host the prompt reads it to the person, alone at the table, unless read_hand
    is off: typed play then shows it once, not twice."""
    if s.deal != "host" or s.mode == "vs-host" and s.rules["read_hand"] != "off":
        return []
    return [
        private(name, "Your cards: " + _hand_text(s, seat) + ".")
        for seat, name in enumerate(s.players)
        if name != s.computer
    ]


def _read_cards(s: State, name: str | None) -> list[Event]:
    """ "read my cards": aloud in vs-host (nobody else listens), privately in pvp."""
    if name is None or s.deal != "host" or name == s.computer:
        raise RuleError("Your cards are in your hand.")
    text = f"Your cards: {_hand_text(s, s.players.index(name))}."
    return [say(text)] if s.mode == "vs-host" else [private(name, text)]


def _hand_in_order(s: State, seat: int) -> list[Card]:
    """A hand as it is read to its holder and shown on their page, highest first: "your
    third card" means the third of this order."""
    return sorted(s.hands[seat], key=lambda c: (-s.value(c), c))


def hands_hidden(options: GameOptions) -> bool:
    """Whether a person's hand is never said aloud: the host deals, and either two people
    play (each hides theirs from the other) or the one against the host asked for it not
    to be read (read_hand off)."""
    read_hand = options.rules.get("read_hand", RULE_DEFAULTS["read_hand"])
    return options.deal == "host" and (options.mode != SOLO_MODE or read_hand == "off")


def _hand_secret(s: State) -> bool:
    """Whether a hand is hidden from someone who hears the host: the host dealt, and the
    other player is a person at the table (not the host)."""
    return s.deal == "host" and s.mode != SOLO_MODE


def _hand_text(s: State, seat: int, values: bool = True) -> str:
    cards = _hand_in_order(s, seat)
    return ", ".join(f"{s.name(c)} {s.value(c)}" if values else s.name(c) for c in cards) or "none"


def _multiplier_word(multiplier: int) -> str:
    return MULTIPLIER_WORDS.get(multiplier, f"multiplied by {multiplier}")


# ---------------------------------------------------------------- prompt


def prompt(state: State) -> Prompt | None:
    """Whose card it is, or whether the other player lays a joker on a stop."""
    s = state
    if s.phase == "over":
        return None
    if s.phase == "steal":
        return _steal_prompt(s)
    name = s.players[s.turn]
    if not s.played:
        text = f"{name}, you lead."
    else:
        text = f"{name}, your card."  # the count ends the card line just said
    if s.rules["highest_first"] and not s.played_first[s.turn]:
        text += " Play your highest card."
    how = s.rules["read_hand"]
    if name != s.computer and s.mode == "vs-host" and (how == "full" or how == "first" and not s.played_first[s.turn]):
        text += " You hold " + _hand_text(s, s.turn, values=how == "full") + "."  # values: on request
    if s.mode == "vs-host" and s.deal == "host":  # nobody else listens: use the hand
        choices = sorted({s.name(c) for c in legal_cards(s, s.turn)})[:3] + ["read my cards"]
    else:
        choices = ["queen of hearts", "seven of clubs"] + (["joker"] if s.rules["jokers"] else [])
    context = {"count": s.count}
    return Prompt(
        name=f"{ID}/play_card",
        player=name,
        text=text,
        context=context,
        slots=grammar_slots(f"{ID}/play_card", context),
        choices=tuple(choices),
        narrow=_cards_narrow(s),
    )


def _cards_narrow(s: State) -> Narrow:
    """Host deal against the host: the suit, then the rank, of the cards the player may
    play (nobody else listens). Host deal between two people: the card by its place in
    the hand as it is read to its holder ("your third card"), so the other player hears
    no card. Table deal: any card not yet seen, its rank first, then its suit."""
    if _hand_secret(s):
        hand = _hand_in_order(s, s.turn)
        legal = set(legal_cards(s, s.turn))
        return Narrow(
            "Which card, by its place in your hand?",
            tuple(
                Choice(ORDINALS[i], _card_intent(c), f"Your {ORDINALS[i]} card?")
                for i, c in enumerate(hand[: len(ORDINALS)])
                if c in legal
            ),
        )
    if s.deal == "host":
        cards = sorted(set(legal_cards(s, s.turn)), key=lambda c: (s.value(c), c))
        suits = sorted({c.suit for c in cards if c.suit is not None and not c.is_joker}, key=s.pack.suit_names.index)

        def in_suit(suit: str) -> Narrow:
            return Narrow(
                "Which rank?",
                tuple(
                    Choice(s.pack.spoken(c.rank), _card_intent(c), f"The {s.name(c)}?")
                    for c in cards
                    if not c.is_joker and c.suit == suit
                ),
            )

        return Narrow(
            "Which suit?",
            tuple(Choice(suit, {}, f"A card of {suit}?", then=in_suit(suit)) for suit in suits)
            + ((Choice("joker", _card_intent(JOKER), "Your joker?"),) if JOKER in cards else ()),
        )
    seen = s.out_of_play + [c for _, c in s.played]
    ranks = []
    for rank in s.pack.ranks:
        suits = [suit for suit in s.pack.suit_names if Card(rank.value, suit) not in seen]
        if suits:
            ranks.append(
                Choice(
                    s.pack.spoken(rank.value),
                    {"intent": "play_card", "rank": rank.value},
                    then=Narrow("Which suit?", tuple(Choice(suit, {"suit": suit}) for suit in suits)),
                )
            )
    if s.rules["jokers"] and _jokers_unplayed(s) > 0:
        ranks.append(Choice("joker", _card_intent(JOKER), "A joker?"))
    return Narrow("Which card?", tuple(ranks))


def _card_intent(card: Card) -> Intent:
    if card.is_joker:
        return {"intent": "play_card", "joker": True}
    return {"intent": "play_card", "rank": card.rank, "suit": required(card.suit, "suit")}


def _steal_prompt(s: State) -> Prompt:
    seat = s.other(s.stop_maker)
    name = s.players[seat]
    maker = s.players[s.stop_maker]
    text = f"{name}, {maker} made {s.count}. Lay a joker on it to take the deal, or say pass."
    context = {"count": s.count, "maker": maker}
    joker = s.hands[seat].count(JOKER) if s.deal == "host" else _jokers_unplayed(s)
    return Prompt(
        name=f"{ID}/joker_steal",
        player=name,
        text=text,
        context=context,
        slots=grammar_slots(f"{ID}/joker_steal", context),
        choices=("joker", "pass"),
        narrow=Narrow(
            "Your move?",
            ((Choice("joker", _card_intent(JOKER), "Lay your joker?"),) if joker else ())
            + (Choice("pass", {"intent": "pass"}, "Do you pass?"),),
            # Between two people the same words whether or not a joker is held.
            said=f"{name}, joker or pass?" if _hand_secret(s) else "",
        ),
    )


def grammar_slots(prompt: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    """The live slot lists of a prompt's grammar, built from its context alone.

    Always empty: any card of the pack may be named (ranks, suits and the joker
    are fixed grammar lists), and the rules, not the grammar, refuse cards that
    can't be played. Here so every game answers the accuracy benchmark alike.
    """
    return {}


# ---------------------------------------------------------------- apply


class _PlayCard(Said):
    intent: Literal["play_card"]


class PlayCard(_PlayCard, total=False):
    """A whole card, {"rank": 1..13, "suit": S}, or {"joker": True}."""

    rank: int
    suit: str
    joker: bool


class RankAlone(Said):
    intent: Literal["rank_alone"]  # "king": the card it can only be, else the host asks
    rank: int


class SuitAlone(Said):
    intent: Literal["suit_alone"]  # "hearts", after "Which king: diamonds or hearts?"
    suit: str


class ReadCards(Said):
    intent: Literal["read_cards"]


class Pass(Said):
    intent: Literal["pass"]


Move = PlayCard | RankAlone | SuitAlone | ReadCards | Pass | Yes | No
"""Every intent Centurion's prompts hear (docs/specs/intents.md), by kind."""


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Play the named card (or answer the joker offer); the host then moves if it must."""
    if state.phase == "over":
        raise RuleError("The game is over.")
    move = cast(Move, named(action))  # by its name; each field is checked where it is used
    current = prompt(state)
    speaker = move.get("player")
    if speaker is not None and current is not None and speaker != current.player:
        raise RuleError(f"It's {current.player}'s turn.")
    if move["intent"] == "read_cards":
        return state, _read_cards(state, current.player if current else None)
    s = evolve(state)
    events: list[Event] = []
    if s.phase == "steal":
        _answer_joker_offer(s, move, events)
    else:
        card = _card_from(s, move)
        _check_playable(s, s.turn, card)
        _play(s, s.turn, card, events)
    _let_computer_move(s, events)
    return s, events


def _card_from(s: State, action: Move) -> Card:
    """The card an intent names; RuleError if it names none."""
    if action["intent"] not in ("play_card", "rank_alone", "suit_alone"):
        raise RuleError("Name the card you play, like queen of hearts.")
    if action.get("joker"):
        return JOKER
    rank, suit = action.get("rank"), action.get("suit")
    if isinstance(rank, str) and rank.isdigit():
        rank = int(rank)
    ranks = [r.value for r in s.pack.ranks]
    if suit is None and isinstance(rank, int) and not isinstance(rank, bool) and rank in ranks:
        return _card_of_rank(s, rank)
    if rank is None and suit in s.pack.suit_names:
        return _card_of_suit(s, suit)
    if not isinstance(rank, int) or isinstance(rank, bool) or rank not in ranks or suit not in s.pack.suit_names:
        raise RuleError("Name the card you play, like queen of hearts.")
    return Card(rank, suit)


def _card_of_rank(s: State, rank: int) -> Card:
    """The card a rank alone ("king") names: the only one it can be, else RuleError asking
    which. The choices are the player's own cards (host deal) or the suits not yet seen
    (table deal); in a two-player host deal the hand is secret, so only its holder is told."""
    named = s.pack.spoken(rank)
    article = "an" if named[:1] in "aeiou8" else "a"
    if s.deal == "host":
        held = {c.suit for c in s.hands[s.turn] if not c.is_joker and c.rank == rank}
        suits = [suit for suit in s.pack.suit_names if suit in held]
        if not suits:
            raise RuleError(f"You don't hold {article} {named}.", secret=_hand_secret(s))
    else:
        seen = s.out_of_play + [c for _, c in s.played]
        suits = [suit for suit in s.pack.suit_names if Card(rank, suit) not in seen]
        if not suits:
            raise RuleError(f"Every {named} has been played already. Which card is it?")
    if len(suits) == 1:
        return Card(rank, suits[0])
    question = f"Which {named}: {join_names(suits, 'or')}?"
    if _hand_secret(s):
        raise RuleError(f"Which {named}? Say its suit as well.", aside=question, secret=True)
    raise RuleError(question)


def _card_of_suit(s: State, suit: str) -> Card:
    """The card a suit alone names, said after "Which king: diamonds or hearts?": of the
    player's cards of that suit, the one whose rank they hold in another suit too (the one
    just asked about), or the only one; else RuleError asking which."""
    if s.deal != "host":
        raise RuleError(f"Say the whole card, like the king of {suit}.")
    hand = [c for c in s.hands[s.turn] if not c.is_joker]
    held = [c for c in hand if c.suit == suit]
    if not held:
        raise RuleError(f"You don't hold any {suit}.", secret=_hand_secret(s))
    doubled = [c for c in held if sum(other.rank == c.rank for other in hand) > 1]
    for cards in (held, doubled):
        if len(cards) == 1:
            return cards[0]
    offered = doubled or held
    ranks = join_names([s.pack.spoken(c.rank) for c in sorted(offered, key=lambda c: c.rank)], "or")
    question = f"Which of your {suit}: {ranks}?"
    if _hand_secret(s):  # a host deal, checked above
        raise RuleError(f"Which of your {suit}? Say the whole card.", aside=question, secret=True)
    raise RuleError(question)


def legal_cards(state: State, seat: int) -> list[Card]:
    """The cards `seat` may play now (host deal): its hand, or its highest cards first."""
    hand = state.hands[seat]
    if state.rules["highest_first"] and not state.played_first[seat] and hand:
        top = max(state.value(c) for c in hand)
        return [c for c in hand if state.value(c) == top]
    return list(hand)


def _check_playable(s: State, seat: int, card: Card) -> None:
    """RuleError unless `seat` may play `card` now."""
    if card.is_joker and not s.rules["jokers"]:
        raise RuleError("We're playing without jokers.")
    if s.deal == "host":
        secret = _hand_secret(s)
        if card not in s.hands[seat]:
            held = f"the {s.name(card)}" if not card.is_joker else "a joker"
            raise RuleError(f"You don't hold {held}.", secret=secret)
        if card not in legal_cards(s, seat):
            raise RuleError("Your first card this deal must be your highest-valued card.", secret=secret)
        return
    seen = s.out_of_play + [c for _, c in s.played]
    if card.is_joker and seen.count(JOKER) >= s.rules["jokers"]:
        raise RuleError(f"All {s.rules['jokers']} jokers have been played already.")
    if not card.is_joker and card in seen:
        raise RuleError(f"The {s.name(card)} has been played already. Which card is it?")


def _play(s: State, seat: int, card: Card, events: list[Event]) -> None:
    """Lay the card, announce it and the count, and end the deal on a stop or empty hands."""
    if s.deal == "host":
        s.hands[seat].remove(card)
    s.cards_left[seat] -= 1
    s.played.append((seat, card))
    s.played_first[seat] = True
    value = s.value(card)
    s.count += value
    events.append(_shown(s, seat, card))
    events.append(say(_card_line(s, seat, card, value)))
    if is_stop(s.count):
        _stop_made(s, seat, events)
    elif s.cards_left == [0, 0]:
        _finish_deal(s, None, events)
    else:
        s.turn = s.other(seat) if s.cards_left[s.other(seat)] else seat


def _shown(s: State, seat: int, card: Card) -> Event:
    """A card laid face up. A person's own card is by_owner: taking the move back hides
    nothing its player did not know (a misheard card can be undone); the host's card was
    hidden from the person, so a move it answered stays (host.engine.crosses_reveal)."""
    name = s.players[seat]
    return {
        "type": "reveal",
        "player": name,
        "card": s.name(card),
        "value": s.value(card),
        "by_owner": name != s.computer,
    }


def _card_line(s: State, seat: int, card: Card, value: int) -> str:
    """'Queen of hearts, 36. Count 88. 12 to go.'"""
    said = f"{s.name(card)}, {value}." if not card.is_joker else "A joker, 0."
    if s.players[seat] == s.computer:
        said = f"I play the {s.name(card)}, {value}." if not card.is_joker else "I play a joker, 0."
    said = said[0].upper() + said[1:]
    if (
        s.players[seat] != s.computer
        and s.computer is not None
        and s.cards_left[s.other(seat)]
        and not is_stop(s.count)
    ):
        return said  # the host plays next, and its line gives the count
    line = f"{said} Count {s.count}."
    if is_stop(s.count):
        return line
    if NEAR <= s.count < STOP:
        line += f" {STOP - s.count} to 100!"
    elif s.count > STOP:
        line += f" Next stop {math.ceil(s.count / 10) * 10}."
    return line


# ---------------------------------------------------------------- stops and jokers


def _stop_made(s: State, seat: int, events: list[Event]) -> None:
    """A stop: offer a joker to the other player if the house rule allows, else score it."""
    if _joker_may_answer(s, s.other(seat)):
        s.phase = "steal"
        s.maker = seat
    else:
        _finish_deal(s, seat, events)


def _jokers_unplayed(s: State) -> int:
    """Jokers not yet seen since the pack was last gathered (public knowledge)."""
    seen = s.out_of_play + [c for _, c in s.played]
    return s.rules["jokers"] - seen.count(JOKER)


def _joker_may_answer(s: State, seat: int) -> bool:
    """Whether `seat` is asked (or, for the host, checks) about laying a joker on the stop."""
    if not s.rules["joker_at_multiple"] or not s.cards_left[seat]:
        return False
    if s.deal == "host" and s.mode == "vs-host":
        return JOKER in s.hands[seat]
    if s.deal == "host":  # ask unless the maker can see every unplayed joker
        maker_holds = s.hands[s.other(seat)].count(JOKER)
        return _jokers_unplayed(s) - maker_holds > 0
    return _jokers_unplayed(s) > 0


def _answer_joker_offer(s: State, action: Move, events: list[Event]) -> None:
    """Joker: it takes the stop over (and the maker may answer it). Pass: score the stop."""
    seat = s.other(s.stop_maker)
    if action["intent"] in ("pass", "no"):
        events.append(say(f"{s.players[seat]} lets it stand."))
        _finish_deal(s, s.maker, events)
        return
    if action["intent"] == "yes" or (action["intent"] == "play_card" and action.get("joker")):
        _check_joker_available(s, seat)
        _lay_stealing_joker(s, seat, events)
        return
    if action["intent"] == "play_card":
        raise RuleError("Only a joker can go on the count now. Say joker or pass.")
    raise RuleError("Say joker to take the deal, or pass.")


def _check_joker_available(s: State, seat: int) -> None:
    """RuleError unless `seat` can lay a joker (the first-card rule does not apply here)."""
    if s.deal == "host" and JOKER not in s.hands[seat]:
        raise RuleError("You don't hold a joker. Say pass.", secret=_hand_secret(s))
    if s.deal == "table" and _jokers_unplayed(s) <= 0:
        raise RuleError(f"All {s.rules['jokers']} jokers have been played already.")


def _lay_stealing_joker(s: State, seat: int, events: list[Event]) -> None:
    _play_joker_on_stop(s, seat, events)
    if _joker_may_answer(s, s.other(seat)):
        s.maker = seat
    else:
        _finish_deal(s, seat, events)


def _play_joker_on_stop(s: State, seat: int, events: list[Event]) -> None:
    if s.deal == "host":
        s.hands[seat].remove(JOKER)
    s.cards_left[seat] -= 1
    s.played.append((seat, JOKER))
    name = s.players[seat]
    events.append(_shown(s, seat, JOKER))
    if name == s.computer:
        events.append(say(f"I lay a joker on {s.count} and take the deal!"))
    else:
        events.append(say(f"{name} lays a joker on {s.count} and takes the deal!"))


# ---------------------------------------------------------------- end of a deal


def _finish_deal(s: State, maker: int | None, events: list[Event]) -> None:
    """Score the deal (or double the next), then end the game or deal again."""
    if maker is None:
        s.multiplier += 1
        events.append(sound("wrong"))
        events.append(
            say(
                f"All cards are down at {s.count}, no stop. Nobody scores; "
                f"the next deal is {_multiplier_word(s.multiplier)}."
            )
        )
    else:
        _score_deal(s, maker, events)
        s.multiplier = 1
    if _target_reached(s):
        _end_game(s, events)
        return
    s.dealer = s.other(s.dealer)
    fresh = True
    if s.rules["replenish"]:
        s.out_of_play += [c for _, c in s.played]
        needed = 2 * HAND_SIZE - sum(s.cards_left)
        if s.stock_size >= needed:
            fresh = False
        elif s.rules["stock_out"] == "end":
            events.append(say("The stock can't fill both hands, so the game ends."))
            _end_game(s, events)
            return
        else:
            events.append(say("The stock can't fill both hands: the whole pack is shuffled again."))
    _start_deal(s, events, fresh_pack=fresh)


def _score_deal(s: State, maker: int, events: list[Event]) -> None:
    cards = len(s.played)
    base = deal_points(cards, s.count)
    points = base * s.multiplier
    name = s.players[maker]
    tens_over = (s.count - STOP) // 10
    how = "" if not tens_over else f" {cards} cards minus {tens_over}:"  # plain: a point a card
    if s.multiplier > 1:
        how = f" {cards} cards{' minus ' + str(tens_over) if tens_over else ''}, {_multiplier_word(s.multiplier)}:"
    events.append(sound("win_card"))
    if s.rules["pool"]:
        taken = min(points, s.pool_left)
        s.pool_left -= taken
        s.points[maker] += taken
        line = f"{name} makes {s.count}!{how} {_plural(points, 'point')}."
        if taken < points:
            line += f" {name} takes the last {_plural(taken, 'counter')}."
        events.append(score(name, taken, s.points[maker], f"made {s.count} with {cards} cards"))
    else:
        s.points[maker] += points
        line = f"{name} makes {s.count}!{how} {_plural(points, 'point')}."
        events.append(score(name, points, s.points[maker], f"made {s.count} with {cards} cards"))
    events.append(say(line + " " + _standing(s)))


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _target_reached(s: State) -> bool:
    if s.rules["pool"]:
        return s.pool_left == 0
    return max(s.points) >= s.rules["target"]


def _end_game(s: State, events: list[Event]) -> None:
    best = max(s.points)
    s.winners = [name for seat, name in enumerate(s.players) if s.points[seat] == best]
    s.phase = "over"
    totals = {name: s.points[seat] for seat, name in enumerate(s.players)}
    if len(s.winners) == 1:
        loser = s.players[s.other(s.seat_of(s.winners[0]))]
        text = f"{s.winners[0]} wins the game, {best} to {totals[loser]}!"
    else:
        text = f"It's a tie at {best} each!"
    events.append(sound("game_over"))
    events.append(say(text))
    events.append(game_over(totals, list(s.winners)))


def _standing(s: State) -> str:
    """'Ana 12, Ben 7.' plus what is still needed."""
    totals = f"{s.players[0]} {s.points[0]}, {s.players[1]} {s.points[1]}"
    if s.rules["pool"]:
        return f"Counters: {totals}; {s.pool_left} left."
    totals += "."
    return f"Score: {totals}"


def table_text(state: State) -> str:
    """What lies face up ("read the table"): this deal's cards in the order they were
    played, by whom and what each is worth; the count; the cards left in each hand and
    the stock; the score."""
    s = state
    played = [f"{s.players[seat]}, {s.name(card)} {s.value(card)}" for seat, card in s.played]
    parts = [
        f"Deal {s.deal_number}. "
        + (f"Played: {'; '.join(played)}. Count {s.count}." if played else "No card played yet.")
    ]
    parts.append(
        f"Cards in hand: {s.players[0]} {s.cards_left[0]}, {s.players[1]} {s.cards_left[1]}; "
        f"{s.stock_size} in the stock."
    )
    return " ".join(parts + [scores(s)])


def scores(state: State) -> str:
    """The match score, the goal, and where the current deal stands."""
    s = state
    if s.rules["pool"]:
        text = f"Counters: {s.players[0]} {s.points[0]}, {s.players[1]} {s.points[1]}; {s.pool_left} left in the pool."
    else:
        text = f"{s.players[0]} {s.points[0]}, {s.players[1]} {s.points[1]}; first to {s.rules['target']}."
    if s.phase == "over":
        return text + " Game over."
    text += f" Count {s.count}."
    if s.multiplier > 1:
        text += f" This deal is {_multiplier_word(s.multiplier)}."
    return text


# ---------------------------------------------------------------- the host as a player


def _let_computer_move(s: State, events: list[Event]) -> None:
    """Make the host's moves until a person must answer or the game is over."""
    while s.computer is not None and s.phase != "over":
        if s.phase == "steal":
            seat = s.other(s.stop_maker)
            if s.players[seat] != s.computer:
                return
            if JOKER in s.hands[seat]:
                _lay_stealing_joker(s, seat, events)
            else:
                _finish_deal(s, s.maker, events)
        elif s.players[s.turn] == s.computer:
            _play(s, s.turn, choose_card(s, s.turn), events)
        else:
            return


def unseen_values(s: State, seat: int) -> Counter[int]:
    """Values of the cards `seat` cannot see: the other hand and the stock."""
    unseen = Counter(full_pack(s.rules["jokers"], s.pack))
    unseen.subtract(s.hands[seat])
    unseen.subtract(c for _, c in s.played)
    unseen.subtract(s.out_of_play)
    values: Counter[int] = Counter()
    for card, n in unseen.items():
        if n > 0:
            values[s.value(card)] += n
    return values


def _stop_gaps(count: int, highest: int) -> set[int]:
    """Card values (up to the `highest` card) that would make a stop from `count`."""
    first = max(STOP, math.ceil(count / 10) * 10)
    return {m - count for m in range(first, count + highest + 1, 10) if m - count > 0}


def _chance_to_hold(wanted: int, unseen: int, hand: int) -> float:
    """Chance a random hand of `hand` cards from `unseen` holds one of `wanted` cards."""
    if hand <= 0 or wanted <= 0:
        return 0.0
    if unseen - wanted < hand:
        return 1.0
    return 1.0 - math.comb(unseen - wanted, hand) / math.comb(unseen, hand)


def choose_card(s: State, seat: int) -> Card:
    """The host's card: make a stop if possible, else the safest, most promising card.

    Only its own hand, the played cards and the other hand's size are used. Each
    candidate is scored by the chance the other player could stop next (bad) and
    the chance the host could then stop on its following turn (good).
    """
    options = legal_cards(s, seat)
    stops = [c for c in options if is_stop(s.count + s.value(c))]
    if stops:
        return max(stops, key=lambda c: (deal_points(len(s.played) + 1, s.count + s.value(c)), c))
    unseen = unseen_values(s, seat)
    total_unseen = sum(unseen.values())
    their_hand = s.cards_left[s.other(seat)]
    highest = max(rank.value for rank in s.pack.ranks) * max(s.suit_values.values())
    by_value: dict[int, Card] = {}
    for card in sorted(options):
        by_value.setdefault(s.value(card), card)

    def merit(value: int) -> tuple[float, int]:
        count = s.count + value
        gaps = _stop_gaps(count, highest)
        risk = _chance_to_hold(sum(unseen[g] for g in gaps), total_unseen, their_hand)
        rest = list(s.hands[seat])
        rest.remove(by_value[value])
        my_values = {s.value(c) for c in rest}
        chance = _my_next_chance(count, my_values, unseen, gaps, their_hand)
        worth = -risk + (1 - risk) * chance * 0.8
        if value == 0 and s.rules["joker_at_multiple"]:
            worth -= JOKER_KEEP_BONUS  # a joker in hand may steal a stop later
        return (worth, value)

    best = max(by_value, key=merit)
    return by_value[best]


def _my_next_chance(
    count: int, my_values: set[int], unseen: Counter[int], their_gaps: set[int], their_hand: int
) -> float:
    """Chance I can stop next turn, if the other player plays a random non-stopping card."""
    if not my_values:
        return 0.0
    if their_hand == 0:
        return 1.0 if any(is_stop(count + v) for v in my_values) else 0.0
    good = total = 0
    for value, n in unseen.items():
        if value in their_gaps:
            continue
        total += n
        if any(is_stop(count + value + mine) for mine in my_values):
            good += n
    return good / total if total else 0.0


# ---------------------------------------------------------------- the phone page


def hand_view(state: State, player: str) -> HandView | None:
    """`player`'s own cards for their phone page (host deal, people only), best first.

    While it is their turn each playable card carries its play_card intent, and on a
    joker offer the page offers "lay a joker" and "pass", so a card can be played by
    touch as well as by voice. Only the holder's hand and public facts are shown.
    """
    s = state
    if s.deal != "host" or player not in s.players or player == s.computer:
        return None
    seat = s.seat_of(player)
    hand = _hand_in_order(s, seat)
    my_turn = s.phase == "play" and s.turn == seat
    playable = set(legal_cards(s, seat)) if my_turn else set()
    cards = tuple(
        CardView(
            label=s.name(c),
            detail=f"worth {s.value(c)}",
            play=_card_intent(c) if c in playable else None,
            play_label=f"Play the {s.name(c)}" if c in playable else "",
        )
        for c in hand
    )
    facts = [f"Count {s.count}.", _standing(s)]
    actions: tuple[tuple[str, Intent], ...] = ()
    if s.phase == "over":
        facts.insert(0, "The game is over.")
    elif my_turn:
        facts.insert(0, "Your turn: play a card.")
    elif s.phase == "steal" and s.other(s.stop_maker) == seat:
        facts.insert(0, f"{s.players[s.stop_maker]} made {s.count}: lay a joker on it, or pass.")
        lay: Intent = {"intent": "play_card", "joker": True}
        actions = ((("Lay a joker on it", lay),) if JOKER in s.hands[seat] else ()) + (("Pass", {"intent": "pass"}),)
    spoken = f"Your cards: {_hand_text(s, seat)}. Count {s.count}."
    return HandView(
        heading=f"Your {_plural(len(hand), 'card')}", cards=cards, spoken=spoken, facts=tuple(facts), actions=actions
    )


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
    solo_mode=SOLO_MODE,
    hand_view=hand_view,
    hidden_hands=hands_hidden,
    table_text=table_text,
    check_rules=check_rules,
)
