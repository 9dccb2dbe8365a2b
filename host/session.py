"""The session loop: ask, hear, understand, apply, journal, narrate.

It knows games only through host.engine.Game and players only through two small
interfaces: Ears (host/awaiting.py: something that hears a reply to a prompt and hands
it over understood, host.contract.Understood) and Mouth (host/announcer.py: something
that speaks, plays cues and tells a player a secret); it never matches words itself.
Text, microphones, WAV files and speakers all plug in there, so the loop is the same for
typed and spoken play. The session is built of one part per job, each given what it
needs once, here:

- Play (host/play.py): the state, the moves taken and the journal that keeps them;
- Announcer (host/announcer.py): what the host says and plays, each logged;
- Awaiting (host/awaiting.py): waiting for a reply meant for the host, and reminders;
- CommonCommands (host/common_commands.py): repeat, score, undo, pause, quit ...;
- Clarifier (host/clarifying.py): "Did you mean ...?", refusals and narrowed questions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import reply_policy
from .announcer import Announcer, Mouth
from .awaiting import Awaiting, Ears, timing
from .clarifying import SORRY, Clarifier
from .common_commands import COMMON_INTENTS, CommonCommands
from .contract import Ending, Intent, Outcome, Prompt, Understood
from .corrections import Corrections
from .decks import Decks
from .engine import Action, Game, GameOptions, RuleError
from .eventlog import EventLog
from .journal import Journal
from .log_events import Accepted, Asked, CuePlayedLive, GameStarted, Heard, Resumed
from .narrowing import Trouble
from .play import Play, SessionInfo
from .reply_policy import Act, Ask, AskChoices, Chosen, End, ListenAgain, Miss, Refused, Taken, assert_never, ended


class Session:
    """One game being played: state rebuilt from the journal, then the live loop."""

    def __init__(
        self,
        game: Game[Any],
        options: GameOptions,
        decks: Decks,
        journal: Journal,
        info: SessionInfo,
        log: EventLog,
        ears: Ears,
        mouth: Mouth,
        clock: Callable[[], float],
        *,
        remind_after: float | None = None,
        undo_after_reveal: bool = False,
        watchers: Iterable[Callable[[Any], None]] = (),
        other_ways: Callable[[Prompt, Any], str] | None = None,
    ):
        self.log = log
        self.play = Play(game, options, decks, journal, info, clock, watchers)
        self.announcer = Announcer(mouth, log, self.play)
        other_way = other_ways or (lambda prompt, state: "")
        self.awaiting = Awaiting(
            ears, clock, log, self.announcer, remind_after, lambda prompt: other_way(prompt, self.play.state)
        )
        self.corrections = Corrections(self.play, self.announcer, self.awaiting)
        self.commands = CommonCommands(
            self.play, self.announcer, self.awaiting, log, self._correct, undo_after_reveal, self._accept
        )
        self.clarifier = Clarifier(self.play, self.announcer, self.awaiting, self.commands, other_ways)

    @property
    def game(self) -> Game[Any]:
        return self.play.game

    @property
    def state(self) -> Any:
        """The game's state now (Play.state)."""
        return self.play.state

    @property
    def actions(self) -> list[Action]:
        """The moves taken, as journaled (Play.actions)."""
        return self.play.actions

    # ---- starting -------------------------------------------------------

    def start(self) -> None:
        """A new game: log its start and narrate the deal."""
        events = self.play.start()
        options = self.play.options
        teams = [list(team) for team in options.teams] or None
        players, session = list(options.players), self.play.info.id
        self.log.write(GameStarted(self.game.id, options.mode, options.deal, players, teams, options.seed, session))
        self.announcer.narrate(events)

    def restore(self, actions: list[Action]) -> None:
        """A resumed game: replay the journal silently, then say where we are.

        When the last move journaled ended the game, the crash came between saving it and
        saying it (or while it was said): its ending is said now, winner and scores, as it
        would have been, rather than scores alone (the secrets it dealt are not repeated)."""
        last = self.play.restore(actions)
        self.log.write(Resumed(self.play.info.id, len(actions)))
        say = self.announcer.say
        if self.actions and self.game.prompt(self.state) is None:
            say(f"Welcome back to {self.game.title}. The game is over: the last move saved ended it.")
            self.announcer.narrate([event for event in last if event["type"] != "private"])
            say(self.game.scores(self.state))
            return
        say(f"Welcome back to {self.game.title}. We were in the middle of the game.")
        say(self.game.scores(self.state))
        remind = self.game.resumed
        if remind is not None:
            self.announcer.narrate(remind(self.state))

    # ---- the loop -------------------------------------------------------

    def run(self) -> Ending:
        """Play until the game ends (OVER), the players quit (QUIT) or the input ends (EOF)."""
        while True:
            prompt = self.play.game.prompt(self.play.state)
            if prompt is None:
                self.play.over()
                return Ending.OVER
            self.log.write(Asked(prompt.player, prompt.name))
            if prompt.player:
                self.announcer.sound("your_turn")  # the turn change, timed
            if prompt.text:  # Keep Cool's turns are a cue alone
                self.announcer.say(prompt.text, remember=False)
            ending = self._one_reply(prompt)
            if ending is not None:
                return ending

    def _one_reply(self, prompt: Prompt) -> Ending | None:
        """One reply taken; after a missed start or a "Sorry?" the host listens again
        without re-reading the prompt, as often as it takes (a loop, so a long run of
        unclear replies never deepens the stack)."""
        while True:
            match self._take_reply(prompt):
                case ListenAgain():
                    continue
                case End(ending):
                    return ending
                case None:
                    return None

    def _take_reply(self, prompt: Prompt) -> Taken:
        heard = self.awaiting.hear(prompt)
        if heard is None:
            return End(Ending.EOF)
        for name, at in heard.cues:  # played live by the ears (the last seconds' ticks)
            self.log.write(CuePlayedLive(name, round(at, 3)))
        if heard.outcome is Outcome.TIMED_OUT:
            self.log.write(Heard(prompt.player, "", timeout=True, timing=timing(heard, prompt)))
            self._accept(prompt, {"intent": "timeout"})
            return None
        if heard.outcome is Outcome.MISSED_START:
            self.awaiting.missed_start(prompt, heard)
            return ListenAgain()  # asked again by saying so; the prompt is not re-read
        if heard.outcome is Outcome.DECIDED and heard.intent is not None:
            # Decided where it was made (a phone's button, a command after an address): no "did you mean?".
            self.log.write(Heard(prompt.player, heard.text, source=heard.source.value))
            return self._act(prompt, heard.intent.copy(), heard, heard.seat)
        if heard.outcome is Outcome.UNCLEAR and prompt.unclear is not None:
            # Speech the host could not read, where any speech is a move (a Keep Cool clue).
            confidence = round(heard.evidence.confidence or 0.0, 3)
            reason = heard.reason or None  # e.g. misheard again
            self.log.write(
                Heard(prompt.player, "", confidence, unclear=True, reason=reason, timing=timing(heard, prompt))
            )
            self._accept(
                prompt, prompt.unclear | {"heard": list(heard.heard_as)} if heard.heard_as else prompt.unclear.copy()
            )
            return None
        return self._take_understood(prompt, heard)

    def _take_understood(self, prompt: Prompt, heard: Understood) -> Taken:
        """A reply as the reply policy says: acted on, asked about first, or a miss (asked
        again, narrowed after the second miss at this prompt, or "Sorry?" when spoken)."""
        self._log_heard(prompt, heard)
        trouble = self.clarifier.trouble_at(prompt)
        heard = self.corrections.meant_now(prompt, heard, bool(trouble.misses or trouble.ruled_out))
        step = reply_policy.reply(prompt, heard, trouble, self.clarifier)
        match step:
            case Miss(secret):
                return self._not_a_move(prompt, heard, trouble, secret)
            case Refused(refusal):
                return self._refused_unsure(prompt, heard, trouble, refusal)
            case AskChoices():
                trouble.heard.append(heard.text)
                return self._narrow(prompt)
            case Ask(intent, phrase, your_answer):
                settled = self.clarifier.did_you_mean(prompt, phrase, intent, sure_only=your_answer)
                return (
                    self._take(prompt, settled.intent, heard, trouble)
                    if isinstance(settled, Act)
                    else self._taken(prompt, settled)
                )
            case Act(intent):
                return self._take(prompt, intent, heard, trouble)
            case _:
                assert_never(step)

    def _take(self, prompt: Prompt, intent: Intent, heard: Understood, trouble: Trouble) -> Taken:
        """A move settled: taken, unless the rules refuse the same spoken move again ("take
        the number two card", six times, for "take the draw two card"): likely misheard,
        so a miss as well. The reason first, then the narrowed questions once due, which
        offer what is possible."""
        refusal = self.clarifier.refusal(prompt, intent) if heard.spoken else None
        if refusal is not None and intent in trouble.ruled_out:
            self.clarifier.refuse(prompt, refusal)
            return self._narrow(prompt) if trouble.miss(heard.text) else None
        if refusal is not None:
            trouble.ruled_out.append(intent.copy())
        return self._act(prompt, intent, heard)

    def _narrow(self, prompt: Prompt) -> Taken:
        """The prompt's narrowed questions instead of the open one again (host/clarifying.py)."""
        return self._taken(prompt, self.clarifier.narrow(prompt))

    def _taken(self, prompt: Prompt, found: Chosen | Taken) -> Taken:
        """A move the narrowed questions found is accepted as it is; anything else is as it came."""
        if isinstance(found, Chosen):
            self._accept(prompt, found.intent)
            return None
        return found

    def _log_heard(self, prompt: Prompt, heard: Understood) -> None:
        evidence = heard.evidence
        confidence = evidence.confidence if evidence.confidence is not None else evidence.score / 100
        self.log.write(
            Heard(
                prompt.player,
                heard.text,
                round(confidence, 3),
                unsure=bool(evidence.rival),
                reason=heard.reason or None,  # why a reading was a miss
                timing=timing(heard, prompt),
            )
        )

    def _not_a_move(self, prompt: Prompt, heard: Understood, trouble: Trouble, secret: RuleError | None) -> Taken:
        """A reply read as no move, or as one not to take: narrowed once misses are due,
        "Sorry?" when spoken, else told it was not understood."""
        # Words read from speech that was no reliable reply do not point narrowing anywhere.
        if trouble.miss(heard.text if heard.outcome is not Outcome.UNCLEAR else ""):
            return self._narrow(prompt)
        if heard.spoken and not heard.unavailable:
            reason = secret.reason if secret is not None else "not understood"  # the log keeps why
            self.announcer.reject(prompt, reason, SORRY)  # spoken, and plausibly a reply
            return ListenAgain()  # the prompt is not re-read
        self.clarifier.not_understood(prompt, heard)
        return None

    def _refused_unsure(self, prompt: Prompt, heard: Understood, trouble: Trouble, refusal: RuleError) -> Taken:
        """An unsure reading the rules refuse now (a card not held) is never asked
        about: a "Did you mean" would name it. It is a miss. Spoken, the player
        hears the rules' reason and the question, as for a sure one, instead of
        "Sorry?": nothing changes either way, and a player who said it learns why,
        one who did not hears what was heard."""
        if trouble.miss(heard.text):
            return self._narrow(prompt)
        if heard.spoken:
            self.clarifier.refuse(prompt, refusal)
        else:
            self.announcer.reject(prompt, "not understood", self.clarifier.sorry(prompt))
        return None

    def _act(self, prompt: Prompt, intent: Intent, heard: Understood, seat: str = "") -> Taken:
        """A common command is carried out; a move goes to the rules."""
        if intent["intent"] in COMMON_INTENTS:
            return ended(self.commands.carry_out(prompt, intent, heard))
        self._accept(prompt, intent, seat, heard)
        return None

    def _correct(self, prompt: Prompt, intent: Intent, heard: Understood | None) -> Ending | None:
        """A correction (host/corrections.py). A move its player says was misheard, where
        it showed nothing hidden, is taken back as undo would and its question asked one
        part at a time (host/narrowing.py), the misheard move ruled out there: said again
        the open way, it would be heard the same."""
        misheard = self.corrections.correct(prompt, intent, heard)
        if misheard is None or not self.commands.undo(prompt):
            return None
        asked = self.game.prompt(self.state)
        if asked is None:
            return None
        self.clarifier.trouble_at(asked).refuse(misheard)
        if asked.narrow is None:
            return None  # asked the open way, where the misheard move is no longer taken
        taken = self._narrow(asked)
        return taken.ending if isinstance(taken, End) else None

    def _accept(self, prompt: Prompt, intent: Intent, seat: str = "", heard: Understood | None = None) -> None:
        """A move by the player asked, or, where anyone of several may answer (player
        None), by the seat of the phone page it came from. `heard`: the reply it came
        from (kept for a correction of it)."""
        player = prompt.player or seat or None
        tried = self.play.tried(intent, player)
        if isinstance(tried, RuleError):
            self.clarifier.refuse(prompt, tried)
            return
        new_state, events = tried
        if intent["intent"] not in self.play.game.info_intents:
            self.play.take(intent, player, new_state, heard)  # journal first: a crash while speaking loses nothing
            self.clarifier.forget()
        self.log.write(Accepted(prompt.player, intent))
        self.announcer.last_spoken = []
        self.announcer.narrate(events)
        if intent["intent"] in self.play.game.info_intents:
            self.announcer.answered_privately(player, events)
