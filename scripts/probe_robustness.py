"""The robustness probes of issues 20 and 29: prints the figures docs/robustness.md reports.

    python scripts/probe_robustness.py [PROBE ...]   (from the repository; about six minutes for all)
    PROBE: concurrent-resume, journal-damage, fuzz, settings, phones, serve-crash, full-disk,
           serve-port, inputs, stalled-servers, write-ahead-log

Everything runs on this machine: processes, files in a scratch folder, servers on
127.0.0.1 only; each process has a timeout, and the ones fed endless input a 4 GB
address-space cap. Each probe prints one JSON line, and a table of all comes last.

Issue 20:
1. concurrent resume: two `partyhost resume` of one game started together, 10 times;
2. journal damage: each kind of tests/test_journal_damage.py done to a copy of a real
   journal, then `sessions`, `sessions --check`, and `resume` of the other game, as processes;
3. fuzz: 10,000 seeded lines in-process (tests/fuzz_input.py) and 20 `partyhost play`
   processes fed 500 fuzzed lines each;
4. settings: the 24 bad settings of tests/test_settings_checked.py, each as a process;
5. phones: nested JSON, 300 slowloris connections on 127.0.0.1, the banner, the join lockout.
Issue 29:
6. serve crash: `partyhost serve`, five transcripts at once for 50 rounds (across games, the
   journal read between rounds), then SIGKILL: narrated moves against journaled ones, twice;
7. full disk: the data folder on a 256 KB tmpfs (needs root to mount; else skipped), a game
   played until it fills, then `sessions`, `resume` and `play` on the full disk;
8. serve port: 350 idle connections held for 30 s; 300 idle (150 addresses) under a 128-file
   limit while a player plays; the hostile events of tests/test_wyoming_service.py;
9. inputs: /dev/zero and a FIFO as the settings file, /dev/full and /tmp as the event log,
   --rules of 5,000 digits and of 100,000 brackets, a settings value nested 500 deep, and
   Ctrl-C at 32 moments of the first 0.3 s (the interpreter's own start-up included), through
   `python -m partyhost` and through scripts/run;
10. stalled servers: a recogniser and a voice that send an event a second for ever;
11. write-ahead log: a journal killed with 29 moves in its -wal, then the -wal deleted, cut
    or sprinkled with 200 random bytes; and a 0-byte journal.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import shutil
import signal
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
from test_journal_damage import (  # noqa: E402
    CENTURION,
    FILE_DAMAGE,
    KEEP_IT_100,
    ROW_DAMAGE,
    SCRIPT,  # noqa: E402
    WAL_DAMAGE,
    crashed_journal,
)
from test_settings_checked import BAD_SETTINGS  # noqa: E402

from host.journal import Journal  # noqa: E402

TEXT = ["--input", "text", "--output", "text"]


def cli(args, data: Path, stdin: str = "", config: Path | None = None, **kwargs):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": str(config or os.devnull)}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


def popen(args, data: Path):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": os.devnull}
    return subprocess.Popen(
        [sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def concurrent_resume(work: Path, trials: int = 10) -> dict:
    refused = both = tracebacks = 0
    for n in range(trials):
        data = work / f"resume-{n}"
        cli(CENTURION, data, "\n".join(SCRIPT[:4]) + "\n")
        pair = [popen(["resume", *TEXT], data), popen(["resume", *TEXT], data)]
        time.sleep(4)  # both have opened the journal and asked for the lock
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
        runs = [
            cli(["sessions"], data),
            cli(["sessions", "--check"], data),
            cli(["resume", broken_id, *TEXT], data),
            cli(["resume", kept_id, *TEXT], data, "score\n"),
        ]
        tracebacks = sum("Traceback" in r.stderr + r.stdout for r in runs)
        other_resumed = runs[3].returncode == 0 and "Welcome back" in runs[3].stdout
        told = "unresumable" in runs[1].stdout or "damaged" in runs[0].stderr
        set_aside = any(p.name.startswith("partyhost.sqlite3.damaged-") for p in data.iterdir())
        rows.append(
            {
                "kind": kind,
                "tracebacks": tracebacks,
                "reported": told,
                "other game resumed": other_resumed,
                "database set aside": set_aside,
            }
        )
    return {
        "kinds": len(rows),
        "tracebacks": sum(r["tracebacks"] for r in rows),
        "reported": sum(r["reported"] for r in rows),
        "other game resumed (row damage)": sum(r["other game resumed"] for r in rows if r["kind"] in ROW_DAMAGE),
        "row damage kinds": len(ROW_DAMAGE),
        "set aside and replaced (file damage)": sum(r["database set aside"] for r in rows if r["kind"] in FILE_DAMAGE),
        "file damage kinds": len(FILE_DAMAGE),
        "rows": rows,
    }


def fuzz(work: Path) -> dict:
    started = time.monotonic()
    folder = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    result = run_fuzz(20261203, 10_000, folder)
    shutil.rmtree(folder)
    in_process = {
        "lines": result.lines,
        "games": result.games,
        "tracebacks": len(result.failures),
        "slowest line s": round(result.slowest_s, 2),
        "wall s": round(time.monotonic() - started, 1),
    }
    configs = configurations()
    died = 0
    for n in range(20):
        config = configs[n % len(configs)]
        lines = fuzz_lines(1000 + n, 500)
        result = cli(
            [
                "play",
                config.game,
                "--mode",
                config.mode,
                "--deal",
                config.deal,
                "--players",
                ",".join(config.players),
                "--seed",
                str(n),
                *TEXT,
            ],
            work / f"fuzz-{n}",
            "\n".join(lines) + "\n",
        )
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
        if (
            result.returncode == 2
            and len(lines) == 1
            and message in lines[0]
            and not (data / "partyhost.sqlite3").exists()
        ):
            clear += 1
    return {"bad settings": len(BAD_SETTINGS), "one clear line and exit 2, nothing saved": clear}


def phones(work: Path) -> dict:
    import aiohttp
    from phone_game import CENTURION as OPTIONS
    from phone_game import LiveGame

    from partyhost.phones.seats import SeatBook, SeatRefused

    (work / "phones").mkdir()
    live = LiveGame("centurion", OPTIONS, work / "phones").start()
    port, token = live.table.address.port, live.token("Ana")
    nested = ("[" * 8000 + "]" * 8000).encode()
    statuses = []
    for path in ("press", "mark"):
        req = urllib.request.Request(f"{live.base}/api/seat/Ana/{path}", data=nested, headers={"X-Seat-Token": token})
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
    return {
        "nested JSON press/mark": statuses,
        "nested JSON websocket": ws_answer,
        "websocket still open": not ws_closed,
        "slowloris connections": len(slow),
        "closed by the server": len(closed_at),
        "closed after s (min, max)": [round(min(closed_at.values()), 1), round(max(closed_at.values()), 1)]
        if closed_at
        else None,
        "Server header": banner,
        "lockout: right code refused during the wait": right_refused_at_once,
        "lockout: right code joins after the wait": right_joined_after_wait,
    }


def serve_crash(work: Path, runs: int = 2, rounds: int = 50) -> dict:
    from test_wyoming_service import Service, at_once, journaled_moves, reply_to, say

    results = []
    for run in range(runs):
        data = work / f"serve-crash-{run}"
        data.mkdir()
        table = Service(data, "--no-zeroconf")
        narrated, question = 0, "Which game shall we play?"
        for _ in range(rounds):
            while "Which game shall we play" in question or "How many players" in question:
                question = say(table.port, reply_to(question))
            answers = at_once(table.port, ("score", reply_to(question), "whose turn", "score", "whose turn"))
            narrated += not answers[1].startswith("Sorry")
            journaled_moves(data)  # another process reads, and closes its connection
            question = say(table.port, "")
        table.process.send_signal(signal.SIGKILL)
        table.process.wait(30)
        games = len(Journal(data / "partyhost.sqlite3").sessions())
        results.append({"narrated": narrated, "journaled after kill -9": journaled_moves(data), "games": games})
    return {
        "runs": runs,
        "rounds of five at once": rounds,
        "results": results,
        "narrated moves lost": sum(r["narrated"] - r["journaled after kill -9"] for r in results),
    }


def full_disk(work: Path) -> dict:
    from test_full_disk import CENTURION as GAME
    from test_full_disk import SCRIPT as LINES
    from test_full_disk import lines_taken, moves_in, played_straight

    disk = work / "disk"
    disk.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)], capture_output=True
        ).returncode
        != 0
    ):
        return {"skipped": "mounting a 256 KB tmpfs needs root"}
    try:
        game = cli(GAME, disk, LINES)
        taken = lines_taken(game.stdout)
        refused = LINES.splitlines()[taken - 1] + "\n"
        after = {
            "sessions": cli(["sessions"], disk),
            "resume": cli(["resume", *TEXT], disk, refused),
            "play": cli(["play", "centurion", "--players", "Ana,Ben", *TEXT], disk),
        }
        saved = moves_in(disk)
        lost = len(played_straight(work, taken - 1)) - len(saved)
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
    runs = [game, *after.values()]
    return {
        "game exit code": game.returncode,
        "stderr lines": len(game.stderr.splitlines()),
        "stderr": game.stderr.strip(),
        "said to the players": game.stdout.splitlines()[-1],
        "lines played before the disk was full": taken - 1,
        "moves saved": len(saved),
        "accepted moves lost": lost,
        "tracebacks": sum("Traceback" in r.stderr + r.stdout for r in runs),
        "on the full disk, exit codes": {name: r.returncode for name, r in after.items()},
    }


def _files_128() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))


def serve_port(work: Path) -> dict:
    from test_wyoming_service import HOSTILE, Service, answer_within, closed_by_server, held_open

    data = work / "serve-port"
    data.mkdir()
    table = Service(data, "--no-zeroconf")
    held = held_open(table.port, 350)
    started, closed_at = time.monotonic(), {}
    while len(closed_at) < len(held) and time.monotonic() - started < 30:
        for i, sock in enumerate(held):
            if i not in closed_at and closed_by_server(sock, 0.001):
                closed_at[i] = time.monotonic() - started
        time.sleep(0.2)
    for sock in held:
        sock.close()
    hostile_closed = 0
    for raw in HOSTILE:
        [sock] = held_open(table.port, 1)
        sock.sendall(raw)
        hostile_closed += closed_by_server(sock, 5)
        sock.close()
    _, idle_errors = table.stop()

    limited = work / "serve-128"
    limited.mkdir()
    table = Service(limited, "--no-zeroconf", preexec_fn=_files_128)
    held = held_open(table.port, 150) + [
        sock for n in range(150) for sock in held_open(table.port, 1, source=f"127.0.{1 + n // 200}.{2 + n % 200}")
    ]
    asked = time.monotonic()
    answer = answer_within(table.port, "hello", 30)
    answered_s = time.monotonic() - asked
    for sock in held:
        sock.close()
    _, limited_errors = table.stop()
    return {
        "idle connections held": 350,
        "closed by the server within 30 s": len(closed_at),
        "closed after s (min, max)": [round(min(closed_at.values()), 1), round(max(closed_at.values()), 1)]
        if closed_at
        else None,
        "hostile events": len(HOSTILE),
        "hostile connections closed at once": hostile_closed,
        "log lines (idle and hostile)": len([entry for entry in idle_errors.splitlines() if "connection" in entry]),
        "128-file limit, 300 idle (151 addresses): player answered": "Which game" in answer,
        "player's answer after s": round(answered_s, 2),
        "128-file limit: stderr lines": len(limited_errors.splitlines()),
        "tracebacks": ("Traceback" in idle_errors) + ("Traceback" in limited_errors),
    }


PEAK = (
    "import resource, subprocess, sys\n"
    "code = subprocess.run(sys.argv[1:], timeout=60).returncode\n"
    "print('peak kB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(code)\n"
)
"""Runs one process and prints the most memory it held: RUSAGE_CHILDREN of a parent of one."""


def _measured(args: list[str], data: Path, config: str | Path, stdin: str = "score\n") -> dict:
    """One `partyhost` process (4 GB cap, 60 s): exit code, its stderr, seconds, peak memory."""
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(data), "PARTYHOST_CONFIG": str(config)}

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=90,
        preexec_fn=cap,
    )
    *said, peak = done.stderr.strip().splitlines() or ["peak kB 0"]
    return {
        "exit": done.returncode,
        "lines": len(said),
        "traceback": "Traceback" in done.stderr,
        "s": round(time.monotonic() - started, 1),
        "peak MB": round(int(peak.split()[-1]) / 1024),
        "said": "\n".join(said)[:160],
    }


def inputs(work: Path) -> dict:
    game = ["play", "centurion", "--players", "Ana,Ben", *TEXT]
    (work / "inputs").mkdir()
    fifo = work / "inputs" / "config.toml"
    os.mkfifo(fifo)
    deep = work / "inputs" / "deep.toml"
    deep.write_text("[rules.keep-it-100]\nstarters = " + "[" * 500 + "]" * 500 + "\n")
    cases = {
        "PARTYHOST_CONFIG=/dev/zero": (game, "/dev/zero"),
        "settings file a FIFO": (game, fifo),
        "--events /dev/full": ([*game, "--events", "/dev/full"], "none"),
        "--events /tmp": ([*game, "--events", "/tmp"], "none"),
        "--rules hand_size= 5,000 digits": (
            ["play", "keep-it-100", "--rules", "hand_size=" + "9" * 5000, *TEXT],
            "none",
        ),
        "--rules starters= 100,000 [": (["play", "keep-it-100", "--rules", "starters=" + "[" * 100_000, *TEXT], "none"),
        "settings value nested 500 deep": (["play", "keep-it-100", *TEXT], deep),
    }
    results = {}
    for n, (name, (args, config)) in enumerate(cases.items()):
        results[name] = _measured(args, work / "inputs" / f"data-{n}", config)
    later = cli(["resume", *TEXT], work / "inputs" / "data-3")  # after --events /tmp
    ctrl_c = {}
    for launcher in ([sys.executable, "-m", "partyhost"], [str(REPO / "scripts" / "run")]):
        chance, tracebacks, own = random.Random(29), 0, 0
        for _ in range(32):
            process = subprocess.Popen(
                [*launcher, *game],
                cwd=REPO,
                text=True,
                env={
                    **os.environ,
                    "PARTYHOST_DATA_DIR": str(work / "inputs" / "ctrl-c"),
                    "PARTYHOST_CONFIG": os.devnull,
                },
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            time.sleep(chance.uniform(0, 0.3))
            process.send_signal(signal.SIGINT)
            err = process.communicate(timeout=60)[1]
            tracebacks += "Traceback" in err
            own += any(f'File "{REPO}/{package}/' in err for package in ("partyhost", "host", "voice"))
        ctrl_c[" ".join(Path(part).name for part in launcher[-2:])] = {
            "tracebacks": tracebacks,
            "in partyhost's code": own,
        }
    return {
        "cases": results,
        "resume after --events /tmp": later.stderr.strip(),
        "Ctrl-C at 32 random moments of the first 0.3 s": ctrl_c,
    }


def stalled_servers(work: Path) -> dict:
    import io

    import numpy as np
    from test_remote_voice import LocalEars, StallingServer

    from voice.remote.asr import WyomingRecognizer
    from voice.remote.notices import Notices
    from voice.remote.tts import WyomingVoice
    from voice.speaking.tts import PiperTTS

    found = {}
    server = StallingServer("asr")
    ears = WyomingRecognizer(server.address, LocalEars, Notices(io.StringIO()))
    grammar, times = ears.compile(["card one"]), []
    for _ in range(3):
        started = time.monotonic()
        ears.recognize(np.zeros(16000, dtype=np.float32), grammar)
        times.append(round(time.monotonic() - started, 1))
    found["recogniser: s per 1-s utterance"] = times
    found["recogniser: notices"] = len(ears.link.notices.posted)
    server.close()
    server = StallingServer("tts")
    voice, times = WyomingVoice(server.address, PiperTTS(), Notices(io.StringIO())), []
    for text in ("Round two.", "Ben, lower or higher?", "Scores: Ana ten."):
        started = time.monotonic()
        list(voice.synthesize(text))
        times.append(round(time.monotonic() - started, 1))
    found["voice: s per sentence"] = times
    found["voice: notices"] = len(voice.link.notices.posted)
    server.close()
    return found


def wal_damage(work: Path) -> dict:
    found = {}
    for n, (name, (damage, _)) in enumerate(WAL_DAMAGE.items()):
        (work / f"wal-{n}").mkdir()
        data = crashed_journal(work / f"wal-{n}")
        damage(data / "partyhost.sqlite3-wal")
        told = cli(["sessions"], data)
        journal = Journal(data / "partyhost.sqlite3")
        left = len(journal.accepted_actions(journal.sessions()[0].id)) if journal.sessions() else 0
        found[name] = {
            "moves left of 29": left,
            "named": "lost their latest changes" in told.stderr,
            "traceback": "Traceback" in told.stderr,
        }
    empty = work / "wal-empty"
    empty.mkdir()
    (empty / "partyhost.sqlite3").write_bytes(b"")
    os.utime(empty / "partyhost.sqlite3", (1, 1))
    told = cli(["sessions"], empty)
    found["a 0-byte journal"] = {
        "named": "the file is empty: 0 bytes" in told.stderr,
        "traceback": "Traceback" in told.stderr,
    }
    return found


PROBES = {
    "concurrent resume": concurrent_resume,
    "journal damage": journal_damage,
    "fuzz": fuzz,
    "settings": bad_settings,
    "phones": phones,
    "serve crash": serve_crash,
    "full disk": full_disk,
    "serve port": serve_port,
    "inputs": inputs,
    "stalled servers": stalled_servers,
    "write-ahead log": wal_damage,
}


def main() -> None:
    named = {name.replace(" ", "-"): name for name in PROBES}
    unknown = set(sys.argv[1:]) - set(named)
    if unknown:
        raise SystemExit(f"no probe called {', '.join(sorted(unknown))}; probes: {', '.join(named)}")
    chosen = [named[arg] for arg in sys.argv[1:]] or list(PROBES)
    table = []
    with tempfile.TemporaryDirectory() as scratch:
        for name in chosen:
            work = Path(scratch) / name.replace(" ", "-")
            work.mkdir()
            started = time.monotonic()
            result = PROBES[name](work)
            seconds = round(time.monotonic() - started, 1)
            print(json.dumps({"probe": name, "seconds": seconds, **result}), flush=True)
            table.append((name, seconds, result))
    print(f"\n| probe | seconds | result ({time.strftime('%Y-%m-%d')}) |\n|---|---|---|")
    for name, seconds, result in table:
        print(f"| {name} | {seconds} | {json.dumps(result)[:600]} |")


if __name__ == "__main__":
    main()
