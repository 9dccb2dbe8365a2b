"""Keep Cool's live turns in the session loop, with scripted replies (no audio).

What the voice pipeline hands over is stood in for by Understood values with session
times, so the loop's own decisions are checked exactly: speech it could not read
is a clue that ends the turn, live ticks are logged where they played, timing
fields reach the event log, commands need "host" during turns, and the timer
can be changed by voice.
"""

from __future__ import annotations

import json
from pathlib import Path

from fakes import RecordingMouth
from understood import Say, Understands

from host.contract import Evidence, Outcome, Source, Understood
from host.decks import Decks, WordCard
from host.engine import GameOptions
from host.eventlog import EventLog
from host.games import keep_cool as kc
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session


def deck() -> Decks:
    words = [
        "apple",
        "bread",
        "candle",
        "daisy",
        "eagle",
        "forest",
        "glass",
        "honey",
        "island",
        "jelly",
        "kettle",
        "lemon",
        "music",
        "needle",
        "ocean",
        "pencil",
    ]
    return Decks(words=tuple(WordCard(i, tuple([w] * 10), tuple([w + "x"] * 10)) for i, w in enumerate(words)))


class Replies(Understands):
    def __init__(self, replies):
        self.replies = list(replies)
        self.prompts = []

    def hear(self, prompt):
        self.prompts.append(prompt)
        return self.understood(prompt, self.replies.pop(0)) if self.replies else None


def play(tmp_path: Path, replies, **rules):
    journal = Journal(tmp_path / "db.sqlite3")
    sid = journal.create("keep-cool", {"options": {}})
    options = GameOptions(
        players=("Ana", "Ben", "Cy"), seed=7, rules={"face": "red", "line": 1, "swap": False, **rules}
    )
    ears, mouth = Replies(replies), RecordingMouth()
    log = EventLog(tmp_path / "events.jsonl", clock=lambda: 0.0)
    session = Session(kc.GAME, options, deck(), journal, SessionInfo(sid, "g"), log, ears, mouth, clock=lambda: 0.0)
    session.start()
    session.run()
    log.close()
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    return session, ears, mouth, events


def test_speech_the_host_could_not_read_is_a_clue_and_ends_the_turn(tmp_path):
    unclear = Understood(
        Outcome.UNCLEAR, Source.VOICE, evidence=Evidence(confidence=0.2), listening_from=1.0, start=2.0, end=2.5
    )
    session, ears, mouth, events = play(tmp_path, [unclear])
    assert session.state.turn == "Ben" and session.state.spoken == ["Ana"]
    assert not [e for e in events if e["type"] == "rejected"]
    heard = next(e for e in events if e["type"] == "heard")
    assert heard["unclear"] and (heard["start"], heard["end"], heard["deadline"]) == (2.0, 2.5, 9.0)
    assert not any("catch" in text for text in mouth.said)  # no "sorry?" during turns


def test_live_ticks_are_logged_where_they_played_and_turns_are_quiet(tmp_path):
    timeout = Understood(
        Outcome.TIMED_OUT, Source.VOICE, listening_from=1.0, cues=(("tick", 6.0), ("tick", 7.0), ("tick", 8.0))
    )
    session, ears, mouth, events = play(tmp_path, [timeout, Say("fruit")])
    ticks = [e for e in events if e["type"] == "sound" and e["name"] == "tick"]
    assert [e["at"] for e in ticks] == [6.0, 7.0, 8.0] and all(e["live"] for e in ticks)
    assert "tick" not in mouth.sounds  # the ears played them; the session only logs
    assert mouth.sounds.count("buzzer") == 1
    assert session.state.turn == "Cy"
    # each turn: the turn cue and nothing said
    turn_prompts = [p for p in ears.prompts if p.name == "keep-cool/word"]
    assert [p.text for p in turn_prompts] == ["", "", ""]


def test_commands_need_the_host_prefix_during_turns(tmp_path):
    session, ears, mouth, events = play(tmp_path, [Say("score"), Say("host, score")])
    intents = [e["intent"] for e in events if e["type"] == "intent"]
    assert intents[0] == {"intent": "word", "word": None, "text": "score"}  # a clue
    assert intents[1] == {"intent": "score"}
    assert session.state.turn == "Ben"  # the command did not pass Ben's turn
    assert any(text.startswith("Round wins") for text in mouth.said)


def test_the_timer_is_changed_by_voice(tmp_path):
    session, ears, mouth, events = play(
        tmp_path, [Say("host relaxed mode"), Say("fruit"), Say("host timer twelve seconds")]
    )
    timeouts = [p.timeout for p in ears.prompts if p.name == "keep-cool/word"]
    assert timeouts == [8.0, None, None, 12.0]
    assert session.state.turn == "Ben"


def test_speech_two_ears_wrote_differently_is_asked_again_once_then_a_clue_with_both_readings(tmp_path):
    """Issue 56: where Whisper and the second listener write different words the host
    says "Again?" once, then takes the clue unread, never as either word; what each ear
    wrote goes with the move, so a claim can be checked against it."""
    differ = Understood(
        Outcome.MISHEARD,
        Source.VOICE,
        text="keating",
        reason="two ears wrote different words",
        heard_as=("keating", "kettle"),
        listening_from=1.0,
        start=2.0,
        end=2.5,
    )
    session, ears, mouth, events = play(tmp_path, [differ, differ])
    assert mouth.said.count("Again?") == 1
    assert session.state.turn == "Ben" and session.state.won == []
    assert session.state.said == ["keating", "kettle"]  # the clue, unread, with what each ear wrote
    move = session.play.actions[-1]
    assert move["word"] is None and move["heard"] == ["keating", "kettle"]
