"""A spoken reply is matched once: the ears' reading makes the match the session acts on.

From the recogniser's n-best to the journal, each hypothesis is matched against the
prompt once (voice/listening/reading.py); the checks, the attention to table talk,
the ears' Understood and the session all use that match (issue 31).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from fakes import RecordingMouth
from test_endpoint import RULES, silence, voiced
from test_read_ahead import Recording
from test_session import COUNT_GAME

from host.contract import Ending
from host.engine import GameOptions
from host.eventlog import EventLog
from host.journal import Journal
from host.play import SessionInfo
from host.reply_policy import acts
from host.session import Session
from voice.audio_types import Hypothesis
from voice.listening.ears import VoiceEars
from voice.listening.endpoint import Endpointer
from voice.listening.pipeline import Reader
from voice.understanding.matcher import Matcher, PromptGraph


class NBests:
    """A recogniser giving each utterance the next scripted n-best list."""

    name = "fake"

    def __init__(self, *lists):
        self.lists = [list(n_best) for n_best in lists]

    def compile(self, phrases):
        return tuple(phrases)

    def recognize(self, audio, grammar):
        return [Hypothesis(text, confidence) for text, confidence in self.lists.pop(0)]


def test_each_hypothesis_of_a_spoken_reply_is_matched_once(tmp_path, monkeypatch):
    matched: Counter[str] = Counter()
    match = PromptGraph.match

    def counted(table, heard):
        matched[heard] += 1
        return match(table, heard)

    monkeypatch.setattr(PromptGraph, "match", counted)
    audio = np.concatenate([silence(0.6), voiced(0.6), silence(1.0), voiced(0.4), silence(1.0)])
    # "four" with "five" close behind: the host asks "Did you mean: four?", and "yes" settles it.
    recogniser = NBests([("four", 0.95), ("five", 0.9)], [("yes", 0.95)])
    ears = VoiceEars(
        Recording(audio), Endpointer(RULES), Reader(recogniser, acts=acts), Matcher(), busy_until=lambda: 0.0
    )
    journal = Journal(tmp_path / "db.sqlite3")
    sid = journal.create("count", {"options": {}})
    mouth = RecordingMouth()
    session = Session(
        COUNT_GAME,
        GameOptions(players=("Ana", "Ben"), seed=3),
        None,
        journal,
        SessionInfo(sid, "g"),
        EventLog(tmp_path / "events.jsonl", clock=lambda: 0.0),
        ears,
        mouth,
        clock=lambda: 0.0,
    )
    session.start()
    assert session.run() is Ending.EOF
    assert "Did you mean: four?" in mouth.said
    assert journal.accepted_actions(sid) == [{"intent": "number", "value": 4, "player": "Ana"}]
    # The reply's hypotheses, each once; besides them only the prompt's own example words,
    # once, checked by the session for reading as "yes" (then it never asks yes or no).
    assert set(matched) == {"four", "five", "yes", "three"}
    assert max(matched.values()) == 1, matched
