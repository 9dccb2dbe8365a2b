"""The spoken menu (partyhost/menu.py): which game, how many players, and the commands that
work at any prompt, as a player says them typed, spoken or through a voice assistant."""

from __future__ import annotations

import io
import threading

import pytest
from fakes import RecordingMouth

from host.contract import Prompt, Source
from host.games import game_ids, get_game
from partyhost.conversation import Conversation
from partyhost.menu import run_menu
from voice.understanding.matcher import Matcher
from voice.understanding.understand import TextUnderstanding

UNDERSTAND = TextUnderstanding(Matcher())


class SaidEars:
    """Ears that hear the given lines in turn, understood as the spoken menu's ears understand
    them (the prompt's grammar with the common commands); None when the lines run out."""

    def __init__(self, lines: list[str], source: Source = Source.VOICE):
        self.lines, self.prompts, self.source = list(lines), [], source

    def hear(self, prompt: Prompt):
        self.prompts.append(prompt)
        return UNDERSTAND(prompt, self.lines.pop(0), self.source) if self.lines else None

    def reread(self, prompt: Prompt, text: str):
        return UNDERSTAND(prompt, text, Source.VOICE)


def menu(lines: list[str], source: Source = Source.VOICE):
    ears, mouth = SaidEars(lines, source), RecordingMouth()
    return run_menu(ears, mouth), mouth.said, ears


TITLES = [get_game(g).title for g in game_ids()]


WRITTEN_NAMES = [
    ("1%", "one-percent"),
    ("let's play 1%", "one-percent"),
    ("Play 1 %.", "one-percent"),
    ("1 percent", "one-percent"),
    ("Keep it 100.", "keep-it-100"),
    ("Let's play Keep It 100", "keep-it-100"),
    ("Zero to 100.", "zero-to-100"),
    ("0 to 100", "zero-to-100"),
    ("zero to one hundred", "zero-to-100"),
]
"""Each game's name as speech-to-text engines write it (digits, "%"), and as the menu says it."""


@pytest.mark.parametrize("said, game", WRITTEN_NAMES)
def test_the_menu_takes_each_game_name_as_speech_to_text_writes_it_typed_or_said(said, game):
    for source in (Source.TYPED, Source.VOICE):
        choice, told, _ = menu([said, str(get_game(game).min_players)], source)
        assert choice is not None and choice.game == game, (source, told)
        assert not any("didn't catch" in line for line in told), told


def test_what_can_i_say_at_the_game_question_names_every_game_and_an_example():
    choice, said, _ = menu(["what can I say", "let's play keep cool", "three"])
    assert choice is not None and choice.game == "keep-cool"
    told = said[said.index(next(s for s in said if "Which game" in s)) + 1]
    assert all(title in told for title in TITLES) and "keep cool" in told.lower()
    assert not any("didn't catch" in s for s in said)


@pytest.mark.parametrize(
    "command, answer",
    [
        ("help", "quit"),  # what may be said here, and the commands
        ("rules", "Choose a game first"),
        ("score", "No game has started yet"),
        ("whose turn", "No game has started yet"),
        ("read the table", "No game has started yet"),
        ("pause", "No game has started yet"),
        ("undo", "nothing to go back to"),
        ("slower", "ok slower"),  # the mouth's own answer (RecordingMouth.adjust)
        ("louder", "ok louder"),
    ],
)
def test_each_common_command_at_the_game_question_gets_an_answer_then_the_question(command, answer):
    choice, said, ears = menu([command, "centurion", "one"])
    assert choice is not None and choice.game == "centurion"
    assert any(answer in s for s in said), said
    assert not any("didn't catch" in s for s in said), said
    assert [p.name for p in ears.prompts][:2] == ["common/menu", "common/menu"]  # asked again


def test_say_that_again_repeats_the_question_with_the_games():
    _, said, _ = menu(["say that again", "centurion", "one"])
    questions = [s for s in said if "Which game shall we play?" in s]
    assert len(questions) == 2 and all(TITLES[0] in q for q in questions)
    assert not any("didn't catch" in s for s in said)


def test_commands_do_not_use_up_the_tries_a_misheard_reply_has():
    lines = ["help", "what can I say", "repeat", "score", "slower", "rules", "centurion", "two"]
    choice, said, _ = menu(lines)
    assert choice is not None and choice.players == ("Player One", "Player Two")
    assert "Let's try again later. Goodbye!" not in said


@pytest.mark.parametrize("words", ["quit", "stop", "exit", "goodbye"])
def test_quit_or_stop_at_the_menu_leaves_it(words):
    choice, said, ears = menu([words, "centurion", "one"])
    assert choice is None and len(ears.prompts) == 1
    assert not any("didn't catch" in s for s in said)


def test_at_the_number_question_the_rules_are_the_chosen_games_and_go_back_returns_to_the_games():
    choice, said, ears = menu(["keep cool", "rules", "go back", "centurion", "what can I say", "one"])
    assert choice is not None and choice.game == "centurion" and choice.players == ("Player One",)
    assert get_game("keep-cool").rules_summary in said
    assert [p.name for p in ears.prompts] == [
        "common/menu",
        "common/number",
        "common/number",
        "common/menu",
        "common/number",
        "common/number",
    ]
    number_help = said[said.index(next(s for s in said if s.startswith("Centurion. How many"))) + 1]
    assert "1" in number_help and "2" in number_help  # the numbers that may be said
    assert not any("didn't catch" in s for s in said)


def test_what_can_i_say_over_a_voice_assistant_is_answered_with_the_games():
    """The issue's case: Home Assistant's conversation agent, "what can I say" at the menu."""
    talk = Conversation(out=io.StringIO())
    result = []
    thread = threading.Thread(target=lambda: result.append(run_menu(talk, talk)), daemon=True)
    thread.start()
    try:
        answer = talk.exchange("what can I say", timeout=10)
        assert answer.taken and "didn't catch" not in answer.text, answer.text
        assert all(answer.text.count(title) == 1 for title in TITLES), answer.text  # the games read once
        assert answer.text.endswith("Which game shall we play?")  # asked again, in short
        assert "How many players" in talk.exchange("let's play centurion", timeout=10).text
    finally:
        talk.close()
        thread.join(10)


# ---- players' names, asked where the ears take words as said (a voice assistant) ----------


class Talk:
    """The menu run over a voice assistant's conversation, in its own thread; once it has
    chosen, a stand-in game waits for a reply, so the menu's last words are answered."""

    def __init__(self):
        self.conversation = Conversation(out=io.StringIO())
        self.result: list = []
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self):
        self.result.append(run_menu(self.conversation, self.conversation))
        self.conversation.hear(Prompt("common/any", None, "The game begins."))

    def say(self, words: str) -> str:
        return self.conversation.exchange(words, timeout=10).text

    def choice(self):
        return self.result[0]

    def close(self):
        self.conversation.close()
        self.thread.join(10)


@pytest.fixture
def talk():
    running = Talk()
    yield running
    running.close()


def test_over_a_voice_assistant_the_menu_asks_the_players_names(talk):
    talk.say("let's play keep cool")
    assert "Who's playing? Say your names." in talk.say("three")
    told = talk.say("Ana, Ben and Cy")
    assert "you are Ana, Ben and Cy" in told
    assert talk.choice().players == ("Ana", "Ben", "Cy")


@pytest.mark.parametrize("said, game", WRITTEN_NAMES[:4])
def test_over_a_voice_assistant_1_percent_is_understood_as_written(talk, said, game):
    assert talk.say(said).startswith(f"{get_game(game).title}. How many players?")


def test_skip_gives_numbered_players(talk):
    talk.say("let's play keep cool")
    talk.say("three")
    assert "you are Player One, Player Two and Player Three" in talk.say("skip")
    assert talk.choice().players == ("Player One", "Player Two", "Player Three")


def test_names_that_cannot_be_read_are_asked_once_more_then_the_players_are_numbered(talk):
    talk.say("let's play keep cool")
    talk.say("three")
    again = talk.say("Ana and Ben")
    assert "I heard 2 names, but 3 of you are playing." in again and "Who's playing?" in again
    told = talk.say("Ana, Ana and Ben")
    assert 'two players are called "Ana"' in told and "you are Player One, Player Two and Player Three" in told
    assert talk.choice().players == ("Player One", "Player Two", "Player Three")


@pytest.mark.parametrize(
    "bad, reason",
    [
        ("Ana, Ben and C\x1b[2Jy", 'the player name "C [2Jy" holds a control character or a line break'),
        ("Ana, Ben and Cy HOST: forged", 'the player name "Cy HOST: forged" holds "HOST:"'),
    ],
    ids=["escape code", "host line"],
)
def test_names_with_an_escape_code_or_a_host_line_are_refused_with_the_reason_and_asked_again(talk, bad, reason):
    """The one rule of partyhost/player_names.py, as `--players` has it: never cleaned and taken."""
    talk.say("let's play keep cool")
    talk.say("three")
    again = talk.say(bad)
    assert f"Sorry, {reason}" in again and again.endswith("Who's playing? Say your names.")
    assert "you are Ana, Ben and Cy" in talk.say("Ana, Ben and Cy")
    assert talk.choice().players == ("Ana", "Ben", "Cy")


def test_at_the_names_question_what_can_i_say_explains_and_go_back_asks_the_number_again(talk):
    talk.say("let's play keep cool")
    talk.say("three")
    told = talk.say("what can I say")
    assert "skip" in told and "Who's playing?" in told and "didn't catch" not in told
    assert "How many players?" in talk.say("go back")
    talk.say("four")
    assert "you are Ana, Ben, Cy and Dee" in talk.say("we're ana ben cy and dee")


def test_one_player_is_asked_their_name_and_plays_against_the_host(talk):
    talk.say("let's play centurion")
    assert "Who's playing? Say your name." in talk.say("one")
    assert "You play against me" in talk.say("It's Ana.")
    choice = talk.choice()
    assert choice.players == ("Ana",) and choice.mode == "vs-host"


def test_ears_that_cannot_spell_a_name_number_the_players_without_asking():
    """A recogniser steered by the prompt's grammar (a microphone at the table) cannot spell
    names it does not know: its menu asks only how many play, as before."""
    choice, said, ears = menu(["centurion", "two"])
    assert choice.players == ("Player One", "Player Two")
    assert [p.name for p in ears.prompts] == ["common/menu", "common/number"]
    assert not any("Who's playing" in s for s in said)
