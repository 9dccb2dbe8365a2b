"""The Keep Cool benchmark's word sets and arithmetic (lab/partyhost_lab/keep_cool.py).

The audio run itself is a benchmark, not a test (minutes of recognition); what is
checked here is that it measures what it says: clue words are never words in play
(nor their plurals), each hard negative sits at the table of the word it sounds
like, and the figures count what they claim to count.
"""

from __future__ import annotations

import json

import pytest

from host.games.keep_cool import plurals
from partyhost_lab.keep_cool import (
    REAL_TUNE_SPEAKERS,
    REPORT_VOICES,
    REPORTED_PAIRS,
    RESCUE_FLOOR,
    RESCUE_LINE,
    SOUND_PAIRS,
    TABLE_SIZE,
    TUNING_PAIRS,
    TUNING_VOICES,
    VETO_LINE,
    build_set,
    format_rows,
    real_set,
    summarise,
    verdict,
)
from voice.listening.second_opinion import Opinion

pytestmark = [pytest.mark.slow, pytest.mark.model, pytest.mark.audio]


def test_tables_hold_the_hard_words_and_clues_are_never_words_in_play():
    bench = build_set()
    assert len(bench.tables) == 6 and all(len(set(t)) == TABLE_SIZE for t in bench.tables)
    pair_of = dict((clue, word) for word, clue in REPORTED_PAIRS)
    for item in bench.items:
        words = bench.tables[item.table]
        if item.expect is not None:
            assert item.text == item.expect and item.text in words
            continue
        forms = set(words) | {f for w in words for f in plurals(w)}
        assert item.text not in forms
        if item.hard:
            assert pair_of[item.text] in words
    clues = [i for i in bench.items if i.expect is None]
    assert sum(i.hard for i in clues) == len(REPORTED_PAIRS) and len(clues) == 6 * 18 + len(REPORTED_PAIRS)
    said = {item.text for item in bench.items}
    assert {w for pair in SOUND_PAIRS for w in pair} <= said  # issue 56's 18 pairs, both sides
    quick = build_set(tables=2, clues_per_table=6)
    assert all(len(t) == TABLE_SIZE for t in quick.tables)


def test_the_summary_counts_true_and_false_matches_per_condition():
    def result(voice, expect, got, hard=False, condition="clean"):
        return {
            "voice": voice,
            "condition": condition,
            "expect": expect,
            "got": got,
            "hard": hard,
            "confidence": 0.9,
            "ms": 10.0,
        }

    results = [
        result("espeak-en-us", "candle", "candle"),
        result("espeak-en-us", "river", None),
        result("espeak-en-us", "river", "candle"),
        result("espeak-en-us", None, "candle", hard=True),
        result("espeak-en-us", None, None),
        result("piper-1", "candle", "candle"),
    ]
    rows = {(r["group"], r["condition"]): r for r in summarise(results)}
    held = rows[("held-apart", "clean")]
    assert held["true_matches"] == {"count": 1, "n": 3, "rate": 0.3333}
    assert held["wrong_word"]["count"] == 1
    assert held["false_matches"] == {"count": 1, "n": 2, "rate": 0.5}
    assert held["hard_false_matches"] == {"count": 1, "n": 1, "rate": 1.0}
    assert rows[("tune (piper-1)", "clean")]["true_matches"]["n"] == 1  # never mixed into results


def test_the_table_prints_each_share_from_its_counts():
    def result(expect, got):
        return {
            "voice": "piper-0.8",
            "condition": "clean",
            "expect": expect,
            "got": got,
            "hard": False,
            "confidence": 0.9,
            "ms": 10.0,
        }

    results = [result("candle", "candle")] * 97 + [result("candle", None)] * 335 + [result(None, None)]
    printed = format_rows(summarise(results))
    assert " 22.5% ( 97/432)" in printed  # 0.2245 rounded again would print 22.4 %


def test_the_word_check_line_is_applied_when_summarising():
    """One run gives every line: a word whose check ratio is below the line is a clue."""

    def result(expect, got, ratio):
        return {
            "voice": "piper-0.8",
            "condition": "clean",
            "expect": expect,
            "got": got,
            "hard": False,
            "confidence": 0.9,
            "ms": 10.0,
            "word_check": ratio,
        }

    results = [result("candle", "candle", -1.0), result(None, "candle", -5.0), result("river", "river", None)]
    strict = {(r["group"], r["condition"]): r for r in summarise(results, line=-3.0)}[("held-apart", "clean")]
    assert strict["true_matches"]["count"] == 2 and strict["false_matches"]["count"] == 0
    lax = {(r["group"], r["condition"]): r for r in summarise(results, line=-100.0)}[("held-apart", "clean")]
    assert lax["false_matches"]["count"] == 1
    none = {(r["group"], r["condition"]): r for r in summarise(results, line=0.0)}[("held-apart", "clean")]
    assert none["true_matches"]["count"] == 1  # "river" had no rival: it stands


def test_the_command_re_summarises_a_saved_run_at_another_line(tmp_path, capsys):
    from partyhost.cli import main

    saved = tmp_path / "run.json"
    word = {
        "voice": "piper-0.8",
        "condition": "clean",
        "table": 0,
        "text": "cattle",
        "expect": None,
        "hard": True,
        "got": "kettle",
        "word_check": -5.0,
        "heard": "kettle",
        "confidence": 0.9,
        "ms": 10.0,
    }
    saved.write_text(json.dumps({"items": [word]}), encoding="utf-8")
    assert main(["bench", "keep-cool", "--from-json", str(saved)]) == 0
    assert "false_matches=0.000" in capsys.readouterr().out  # vetoed at the shipped line
    assert main(["bench", "keep-cool", "--from-json", str(saved), "--word-check-line", "-100"]) == 0
    assert "false_matches=1.000" in capsys.readouterr().out


def test_the_tuning_set_shares_no_hard_pair_and_no_voice_with_the_reported_one():
    reported = {w for pair in REPORTED_PAIRS for w in pair}
    assert not reported & {w for pair in TUNING_PAIRS for w in pair}
    assert not set(TUNING_VOICES) & set(REPORT_VOICES)
    tuning = build_set(clues_per_table=6, pairs=TUNING_PAIRS)
    assert sum(i.hard for i in tuning.items) == len(TUNING_PAIRS)


def test_the_second_opinion_s_veto_and_rescue_are_applied_when_summarising():
    def result(expect, got, ratio, veto=None, rescued=None):
        return {
            "voice": "piper-0.8",
            "condition": "clean",
            "expect": expect,
            "got": got,
            "hard": False,
            "confidence": 0.9,
            "ms": 10.0,
            "word_check": ratio,
            "veto_margin": veto,
            "rescued": rescued,
        }

    results = [
        result(None, "kettle", -1.0, veto=-6.0),  # vetoed by the second opinion
        result("candle", "candle", -1.0, veto=-1.0),  # kept
        result("river", None, None, rescued="river"),  # rescued
        result(None, "river", -5.0, veto=9.0),
    ]  # "rivet": Whisper's check threw it out
    held = {(r["group"], r["condition"]): r for r in summarise(results, line=-3.0, rule="before")}
    assert held[("held-apart", "clean")]["true_matches"]["count"] == 2
    assert held[("held-apart", "clean")]["false_matches"]["count"] == 0
    lax = summarise(results, line=-100.0, veto_line=-100.0, rescue=False, rule="before")
    lax_row = {(r["group"], r["condition"]): r for r in lax}[("held-apart", "clean")]
    assert lax_row["false_matches"]["count"] == 2 and lax_row["true_matches"]["count"] == 1


def test_two_ears_are_applied_when_summarising():
    """The rule shipped since issue 56: a word in play only when both ears write it;
    where they write different words the host asks again (counted apart, no word)."""

    def result(expect, got, ratio, written, heard="", rescued=None, seconded=False, margin=None):
        return {
            "voice": "piper-0.8",
            "condition": "clean",
            "expect": expect,
            "got": got,
            "hard": expect is None,
            "confidence": 0.9,
            "ms": 10.0,
            "word_check": ratio,
            "veto_margin": margin,
            "written": written,
            "heard": heard,
            "rescued": rescued,
            "seconded": seconded,
        }

    results = [
        result("candle", "candle", -1.0, "candle"),  # both: a hit
        result("lemon", "lemon", -1.0, "", margin=5.0),  # Moonshine: far likelier than Whisper's other reading
        result(None, "dune", -1.0, "tune", heard="dune", margin=-2.0),  # "tune" said: asked again, no hit
        result("river", None, None, "river", heard="", rescued="river", seconded=True),  # Whisper unsure, both
        result("kettle", None, None, "kettle", heard="keating", rescued="kettle", seconded=True),  # both named it
        result("glove", None, None, "glove", heard="love", rescued="glove"),  # Moonshine alone: no rescue now
        result(None, None, None, "", heard="fruit"),  # a clue
        result(None, "rocket", -5.0, "pocket"),  # Whisper's check: a clue
    ]
    held = {(r["group"], r["condition"]): r for r in summarise(results, line=-3.0)}[("held-apart", "clean")]
    assert held["true_matches"]["count"] == 4 and held["false_matches"]["count"] == 0
    assert held["asked_again"]["count"] == 1  # dune / tune
    strict = {(r["group"], r["condition"]): r for r in summarise(results, line=-3.0, agree_line=6.0)}
    assert strict[("held-apart", "clean")]["true_matches"]["count"] == 3  # lemon's margin is below it


def test_people_s_recordings_are_words_in_play_or_clues_at_each_table(shared_audio):
    """--real: the Speech Commands words, some in play at each table, the rest clues;
    the speaker who tuned Whisper's line is never among them."""
    tables, items = real_set(tables=3)
    assert len(tables) == 3 and all(len(set(t)) == TABLE_SIZE for t in tables)
    assert {path.parent.name for _, path, _ in items} == {
        p.name for p in (shared_audio / "speech-commands").iterdir() if p.is_dir()
    }
    for number, path, item in items:
        assert item.table == number and item.text == path.parent.name
        assert (item.expect is not None) == (item.text in tables[number])
        assert not path.name.startswith(tuple(REAL_TUNE_SPEAKERS))
    hard = {(item.text, item.table) for _, _, item in items if item.hard}
    assert all(item.expect is None for _, _, item in items if item.hard)
    assert all("go" in tables[t] for said, t in hard if said == "no")  # "no" is hard only beside "go" ...
    assert any(said == "no" for said, _ in hard)  # ... and that happens


def test_people_are_summarised_as_a_group_of_their_own():
    results = [
        {
            "voice": "people",
            "set": "real",
            "condition": "clean",
            "expect": e,
            "got": g,
            "hard": False,
            "confidence": 0.9,
            "ms": 10.0,
        }
        for e, g in (("six", "six"), ("two", None), (None, None))
    ]
    rows = summarise(results)
    assert [(r["group"], r["true_matches"]["count"], r["false_matches"]["n"]) for r in rows] == [("people", 1, 1)]


def test_without_people_s_recordings_real_says_what_is_missing_and_runs_nothing(tmp_path, monkeypatch, capsys):
    import partyhost_lab.keep_cool as bench

    monkeypatch.setattr(bench, "REAL_WORDS", tmp_path / "speech-commands")
    monkeypatch.setattr(bench, "run_real", lambda **kwargs: pytest.fail("nothing may run"))
    assert bench.command(None, True, None, True, real=True) == 2
    assert "speech-commands is missing" in capsys.readouterr().out


# ---- the rule before two ears, which the benchmark measures beside them ------------


@pytest.mark.parametrize(
    "took, opinion, expected",
    [
        (True, Opinion(), "kept"),  # nobody to compare with
        (True, Opinion(veto_margin=VETO_LINE), "kept"),
        (True, Opinion(veto_margin=VETO_LINE - 0.1), "vetoed"),
        (False, Opinion(), None),
        (False, Opinion(rescued="kettle"), "rescued"),
        (
            False,
            Opinion(likeliest="kettle", likeliest_score=RESCUE_FLOOR, likeliest_margin=RESCUE_LINE + 0.1),
            "likeliest",
        ),
        (False, Opinion(likeliest="kettle", likeliest_score=RESCUE_FLOOR, likeliest_margin=RESCUE_LINE), None),
        (False, Opinion(likeliest="kettle", likeliest_score=RESCUE_FLOOR - 0.1, likeliest_margin=9.0), None),
        (True, Opinion(likeliest="kettle", likeliest_score=0.0, likeliest_margin=9.0), "kept"),
    ],
)
def test_verdict(took, opinion, expected):
    assert verdict(took, opinion) == expected
    if expected in ("rescued", "likeliest"):
        assert verdict(took, opinion, rescue=False) is None
