"""The session loop, journal and event log, with a tiny counting game as the engine."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from fakes import RecordingMouth
from understood import Say, Understands

from host.awaiting import CONFIRM_AGAIN
from host.common_commands import UNDO_CONSENT
from host.contract import Ending, Evidence, Outcome, Prompt, Source, Understood
from host.engine import Game, GameOptions, RuleError, evolve, new_rng, say, sound
from host.eventlog import EventLog
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session
from voice.understanding.understand import decided


@dataclass
class CountState:
    players: tuple[str, ...]
    total: int = 0
    turn: int = 0
    rng: object = None


def _count_setup(options, decks):
    return CountState(options.players, rng=new_rng(options.seed)), [say("Let's count.")]


def _count_prompt(state):
    if state.total >= 10:
        return None
    player = state.players[state.turn % len(state.players)]
    return Prompt("common/number", player, f"{player}, add how much?", choices=("three",))


def _count_apply(state, action):
    value = action.get("value")
    if action["intent"] == "timeout":
        value = 1
    if not 1 <= value <= 5:
        raise RuleError("Add between one and five.")
    if state.total + value > 10:
        raise RuleError("That would pass ten.")
    s = evolve(state)
    s.total += value
    s.turn += 1
    roll = s.rng.randint(1, 6)
    return s, [sound("dice"), say(f"Total {s.total}. Die says {roll}.")]


COUNT_GAME = Game(
    id="count",
    title="Count",
    modes=("basic",),
    deals=("host",),
    min_players=1,
    max_players=4,
    rule_defaults={},
    rules_summary="Add up to ten.",
    setup=_count_setup,
    prompt=_count_prompt,
    apply=_count_apply,
    scores=lambda state: f"The total is {state.total}.",
    grammar_slots=lambda prompt, context: {},
    info_intents={"peek"},
)
"""Players take turns adding 1..5; whoever reaches 10 exactly ends it. Rolls a die for fun."""


class ScriptEars(Understands):
    def __init__(self, lines):
        self.lines = list(lines)

    def hear(self, prompt):
        if not self.lines:
            return None
        return self.understood(prompt, self.lines.pop(0))


def make_session(tmp_path: Path, lines, session_id=None, journal=None, *, ears=None, clock=None, **given):
    """A Count game; `ears` instead of the typed `lines`, a `clock` other than 1.5 s, and
    what else the session is `given` (remind_after, watchers)."""
    journal = journal or Journal(tmp_path / "db.sqlite3")
    options = GameOptions(players=("Ana", "Ben"), seed=3)
    sid = session_id or journal.create("count", {"options": {}})
    mouth = RecordingMouth()
    log = EventLog(tmp_path / f"{sid}.jsonl", clock=lambda: 1.5)
    session = Session(
        COUNT_GAME,
        options,
        None,
        journal,
        SessionInfo(sid, "g"),
        log,
        ears or ScriptEars(lines),
        mouth,
        clock=clock or (lambda: 1.5),
        **given,
    )
    return session, mouth, journal, sid


def events(tmp_path, sid):
    return [json.loads(line) for line in (tmp_path / f"{sid}.jsonl").read_text().splitlines()]


def test_a_game_runs_to_the_end_and_logs_every_step(tmp_path):
    session, mouth, journal, sid = make_session(tmp_path, ["5", "three", "2"])
    session.start()
    assert session.run() is Ending.OVER
    log = events(tmp_path, sid)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert log[0]["type"] == "game_start" and log[0]["players"] == ["Ana", "Ben"]
    assert [e["intent"]["value"] for e in log if e["type"] == "intent"] == [5, 3, 2]
    assert {"type", "player", "text", "confidence"} <= set(next(e for e in log if e["type"] == "heard"))
    assert journal.get(sid).status == "over"
    assert len(journal.accepted_actions(sid)) == 3


def test_invalid_moves_and_nonsense_change_nothing(tmp_path):
    session, mouth, journal, sid = make_session(tmp_path, ["9", "blah blah", "4"])
    session.start()
    assert session.run() is Ending.EOF
    assert session.state.total == 4
    assert "Add between one and five." in mouth.said
    assert any(s.startswith("Sorry, I didn't catch that") for s in mouth.said)
    reasons = [e["reason"] for e in events(tmp_path, sid) if e["type"] == "rejected"]
    assert reasons == ["Add between one and five.", "not understood"]
    assert journal.accepted_actions(sid) == [{"intent": "number", "value": 4, "player": "Ana"}]


def test_undo_reverts_the_last_accepted_action_and_replays_the_dice(tmp_path):
    session, mouth, journal, sid = make_session(tmp_path, ["4", "3", "undo", "yes", "2"])  # Ben agrees
    session.start()
    session.run()
    assert session.state.total == 6
    assert [a["value"] for a in journal.accepted_actions(sid)] == [4, 2]
    # the random generator is replayed too: same die as a fresh 4-then-2 game
    fresh, *_ = make_session(tmp_path / "fresh", ["4", "2"])
    fresh.start()
    fresh.run()
    assert fresh.state.rng.random() == session.state.rng.random()


def test_timeout_is_an_action_and_common_commands_do_not_touch_the_game(tmp_path):
    lines = ["...", "what's the score", "what can I say", "repeat", "slower", "whose turn", "rules"]
    session, mouth, journal, sid = make_session(tmp_path, lines)
    session.start()
    session.run()
    assert session.state.total == 1
    assert "The total is 1." in mouth.said and "ok slower" in mouth.said
    assert "It's Ben's turn." in mouth.said and "Add up to ten." in mouth.said
    assert 'You can say, for example: "three".' in mouth.said


def test_pause_waits_for_resume_and_quit_needs_a_yes(tmp_path):
    session, mouth, journal, sid = make_session(tmp_path, ["pause", "5", "resume", "quit", "no", "2", "quit", "yes"])
    session.start()
    assert session.run() is Ending.QUIT
    assert session.state.total == 2  # the "5" during the pause was ignored
    assert journal.get(sid).status == "playing"


def test_a_move_said_to_the_quit_question_is_taken_not_dropped(tmp_path):
    """ "Do you want to stop the game?" answered with a move, as if it had not been asked:
    the players go on, and the move is played."""
    session, mouth, journal, sid = make_session(tmp_path, ["quit", "3", "2"])
    session.start()
    assert session.run() is Ending.EOF
    assert "Okay, we keep playing." in mouth.said and session.state.total == 5
    assert [a["value"] for a in journal.accepted_actions(sid)] == [3, 2]


def test_what_only_says_something_is_answered_while_paused_and_the_game_stays_paused(tmp_path):
    session, mouth, journal, sid = make_session(tmp_path, ["3", "pause", "score", "whose turn", "4", "resume", "2"])
    session.start()
    session.run()
    paused = mouth.said.index("Paused. Say resume when you are ready.")
    assert mouth.said[paused + 1 : paused + 3] == ["The total is 3.", "It's Ben's turn."]
    assert "Let's go on." in mouth.said and session.state.total == 5  # the "4" while paused was no move


def test_resume_is_no_reading_where_nothing_is_paused(tmp_path):
    """Outside a pause "let's go on" is not understood, never a resume (one misheard so
    answered nothing the player asked); in a pause it resumes, and the game is unchanged."""
    session, mouth, journal, sid = make_session(tmp_path, ["let's go on", "3", "pause", "let's go on", "2"])
    session.start()
    session.run()
    commands = [e["intent"]["intent"] for e in events(tmp_path, sid) if e["type"] == "intent"]
    assert commands == ["number", "number"] and session.state.total == 5
    assert "We're not paused. Carry on." not in mouth.said
    assert mouth.said.index("Paused. Say resume when you are ready.") < mouth.said.index("Let's go on.")
    assert any(s.startswith("Sorry, I didn't catch that") for s in mouth.said)


class TableTalkEars(ScriptEars):
    """ "talk" in the script is speech the ears found not said to the host."""

    def hear(self, prompt):
        if self.lines and self.lines[0] == "talk":
            self.lines.pop(0)
            return Understood(Outcome.IGNORED, Source.VOICE, text="pass the crisps", reason="table talk")
        return super().hear(prompt)


def test_a_paused_table_talking_is_not_answered(tmp_path):
    session, mouth, journal, sid = make_session(
        tmp_path, [], ears=TableTalkEars(["pause", "talk", "talk", "resume", "2"])
    )
    session.start()
    session.run()
    assert "We're paused. Say resume to continue." not in mouth.said and "Let's go on." in mouth.said
    assert [e["type"] for e in events(tmp_path, sid)].count("ignored") == 2 and session.state.total == 2


def test_resume_rebuilds_the_exact_state_from_the_journal(tmp_path):
    session, _, journal, sid = make_session(tmp_path, ["4", "1", "undo", "yes", "3"])
    session.start()
    session.run()
    again, mouth, _, _ = make_session(tmp_path, ["3"], session_id=sid, journal=Journal(tmp_path / "db.sqlite3"))
    again.restore(journal.accepted_actions(sid))
    assert again.state.total == 7
    assert again.run() is Ending.OVER and again.state.total == 10
    assert "Welcome back" in mouth.said[0]


def test_used_questions_are_remembered_per_group(tmp_path):
    journal = Journal(tmp_path / "db.sqlite3")
    journal.mark_questions_used("ana,ben", ["q1", "q2"])
    journal.mark_questions_used("ana,ben", ["q2", "q3"])
    assert journal.used_questions("ana,ben") == {"q1", "q2", "q3"}
    assert journal.used_questions("cy") == frozenset()


class DecidedEars(ScriptEars):
    """Some replies arrive already decided, as a phone page's buttons send them."""

    def hear(self, prompt):
        if self.lines and isinstance(self.lines[0], dict):
            return decided(self.lines.pop(0), Source.PHONE, "a button")
        return super().hear(prompt)


def test_a_decided_intent_is_applied_journaled_and_undone_like_speech(tmp_path):
    seen = []
    session, mouth, journal, sid = make_session(
        tmp_path,
        [],
        ears=DecidedEars(
            [{"intent": "number", "value": 4}, {"intent": "number", "value": 9}, {"intent": "undo"}, "yes", "2"]
        ),  # Ana agrees to Ben's undo
        watchers=[lambda state: seen.append(state.total)],
    )
    session.start()
    assert session.run() is Ending.EOF
    assert session.state.total == 2
    assert "Add between one and five." in mouth.said  # the 9 is refused with its reason
    assert journal.accepted_actions(sid) == [{"intent": "number", "value": 2, "player": "Ana"}]
    assert seen == [0, 4, 0, 2]  # start, 4, undo, 2: never the 9
    heard = [e for e in events(tmp_path, sid) if e["type"] == "heard"]
    assert [e.get("source") for e in heard] == ["phone", "phone", "phone", None, None]
    assert heard[3]["text"] == "yes" and heard[3]["confirming"].startswith(UNDO_CONSENT)  # the answer, logged


class UnclearOnceEars(DecidedEars):
    """A reply the ears could not read (None in the script), as noise over a "yes" gives."""

    def hear(self, prompt):
        if self.lines and self.lines[0] is None:
            self.lines.pop(0)
            return Understood(Outcome.UNCLEAR, Source.VOICE, start=1.0, end=2.0)
        return super().hear(prompt)


def test_an_unread_answer_to_a_yes_or_no_question_is_asked_again_not_taken_for_a_no(tmp_path):
    session, mouth, journal, sid = make_session(
        tmp_path, [], ears=UnclearOnceEars([{"intent": "number", "value": 4}, {"intent": "undo"}, None, "yes"])
    )
    session.start()
    assert session.run() is Ending.EOF
    assert mouth.said.count(CONFIRM_AGAIN) == 1 and session.state.total == 0  # asked again, then undone
    assert journal.accepted_actions(sid) == []


def test_two_unread_answers_to_a_yes_or_no_question_leave_the_move_standing(tmp_path):
    session, mouth, journal, sid = make_session(
        tmp_path, [], ears=UnclearOnceEars([{"intent": "number", "value": 4}, {"intent": "undo"}, None, None])
    )
    session.start()
    assert session.run() is Ending.EOF
    assert mouth.said.count(CONFIRM_AGAIN) == 1 and "Okay, it stands." in mouth.said
    assert session.state.total == 4


class UnsureEars(ScriptEars):
    """Replies marked unsure (the ears heard something else nearly as well), except yes/no."""

    def hear(self, prompt):
        if self.lines and self.lines[0] not in ("yes", "no"):
            return self.understood(prompt, Say(self.lines.pop(0), rival="another reading"))
        return super().hear(prompt)


def test_an_unsure_reading_is_confirmed_before_it_is_acted_on(tmp_path):
    session, mouth, journal, sid = make_session(tmp_path, [], ears=UnsureEars(["4", "no", "3", "yes"]))
    session.start()
    session.run()
    assert mouth.said.count("Did you mean: four?") == 1 and "Did you mean: three?" in mouth.said
    assert journal.accepted_actions(sid) == [{"intent": "number", "value": 3, "player": "Ana"}]
    heard = [e for e in events(tmp_path, sid) if e["type"] == "heard" and e["text"] in ("4", "3")]
    assert [e.get("unsure") for e in heard] == [True, True]


class MumblingEars(ScriptEars):
    """Spoken replies (they have a start) that mean nothing, `count` of them, then "5"."""

    def __init__(self, count):
        super().__init__([])
        self.count = count

    def hear(self, prompt):
        if self.count == 0:
            return self.understood(prompt, Say("5", start=1.0, end=1.4)) if prompt.player == "Ana" else None
        self.count -= 1
        return self.understood(prompt, Say("zzz blarg", start=1.0, end=1.4))


def test_a_long_run_of_unclear_replies_is_asked_about_in_a_loop_not_a_deep_stack(tmp_path):
    """More "Sorry?"s than the recursion limit allows, then a clear reply that counts."""
    import sys

    session, mouth, journal, sid = make_session(tmp_path, [], ears=MumblingEars(300))
    session.start()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(__import__("inspect").stack()) + 250)
    try:
        assert session.run() is Ending.EOF
    finally:
        sys.setrecursionlimit(limit)
    assert mouth.said.count("Sorry?") == 300
    assert journal.accepted_actions(sid)[0]["value"] == 5


class LoudRoomEars(ScriptEars):
    """Replies lost to a loud room ("lost": reply-length speech the ears could not read, at
    `snr_db` over the room's noise), then typed lines."""

    def __init__(self, lines, snr_db):
        super().__init__(lines)
        self.snr_db = snr_db

    def hear(self, prompt):
        if self.lines and self.lines[0] == "lost":
            self.lines.pop(0)
            return Understood(
                Outcome.UNCLEAR, Source.VOICE, text="", evidence=Evidence(snr_db=self.snr_db), start=1.0, end=2.0
            )
        return super().hear(prompt)


def test_a_loud_room_is_told_once_to_give_just_the_answer_or_use_a_phone(tmp_path):
    """The first reply lost to a loud room gets the notice (with the phone page where it
    has the move), not "Sorry?", and is no miss; the next one is a miss as before. A
    quiet room's lost reply is a plain "Sorry?"."""
    from host.awaiting import LOUD_HERE

    lines = ["lost", "lost", "2", "3", "lost", "5"]
    session, mouth, _, sid = make_session(
        tmp_path, [], ears=LoudRoomEars(lines, snr_db=6.0), other_ways=lambda prompt, state: "phone"
    )
    session.start()
    session.run()
    assert mouth.said.count(f"{LOUD_HERE}, or use your phone.") == 1
    assert mouth.said.count("Sorry?") == 2 and session.state.total == 10
    told = [e for e in events(tmp_path, sid) if e["type"] == "heard" and e.get("reason") == "loud room"]
    assert len(told) == 1 and told[0]["snr_db"] == 6.0

    session, mouth, _, _ = make_session(tmp_path, [], ears=LoudRoomEars(["lost", "2"], snr_db=6.0))
    session.start()
    session.run()
    assert f"{LOUD_HERE}." in mouth.said  # no phone: just the answer

    session, mouth, _, _ = make_session(tmp_path, [], ears=LoudRoomEars(["lost", "2"], snr_db=30.0))
    session.start()
    session.run()
    assert not any(line.startswith(LOUD_HERE) for line in mouth.said) and "Sorry?" in mouth.said
