"""Narrowed questions that converge and leak nothing (issues 40 and 42).

- A number is reached in at most three questions, each decoded against its own few
  choices, so the reading that kept being misheard cannot be heard again.
- "Did you mean ...?" is only ever about a move the rules allow now.
- A yes or no is never asked where a choice's own words read as yes ("right").
- No narrowed question says any player's private words or cards where others hear.
- Each narrowed question is written to the event log as a prompt of its own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fakes import RecordingMouth
from replay import load_cases, play_script
from understood import Say, Understands

from host.contract import Choice, Ending, Narrow, Prompt, prompt_parts
from host.decks import load_game_decks
from host.engine import GameOptions
from host.eventlog import EventLog
from host.games import dealing, get_game
from host.journal import Journal
from host.narrowing import CHOICE_PROMPT, SOMETHING_ELSE, YES_NO_PROMPT, Narrowing, Reply, Trouble, question_alone
from host.play import SessionInfo
from host.session import Session

REPO = Path(__file__).resolve().parents[1]


def _session(tmp_path, game, options, decks, ears, actions=()):
    journal = Journal(tmp_path / "db.sqlite3")
    session_id = journal.create(game.id, {"options": {}})
    mouth = RecordingMouth()
    session = Session(
        game,
        options,
        decks,
        journal,
        SessionInfo(session_id, "g"),
        EventLog(tmp_path / "events.jsonl", lambda: 0.0),
        ears,
        mouth,
        clock=lambda: 0.0,
    )
    if actions:
        for action in actions:
            journal.append(session_id, "action", action, 0.0)
        session.restore(list(actions))
    else:
        session.start()
    return session, mouth, journal, session_id


def _events(tmp_path):
    return [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]


# ---- a number misheard -----------------------------------------------------------


class SaysFifty(Understands):
    """A player who means 50 and answers every question as a person would, and ears that
    hear their "fifty" as "fifteen" (unsure, "fifty" close behind) wherever the question
    also takes fifteen: the confusion a recogniser makes between near words in its
    vocabulary, gone where fifteen is no answer."""

    def __init__(self, limit=12):
        self.asked: list[Prompt] = []
        self.limit = limit

    def hear(self, prompt):
        self.asked.append(prompt)
        if len(self.asked) > self.limit:
            return None
        said = self.answer(prompt)
        misread = self.understood(prompt, "fifteen").intent
        if said == "fifty" and misread and misread["intent"] not in ("yes", "no"):
            return self.understood(prompt, Say("fifteen", rival="fifty", start=1.0, end=2.0))
        return self.understood(prompt, Say(said, start=1.0, end=2.0))

    @staticmethod
    def answer(prompt):
        text = prompt.text
        if text.startswith("Did you mean"):
            return "no"
        if "digit by digit" in text:
            return "five zero"
        if prompt_parts(prompt.name)[0] == YES_NO_PROMPT:
            return "yes" if re.match(r"^(From 50 to 59|50)\?$", text) else "no"
        return "fifty"


def _at_first(case_script, prompt_name, tmp_path):
    """A scripted case's game, options, decks and the moves that lead to its first `prompt_name`."""
    case = next(c for c in load_cases() if c.script == case_script)
    assert play_script(case, tmp_path / "script").outcome is Ending.OVER
    game = get_game(case.game)
    actions = Journal(tmp_path / "script" / "db.sqlite3").accepted_actions(
        Journal(tmp_path / "script" / "db.sqlite3").sessions()[0].id
    )
    state, _ = game.setup(case.options(), case.decks())
    for index, action in enumerate(actions):
        if game.prompt(state).name == prompt_name:
            return game, case.options(), case.decks(), actions[:index]
        state, _ = game.apply(state, action)
    pytest.fail(f"{case_script} never reaches {prompt_name}")


def test_a_number_misheard_three_times_is_reached_in_at_most_three_questions(tmp_path):
    game, options, decks, before = _at_first("zero-to-100-basic.txt", "zero-to-100/tiebreak", tmp_path)
    ears = SaysFifty()
    session, mouth, journal, sid = _session(tmp_path, game, options, decks, ears, before)
    session.run()
    taken = journal.accepted_actions(sid)[len(before) :]
    assert taken and taken[0]["value"] == 50, mouth.said
    narrowed = [p for p in ears.asked if CHOICE_PROMPT in prompt_parts(p.name)]
    asked_before = ears.asked[: ears.asked.index(narrowed[0])]
    assert sum(p.name == "zero-to-100/tiebreak" for p in asked_before) >= 2  # misread, then narrowed
    team = narrowed[0].player
    first_move = next(i for i, p in enumerate(narrowed) if p.text == f"{team}, your answer: 50 to 59?")
    assert first_move + 1 <= 3
    assert [p.text for p in narrowed][:2] == [
        f"{team}, your answer, in tens first: 0, 10, 20 and so on up to 100?",
        f"{team}, your answer: 50 to 59?",
    ]


def test_a_number_whose_span_is_not_understood_is_asked_digit_by_digit():
    from host.engine import narrow_numbers

    prompt = Prompt(
        "zero-to-100/tiebreak",
        "Ana",
        "Ana, your answer?",
        narrow=narrow_numbers("Your answer?", range(101), lambda n: {"intent": "number", "value": n}),
    )
    asked = []
    replies = iter([Reply(), Reply({"intent": "choice", "index": 50}, True)])

    def ask(question):
        asked.append(question)
        return next(replies)

    assert Narrowing(prompt, Trouble(prompt), ask).run() == {"intent": "number", "value": 50}
    assert asked[1].text == "Ana, say it digit by digit, like 4 2."
    assert ("5 0", 50) in asked[1].slots["choice"]  # decoded against digits only
    assert all(
        part.startswith("common/") for q in asked for part in prompt_parts(q.name)
    )  # never the whole first prompt


# ---- "Did you mean" about a legal move only --------------------------------------


class Lines(Understands):
    def __init__(self, lines):
        self.lines, self.asked = list(lines), []

    def hear(self, prompt):
        self.asked.append(prompt)
        return self.understood(prompt, self.lines.pop(0)) if self.lines else None


def test_did_you_mean_never_names_a_card_the_player_does_not_hold(tmp_path):
    game = get_game("centurion")
    options = GameOptions(players=("Ana",), mode="vs-host", deal="host", seed=2, rules={"read_hand": "off"})
    decks = load_game_decks(game.deck, [])
    state, _ = game.setup(options, decks)
    from host.games.centurion import Card

    hand = state.hands[state.players.index("Ana")]
    absent = next(
        state.name(Card(rank, suit))
        for suit in ("hearts", "spades", "clubs", "diamonds")
        for rank in range(3, 10)
        if Card(rank, suit) not in hand
    )
    # unsure readings of a card Ana does not hold, said three times, then "no" to whatever follows
    unsure = Say(absent, rival="queen of hearts", start=1.0, end=2.0)
    ears = Lines([unsure, unsure, unsure, "no", "no", "no", "no", "no"])
    session, mouth, journal, sid = _session(tmp_path, game, options, decks, ears)
    session.run()
    # it is named only in the rules' reason (what was heard, and why it cannot be played)
    assert [line for line in mouth.said if absent in line.lower()] == [f"You don't hold the {absent}."], mouth.said
    events = _events(tmp_path)
    refused = next(i for i, e in enumerate(events) if e["type"] == "rejected")
    assert events[refused]["reason"] == f"You don't hold the {absent}."
    assert [e["type"] for e in events[refused : refused + 3]] == ["rejected", "say", "prompt"]  # then asked again
    assert not any(e["type"] == "intent" and e["intent"]["intent"] == "play_card" for e in events[:refused])
    assert not any(line.startswith("Did you mean") for line in mouth.said)
    assert any(e["type"] == "narrowing" for e in _events(tmp_path))  # the misses led to narrowing


def test_a_corrected_answer_the_rules_refuse_is_not_asked_about(tmp_path):
    # Keep It 100: "lowered" (unsure: lower) where the spot starts the line, so lower is impossible
    session, mouth, journal, sid = _session(
        tmp_path,
        get_game("keep-it-100"),
        GameOptions(players=("Ana", "Ben"), seed=1, mode="basic"),
        load_game_decks(get_game("keep-it-100").deck, [], question_games=dealing("questions")),
        Lines(["2", "below 80", Say("lowered", rival="higher"), Say("lowered", rival="higher"), "higher"]),
    )
    session.run()
    assert "Did you mean: lower?" not in mouth.said


# ---- yes never doubles as an answer -----------------------------------------------


def test_a_yes_or_no_is_never_asked_where_a_choice_reads_as_yes():
    narrow = Narrow(
        "Your guess?",
        tuple(
            Choice(w, {"intent": "predict", "guess": g})
            for w, g in (("lower", "lower"), ("right", "correct"), ("higher", "higher"))
        ),
    )
    prompt = Prompt("keep-it-100/predict", "Ben", "Ben: lower, right or higher?", narrow=narrow)
    asked = []

    def ask(question):
        asked.append(question)
        return Reply({"intent": "choice", "index": 1}, True)

    found = Narrowing(prompt, Trouble(prompt), ask, yes_no_word=lambda label: label == "right").run(likeliest=0)
    assert found == {"intent": "predict", "guess": "correct"}
    assert [q.text for q in asked] == ["Ben, your guess: lower, right or higher?"]  # not "Lower?"
    assert YES_NO_PROMPT not in prompt_parts(asked[0].name)


# ---- the issue 42 commands, run as written ----------------------------------------


def _cli(tmp_path: Path, args: list[str], lines: str) -> tuple[str, list[dict]]:
    events = tmp_path / "events.jsonl"
    env = {
        **os.environ,
        "PARTYHOST_DATA_DIR": str(tmp_path / "data"),
        "PARTYHOST_CONFIG": os.devnull,
    }  # the default settings
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            *args,
            "--input",
            "text",
            "--output",
            "text",
            "--hide-private",
            "--events",
            str(events),
        ],
        cwd=REPO,
        input=lines,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    return run.stdout, [json.loads(line) for line in events.read_text().splitlines()]


def _spoken(events):
    return [e["text"] for e in events if e["type"] == "say"]


def test_keep_cool_narrowed_question_reads_no_secret_word(tmp_path):
    out, events = _cli(
        tmp_path,
        ["keep-cool", "--players", "Ana,Ben,Cy", "--seed", "5", "--rules", "relaxed=true"],
        "red\n3\nno\nno\nno\nhost, read Ben's cards\nhost, read my cards\n",
    )
    secret = {
        word.lower()
        for e in events
        if e["type"] == "private"
        for word in re.findall(r"\d+ ([^,.]+)", e["text"].split(":", 1)[1].split(".")[0])
    }
    assert len(secret) >= 12, secret  # every player's four words, as dealt
    spoken = " ".join(_spoken(events)).lower()
    assert [w for w in secret if re.search(rf"\b{re.escape(w)}\b", spoken)] == []
    assert any(e["type"] == "narrowed_prompt" for e in events)  # the narrowing did happen


def test_centurion_pvp_narrowed_question_reads_no_hand(tmp_path):
    out, events = _cli(
        tmp_path, ["centurion", "--mode", "pvp", "--players", "Ana,Ben", "--seed", "5"], "banana\nbanana\n"
    )
    game = get_game("centurion")
    state, _ = game.setup(GameOptions(players=("Ana", "Ben"), mode="pvp", seed=5), load_game_decks(game.deck, []))
    cards = {state.name(c).lower() for hand in state.hands for c in hand}
    narrowed = [e["seq"] for e in events if e["type"] == "narrowing"]
    assert narrowed
    spoken = " ".join(e["text"] for e in events if e["type"] == "say" and e["seq"] > narrowed[0]).lower()
    assert [c for c in cards if c in spoken] == []
    assert "Ana, which card, by its place in your hand: first to seventh?" in _spoken(events)


@pytest.mark.parametrize("miss", ["the lower one", "lowered"])
def test_keep_it_100_right_after_a_narrowed_lower_is_recorded_as_right(miss, tmp_path):
    out, events = _cli(
        tmp_path, ["keep-it-100", "--players", "Ana,Ben", "--seed", "1"], f"2\nbelow 95\nblah\n{miss}\nright\n"
    )
    guesses = [e["intent"] for e in events if e["type"] == "intent" and e["intent"]["intent"] == "predict"]
    assert guesses == [{"intent": "predict", "guess": "correct"}], out[-1500:]
    assert "Ben says right." in _spoken(events)


# ---- every prompt of every game, walked through narrowing ---------------------------


def _private_items(game, state, players) -> set[str]:
    """Every player's own cards or words, as their phone page names them."""
    view = game.hand_view
    found = set()
    for player in players:
        hand = view(state, player) if view else None
        if hand is not None:
            found |= {card.label.lower() for card in hand.cards if len(card.label) > 2}
    return found - {"joker"}  # named in Centurion's joker offer to both players, held or not


def _tree_texts(narrow: Narrow, player: str | None) -> list[str]:
    """Every question, label and yes-or-no question anywhere in a narrowing."""
    if narrow.said:
        return [narrow.said]  # said as it is: its labels are never read out
    texts = []
    for choice in narrow.choices:
        texts += [narrow.question, choice.label, choice.named]
        if choice.then is not None:
            texts += _tree_texts(choice.then, player)
    return texts


def _walked(prompt: Prompt) -> list[str]:
    """The questions said when the player answers in each of four ways throughout: never
    understood, always "something else" or "no", always the first choice, always the last."""
    said = []
    for policy in ("unheard", "refuse", "first", "last"):

        def ask(question, policy=policy):
            said.append(question.text)
            offered = [label for label in question.choices if label != SOMETHING_ELSE]
            if policy == "unheard":
                return Reply()
            if policy == "refuse":
                return Reply({"intent": "something_else" if SOMETHING_ELSE in question.choices else "no"}, True)
            return Reply({"intent": "choice", "index": 0 if policy == "first" else len(offered) - 1}, True)

        Narrowing(prompt, Trouble(prompt), ask).run()
    return said


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: f"{c.script}-{len(c.players)}")
def test_no_narrowed_question_says_a_private_card_or_word(case, tmp_path):
    transcript = play_script(case, tmp_path)
    assert transcript.outcome is Ending.OVER
    game = get_game(case.game)
    journal = Journal(tmp_path / "db.sqlite3")
    actions = journal.accepted_actions(journal.sessions()[0].id)
    state, _ = game.setup(case.options(), case.decks())
    alone = case.mode == "vs-host"  # one person against the host: nobody else hears
    checked = 0
    for action in actions + [None]:
        prompt = game.prompt(state)
        if prompt is not None and prompt.narrow is not None and not alone:
            secrets = _private_items(game, state, case.players)
            for text in _walked(prompt) + _tree_texts(prompt.narrow, prompt.player):
                leaked = [s for s in secrets if re.search(rf"\b{re.escape(s)}\b", text.lower())]
                assert not leaked, f"{prompt.name}: {text!r} says {leaked}"
            checked += 1
        if action is not None:
            state, _ = game.apply(state, action)
    assert alone or checked


# ---- the event log -------------------------------------------------------------------


def test_each_narrowed_question_is_logged_as_a_prompt_of_its_own(tmp_path):
    game, options, decks, before = _at_first("zero-to-100-basic.txt", "zero-to-100/tiebreak", tmp_path)
    session, mouth, journal, sid = _session(tmp_path, game, options, decks, SaysFifty(), before)
    session.run()
    logged = [e for e in _events(tmp_path) if e["type"] == "narrowed_prompt"]
    team = logged[0]["player"]
    assert [e["text"] for e in logged][:2] == [
        f"{team}, your answer, in tens first: 0, 10, 20 and so on up to 100?",
        f"{team}, your answer: 50 to 59?",
    ]
    assert logged[0]["narrows"] == "zero-to-100/tiebreak"
    assert logged[0]["prompt"] == CHOICE_PROMPT and "50" in logged[0]["choices"]


# ---- never the same words twice in a row ---------------------------------------------


def test_the_reading_asked_about_said_again_settles_it_instead_of_the_same_question(tmp_path):
    from test_session import COUNT_GAME

    unsure = Say("four", rival="five", start=1.0, end=2.0)
    game = COUNT_GAME
    session, mouth, journal, sid = _session(
        tmp_path, game, GameOptions(players=("Ana", "Ben"), seed=3), None, Lines([unsure, unsure])
    )
    session.run()
    assert mouth.said.count("Did you mean: four?") == 1
    assert journal.accepted_actions(sid) == [{"intent": "number", "value": 4, "player": "Ana"}]


def test_keep_cool_claim_is_asked_and_answered_by_place_never_by_word(tmp_path):
    from replay import play_lines

    lines = ["red", "3", "no", "no", "no", "tree", "lamp", "stone", "Ben got it", "blah", "blah", "third"]
    session, mouth, actions = play_lines(
        tmp_path,
        "keep-cool",
        lines,
        players=("Ana", "Ben", "Cy"),
        seed=5,
        mode="basic",
        deal="host",
        rules={"relaxed": True, "claims": "trusted"},  # the claim's narrowing, not its check (tests/games)
    )
    dealt = next(line for line in mouth.said if line.startswith("[Ben] "))
    words = re.findall(r"\d+ ([^,.]+)", dealt.split(":", 1)[1].split(".")[0])
    assert len(words) == 4
    claimed = mouth.said[mouth.said.index("Ben, which of your words was it?") :]
    assert "Ben, which of your words: first to fourth or none?" in claimed
    assert actions[-1] == {"intent": "word", "word": words[2], "player": "Ben"}
    before_the_win = claimed[: next(i for i, line in enumerate(claimed) if "win that card" in line)]
    assert [w for w in words if any(w in line.lower() for line in before_the_win)] == []


def test_centurion_joker_offer_between_two_people_is_the_same_words_whatever_the_hand(tmp_path):
    case = next(c for c in load_cases() if c.script == "centurion-pvp-host.txt")
    assert play_script(case, tmp_path).outcome is Ending.OVER
    game = get_game(case.game)
    journal = Journal(tmp_path / "db.sqlite3")
    state, _ = game.setup(case.options(), case.decks())
    offers = []
    for action in journal.accepted_actions(journal.sessions()[0].id):
        prompt = game.prompt(state)
        if prompt.name == "centurion/joker_steal":
            held = "joker" in {c.label for c in game.hand_view(state, prompt.player).cards}
            offers.append(held)
            assert set(_walked(prompt)) == {f"{prompt.player}, joker or pass?"}
        state, _ = game.apply(state, action)
    assert offers


@pytest.mark.parametrize("case", load_cases(), ids=lambda c: f"{c.script}-{len(c.players)}")
def test_every_narrowed_move_is_at_most_three_understood_answers_away(case, tmp_path):
    """Answering each question with the choice that leads to the move (the player knows
    what they meant), every move the narrowing offers is reached in three questions."""
    transcript = play_script(case, tmp_path)
    assert transcript.outcome is Ending.OVER
    game = get_game(case.game)
    journal = Journal(tmp_path / "db.sqlite3")
    state, _ = game.setup(case.options(), case.decks())
    worst = 0
    for action in journal.accepted_actions(journal.sessions()[0].id) + [None]:
        prompt = game.prompt(state)
        if prompt is not None and prompt.narrow is not None:
            for move in prompt.narrow.moves():
                asked = []
                at = [prompt.narrow]  # the part being asked: the player follows the questions

                def ask(question, move=move, at=at, asked=asked):
                    asked.append(question.text)
                    part = at[0]
                    if prompt_parts(question.name)[0] == YES_NO_PROMPT:
                        about = next(c for c in part.choices if question_alone(c) == question.text)
                        if not _leads_to(about, move):
                            return Reply({"intent": "no"}, True)
                        at[0] = about.then or part
                        return Reply({"intent": "yes"}, True)
                    offered = [label for label in question.choices if label != SOMETHING_ELSE]
                    fitting = [c for c in part.choices if c.label in offered and _leads_to(c, move)]
                    if not fitting:
                        return Reply({"intent": "something_else"}, True)
                    at[0] = fitting[0].then or part
                    return Reply({"intent": "choice", "index": offered.index(fitting[0].label)}, True)

                found = Narrowing(prompt, Trouble(prompt), ask).run()
                assert found == move, (prompt.name, move, asked)
                worst = max(worst, len(asked))
                assert len(asked) <= 3, (prompt.name, move, asked)
        if action is not None:
            state, _ = game.apply(state, action)
    assert 0 < worst <= 3


def _leads_to(choice: Choice, move: dict) -> bool:
    """Whether some path through `choice` settles nothing the move does not say."""
    paths = choice.then.moves(dict(choice.intent)) if choice.then is not None else [dict(choice.intent)]
    return any(all(move.get(key) == value for key, value in path.items()) for path in paths)


# ---- where a choice reads as yes, no yes or no can be asked -----------------------------

GUESS_WORDS = (("lower", "lower"), ("right", "correct"), ("higher", "higher"))
GUESSES = Narrow(
    "Your guess?",
    tuple(Choice(word, {"intent": "predict", "guess": guess}) for word, guess in GUESS_WORDS),
)


def _narrowed_guess(replies: list[Reply]) -> tuple[object, list[str]]:
    """Keep It 100's guess narrowed for Ana with these answers; what it found and asked."""
    prompt = Prompt("keep-it-100/predict", "Ana", "Ana: lower, right or higher?", narrow=GUESSES)
    asked: list[str] = []

    def ask(question: Prompt) -> Reply:
        asked.append(question.text)
        return replies.pop(0) if replies else Reply()

    found = Narrowing(prompt, Trouble(prompt), ask, yes_no_word=lambda label: label == "right").run()
    return found, asked


def test_where_no_yes_or_no_can_be_asked_two_unsure_answers_naming_one_choice_settle_it():
    """A loud room: "higher" read twice but never surely. "Right" reads as yes, so no
    "Higher?" can be asked; the list is asked once more for one word, and the two readings
    agreeing settle it."""
    found, asked = _narrowed_guess([Reply(guess=2), Reply(guess=2)])
    assert found == {"intent": "predict", "guess": "higher"}
    assert asked == ["Ana, your guess: lower, right or higher?", "Ana, just one word, please: lower, right or higher."]


def test_two_unsure_answers_naming_different_choices_settle_nothing():
    assert _narrowed_guess([Reply(guess=2), Reply(guess=0)])[0] is None
    assert _narrowed_guess([Reply(), Reply(guess=0)])[0] is None  # one unsure reading alone is never a move
    found, _ = _narrowed_guess([Reply(), Reply({"intent": "choice", "index": 1}, True)])
    assert found == {"intent": "predict", "guess": "correct"}  # the second asking understood
