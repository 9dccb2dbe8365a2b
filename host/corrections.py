"""Corrections: "no, I said lower" puts right the host's reading of the last move.

At a table a misheard move is fixed by the players saying what was said, even after the
card it turned was shown. A correction restores what was said; it is not a new choice,
so it must not let anyone choose again after seeing a reveal (docs/rules.md, "In every
game"):
- only the last move, and only until the next one is taken;
- the words are read against the question that move answered, and the rules must take
  them there (a correction the rules refuse is refused with their reason);
- the table is asked first when the move was another player's than the one the host is
  waiting for, when the correction was typed after a reveal (typing is not misheard), when
  the corrected move would show something else than was shown, or, after a reveal,
  unless the speech the host took plainly fits the corrected words better than the
  words it took (CORRECTION_NATS, measured by the ears: host.contract.Likeness).
The journal keeps the correction as an entry of its own (host/play.py), so a replay is
exact, and the host says what it changed ("Ben said lower: Ben gets 0, not 10.").

A spoken correction that reads as the very move taken ("no, I said the 8 of spades"
heard as the ace again), or that names no move ("that's not what I said"), tells the
host it misheard, and hearing it once more would not help: where the move showed
nothing hidden, the session takes it back and asks its question another way
(Session._correct); where it did, it stands unless a correction names another move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from .announcer import Announcer
from .awaiting import Awaiting
from .common_commands import COMMON_INTENTS, CORRECT
from .contract import Intent, Prompt, Understood
from .engine import Event, RuleError, join_names
from .log_events import Corrected
from .play import LastMove, Play
from .reply_policy import acts

CORRECTION_NATS = 3.0
"""A spoken move that showed something hidden is corrected without asking the table only
when one of the recogniser's own readings of the speech was the corrected move and the
speech fits the corrected words better than the words taken by at least this much
(log-likelihood, natural log, scored without the prompt's steering). Unprompted scores
of a word or two are a weak witness: on the tuning voices (docs/recognition.md,
"Corrections") false claims reached +20 nats; both signals together let through 4 of 562
false claims and 8 of 30 true corrections, so most corrections after a reveal are asked
of the table, and a false claim almost never passes unasked."""
NOTHING_TO_CORRECT = "There is no move to correct yet."
WHAT_DID_YOU_SAY = "What did {who} say?"
STANDS = "Okay, it stands as I heard it."
TABLE_AGREES = "Does everyone agree? Yes or no?"
"""How the table is asked about a correction (a simulated table answers it: lab/partyhost_lab/table_player.py)."""
ALREADY = "That is what I took: {phrase}."
MISHEARD = "Then I misheard {who}. Let's go one step at a time."
"""Said before a move the player says was misheard is taken back and asked for again."""
NOT_A_MOVE = "Sorry, I couldn't tell what the move should be."
"""Said when the corrected words are no move at the question the last move answered, and
for a spoken correction the rules refuse for a reason that would tell a hand."""


class Corrections:
    """Puts the last move right when the host misheard it."""

    def __init__(self, play: Play, announcer: Announcer, awaiting: Awaiting):
        self.play, self.announcer, self.awaiting = play, announcer, awaiting

    def meant_now(self, prompt: Prompt, heard: Understood, answered: bool) -> Understood:
        """`heard` itself, unless it is "I said lower" meant as the reply to the question
        asked now: after the host answered a reply to it ("Sorry?", a refusal:
        `answered`), or where the words are a move here but not where the last move was
        made. Then the words, read here, with the reply's timing."""
        intent = heard.intent
        if intent is None or intent["intent"] != CORRECT or intent.get("by") or not intent.get("said"):
            return heard
        said = str(intent["said"])
        here = self.awaiting.ears.reread(prompt, said)
        if here.intent is None or here.intent["intent"] in COMMON_INTENTS or not acts(here):
            return heard
        last = self.play.last_move()
        asked = self.play.game.prompt(last.before) if last is not None else None
        if not answered and asked is not None and self.awaiting.ears.reread(asked, said).intent is not None:
            return heard
        evidence = replace(here.evidence, confidence=heard.evidence.confidence, snr_db=heard.evidence.snr_db)
        return replace(heard, intent=here.intent, phrase=here.phrase, evidence=evidence)

    def correct(self, prompt: Prompt, intent: Intent, heard: Understood | None) -> Intent | None:
        """A correction heard at `prompt` ({"said": words, "by": a name}, either may be
        empty): the last move replaced by the move said, once the rules and, where
        needed, the table agree; otherwise a reason, and nothing changes. Returned: the
        last move, when a spoken correction says it was misheard but names no other
        move and it showed nothing hidden, to be taken back and asked for another way."""
        last = self.play.last_move()
        if last is None:
            self.announcer.reject(prompt, "nothing to correct", NOTHING_TO_CORRECT)
            return None
        owner = last.action.get("player")
        asked = self.play.game.prompt(last.before)
        problem = self._cannot_correct(last, asked, str(intent.get("by") or ""))
        if problem or asked is None:
            self.announcer.reject(prompt, "correction refused", problem or NOTHING_TO_CORRECT)
            return None
        said = str(intent.get("said") or "")
        disputed = heard is not None and heard.spoken and not last.revealed
        if disputed and not said:
            return self._misheard(last)
        corrected = self._read(prompt, asked, said, owner)
        if corrected is None:
            return None
        move, phrase = corrected
        if _same_move(move, last.action):
            if disputed:
                return self._misheard(last)
            self.announcer.say(ALREADY.format(phrase=phrase), remember=False)
            return None
        tried = self.play.tried(move, owner, last.before)
        if isinstance(tried, RuleError) and tried.secret and heard is not None and heard.spoken:
            # Anyone may have said it (host.engine.RuleError.secret): as words that are no
            # move there, and the reason to the hand's holder alone.
            self.announcer.refuse_privately(owner, tried)
            self.announcer.reject(prompt, tried.reason, f"{NOT_A_MOVE} Nothing changed.")
            return None
        if isinstance(tried, RuleError):
            self.announcer.refuse(prompt, tried)
            return None
        _, events = tried
        question = self._table_question(prompt, last, heard, asked, phrase, events)
        if question and not self.awaiting.confirm(replace(prompt, player=None), question):
            self.announcer.say(STANDS, remember=False)
            return None
        self.play.correct(last, move)
        self.awaiting.log.write(Corrected(dict(self.play.actions[last.position]), dict(last.action), bool(question)))
        self._tell(owner, phrase, last.events, events)
        return None

    def _misheard(self, last: LastMove) -> Intent:
        """The last move, which its player says the host misheard: said so, and handed
        back to be taken back and asked for another way."""
        self.announcer.say(MISHEARD.format(who=last.action.get("player") or "the table"), remember=False)
        return cast(Intent, {k: v for k, v in last.action.items() if k != "player"})

    def _cannot_correct(self, last: LastMove, asked: Prompt | None, by: str) -> str:
        """Why the last move cannot be corrected ("" if it can): a move against the
        clock (a Keep Cool clue: "host, undo" instead), or a correction naming someone
        who did not make the last move (that move is no longer the last)."""
        owner = last.action.get("player")
        if asked is not None and asked.timeout is not None:
            return "A move made against the clock can't be corrected. Say undo instead."
        named = self._player_named(by)
        if named is not None and named != owner:
            since = owner or "the table"
            return f"Only the last move can be corrected, and {since} has moved since {named}."
        return ""

    def _player_named(self, by: str) -> str | None:
        """The player (or team) `by` names, or None when it names nobody at the table."""
        wanted = by.casefold().split()
        if not wanted:
            return None
        names = {str(a.get("player")) for a in self.play.actions if a.get("player")} | set(self.play.options.players)
        for name in sorted(names):
            words = name.casefold().split()
            if wanted == words or (len(wanted) == 1 and wanted[0] in words):
                return name
        return None

    def _read(self, prompt: Prompt, asked: Prompt, said: str, owner: str | None) -> tuple[Intent, str] | None:
        """The move the correction says, read against the question the last move answered,
        and its words; where none was said ("that's not what I said"), asked for. None
        (and the reason said) when nothing was understood."""
        if said:
            heard = self.awaiting.ears.reread(asked, said)
        else:
            who = owner or "the table"
            question = WHAT_DID_YOU_SAY.format(who=who)
            self.announcer.say(question, remember=False)
            answer = self.awaiting.hear(replace(asked, text=question, timeout=None))
            if answer is None:
                return None
            heard = answer
        move = heard.intent
        if move is None or move["intent"] in COMMON_INTENTS:
            why = heard.unavailable or NOT_A_MOVE
            self.announcer.reject(prompt, "correction not understood", f"{why} Nothing changed.")
            return None
        return move, heard.phrase or said

    def _table_question(
        self,
        prompt: Prompt,
        last: LastMove,
        heard: Understood | None,
        asked: Prompt,
        phrase: str,
        events: list[Event],
    ) -> str:
        """The yes-or-no question for the table before this correction is made, or ""
        when the host may make it at once (see the module docstring)."""
        owner = last.action.get("player")
        others = owner != prompt.player
        shows_other = _shown(events) != _shown(last.events)
        unheard = last.revealed and not self._heard_so(last, asked, phrase)
        if not (others or shows_other or unheard):
            return ""
        who = owner or "the table"
        taken = f"not {last.heard.phrase}" if last.heard is not None and last.heard.phrase else "not what I heard"
        return f"{who} said {phrase}, {taken}? {TABLE_AGREES}"

    def _heard_so(self, last: LastMove, asked: Prompt, phrase: str) -> bool:
        """The speech the last move was taken from plainly fits `phrase` better than what
        the host took (CORRECTION_NATS); False when typed, pressed, or not at hand."""
        heard = last.heard
        if heard is None or not heard.spoken:
            return False
        likeness = self.awaiting.ears.likeness(heard, asked, phrase)
        if likeness is None:
            return False
        return likeness.in_readings and likeness.nats is not None and likeness.nats >= CORRECTION_NATS

    def _tell(self, owner: str | None, phrase: str, before: list[Event], after: list[Event]) -> None:
        """What the correction changed: the move as said, and each score that differs
        ("Ben gets 0, not 10."); where it shows something else, the move's events in full."""
        who = owner or "The table"
        self.announcer.last_spoken = []
        if _shown(after) != _shown(before):
            self.announcer.say(f"{who} said {phrase}.")
            self.announcer.narrate(after)
            return
        gains = _gains(before), _gains(after)
        changes = [
            f"{player} gets {gains[1].get(player, 0)}, not {gains[0].get(player, 0)}"
            for player in dict.fromkeys([*gains[0], *gains[1]])
            if gains[0].get(player, 0) != gains[1].get(player, 0)
        ]
        told = join_names(changes) if changes else "nothing else changes"
        self.announcer.say(f"{who} said {phrase}: {told}.")
        # The move's record as corrected (scores, the same reveal), logged but not said
        # again; and any secret it tells that the move as heard did not.
        self.announcer.narrate(
            [
                e
                for e in after
                if e["type"] not in ("say", "sound", "private") or (e["type"] == "private" and e not in before)
            ]
        )


def _same_move(move: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    """The same move, whoever made it: the journal's action carries its player."""
    return {k: v for k, v in action.items() if k != "player"} == {k: v for k, v in move.items() if k != "player"}


def _shown(events: list[Event]) -> list[Event]:
    """What the events showed that was hidden (reveals)."""
    return [event for event in events if event["type"] == "reveal"]


def _gains(events: list[Event]) -> dict[str, int]:
    """Points each player got from the events."""
    gains: dict[str, int] = {}
    for event in events:
        if event["type"] == "score":
            gains[event["player"]] = gains.get(event["player"], 0) + event["delta"]
    return gains
