"""The robustness probe of issue 20, repeated: prints the figures docs/robustness.md reports.

    python scripts/probe_robustness.py            (run from the repository; about two minutes)

1. concurrent resume: two `partyhost resume` of one game started together, 10 times;
2. journal damage: each kind of tests/test_journal_damage.py done to a copy of a real
   journal, then `sessions`, `sessions --check`, and `resume` of the other game, as processes;
3. fuzz: 10,000 seeded lines in-process (tests/fuzz_input.py) and 20 `partyhost play`
   processes fed 500 fuzzed lines each;
4. settings: the 24 bad settings of tests/test_settings_checked.py, each as a process;
5. phones: nested JSON, 300 slowloris connections on 127.0.0.1, the banner, the join lockout.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from fuzz_input import configurations, fuzz_lines, run_fuzz  # noqa: E402
from host.journal import Journal  # noqa: E402
from test_journal_damage import CENTURION, FILE_DAMAGE, KEEP_IT_100, ROW_DAMAGE, SCRIPT  # noqa: E402
from test_settings_checked import BAD_SETTINGS  # noqa: E402

TEXT = ["--input", "text", "--output", "text"]


def cli(args, data: Path, stdin: str = "", config: Path | None = None, **kwargs):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data),
           "PARTYHOST_CONFIG": str(config or data / "none.toml")}
    return subprocess.run([sys.executable, "-m", "partyhost", *args], cwd=REPO, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300, **kwargs)


def popen(args, data: Path):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": str(data / "none.toml")}
    return subprocess.Popen([sys.executable, "-m", "partyhost", *args], cwd=REPO, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def concurrent_resume(work: Path, trials: int = 10) -> dict:
    refused = both = tracebacks = 0
    for n in range(trials):
        data = work / f"resume-{n}"
        cli(CENTURION, data, "\n".join(SCRIPT[:4]) + "\n")
        pair = [popen(["resume", *TEXT], data), popen(["resume", *TEXT], data)]
        time.sleep(4)                      # both have opened the journal and asked for the lock
        results = [p.communicate("score\n", timeout=120) for p in pair]
        codes = sorted(p.returncode for p in pair)
        tracebacks += sum("Traceback" in err for _, err in results)
        if codes == [0, 2] and any("is already being played by process" in err for _, err in results):
            refused += 1
        elif codes == [0, 0]:
            both += 1
    return {"trials": trials, "second refused": refused, "both played": both, "tracebacks": tracebacks}


def journal_damage(work: Path) -> dict:
    base = work / "damage-base"
    cli(CENTURION, base, "\n".join(SCRIPT[:6]) + "\n")
    cli(KEEP_IT_100, base, "score\n")
    journal = Journal(base / "partyhost.sqlite3")
    by_game = {r.game: r.id for r in journal.sessions()}
    journal.close()
    broken_id, kept_id = by_game["centurion"], by_game["keep-it-100"]
    rows = []
    for kind, damage in {**ROW_DAMAGE, **FILE_DAMAGE}.items():
        data = work / f"damage-{len(rows)}"
        shutil.copytree(base, data, ignore=shutil.ignore_patterns("locks"))
        damage(data / "partyhost.sqlite3", broken_id)
        runs = [cli(["sessions"], data), cli(["sessions", "--check"], data), cli(["resume", broken_id, *TEXT], data),
                cli(["resume", kept_id, *TEXT], data, "score\n")]
        tracebacks = sum("Traceback" in r.stderr + r.stdout for r in runs)
        other_resumed = runs[3].returncode == 0 and "Welcome back" in runs[3].stdout
        told = ("unresumable" in runs[1].stdout or "damaged" in runs[0].stderr)
        set_aside = any(p.name.startswith("partyhost.sqlite3.damaged-") for p in data.iterdir())
        rows.append({"kind": kind, "tracebacks": tracebacks, "reported": told,
                     "other game resumed": other_resumed, "database set aside": set_aside})
    return {"kinds": len(rows), "tracebacks": sum(r["tracebacks"] for r in rows),
            "reported": sum(r["reported"] for r in rows),
            "other game resumed (row damage)": sum(r["other game resumed"] for r in rows if r["kind"] in ROW_DAMAGE),
            "row damage kinds": len(ROW_DAMAGE),
            "set aside and replaced (file damage)": sum(r["database set aside"] for r in rows
                                                        if r["kind"] in FILE_DAMAGE),
            "file damage kinds": len(FILE_DAMAGE), "rows": rows}


def fuzz(work: Path) -> dict:
    started = time.monotonic()
    folder = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    result = run_fuzz(20261203, 10_000, folder)
    shutil.rmtree(folder)
    in_process = {"lines": result.lines, "games": result.games, "tracebacks": len(result.failures),
                  "slowest line s": round(result.slowest_s, 2), "wall s": round(time.monotonic() - started, 1)}
    configs = configurations()
    died = 0
    for n in range(20):
        config = configs[n % len(configs)]
        lines = fuzz_lines(1000 + n, 500)
        result = cli(["play", config.game, "--mode", config.mode, "--deal", config.deal,
                      "--players", ",".join(config.players), "--seed", str(n), *TEXT],
                     work / f"fuzz-{n}", "\n".join(lines) + "\n")
        died += result.returncode != 0 or "Traceback" in result.stderr
    return {"in process": in_process, "processes": 20, "lines each": 500, "processes died": died}


def bad_settings(work: Path) -> dict:
    clear = 0
    for n, (text, message) in enumerate(BAD_SETTINGS):
        data = work / f"settings-{n}"
        data.mkdir()
        config = data / "config.toml"
        config.write_text(text + "\n")
        result = cli(["play", "centurion", "--players", "Ana,Ben", *TEXT], data, config=config)
        lines = result.stderr.strip().splitlines()
        if (result.returncode == 2 and len(lines) == 1 and message in lines[0]
                and not (data / "partyhost.sqlite3").exists()):
            clear += 1
    return {"bad settings": len(BAD_SETTINGS), "one clear line and exit 2, nothing saved": clear}


def phones(work: Path) -> dict:
    from phone_game import CENTURION as OPTIONS, LiveGame
    from partyhost.phones.seats import SeatBook, SeatRefused
    import aiohttp
    (work / "phones").mkdir()
    live = LiveGame("centurion", OPTIONS, work / "phones").start()
    port, token = live.table.address.port, live.token("Ana")
    nested = ("[" * 8000 + "]" * 8000).encode()
    statuses = []
    for path in ("press", "mark"):
        req = urllib.request.Request(f"{live.base}/api/seat/Ana/{path}", data=nested,
                                     headers={"X-Seat-Token": token})
        try:
            statuses.append(urllib.request.urlopen(req, timeout=10).status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)

    async def socket_nested():
        async with aiohttp.ClientSession() as client:
            async with client.ws_connect(f"{live.base}/ws/Ana") as ws:
                await ws.send_json({"token": token})
                await ws.receive(timeout=5)
                await ws.send_str(nested.decode())
                answer = await ws.receive(timeout=5)
                return json.loads(answer.data), ws.closed
    ws_answer, ws_closed = asyncio.run(socket_nested())

    slow = []
    for _ in range(300):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        sock.setblocking(False)
        slow.append(sock)
    started, closed_at = time.monotonic(), {}
    while len(closed_at) < len(slow) and time.monotonic() - started < 30:
        for i, sock in enumerate(slow):
            if i in closed_at:
                continue
            try:
                sock.sendall(b"X")
                if sock.recv(4096) == b"":
                    closed_at[i] = time.monotonic() - started
            except BlockingIOError:
                pass
            except OSError:
                closed_at[i] = time.monotonic() - started
        time.sleep(0.5)
    for sock in slow:
        sock.close()
    with urllib.request.urlopen(live.base + "/", timeout=10) as answer:
        banner = answer.headers.get("Server")
    live.finish()

    now = [0.0]
    seats = SeatBook(code="1234", tokens={"Ana": "a" * 32}, clock=lambda: now[0])
    for _ in range(40):
        try:
            seats.join("0000", "Ana", "10.0.0.5")
        except SeatRefused:
            pass
        now[0] += 1.0
    right_refused_at_once = right_joined_after_wait = False
    try:
        seats.join("1234", "Ana", "10.0.0.5")
    except SeatRefused as refused:
        right_refused_at_once = refused.status == 429
    now[0] += seats.wait_s("10.0.0.5")
    right_joined_after_wait = seats.join("1234", "Ana", "10.0.0.5") == "a" * 32
    return {"nested JSON press/mark": statuses, "nested JSON websocket": ws_answer,
            "websocket still open": not ws_closed,
            "slowloris connections": len(slow), "closed by the server": len(closed_at),
            "closed after s (min, max)": [round(min(closed_at.values()), 1), round(max(closed_at.values()), 1)]
            if closed_at else None,
            "Server header": banner,
            "lockout: right code refused during the wait": right_refused_at_once,
            "lockout: right code joins after the wait": right_joined_after_wait}


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for name, probe in (("concurrent resume", concurrent_resume), ("journal damage", journal_damage),
                            ("fuzz", fuzz), ("settings", bad_settings), ("phones", phones)):
            started = time.monotonic()
            result = probe(work)
            print(json.dumps({"probe": name, "seconds": round(time.monotonic() - started, 1), **result}),
                  flush=True)


if __name__ == "__main__":
    main()
