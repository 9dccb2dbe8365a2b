"""Keep Cool: one word per turn, make your neighbour guess, guess the other one.

How the host runs it
--------------------
Players sit in the order given (that order is clockwise around the table). Each
turn a player says exactly one word: a clue for the player who plays after them,
or a guess at a word of the player who played before them. A correct guess wins
that card for both players; it lies between them and scores for each of them at
the end of the round. The round stops as soon as somebody's hand is empty; whoever
scored the most wins the round, and the first to win two rounds wins the game.
In "too-cool" mode a player may also attack: naming a word of any other player
takes that card in front of the attacker.

Seats and directions, in one place: with direction +1 (round 1, clockwise) the
next player is the left-hand neighbour. A player's words are always guessed by
the NEXT player in the turn order, and a player always guesses the words of the
PREVIOUS player. When the direction flips each round, both roles mirror, which is
exactly the rulebook's "now make your right-hand neighbour guess".

Deals
-----
- host: the host shuffles the word deck and deals 4 cards to each player; each
  player hears (privately) the four words of the chosen face and line, and hears
  them again after a resume (`resumed`). The host knows every word in play, so it
  spots guesses and attacks itself.
- table: players hold physical cards and the host is timer and scorer. A word
  said is never known to the host (the intent is always a clue, word null); the
  card's owner declares a hit at the next prompt: "Ben got it", "that's Cy's".
  The hit intent is {"intent": "hit", "owner": "Ben"}: the most recent word said
  was one of Ben's words. In too-cool mode naming anyone other than the speaker's
  guessed neighbour records an attack. Without a name ("got it", "that's mine")
  the owner is taken to be the guessed neighbour in the basic game; in too-cool
  the host asks for the name, since it could be an attack.

Rules choices (what the rulebook leaves open)
----------------------------------------------
- The first player listed plays first in round 1 (the rulebook picks the player
  hardest of hearing: list them first, or set rules first_player).
- A card named before anyone clued it is not revealed and wins nothing, silently
  (for attacks too), as the rulebook says. The host cannot tell which word a clue
  was for, nor a clue from a missed guess, so it counts: every word a player said
  this round that won nothing may be a clue, and each card needs one of its own. A
  card wins only while its owner has given more such words this round than cards of
  theirs have been won (`clued: per_card`); a word that turns out to have won a card
  (a claimed hit) was a guess, not a clue. A timeout is not a clue. `clued:
  per_player` counts a card as clued once its owner has said any word this round
  (the behaviour before 2026-12).
- Root check (host deal only, against the speaker's own four words): refused when
  one word starts with the other ("arm"/"armour", 3 letters or more), when a
  word of 4 letters or more ends a longer compound ("mother"/"grandmother"), when
  a part of a hyphenated compound is refused ("dog"/"wolf-dog"), when both share
  a 5-letter beginning ("painter"/"painting"), or when both reduce to the same
  stem after stripping a light suffix (plural, -ing, -ed, -er, -ly, -ness, -ment,
  -ful, -less; "flies"/"fly"). With rule roots "near" (the default) a root
  misspelt or said a little otherwise counts too: words of 5 letters or more
  whose stems, written as they sound (c and k, ph and f, no doubled letters),
  differ only in a vowel after the first ("velvit"/"velvet", "sweter"/"sweater");
  the first vowel, most often the stressed one, tells words apart ("battle" is
  no "bottle"). "exact" leaves that out (games saved before the rule play so).
  Mere look-alikes are allowed: "ear"/"heart", "ring"/"spring". The check uses
  the intent's word, and also its "text" field (what was heard) when the
  matcher provides it, since a clue's word is null.
- A word refused for any reason (a root, a sound word, several words) gets one
  answer aloud, "Not that one. Another word.", and its reason goes to the player
  alone (their phone page, or the terminal): said aloud, "that shares a root with
  one of your words" would tell the guesser part of a secret word.
- Sound words: a clue that imitates a sound ("meow", "crack", "bow wow") is
  refused (as any refused word), in both deals, and the turn goes on, as the rulebook forbids
  onomatopoeias; the list, with its source, is decks/onomatopoeia.txt. A word in
  play is always a guess, never refused for sounding like one.
- A word in play that matches no hit (a non-neighbour's word in the basic game,
  the speaker's guessed neighbour who has not spoken yet) counts as a plain clue.
- In table deal a hit always refers to the most recent word said (a timeout does
  not change that) and can be claimed once.
- Host deal: the host may miss a hit (it heard a clue). The owner then claims
  it the same way ("got it", "Ben got it"), and the host asks which of their
  words it was; naming it wins that card as if the host had heard it ("no"
  takes the claim back). The same checks apply, and a word the host already
  counted as a hit cannot be claimed again. With rule claims "checked" (the
  default) the host knows both the cards and the word said, so it compares
  them, as the rulebook asks ("if the word said really is one of the words"):
  a claim stands only when the word said, as the host heard it, is one of the
  owner's words (or its plural); by voice each ear's reading counts, and a
  reading that sounds the same as the word. Otherwise the host answers "That
  claim does not match." and nothing changes; the card named must be that word
  too. A claim after the buzzer has sounded is too late (play goes on without
  waiting). "trusted" takes the owner's word for it, as games saved before the
  rule do. Typed, the word said is the text typed.
- Which word was said (host deal): a word in play counts when it is said exactly,
  as its plural, or as a word that sounds the same (it is a spoken game). A near
  miss is another word and so a clue: "widow" is not "window", "plane" is not
  "planet". False matches are the worst failure here (docs/keep-cool-live.md).
- Live turns: any word said ends the turn at once (the buzzer press), and the
  host plays the turn cue; speech the host could not read counts as a clue (it
  need not understand clues). A word begun before the buzzer belongs to the
  player whose turn it was, and the host does not sound the buzzer over it.
- One word a turn (rule "several_words"): "refuse" (the default) answers a clue
  of two words or more ("big tree") as any refused word (the reason, one word,
  to the player alone) and the turn goes on, its
  clock still running in live typed play; a hyphenated compound is one word,
  and so is a word with an article before it ("a rabbit").
  "clue" takes it as a clue, its text kept in the log. `partyhost play` sets
  "clue" when the input is speech (unless the rule is given), since a
  recogniser may split one word in two ("a low" for "pillow").
- A spoken clue likely misheard is no move: by voice, a clue is one word the
  host's pronouncing dictionary knows (it holds every word of the shipped decks)
  or a word in play, or a hyphenated compound of such words ("wolf-dog"), or
  words that together are one such word written apart ("candle stick"); an
  article may come before it ("a fruit"). A reading of two words ("post onto",
  "big tree"), or of a word no dictionary knows (a name such as "Katelyn", a
  non-word), gets a quick "Again?" and the turn goes on inside its clock; it is
  not scored. So does a word the host's two ears (Whisper and Moonshine) do not
  agree on, and a word in play counts only when both take it for that word ("tune"
  said where "dune" is in play is no hit unless both hear "dune"). Misheard a second
  time in the same turn, it is taken as a clue the host could not read, never
  left to the buzzer, what each ear wrote kept for a claim. A name the dictionary
  holds ("Keating": many surnames are there) still counts as a clue, as the host
  cannot tell it from a word. By voice, only the several words allowed here
  reach "several_words".
- During turns the common commands need the prefix "host" ("host, score",
  "host, pause"), since "score", "sorry" or "help" may well be clues.
- The player who said the word that emptied a hand starts the next round.
- Ties: every player tied on most points wins the round. If several players reach
  the round-win target in the same round, they share the victory.
- The word deck: cards rejected in a swap are set aside until the round ends.
  When the draw pile runs out, every card discarded in earlier rounds is shuffled
  back into it (with the game's own random generator), so a small deck lasts a
  whole game. Host deal needs at least 4 cards per player.
- Face and line: asked at the start unless preset in the rules (face, line), in
  both deals (in table deal it tells everyone which word to read).
- Scoring: basic 1 point to each player for each card between them; too-cool 2
  points each for those and 1 point for each card won by an attack.

What the host says: as little as possible during turns (the turn cue when the
turn passes, ticks in the last seconds, the buzzer cue on a timeout, a short line
when a card is won; names only with rules say_names), then a round
summary: each player's points, the round winners and the running round wins.
Score events count round wins (delta 1 per round won); game_over's scores are
the round wins.

Rule keys (RULE_DEFAULTS): face ("red"/"blue"), line (1-10), turn_seconds (the
buzzer, 8; 3 to 60, relaxed turns it off), warning_seconds (ticks in the last seconds of a turn, 3; 0: none),
relaxed (no timer), say_names (name the player at each turn), rounds_to_win (2),
swap (allow the one-card exchange), first_player (a name), several_words
("refuse" or "clue"), clued ("per_card" or "per_player"), roots ("near" or
"exact"), claims ("checked" or "trusted"). During play the timer
can be changed by voice: "host, relaxed mode", "host, timer on", "host, timer
twelve seconds" (3 to 60); the turn goes on.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

from host.contract import Choice, Intent, JsonObject, Narrow, Prompt
from host.decks import WORDS_FILE, DeckEntry, Decks, WordCard, sound_key, sound_words
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
    narrow_numbers,
    new_rng,
    private,
    say,
    score,
    sound,
)
from host.moves import No, Said, Timeout, Yes, named
from host.rules import convert_rule, merge_rules
from host.views import CardView, HandView

ID = "keep-cool"
TITLE = "Keep Cool"
ORDER = 3
DECK = DeckEntry("words", WORDS_FILE)
MODES = ("basic", "too-cool")
DEALS = ("host", "table")
MIN_PLAYERS = 3
MAX_PLAYERS = 8
TIMER_SECONDS = (3, 60)
"""The turn time a table may choose (turn_seconds, or "host, timer twelve seconds"): below 3
nobody can say a word in time; above 60 the turn drags (relaxed=true turns the timer off)."""


class Rules(TypedDict):
    """The game's own rules (GameOptions.rules), as check_rules gives them."""

    face: str | None  # None: asked at the table
    line: int | None
    turn_seconds: float
    warning_seconds: float
    relaxed: bool
    say_names: bool
    rounds_to_win: int
    swap: bool
    first_player: str | None
    several_words: str
    clued: str
    roots: str
    claims: str


RULE_DEFAULTS: Rules = {
    "face": None,
    "line": None,
    "turn_seconds": 8.0,
    "warning_seconds": 3.0,
    "relaxed": False,
    "say_names": False,
    "rounds_to_win": 2,
    "swap": True,
    "first_player": None,
    "several_words": "refuse",  # "refuse": "one word", the turn goes on; "clue": take it
    "clued": "per_card",  # a card wins once a clue of its own was given (the rulebook); "per_player"
    "roots": "near",  # "near": a root misspelt or said near ("velvit") is one too; "exact"
    "claims": "checked",  # host deal: a claim wins only a card whose word was said; "trusted"
}
RULES_BEFORE = {"clued": "per_player", "roots": "exact", "claims": "trusted"}
"""A game saved before these rules existed resumes as it was played."""
RULES_SUMMARY = (
    "Keep Cool. Everyone holds 4 secret words. On your turn you say one single word: "
    "either a hint for the player who plays after you, or a guess at a word of the "
    "player who played before you. Nobody says which it is. A right guess wins the "
    "card for both of you, but only once its owner has given a clue for it. You may "
    "not say a word with the same root as one of your own. When the time runs out, "
    "the buzzer sounds and the turn passes. The round ends as soon as someone has "
    "no cards left: count the cards on both sides of you; most cards wins the round. "
    "The direction of play flips every round, and 2 round wins take the game. "
    "In the Too Cool game you may also attack: guess a word of any other player to "
    "take that card for yourself, for 1 point, while shared cards score 2 each."
)

HAND_SIZE = 4
FACES = ("red", "blue")
LINES = range(1, 11)


@dataclass
class WonCard:
    """A card won this round: between guesser and owner, or an attack trophy."""

    word: str | None  # None in table deal: the host never sees physical cards
    card: Any  # the WordCard (host deal), returned to the deck after the round
    owner: str
    winner: str  # the player who said the word
    attack: bool


@dataclass
class KeepCoolState:
    """Everything about one game; a deep copy of it is all `apply` ever changes."""

    players: tuple[str, ...]
    mode: str
    deal: str
    rules: Rules
    rng: random.Random
    phase: str = "face"  # face, line, swap, ready, play, over
    face: str | None = None
    line: int | None = None
    round_number: int = 1
    direction: int = 1  # +1: seat order (clockwise), -1: the other way
    starter: str = ""  # who plays first this round
    turn: str = ""  # whose turn it is (phase play)
    swap_queue: list[str] = field(default_factory=list)
    hands: dict[str, list[Any]] = field(default_factory=dict)  # WordCard, or None: unseen
    draw_pile: list[Any] = field(default_factory=list)
    discard_pile: list[Any] = field(default_factory=list)
    set_aside: list[Any] = field(default_factory=list)  # rejected this round
    won: list[WonCard] = field(default_factory=list)
    spoken: list[str] = field(default_factory=list)  # said a word this round
    clues: dict[str, int] = field(default_factory=dict)  # words said this round that won nothing
    last_speaker: str | None = None  # whose word a claimed hit would be (none after a hit)
    said: list[str] = field(default_factory=list)  # the last word as heard: its readings (host deal)
    buzzed: bool = False  # the buzzer sounded since the last word was said
    claim: dict[str, str] | None = None  # host deal, phase claim: {"speaker", "owner"}
    round_wins: dict[str, int] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- setup


def setup(options: GameOptions, decks: Decks) -> tuple[KeepCoolState, list[Event]]:
    """Check the options, shuffle the word deck, and deal if face and line are preset."""
    mode = options.mode or MODES[0]
    deal = options.deal or DEALS[0]
    if mode not in MODES:
        raise RuleError(f"Keep Cool has no mode {mode!r}; choose basic or too-cool.")
    players = _checked_players(options.players, mode)
    if deal not in DEALS:
        raise RuleError(f"Keep Cool has no deal {deal!r}; choose host or table.")
    rules = check_rules(options.rules, players)
    rng = new_rng(options.seed)
    draw_pile: list[WordCard] = []
    if deal == "host":
        draw_pile = list(decks.words)
        needed = HAND_SIZE * len(players)
        if len(draw_pile) < needed:
            raise RuleError(f"The word deck has {len(draw_pile)} cards; {len(players)} players need at least {needed}.")
        rng.shuffle(draw_pile)
    first = rules["first_player"] or players[0]
    state = KeepCoolState(
        players=players,
        mode=mode,
        deal=deal,
        rules=rules,
        rng=rng,
        face=rules["face"],
        line=rules["line"],
        starter=first,
        turn=first,
        draw_pile=draw_pile,
        round_wins={p: 0 for p in players},
    )
    events: list[Event] = [say(f"Keep Cool, {_mode_name(mode)}, for {join_names(players)}.")]
    _continue_setup(state, events)
    return state, events


def _checked_players(players: tuple[str, ...], mode: str) -> tuple[str, ...]:
    players = tuple(players)
    check_player_count(TITLE, mode, players, MIN_PLAYERS, MAX_PLAYERS)
    if any(not p.strip() for p in players):
        raise RuleError("Every player needs a name.")
    if len({p.lower() for p in players}) != len(players):
        raise RuleError("Two players have the same name; give everyone a different one.")
    return players


def check_rules(given: JsonObject, players: tuple[str, ...] | None = None) -> Rules:
    """Merge the rules over the defaults, then check what only Keep Cool knows; the first
    player against the table only when there is one (the settings check rules before)."""
    rules = merge_rules(TITLE, RULE_DEFAULTS, given)
    face = _optional("face", rules["face"], str)
    rules["face"] = face.lower() if face is not None else None
    if rules["face"] is not None and rules["face"] not in FACES:
        raise RuleError("The face must be red or blue.")
    rules["line"] = _optional("line", rules["line"], int)
    if rules["line"] is not None and rules["line"] not in LINES:
        raise RuleError("The line must be a number from 1 to 10.")
    low, high = TIMER_SECONDS
    if not rules["relaxed"] and not low <= rules["turn_seconds"] <= high:  # relaxed: no timer to check
        raise RuleError(f"The turn time must be from {low} to {high} seconds (relaxed=true: no timer).")
    if rules["warning_seconds"] < 0:
        raise RuleError("The warning time cannot be negative.")
    if rules["rounds_to_win"] < 1:
        raise RuleError("rounds_to_win must be 1 or more.")
    if rules["several_words"] not in ("refuse", "clue"):
        raise RuleError("The rule several_words must be refuse or clue.")
    if rules["clued"] not in ("per_card", "per_player"):
        raise RuleError("The rule clued must be per_card or per_player.")
    if rules["roots"] not in ("near", "exact"):
        raise RuleError("The rule roots must be near or exact.")
    if rules["claims"] not in ("checked", "trusted"):
        raise RuleError("The rule claims must be checked or trusted.")
    rules["first_player"] = _optional("first_player", rules["first_player"], str)
    if rules["first_player"] is not None and players is not None and rules["first_player"] not in players:
        raise RuleError(f"The first player {rules['first_player']!r} is not at the table.")
    return rules


def _optional(key: str, value: object, kind: type) -> Any:
    """A rule whose default None means "not chosen" (asked at the table); "none" says so too."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
        return None
    return convert_rule(key, value, kind)


def _mode_name(mode: str) -> str:
    return "the Too Cool game" if mode == "too-cool" else "the basic game"


def _continue_setup(s: KeepCoolState, events: list[Event]) -> None:
    """Ask for whatever is still unknown, or deal the first round."""
    if s.face is None:
        s.phase = "face"
    elif s.line is None:
        s.phase = "line"
    else:
        _start_round(s, events)


# ------------------------------------------------------------------ seats and turns


def play_order(s: KeepCoolState, start: str) -> list[str]:
    """Everyone once, in the order they play this round, starting with `start`."""
    n = len(s.players)
    i = s.players.index(start)
    return [s.players[(i + k * s.direction) % n] for k in range(n)]


def next_player(s: KeepCoolState, player: str) -> str:
    """Who plays after `player` this round; also who guesses `player`'s words."""
    return play_order(s, player)[1]


def previous_player(s: KeepCoolState, player: str) -> str:
    """Who played before `player`; `player` guesses this player's words."""
    return play_order(s, player)[-1]


def words_in_play(s: KeepCoolState) -> list[str]:
    """Every word still in a hand (host deal); empty in table deal."""
    return [_word(s, card) for p in s.players for card in s.hands.get(p, []) if card is not None]


def _word(s: KeepCoolState, card: Any) -> str:
    return card.word(s.face, s.line)


def _hand_words(s: KeepCoolState, player: str) -> list[str]:
    return [_word(s, card) for card in s.hands[player] if card is not None]


# ----------------------------------------------------------------------- the deck


def _draw(s: KeepCoolState, events: list[Event]) -> Any:
    """The top card, reshuffling earlier rounds' discards once the pile is empty."""
    if not s.draw_pile:
        if not s.discard_pile:
            raise RuleError("There is no spare card left, so keep your cards.")
        s.draw_pile, s.discard_pile = s.discard_pile, []
        s.rng.shuffle(s.draw_pile)
        events.append(say("Shuffling the used word cards back in."))
    return s.draw_pile.pop()


def _start_round(s: KeepCoolState, events: list[Event]) -> None:
    """Deal fresh hands, announce the order of play, then swaps or play."""
    s.won, s.spoken, s.clues, s.last_speaker = [], [], {}, None
    order = play_order(s, s.starter)
    events.append(
        say(
            f"Round {s.round_number}. Order of play: {join_names(order)}. "
            "Make the next player guess your words, and guess the words of the player before you."
        )
    )
    if s.deal == "host":
        for player in order:
            s.hands[player] = [_draw(s, events) for _ in range(HAND_SIZE)]
        for player in order:
            events.append(private(player, _hand_text(s, player, "Your words")))
        if s.rules["swap"]:
            s.phase, s.swap_queue = "swap", order
            return
        _start_play(s, events)
    else:
        s.hands = {p: [None] * HAND_SIZE for p in s.players}
        s.phase = "ready"


def _hand_text(s: KeepCoolState, player: str, opening: str) -> str:
    words = ", ".join(f"{i} {w}" for i, w in enumerate(_hand_words(s, player), start=1))
    return f"{opening}: {words}. {next_player(s, player)} guesses your words; you guess {previous_player(s, player)}'s."


def _start_play(s: KeepCoolState, events: list[Event]) -> None:
    s.phase, s.turn = "play", s.starter
    events.append(say(f"{s.starter} starts. Keep cool!"))


# --------------------------------------------------------------------------- prompt


def prompt(state: KeepCoolState) -> Prompt | None:
    """The question of the moment: setup choices, or whose word it is."""
    if state.phase == "over":
        return None
    asks = {
        "face": _face_prompt,
        "line": _line_prompt,
        "swap": _swap_prompt,
        "claim": _claim_prompt,
        "ready": _ready_prompt,
    }
    return asks.get(state.phase, _word_prompt)(state)


def _face_prompt(s: KeepCoolState) -> Prompt:
    return Prompt(
        "keep-cool/setup",
        s.starter,
        f"{s.starter}, which side of the cards do we use: red or blue?",
        context={"step": "face"},
        choices=("red", "blue"),
        narrow=Narrow("Which side?", tuple(Choice(face, {"intent": "face", "face": face}) for face in FACES)),
    )


def _line_prompt(s: KeepCoolState) -> Prompt:
    return Prompt(
        "keep-cool/setup",
        s.starter,
        f"{s.starter}, which line, from 1 to 10? Lines 8 to 10 are the hard ones.",
        context={"step": "line"},
        choices=("line 3", "5"),
        narrow=narrow_numbers("Which line?", LINES, lambda n: {"intent": "line", "line": n}, lambda n: f"Line {n}"),
    )


def _swap_prompt(s: KeepCoolState) -> Prompt:
    player = s.swap_queue[0]
    return Prompt(
        "keep-cool/setup",
        player,
        f"{player}, do you swap a card? Say its number, 1 to 4, or no.",
        context={"step": "swap", "cards": len(s.hands[player])},
        choices=("card 2", "swap the first one", "no"),
        narrow=Narrow(
            "Swap which card?",
            (Choice("none", {"intent": "no"}, "Keep them all?"),)
            + tuple(
                Choice(str(n), {"intent": "reject_card", "card": n}, f"Swap card {n}?")
                for n in range(1, len(s.hands[player]) + 1)
            ),
        ),
    )


def _claim_prompt(s: KeepCoolState) -> Prompt:
    assert s.claim is not None
    owner = s.claim["owner"]
    context = {"words": _hand_words(s, owner)}
    return Prompt(
        "keep-cool/claim",
        owner,
        f"{owner}, which of your words was it?",
        context=context,
        slots=grammar_slots("keep-cool/claim", context),
        choices=("the first one", "the second word", "no"),  # by place: the table hears examples too
        narrow=_claim_narrow(context["words"]),
    )


def _ready_prompt(s: KeepCoolState) -> Prompt:
    swap = " Each of you may swap one." if s.rules["swap"] else ""
    return Prompt(
        "keep-cool/setup",
        s.starter,
        f"Deal 4 cards to everyone: {s.face} side, line {s.line}.{swap} {s.starter}, say ready when everyone is set.",
        context={"step": "ready"},
        choices=("ready", "we're ready"),
        narrow=Narrow("Ready?", (Choice("ready", {"intent": "ready"}, "Are you ready?"),)),
    )


def _word_prompt(s: KeepCoolState) -> Prompt:
    choices: tuple[str, ...] = ("any single word", "a hint or a guess", "host, score")
    if s.deal == "table":
        choices += (f"{previous_player(s, s.turn)} got it",)
    name = "keep-cool/word"
    context = {"words": words_in_play(s), "roster": list(s.players)}
    timeout = _turn_timeout(s)
    warning = s.rules["warning_seconds"] if timeout and s.rules["warning_seconds"] else None
    return Prompt(
        name,
        s.turn,
        f"{s.turn}." if s.rules["say_names"] else "",  # the turn cue alone: quiet turns
        context=context,
        slots=grammar_slots(name, context),
        choices=choices,
        timeout=timeout,
        warning=min(warning, timeout) if warning and timeout else None,
        unclear=UNCLEAR[name].copy(),
        narrow=_words_narrow(s),
    )


HELP = {
    "keep-cool/word": (
        "During a turn any word you say is a clue, so say host before a command: host, score. "
        "Host, repeat, whose turn, read the table, undo, pause, rules, relaxed mode and quit work the "
        "same way, and so does the wake word in place of host."
    )
}
"""What "help" says of the commands at a turn (host.engine.Game.HELP): they need the prefix."""


def _claim_narrow(words: list[str]) -> Narrow:
    """The owner's words by their place in the hand as they last heard it ("1 cart, 2
    salmon"), never by the words themselves, which the guesser must not hear."""
    return Narrow(
        "Which of your words?",
        tuple(
            Choice(ORDINALS[i], {"intent": "word", "word": word}, f"Your {ORDINALS[i]} word?")
            for i, word in enumerate(words[: len(ORDINALS)])
        )
        + (Choice("none", {"intent": "no"}, "None of them?"),),
    )


def _words_narrow(s: KeepCoolState) -> Narrow:
    """What the host can offer at a turn without saying a word in play: to count what
    it could not read as the clue (as it does with speech it cannot read). A guess is
    never offered: the words it could name are other players' secrets."""
    clue = Choice("clue", UNCLEAR["keep-cool/word"].copy(), f"{s.turn}, count that as your clue?")
    return Narrow("Your clue?", (clue,))


UNCLEAR: dict[str, Intent] = {"keep-cool/word": {"intent": "word", "word": None}}
"""Speech not understood during a word turn still ends it, as a clue (see Prompt.unclear)."""


def grammar_slots(prompt: str, context: dict[str, Any]) -> dict[str, list[tuple[str, Any]]]:
    """The live slot lists of a prompt's grammar, built from its context alone.

    The accuracy benchmark knows a recorded prompt only by its name and manifest
    context, so the grammar must not depend on anything else in the game state.
    keep-cool/word: {"words": [...], "roster": [player names]} gives the words
    in play and the names for "Ana got it"; setup has no live lists.
    """
    if prompt == "keep-cool/claim":  # {"words": the claiming owner's words}, or by place ("the first one")
        words = list(context.get("words") or [])[: len(ORDINALS)]
        places = [(f"{ORDINALS[i]}{end}", w) for i, w in enumerate(words) for end in ("", " one", " word")]
        return {"word": [(w, w) for w in words] + places}
    if prompt != "keep-cool/word":
        return {}
    words = context.get("words") or []
    spoken = [(w, w) for w in words]
    spoken += [(form, w) for w in words for form in plurals(w) if form not in words]
    return {"word": spoken, "player": [(p, p) for p in context.get("roster") or []]}


def plurals(word: str) -> list[str]:
    """The plural a player may say for a word in play ("candles" for "candle").

    The word prompt matches words in play exactly (docs/rules.md): a near miss is
    another word ("widow" is not "window", "plane" is not "planet"), so the one
    change that still names the card is listed here instead of left to fuzzy matching.
    """
    if " " in word or "-" in word or not word.isalpha():
        return []
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return [word + "es"]
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return [word[:-1] + "ies"]
    return [word + "s"]


def _turn_timeout(s: KeepCoolState) -> float | None:
    seconds = s.rules["turn_seconds"]
    if s.rules["relaxed"] or not seconds:
        return None
    return float(seconds)


# ---------------------------------------------------------------------------- apply


class Face(Said):
    intent: Literal["face"]
    face: str  # "red" or "blue"


class Line(Said):
    intent: Literal["line"]
    line: int  # 1 to 10


class RejectCard(Said):
    intent: Literal["reject_card"]  # swap that card
    card: int


class Ready(Said):
    intent: Literal["ready"]


class _Word(Said):
    intent: Literal["word"]
    word: str | None  # a word in play; None: any other word, a clue


class Word(_Word, total=False):
    text: str  # the words said, as the grammar's fallback took them
    heard: list[str]  # speech taken unread as a clue: the words each ear wrote (Prompt.unclear)


class _Hit(Said):
    intent: Literal["hit"]


class Hit(_Hit, total=False):
    owner: str  # whose word was guessed; left out: the player before the speaker


class Timer(Said):
    intent: Literal["timer"]
    seconds: int


class _Relaxed(Said):
    intent: Literal["relaxed"]


class Relaxed(_Relaxed, total=False):
    on: bool  # left out: on


Move = Face | Line | RejectCard | Ready | Word | Hit | Timer | Relaxed | Timeout | Yes | No
"""Every intent Keep Cool's prompts hear (docs/specs/intents.md), by kind."""


def apply(state: KeepCoolState, action: Action) -> tuple[KeepCoolState, list[Event]]:
    """Apply one player's intent to a copy of the state; RuleError leaves all as it was."""
    s = evolve(state)
    events: list[Event] = []
    move = cast(Move, named(action))  # by its name; each field is checked where it is used
    intent = move.get("intent")
    if s.phase == "over":
        raise RuleError("The game is over.")
    if s.phase == "face":
        _choose_face(s, intent, move, events)
    elif s.phase == "line":
        _choose_line(s, intent, move, events)
    elif s.phase == "swap":
        _swap(s, intent, move, events)
    elif s.phase == "ready":
        _ready(s, intent, events)
    elif s.phase == "claim":
        _settle_claim(s, move, events)
    elif move["intent"] == "word":
        _say_word(s, move, events)
    elif move["intent"] == "timeout":
        _time_out(s, events)
    elif move["intent"] == "hit":
        _claim_hit(s, move, events)
    elif move["intent"] == "timer" or move["intent"] == "relaxed":
        _set_timer(s, move, events)
    else:
        raise RuleError(f"{s.turn}, say one word.")
    return s, events


def _choose_face(s: KeepCoolState, intent: Any, action: Move, events: list[Event]) -> None:
    face = str(action.get("face") or "").lower()
    if intent != "face" or face not in FACES:
        raise RuleError("Say red or blue.")
    s.face = face
    events.append(say(f"The {face} side."))
    _continue_setup(s, events)


def _choose_line(s: KeepCoolState, intent: Any, action: Move, events: list[Event]) -> None:
    line = _whole_number(action.get("line"))
    if intent != "line" or line not in LINES:
        raise RuleError("Say a line number from 1 to 10.")
    s.line = line
    events.append(say(f"Line {line}, for the whole game."))
    _continue_setup(s, events)


def _swap(s: KeepCoolState, intent: Any, action: Move, events: list[Event]) -> None:
    """One player's optional exchange; a bare number (heard as a line) names a card."""
    player = s.swap_queue[0]
    if intent == "no":
        events.append(say(f"{player} keeps all 4."))
    elif intent in ("reject_card", "line"):
        number = _whole_number(action.get("card") if intent == "reject_card" else action.get("line"))
        hand = s.hands[player]
        if number is None or not 1 <= number <= len(hand):
            raise RuleError(f"{player}, say a card number from 1 to {len(hand)}, or no.")
        replacement = _draw(s, events)
        s.set_aside.append(hand[number - 1])
        hand[number - 1] = replacement
        events.append(say(f"{player} swaps card {number}."))
        events.append(private(player, _hand_text(s, player, f"New card {number}. Your words")))
    else:
        raise RuleError(f"{player}, say a card number to swap it, or no.")
    s.swap_queue.pop(0)
    if not s.swap_queue:
        _start_play(s, events)


def _whole_number(value: Any) -> int | None:
    """An intent's number as an int (a matcher may hand over 3.0), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        return None
    return int(value)


def _ready(s: KeepCoolState, intent: Any, events: list[Event]) -> None:
    if intent not in ("ready", "yes"):
        raise RuleError(f"{s.starter}, say ready when everyone has 4 cards.")
    _start_play(s, events)


# ------------------------------------------------------------------ a word is said


REFUSED = "Not that one. Another word."
"""What the table hears when a word is refused, whatever the reason: a reason said aloud
("that shares a root with one of your words") would tell the guesser part of a secret
word; the reason goes to the player alone (RuleError's aside: the phone page)."""


def _say_word(s: KeepCoolState, action: Word, events: list[Event]) -> None:
    """One word from the player whose turn it is: a clue, a guess, or an attack."""
    speaker = s.turn
    word = _clean(action.get("word"))
    heard = _without_article((_clean(action.get("text")) or "").split())
    if word is None and heard and is_sound_word(heard):
        raise RuleError(REFUSED, aside=f"{speaker}, no sound words: {' '.join(heard)} imitates a sound.")
    if len(heard) > 1 and word is None and s.rules["several_words"] == "refuse":
        raise RuleError(REFUSED, aside=f"{speaker}, one word only, not {len(heard)}.")
    if s.deal == "host":
        _refuse_own_root(s, speaker, ([word] if word else []) + heard)
    if speaker not in s.spoken:
        s.spoken.append(speaker)
    s.last_speaker, s.buzzed = speaker, False
    s.said = _heard_as(word, heard, action.get("heard"))
    hit = _find_hit(s, speaker, word) if s.deal == "host" and word else None
    if hit is None:
        s.clues[speaker] = s.clues.get(speaker, 0) + 1  # maybe a clue: the host cannot tell
        s.turn = next_player(s, speaker)  # the session's turn cue says so: no words, no extra sound
        return
    owner, index = hit
    s.last_speaker = None  # won already: nothing left to claim
    card = s.hands[owner].pop(index)
    _record_win(s, WonCard(word, card, owner, speaker, attack=owner != previous_player(s, speaker)), events)
    _after_win(s, speaker, events, next_turn=next_player(s, speaker))


ARTICLES = ("a", "an", "the")


def _without_article(words: list[str]) -> list[str]:
    """A clue's words without an article before them: "a rabbit" is one word, as players
    say it (docs/rules.md, Keep Cool)."""
    return words[1:] if len(words) > 1 and words[0] in ARTICLES else words


def is_sound_word(said: list[str]) -> bool:
    """A clue that imitates a sound ("meow", "bow wow", "bang bang"), which the rulebook
    forbids: the whole clue is one sound word, or every word of it is one."""
    sounds = sound_words()
    return sound_key(" ".join(said)) in sounds or all(sound_key(word) in sounds for word in said)


def _heard_as(word: str | None, heard: list[str], readings: Any) -> list[str]:
    """Every way the word just said was heard: the word in play taken, the text, and the
    other readings the ears give (`heard`: each ear's reading and the word in play it
    names, voice/listening/second_opinion.py); a claim must match one of them."""
    forms = [word] if word else []
    forms += [" ".join(heard)] if heard else []
    forms += [" ".join(_without_article(text.split())) for text in map(_clean, readings or []) if text]
    return list(dict.fromkeys(forms))


def _clean(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    return value.strip().lower()


def _find_hit(s: KeepCoolState, speaker: str, word: str) -> tuple[str, int] | None:
    """(owner, card index) when `word` wins a card now, else None (a plain clue)."""
    guessed = previous_player(s, speaker)
    candidates = [guessed] + play_order(s, speaker)[1:-1]  # the guessed player first
    for owner in candidates:
        if not _clued(s, owner):
            continue  # no clue given for it yet: the card stays hidden, without a word
        if owner != guessed and s.mode != "too-cool":
            continue  # the basic game has no attacks
        for index, card in enumerate(s.hands[owner]):
            if _word(s, card) == word:
                return owner, index
    return None


def _clued(s: KeepCoolState, owner: str) -> bool:
    """Whether a card of `owner`'s may be won now (rule clued): per card, while they
    have said more words that won nothing this round than cards of theirs were won."""
    if s.rules["clued"] == "per_player":
        return owner in s.spoken
    return s.clues.get(owner, 0) > sum(1 for won in s.won if won.owner == owner)


def _was_a_guess(s: KeepCoolState, speaker: str) -> None:
    """A claimed hit: the word counted as a possible clue when said won a card after all."""
    s.clues[speaker] = max(0, s.clues.get(speaker, 0) - 1)


def _record_win(s: KeepCoolState, won: WonCard, events: list[Event]) -> None:
    s.won.append(won)
    events.append(sound("win_card"))
    if won.word is not None:
        events.append({"type": "reveal", "player": won.owner, "card": won.word, "value": won.word})
    shown = f"{won.word.capitalize()}! " if won.word else ""
    if won.attack:
        events.append(say(f"{shown}Attack! {won.winner} takes {won.owner}'s card."))
    else:
        events.append(say(f"{shown}{won.winner} and {won.owner} win that card."))


def _after_win(s: KeepCoolState, speaker: str, events: list[Event], next_turn: str) -> None:
    """End the round if a hand is empty, else play on with `next_turn`."""
    emptied = [p for p in s.players if not s.hands[p]]
    if emptied:
        _end_round(s, emptied, speaker, events)
    else:
        s.turn = next_turn


def _time_out(s: KeepCoolState, events: list[Event]) -> None:
    """The buzzer beat the player: nothing said, the turn passes."""
    events.append(sound("buzzer"))
    s.buzzed = True
    s.turn = next_player(s, s.turn)


def _set_timer(s: KeepCoolState, action: Timer | Relaxed, events: list[Event]) -> None:
    """ "host, relaxed mode" / "host, timer on" / "host, twelve seconds": the same turn goes on."""
    if action["intent"] == "relaxed":
        s.rules["relaxed"] = bool(action.get("on", True))
        if s.rules["relaxed"]:
            events.append(say("Relaxed mode: no timer."))
            return
        if not s.rules["turn_seconds"]:
            s.rules["turn_seconds"] = RULE_DEFAULTS["turn_seconds"]
    else:
        seconds = _whole_number(action.get("seconds"))
        low, high = TIMER_SECONDS
        if seconds is None or not low <= seconds <= high:
            raise RuleError(f"The timer can be set from {low} to {high} seconds.")
        s.rules["turn_seconds"], s.rules["relaxed"] = float(seconds), False
    events.append(say(f"Timer on: {s.rules['turn_seconds']:g} seconds a turn."))


def _claim_hit(s: KeepCoolState, action: Hit, events: list[Event]) -> None:
    """The owner says the last word said was one of their cards.

    Table deal: the host takes their word for it. Host deal: the host missed it
    (it heard a clue), so it asks the owner which of their words it was and
    takes that card (the claim prompt, keep-cool/claim).
    """
    speaker = s.last_speaker
    if speaker is None:
        raise RuleError("No word is waiting to be claimed.")
    guessed = previous_player(s, speaker)
    owner = action.get("owner")
    if owner is None:
        if s.mode == "too-cool":
            raise RuleError("Whose card was it? Say, for example, Ben got it.")
        owner = guessed
    owner = _player_named(s, owner)
    if owner == speaker:
        raise RuleError(f"{speaker} cannot win a card of their own.")
    if owner != guessed and s.mode != "too-cool":
        raise RuleError(f"In the basic game {speaker} can only win {guessed}'s words.")
    if not _clued(s, owner):
        raise RuleError(f"That doesn't count: {owner} had not given a clue for it yet.")
    if s.deal == "host":
        _check_claim(s, _hand_words(s, owner))
        s.phase, s.claim = "claim", {"speaker": speaker, "owner": owner}
        return
    s.hands[owner].pop()
    s.last_speaker = None
    _was_a_guess(s, speaker)
    _record_win(s, WonCard(None, None, owner, speaker, attack=owner != guessed), events)
    _after_win(s, speaker, events, next_turn=s.turn)


def _settle_claim(s: KeepCoolState, action: Move, events: list[Event]) -> None:
    """Host deal: the owner names the word the host missed (or takes the claim back)."""
    assert s.claim is not None
    speaker, owner = s.claim["speaker"], s.claim["owner"]
    if action["intent"] == "no":
        s.phase, s.claim = "play", None
        events.append(say("Fine, no card."))
        return
    word = _clean(action.get("word")) if action["intent"] == "word" else None
    words = _hand_words(s, owner)
    if word not in words:
        places = join_names(list(ORDINALS[: len(words)]), "or")  # by place: the table hears this
        raise RuleError(f"{owner}, say which of your words it was, by its place: {places}; or no.")
    _check_claim(s, [word])
    index = words.index(word)
    card = s.hands[owner].pop(index)
    s.phase, s.claim, s.last_speaker = "play", None, None
    _was_a_guess(s, speaker)
    guessed = previous_player(s, speaker)
    _record_win(s, WonCard(word, card, owner, speaker, attack=owner != guessed), events)
    _after_win(s, speaker, events, next_turn=s.turn)


CLAIM_MISMATCH = "That claim does not match."


def _check_claim(s: KeepCoolState, words: list[str]) -> None:
    """Host deal, rule claims "checked": a claim stands only for a card whose word was the
    word said, as the host heard it (any of its readings), and only until the buzzer
    sounds after it (the rulebook: play goes on without waiting)."""
    if s.rules["claims"] != "checked":
        return
    if s.buzzed:
        raise RuleError("Too late: the buzzer has sounded since that word.")
    if not any(said_is(form, word) for form in s.said for word in words):
        raise RuleError(CLAIM_MISMATCH)


def said_is(said: str, word: str) -> bool:
    """Whether `said` names the word in play `word`: the word itself or its plural (a
    word said alike comes from the ears, in the move's "heard": host/ knows no sounds)."""
    return said == word or said in plurals(word)


def _player_named(s: KeepCoolState, name: Any) -> str:
    for player in s.players:
        if isinstance(name, str) and player.lower() == name.strip().lower():
            return player
    raise RuleError(f"{name} is not playing.")


# ------------------------------------------------------------------ the root check


LIGHT_SUFFIXES = ("ings", "ing", "ers", "er", "es", "ed", "s", "ly", "ness", "ment", "ful", "less")


def _refuse_own_root(s: KeepCoolState, speaker: str, said: list[str]) -> None:
    near = s.rules["roots"] == "near"
    for word in said:
        for own in _hand_words(s, speaker):
            if said_is(word, own):
                raise RuleError(REFUSED, aside=f"{speaker}, {own} is your own word.")
            if share_root(word, own, near):
                raise RuleError(REFUSED, aside=f"{speaker}, {word} shares a root with your word {own}.")


def share_root(a: str, b: str, near: bool = True) -> bool:
    """True when two words are too close to be a fair clue for each other; `near`: also
    when one is the other's root misspelt or said a little otherwise ("velvit")."""
    parts_a, parts_b = _parts(a), _parts(b)
    close = _close_or_near if near else _close
    if len(parts_a) + len(parts_b) > 2:  # a compound: compare each part too
        return any(close(x, y) for x in parts_a + [_letters(a)] for y in parts_b + [_letters(b)])
    return close(_letters(a), _letters(b))


def _close_or_near(a: str, b: str) -> bool:
    """_close, or, for words of 5 letters or more, the same stem as it sounds
    (_sound_spelling) but for a vowel after the first ("velvit" / "velvet", "sweter" /
    "sweater"): a misspelling or a near saying changes an unstressed vowel most. The first
    vowel is kept apart, which is most often the stressed one ("battle" is no "bottle")."""
    if _close(a, b):
        return True
    if min(len(a), len(b)) < 5:
        return False
    a_stem, b_stem = _stem(_sound_spelling(a)), _stem(_sound_spelling(b))
    return _consonants(a_stem) == _consonants(b_stem) and _first_vowel(a_stem) == _first_vowel(b_stem)


SOUND_SPELLINGS = (("ph", "f"), ("ck", "k"), ("q", "k"), ("c", "k"), ("z", "s"), ("y", "i"))
"""Spellings of one sound, written one way ("kolour" and "colour" alike)."""


def _sound_spelling(word: str) -> str:
    """A word written as it sounds, roughly: one spelling per sound, no doubled letters."""
    for written, sound_ in SOUND_SPELLINGS:
        word = word.replace(written, sound_)
    return re.sub(r"(.)\1+", r"\1", word)


def _consonants(word: str) -> str:
    """The word with each run of vowels as one mark: "sweater" and "sweter" alike."""
    return re.sub(r"[aeiou]+", "_", word)


def _first_vowel(word: str) -> str:
    return next((letter for letter in word if letter in "aeiou"), "")


def _close(a: str, b: str) -> bool:
    """The single-word test: shared start, compound ending, 5 common letters, same stem."""
    if not a or not b:
        return False
    short, long = sorted((a, b), key=len)
    if len(short) >= 3 and long.startswith(short):
        return True  # "arm" / "armour"
    if len(short) >= 4 and long.endswith(short) and len(long) - len(short) >= 3:
        return True  # "mother" / "grandmother", but not "ring" / "spring"
    if len(_common_prefix(a, b)) >= 5:
        return True  # "painter" / "painting"
    return _stem(a) == _stem(b)  # "flies" / "fly"


def _parts(word: str) -> list[str]:
    """The pieces of a hyphenated or spaced compound ("wolf-dog" -> wolf, dog)."""
    return [_letters(p) for p in re.split(r"[-\s]+", word) if _letters(p)]


def _letters(word: str) -> str:
    return re.sub(r"[^a-z]", "", word.lower())


def _common_prefix(a: str, b: str) -> str:
    size = 0
    while size < min(len(a), len(b)) and a[size] == b[size]:
        size += 1
    return a[:size]


def _stem(word: str) -> str:
    """The word without one light suffix, keeping 3 letters ("flies" -> "fli" -> "fly")."""
    stem = word
    for suffix in LIGHT_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            break
    return stem[:-1] + "y" if stem.endswith("i") else stem


# ------------------------------------------------------------------ end of a round


def round_points(s: KeepCoolState) -> dict[str, int]:
    """Points of the current round: shared cards count for both sides, attacks for one."""
    shared = 2 if s.mode == "too-cool" else 1
    points = {p: 0 for p in s.players}
    for won in s.won:
        if won.attack:
            points[won.winner] += 1
        else:
            points[won.winner] += shared
            points[won.owner] += shared
    return points


def _end_round(s: KeepCoolState, emptied: list[str], speaker: str, events: list[Event]) -> None:
    """Score the round, crown its winners, then end the game or deal the next round."""
    points = round_points(s)
    best = max(points.values())
    round_winners = [p for p in s.players if points[p] == best]
    events.append(
        say(f"{join_names(emptied)} has no cards left: round {s.round_number} is over. Points: {_listing(points)}.")
    )
    for player in round_winners:
        s.round_wins[player] += 1
        events.append(score(player, 1, s.round_wins[player], f"won round {s.round_number}"))
    verb = "wins" if len(round_winners) == 1 else "win"
    events.append(say(f"{join_names(round_winners)} {verb} the round. Round wins: {_listing(s.round_wins)}."))
    _collect_cards(s)
    champions = [p for p in s.players if s.round_wins[p] >= s.rules["rounds_to_win"]]
    if champions:
        _finish(s, champions, events)
        return
    s.round_number += 1
    s.direction = -s.direction
    s.starter = speaker
    _start_round(s, events)


def _listing(values: dict[str, int]) -> str:
    return ", ".join(f"{p} {n}" for p, n in values.items())


def _collect_cards(s: KeepCoolState) -> None:
    """Hands, won cards and swapped-out cards all go to the discard pile."""
    for player in s.players:
        s.discard_pile.extend(card for card in s.hands.get(player, []) if card is not None)
        s.hands[player] = []
    s.discard_pile.extend(won.card for won in s.won if won.card is not None)
    s.discard_pile.extend(s.set_aside)
    s.set_aside = []


def _finish(s: KeepCoolState, champions: list[str], events: list[Event]) -> None:
    s.phase, s.winners = "over", champions
    verb = "wins" if len(champions) == 1 else "share"
    events.append(sound("game_over"))
    events.append(say(f"{join_names(champions)} {verb} the game!"))
    events.append(game_over(dict(s.round_wins), list(champions)))


# --------------------------------------------------------------------------- scores


def table_text(state: KeepCoolState) -> str:
    """What the table sees ("host, read the table"): the order of play and whose turn it
    is, every card won this round (face up: its word in host deal), and the scores."""
    s = state
    parts = []
    if s.phase in ("play", "claim"):
        parts.append(
            f"Round {s.round_number}. Order of play: {join_names(play_order(s, s.starter))}. It is {s.turn}'s turn."
        )
        won = [_won_text(won) for won in s.won]
        parts.append(f"Cards won: {'; '.join(won)}." if won else "No card won yet this round.")
    return " ".join(parts + [scores(s)])


def _won_text(won: WonCard) -> str:
    """ "castle, between Ana and Cy" or "castle, taken by Ana from Cy" ("a card" in table deal)."""
    word = won.word or "a card"
    if won.attack:
        return f"{word}, taken by {won.winner} from {won.owner}"
    return f"{word}, between {won.winner} and {won.owner}"


def scores(state: KeepCoolState) -> str:
    """Round wins so far, and this round's points while it is being played."""
    s = state
    text = f"Round wins: {_listing(s.round_wins)}. First to {s.rules['rounds_to_win']} wins."
    if s.phase == "over":
        return f"Game over. {text}"
    if s.phase == "play":
        text += f" Round {s.round_number} so far: {_listing(round_points(s))}."
    return text


# ------------------------------------------------------------------- a resume


def resumed(state: KeepCoolState) -> list[Event]:
    """After a resume each player hears their words again, privately, as the round's start
    gave them: nobody at a table remembers four words across a break (host deal)."""
    s = state
    if s.deal != "host" or s.phase not in ("swap", "play", "claim") or not s.starter:
        return []
    return [private(p, _hand_text(s, p, "Your words")) for p in play_order(s, s.starter) if _hand_words(s, p)]


# ------------------------------------------------------------------- the phone page


def hand_view(state: KeepCoolState, player: str) -> HandView | None:
    """`player`'s own words for their phone page (host deal only), numbered as spoken.

    During `player`'s swap turn each card offers its reject_card intent and the page
    offers "keep all four", the same choices as saying "card 2" or "no". The words
    can be marked on the page ("I am cluing this one"); the game never sees marks.
    """
    s = state
    if s.deal != "host" or player not in s.players:
        return None
    hand = [card for card in s.hands.get(player, []) if card is not None]
    swapping = s.phase == "swap" and bool(s.swap_queue) and s.swap_queue[0] == player
    claiming = s.phase == "claim" and s.claim is not None and s.claim["owner"] == player
    cards = tuple(
        CardView(
            label=_word(s, card),
            detail=f"card {i}",
            play=(
                {"intent": "reject_card", "card": i}
                if swapping
                else {"intent": "word", "word": _word(s, card)}
                if claiming
                else None
            ),
            play_label=(
                f"Swap card {i}, {_word(s, card)}" if swapping else f"It was {_word(s, card)}" if claiming else ""
            ),
        )
        for i, card in enumerate(hand, start=1)
    )
    facts = _hand_facts(s, player, swapping)
    actions: tuple[tuple[str, Intent], ...] = (
        (("Keep all four", {"intent": "no"}),)
        if swapping
        else (("None of them", {"intent": "no"}),)
        if claiming
        else ()
    )
    if hand:
        spoken = _hand_text(s, player, "Your words")
    else:
        spoken = "You hold no words right now."
    return HandView(
        heading=f"Your {len(hand)} word{'' if len(hand) == 1 else 's'}",
        cards=cards,
        spoken=spoken,
        facts=tuple(facts),
        actions=actions,
        markable=s.phase == "play" and bool(hand),
    )


def _hand_facts(s: KeepCoolState, player: str, swapping: bool) -> list[str]:
    """Whose turn matters to `player`, and the cards they won or lost this round."""
    if s.phase == "over":
        facts = ["The game is over."]
    elif s.phase in ("face", "line"):
        facts = ["Waiting for the side and line of the cards to be chosen."]
    else:
        facts = [f"{next_player(s, player)} guesses your words; you guess {previous_player(s, player)}'s."]
    if swapping:
        facts.insert(0, "Your turn to swap: choose a card to swap, or keep all four.")
    for won in s.won:
        word = won.word or "a card"
        if won.attack and won.winner == player:
            facts.append(f"You took {won.owner}'s {word} by attack.")
        elif won.attack and won.owner == player:
            facts.append(f"{won.winner} took your {word} by attack.")
        elif player in (won.winner, won.owner):
            partner = won.owner if won.winner == player else won.winner
            facts.append(f"Won with {partner}: {word}.")
    facts.append(f"Round {s.round_number}; round wins: " + ", ".join(f"{p} {s.round_wins[p]}" for p in s.players) + ".")
    return facts


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
    unclear=UNCLEAR,
    help=HELP,
    hand_view=hand_view,
    hidden_hands=lambda options: options.deal == "host",
    table_text=table_text,
    resumed=resumed,
    check_rules=check_rules,
    rules_before=RULES_BEFORE,
)
