"""Corrections: "no, I said lower" puts right the host's reading of the last move, even
after the reveal it triggered, without letting anyone choose again after seeing it;
and before a move that cannot be taken back, a reading only fairly sure is asked about."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from fakes import RecordingMouth
from understood import Say, Understands

from host.contract import Ending, Likeness, Prompt, Understood
from host.decks import Decks, load_decks
from host.engine import GameOptions, cannot_take_back, crosses_reveal, ends_game
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.play import SessionInfo
from host.session import Session
from voice.understanding.corrections import read_correction
from voice.understanding.matcher import Matcher
from voice.understanding.normalize import normalize

REPO = Path(__file__).resolve().parents[1]
STARTER = REPO / "lab" / "scripted_games" / "decks" / "questions-starter.csv"
KEEP_IT = ["--seed", "7", "--mode", "basic", "--rules", "hand_size=2", "--deck", str(STARTER)]
TO_REVEAL = ["read my cards", "the nitrogen one", "above 50 on line one"]
"""Keep It 100, Ana and Ben, seed 7: Ana's card and its place; Ben's guess then reveals 78."""


@pytest.mark.parametrize(
    "said, correction",
    [
        ("No, I said lower.", ("lower", "")),
        ("I said the bowling one", ("the bowling one", "")),
        ("host, Cy said lower", ("lower", "cy")),
        ("Team Ben said card two", ("card two", "team ben")),
        ("um no I meant 42", ("forty two", "")),
        ("no, it was lower", ("lower", "")),
        ("I said lower, not right", ("lower", "")),
        ("lower", None),
        ("that's not what I said", None),
        ("the one my aunt said is good", None),
        ("I said", None),
    ],
)
def test_a_correction_is_read_from_its_lead_words(said, correction):
    found = read_correction(normalize(said).split())
    assert (found and (found.said, found.by)) == correction


def test_corrections_are_heard_with_the_commands_but_never_where_any_word_is_a_clue():
    matcher = Matcher()
    predict = matcher.match("keep-it-100/predict", "no, I said lower")
    assert predict.intent == {"intent": "correct", "said": "lower", "by": ""}
    assert matcher.match("keep-it-100/predict", "that's not what I said").intent == {"intent": "correct"}
    clue = matcher.match("keep-cool/word", "no I said kettle", {"word": [("kettle", "kettle")]})
    assert clue.intent is None or clue.intent["intent"] != "correct"


def _play(tmp_path: Path, lines: list[str], *extra: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "partyhost", "--data-dir", str(tmp_path), "play", "keep-it-100"]
        + ["--players", "Ana,Ben", *KEEP_IT, *extra, "--input", "text", "--output", "text"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_a_typed_correction_after_a_reveal_is_asked_of_the_table_then_made(tmp_path):
    out = _play(tmp_path, [*TO_REVEAL, "right", "no, I said lower", "yes", "score"])
    assert "78!" in out and "Ana gets 20. Ben gets 10." in out  # the reveal happened
    assert "Ben said lower, not right? Does everyone agree? Yes or no?" in out
    assert "Ben said lower: Ben gets 0, not 10." in out
    assert "HOST: Ana 20 and Ben 0." in out
    resumed = subprocess.run(
        [sys.executable, "-m", "partyhost", "--data-dir", str(tmp_path), "resume", "--input", "text"],
        input="score\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert "HOST: Ana 20 and Ben 0." in resumed.stdout  # the journal keeps the correction


def test_a_correction_the_table_refuses_changes_nothing(tmp_path):
    out = _play(tmp_path, [*TO_REVEAL, "right", "no, I said lower", "no", "score"])
    assert "Okay, it stands as I heard it." in out and "HOST: Ana 20 and Ben 10." in out


def test_a_correction_with_nothing_to_correct_gets_the_reason_and_changes_nothing(tmp_path):
    out = _play(tmp_path, ["no, I said lower", "score"])
    assert "There is no move to correct yet." in out
    assert "HOST: Ana 0 and Ben 0." in out
    assert out.count("Ana, pick a card") == 3  # asked again after each


def test_a_correction_the_rules_refuse_is_refused_with_their_reason(tmp_path):
    out = _play(tmp_path, [*TO_REVEAL, "right", "no, I said higher", "score"])
    assert "it can't be higher" in out  # the card went at the line's end
    assert "HOST: Ana 20 and Ben 10." in out


# ---- spoken, through a session with scripted ears -----------------------------------


class SpokenEars(Understands):
    """Replies said aloud (they have a time), and the likeness the ears would measure."""

    def __init__(self, lines, likeness: Likeness | None = None):
        self.lines, self.measured = list(lines), likeness
        self.asked: list[tuple[str, str]] = []

    def hear(self, prompt: Prompt) -> Understood | None:
        if not self.lines:
            return None
        line = self.lines.pop(0)
        if isinstance(line, Say):  # read as its rival allows
            return self.understood(prompt, line)
        heard = self.understood(prompt, Say(line, start=float(len(self.lines)), end=float(len(self.lines)) + 0.5))
        if line.startswith("~"):  # read only fairly surely by the ears
            heard = self.understood(prompt, Say(line[1:], start=1.0, end=1.5))
            heard = replace(heard, evidence=replace(heard.evidence, confidence=0.8))
        return heard

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        self.asked.append((heard.phrase, corrected))
        return self.measured


def _session(
    tmp_path: Path, ears, game_id: str = "keep-it-100", players=("Ana", "Ben"), rules=None, mode="basic", deal="host"
):
    journal = Journal(tmp_path / "db.sqlite3")
    sid = journal.create(game_id, {"options": {}})
    mouth = RecordingMouth()
    log = EventLog(tmp_path / "events.jsonl", clock=lambda: 1.5)
    game_options = GameOptions(players=players, seed=7, mode=mode, deal=deal, rules=rules or {"hand_size": 2})
    deck = STARTER if game_id == "keep-it-100" else STARTER.parent / "zero-to-100-test.csv"
    decks = load_decks([deck], [], question_games=dealing("questions"))
    session = Session(
        get_game(game_id), game_options, decks, journal, SessionInfo(sid, "g"), log, ears, mouth, clock=lambda: 1.5
    )
    session.start()
    return session, mouth, journal, sid


def _logged(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]


def test_a_spoken_correction_the_speech_fits_is_made_at_once_after_a_reveal(tmp_path):
    ears = SpokenEars([*TO_REVEAL, "right", "no, I said lower", "score"], Likeness(in_readings=True, nats=4.0))
    session, mouth, journal, sid = _session(tmp_path, ears)
    session.run()
    assert ears.asked == [("right", "lower")]
    assert not any("Does everyone agree" in line for line in mouth.said)
    assert "Ben said lower: Ben gets 0, not 10." in mouth.said and "Ana 20 and Ben 0." in mouth.said
    corrections = [e for e in _logged(tmp_path) if e["type"] == "correction"]
    assert [(c["was"]["guess"], c["action"]["guess"]) for c in corrections] == [("correct", "lower")]
    assert journal.accepted_actions(sid)[-1]["guess"] == "lower"


def test_a_spoken_correction_the_speech_does_not_fit_is_asked_of_the_table(tmp_path):
    """Ben said "right", saw the card, and would have said lower: the speech fits "lower"
    no better than the words taken, so the table decides, and here it says no."""
    ears = SpokenEars([*TO_REVEAL, "right", "no, I said lower", "no", "score"], Likeness(True, 1.0))
    session, mouth, _, _ = _session(tmp_path, ears)
    session.run()
    assert "Ben said lower, not right? Does everyone agree? Yes or no?" in mouth.said
    assert "Ana 20 and Ben 10." in mouth.said


def test_a_correction_of_a_move_two_moves_back_is_refused_with_the_reason(tmp_path):
    """Ana places the card and Ben guesses: at Cy's turn Ben's guess is the last move."""
    ears = SpokenEars([*TO_REVEAL, "lower", "host, Ana said below 20 on line one", "score"])
    session, mouth, journal, sid = _session(tmp_path, ears, players=("Ana", "Ben", "Cy"))
    session.run()
    assert any("Only the last move can be corrected, and Ben has moved since Ana." in line for line in mouth.said)
    assert [a.get("guess") for a in journal.accepted_actions(sid)][-1] == "lower"


def test_said_again_after_sorry_i_said_x_is_the_reply_to_the_question_asked_now(tmp_path):
    ears = SpokenEars([*TO_REVEAL[:2], "blah blah blah", "I said above 50 on line one", "score"])
    session, mouth, journal, sid = _session(tmp_path, ears)
    session.run()
    assert "Ana slides it above 50 on line one." in mouth.said
    assert not any("move to correct" in line or "moved since" in line for line in mouth.said)


def test_a_move_that_reveals_read_only_fairly_surely_is_asked_about_first(tmp_path):
    ears = SpokenEars([*TO_REVEAL, "~right", "no", "lower", "score"])
    session, mouth, _, _ = _session(tmp_path, ears)
    session.run()
    assert "Ben says right: is that your answer?" in mouth.said
    assert "Ana 20 and Ben 0." in mouth.said  # "no", then "lower" taken


def test_a_move_that_can_be_taken_back_is_not_asked_about_when_fairly_sure(tmp_path):
    ears = SpokenEars([TO_REVEAL[0], "~the nitrogen one", "score"])
    session, mouth, _, _ = _session(tmp_path, ears)
    session.run()
    assert not any("is that your answer" in line for line in mouth.said)
    assert "What percent of Earth's atmosphere is nitrogen?" in mouth.said


def test_a_did_you_mean_answered_with_no_i_said_takes_the_corrected_answer(tmp_path):
    ears = SpokenEars([*TO_REVEAL, "~right", "no, I said lower", "score"])
    session, mouth, _, _ = _session(tmp_path, ears)
    session.run()
    assert "Ana 20 and Ben 0." in mouth.said


def test_a_correction_that_would_show_another_card_is_asked_of_the_table_however_sure(tmp_path):
    """Zero to 100: Team Ben's pick was the last, so it turned both teams' cards. Said
    "card one", taken as card two: the speech fits (the ears found card one among their
    readings), but card one's question was never shown, so the table is asked."""
    ears = SpokenEars(["card one", "card two", "no, I said card one", "yes", "score"], Likeness(True))
    session, mouth, journal, sid = _session(tmp_path, ears, game_id="zero-to-100", rules={"hand_size": 3})
    session.run()
    assert "Team Ben said card one, not card two? Does everyone agree? Yes or no?" in mouth.said
    assert "Team Ben said card one." in mouth.said  # then the reveal again, as corrected
    assert journal.accepted_actions(sid)[1]["card"] == 1


def test_what_can_i_say_tells_of_corrections_once_there_is_a_move(tmp_path):
    out = _play(tmp_path, ["what can I say", "read my cards", "the nitrogen one", "what can I say"])
    assert out.count('If I took a move wrong, say what was said: "no, I said lower"; if I keep mishearing') == 1


# ---- a move that ends the game -------------------------------------------------------

LAST_CARD = ["king of spades", "queen of spades"]
"""Centurion between two people, a table deal, first to 2 points: Ana's king makes 52,
Ben's queen of spades makes 100 and wins the deal, 2 points, and with them the game. No
card is hidden (each is laid face up by its player), so only the game's end is final."""


def _cards(actions: list[dict]) -> list[tuple[int, str]]:
    return [(a["rank"], a["suit"]) for a in actions if a["intent"] == "play_card"]


def _last_card(tmp_path: Path, ears):
    return _session(tmp_path, ears, game_id="centurion", rules={"target": 2}, mode="pvp", deal="table")


def test_a_move_that_ends_the_game_read_only_fairly_surely_is_asked_about_first(tmp_path):
    """Nothing can be corrected or undone once the game is over, so the move that ends it
    is held to the line of a move that shows something hidden."""
    ears = SpokenEars([LAST_CARD[0], "~" + LAST_CARD[1], "no", "two of clubs", "score"])
    session, mouth, journal, sid = _last_card(tmp_path, ears)
    session.run()
    assert "Ben says queen of spades: is that your answer?" in mouth.said
    assert not any("wins the game" in line for line in mouth.said)
    assert _cards(journal.accepted_actions(sid)) == [(13, "spades"), (2, "clubs")]


def test_a_move_that_ends_the_game_is_taken_once_its_player_says_yes(tmp_path):
    ears = SpokenEars([LAST_CARD[0], "~" + LAST_CARD[1], "yes"])
    session, mouth, _, _ = _last_card(tmp_path, ears)
    assert session.run() is Ending.OVER
    assert "Ben says queen of spades: is that your answer?" in mouth.said
    assert "Ben wins the game, 2 to 0!" in mouth.said


def test_a_move_that_ends_the_game_read_surely_is_taken_unasked(tmp_path):
    ears = SpokenEars(LAST_CARD)
    session, mouth, _, _ = _last_card(tmp_path, ears)
    assert session.run() is Ending.OVER
    assert not any("is that your answer" in line for line in mouth.said)


def test_a_move_that_cannot_be_taken_back_is_asked_about_after_a_no_however_surely_read(tmp_path):
    """The 1% table deal of 2026-12-07, as Centurion's last card: "Did you mean: queen of
    spades?" No. A card the rules refuse ("played already") forgets that no, so the
    player may now mean it; read surely, it is still asked about before it ends the game."""
    unsure = Say(LAST_CARD[1], rival="queen of hearts", start=1.0, end=2.0)
    ears = SpokenEars([LAST_CARD[0], unsure, "no", LAST_CARD[0], LAST_CARD[1], "no", "two of clubs", "score"])
    session, mouth, journal, sid = _last_card(tmp_path, ears)
    session.run()
    assert "The king of spades has been played already. Which card is it?" in mouth.said
    assert "Ben says queen of spades: is that your answer?" in mouth.said
    assert _cards(journal.accepted_actions(sid)) == [(13, "spades"), (2, "clubs")]


def test_a_card_laid_face_up_that_does_not_end_the_game_is_not_asked_about(tmp_path):
    """The king makes 52: no reveal, no end, so undo can take it back and a fair reading is acted on."""
    ears = SpokenEars(["~" + LAST_CARD[0], "score"])
    session, mouth, journal, sid = _last_card(tmp_path, ears)
    session.run()
    assert not any("is that your answer" in line for line in mouth.said)
    assert _cards(journal.accepted_actions(sid)) == [(13, "spades")]


def test_the_end_of_a_game_is_final_but_no_reveal_for_undo():
    """cannot_take_back counts the end; crosses_reveal, which undo asks, keeps its meaning."""
    game = get_game("centurion")
    state, _ = game.setup(GameOptions(("Ana", "Ben"), mode="pvp", deal="table", seed=7, rules={"target": 2}), Decks())
    state, king = game.apply(state, {"intent": "play_card", "rank": 13, "suit": "spades", "player": "Ana"})
    _, queen = game.apply(state, {"intent": "play_card", "rank": 12, "suit": "spades", "player": "Ben"})
    assert not cannot_take_back(king)
    assert ends_game(queen) and cannot_take_back(queen) and not crosses_reveal(queen)


# ---- a disputed reading ---------------------------------------------------------------

EIGHT_READ_ACE = "ace of spades"
"""Ana's "the 8 of spades" as the ears read it, in every saying (Centurion between two
people, a table deal: a card laid face up by its player shows nothing hidden)."""


def _between_two(tmp_path: Path, ears):
    return _session(tmp_path, ears, game_id="centurion", rules={"target": 50}, mode="pvp", deal="table")


@pytest.mark.parametrize("dispute", ["no, I said I play the ace of spades", "that's not what I said"])
def test_a_move_said_to_be_misheard_is_taken_back_and_asked_one_part_at_a_time(tmp_path, dispute):
    """The correction reads as the move taken, or names none: the player says the host
    misheard. Ana's card showed nothing hidden, so it is taken back (with Ana's yes: Ben's
    turn had come) and asked by rank, then suit, where "8" is no longer heard as "ace"."""
    ears = SpokenEars([EIGHT_READ_ACE, dispute, "yes", "8", "spades", "score"])
    session, mouth, journal, sid = _between_two(tmp_path, ears)
    session.run()
    assert "That takes back Ana's last move. Ana, do you agree? Yes or no?" in mouth.said
    assert "Undone. Back to before Ana's last move." in mouth.said
    assert any(line.startswith("Ana, which card:") for line in mouth.said)
    assert not any(line.startswith(("That is what I took", "What did")) for line in mouth.said)
    assert _cards(journal.accepted_actions(sid)) == [(8, "spades")]
    assert "Ana 0, Ben 0; first to 50. Count 32." in mouth.said


def test_a_move_said_to_be_misheard_stands_when_its_player_does_not_agree(tmp_path):
    ears = SpokenEars([EIGHT_READ_ACE, "that's not what I said", "no", "score"])
    session, mouth, journal, sid = _between_two(tmp_path, ears)
    session.run()
    assert "Okay, it stands." in mouth.said and not any("which card" in line for line in mouth.said)
    assert _cards(journal.accepted_actions(sid)) == [(1, "spades")]


def test_the_narrowed_questions_never_offer_the_misheard_move(tmp_path):
    """Asked for the suit after the rank "ace", spades (the ace of spades, misheard) is not offered."""
    ears = SpokenEars([EIGHT_READ_ACE, "that's not what I said", "yes", "ace", "score"])
    session, mouth, _, _ = _between_two(tmp_path, ears)
    session.run()
    assert "Ana, which suit: clubs, diamonds or hearts?" in mouth.said


def test_after_a_reveal_a_correction_that_reads_as_the_move_taken_changes_nothing(tmp_path):
    """Ben's guess turned the card: taking it back would let him guess again knowing it."""
    ears = SpokenEars([*TO_REVEAL, "right", "no, I said right", "that's not what I said", "right", "score"])
    session, mouth, _, _ = _session(tmp_path, ears)
    session.run()
    assert "That is what I took: right." in mouth.said
    assert "What did Ben say?" in mouth.said
    assert not any(line.startswith(("Undone", "Then I misheard")) for line in mouth.said)
    assert "Ana 20 and Ben 10." in mouth.said


def test_a_typed_correction_that_reads_as_the_move_taken_is_told_so(tmp_path):
    """Typing is not misheard: the move stands, said back."""
    out = _play(tmp_path, ["read my cards", "the nitrogen one", "no, I said the nitrogen one", "score"])
    assert "That is what I took: the nitrogen one." in out
    assert "Undone" not in out
