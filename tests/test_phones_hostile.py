"""The phone server against hostile requests: 4xx and one short log line, timeouts, no banner.

Every test talks to the real server of a running game on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest
from phone_game import LiveGame, running_centurion

from partyhost.phones.server import REQUEST_TIMEOUT_S, SERVER_NAME

NESTED = "[" * 8000 + "]" * 8000


@pytest.fixture
def live(tmp_path: Path):
    yield from running_centurion(tmp_path)


@pytest.fixture
def logs(caplog):
    caplog.set_level(logging.DEBUG)
    return caplog


def request(url: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, data=data, headers=headers or {}), timeout=10
        ) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def server_lines(logs) -> list[logging.LogRecord]:
    """What the server logged at INFO and above (what the host's terminal shows)."""
    return [r for r in logs.records if r.name.startswith(("aiohttp", "partyhost.phones")) and r.levelno >= logging.INFO]


def assert_short(records: list[logging.LogRecord]) -> None:
    for record in records:
        assert record.exc_info is None and "\n" not in record.getMessage()
        assert len(record.getMessage()) < 300


def raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        return answer


def test_nested_json_on_press_and_mark_is_a_400_with_no_traceback(live: LiveGame, logs):
    ana = live.token("Ana")
    for path in ("press", "mark"):
        status, _, body = request(
            f"{live.base}/api/seat/Ana/{path}",
            NESTED.encode(),
            {"X-Seat-Token": ana, "Content-Type": "application/json"},
        )
        assert status == 400 and body == "Send JSON."
    for data in (b"\xff\xfe{", b'{"version": 1e999999, "action": ' + b"{" * 3000 + b"}"):
        status, _, _ = request(f"{live.base}/api/seat/Ana/press", data, {"X-Seat-Token": ana})
        assert status in (400, 409)
    assert len(server_lines(logs)) <= 4
    assert_short(server_lines(logs))
    assert live.running


def test_nested_json_on_the_websocket_is_answered_and_the_socket_stays(live: LiveGame, logs):
    async def talk() -> tuple[list, int | None]:
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(f"{live.base}/ws/Ana") as ws:
                await ws.send_str(NESTED)  # as the token message
                await ws.receive(timeout=5)
                assert not ws.closed or ws.close_code == 4403
            async with client.ws_connect(f"{live.base}/ws/Ana") as ws:
                await ws.send_json({"token": live.token("Ana")})
                await ws.receive(timeout=5)  # the page
                await ws.send_str(NESTED)
                answer = await ws.receive(timeout=5)
                await ws.send_bytes(b"\xff" * 100)
                await ws.send_str('{"press": ' + "[" * 5000 + "]" * 5000 + "}")
                second = await ws.receive(timeout=5)
                closed = ws.closed
                await ws.close()
                return [answer.data, second.data], closed

    (answer, second), closed = asyncio.run(talk())
    assert json.loads(answer) == {"ok": False, "reason": "Send JSON."}
    assert json.loads(second) == {"ok": False, "reason": "Send JSON."} and not closed
    assert_short(server_lines(logs))


def test_malformed_requests_get_a_4xx_and_at_most_one_short_line_each(live: LiveGame, logs):
    port = live.table.address.port
    broken = [
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Long: " + b"b" * 20000 + b"\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /join HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 9\r\n\r\ncode=%ff%",
        b"POST /join HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=zz\r\n"
        b"Content-Length: 18\r\n\r\n--zz\r\nbroken\r\n\r\n\r\n",
        b"GET /seat/%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40,  # a TLS hello
    ]
    for data in broken:
        before = len(server_lines(logs))
        answer = raw(port, data)
        assert answer == b"" or answer.split(b" ")[1][:1] == b"4", answer[:200]
        assert len(server_lines(logs)) - before <= 1
    assert_short(server_lines(logs))
    assert request(live.base + "/")[0] == 200


def test_no_server_software_or_version_is_named(live: LiveGame):
    for path in ("/", "/seat/Ana", "/static/style.css", "/api/seat/Ana", "/nowhere"):
        _, headers, _ = request(live.base + path)
        assert headers.get("Server") == SERVER_NAME, path
    answer = raw(live.table.address.port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").decode()
    assert f"Server: {SERVER_NAME}\r\n" in answer and "aiohttp" not in answer and "Python" not in answer


@pytest.mark.slow
def test_slow_headers_slow_bodies_and_silence_are_cut_off(live: LiveGame):
    port = live.table.address.port
    slow = []
    for i in range(30):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 3 == 0:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # headers, slowly
        elif i % 3 == 1:
            sock.sendall(
                b"POST /api/seat/Ana/press HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n"
                b"X-Seat-Token: " + live.token("Ana").encode() + b"\r\n\r\n{"
            )  # a body, slowly
        slow.append(sock)  # i % 3 == 2: nothing
    started = time.monotonic()
    open_ones = list(slow)
    while open_ones and time.monotonic() - started < REQUEST_TIMEOUT_S + 5:
        for sock in list(open_ones):
            try:
                sock.sendall(b"X")  # one more byte every half second
                sock.settimeout(0.01)
                if sock.recv(4096) is not None:
                    open_ones.remove(sock)  # answered (408) or closed by the server
            except (TimeoutError, BlockingIOError):
                pass
            except OSError:
                open_ones.remove(sock)
        assert request(live.base + "/")[0] == 200  # the server answers others meanwhile
        time.sleep(0.5)
    for sock in slow:
        sock.close()
    assert open_ones == []
    assert time.monotonic() - started >= REQUEST_TIMEOUT_S - 1


def test_the_database_holding_seat_tokens_and_the_event_log_are_owner_only(live: LiveGame):
    files = [*live.folder.glob("db.sqlite3*"), *live.folder.glob("events-*.jsonl")]
    assert len(files) >= 2
    for path in files:
        assert path.stat().st_mode & 0o777 == 0o600, path
