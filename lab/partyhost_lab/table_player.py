"""A simulated table at a live game: the players say their scripted lines when the host
asks, and take what it does with them as patient people would.

What the players know of the host is what a person at the table knows: its words and
cues (the event log's `say` and `sound` lines, read as they are written, while the
audio itself goes to the satellite's speaker) and what its narration tells of a move
it accepted, undid or refused (the log's `intent`, `undo` and `rejected` lines; a line
is done only when the host's words also hold what the typed host said of it, else it
counts as an error: UNTOLD), what their own phone page shows (a `private` line to the
line's player: a refusal whose reason would tell a hand, host.engine.RuleError.secret,
which the table hears as words not read, is done when its reason reaches the page), and
that it has begun narrowing its question (`narrowing`; each narrowed question's own
`narrowed_prompt` line is not read: they hear its words). They never read what the ears heard (`heard`,
`ignored`): that is only kept for the transcript. A player

- waits for the prompt and for the host to fall silent, then says the line (some lines,
  `barge_in` of them, it begins while the host is still finishing);
- answers "Did you mean: X?" truthfully, and again when asked "Sorry? Yes or no?":
  yes when X means what the line meant (the matcher reads X at the typed game's
  prompt, as it read the typed line, and it is the same move, or a move worded
  otherwise that the typed game would do the same with in the state the line was said
  in), else no;
- answers the host's narrowed questions (host/narrowing.py) as a person who knows
  what they meant: "Which card: 1, 2 or 3?" with the one that fits (or that the typed
  game does the same with), "something else" when none listed does, and "Card 2?" with yes or no; a line no choice
  leads to (a command, a move the rules refuse) is said again whole instead;
- says the line again (anew: lab/partyhost_lab/table_speech.py) when the host asked
  again, refused it for another reason than the typed game did, or said nothing for
  PATIENCE_S;
- goes on when the host took another move without a word before its next question
  where the typed host said nothing either (a Keep Cool clue heard as other words is
  not said back: nobody at a table could know), counting it as a wrong move (UNNOTICED);
- says "no, I said <the line>" when the host took another move (a correction,
  host/corrections.py), and answers yes when the host asks the table whether that is
  what was said; where the host says it misheard and takes the move back itself (the
  correction read as the move taken), answers its question for the move's player and
  then its narrowed questions for the line; where the host cannot take a correction (a
  Keep Cool turn, where any word is a clue) or did neither, says "undo" (until it is undone) and then the
  line again, and answers when the host asks whether the move may be taken back (said at
  the next player's turn, an undo needs the move's player's yes) as the typed script
  did: its answer to that question is folded into its "undo" line, a yes where the
  typed game undid the move, else a no;
- claims a word in play the host took as a clue (a host deal: "kettle" read "cattle"),
  as its owner would, who knows their words (their phone page) and heard the word said
  and no card called: "got it" ("Cy got it" where the game has attacks, which needs the
  name), then the word's place when asked which of their words it was ("the first
  one"); the host checks the claim against what its ears wrote. Where the claim is not
  taken (said once), the move is undone and the line said again, as below;
- says "resume" when the host paused the game on a misreading and asks for it;
- gives up after `tries` tries of a line, which ends the game there.

Each scripted line's goal is what the typed game did with it (lab/partyhost_lab/scripted.py): the
same move, the same refusal, or (for a line the typed game did not understand)
nothing taken. "..." is a player keeping silent until the turn's time runs out.
"""

from __future__ import annotations

import random
import re
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np

from host.awaiting import CONFIRM_AGAIN
from host.common_commands import COMMON_INTENTS, CORRECT, UNDO_CONSENT
from host.contract import Choice, Intent, Narrow, Prompt
from host.corrections import TABLE_AGREES
from host.engine import ORDINALS, Action, RuleError
from host.games import get_game
from host.narrowing import SOMETHING_ELSE, YES_NO_PROMPT, question_alone
from partyhost_lab.live_satellite import EventFollower, HostSpeech, RunningSatellite
from partyhost_lab.scripted import SILENCE, Exchange, ScriptCase, play_script
from voice.audio_types import SAMPLE_RATE
from voice.speaking.mixing import speech_end
from voice.understanding.clues import ARTICLES
from voice.understanding.matcher import Matcher

FINISHING_S = 0.25
"""The host's speaker has received nothing new this long: it is finishing (the satellite
streams up to 0.3 s ahead of what it plays), and a player who barges in begins."""
PATIENCE_S = 4.0
"""The host said nothing this long after the end of a line (and is silent): say it again."""
START_S = 240.0
"""Longest wait for the first question (models load; a busy machine is slow)."""
ANSWER_S = 90.0
"""Longest wait for the host to answer a line and fall silent."""
DID_YOU_MEAN = re.compile(r"^did you mean:?\s*(?P<phrase>.+?)\??$", re.IGNORECASE)
YOUR_ANSWER = re.compile(r"^(?:.+? says|I heard) (?P<phrase>.+?): is that your answer\?$", re.IGNORECASE)
"""The host's question before a move that cannot be taken back (host/clarifying.py your_answer)."""
UNDONE = {"intent": "undo"}
CORRECTING = {"intent": CORRECT}
CORRECTION = "no, I said {line}"
"""How a player tells the host it took their move wrong."""
UNDO_PHRASES = ("undo", "host, undo")
"""How a player asks to undo: the first the prompt takes as undo (at a Keep Cool turn,
where any word is a clue, a command follows the wake word)."""
YES, NO = "yes", "no"
QUESTIONS_PER_SAYING = 12
"""Most questions answered about one saying of a line (the host asks each narrowed
question once, so this only stops a host that loops)."""
NOT_UNDERSTOOD = "not understood"
SILENCE_GOAL = "silence"
ERRORS = ("took ", "refused: ")
"""Verdicts that are the host's mistakes though nothing is to undo: a command taken
instead of the line's move, a refusal for another reason than the typed game's."""
UNTOLD = "done, but not told as typed"
"""The host did what the typed game did but did not say so in the typed host's words:
the player goes on (the move stands), and it counts as an error."""
KEEP_COOL_TURN = "keep-cool/word"
CLAIM, NAMED_CLAIM = "got it", "{owner} got it"
"""How the owner claims a word in play the host took as a clue; the name where the game
has attacks (Keep Cool's too-cool mode), whose host asks "whose card?" without it."""
CLAIM_TRIES = 1
"""Tries of a claim and of its answer: an owner told "That claim does not match." does
not say it again, and the next player's turn runs meanwhile (after the buzzer a claim is
too late)."""
RESUME, RESUME_ASKED, GONE_ON, RESUME_TRIES = "resume", "Say resume", "Let's go on.", 3
"""A game paused on a misreading: the player says "resume" as the host asks, then the
line again (host/common_commands.py words it so)."""
UNNOTICED = "wrong move, taken without a word"
"""The host took another move and said nothing of it before its next question, where
the typed host said nothing either (a Keep Cool clue is not said back): nobody at the
table can know it was misheard, so the player goes on, and it counts as a wrong move.
Whether it mattered, the game's end says (completed: every score, reveal and winner as
typed). A word in play taken as a clue is noticed: the typed host called the card."""


@dataclass(frozen=True)
class Line:
    """One scripted line: who says it, what it means, and what the typed game did with it."""

    index: int
    text: str
    speaker: str
    prompt: Prompt
    meaning: Intent | None  # the matcher's reading of the typed line
    move: Intent | None = None  # the intent the typed game took
    refusal: str = ""  # or the reason it refused it with
    told: tuple[str, ...] = ()  # what the typed host said of it, up to its next question
    state: Any = None  # the typed game's state it was said in
    consents: bool = True  # an undo of another's move: whether its player agreed when typed

    @property
    def silent(self) -> bool:
        return self.text == SILENCE

    @property
    def goal(self) -> str:
        """What the line is for: "move", "refusal" (a move the rules forbid), "not
        understood" (nothing is to be taken) or "silence" ("...")."""
        if self.silent:
            return SILENCE_GOAL
        return self.refusal if self.refusal == NOT_UNDERSTOOD else "refusal" if self.refusal else "move"


@dataclass
class LineRecord:
    """How one line went at the live table."""

    index: int
    text: str
    speaker: str
    tries: int = 0
    asked: list[str] = field(default_factory=list)  # "Did you mean" phrases
    wrong_moves: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # a command taken instead, a refusal for another reason
    undos: int = 0  # "undo" said
    corrections: int = 0  # "no, I said ..." said
    reactions: list[str] = field(default_factory=list)  # what each try met
    heard: list[str] = field(default_factory=list)  # what the ears read (transcript only)
    done: bool = False
    seconds: float | None = None  # end of its first saying to the next prompt
    goal: str = "move"  # Line.goal
    barged_in: bool = False  # its first saying began while the host was finishing
    claims: int = 0  # lines said to claim a word in play the host took as a clue (claim_lines)

    @property
    def judged_first_time(self) -> bool:
        """Whether "right first time" can be said of it: a line with something to take or
        refuse (not a silence, nor a line the typed game did not understand, which any
        silence of the host passes)."""
        return self.goal not in (SILENCE_GOAL, NOT_UNDERSTOOD)


@dataclass
class GameRecord:
    lines: list[LineRecord] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    stalled_at: int | None = None
    error: str = ""


class GameAborted(Exception):
    """The host ended or stopped answering; the message says how."""


def typed_lines(case: ScriptCase, folder: Path, speaker_for: Callable[[str | None], str]) -> tuple[list[Line], Path]:
    """The case's lines with what the typed game did with each, and its event log."""
    transcript = play_script(case, folder)
    events = _read(transcript.events)
    heard_at = [i for i, e in enumerate(events) if e["type"] == "heard" and not _consent_answer(e)]
    exchanges = [
        exchange
        for before, exchange in zip([None, *transcript.exchanges], transcript.exchanges)
        if not _undo_consent(before, exchange)
    ]
    kept = list(zip(exchanges, heard_at))
    lines = []
    for index, (exchange, at) in enumerate(kept):
        after = events[at + 1 : heard_at[index + 1] if index + 1 < len(heard_at) else len(events)]
        decided = next((e for e in after if e["type"] in ("intent", "rejected")), None)
        line = Line(
            index,
            exchange.line,
            speaker_for(exchange.prompt.player),
            exchange.prompt,
            exchange.intent,
            told=_told(after),
            state=exchange.state,
        )
        if decided is not None and decided["type"] == "intent":
            line = _with(line, move=decided["intent"], consents=any(e["type"] == "undo" for e in after))
        elif decided is not None:
            line = _with(line, refusal=decided["reason"])
        lines.append(line)
    return lines, transcript.events


def barges_in(line: Line, share: float) -> bool:
    """Whether the player begins this line while the host is finishing: `share` of the
    lines with words, the same lines on every run (people do not wait for the last word)."""
    return not line.silent and random.Random(f"barge-in|{line.index}|{line.text}").random() < share


def _with(line: Line, **changes: Any) -> Line:
    return replace(line, **changes)


def claim_lines(line: Line, taken: Intent, matcher: Matcher) -> tuple[Line, Line] | None:
    """What the owner says when the host took the line's word in play as a clue (`taken`),
    where the typed host called the card: their claim at the next turn, and their answer
    to "which of your words was it?", by its place. None for any other wrong move.

    The owner knows their own words (their phone page, the game's hand_view) and heard the
    word said; the rest is the typed game played on from the state the line was said in:
    the clue as the live host took it (with the word's own text, as the owner heard it),
    the claim, then the answer, which wins the card as the word in play won it typed."""
    move = line.move or {}
    if line.prompt.name != KEEP_COOL_TURN or move.get("intent") != "word" or not move.get("word"):
        return None
    if taken.get("intent") != "word" or taken.get("word") is not None or line.state is None:
        return None
    game, word = get_game("keep-cool"), str(move["word"])
    pages = {player: game.hand_view(line.state, player) if game.hand_view else None for player in line.state.players}
    owner = next((p for p, page in pages.items() if page and any(c.label == word for c in page.cards)), None)
    if owner is None:
        return None
    claim: Intent = {"intent": "hit", **({"owner": owner} if line.state.mode == "too-cool" else {})}
    text = NAMED_CLAIM.format(owner=owner) if "owner" in claim else CLAIM
    clue = {"intent": "word", "word": None, "text": word, "player": line.speaker}
    try:
        clued, _ = game.apply(line.state, cast(Action, clue))
        turn = game.prompt(clued)
        claiming, _ = game.apply(clued, cast(Action, {**claim, "player": turn.player if turn else owner}))
        asked = game.prompt(claiming)
        choices = asked.narrow.choices if asked and asked.narrow else ()
        answer = next(choice for choice in choices if choice.intent.get("word") == word)
        _, told = game.apply(claiming, cast(Action, {**answer.intent, "player": owner}))
    except (RuleError, StopIteration):
        return None  # the typed game takes no claim here: nor would the table's host
    assert turn is not None and asked is not None
    said = f"the {answer.label} one"
    return (
        Line(line.index, text, owner, turn, matcher.match(turn.name, text, turn.slots).intent, claim, state=clued),
        Line(
            line.index,
            said,
            owner,
            asked,
            matcher.match(asked.name, said, asked.slots).intent,
            answer.intent,
            told=_told([dict(event) for event in told]),
            state=claiming,
        ),
    )


def same_move(taken: Intent, meant: Intent) -> bool:
    """`taken` is the move `meant`. An intent's "text" is the words heard; for most moves
    it is only how they were worded, but a Keep Cool clue (a word that names nothing in
    play, so `meant` keeps its words) is its words: any sound would pass as the clue
    otherwise, and the table would not know the host heard another word. A clue the host
    took unread (no words: speech it could not read where any speech is a clue) claims
    no other word, and the game goes on as typed: that is the clue."""
    clue, heard = meant.get("text"), taken.get("text")
    if clue is not None and heard is not None and clue_words(heard) != clue_words(clue):
        return False
    return {k: v for k, v in taken.items() if k != "text"} == {k: v for k, v in meant.items() if k != "text"}


def same_effect(line: Line, taken: Intent) -> bool:
    """The typed game, in the state the line was said in, does the same with `taken` as
    with what the line meant: a reading worded otherwise that a person would say yes to
    ("between 35 and 95" where only line two has that gap, for "... on line two"). Never
    for a Keep Cool clue, which is its words (same_move)."""
    meant = line.meaning
    if line.state is None or meant is None or "text" in meant or not line.prompt.name.count("/"):
        return False
    game = get_game(line.prompt.name.split("/", 1)[0])
    try:
        done = [game.apply(line.state, cast(Action, {**move, "player": line.prompt.player})) for move in (taken, meant)]
    except RuleError:
        return False
    return done[0] == done[1]


def clue_words(text: str) -> str:
    """A clue's words as a player would judge them: case, punctuation and a leading
    article do not count ("The kettle." is "kettle")."""
    words = re.sub(r"[^\w\s'-]", " ", text.lower()).split()
    return " ".join(words[1:] if words[:1] and words[0] in ARTICLES and len(words) > 1 else words)


def _heard(event: dict) -> str:
    """What the ears read, for the transcript: the text, or why it was not taken."""
    if event["type"] == "heard":
        return event.get("text", "") + (" (unsure)" if event.get("unsure") else "")
    return f"[{event.get('reason', '')}] {event.get('text', '')}".strip()


def _told(events: list[dict]) -> tuple[str, ...]:
    """What the host said after a line, up to its next question (or the game's end)."""
    until = next((i for i, e in enumerate(events) if e["type"] in ("prompt", "game_over")), len(events))
    return tuple(e["text"] for e in events[:until] if e["type"] == "say")


def _spoken(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9+-]+", text.lower()))


def told_as_typed(heard: list[str], told: tuple[str, ...]) -> bool:
    """Whether the host's words (`heard`, in order) hold what the typed host said of the
    line, sentence after sentence, as a listener compares them (case and punctuation aside)."""
    want, said = [_spoken(t) for t in told], [_spoken(t) for t in heard]
    return any(said[i : i + len(want)] == want for i in range(len(said) - len(want) + 1))


def _read(path: Path) -> list[dict]:
    import json

    return [json.loads(text) for text in path.read_text().splitlines()] if path.exists() else []


def narrowed_answer(line: Line, question: str) -> str | None:
    """What the line's speaker answers to one of the host's narrowed questions about
    the line's prompt, or None when `question` is none of them. They know what they
    meant (the move the typed game took) and answer the question asked. A line whose
    goal no choice leads to (a command, a move the rules refuse) is said again whole:
    a full answer to the first prompt counts at every step."""
    narrow = line.prompt.narrow
    if narrow is None:
        return None
    reachable = any(_fits(choice, line) for choice in narrow.choices)
    asked = question.strip().lower()
    if "digit by digit" in asked:
        numbers = [c.label for part in _parts(narrow) for c in part.choices if c.label.isdigit() and _fits(c, line)]
        return " ".join(numbers[-1]) if reachable and numbers else line.text
    for part in _parts(narrow):
        listed = part.question.rstrip("?").strip().lower()
        if part.said and asked == part.said.lower():
            fitting = [c.label for c in part.choices if _fits(c, line)]
            return fitting[0] if reachable and fitting else line.text
        offered = _spans_listed(asked.split(":", 1)[1]) if ":" in asked else ""
        listed_here = [c for c in part.choices if re.search(rf"\b{re.escape(c.label.lower())}\b", offered)]
        if listed_here and asked.split(":")[0].endswith(listed):  # parts may share a question ("Where?")
            fitting = [c.label for c in listed_here if _fits(c, line)]
            return (
                line.text
                if not reachable
                else fitting[0]
                if fitting
                else SOMETHING_ELSE
                if SOMETHING_ELSE in offered
                else NO
            )
        for choice in part.choices:
            if asked == question_alone(choice).lower():
                return line.text if not reachable else YES if _fits(choice, line) else NO
    return None


def _spans_listed(offered: str) -> str:
    """A narrowed question's choices with its spans written out, so each label can be
    found in it: "1 to 4" -> "1, 2, 3, 4"; "0, 10, 20 and so on up to 100"; "first to
    third" (host.narrowing.spoken_span says them that way)."""

    def numbers(match: re.Match[str]) -> str:
        first, second, last = int(match["a"]), int(match["b"] or int(match["a"]) + 1), int(match["z"])
        return ", ".join(str(n) for n in range(first, last + 1, max(1, second - first)))

    offered = re.sub(r"(?P<a>\d+), (?P<b>\d+), \d+ and so on up to (?P<z>\d+)", numbers, offered)
    offered = re.sub(r"(?P<a>\d+)(?P<b>) to (?P<z>\d+)", numbers, offered)
    places = "|".join(ORDINALS)

    def ordinals(match: re.Match[str]) -> str:
        return ", ".join(ORDINALS[ORDINALS.index(match["a"]) : ORDINALS.index(match["z"]) + 1])

    return re.sub(rf"(?P<a>{places}) to (?P<z>{places})", ordinals, offered)


def _parts(narrow: Narrow) -> list[Narrow]:
    """Every part of a narrowed question, the first first (the card, then its power card)."""
    parts: list[Narrow] = []
    queue = [narrow]
    while queue:
        part = queue.pop(0)
        if all(part is not seen for seen in parts):
            parts.append(part)
            queue += [c.then for c in part.choices if c.then is not None]
    return parts


def _fits(choice: Choice, line: Line) -> bool:
    """Whether choosing it leads to the line's move: what it settles agrees with the
    move (a list the move leaves out is empty), and some later choice does too. A last
    choice worded otherwise fits when the typed game does the same with it (the narrowed
    "above 95" names the line's end too: {"end": "high"})."""
    move = line.move
    if move is None:
        return False
    agrees = all(
        move.get(key, [] if isinstance(value, list) else None) == value for key, value in choice.intent.items()
    )
    if choice.then is None:
        return agrees or same_effect(line, choice.intent)
    return agrees and any(_fits(c, line) for c in choice.then.choices)


@dataclass(frozen=True)
class Reaction:
    """What the host did with something said, once it fell silent."""

    kind: str  # "decided", "asked", "answered", "silence", "over"
    at: int  # index of the event it was read from (or the mark)
    text: str = ""
    since: int = 0  # the first event after what was said


class Table:
    """The players of one live game, speaking into a satellite's microphone."""

    def __init__(
        self,
        game_id: str,
        satellite: RunningSatellite,
        log: Path,
        host: subprocess.Popen,
        speech: Callable[[str, str, int], np.ndarray],
        tries: int = 6,
        stop: threading.Event | None = None,
        quiet_s: float = 1.0,
        patience_s: float = PATIENCE_S,
        barge_in: float = 0.0,
    ):
        """`speech(speaker, text, number)`: 16 kHz audio of that player saying it for the
        `number`th time (0: the first; lab/partyhost_lab/table_speech.py). `stop`: set, the
        table leaves at once. `quiet_s`: the host's speaker has played nothing new this
        long: it has fallen silent. `barge_in`: the share of lines a player begins while
        the host is still finishing its question (barges_in)."""
        self.barge_in = barge_in
        self.finishing = HostSpeech(log, satellite, FINISHING_S)
        self.satellite, self.host, self.speech, self.tries = satellite, host, speech, tries
        self.stop = stop or threading.Event()
        self.patience_s = patience_s
        self.log = EventFollower(log)
        self.silence = HostSpeech(log, satellite, quiet_s)
        self.matcher = Matcher()
        self.info = set(get_game(game_id).info_intents) | COMMON_INTENTS

    # ---- a whole game --------------------------------------------------------

    def play(self, lines: list[Line]) -> GameRecord:
        record = GameRecord()
        mark = 0
        try:
            for line in lines:
                result = LineRecord(line.index, line.text, line.speaker, goal=line.goal)
                record.lines.append(result)
                result.barged_in = barges_in(line, self.barge_in)
                mark = self._wait_for_prompt(mark, START_S if line.index == 0 else ANSWER_S, not result.barged_in)
                if result.barged_in:
                    self._wait_finishing(mark)
                mark = self._play_line(line, result, mark)
                if not result.done:
                    record.stalled_at = line.index
                    break
            if record.stalled_at is None:  # the host says the end, then closes
                self._wait(lambda: self.host.poll() is not None, ANSWER_S, "the host to close after the game")
        except GameAborted as error:
            record.error = str(error)
            record.stalled_at = record.lines[-1].index if record.lines else 0
        record.events = list(self.log.update())
        return record

    def _play_line(self, line: Line, result: LineRecord, mark: int, tries: int | None = None) -> int:
        """Say the line until the host does with it what the typed game did (at most
        `tries` times, else the table's own number); the index of the event from which
        the next question is looked for."""
        first_end: float | None = None
        while result.tries < (tries or self.tries) and not result.done:
            if result.tries:
                self._wait(self.silence.quiet, ANSWER_S, "the host to fall silent")
            result.tries += 1
            said_from = len(self.log.update())
            end = time.monotonic() if line.silent else self._say(line.speaker, line.text, result.tries - 1)
            first_end = first_end or end
            reaction = self._answered(line, said_from, end, result)
            result.heard += [_heard(e) for e in self.log.events[said_from:] if e["type"] in ("heard", "ignored")]
            verdict = self._verdict(line, reaction)
            if verdict == "wrong move" and not line.told and self._taken_without_a_word(reaction.at):
                verdict = UNNOTICED
                result.wrong_moves.append(self.log.events[reaction.at]["intent"])
            result.reactions.append(verdict)
            if verdict == UNTOLD:
                result.errors.append(verdict)
            if verdict in ("done", UNTOLD, UNNOTICED):
                result.done = True
                if reaction.kind != "decided" or self._narrowing(reaction.at) or self._listening_on(reaction.at):
                    return self._last_prompt()  # nothing taken, or a command: the same question is open
                after = self._wait_for_prompt(reaction.at + 1, ANSWER_S, settle=False)
                result.seconds = None if line.silent else round(self.log.seen[after - 1] - first_end, 2)
                return reaction.at + 1
            if reaction.kind == "over":
                break
            self._tally(verdict, reaction, result)
            if self._paused(said_from):
                self._resume(line)
            if verdict == "wrong move" and (claimed := self._claim(line, result, reaction.at)) is not None:
                result.done = True
                return claimed
            if verdict == "wrong move":
                corrected, taken_back, mark = self._correct(line, result, reaction.at + 1)
                if corrected:
                    result.done = True
                    return mark
                self._wait_for_prompt(mark if taken_back else self._undo(line, result, mark), ANSWER_S)
        return len(self.log.update())

    def _answered(
        self, line: Line, mark: int, spoken_end: float, result: LineRecord, meant: Line | None = None
    ) -> Reaction:
        """The host's reaction to a line, after answering its "Did you mean ...?" and
        narrowed questions (`meant`: the line a correction is of, whose move those
        questions ask for once the host takes the misheard move back)."""
        reaction, answer = self._reaction(mark, spoken_end, line.silent, line), ""
        for _ in range(QUESTIONS_PER_SAYING):
            if reaction.kind == "asked":
                answer = YES if self._means(line, reaction.text, answer) else NO
            elif reaction.kind == "answered" and reaction.text == CONFIRM_AGAIN and answer in (YES, NO):
                pass  # the yes or no was not caught: said again
            elif (
                reaction.kind == "answered"
                and line.move in (UNDONE, CORRECTING)
                and reaction.text.startswith(UNDO_CONSENT)
            ):
                answer = YES if line.consents else NO  # as the move's player answered when typed
            elif reaction.kind == "answered" and line.move == CORRECTING and reaction.text.endswith(TABLE_AGREES):
                answer = YES  # the table heard what was said
            elif (
                reaction.kind == "answered" and (narrowed := narrowed_answer(meant or line, reaction.text)) is not None
            ):
                answer = narrowed
            else:
                break
            result.asked.append(reaction.text)
            reaction = self._reaction(len(self.log.update()), self._say(line.speaker, answer), line=line)
        return replace(reaction, since=mark)  # the host's words are heard from the line on

    def _claim(self, line: Line, result: LineRecord, decided: int) -> int | None:
        """The owner claims the line's word in play the host took as a clue (claim_lines) at
        the next turn, and says which word it was; the index from which the next question
        is looked for once the card is won, else None (the move is then undone)."""
        lines = claim_lines(line, self.log.events[decided]["intent"], self.matcher)
        if lines is None:
            return None
        mark = self._wait_for_prompt(decided + 1, ANSWER_S)
        for said in lines:
            part = LineRecord(line.index, said.text, said.speaker, goal=said.goal)
            mark = self._play_line(said, part, mark, CLAIM_TRIES)
            result.claims += 1
            result.asked += part.asked
            result.wrong_moves += part.wrong_moves
            result.errors += part.errors
            result.undos += part.undos
            result.reactions += [f"claim: {reaction}" for reaction in part.reactions]
            result.heard += part.heard
            if not part.done:
                return None
        return mark

    def _taken_without_a_word(self, decided: int) -> bool:
        """The host said nothing between the move it took (event `decided`) and its next
        question or the game's end (UNNOTICED)."""
        following = self._wait_for_prompt(decided + 1, ANSWER_S, settle=False) - 1
        return not any(e["type"] == "say" for e in self.log.events[decided + 1 : following])

    def _paused(self, since: int) -> bool:
        """The host paused the game since event `since` (a misreading taken for "pause")
        and has not gone on: it asked for "resume" (host/common_commands.py)."""
        said = [e["text"] for e in self.log.since(since) if e["type"] == "say"]
        asked = max((i for i, text in enumerate(said) if RESUME_ASKED in text), default=None)
        return asked is not None and GONE_ON not in said[asked:]

    def _resume(self, line: Line) -> None:
        """Say "resume", as the paused host asks, until it goes on (a few tries)."""
        for saying in range(RESUME_TRIES):
            said_from = len(self.log.update())
            self._say(line.speaker, RESUME, saying)
            answered = partial(lambda since: self._paused(since) or self._gone_on(since), said_from)
            self._wait(answered, ANSWER_S, "the host to go on")
            if self._gone_on(said_from):
                self._wait(self.silence.quiet, ANSWER_S, "the host to fall silent")
                return

    def _gone_on(self, since: int) -> bool:
        return any(e["type"] == "say" and e["text"] == GONE_ON for e in self.log.since(since))

    def _undo_phrase(self, prompt_name: str) -> str:
        return next(
            (phrase for phrase in UNDO_PHRASES if self.matcher.match(prompt_name, phrase, {}).intent == UNDONE),
            UNDO_PHRASES[0],
        )

    def _narrowing(self, decided: int) -> bool:
        """A command answered among the host's narrowed questions, which it then asks
        again without a new prompt (the words a person hears say so too)."""
        event = self.log.events[decided]
        last = self._last_prompt()
        return (
            event["type"] == "intent"
            and event["intent"].get("intent") in self.info
            and self.log.first(("narrowing",), last) is not None
        )

    def _listening_on(self, decided: int) -> bool:
        """A refusal after which the host listens on without asking again ("Sorry?" to
        words it could not read, or told on the player's page only): it has fallen silent,
        and no question followed."""
        event = self.log.events[decided]
        refused = event["type"] in ("rejected", "private")
        return refused and self.log.first(("prompt", "game_over"), decided + 1) is None

    def _last_prompt(self) -> int:
        return max(i for i, e in enumerate(self.log.update()) if e["type"] == "prompt")

    def _correct(self, line: Line, result: LineRecord, mark: int) -> tuple[bool, bool, int]:
        """Tell the host it took the line's move wrong: "no, I said <line>", once. Whether
        the host put the move right (corrected it, or took it back as misheard and then
        took the line's move from the narrowed questions), whether it took the wrong move
        back itself, and the index from which the next question is looked for (when it did
        neither, or cannot at this prompt, the move is to be undone)."""
        asked = self._wait_for_prompt(mark, ANSWER_S)
        prompt_name = self.log.events[asked - 1].get("prompt", line.prompt.name)
        text = CORRECTION.format(line=line.text)
        heard = self.matcher.match(prompt_name, text, {}).intent
        if line.move is None or heard is None or heard["intent"] != CORRECT:
            return False, False, mark
        correction = _with(line, text=text, meaning=CORRECTING, move=CORRECTING, refusal="", told=(), consents=True)
        result.corrections += 1
        said_from = len(self.log.update())
        spoken_end = self._say(line.speaker, text, result.corrections - 1)
        reaction = self._answered(correction, said_from, spoken_end, result, meant=line)
        made = self.log.first(("correction",), said_from)
        taken_back = made is None and self.log.first(("undo",), said_from) is not None
        if taken_back:  # asked again one part at a time: what it took then
            made = reaction.at if reaction.kind == "decided" else None
        event = self.log.events[made] if made is not None else {}
        action = event.get("action") or event.get("intent") or {}
        right = made is not None and same_move(
            cast(Intent, {k: v for k, v in action.items() if k != "player"}), line.move
        )
        return right, taken_back, reaction.at + 1

    def _undo(self, line: Line, result: LineRecord, mark: int) -> int:
        """Say "undo" until the wrong move is taken back (a move taken for the undo
        itself is undone in turn); the index from which the question that follows is
        looked for."""
        pending = 1
        while pending and result.undos < 3 * self.tries:
            mark = self._wait_for_prompt(mark, ANSWER_S)
            undo = self._undo_phrase(self.log.events[mark - 1].get("prompt", line.prompt.name))
            undo_line = _with(line, text=undo, meaning=UNDONE, move=UNDONE, refusal="", told=(), consents=True)
            result.undos += 1
            said_from = len(self.log.update())
            spoken_end = self._say(line.speaker, undo, result.undos - 1)
            reaction = self._answered(undo_line, said_from, spoken_end, result)
            verdict = self._verdict(undo_line, reaction)
            if reaction.kind == "over":
                raise GameAborted("the game ended on a wrong move")
            self._tally(verdict, reaction, result)
            if verdict == "done":
                pending -= 1
            elif verdict == "wrong move":
                pending += 1
            mark = reaction.at + 1 if verdict in ("done", "wrong move") else self._last_prompt()
        if pending:
            raise GameAborted(f"the wrong move at line {line.index + 1} could not be undone")
        return mark

    # ---- what the host did ---------------------------------------------------

    def _reaction(self, mark: int, spoken_end: float, silent: bool = False, line: Line | None = None) -> Reaction:
        """What the host did with what was said (from event `mark` on), once it is silent;
        `silent`: nothing was said, and only a decision counts (the turn's time running out).
        `line`: what was said, whose refusal may come on its player's page alone."""
        deadline = spoken_end + ANSWER_S
        while True:
            self._alive()
            new = self.log.since(mark)
            over = self.log.first(("game_over",), mark)
            decided = self.log.first(("intent", "rejected"), mark)
            paged = self._refused_on_page(line, mark) if line is not None else None
            if paged is not None and (decided is None or paged < decided):
                decided = paged
            said = [e["text"] for e in new if e["type"] == "say"]
            if over is not None and decided is None:
                return Reaction("over", over)
            if decided is not None:
                if self._settled(decided) and self.silence.quiet():
                    return Reaction("decided", decided, since=mark)
            elif said and self.silence.quiet():
                asked = DID_YOU_MEAN.match(said[-1].strip()) or YOUR_ANSWER.match(said[-1].strip())
                if asked:
                    return Reaction("asked", mark, asked["phrase"])
                if not silent:
                    return Reaction("answered", mark, said[-1])
            elif not silent and self.silence.quiet() and time.monotonic() > spoken_end + self.patience_s:
                return Reaction("silence", mark)
            if time.monotonic() > deadline:
                raise GameAborted(f"the host did not answer within {ANSWER_S:g} s")
            time.sleep(0.05)

    def _refused_on_page(self, line: Line, mark: int) -> int | None:
        """Where (from event `mark` on) the host told the line's refusal to its player
        alone: a reason that would tell a hand, which the table hears as words not read."""
        if line.goal != "refusal" or not line.prompt.player:
            return None
        page = {"type": "private", "player": line.prompt.player, "text": line.refusal}
        events = enumerate(self.log.since(mark), start=mark)
        return next((i for i, e in events if all(e.get(key) == value for key, value in page.items())), None)

    def _settled(self, decided: int) -> bool:
        """The host has gone on after deciding: it spoke, asked again or ended."""
        return self.log.first(("say", "prompt", "game_over"), decided + 1) is not None

    def _verdict(self, line: Line, reaction: Reaction) -> str:
        """ "done" when the host did what the typed game did; "wrong move" when it took
        another move; otherwise what it did instead (the line is said again)."""
        if reaction.kind == "over":
            return "game over"
        if reaction.kind != "decided":
            nothing_taken = line.refusal == NOT_UNDERSTOOD
            return "done" if nothing_taken and reaction.kind in ("answered", "silence") else reaction.kind
        event = self.log.events[reaction.at]
        if event["type"] == "private":
            return "done"  # the typed game's refusal, on the player's page: the table heard "Sorry?"
        if event["type"] == "rejected":
            done = bool(line.refusal) and event["reason"] == line.refusal
            if done and line.refusal == NOT_UNDERSTOOD:
                return "done"  # "Sorry?" aloud, the things one may type when typed: by design
            return self._told(line, reaction) if done else f"refused: {event['reason']}"
        intent = event["intent"]
        if line.move is not None and (same_move(intent, line.move) or same_effect(line, intent)):
            return self._told(line, reaction)
        return f"took {intent.get('intent')} (not a move)" if intent.get("intent") in self.info else "wrong move"

    def _told(self, line: Line, reaction: Reaction) -> str:
        """ "done" when the host's words since the line hold what the typed host said of
        it (the narration a player listens for), else UNTOLD."""
        deadline = time.monotonic() + ANSWER_S  # the rest of it may still be on its way
        logged, still_since = 0, time.monotonic()

        def said() -> list[str]:
            return [e["text"] for e in self.log.since(reaction.since) if e["type"] == "say"]

        while not told_as_typed(said(), line.told) and time.monotonic() < deadline:
            if self.log.first(("prompt", "game_over"), reaction.at + 1) is not None and self.silence.quiet():
                break  # it has asked the next question and fallen silent: that was all
            if len(self.log.update()) != logged:
                logged, still_since = len(self.log.events), time.monotonic()
            elif time.monotonic() > still_since + self.patience_s and self.silence.quiet():
                break  # silent, and nothing new logged for a while: nothing more is coming
            time.sleep(0.05)
        return "done" if told_as_typed(said(), line.told) else UNTOLD

    def _tally(self, verdict: str, reaction: Reaction, result: LineRecord) -> None:
        """Count the host's mistake in a verdict: a wrong move (to undo), or an error."""
        if verdict == "wrong move":
            result.wrong_moves.append(self.log.events[reaction.at]["intent"])
        elif verdict.startswith(ERRORS) and verdict != f"refused: {NOT_UNDERSTOOD}":  # that is "Sorry?"
            result.errors.append(verdict)

    def _means(self, line: Line, phrase: str, answered: str = "") -> bool:
        """Does the host's reading mean what the player said? A yes or no asked about
        is a reading of the player's own answer (`answered`)."""
        if answered and phrase.strip().lower() in (YES, NO):
            return phrase.strip().lower() == answered
        match = self.matcher.match(line.prompt.name, phrase, line.prompt.slots)
        if match.intent is None or line.meaning is None:
            return False
        return same_move(match.intent, line.meaning) or same_effect(line, match.intent)

    # ---- speaking and waiting ------------------------------------------------

    def _say(self, speaker: str, text: str, number: int = 0) -> float:
        """Speak into the satellite's microphone (`number`: the saying's number, 0 the
        first); when the speech ended (time.monotonic)."""
        audio = self.speech(speaker, text, number)
        started = self.satellite.say(audio, timeout=ANSWER_S)
        return started + speech_end(audio) / SAMPLE_RATE

    def _wait_finishing(self, mark: int) -> None:
        """Wait until the host is finishing its question: its words are logged (from event
        `mark` on) and its speaker has received nothing new for FINISHING_S."""

        def worded() -> bool:
            return self.log.first(("say",), mark) is not None

        self._wait(worded, ANSWER_S, "the host's question")
        self._wait(self.finishing.quiet, ANSWER_S, "the host to be finishing")

    def _wait_for_prompt(self, mark: int, timeout: float, settle: bool = True) -> int:
        """Wait for the host's next question (a prompt event at or after `mark`) and,
        with `settle`, for it to fall silent; the index just after that prompt."""

        def asked() -> bool:
            return self.log.first(("prompt", "game_over"), mark) is not None

        self._wait(asked, timeout, "the host's question")
        at = self.log.first(("prompt", "game_over"), mark)
        assert at is not None  # asked() held
        if settle:
            self._wait(self.silence.quiet, timeout, "the host to fall silent")
        return at + 1

    def _wait(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            self._alive()
            if time.monotonic() > deadline:
                raise GameAborted(f"timed out waiting for {what}")
            time.sleep(0.05)

    def _alive(self) -> None:
        if self.stop.is_set():
            raise GameAborted("stopped")
        if self.host.poll() is not None and self.log.first(("game_over",), 0) is None:
            raise GameAborted(f"the host ended (exit {self.host.returncode}) before the game did")


def _consent_answer(event: dict) -> bool:
    """The event log's record of a yes or no to an undo of another's move."""
    return str(event.get("confirming", "")).startswith(UNDO_CONSENT)


def _undo_consent(before: Exchange | None, exchange: Exchange) -> bool:
    """A yes or no to the host's question whether an undo may take back another's move:
    asked without a prompt of its own, so the live player gives it as part of the
    "undo" line (Table._answered)."""
    return exchange.prompt.name == YES_NO_PROMPT and before is not None and (before.intent or {}) == UNDONE
