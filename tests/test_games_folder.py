"""The application layer (partyhost/games_folder.py) called directly, as the command line and `serve` call it:
a game started from a setup, resumed, listed and deleted; every journal it opens is closed again."""

from __future__ import annotations

import io
import os
import time

import pytest

from host.contract import Ending
from host.errors import PartyhostError
from host.journal import Journal
from partyhost.game_setup import GameSetup, IOChoice
from partyhost.games_folder import GamesFolder, Place, UserError
from partyhost.textio import TextEars, TextMouth
from partyhost.voiceio import GameIO


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PARTYHOST_CONFIG", os.devnull)
    notes: list[str] = []
    folder = GamesFolder(Place(tmp_path / "data"), tell=notes.append)
    folder.notes = notes  # type: ignore[attr-defined]
    return folder


@pytest.fixture
def open_journals(monkeypatch):
    """The journals opened and not closed yet."""
    opened: list[Journal] = []
    original_init, original_close = Journal.__init__, Journal.close

    def init(self, path):
        original_init(self, path)
        opened.append(self)

    def close(self):
        opened.remove(self)
        original_close(self)

    monkeypatch.setattr(Journal, "__init__", init)
    monkeypatch.setattr(Journal, "close", close)
    return opened


def typed(lines: str, out: io.StringIO) -> IOChoice:
    """Typed play whose replies are `lines`, and whose host speaks into `out`."""
    started = time.monotonic()

    def opener(settings, t0):
        return GameIO(TextEars(io.StringIO(lines), out), TextMouth(out), lambda: t0 + time.monotonic() - started)

    return IOChoice(input="text", output="text", opener=opener)


def test_a_game_is_played_resumed_listed_and_deleted(folder, open_journals):
    out = io.StringIO()
    setup = GameSetup(game="keep-it-100", players=("Ana", "Ben", "Cy"), seed=7)
    end = folder.play(setup, typed("", out))
    assert end is not None and end.outcome is Ending.EOF and not end.interrupted
    assert end.saved_line == f"HOST: The game is saved. To continue: partyhost resume {end.session_id}"
    assert "HOST: Keep It 100!" in out.getvalue()
    assert open_journals == []

    again = io.StringIO()
    assert folder.resume(None, typed("", again)).session_id == end.session_id
    assert "Welcome back" in again.getvalue()

    saved = folder.saved_games(replay=True)
    assert [(e.record.id, e.problem) for e in saved.entries] == [(end.session_id, None)]
    assert saved.damaged == 0
    assert [record.id for record in folder.delete([], prune=True)] == [end.session_id]
    assert folder.saved_games().entries == []
    assert open_journals == []
    assert (folder.place.folder / "partyhost.sqlite3").is_file()


def test_a_delete_refused_for_one_broken_log_deletes_none(folder, open_journals):
    """All or none: a saved game whose event log is a loop of links refuses the whole delete."""
    setup = GameSetup(game="keep-it-100", players=("Ana", "Ben", "Cy"), seed=7)
    ids = [folder.play(setup, typed("", io.StringIO())).session_id for _ in range(2)]
    records = {entry.record.id: entry.record for entry in folder.saved_games().entries}
    broken = folder.place.saved_log(ids[1], records[ids[1]].setup.get("events"))
    broken.unlink()
    broken.symlink_to(broken.with_name("other.jsonl"))
    broken.with_name("other.jsonl").symlink_to(broken)
    with pytest.raises(PartyhostError, match="loop"):
        list(folder.delete(ids))
    assert sorted(entry.record.id for entry in folder.saved_games().entries) == sorted(ids)
    assert open_journals == []


def test_a_refusal_names_the_flag_that_fixes_it(folder, open_journals):
    with pytest.raises(UserError, match="one player: --mode vs-host"):
        folder.play(GameSetup(game="centurion", players=("Ana",)), typed("", io.StringIO()))
    assert folder.saved_games().entries == [] and open_journals == []


def test_nothing_to_resume_is_a_user_error(folder):
    with pytest.raises(UserError, match="there is no unfinished game to resume"):
        folder.resume(None, typed("", io.StringIO()))


def test_errors_a_player_is_told_about_share_one_base():
    from host.decks import DeckError
    from host.engine import RuleError
    from host.files import FileProblem
    from host.journal import JournalUnwritable
    from host.sessionlock import LockUnavailable, SessionBusy
    from partyhost.config import ConfigError
    from partyhost.grammarcheck import GrammarProblem
    from partyhost.saved import SetupError, Unresumable
    from partyhost.voiceio import IOChoiceError
    from voice.listening.audio_in import AudioFileError
    from voice.remote.address import AddressError
    from voice.understanding.grammar import GrammarError

    told = (DeckError, RuleError, FileProblem, JournalUnwritable, LockUnavailable, SessionBusy, ConfigError)
    told += (GrammarProblem, SetupError, Unresumable, IOChoiceError, AudioFileError, AddressError, GrammarError)
    assert all(issubclass(error, PartyhostError) for error in told)
    assert issubclass(FileProblem, OSError) and issubclass(AudioFileError, ValueError)  # still caught as before


def test_keep_it_100_played_again_the_same_day_starts_with_the_last_games_lowest_scorer(folder, open_journals):
    """The rulebook: "If you play again, the player who scored the lowest in the last
    game goes first". The scripted game ends with its scores in the journal; the same
    table's next game starts with its lowest scorer, not with the first name."""
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    script = (repo / "lab" / "scripted_games" / "keep-it-100-basic.txt").read_text(encoding="utf-8")
    setup = GameSetup(
        game="keep-it-100",
        players=("Ana", "Ben", "Cy"),
        seed=7,
        rules={"hand_size": 2},
        question_decks=(repo / "lab" / "scripted_games" / "decks" / "questions-starter.csv",),
    )
    first = io.StringIO()
    assert folder.play(setup, typed(script, first)).outcome is Ending.OVER
    journal = Journal(folder.place.journal)
    scores = journal.last_scores("keep-it-100", "ana,ben,cy", 0.0)
    journal.close()
    assert scores is not None and set(scores) == {"Ana", "Ben", "Cy"}
    lowest = min(("Ana", "Ben", "Cy"), key=lambda player: scores[player])
    assert lowest != "Ana"  # else the test would prove nothing

    again = io.StringIO()
    folder.play(GameSetup(**{**setup.__dict__, "seed": 8}), typed("", again))
    assert f"HOST: {lowest}, you're the Slider" in again.getvalue()
    listed = io.StringIO()
    folder.play(
        GameSetup(**{**setup.__dict__, "seed": 8, "rules": {"hand_size": 2, "again_first": "listed"}}),
        typed("", listed),
    )
    assert "HOST: Ana, you're the Slider" in listed.getvalue()
    assert open_journals == []


def test_ctrl_c_while_the_host_deals_leaves_no_game_of_no_moves(folder, tmp_path, open_journals):
    """A Ctrl-C before the first question (the deal, the welcome) stops the start: the game,
    saved a moment before, is deleted with its event log, as nothing was played (issue 57)."""

    class Interrupting(TextMouth):
        def say(self, text: str) -> None:
            raise KeyboardInterrupt  # the welcome's first line

    def opener(settings, t0):
        return GameIO(TextEars(io.StringIO(""), io.StringIO()), Interrupting(io.StringIO()), time.monotonic)

    with pytest.raises(KeyboardInterrupt):
        folder.play(GameSetup(game="keep-it-100", players=("Ana", "Ben"), seed=7), IOChoice(opener=opener))
    assert folder.saved_games().entries == [] and open_journals == []
    assert list((tmp_path / "data" / "events").glob("*.jsonl")) == []
