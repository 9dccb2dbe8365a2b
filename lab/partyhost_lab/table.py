"""`partyhost bench table`: a simulated table plays every scripted game to its end with
the host, live, through a real Wyoming satellite; clean, in a party's noise, and with
one quiet player.

Each case of lab/scripted_games/cases.yaml is played as a user would run it: `partyhost
play ... --input wyoming://... --output wyoming://...` against wyoming-satellite 1.0.0
on 127.0.0.1 (the same venv and microphone the tests use, lab/partyhost_lab/live_satellite.py), with
the shipped settings (or `--settings FILE`). The host's speech is real Piper audio
played on the satellite's speaker; the players (lab/partyhost_lab/table_player.py) speak into
its microphone in their own voices, and know what the host said from its event log
(`--events`), not by transcribing the speaker. A player's line is said at VOICE_DBFS
(its loud samples, voice/speaking/mixing.py), one voice per player:

- clean: a faint room floor;
- party: a party's continuous noise PARTY_SNR_DB below the voices, looped under
  everything, the host's turns included: for the held-apart table, talk, a kitchen
  and music that no test or threshold uses (lab/partyhost_lab/held_apart_room.py); for
  the tuning table, the party the other benches know (chatter of people's recordings,
  the dishes and music of ../shared/audio: chatter.party_noise);
- lively: a lively table, its talk closer (two people near by, most of the room's power)
  and LIVELY_SNR_DB below the voices, made the same two ways (LIVELY in chatter.py and
  held_apart_room.py);
- quiet: the first player speaks at QUIET_DBFS (the others as usual), in a clean room.

The figures are for the held-apart table (HELD_APART): voices nothing else in the
project speaks with (accents and variants of espeak-ng that no bench, fixture or test
uses, Piper at speeds no bench uses), in a party room no test has heard. `--voices
tuning` plays the table to tune with.

Per case and condition: completed as the typed game (every score, reveal and the end
the same), moves (script lines the host took as typed), right first time (of the lines
with something to take or refuse: not "...", nor a line the typed game did not
understand), "Did you mean" questions, repeats per move, errors per 100 lines (a wrong
move taken, a command taken instead of the line's move, a refusal for another reason
than the typed game's), seconds per move
(the end of the player's first saying of a line to the host's next question, p50 and
p95) and host lines per move (its sentences from the first question on).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from host.errors import PartyhostError
from partyhost.bench.manifest import percentile
from partyhost.config import Settings, load_settings
from partyhost_lab.chatter import ChatterError, party_noise
from partyhost_lab.held_apart_room import held_apart_party
from partyhost_lab.live_satellite import SATELLITE_VENV, RunningSatellite, SatelliteUnavailable, satellite_venv
from partyhost_lab.live_satellite import stop as stop_process
from partyhost_lab.places import CHECKOUT
from partyhost_lab.scripted import ScriptCase, load_cases, outcomes
from partyhost_lab.synthetic_speech import FixtureError, Voices
from partyhost_lab.table_player import YOUR_ANSWER, GameRecord, LineRecord, Table, typed_lines
from partyhost_lab.table_speech import Speech
from voice.speaking.mixing import speech_level_dbfs

CONDITIONS = ("clean", "party", "lively", "quiet")
VOICE_DBFS = -23.0
"""A player across the table, as a laptop's microphone hears one (speech level)."""
QUIET_DBFS = -35.0
"""The quiet player."""
ECHO_DBFS = -26.0
"""The host's own speech as the microphone hears it (its loud samples): a table's
microphone hears the host's speaker about as loud as a player across the table, a
little under (the speaker is nearer, but faces the room)."""
BARGE_IN = 0.2
"""With --barge-in, the share of lines a player begins while the host is still finishing
its question. Not on by default yet: the one live check (2026-12-05) stalled on a line
begun as the host spoke, and whether the host or the table's reading of its silence
(HostSpeech, which assumes it sees each sentence before its audio has all played) was
at fault is not known."""
HOST_SAMPLE = "Team Ana, which card: 1, 2 or 3?"
"""A sentence of the host's, to measure the level its speaker plays at."""
PARTY_SNR_DB = 10.0
LIVELY_SNR_DB = 5.0
ROOM_LOOP_S = 180.0
"""The party's noise is this long, played in a loop."""
HELD_APART = ("espeak-en-gb-x-gbcwmd", "piper-0.75", "espeak-en-gb-x-rp+aunty", "piper-1.35", "espeak-en-029+m5")
"""Voices nothing else in the project speaks with (docs/table-bench.md says how each was
checked). Issue 40 replaced two: en-us+f4 tuned the wake word's pitch shift and Piper at
0.95 is in the wake bench."""
TUNING = ("piper-1", "espeak-en-gb", "piper-1.15", "espeak-en-us+m3", "espeak-en-gb-scotland")
VOICE_TABLES: dict[str, tuple[str, ...]] = {"held-apart": HELD_APART, "tuning": TUNING}
QUICK_CASES = ("zero-to-100-basic.txt",)
"""--quick: the shortest script (15 lines), in every condition, the conditions played at
the same time (a host for each on the machine at once: its timings are not the full run's)."""
TRIES = 6


class TableBenchError(PartyhostError):
    """The bench cannot run as asked; the message says why."""


@dataclass
class CaseResult:
    """One case played in one condition."""

    script: str
    game: str
    mode: str  # and "teams" when the players play in teams
    condition: str
    voices: dict[str, str]
    completed: bool
    record: GameRecord
    typed_lines: int
    run_s: float


@dataclass(frozen=True)
class Figures:
    """What the table reports for a set of games."""

    games: int
    completed: int
    lines: int
    moves: int
    right_first: int
    asked: int
    repeats_per_move: float
    wrong_per_100: float
    p50_s: float
    p95_s: float
    host_lines_per_move: float


def speaker_for(case: ScriptCase) -> Callable[[str | None], str]:
    """Who says a line: the prompt's player (a team's named member), or, where anyone
    may answer, the players in turn."""
    turns = itertools.cycle(case.players)

    def speaker(player: str | None) -> str:
        named = [name for name in case.players if player and (name == player or name in player.split())]
        return named[0] if named else next(turns)

    return speaker


def play_case(
    case: ScriptCase,
    condition: str,
    voice_table: tuple[str, ...],
    voices: Voices,
    program: Path,
    work: Path,
    settings: Path | None,
    tries: int = TRIES,
    stop: threading.Event | None = None,
    echo_gain: float | None = None,
    barge_in: float = 0.0,
    keep_heard: bool = False,
) -> CaseResult:
    """Play one case live through a fresh satellite and host; everything is stopped after.
    `echo_gain`: the microphone hears the host's speaker, scaled by this (echo_gain());
    `barge_in`: the share of lines begun while the host is finishing; `keep_heard`: the
    microphone's stream is kept (satellite/heard.raw)."""
    started = time.monotonic()
    work.mkdir(parents=True)
    speakers = {name: voice_table[i % len(voice_table)] for i, name in enumerate(case.players)}
    levels = {
        name: QUIET_DBFS if condition == "quiet" and i == 0 else VOICE_DBFS for i, name in enumerate(case.players)
    }
    lines, typed_log = typed_lines(case, work / "typed", speaker_for(case))
    speech = Speech(voices, speakers, levels)
    for line in lines:  # made before the game, so it does not slow the host
        if not line.silent:
            speech(line.speaker, line.text)
    noisy = condition in ("party", "lively")
    room = _party_room(work / "room.raw", voices, voice_table, condition == "lively") if noisy else None
    satellite = RunningSatellite(
        program, work / "satellite", room=room, echo_gain=echo_gain, keep_heard=keep_heard
    ).start()
    log = work / "events.jsonl"
    with open(work / "host.log", "w") as terminal:
        host = _start_host(case, satellite.address, log, work, settings, terminal)
        try:
            record = Table(case.game, satellite, log, host, speech, tries, stop, barge_in=barge_in).play(lines)
        finally:
            stop_process(host)
            satellite.kill()
    typed = [json.loads(text) for text in typed_log.read_text().splitlines()]
    _note_host_failure(record, host, work / "host.log")
    mode = f"{case.mode} teams" if case.teams else case.mode
    completed = _completed_as_typed(record, case, typed)
    run_s = round(time.monotonic() - started, 1)
    return CaseResult(case.script, case.game, mode, condition, speakers, completed, record, len(lines), run_s)


def _start_host(
    case: ScriptCase, address: str, log: Path, work: Path, settings: Path | None, terminal: Any
) -> subprocess.Popen:
    """`partyhost play` for the case, as a user runs it, with the satellite as its
    microphone and speaker; its own data folder and settings (`settings` copied, or none)."""
    if settings is not None:
        shutil.copy(settings, work / "config.toml")
    env = {
        **os.environ,
        "PARTYHOST_DATA_DIR": str(work / "data"),
        "PARTYHOST_CONFIG": str(work / "config.toml") if settings is not None else os.devnull,
    }
    arguments = [*case.cli_arguments(), "--input", address, "--output", address, "--events", str(log)]
    return subprocess.Popen(
        [sys.executable, "-m", "partyhost", *arguments],
        cwd=CHECKOUT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=subprocess.STDOUT,
    )


def _completed_as_typed(record: GameRecord, case: ScriptCase, typed: list[dict]) -> bool:
    """The live game ended as the typed one: the same winners, every score and reveal the same."""
    over = [e for e in record.events if e["type"] == "game_over"]
    return (
        record.stalled_at is None
        and bool(over)
        and over[-1]["winners"] == list(case.winners)
        and outcomes(record.events) == outcomes(typed)
    )


def _note_host_failure(record: GameRecord, host: subprocess.Popen, terminal: Path) -> None:
    """A host that failed, and the last lines of its terminal, in the record's error."""
    if not record.error and host.returncode not in (0, None) and record.stalled_at is None:
        record.error = f"the host exited with {host.returncode}"
    if record.error:
        said = [line for line in terminal.read_text().splitlines() if line.strip()]
        record.error += "; the host's last lines: " + " | ".join(said[-4:])


def echo_gain(voices: Voices, settings: Path | None) -> float:
    """How much the host's speech is scaled to reach the microphone at ECHO_DBFS: its
    speaker plays Piper's joe voice (as the players' Piper is made, at full volume)
    scaled by the host's volume setting."""
    volume = (load_settings(settings) if settings is not None else Settings()).volume
    with Speech._speaking:
        played = speech_level_dbfs(voices.speak("piper-1", HOST_SAMPLE) * volume)
    return round(10 ** ((ECHO_DBFS - played) / 20), 4)


def _party_room(path: Path, voices: Voices, voice_table: tuple[str, ...], lively: bool = False) -> Path:
    """The party's noise at PARTY_SNR_DB below the voices (`lively`: a lively table's at
    LIVELY_SNR_DB), as the microphone's room: the tuning table plays in the party the other
    benches and tests know, every other table in a party held apart from them
    (lab/partyhost_lab/held_apart_room.py)."""
    if voice_table == TUNING:
        made = party_noise(ROOM_LOOP_S, lively=lively)
    else:
        made = held_apart_party(voices, ROOM_LOOP_S, lively=lively)
    noise = made * 10 ** ((VOICE_DBFS - (LIVELY_SNR_DB if lively else PARTY_SNR_DB)) / 20)
    path.write_bytes(np.round(np.clip(noise, -1, 1) * 32767).astype("<i2").tobytes())
    return path


# ---- figures ---------------------------------------------------------------------

IRREVERSIBLE = "stopped by a move that could not be taken back"
WRONG_NOT_UNDONE = "stopped by a wrong move that was not undone"
NEVER_TAKEN = "stopped by a line never taken as meant"
HOST_FAILED = "stopped by the host (it ended, or did not answer)"


@dataclass(frozen=True)
class Stop:
    """Why a game stopped, at which line, and what could have saved it."""

    line: int  # from 1
    text: str
    heard: tuple[str, ...]  # the ears' last readings of it
    cause: str  # IRREVERSIBLE, WRONG_NOT_UNDONE, NEVER_TAKEN or HOST_FAILED
    saved_by: str  # "a correction", "an undo" or "nothing" (better hearing)


def stop_of(result: CaseResult) -> Stop | None:
    """The stop of a game that did not complete (None: it did, or it ended elsewhere than
    at a line). A wrong move whose undo was refused because it showed something hidden
    stopped the game for good unless a correction put it right; one that could be undone
    needed an undo; a line the host never took as meant, only better hearing."""
    record = result.record
    if record.stalled_at is None:
        return None
    line = next((r for r in record.lines if r.index == record.stalled_at), None)
    if line is None:
        return Stop(record.stalled_at + 1, "", (), HOST_FAILED, "nothing")
    refused_undo = any(e["type"] == "rejected" and e.get("reason") == "undo after a reveal" for e in record.events)
    if line.wrong_moves and refused_undo:
        cause, saved_by = IRREVERSIBLE, "a correction"
    elif line.wrong_moves:
        cause, saved_by = WRONG_NOT_UNDONE, "an undo"
    elif "did not answer" in record.error or "exited" in record.error:
        cause, saved_by = HOST_FAILED, "nothing"
    else:
        cause, saved_by = NEVER_TAKEN, "nothing"
    return Stop(line.index + 1, line.text, tuple(h for h in line.heard if h)[-3:], cause, saved_by)


def stop_rows(results: list[CaseResult]) -> list[str]:
    """Every stopped game: the line, what the ears read, why, and what could have saved it;
    then the count of games stopped by a move that could not be taken back."""
    stops = [(r, stop) for r in results if not r.completed and (stop := stop_of(r)) is not None]
    out = [
        "| game | condition | line | said | read | why it stopped | could have saved it |",
        "|---|---|---|---|---|---|---|",
    ]
    for result, stop in stops:
        read = "; ".join(f'"{h}"' for h in stop.heard)
        out.append(
            f"| {result.game} {result.mode} | {result.condition} | {stop.line} | {stop.text} | {read} | "
            f"{stop.cause} | {stop.saved_by} |"
        )
    irreversible = sum(stop.cause == IRREVERSIBLE for _, stop in stops)
    out.append(f"\n{IRREVERSIBLE}: {irreversible} of {len(results)} games")
    before = sum(before_a_reveal(r.record.events) for r in results)
    out.append(f"asked before a move that cannot be taken back: {before} in {len(results)} games")
    return out


def before_a_reveal(events: list[dict]) -> int:
    """The host's "... is that your answer?" questions: the stricter line before a move
    that shows something hidden (host/clarifying.py your_answer)."""
    return sum(e["type"] == "say" and YOUR_ANSWER.match(e.get("text", "").strip()) is not None for e in events)


def figures(results: list[CaseResult]) -> Figures:
    lines = [line for r in results for line in r.record.lines]
    moves = [line for line in lines if line.done]
    spoken = [line for line in lines if line.text != "..." and line.tries]
    seconds = [line.seconds for line in moves if line.seconds is not None]
    said = sum(_host_lines(r.record.events) for r in results)
    return Figures(
        games=len(results),
        completed=sum(r.completed for r in results),
        lines=len(lines),
        moves=len(moves),
        right_first=sum(
            line.tries == 1 and not line.asked and not line.wrong_moves and not line.errors
            for line in moves
            if line.judged_first_time
        ),
        asked=sum(len(line.asked) for line in lines),
        repeats_per_move=_ratio(sum(line.tries - 1 for line in spoken), len(spoken)),
        wrong_per_100=_ratio(100 * sum(len(line.wrong_moves) + len(line.errors) for line in lines), len(lines)),
        p50_s=round(percentile(seconds, 50), 1),
        p95_s=round(percentile(seconds, 95), 1),
        host_lines_per_move=_ratio(said, len(lines)),
    )


def _ratio(count: float, n: int) -> float:
    return round(count / n, 2) if n else 0.0


def _host_lines(events: list[dict]) -> int:
    first = next((i for i, e in enumerate(events) if e["type"] == "prompt"), len(events))
    return sum(e["type"] == "say" for e in events[first:])


HEADER = (
    "| game | script | condition | completed | moves | right first time | asked | repeats/move | "
    "wrong/100 | s/move p50 | p95 | host lines/move |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def row(result: CaseResult) -> str:
    f = figures([result])
    done = (
        "yes"
        if result.completed
        else f"no (line {result.record.stalled_at + 1})"
        if (result.record.stalled_at is not None)
        else "no"
    )
    return (
        f"| {result.game} {result.mode} | {result.script} | {result.condition} | {done} | "
        f"{f.moves}/{result.typed_lines} | {f.right_first} | {f.asked} | {f.repeats_per_move:.2f} | "
        f"{f.wrong_per_100:.1f} | {f.p50_s:.1f} | {f.p95_s:.1f} | {f.host_lines_per_move:.2f} |"
    )


def summary_rows(results: list[CaseResult]) -> list[str]:
    """Per game and condition (its scripts pooled), then per condition."""
    out = [
        "| game | condition | games completed | moves | right first time | asked | repeats/move | "
        "wrong/100 | s/move p50 | p95 | host lines/move |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    games = list(dict.fromkeys(r.game for r in results))
    for game in [*games, "all"]:
        for condition in CONDITIONS:
            chosen = [r for r in results if r.condition == condition and game in (r.game, "all")]
            if chosen:
                f = figures(chosen)
                out.append(
                    f"| {game} | {condition} | {f.completed}/{f.games} | {f.moves}/{f.lines} | "
                    f"{f.right_first} | {f.asked} | {f.repeats_per_move:.2f} | {f.wrong_per_100:.1f} | "
                    f"{f.p50_s:.1f} | {f.p95_s:.1f} | {f.host_lines_per_move:.2f} |"
                )
    return out


def from_json(path: Path) -> list[CaseResult]:
    """The results a run wrote with --json."""
    results = []
    for entry in json.loads(path.read_text(encoding="utf-8")):
        record = entry["record"]
        lines = [LineRecord(**line) for line in record.pop("lines")]
        fields = {k: v for k, v in entry.items() if k in CaseResult.__dataclass_fields__}
        results.append(CaseResult(**{**fields, "record": GameRecord(lines=lines, **record)}))
    return results


def reprint(path: Path) -> int:
    """The tables of an earlier --json run, with the summaries of this version."""
    try:
        results = from_json(path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise TableBenchError(f"cannot read {path} as a bench table --json file: {error}") from error
    print(HEADER)
    for result in results:
        print(row(result))
    print()
    print("\n".join(summary_rows(results)))
    print()
    print("\n".join(stop_rows(results)))
    return 0


# ---- the command -------------------------------------------------------------------


def choose_cases(quick: bool, names: list[str] | None) -> list[ScriptCase]:
    cases = load_cases()
    if quick and not names:
        names = list(QUICK_CASES)
    if not names:
        return cases
    chosen = [c for c in cases if c.script in names or c.game in names]
    if quick:  # one case of each name
        chosen = [c for i, c in enumerate(chosen) if c.script not in {d.script for d in chosen[:i]}]
    unknown = set(names) - {c.script for c in chosen} - {c.game for c in chosen}
    if unknown:
        raise TableBenchError(
            f"no scripted case called {', '.join(sorted(unknown))}: name a script of lab/scripted_games/cases.yaml"
            " or a game"
        )
    return chosen


def command(
    quick: bool = False,
    cases: list[str] | None = None,
    conditions: list[str] | None = None,
    voices: str = "held-apart",
    tries: int = TRIES,
    json_out: Path | None = None,
    settings: Path | None = None,
    keep: Path | None = None,
    echo: bool = True,
    barge_in: bool = False,
) -> int:
    """Play the chosen cases in the chosen conditions and print the table. `keep`: a
    folder to keep every game's event log, host terminal, satellite log and what the
    microphone heard in. `echo`:
    the microphone hears the host's own speech, as at a table; `barge_in`: players
    sometimes begin while the host is finishing (BARGE_IN of the lines; off by default)."""
    conditions = conditions or list(CONDITIONS)
    bad = set(conditions) - set(CONDITIONS)
    if bad:
        raise TableBenchError(f"no condition {', '.join(sorted(bad))}: choose from {', '.join(CONDITIONS)}")
    table: tuple[str, ...] = VOICE_TABLES.get(voices) or tuple(v.strip() for v in voices.split(",") if v.strip())
    if settings is not None and not settings.is_file():
        raise TableBenchError(f"no settings file at {settings}")
    chosen = choose_cases(quick, cases)
    speaking, program = _voices_and_satellite(table)
    _print_heading(quick, chosen, conditions, table)
    folder = Path(tempfile.mkdtemp(prefix="bench-table-")) if keep is None else keep
    gain = echo_gain(speaking, settings) if echo else None
    barging = BARGE_IN if barge_in else 0.0
    run = _Run(table, speaking, program, folder, settings, tries, json_out, gain, barging, keep is not None)
    jobs = [(condition, number, case) for condition in conditions for number, case in enumerate(chosen)]
    pool = ThreadPoolExecutor(max_workers=len(conditions) if quick else 1)
    signal.signal(signal.SIGTERM, _terminated)  # stopped like Ctrl-C: every host and satellite is ended
    try:
        results = list(pool.map(run.play, jobs))
    except ChatterError as error:
        raise TableBenchError(str(error)) from error
    finally:
        run.stop.set()  # an interrupted run stops every game now
        pool.shutdown(wait=True, cancel_futures=True)
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    print()
    print("\n".join(summary_rows(results)))
    print()
    print("\n".join(stop_rows(results)))
    return 0


def _voices_and_satellite(table: tuple[str, ...]) -> tuple[Voices, Path]:
    """The players' voices (each one checked) and the satellite's program (installed once)."""
    try:
        speaking = Voices()
        speaking.names_given(table)
        if not (SATELLITE_VENV / "bin" / "wyoming-satellite").exists():
            print(f"Installing wyoming-satellite into {SATELLITE_VENV} (once) ...", flush=True)
        return speaking, satellite_venv()
    except (FixtureError, SatelliteUnavailable) as error:
        raise TableBenchError(str(error)) from error


def _print_heading(quick: bool, chosen: list[ScriptCase], conditions: list[str], table: tuple[str, ...]) -> None:
    held_as: dict[tuple[str, ...], str] = {
        HELD_APART: "held apart from tuning",
        TUNING: "the tuning table, not held apart",
    }
    print(
        f"# partyhost bench table{' --quick' if quick else ''}, {date.today().isoformat()}: "
        f"{len(chosen)} cases x {len(conditions)} conditions; voices ({held_as.get(table, 'as given')}): "
        f"{', '.join(table)}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        flush=True,
    )
    print(HEADER, flush=True)


@dataclass
class _Run:
    """One run of the bench: how its games are played, and the results so far."""

    table: tuple[str, ...]
    voices: Voices
    program: Path
    folder: Path
    settings: Path | None
    tries: int
    json_out: Path | None
    echo_gain: float | None
    barge_in: float
    keep_heard: bool
    stop: threading.Event = field(default_factory=threading.Event)
    done: list[CaseResult] = field(default_factory=list)
    writing: threading.Lock = field(default_factory=threading.Lock)

    def play(self, job: tuple[str, int, ScriptCase]) -> CaseResult:
        """Play one case in one condition, print its row and keep it (a long run's
        results so far survive an interruption)."""
        condition, number, case = job
        name = f"{condition}-{number:02d}-{case.script.removesuffix('.txt')}"
        result = play_case(
            case,
            condition,
            self.table,
            self.voices,
            self.program,
            self.folder / name,
            self.settings,
            self.tries,
            self.stop,
            self.echo_gain,
            self.barge_in,
            self.keep_heard,
        )
        error = result.record.error
        with self.writing:
            print(row(result) + (f"\n  ({error.splitlines()[0]})" if error else ""), flush=True)
            self.done.append(result)
            if self.json_out:
                self.json_out.write_text(json.dumps([_as_json(r) for r in self.done], indent=1), encoding="utf-8")
        return result


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _as_json(result: CaseResult) -> dict[str, Any]:
    out = asdict(result)
    out["figures"] = asdict(figures([result]))
    return out
