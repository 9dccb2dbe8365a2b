"""`partyhost serve`: the real service on 127.0.0.1, talked to by the wyoming package's own client,
one connection per transcript, as Home Assistant's conversation agent does (Transcript in,
Handled or NotHandled out). The journal is read directly to see what was really played."""

from __future__ import annotations

import asyncio
import os
import queue
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from wyoming.asr import Transcript
from wyoming.client import AsyncTcpClient
from wyoming.event import Event, async_read_event, async_write_event
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info

from host.journal import Journal
from partyhost.connection_limits import LOG_EVERY_S

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


class Service:
    """`python -m partyhost serve` in its own process, its printed lines collected."""

    def __init__(self, data: Path, *extra: str, config: str = "", **popen):
        self.data = data
        (data / "config.toml").write_text(config)
        env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": str(data / "config.toml")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "partyhost", "serve", "--bind", "127.0.0.1", "--port", "0", *extra],
            cwd=REPO,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            **popen,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.port = self._port()

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)
            self.lines.put(line)

    def _port(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                assert self.process.poll() is None, self.process.stderr.read()
                continue
            if "serving games on 127.0.0.1:" in line:
                return int(line.split("127.0.0.1:")[1].split()[0])
        raise AssertionError("the service did not start")

    def stop(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(30)
        return code, self.process.stderr.read()


async def send(port: int, event: Event) -> Event | None:
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(event)
        return await asyncio.wait_for(client.read_event(), 40)


def say(port: int, text: str) -> str:
    """What the host answers to a player's words, as the assistant would speak it."""
    event = asyncio.run(send(port, Transcript(text, context={"conversation_id": "table"}).event()))
    assert event is not None and Handled.is_type(event.type), event
    return Handled.from_event(event).text


def placing(question: str) -> str:
    """A placement a player would say, read off the question ("Line one: 20, 80.")."""
    low, high = re.search(r"Line one: (\d+), (\d+)", question).groups()
    return f"between {low} and {high}"


def moves(data: Path) -> int:
    """The moves in force in the one unfinished game (an undo removes one), read from the journal."""
    journal = Journal(data / "partyhost.sqlite3")
    [record] = [r for r in journal.sessions() if r.status == "playing"]
    return len(journal.accepted_actions(record.id))


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    running = Service(tmp_path_factory.mktemp("serve"))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def game(service):
    """Keep It 100 for two, started by naming it; returns the service."""
    assert "How many players" in say(service.port, "let's play keep it 100")
    assert "Who's playing?" in say(service.port, "two")
    started = say(service.port, "skip")  # numbered players: Player One and Player Two
    assert "Keep It 100!" in started and "Player One, pick a card" in started
    assert moves(service.data) == 0
    return service


def test_describe_lists_one_handle_program_as_home_assistant_reads_it(service):
    info = Info.from_event(asyncio.run(send(service.port, Describe().event())))
    [program] = info.handle
    assert program.name == "partyhost" and program.installed
    assert [model.languages for model in program.models if model.installed] == [["en"]]
    assert not program.supports_home_control
    # what Home Assistant's integration checks to make a conversation agent and nothing else
    assert info.satellite is None and not (info.asr or info.tts or info.wake or info.intent)


def test_moves_are_played_and_journaled(game):
    port = game.port
    question = say(port, "card three")
    assert "where does it go" in question
    assert moves(game.data) == 1
    answer = say(port, placing(question))
    assert moves(game.data) == 2, (moves(game.data), answer)
    before = say(port, "score")  # a common command: answered, nothing played
    assert "Player One 0 and Player Two 0" in before and moves(game.data) == 2
    asked = say(port, "undo")  # Player Two is awaited: Player One's move needs their yes
    assert "Player One, do you agree?" in asked and moves(game.data) == 2
    assert "Undone" in say(port, "yes")
    assert moves(game.data) == 1  # undone in the journal, as typed play does


@pytest.mark.parametrize(
    "event",
    [
        Event("recognize", {"text": "card one"}),  # another service kind's request
        Event("audio-chunk", {"rate": 16000, "width": 2, "channels": 1}, payload=b"\0" * 640),
        Event("no-such-event", {"text": "card one"}),
    ],
    ids=["recognize", "audio", "unknown"],
)
def test_other_events_are_ignored_and_change_nothing(game, event):
    before = moves(game.data)

    async def exchange():
        async with AsyncTcpClient("127.0.0.1", game.port) as client:
            await client.write_event(event)
            await client.write_event(Describe().event())  # the connection is still served
            return await asyncio.wait_for(client.read_event(), 10)

    assert Info.is_type(asyncio.run(exchange()).type)
    assert moves(game.data) == before


@pytest.mark.parametrize(
    "data, reason",
    [
        ({}, "no words"),
        ({"text": 42}, "no words"),
        ({"text": "card one " * 100}, "too long"),
    ],
)
def test_bad_transcripts_get_a_reason_and_change_nothing(game, data, reason):
    before, question = moves(game.data), say(game.port, "")
    answer = asyncio.run(send(game.port, Event("transcript", data)))
    assert NotHandled.is_type(answer.type) and reason in NotHandled.from_event(answer).text
    assert moves(game.data) == before and say(game.port, "") == question


@pytest.mark.parametrize(
    "raw",
    [
        b"this is not json\n",
        b"[1, 2]\n",
        b'{"type": "transcript", "data": 5}\n',
        b'{"type": "transcript", "data_length": 9999}\n{"text"',
    ],
)
def test_malformed_bytes_drop_that_connection_only(game, raw):
    before, question = moves(game.data), say(game.port, "")

    async def hostile():
        reader, writer = await asyncio.open_connection("127.0.0.1", game.port)
        writer.write(raw)
        await writer.drain()
        writer.close()

    asyncio.run(hostile())
    assert say(game.port, "") == question and moves(game.data) == before


QUESTIONS = ("pick a card", "which card", "where", "lower, right or higher")
"""Keep It 100's questions to the table, one at the end of each answer in a game."""


def reply_to(question: str, guess: random.Random | None = None) -> str:
    """What a player says to Keep It 100's question (or to the menu's, between games);
    with `guess`, a place and a call chosen by it, as a player who does not know would."""
    if "Line one" in question:
        if guess is None:
            return placing(question)
        line, numbers = guess.choice(re.findall(r"Line (one|two): ([\d, ]+)\.", question))
        ends = [int(n) for n in numbers.split(",")]
        low = guess.randrange(len(ends) - 1)
        return f"between {ends[low]} and {ends[low + 1]} on line {line}"
    if "lower, right or higher" in question:
        return guess.choice(("lower", "right", "higher")) if guess else "higher"
    if "Say ready when every number is written down" in question:
        return "ready"
    if "the number you wrote" in question:  # a tie: two players who both say 42 stay tied for ever
        return str(guess.randrange(101)) if guess else "forty two"
    if "Which game shall we play" in question:
        return "let's play keep it 100"
    if "How many players" in question:
        return "two"
    if "Who's playing" in question:
        return "skip"
    return "card one"


def at_once(port: int, asks: tuple[str, ...]) -> list[str]:
    """Each transcript on its own connection, all sent together; the answers in order."""

    async def together():
        return await asyncio.gather(*(send(port, Transcript(text).event()) for text in asks))

    return [Handled.from_event(a).text for a in asyncio.run(together())]


def test_five_clients_at_once_take_turns_in_one_game(game):
    port, before = game.port, moves(game.data)
    question = say(port, "")
    asks = ("score", "whose turn", "score", reply_to(question), "whose turn")
    answers = at_once(port, asks)
    rows = Journal(game.data / "partyhost.sqlite3").db.execute("SELECT seq, kind, action FROM actions").fetchall()
    assert moves(game.data) == before + 1, "\n".join([question, *answers, *map(str, rows)])  # the one move, played once
    for asked, answer in zip(asks, answers):  # each whole: one question at its end, none doubled
        assert sum(answer.count(q) for q in QUESTIONS) == 1, answer
        assert answer.count("Player One 0 and Player Two 0") <= 1 and answer.count("It's Player") <= 1
        assert answer.startswith({"score": "Player One ", "whose turn": "It's Player"}.get(asked, ""))
    assert say(port, "") != question  # the game moved on


def journaled_moves(data: Path) -> int:
    """Moves in force in every game of the journal, read as another process would."""
    journal = Journal(data / "partyhost.sqlite3")
    try:
        return sum(len(journal.accepted_actions(r.id)) for r in journal.sessions())
    finally:
        journal.close()


MAX_ROUNDS = 200
"""Rounds of the kill test at most; it goes past fifty only until a game has ended."""


def test_fifty_rounds_of_five_clients_then_kill_9_lose_no_narrated_move(tmp_path):
    """Issue 29: each move narrated to a player is in the journal, across games, after SIGKILL.
    Between rounds the journal is read and closed by this process, as `partyhost sessions` would."""
    table = Service(tmp_path, "--no-zeroconf")
    port, narrated, question = table.port, 0, "Which game shall we play?"
    guess = random.Random(29)
    try:
        for round_number in range(MAX_ROUNDS):
            if round_number >= 50 and len(Journal(tmp_path / "partyhost.sqlite3").sessions()) >= 2:
                break  # fifty rounds at least, across the end of a game (the deal is random: how soon varies)
            while any(menu in question for menu in ("Which game shall we play", "How many players", "Who's playing")):
                question = say(port, reply_to(question))  # a game ended: the menu, one voice at a time
            move = reply_to(question, guess)
            answers = at_once(port, ("score", move, "whose turn", "score", "whose turn"))
            if not answers[1].startswith(("Sorry", "Did you mean")):
                narrated += 1
            assert journaled_moves(tmp_path) == narrated, answers
            question = say(port, "")
        games = len(Journal(tmp_path / "partyhost.sqlite3").sessions())
        assert games >= 2  # the rounds crossed the end of a game
    finally:
        table.process.send_signal(signal.SIGKILL)
        table.process.wait(30)
    assert narrated >= 45 and journaled_moves(tmp_path) == narrated


def test_stopping_saves_the_game_and_the_next_service_resumes_it(tmp_path):
    first = Service(tmp_path)
    say(first.port, "let's play keep it 100")
    say(first.port, "two")
    say(first.port, "Ana and Ben")
    question = say(first.port, "card one")
    assert "where does it go" in question
    busy = subprocess.run(
        [sys.executable, "-m", "partyhost", "resume", "--input", "text", "--output", "text"],
        cwd=REPO,
        env={**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path), "PARTYHOST_CONFIG": os.devnull},
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert busy.returncode == 2 and "partyhost: " in busy.stderr  # one process per game
    assert "Traceback" not in busy.stderr
    code, errors = first.stop()
    assert code == 0 and "Traceback" not in errors
    assert any("The game is saved" in line for line in first.output)
    assert moves(tmp_path) == 1

    second = Service(tmp_path)
    try:
        back = say(second.port, placing(question))  # first words: the player hears where we are
        assert back.startswith("Welcome back to Keep It 100") and "where does it go" in back
        assert moves(tmp_path) == 1  # and they were not taken as the move
        say(second.port, placing(question))
        assert moves(tmp_path) == 2
    finally:
        second.stop()


def test_a_keep_cool_turn_runs_out_after_its_question_and_late_words_are_told_so(tmp_path):
    """Keep Cool's clock through the service: 3-second turns (the settings' rules), a clue in
    time is played, words after the turn's time end it as silence and are told so."""
    table = Service(tmp_path, "--no-zeroconf", config="[rules.keep-cool]\nturn_seconds = 3\n")
    try:
        port = table.port
        say(port, "let's play keep cool")
        say(port, "three")
        assert "which side" in say(port, "Ana, Ben and Cy")
        assert "which line" in say(port, "red")
        answer = say(port, "three")
        for _ in range(5):  # each player is asked about a swap
            if "swap" not in answer:
                break
            answer = say(port, "no")
        assert answer.endswith("Keep cool!"), answer
        played = moves(tmp_path)
        clues = iter(("pillow", "lantern", "teapot", "blanket"))
        clue_word = next(clues)
        in_time = say(port, clue_word)  # at once: a clue, the next player's turn
        while in_time.startswith("Not that one"):  # the deal gave the player a word of its root
            clue_word = next(clues)
            in_time = say(port, clue_word)
        assert in_time.endswith("your turn.") and not in_time.startswith("Time was up")
        assert moves(tmp_path) == played + 1
        time.sleep(5.5)  # 3 s of turn after about 1 s of "..., your turn."
        late = say(port, next(clues))
        assert late.startswith("Time was up before that.") and late.endswith("your turn."), late
        assert moves(tmp_path) == played + 2  # the turn ended as silence would end it
        journal = Journal(tmp_path / "partyhost.sqlite3")
        clue, timeout = journal.accepted_actions(journal.sessions()[0].id)[-2:]
        said = clue.get("text") or clue.get("word")  # "word" when the deal put the clue in play
        assert (clue["intent"], said, timeout["intent"]) == ("word", clue_word, "timeout")
    finally:
        table.stop()


def test_a_move_held_up_by_another_process_is_answered_at_once_and_played_once(tmp_path):
    """Issue 45: Home Assistant waits for ever, so a busy game still answers within the bound.
    Another process (as `partyhost sessions --prune` would) holds the journal's write lock:
    the move cannot be saved, the player hears "one moment", and once the lock is let go the
    move is saved once and its answer is what the next words hear (they are not taken)."""
    table = Service(tmp_path, "--no-zeroconf")
    try:
        port = table.port
        say(port, "let's play keep it 100")
        say(port, "two")
        assert "Player One, pick a card" in say(port, "skip")
        # This process's first Journal opens before the lock is taken: that first open checks
        # the -shm under a POSIX lock and closes it, which drops every lock this process holds
        # on the file, `other`'s write lock too (host/wal_check.py), and the save would go through.
        assert moves(tmp_path) == 0
        other = sqlite3.connect(tmp_path / "partyhost.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # SQLite makes the service's save wait (5 s at most)
        try:
            held = say(port, "card three")
            unsaved = moves(tmp_path)  # counted while the lock is held: once it goes, the save follows
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert held.startswith("One moment") and unsaved == 0
        for _ in range(10):  # a player asks again until the answer is ready
            heard = say(port, "repeat")
            if not heard.startswith("One moment"):
                break
        assert "where does it go" in heard, heard
        assert moves(tmp_path) == 1  # the move, saved once; "repeat" took nothing
        assert "where does it go" in say(port, "repeat")
    finally:
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors


def test_a_game_that_cannot_start_is_explained_and_the_service_goes_on(tmp_path):
    """Settings are all checked as the service starts; a rule that needs the table (a first
    Slider by name) can only be refused when the players are known."""
    table = Service(tmp_path, "--no-zeroconf", config='input = "text"\n[rules.keep-it-100]\nfirst_slider = "Zed"\n')
    try:
        say(table.port, "let's play keep it 100")
        say(table.port, "two")
        refused = say(table.port, "Ana and Ben")
        assert "Sorry, I could not start that game: " in refused and "Zed isn't playing" in refused
        assert "Which game shall we play?" in say(table.port, "hello")  # the menu again
        assert "How many players" in say(table.port, "let's play zero to 100")
    finally:
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors
    assert Journal(tmp_path / "partyhost.sqlite3").sessions() == []  # nothing half-started was saved


def test_a_port_in_use_is_refused_in_one_line(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "partyhost", "serve", "--bind", "127.0.0.1", "--port", str(port), "--no-zeroconf"],
            cwd=REPO,
            timeout=60,
            env={**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path), "PARTYHOST_CONFIG": os.devnull},
            capture_output=True,
            text=True,
        )
    assert result.returncode == 2 and result.stderr.startswith("partyhost: cannot listen on 127.0.0.1:")
    assert "Traceback" not in result.stderr


def test_bound_to_loopback_the_service_says_so_and_announces_nothing(service):
    """127.0.0.1 reaches this machine only: the service prints one line saying it is not
    announced, and a browser such as Home Assistant's finds nothing on its port (announced
    on a LAN address it would be found: tests/test_discovery.py)."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    from partyhost.discovery import SERVICE_TYPE

    async def discover():
        zeroconf = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
        names: list[str] = []
        browser = AsyncServiceBrowser(
            zeroconf.zeroconf,
            SERVICE_TYPE,
            handlers=[
                lambda zeroconf, service_type, name, state_change: (
                    names.append(name) if state_change is ServiceStateChange.Added else None
                )
            ],
        )
        try:
            await asyncio.sleep(3)  # an announcement comes within a second or two of the start
            found = []
            for name in names:
                info = AsyncServiceInfo(SERVICE_TYPE, name)
                if await info.async_request(zeroconf.zeroconf, 3000):
                    found.append((name, info.port))
            return found
        finally:
            await browser.async_cancel()
            await zeroconf.async_close()

    assert not [found for found in asyncio.run(discover()) if found[1] == service.port]
    told = [line for line in service.output if "announce" in line]
    assert told == ["partyhost: not announced: bound to loopback (127.0.0.1), which only this machine can reach\n"]


# ---- the port is open to the network: idle, slow, many and malformed connections (issue 29) ----


def held_open(port: int, count: int, source: str = "127.0.0.1", first: bytes = b"") -> list[socket.socket]:
    """`count` connections from `source` (any 127.x.y.z is this machine), each having sent `first`."""
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        if first:
            sock.sendall(first)
        held.append(sock)
    return held


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes the connection within `within` seconds (nothing else is sent)."""
    sock.settimeout(within)
    try:
        return sock.recv(4096) == b""
    except TimeoutError:
        return False
    except ConnectionError:
        return True


def answer_within(port: int, text: str, seconds: float) -> str:
    async def ask():
        return await asyncio.wait_for(send(port, Transcript(text, context={"conversation_id": "t"}).event()), seconds)

    return Handled.from_event(asyncio.run(ask())).text


def _files_128():
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))


def test_a_player_is_served_while_300_idle_connections_are_held(tmp_path):
    """Under a 128-file limit: 150 idle connections from one address and one each from 150 others;
    a player's words are still answered, and the log says so in a few lines, not thousands."""
    table = Service(tmp_path, "--no-zeroconf", preexec_fn=_files_128)
    held = []
    try:
        held += held_open(table.port, 150)
        for n in range(150):
            held += held_open(table.port, 1, source=f"127.0.{1 + n // 200}.{2 + n % 200}")
        assert "Which game shall we play" in answer_within(table.port, "hello", 20)
        assert "How many players" in answer_within(table.port, "let's play keep it 100", 20)
    finally:
        for sock in held:
            sock.close()
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors
    assert len(errors.splitlines()) < 20, errors[-3000:]


def trickle(sock: socket.socket) -> None:
    """A byte every half second until the server closes the connection."""
    try:
        for _ in range(40):
            time.sleep(0.5)
            sock.send(b"t")
    except OSError:
        pass


def test_idle_and_slow_connections_are_closed(tmp_path):
    table = Service(tmp_path, "--no-zeroconf")
    try:
        [idle] = held_open(table.port, 1)
        [slow] = held_open(table.port, 1, first=b'{"type": "transcript", "da')
        sender = threading.Thread(target=trickle, args=(slow,), daemon=True)
        sender.start()  # a byte every half second, never a whole event
        assert closed_by_server(idle, 20) and closed_by_server(slow, 20)
        assert "Which game shall we play" in answer_within(table.port, "hello", 20)
    finally:
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors


def test_one_address_keeps_at_most_eight_connections_and_the_newest_is_served(tmp_path):
    table = Service(tmp_path, "--no-zeroconf")
    try:
        held = held_open(table.port, 20)
        oldest = [sock for sock in held[:12] if closed_by_server(sock, 20)]  # as the server takes the newer ones
        still_open = [sock for sock in held if sock not in oldest and not closed_by_server(sock, 0.2)]
        assert len(still_open) == 8 and still_open == held[-8:]  # the oldest idle ones were closed
        assert "Which game shall we play" in answer_within(table.port, "hello", 20)
    finally:
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors


HOSTILE = [
    b'{"type": "transcript", "data": ' + b"[" * 60_000 + b"]" * 60_000 + b"}\n",  # nested 60,000 deep
    b'{"type": "transcript", "data": {"text": ' + b"[" * 40 + b"]" * 40 + b"}}\n",
    b'{"type": "transcript", "data_length": 1000000000}\n',  # a gigabyte announced
    b'{"type": "audio-chunk", "payload_length": 99999999}\n',
    b"x" * 200_000,
]  # no end of line
"""What each is refused for: tests/test_wire.py."""


def test_oversized_or_deeply_nested_events_drop_that_connection_quietly(tmp_path):
    table = Service(tmp_path, "--no-zeroconf")
    try:
        for raw in HOSTILE:
            [hostile] = held_open(table.port, 1)
            hostile.sendall(raw)
            assert closed_by_server(hostile, 5), raw[:60]  # at once, not waiting for the bytes announced
        assert "Which game shall we play" in answer_within(table.port, "hello", 20)
    finally:
        code, errors = table.stop()
    assert code == 0 and "Traceback" not in errors
    [line] = [line for line in errors.splitlines() if "connection" in line]  # the rest within 10 s: counted
    assert line == "dropped a connection from 127.0.0.1 that sent an event header longer than 8192 bytes"


def test_serving_with_no_saved_game_starts_the_menu_without_sounding_like_an_error(tmp_path, capsys):
    """No unfinished game is the usual start of `serve`: it says so plainly, and the menu follows."""
    from partyhost.conversation import Conversation
    from partyhost.games_folder import GamesFolder, Place
    from partyhost.served_games import play_games

    conversation = Conversation(show_private=False)
    folder = GamesFolder(Place(tmp_path / "data"), tell=lambda text: None)
    started = []

    def play(setup, choice):
        started.append(setup.game)
        conversation.close()

    folder.play = play  # the menu itself is tested elsewhere
    play_games(conversation, folder)
    assert started == [None]
    err = capsys.readouterr().err
    assert err == "partyhost: no unfinished game to continue; a new one starts from the menu\n"


# ---- one household's busy clients and another's player (issue 58, item 4) ----------------


class BusyClients:
    """`per_address` connections from each of `addresses`, each sending transcripts back to back
    (one always waiting behind the one being answered, so the connection is never idle), opened
    again a moment after the service drops one; in a thread of their own."""

    def __init__(self, port: int, addresses: list[str], per_address: int):
        self.port, self.wanted = port, [a for a in addresses for _ in range(per_address)]
        self.answered = 0
        self._ready = threading.Event()
        self._thread = threading.Thread(target=asyncio.run, args=(self._all(),), daemon=True)

    def __enter__(self) -> BusyClients:
        self._thread.start()
        assert self._ready.wait(30)
        return self

    def __exit__(self, *_exc) -> None:
        self._stopping.set()
        self._thread.join(timeout=30)

    async def _all(self) -> None:
        self._stopping = threading.Event()
        clients = [asyncio.create_task(self._client(address)) for address in self.wanted]
        while self.answered < len(self.wanted):  # each has had an answer: all connected and busy
            await asyncio.sleep(0.05)
        self._ready.set()
        while not self._stopping.is_set():
            await asyncio.sleep(0.05)
        for client in clients:
            client.cancel()
        await asyncio.gather(*clients, return_exceptions=True)

    async def _client(self, address: str) -> None:
        words = Transcript("score", context={"conversation_id": "busy"}).event()
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(address, 0))
                try:
                    await async_write_event(words, writer)
                    while True:
                        await async_write_event(words, writer)
                        if await async_read_event(reader) is None:
                            break
                        self.answered += 1
                finally:
                    writer.close()
            except OSError:
                pass
            await asyncio.sleep(0.1)


def test_64_busy_clients_from_8_addresses_never_turn_away_a_player_from_another(tmp_path):
    """A fair share per address, and room kept for an address with no connection: one
    household's 64 busy connections took every place, and a player was reset 4 of 10 times
    (here 5 of 30 before, in three runs of ten: a player got in only where a busy connection
    was between two requests, so 30 tries, not 10). The log says so once a LOG_EVERY_S, however
    long a loaded machine takes."""
    started = time.monotonic()
    table = Service(tmp_path, "--no-zeroconf")
    try:
        with BusyClients(table.port, [f"127.0.2.{n}" for n in range(1, 9)], per_address=8):
            answered = []
            for _ in range(30):
                try:
                    answer = asyncio.run(asyncio.wait_for(send_from("127.0.3.1", table.port, "hello"), 10))
                    answered.append(
                        answer is not None and (Handled.is_type(answer.type) or NotHandled.is_type(answer.type))
                    )
                except (OSError, asyncio.TimeoutError) as error:
                    answered.append(repr(error))
    finally:
        code, errors = table.stop()
    assert answered == [True] * 30, (answered, errors[-3000:])
    assert code == 0 and "Traceback" not in errors
    took = time.monotonic() - started  # 5 lines, and one more a LOG_EVERY_S past the usual 30 s
    assert len(errors.splitlines()) <= max(5, 2 + took // LOG_EVERY_S), (took, errors[-3000:])


async def send_from(address: str, port: int, text: str) -> Event | None:
    """The answer to one transcript sent on a connection of its own from `address`."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        await async_write_event(Transcript(text, context={"conversation_id": "player"}).event(), writer)
        return await async_read_event(reader)
    finally:
        writer.close()
