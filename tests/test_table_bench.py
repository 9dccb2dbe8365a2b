"""`partyhost bench table`: the simulated table (lab/partyhost_lab/table_player.py) against a
scripted host, and one short game played live through the real wyoming-satellite."""

from __future__ import annotations

import json
import queue
import shutil
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from replay import load_cases
from satellite import satellite_program_path  # noqa: F401 (fixture)

from host.awaiting import CONFIRM_AGAIN
from host.common_commands import undo_consent_question
from host.corrections import MISHEARD, TABLE_AGREES
from partyhost_lab.scripted import outcomes
from partyhost_lab.table import IRREVERSIBLE, CaseResult, play_case, speaker_for, stop_of, stop_rows
from partyhost_lab.table_player import (
    UNTOLD,
    GameRecord,
    LineRecord,
    Table,
    narrowed_answer,
    told_as_typed,
    typed_lines,
)

SHORT = replace(
    next(c for c in load_cases() if c.script == "centurion-vs-host.txt"),
    rules={"highest_first": True, "pool": 1},
    winners=("Ana",),
)
"""Centurion against the host with a pool of one counter: over after the script's first
five lines (a refused card, two cards, "score", a card), about two minutes live."""


@pytest.mark.slow
@pytest.mark.audio
@pytest.mark.model
@pytest.mark.live
def test_a_short_game_played_live_through_a_satellite_ends_as_typed(satellite_program_path, voices, tmp_path):
    result = play_case(SHORT, "clean", ("piper-1",), voices, satellite_program_path, tmp_path / "game", None)
    transcript = [(line.text, line.reactions, line.heard) for line in result.record.lines]
    assert result.completed, (result.record.error, transcript)
    assert result.typed_lines == 5 and [line.done for line in result.record.lines] == [True] * 5
    assert not any(line.wrong_moves for line in result.record.lines), transcript


# ---------------------------------------------------------------- the players' rules


class ScriptedHost:
    """A host that answers what the table says from a plan, writing its event log and
    "playing" each sentence on a fake satellite speaker (a file that grows)."""

    def __init__(self, folder: Path, plan: list[tuple[str, list[dict]]], opening: list[dict]):
        self.log, self.played = folder / "events.jsonl", folder / "played.raw"
        self.plan, self.said, self.returncode = list(plan), [], None
        self.said_at: list[float] = []
        self.opened_at = 0.0  # when the opening's sound had all reached the speaker
        self.heard: queue.Queue[str] = queue.Queue()
        self.opening = opening
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    # the satellite's side
    def say(self, audio: np.ndarray, timeout: float = 0) -> float:
        self.heard.put(SAID[audio.tobytes()])
        self.said_at.append(time.monotonic())
        return time.monotonic()

    # the host process's side
    def poll(self) -> int | None:
        return self.returncode

    def _run(self) -> None:
        self._write(self.opening)
        for expected, events in self.plan:
            text = self.heard.get(timeout=30)
            self.said.append(text)
            assert text == expected, (text, expected)
            self._write(events)
        self.returncode = 0

    def _write(self, events: list[dict]) -> None:
        with open(self.log, "a") as log:
            for event in events:
                log.write(json.dumps(event) + "\n")
        time.sleep(0.1)  # then the speaker plays it
        with open(self.played, "ab") as speaker:
            speaker.write(b"\0\0" * sum(e["type"] in ("say", "sound") for e in events) * 100)
        self.opened_at = self.opened_at or time.monotonic()


SAID: dict[bytes, str] = {}


def speech(speaker: str, text: str, number: int = 0) -> np.ndarray:
    """A stand-in for speaking: a distinct sound for each text, remembered."""
    audio = np.full(800, 0.01 + 0.001 * len(SAID), np.float32)
    SAID[audio.tobytes()] = text
    return audio


def test_a_player_answers_did_you_mean_truthfully_undoes_a_wrong_move_and_says_it_again(tmp_path):
    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    assert line.text == "card two with plus twenty" and line.move
    wrong = {"intent": "choose_card", "card": 1}
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    question = {"type": "say", "text": "Team Ana, which question is closest to 50?"}
    host = ScriptedHost(
        tmp_path,
        [
            (
                line.text,
                [
                    {"type": "heard", "text": "one with plus twenty"},
                    {"type": "say", "text": "Did you mean: one with plus twenty?"},
                ],
            ),
            ("no", [{"type": "say", "text": "Okay, let's try again."}, ask, question]),
            (
                line.text,
                [
                    {"type": "intent", "intent": wrong},
                    {"type": "say", "text": "Team Ana plays card 1."},
                    {"type": "prompt", "player": "Team Ben", "prompt": line.prompt.name},
                ],
            ),
            (f"no, I said {line.text}", not_corrected(line)),
            (
                "undo",
                [
                    {"type": "undo", "action": wrong},
                    {"type": "intent", "intent": {"intent": "undo"}},
                    {"type": "say", "text": "Undone."},
                    ask,
                    question,
                ],
            ),
            (
                line.text,
                [
                    {"type": "heard", "text": "card two with plus twenty"},
                    {"type": "say", "text": "Did you mean: card two with plus twenty?"},
                ],
            ),
            ("yes", [{"type": "heard", "text": "yet"}, {"type": "say", "text": CONFIRM_AGAIN}]),
            (
                "yes",
                [
                    {"type": "intent", "intent": line.move},
                    *({"type": "say", "text": told} for told in line.told),
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, question],
    )
    sayings: list[tuple[str, int]] = []

    def numbered(speaker: str, text: str, number: int = 0) -> np.ndarray:
        sayings.append((text, number))
        return speech(speaker, text, number)

    table = Table(case.game, host, host.log, host, numbered, tries=3, quiet_s=0.2, patience_s=0.5)
    [record] = table.play([line]).lines
    host.thread.join(5)
    assert host.said == [line.text, "no", line.text, f"no, I said {line.text}", "undo", line.text, "yes", "yes"]
    assert [n for text, n in sayings if text == line.text] == [0, 1, 2]  # each repeat a new saying
    assert record.done and record.tries == 3 and record.undos == 1 and record.corrections == 1
    assert record.asked == ["one with plus twenty", "card two with plus twenty", CONFIRM_AGAIN]
    assert record.wrong_moves == [wrong]
    assert record.reactions == ["answered", "wrong move", "done"]


def test_a_player_agrees_when_the_undo_of_their_wrong_move_needs_their_yes(tmp_path):
    """Said at the next team's turn, "undo" asks the move's player first (host/session.py)."""
    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    wrong = {"intent": "choose_card", "card": 1}
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    question = {"type": "say", "text": "Team Ana, which question is closest to 50?"}
    host = ScriptedHost(
        tmp_path,
        [
            (
                line.text,
                [
                    {"type": "intent", "intent": wrong},
                    {"type": "say", "text": "Team Ana plays card 1."},
                    {"type": "prompt", "player": "Team Ben", "prompt": line.prompt.name},
                ],
            ),
            (f"no, I said {line.text}", not_corrected(line)),
            ("undo", [{"type": "say", "text": undo_consent_question("Team Ana")}]),
            (
                "yes",
                [
                    {"type": "undo", "action": wrong},
                    {"type": "intent", "intent": {"intent": "undo"}},
                    {"type": "say", "text": "Undone."},
                    ask,
                    question,
                ],
            ),
            (
                line.text,
                [
                    {"type": "intent", "intent": line.move},
                    {"type": "say", "text": "Team Ana plays card 2."},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, question],
    )
    record = _played(case, host, line)
    assert host.said == [line.text, f"no, I said {line.text}", "undo", "yes", line.text]
    assert record.done and record.undos == 1 and record.wrong_moves == [wrong]


def not_corrected(line) -> list[dict]:
    """The host's answer to a correction it could not read: the reason, and the question again."""
    return [
        {"type": "rejected", "player": "Team Ben", "reason": "correction not understood"},
        {"type": "say", "text": "Sorry, I couldn't tell what the move should be. Nothing changed."},
        {"type": "prompt", "player": "Team Ben", "prompt": line.prompt.name},
        {"type": "say", "text": "Team Ben, which question is closest to 50?"},
    ]


def _card_one_taken(tmp_path: Path):
    """Zero to 100, Team Ana's "card two with plus twenty" taken as card 1, and Team Ben
    asked next: the case, the line, the wrong move, the host's opening question and the
    plan's first step."""
    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    wrong = {"intent": "choose_card", "card": 1}
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    question = {"type": "say", "text": "Team Ana, which question is closest to 50?"}
    taken_wrong = (
        line.text,
        [
            {"type": "intent", "intent": wrong},
            {"type": "say", "text": "Team Ana plays card 1."},
            {"type": "prompt", "player": "Team Ben", "prompt": line.prompt.name},
        ],
    )
    return case, line, wrong, [ask, question], taken_wrong


def test_a_player_corrects_a_wrong_move_and_the_table_agrees(tmp_path):
    """The host took card 1 for "card two with plus twenty": "no, I said ...", the table's
    yes to the host's question, and the move stands as said, with no undo."""
    case, line, wrong, opening, taken_wrong = _card_one_taken(tmp_path)
    host = ScriptedHost(
        tmp_path,
        [
            taken_wrong,
            (
                f"no, I said {line.text}",
                [{"type": "say", "text": f"Team Ana said {line.text}, not card one? {TABLE_AGREES}"}],
            ),
            (
                "yes",
                [
                    {"type": "correction", "action": {**line.move, "player": "Team Ana"}, "was": wrong, "asked": True},
                    {"type": "say", "text": f"Team Ana said {line.text}: nothing else changes."},
                    {"type": "intent", "intent": {"intent": "correct"}},
                    {"type": "prompt", "player": "Team Ben", "prompt": line.prompt.name},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=opening,
    )
    record = _played(case, host, line)
    assert host.said == [line.text, f"no, I said {line.text}", "yes"]
    assert record.done and record.corrections == 1 and record.undos == 0 and record.wrong_moves == [wrong]


def test_a_player_whose_move_the_host_takes_back_as_misheard_answers_its_narrowed_questions(tmp_path):
    """The correction read as the move taken: the host says it misheard, asks Team Ana's
    yes (Team Ben's turn had come), takes card 1 back and asks for the move one part at a
    time. The player answers those questions for the line, and says no "undo"."""
    case, line, wrong, opening, taken_wrong = _card_one_taken(tmp_path)
    host = ScriptedHost(
        tmp_path,
        [
            taken_wrong,
            (
                f"no, I said {line.text}",
                [
                    {"type": "say", "text": MISHEARD.format(who="Team Ana")},
                    {"type": "say", "text": undo_consent_question("Team Ana")},
                ],
            ),
            (
                "yes",
                [
                    {"type": "undo", "action": wrong},
                    {"type": "say", "text": "Undone. Back to before Team Ana's last move."},
                    {"type": "narrowing", "player": "Team Ana", "prompt": line.prompt.name},
                    {"type": "say", "text": "Team Ana, which card: 1, 2 or 3?"},
                ],
            ),
            ("2", [{"type": "say", "text": "Team Ana, power card: none, plus 50, minus 50 or something else?"}]),
            ("something else", [{"type": "say", "text": "Team Ana, power card: plus 20, minus 20 or Spot On?"}]),
            (
                "plus 20",
                [
                    {"type": "intent", "intent": line.move},
                    {"type": "say", "text": "Team Ana plays card 2."},
                    {"type": "intent", "intent": {"intent": "correct"}},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=opening,
    )
    record = _played(case, host, line)
    assert host.said == [line.text, f"no, I said {line.text}", "yes", "2", "something else", "plus 20"]
    assert record.done and record.corrections == 1 and record.undos == 0 and record.wrong_moves == [wrong]


def test_a_scripts_yes_to_an_undo_is_folded_into_its_undo_line(tmp_path):
    """one-percent-basic-table.txt: Dee's "undo" of Cy's bid, then Cy's "yes" (no prompt
    of its own): the live player says that yes as part of the undo line."""
    case = next(c for c in load_cases() if c.script == "one-percent-basic-table.txt")
    lines = typed_lines(case, tmp_path / "typed", speaker_for(case))[0]
    texts = [line.text for line in lines]
    undo = texts.index("undo")
    assert texts[undo + 1] == "raise it to 4 stars" and lines[undo].move == {"intent": "undo"}
    assert lines[undo + 1].move == {"intent": "bid", "count": 4, "family": "star"}  # heard and moves aligned


def test_an_undo_its_player_refused_when_typed_is_answered_no_live(tmp_path):
    """keep-it-100-basic.txt: Ben's "undo" of Ana's guess, which Ana answers "I think it's
    lower" when typed: not a yes, so the typed host keeps her guess. The live Ana says no
    (a yes took the game elsewhere: every later line was said to another state)."""
    case = next(c for c in load_cases() if c.script == "keep-it-100-basic.txt")
    lines = typed_lines(case, tmp_path / "typed", speaker_for(case))[0]
    undo = next(line for line in lines if line.text == "undo")
    assert undo.move == {"intent": "undo"} and not undo.consents and "Okay, it stands." in undo.told
    assert lines[undo.index + 1].text == "correct"  # Ana's answer is folded into the undo line
    ask = {"type": "prompt", "player": undo.prompt.player, "prompt": undo.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            ("undo", [{"type": "say", "text": undo_consent_question("Ana")}]),
            (
                "no",
                [
                    {"type": "say", "text": "Okay, it stands."},
                    {"type": "intent", "intent": {"intent": "undo"}},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, {"type": "say", "text": "Ben, and you?"}],
    )
    table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=0.2, patience_s=0.5)
    [record] = table.play([undo]).lines
    host.thread.join(5)
    assert host.said == ["undo", "no"] and record.done


def test_a_move_worded_otherwise_with_the_same_effect_is_done_not_undone(tmp_path):
    """ "between 35 and 95" taken for "between 35 and 95 on line two", where only line two
    has that gap: the card lands where the typed one did, so the player goes on."""
    case = next(c for c in load_cases() if c.script == "keep-it-100-basic.txt")
    lines = typed_lines(case, tmp_path / "typed", speaker_for(case))[0]
    line = next(line for line in lines if line.text == "between 35 and 95 on line two")
    ask = {"type": "prompt", "player": line.prompt.player, "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            (
                line.text,
                [
                    {"type": "intent", "intent": {"intent": "place", "after": 35, "before": 95}},
                    *({"type": "say", "text": text} for text in line.told),
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            )
        ],
        opening=[ask, {"type": "say", "text": "Cy, where?"}],
    )
    table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=0.2, patience_s=0.5)
    [record] = table.play([line]).lines
    host.thread.join(5)
    assert host.said == [line.text] and record.done and record.wrong_moves == [] and record.undos == 0


def test_a_choice_worded_otherwise_leads_to_the_move_when_the_game_does_the_same_with_it(tmp_path):
    """keep-it-100-over100.txt: "above 95 on line two" is the narrowed "above 95" of line
    two, which also names the line's end ({"end": "high"}): a person answers "two", not the
    whole line again."""
    from host.narrowing import list_question

    case = next(c for c in load_cases() if c.script == "keep-it-100-over100.txt")
    line = next(
        each for each in typed_lines(case, tmp_path, speaker_for(case))[0] if each.text == "above 95 on line two"
    )
    assert "end" not in line.move
    assert narrowed_answer(line, "Ana, which line: one or two?") == "two"
    where = list_question("Ana", "Where?", ["below 20", "between 20 and 95", "above 95"])
    assert narrowed_answer(line, where) == "above 95"


def test_a_player_answers_the_narrowed_questions_as_someone_who_knows_what_they_meant(tmp_path):
    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    lines = typed_lines(case, tmp_path / "typed", speaker_for(case))[0]
    line = lines[2]  # card two with plus twenty
    assert narrowed_answer(line, "Team Ana, which card: 1, 2 or 3?") == "2"
    assert narrowed_answer(line, "Team Ana, which card: 1 to 6?") == "2"  # a span said
    assert narrowed_answer(line, "Card 1?") == "no" and narrowed_answer(line, "Card 2?") == "yes"
    assert narrowed_answer(line, "Power card: none, plus 20 or minus 20?") == "plus 20"
    assert narrowed_answer(line, "No power card?") == "no"
    assert narrowed_answer(line, "Team Ana, which question is closest to 50?") is None
    said = next(each for each in lines if each.prompt.name == "zero-to-100/tiebreak" and each.move)
    value = said.move["value"]
    assert narrowed_answer(said, "Team Ana, your answer, in tens first: 0, 10, 20 and so on up to 100?") == (
        str(value // 10 * 10) if value < 100 else "100"
    )
    assert narrowed_answer(said, "Team Ana, say it digit by digit, like 4 2.") == " ".join(str(value))
    refused = lines[1]  # the fifty card, no side: the typed game refused it
    assert not refused.move
    assert narrowed_answer(refused, "Team Ana, which card: 1, 2 or 3?") == refused.text
    assert narrowed_answer(refused, "Card 2?") == refused.text

    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            (line.text, [{"type": "narrowing"}, {"type": "say", "text": "Team Ana, which card: 1, 2 or 3?"}]),
            ("2", [{"type": "say", "text": "Power card: none, plus 20 or minus 20?"}]),
            (
                "plus 20",
                [
                    {"type": "intent", "intent": line.move},
                    *({"type": "say", "text": told} for told in line.told),
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, {"type": "say", "text": "Team Ana, your pick?"}],
    )
    record = _played(case, host, line)
    assert host.said == [line.text, "2", "plus 20"]
    assert record.done and record.tries == 1
    assert record.asked == ["Team Ana, which card: 1, 2 or 3?", "Power card: none, plus 20 or minus 20?"]


def test_the_room_goes_on_under_a_line_and_loops(tmp_path):
    """The satellite's microphone (lab/partyhost_lab/satellite_mic.py) plays a room's recording
    without a break: a line is added over it, and it loops."""
    from array import array

    from partyhost_lab.satellite_mic import Room, over

    recording = tmp_path / "room.raw"
    recording.write_bytes(array("h", range(1, 11)).tobytes())
    room = Room(4, recording)
    assert list(room.next(4)) == [1, 2, 3, 4]
    line = array("h", [100, 32767]).tobytes()
    assert list(array("h", over(room.next(4), line))) == [105, 32767, 7, 8]  # added, kept in range
    assert list(room.next(4)) == [9, 10, 1, 2]
    assert len(Room(4, None).next(4)) == 4  # the faint floor


def test_the_figures_count_what_the_table_met_and_survive_a_json_round_trip(tmp_path):
    from partyhost_lab.table import CaseResult, _as_json, figures, from_json, summary_rows
    from partyhost_lab.table_player import GameRecord, LineRecord

    events = [
        {"type": "say", "text": "Welcome."},
        {"type": "prompt"},
        {"type": "say", "text": "Ana?"},
        {"type": "say", "text": "Did you mean: card one?"},
        {"type": "say", "text": "Ben?"},
    ]
    lines = [
        LineRecord(0, "card two", "Ana", tries=1, done=True, seconds=3.0),
        LineRecord(
            1,
            "card one",
            "Ben",
            tries=3,
            asked=["card three"],
            done=True,
            seconds=9.0,
            wrong_moves=[{"intent": "choose_card", "card": 3}],
            undos=1,
        ),
        LineRecord(2, "lower", "Ana", tries=6, done=False),
    ]
    result = CaseResult(
        "x.txt",
        "zero-to-100",
        "basic",
        "party",
        {"Ana": "piper-1"},
        False,
        GameRecord(lines, events, stalled_at=2),
        15,
        60.0,
    )
    f = figures([result])
    assert (f.moves, f.lines, f.right_first, f.asked) == (2, 3, 1, 1)
    assert f.repeats_per_move == round((0 + 2 + 5) / 3, 2) and f.wrong_per_100 == round(100 / 3, 2)
    assert (f.p50_s, f.p95_s) == (3.0, 9.0) and f.host_lines_per_move == 1.0  # 3 sentences from the prompt on
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps([_as_json(result)]))
    [again] = from_json(saved)
    assert figures([again]) == f and summary_rows([again]) == summary_rows([result])


# ---------------------------------------------------------------- held apart


def _voice_lists_elsewhere() -> set[str]:
    """Every voice another bench, fixture set or tuning speaks with (a pitch-moved voice
    as the voice it is moved from)."""
    from partyhost_lab import keep_cool, synthetic_speech, table, wake

    named = {
        *wake.DESIGN_VOICES,
        *wake.TUNING_VOICES,
        *wake.HELD_VOICES,
        *wake.COMMAND_VOICES,
        *keep_cool.TUNING_VOICES,
        *keep_cool.TUNE_VOICES,
        *keep_cool.REPORT_VOICES,
        *table.TUNING,
        *(f"espeak-{v}" for v in synthetic_speech.ESPEAK_VOICES),
    }
    return {name.partition("@")[0] for name in named}


def test_the_held_apart_table_and_its_room_speak_with_voices_nothing_else_uses():
    """Issue 40: en-us+f4 tuned the wake word and Piper 0.95 was in the wake bench."""
    from partyhost_lab.held_apart_room import TALKERS
    from partyhost_lab.table import HELD_APART

    held = {*HELD_APART, *TALKERS}
    assert len(held) == len(HELD_APART) + len(TALKERS)
    assert not held & _voice_lists_elsewhere()
    root = Path(__file__).resolve().parents[1]
    own = {root / "lab/partyhost_lab/table.py", root / "lab/partyhost_lab/held_apart_room.py", Path(__file__).resolve()}
    sources = [
        p
        for folder in ("partyhost", "host", "voice", "scripts", "tests")
        for p in (root / folder).rglob("*")
        if p.suffix in (".py", ".yaml", ".toml", ".txt", ".json", ".jsonl") and p.resolve() not in own
    ]
    for voice in held:
        spec = voice.removeprefix("espeak-")
        users = [str(p.relative_to(root)) for p in sources if spec in p.read_text(errors="replace")]
        assert not users, (voice, users)


def test_the_held_apart_party_is_made_from_no_recording_a_test_uses(monkeypatch):
    from partyhost_lab import chatter, held_apart_room, synthetic_speech

    def refused(*args, **kwargs):
        raise AssertionError("a shared recording was read")

    monkeypatch.setattr(chatter, "takes", refused)
    monkeypatch.setattr(synthetic_speech, "load_noise", refused)

    class FakeVoices:
        said: list[str] = []

        def speak(self, voice: str, text: str, rate: float = 1.0, fresh: bool = False) -> np.ndarray:
            self.said.append(voice)
            return np.sin(np.arange(8000) * (0.05 + 0.01 * len(text) % 7)).astype(np.float32)

    voices = FakeVoices()
    room = held_apart_room.held_apart_party(voices, 5.0)
    assert room.shape == (5 * 16000,) and room.dtype == np.float32
    assert np.sqrt(np.mean(room.astype(np.float64) ** 2)) == pytest.approx(1.0, rel=1e-3)
    assert set(voices.said) == set(held_apart_room.TALKERS)
    assert np.array_equal(room, held_apart_room.held_apart_party(voices, 5.0))  # the same room every run
    kitchen = held_apart_room.kitchen(5.0, np.random.default_rng(1))
    music = held_apart_room.music(5.0, np.random.default_rng(1))
    assert kitchen.std() > 0 and music.std() > 0


# ---------------------------------------------------------------- each repeat a new saying


def test_each_repeat_is_said_anew_more_slowly_at_another_pitch_and_level():
    from partyhost_lab.table_speech import AGAIN_CENTS, AGAIN_DB, AGAIN_RATE, Saying, Speech, saying

    assert saying("Ana", "card two", 0) == Saying()
    again = [saying("Ana", "card two", n) for n in (1, 2, 3)]
    assert all(
        s.rate == AGAIN_RATE
        and AGAIN_CENTS[0] <= abs(s.cents) <= AGAIN_CENTS[1]
        and AGAIN_DB[0] <= s.gain_db <= AGAIN_DB[1]
        for s in again
    )
    assert len({(s.cents, s.gain_db) for s in again}) == 3  # no two repeats alike
    assert saying("Ana", "card two", 2) == again[1]  # the same on every run

    class FakeVoices:
        asked: list[tuple[float, bool]] = []

        def speak(self, voice: str, text: str, rate: float = 1.0, fresh: bool = False) -> np.ndarray:
            self.asked.append((rate, fresh))
            return (np.sin(2 * np.pi * 300 * np.arange(16000) / 16000) * 0.3).astype(np.float32)

    voices = FakeVoices()
    speech_of = Speech(voices, {"Ana": "espeak-en-us"}, {"Ana": -23.0})
    first, second = speech_of("Ana", "card two", 0), speech_of("Ana", "card two", 1)
    assert voices.asked == [(1.0, False), (AGAIN_RATE, True)]  # a new synthesis, more slowly
    assert speech_of("Ana", "card two", 1) is second  # made once
    loud = [20 * np.log10(np.sqrt(np.mean(a.astype(np.float64) ** 2))) for a in (first, second)]
    assert loud[1] - loud[0] == pytest.approx(saying("Ana", "card two", 1).gain_db, abs=0.5)


@pytest.mark.skipif(not shutil.which("sox"), reason="sox moves the pitch")
def test_a_pitch_shift_moves_the_pitch_and_keeps_the_length():
    from partyhost_lab.synthetic_speech import pitch_shifted

    tone = np.sin(2 * np.pi * 200 * np.arange(16000) / 16000).astype(np.float32) * 0.5
    up = pitch_shifted(tone, 1200)
    assert abs(len(up) - len(tone)) < 400
    peak = np.argmax(np.abs(np.fft.rfft(up[2000:14000]))) * 16000 / 12000
    assert peak == pytest.approx(400, abs=15)
    assert pitch_shifted(tone, 0) is tone


# ---------------------------------------------------------------- what is counted


def _played(case, host: ScriptedHost, line) -> LineRecord:
    """One line played by a table of three tries against the scripted host."""
    table = Table(case.game, host, host.log, host, speech, tries=3, quiet_s=0.2, patience_s=0.5)
    [record] = table.play([line]).lines
    host.thread.join(5)
    return record


def test_a_clue_is_judged_by_its_words():
    from partyhost_lab.table_player import same_move

    clue = {"intent": "word", "word": None, "text": "toast"}
    assert same_move({"intent": "word", "word": None, "text": "The Toast."}, clue)  # case, article, full stop
    assert not same_move({"intent": "word", "word": None, "text": "taste"}, clue)
    assert same_move({"intent": "word", "word": None}, clue)  # taken unread: no other word claimed
    assert not same_move({"intent": "word", "word": None, "text": ""}, clue)
    hit = {"intent": "word", "word": "kettle"}  # a word in play: its words
    assert same_move({"intent": "word", "word": "kettle", "text": "a kettle"}, hit)  # are how it was worded
    assert same_move({"intent": "choose_card", "card": 2, "text": "card two"}, {"intent": "choose_card", "card": 2})


def test_a_clue_heard_as_another_word_is_a_wrong_move_the_player_undoes(tmp_path):
    case = next(c for c in load_cases() if c.script == "keep-cool-basic-host.txt")
    line = next(each for each in typed_lines(case, tmp_path / "typed", speaker_for(case))[0] if each.text == "toast")
    assert line.move == {"intent": "word", "word": None, "text": "toast"}
    misheard = {**line.move, "text": "taste"}
    ask = {"type": "prompt", "player": line.prompt.player, "prompt": line.prompt.name}
    question = {"type": "say", "text": f"{line.prompt.player}, your word?"}
    host = ScriptedHost(
        tmp_path,
        [
            (line.text, [{"type": "intent", "intent": misheard}, {"type": "say", "text": "Taste."}, ask, question]),
            (
                "host, undo",
                [
                    {"type": "undo", "action": misheard},
                    {"type": "intent", "intent": {"intent": "undo"}},
                    {"type": "say", "text": "Undone."},
                    ask,
                    question,
                ],
            ),
            (
                line.text,
                [
                    {"type": "intent", "intent": line.move},
                    {"type": "say", "text": "Toast."},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, question],
    )
    record = _played(case, host, line)
    assert host.said == [line.text, "host, undo", line.text]
    assert record.done and record.wrong_moves == [misheard] and record.undos == 1


def test_a_clue_taken_as_other_words_without_a_word_said_is_counted_and_played_on(tmp_path):
    """The live host does not say a clue back: nobody at a table could know it heard
    "taste" for "toast", so the player goes on; the bench still counts a wrong move."""
    case = next(c for c in load_cases() if c.script == "keep-cool-basic-host.txt")
    line = next(each for each in typed_lines(case, tmp_path / "typed", speaker_for(case))[0] if each.text == "toast")
    misheard = {**line.move, "text": "taste"}
    ask = {"type": "prompt", "player": line.prompt.player, "prompt": line.prompt.name}
    question = {"type": "say", "text": f"{line.prompt.player}, your word?"}
    following = {"type": "prompt", "player": "Cy", "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [(line.text, [{"type": "intent", "intent": misheard}, following])],
        opening=[ask, question],
    )
    assert line.told == ()  # the typed host said nothing of the clue either
    record = _played(case, host, line)
    assert host.said == [line.text]
    assert record.done and record.wrong_moves == [misheard] and record.undos == 0


def _word_in_play_taken_as_a_clue(tmp_path):
    """Ana's "forest", Cy's word in play, which the typed host called, and the claim Cy
    makes when the live host takes it as a clue (claim_lines)."""
    from partyhost_lab.table_player import claim_lines
    from voice.understanding.matcher import Matcher

    case = next(c for c in load_cases() if c.script == "keep-cool-basic-host.txt")
    lines = typed_lines(case, tmp_path / "typed", speaker_for(case))[0]
    line = next(each for each in lines if each.move and each.move.get("word") and each.told)
    assert line.told == ("Forest! Ana and Cy win that card.",)
    clue = {"intent": "word", "word": None, "text": "cattle"}
    claims = claim_lines(line, clue, Matcher())
    assert claims is not None
    return case, line, clue, claims


def test_a_word_in_play_taken_silently_as_a_clue_is_claimed_by_its_owner(tmp_path):
    """Issue 56: the typed host called the card, the live one took the word as a clue and
    said nothing. The owner, who knows their words and heard the word, claims it at the
    next turn ("got it") and says which of their words it was, by its place, as the host
    asks: the card is won as typed, and nothing is undone."""
    case, line, clue, (claim, answer) = _word_in_play_taken_as_a_clue(tmp_path)
    assert (claim.speaker, claim.text, claim.move) == ("Cy", "got it", {"intent": "hit"})
    assert claim.meaning == claim.move and claim.prompt.player == "Ben"  # said at Ben's turn
    assert answer.speaker == "Cy" and answer.move == line.move and answer.meaning == line.move
    assert answer.text in {f"the {place} one" for place in ("first", "second", "third", "fourth")}
    assert answer.told == line.told  # the card won as typed: the table hears it called
    ask = {"type": "prompt", "player": line.prompt.player, "prompt": line.prompt.name}
    question = {"type": "say", "text": f"{line.prompt.player}, your word?"}
    following = {"type": "prompt", "player": "Ben", "prompt": line.prompt.name}
    which = [
        {"type": "intent", "intent": claim.move},
        {"type": "prompt", "player": "Cy", "prompt": "keep-cool/claim"},
        {"type": "say", "text": "Cy, which of your words was it?"},
    ]
    called = [{"type": "intent", "intent": line.move}, *({"type": "say", "text": told} for told in line.told)]
    host = ScriptedHost(
        tmp_path,
        [
            (line.text, [{"type": "intent", "intent": clue}, following]),
            (claim.text, which),
            (answer.text, [*called, {"type": "game_over", "scores": {}, "winners": []}]),
        ],
        opening=[ask, question],
    )
    record = _played(case, host, line)
    assert host.said == [line.text, claim.text, answer.text]
    assert record.done and record.wrong_moves == [clue] and record.undos == 0 and record.claims == 2


def test_a_claim_the_host_does_not_take_is_left_and_the_word_undone_and_said_again(tmp_path):
    """Where the host finds the claim does not match what its ears wrote, the owner does
    not say it again: the word is undone and said again, as before claims."""
    case, line, clue, (claim, _) = _word_in_play_taken_as_a_clue(tmp_path)
    ask = {"type": "prompt", "player": line.prompt.player, "prompt": line.prompt.name}
    question = {"type": "say", "text": f"{line.prompt.player}, your word?"}
    following = {"type": "prompt", "player": "Ben", "prompt": line.prompt.name}
    mismatch = [
        {"type": "rejected", "reason": "That claim does not match."},
        {"type": "say", "text": "That claim does not match."},
    ]
    undone = [{"type": "undo", "action": clue}, {"type": "intent", "intent": {"intent": "undo"}}, ask, question]
    called = [{"type": "intent", "intent": line.move}, *({"type": "say", "text": told} for told in line.told)]
    host = ScriptedHost(
        tmp_path,
        [
            (line.text, [{"type": "intent", "intent": clue}, following]),
            (claim.text, mismatch),
            ("host, undo", undone),
            (line.text, [*called, {"type": "game_over", "scores": {}, "winners": []}]),
        ],
        opening=[ask, question],
    )
    record = _played(case, host, line)
    assert host.said == [line.text, claim.text, "host, undo", line.text]
    assert record.done and record.wrong_moves == [clue] and record.undos == 1


def test_only_a_word_in_play_taken_as_a_clue_is_claimed(tmp_path):
    """A clue heard as another clue, a word in play taken as such, and a table deal's
    word (the host knows no cards) are never claimed."""
    from partyhost_lab.table_player import claim_lines
    from voice.understanding.matcher import Matcher

    _, line, clue, _ = _word_in_play_taken_as_a_clue(tmp_path)
    assert claim_lines(line, line.move, Matcher()) is None
    case = next(c for c in load_cases() if c.script == "keep-cool-basic-host.txt")
    toast = next(each for each in typed_lines(case, tmp_path / "t2", speaker_for(case))[0] if each.text == "toast")
    assert claim_lines(toast, {**toast.move, "text": "taste"}, Matcher()) is None
    table = next(c for c in load_cases() if c.script == "keep-cool-basic-table.txt")
    for each in typed_lines(table, tmp_path / "t3", speaker_for(table))[0]:
        assert claim_lines(each, clue, Matcher()) is None, each.text


def test_a_game_paused_on_a_misreading_is_resumed_as_the_host_asks(tmp_path):
    """1%, quiet room: "false" read "pause" paused the game, and a player who never
    says "resume" ends it there; a table says it, then the line again."""
    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][0]
    ask = {"type": "prompt", "player": line.prompt.player, "prompt": line.prompt.name}
    question = {"type": "say", "text": "Your pick?"}
    paused = [
        {"type": "intent", "intent": {"intent": "pause"}},
        {"type": "say", "text": "Paused. Say resume when you are ready."},
        {"type": "prompt", "player": None, "prompt": "common/paused"},
    ]
    still = [{"type": "say", "text": "We're paused. Say resume to continue."}]
    gone_on = [{"type": "say", "text": "Let's go on."}, ask, question]
    done = [{"type": "intent", "intent": line.move}, *({"type": "say", "text": told} for told in line.told)]
    done.append({"type": "game_over", "scores": {}, "winners": []})
    host = ScriptedHost(
        tmp_path,
        [(line.text, paused), ("resume", still), ("resume", gone_on), (line.text, done)],
        opening=[ask, question],
    )
    record = _played(case, host, line)
    assert host.said == [line.text, "resume", "resume", line.text]
    assert record.done and record.errors == ["took pause (not a move)"]


def test_a_command_taken_instead_and_a_refusal_for_another_reason_are_errors(tmp_path):
    from partyhost_lab.table import CaseResult, figures

    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    assert line.text == "card two with plus twenty" and line.move and line.goal == "move"
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            (
                line.text,
                [{"type": "intent", "intent": {"intent": "score"}}, {"type": "say", "text": "Nobody has points."}],
            ),
            (line.text, [{"type": "rejected", "reason": "not understood"}, {"type": "say", "text": "Sorry?"}]),
            (
                line.text,
                [{"type": "rejected", "reason": "Plus 20 is played."}, {"type": "say", "text": "Plus 20 is played."}],
            ),
            (
                line.text,
                [
                    {"type": "intent", "intent": line.move},
                    *({"type": "say", "text": told} for told in line.told),
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, {"type": "say", "text": "Team Ana, your pick?"}],
    )
    table = Table(case.game, host, host.log, host, speech, tries=4, quiet_s=0.2, patience_s=0.5)
    game = table.play([line])
    host.thread.join(5)
    [record] = game.lines
    assert record.done and record.tries == 4 and not record.wrong_moves  # "not understood" is a miss
    assert record.errors == ["took score (not a move)", "refused: Plus 20 is played."]
    result = CaseResult("x.txt", case.game, "basic", "clean", {}, True, game, 1, 1.0)
    assert figures([result]).wrong_per_100 == 200.0 and figures([result]).right_first == 0


def test_silences_and_lines_not_understood_are_left_out_of_right_first_time():
    from partyhost_lab.table import CaseResult, figures
    from partyhost_lab.table_player import NOT_UNDERSTOOD, GameRecord, LineRecord

    lines = [
        LineRecord(0, "card two", "Ana", tries=1, done=True),
        LineRecord(1, "...", "Ben", tries=1, done=True, goal="silence"),
        LineRecord(2, "banana bread", "Cy", tries=1, done=True, goal=NOT_UNDERSTOOD),
        LineRecord(3, "the fifty card", "Ana", tries=1, done=True, goal="refusal"),
    ]
    result = CaseResult("x.txt", "zero-to-100", "basic", "clean", {}, True, GameRecord(lines), 4, 1.0)
    assert figures([result]).right_first == 2 and figures([result]).moves == 4


# ---------------------------------------------------------------- the host heard at the microphone


def test_the_microphone_hears_what_the_speaker_plays_from_then_on_scaled_and_at_16_khz(tmp_path):
    from array import array

    from partyhost_lab.satellite_mic import Echo

    played = tmp_path / "played.raw"
    played.write_bytes(array("h", [9000] * 100).tobytes())  # played before: not heard again
    echo = Echo(played, 0.5)
    assert list(array("h", echo.next(4))) == [0, 0, 0, 0]
    with open(played, "ab") as speaker:
        speaker.write(array("h", range(0, 22050, 10)).tobytes())  # 0.1 s at 22050 Hz, a ramp
    heard = array("h", echo.next(1600))  # 0.1 s at 16 kHz
    assert heard[:3] == array("h", [0, 5, 10])  # samples 0, 1.38, 2.76, halved
    assert all(b - a in (5, 10) for a, b in zip(heard, heard[1:]))  # the whole ramp, resampled
    assert 11000 <= max(heard) <= 11020 and list(array("h", echo.next(3)))[1:] == [0, 0]  # then silence


def test_the_satellites_microphone_mixes_the_speaker_in_when_asked(tmp_path):
    import subprocess
    import sys
    from array import array

    from partyhost_lab.live_satellite import MIC

    played, mailbox = tmp_path / "played.raw", tmp_path / "mic"
    mailbox.mkdir()
    mic = subprocess.Popen(
        [sys.executable, str(MIC), str(mailbox), "160", "-", str(played), "0.5"], stdout=subprocess.PIPE
    )
    try:
        mic.stdout.read(320)  # it is running: what the speaker plays from now on is heard
        played.write_bytes(array("h", [8000] * 2205).tobytes())
        chunks = [array("h", mic.stdout.read(320)) for _ in range(200)]
    finally:
        mic.kill()
        mic.wait()
    assert any(4000 - 30 <= min(c) and max(c) <= 4000 + 30 for c in chunks)  # the floor and half the speaker


# ---------------------------------------------------------------- barging in


def test_some_lines_are_begun_while_the_host_is_finishing(tmp_path):
    from partyhost_lab.table_player import barges_in

    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    lines = typed_lines(case, tmp_path / "typed", speaker_for(case))[0]
    spoken = [line for line in lines if not line.silent]
    chosen = [barges_in(line, 0.2) for line in spoken]
    assert 0 < sum(chosen) < len(spoken) and chosen == [barges_in(line, 0.2) for line in spoken]
    assert not any(barges_in(line, 0.0) for line in lines)

    line = lines[2]
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    for barge_in, soonest, latest in ((1.0, 0.0, 1.0), (0.0, 1.5, 5.0)):  # begun as it finishes, or after 1.5 s
        folder = tmp_path / f"barge-in-{barge_in}"
        folder.mkdir()
        host = ScriptedHost(
            folder,
            [
                (
                    line.text,
                    [
                        {"type": "intent", "intent": line.move},
                        *({"type": "say", "text": told} for told in line.told),
                        {"type": "game_over", "scores": {}, "winners": []},
                    ],
                ),
            ],
            opening=[ask, {"type": "say", "text": "Team Ana, your pick?"}],
        )
        table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=1.5, patience_s=0.5, barge_in=barge_in)
        [record] = table.play([line]).lines
        host.thread.join(5)
        assert record.done and record.barged_in == (barge_in == 1.0)
        assert soonest <= host.said_at[0] - host.opened_at <= latest


def test_a_move_is_done_when_the_host_tells_it_in_the_typed_hosts_words(tmp_path):
    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    assert line.told[0] == "Team Ana has chosen."  # what the typed host said of it (the pick: privately)
    assert told_as_typed(["Did you mean: card two?", "team ana has CHOSEN", *line.told[1:]], line.told)
    assert not told_as_typed(["Team Ana.", *line.told[1:]], line.told)
    assert told_as_typed(["anything"], ())  # nothing to listen for
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            (  # the right move, told in other words than the typed host's
                line.text,
                [
                    {"type": "intent", "intent": line.move},
                    {"type": "say", "text": "Okay."},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            )
        ],
        opening=[ask, {"type": "say", "text": "Team Ana, your pick?"}],
    )
    table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=0.2, patience_s=0.5)
    [record] = table.play([line]).lines
    host.thread.join(5)
    assert record.done and record.tries == 1  # the move stands: the player does not say it again
    assert record.reactions == [UNTOLD] and record.errors == [UNTOLD]


def test_a_reading_worded_otherwise_is_yes_when_the_typed_game_does_the_same_with_it(tmp_path):
    """ "Did you mean: between 35 and 95?" to "between 35 and 95 on line two", where only
    line two has that gap: a person says yes. Another gap, or a clue in other words, is no."""
    from partyhost_lab.table_player import same_effect

    (case,) = [c for c in load_cases() if c.script == "keep-it-100-basic.txt"]
    lines, _ = typed_lines(case, tmp_path, speaker_for(case))
    (line,) = [line for line in lines if line.text == "between 35 and 95 on line two"]
    assert same_effect(line, {"intent": "place", "after": 35, "before": 95})
    assert not same_effect(line, {"intent": "place", "after": 20, "before": 21})
    assert not same_effect(replace(line, state=None), {"intent": "place", "after": 35, "before": 95})
    clue = replace(line, meaning={**line.meaning, "text": "kettle"})
    assert not same_effect(clue, {"intent": "place", "after": 35, "before": 95})


def test_after_a_spoken_sorry_the_next_line_is_said_to_the_same_open_question(tmp_path):
    """ "banana bread" refused as not understood: spoken, the host says "Sorry?" and listens
    on, asking nothing anew. The next line is said then, not after a question that never
    comes (Centurion pvp stalled so, clean, at line 15)."""
    from partyhost_lab.table_player import NOT_UNDERSTOOD

    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    banana = replace(line, text="banana bread", move=None, refusal=NOT_UNDERSTOOD, told=())
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            (banana.text, [{"type": "rejected", "reason": NOT_UNDERSTOOD}, {"type": "say", "text": "Sorry?"}]),
            (
                line.text,
                [
                    {"type": "intent", "intent": line.move},
                    *({"type": "say", "text": told} for told in line.told),
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            ),
        ],
        opening=[ask, {"type": "say", "text": "Team Ana, your pick?"}],
    )
    table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=0.2, patience_s=0.5)
    first, second = table.play([banana, line]).lines
    host.thread.join(5)
    assert first.done and second.done and host.said == [banana.text, line.text]


def test_a_line_not_understood_is_done_by_a_spoken_sorry_though_typed_play_words_it_otherwise(tmp_path):
    from partyhost_lab.table_player import NOT_UNDERSTOOD

    case = next(c for c in load_cases() if c.script == "zero-to-100-basic.txt")
    line = typed_lines(case, tmp_path / "typed", speaker_for(case))[0][2]
    typed_sorry = ("Sorry, I didn't catch that. You can say, for example: card 2.",)
    line = replace(line, text="banana bread", move=None, refusal=NOT_UNDERSTOOD, told=typed_sorry)
    ask = {"type": "prompt", "player": "Team Ana", "prompt": line.prompt.name}
    host = ScriptedHost(
        tmp_path,
        [
            (
                line.text,
                [
                    {"type": "rejected", "reason": NOT_UNDERSTOOD},
                    {"type": "say", "text": "Sorry?"},
                    {"type": "game_over", "scores": {}, "winners": []},
                ],
            )
        ],
        opening=[ask, {"type": "say", "text": "Team Ana, your pick?"}],
    )
    table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=0.2, patience_s=0.5)
    [record] = table.play([line]).lines
    host.thread.join(5)
    assert record.done and record.tries == 1 and record.errors == []


def test_a_games_record_keeps_what_stands_after_an_undo_and_a_correction():
    """The reveal and scores of a misheard move are not the game's once corrected or undone:
    the corrected move's record stands in its place (what the journal keeps)."""
    right, lower = {"intent": "predict", "guess": "correct"}, {"intent": "predict", "guess": "lower"}
    events = [
        {"type": "reveal", "value": 40},  # the deal's
        {"type": "intent", "intent": {"intent": "place", "line": 1}},
        {"type": "intent", "intent": right},
        {"type": "reveal", "value": 78},
        {"type": "score", "player": "Ben", "delta": 10, "total": 10, "reason": "right"},
        {"type": "intent", "intent": {"intent": "score"}},  # a command: no move
        {"type": "correction", "action": {**lower, "player": "Ben"}, "was": {**right, "player": "Ben"}},
        {"type": "reveal", "value": 78},
        {"type": "intent", "intent": {"intent": "correct"}},
        {"type": "intent", "intent": {"intent": "place", "line": 2}},
        {"type": "score", "player": "Ana", "delta": 5, "total": 5, "reason": "x"},
        {"type": "undo", "action": {"intent": "place", "line": 2, "player": "Ana"}},
    ]
    assert outcomes(events) == [{"type": "reveal", "value": 40}, {"type": "reveal", "value": 78}]


def _stopped(tmp_path, wrong: bool, refused_undo: bool):
    line = LineRecord(4, "lower", "Ben", tries=6, heard=["you're right", "right"])
    if wrong:
        line.wrong_moves.append({"intent": "predict", "guess": "correct"})
    events = [{"type": "rejected", "reason": "undo after a reveal"}] if refused_undo else []
    events.append({"type": "say", "text": "Ben says right: is that your answer?"})
    record = GameRecord(lines=[line], events=events, stalled_at=4)
    return CaseResult("s.txt", "keep-it-100", "basic", "clean", {}, False, record, 26, 1.0)


def test_a_stopped_game_says_at_which_line_why_and_what_could_have_saved_it(tmp_path):
    irreversible = stop_of(_stopped(tmp_path, wrong=True, refused_undo=True))
    assert irreversible is not None and irreversible.line == 5 and irreversible.heard == ("you're right", "right")
    assert (irreversible.cause, irreversible.saved_by) == (IRREVERSIBLE, "a correction")
    undoable = stop_of(_stopped(tmp_path, wrong=True, refused_undo=False))
    assert undoable is not None and undoable.saved_by == "an undo"
    unheard = stop_of(_stopped(tmp_path, wrong=False, refused_undo=False))
    assert unheard is not None and unheard.saved_by == "nothing"
    rows = stop_rows([_stopped(tmp_path, True, True), _stopped(tmp_path, False, False)])
    before = "asked before a move that cannot be taken back: 2 in 2 games"
    assert rows[-2:] == [f"\n{IRREVERSIBLE}: 1 of 2 games", before]


@pytest.mark.parametrize("second_miss", [False, True], ids=["sorry", "narrowing"])
def test_a_refusal_that_would_tell_a_hand_is_done_when_its_reason_reaches_the_players_page(tmp_path, second_miss):
    """Centurion between two people by voice: a card not held gets "Sorry?" (or, as a second
    miss, the narrowed questions) aloud, and the typed game's reason on the player's page."""
    case = next(c for c in load_cases() if c.script == "centurion-pvp-host.txt")
    lines, _ = typed_lines(case, tmp_path / "typed", speaker_for(case))
    line = next(line for line in lines if line.goal == "refusal" and line.refusal.startswith("You don't hold"))
    player = line.prompt.player
    paged = {"type": "private", "player": player, "text": line.refusal}
    aloud = (
        [{"type": "narrowing", "player": player}, {"type": "say", "text": f"{player}, which card, by its place?"}]
        if second_miss
        else [{"type": "rejected", "player": player, "reason": line.refusal}, {"type": "say", "text": "Sorry?"}]
    )
    ask = {"type": "prompt", "player": player, "prompt": line.prompt.name}
    over = {"type": "game_over", "scores": {}, "winners": []}  # so the stand-in host may end
    host = ScriptedHost(tmp_path, [(line.text, [paged, *aloud, over])], opening=[ask, {"type": "say", "text": "Card?"}])
    table = Table(case.game, host, host.log, host, speech, tries=2, quiet_s=0.2, patience_s=0.5)
    game = table.play([line])
    [record] = game.lines
    host.thread.join(5)
    assert record.done and record.tries == 1 and record.errors == [] and record.reactions == ["done"], game.error
