"""`partyhost serve`'s table (partyhost/served_games.py), its game loop run in this process on
a real data folder, talked to through its conversation as the service does: what each game
ends with, what a quit game waits for, and "resume" at the menu. The service's own process,
its wire and its limits: tests/test_wyoming_service.py."""

from __future__ import annotations

import io
import random
import re
import threading
import urllib.request
from pathlib import Path

import pytest
from test_wyoming_service import reply_to

from host.journal import Journal
from partyhost.conversation import Conversation
from partyhost.games_folder import GamesFolder, Place
from partyhost.menu_commands import NOTHING_SAVED
from partyhost.served_games import PLAY_AGAIN, RESUME_LATER, play_games

GREETING_OR_MENU = ("Hello!", "Which game shall we play?")


class Served:
    """The served table's loop in a thread on `data`, as one start of `partyhost serve`."""

    def __init__(self, data: Path):
        self.conversation = Conversation(out=io.StringIO(), show_private=False)
        folder = GamesFolder(Place(data), tell=lambda text: None)
        self.thread = threading.Thread(target=play_games, args=(self.conversation, folder), daemon=True)
        self.thread.start()

    def say(self, words: str) -> str:
        """What Home Assistant would speak back to `words`."""
        return self.conversation.exchange(words, timeout=30).text

    def stop(self) -> None:
        """As SIGTERM does: the game is saved as it is, and the loop ends."""
        self.conversation.close()
        self.thread.join(30)
        assert not self.thread.is_alive()


@pytest.fixture
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    settings = tmp_path / "config.toml"
    settings.write_text(  # Keep It 100 in four moves a player; phones on this machine, any free port
        'phones_bind = "127.0.0.1"\nphones_port = 0\n[rules.keep-it-100]\nhand_size = 1\n'
    )
    monkeypatch.setenv("PARTYHOST_CONFIG", str(settings))
    return folder


@pytest.fixture
def serving(data):
    started: list[Served] = []

    def start() -> Served:
        started.append(Served(data))
        return started[-1]

    yield start
    for served in started:
        if served.thread.is_alive():
            served.stop()


def statuses(data: Path) -> list[str]:
    journal = Journal(data / "partyhost.sqlite3")
    try:
        return [record.status for record in journal.sessions()]
    finally:
        journal.close()


def start_keep_it_100(served: Served, names: str = "Ana and Ben") -> str:
    assert "How many players" in served.say("let's play keep it 100")
    assert "Who's playing" in served.say("two")
    started = served.say(names)
    assert "phones" not in started  # its cards are read aloud: no phone page needed
    return started


def test_a_finished_game_ends_with_its_own_line_and_the_greeting_waits_for_the_next_request(serving):
    served = serving()
    question, guess = start_keep_it_100(served), random.Random(5)
    for _ in range(30):  # four moves a player, and a tiebreak or two
        answer = served.say(reply_to(question, guess))
        if PLAY_AGAIN in answer or any(words in answer for words in GREETING_OR_MENU):
            break
        question = answer
    assert answer.endswith(PLAY_AGAIN), answer
    assert not any(words in answer for words in GREETING_OR_MENU), answer  # not in the same breath
    greeted = served.say("hello")  # no game's name: the greeting, and the question
    assert greeted.startswith("Hello! I'm your party host. Which game shall we play?"), greeted
    assert "didn't catch" not in greeted
    assert served.say("let's play centurion").startswith("Centurion. How many players?")


def test_a_quit_game_is_not_resumed_by_a_restart_and_waits_for_resume(serving, data):
    served = serving()
    start_keep_it_100(served)
    served.say("card one")
    assert "Do you want to stop the game?" in served.say("quit")
    quit_line = served.say("yes")
    assert quit_line == f"Game saved. See you next time! {RESUME_LATER}", quit_line
    served.stop()
    assert statuses(data) == ["quit"]

    again = serving()  # serve started again: the quit game stays where it was
    assert again.say("let's play keep cool").startswith("Keep Cool. How many players?")
    assert again.say("go back").startswith("Which game shall we play?")
    back = again.say("resume")  # the one saved game
    assert back.startswith("Welcome back to Keep It 100") and "Ana" in back, back
    assert statuses(data) == ["playing"]  # played again: a crash from now on is resumed by itself


def test_a_game_stopped_by_the_service_is_resumed_by_the_next_start(serving, data, capsys):
    served = serving()
    start_keep_it_100(served)
    served.say("card one")
    served.stop()
    told = capsys.readouterr().out
    assert "The game is saved" in told and "resume" not in told  # serve goes on with it by itself
    again = serving()
    assert again.say("let's play keep cool").startswith("Welcome back to Keep It 100")


def test_resume_at_the_menu_lists_the_saved_games_and_goes_on_with_the_one_chosen(serving):
    served = serving()
    start_keep_it_100(served, "Ana and Ben")
    served.say("quit")
    served.say("yes")
    start_keep_it_100(served, "Cy and Dee")
    served.say("quit")
    served.say("yes")
    listed = served.say("resume")
    assert "2 saved games: 1, Keep It 100 with Cy and Dee; 2, Keep It 100 with Ana and Ben." in listed, listed
    assert listed.endswith("Which one?")
    assert "Sorry, I didn't catch that" in served.say("banana split")  # no saved game: asked again
    back = served.say("two")
    assert back.startswith("Welcome back to Keep It 100") and "Ana" in back and "Cy" not in back, back


def test_resume_with_nothing_saved_is_told_in_one_line_and_the_menu_goes_on(serving):
    served = serving()
    answer = served.say("resume")
    assert answer.startswith(f"{NOTHING_SAVED} Which game shall we play?"), answer
    assert served.say("let's play 1%").startswith("1%. How many players?")


@pytest.mark.parametrize("game, count", [("1%", "three"), ("keep cool", "three"), ("centurion", "two")])
def test_a_game_with_secret_cards_is_played_with_phone_pages_and_my_cards_says_where(serving, game, count):
    """Everyone hears the assistant: secret cards go to the players' phone pages, never to
    the speaker, and the players hear where to join."""
    served = serving()
    served.say(f"let's play {game}")
    served.say(count)
    started = served.say("Ana, Ben and Cy" if count == "three" else "Ana and Ben")
    joined = re.search(
        r"Your secret cards are on your phones\. Join at 127\.0\.0\.1 port (\d+), with the code", started
    )
    assert joined, started
    with urllib.request.urlopen(f"http://127.0.0.1:{joined[1]}/", timeout=10) as page:
        assert page.status == 200
    if game == "1%":  # its players may ask for their cards at any bid
        where = served.say("what are my cards")
        assert re.match(r"(Ana|Ben|Cy), your cards are on your phone page\. Join at 127\.0\.0\.1 port", where), where


def test_a_game_with_secret_cards_that_no_phone_can_reach_is_refused_and_the_next_request_is_heard(
    serving, data, monkeypatch
):
    settings = data.parent / "config.toml"
    settings.write_text(settings.read_text().replace('phones_bind = "127.0.0.1"\n', ""))
    monkeypatch.setattr("partyhost.phones.service.lan_address", lambda: None)  # a machine with no network
    served = serving()
    served.say("let's play 1%")
    served.say("three")
    refused = served.say("Ana, Ben and Cy")
    assert refused.endswith(  # after the menu's "Great: 1% for 3 ..."
        "Sorry, I could not start that game: 1% needs phones for its secret cards, and no phone "
        "can reach me here: I found no network. Choose another game."
    ), refused
    assert statuses(data) == []  # nothing was saved
    assert served.say("let's play keep it 100").startswith("Keep It 100. How many players?")  # not lost
