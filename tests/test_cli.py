"""The command line's answers to mistakes: one clear line, exit code 2, nothing saved."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.journal import Journal

REPO = Path(__file__).resolve().parents[1]


def run(args, tmp_path, stdin="", **more_env):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull, **more_env}
    return subprocess.run(
        [sys.executable, "-m", "partyhost", *args],
        cwd=REPO,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def saved_sessions(tmp_path):
    db = tmp_path / "data" / "partyhost.sqlite3"
    return Journal(db).sessions() if db.exists() else []


def test_help_lists_the_commands(tmp_path):
    result = run(["--help"], tmp_path)
    assert result.returncode == 0
    for command in ("play", "resume", "rules", "sessions"):
        assert command in result.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "keep-cool", "--players", "Ana,Ben"], "3"),  # too few players
        (["play", "centurion", "--mode", "solo"], "solo"),  # unknown mode
        (["play", "one-percent", "--rules", "no_such_rule=1"], "no_such_rule"),
        (["play", "one-percent", "--rules", "oops"], "KEY=VALUE"),
        (["play", "keep-it-100", "--input", "mic", "--input-device", "no such microphone"], "no such microphone"),
        (["play", "keep-it-100", "--input", "missing.wav"], "missing.wav"),
        (["play", "keep-it-100", "--output", "loudspeaker"], "--output takes"),
    ],
)
def test_bad_options_are_refused_before_anything_is_saved(tmp_path, args, message):
    result = run(args, tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("partyhost: ") and message in result.stderr
    assert "Traceback" not in result.stderr
    assert saved_sessions(tmp_path) == []


TEXT = ["--input", "text", "--output", "text"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "keep-cool", "--rules", "turn_seconds=0"], "The turn time must be from 3 to 60 seconds"),
        (["play", "keep-cool", "--rules", "turn_seconds=2"], "The turn time must be from 3 to 60 seconds"),
        (["play", "keep-cool", "--rules", "turn_seconds=100"], "The turn time must be from 3 to 60 seconds"),
        (["play", "keep-cool", "--teams", "Ana,Ben;Cy,Dee"], "Keep Cool is not played in teams"),
        (["play", "keep-cool", "--players", "Ana,,Cy,Dee"], "'Ana,,Cy,Dee' has an empty name"),
        (["play", "keep-cool", "--players", " "], "--players names nobody"),
        (["play", "keep-it-100", "--players", "Ana,Ben,ana"], 'two players are called "Ana"'),  # the spoken menu's rule
        (["play", "zero-to-100", "--teams", "Ana,Ben;;Cy"], "has an empty team"),
    ],
)
def test_an_option_that_would_be_taken_otherwise_than_written_is_refused(tmp_path, args, message):
    """Each of these used to start a game with something other than what was typed (a
    timer of 0 or 100 seconds, the teams dropped, two players or three stand-ins)."""
    result = run([*args, *TEXT], tmp_path)
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith("partyhost: ") and message in result.stderr
    assert result.stderr.count("\n") == 1 and saved_sessions(tmp_path) == []


@pytest.mark.parametrize("flag, name", [("--output", "x.wav"), ("--events", "e.jsonl")])
def test_a_file_in_a_folder_that_does_not_exist_is_refused_and_no_folder_made(tmp_path, flag, name):
    missing = tmp_path / "nonexist"
    args = ["play", "keep-cool", "--players", "Ana,Ben,Cy", "--input", "text", flag, str(missing / name)]
    result = run([*args, *(["--output", "text"] if flag != "--output" else [])], tmp_path)
    assert result.returncode == 2
    assert f"there is no folder {missing}" in result.stderr and result.stderr.count("\n") == 1
    assert not missing.exists() and saved_sessions(tmp_path) == []


def test_the_turn_time_may_be_anything_from_3_to_60(tmp_path):
    for seconds in ("3", "60"):
        result = run(
            ["play", "keep-cool", "--players", "Ana,Ben,Cy", "--rules", f"turn_seconds={seconds}", *TEXT], tmp_path
        )
        assert result.returncode == 0, result.stderr


def test_against_the_host_without_players_says_what_to_add(tmp_path):
    result = run(["play", "centurion", "--mode", "vs-host", "--input", "text", "--output", "text"], tmp_path)
    assert result.returncode == 2 and saved_sessions(tmp_path) == []
    assert 'Name the player with --players, for example --players "Ana".' in result.stderr
    result = run(
        ["play", "centurion", "--mode", "vs-host", "--players", "Ana", "--input", "text", "--output", "text"], tmp_path
    )
    assert result.returncode == 0 and "Centurion!" in result.stdout


def test_a_broken_deck_names_file_and_line(tmp_path):
    deck = tmp_path / "mine.csv"
    deck.write_text(
        "id,text,answer,year,source,category,games\n"
        "a1,How many out of 100 people like tea?,50,2020,Survey,food,keep-it-100\n"
        "a2,How many keys on a piano?,eighty-eight,2020,Fact,quantity,zero-to-100\n"
    )
    result = run(["play", "zero-to-100", "--deck", str(deck)], tmp_path)
    assert result.returncode == 2
    assert "mine.csv:3" in result.stderr and "answer" in result.stderr
    assert saved_sessions(tmp_path) == []


def test_resume_without_a_saved_game_says_what_to_do(tmp_path):
    result = run(["resume"], tmp_path)
    assert result.returncode == 2 and "partyhost play" in result.stderr
    result = run(["resume", "nope"], tmp_path)
    assert result.returncode == 2 and "nope" in result.stderr


def test_saved_games_can_be_deleted_one_by_one_or_all_those_with_no_move(tmp_path):
    from host.sessionlock import SessionLock

    typed = ["play", "keep-it-100", "--players", "Ana,Ben", "--input", "text", "--output", "text"]
    for moves in ("", "card 1\n", ""):
        assert run(typed, tmp_path, stdin=moves).returncode == 0
    empty, other_empty, played = sorted(saved_sessions(tmp_path), key=lambda r: (r.actions, r.id))
    events = tmp_path / "data" / "events"
    assert (events / f"{empty.id}.jsonl").is_file()

    with SessionLock(tmp_path / "data" / "locks", other_empty.id):  # being played elsewhere
        busy = run(["sessions", "--prune"], tmp_path)
    assert busy.returncode == 2 and other_empty.id in busy.stderr and len(saved_sessions(tmp_path)) == 3
    result = run(["sessions", "--prune"], tmp_path)
    assert result.returncode == 0 and [r.id for r in saved_sessions(tmp_path)] == [played.id]
    assert not (events / f"{empty.id}.jsonl").exists() and (events / f"{played.id}.jsonl").exists()
    assert run(["sessions", "--prune"], tmp_path).stdout.strip() == "No saved game without moves."

    missing = run(["sessions", "--delete", "nope"], tmp_path)
    assert missing.returncode == 2 and "no saved game 'nope'" in missing.stderr
    result = run(["sessions", "--delete", played.id], tmp_path)
    assert result.returncode == 0 and saved_sessions(tmp_path) == []
    assert run(["sessions"], tmp_path).stdout.strip() == "No saved games yet."


def test_rules_and_sessions(tmp_path):
    result = run(["rules", "centurion"], tmp_path)
    assert result.returncode == 0 and "100" in result.stdout and "pvp" in result.stdout
    run(
        [
            "play",
            "centurion",
            "--mode",
            "vs-host",
            "--players",
            "Ana",
            "--seed",
            "1",
            "--input",
            "text",
            "--output",
            "text",
        ],
        tmp_path,
        stdin="score\n",
    )
    listing = run(["sessions"], tmp_path).stdout
    assert "centurion" in listing and "playing" in listing and "Ana" in listing


def test_one_move_is_one_move(tmp_path):
    run(["play", "keep-it-100", "--players", "Ana,Ben", "--seed", "1", *TEXT], tmp_path, stdin="card 1\n")
    listing = run(["sessions"], tmp_path).stdout
    assert " 1 move " in listing and "1 moves" not in listing
    (record,) = saved_sessions(tmp_path)
    deleted = run(["sessions", "--delete", record.id], tmp_path).stdout
    assert deleted.strip() == f"deleted {record.id}  keep-it-100, 1 move"


def test_decks_stats_reports_counts_histogram_and_difficulty(tmp_path):
    result = run(["decks", "stats"], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "questions: " in out and "for keep-it-100: " in out and "answers per tenth:" in out
    assert "90-100" in out and "keep cool: 120 cards, 2400 different words" in out
    table = [
        line.split()
        for line in out.splitlines()
        if line.strip()[:2].strip().isdigit() and len(line.split()) > 4 and line.split()[1] == "240"
    ]
    assert [int(row[0]) for row in table] == list(range(1, 11))


def test_decks_check_refuses_a_broken_file(tmp_path):
    deck = tmp_path / "broken.csv"
    deck.write_text("id,text,answer\n")
    result = run(["decks", "check", "--questions", str(deck)], tmp_path)
    assert result.returncode == 2 and "broken.csv" in result.stdout


def test_decks_check_reads_card_decks_too(tmp_path):
    pack = tmp_path / "pack.yaml"
    pack.write_text("suits: 3\n")
    result = run(["decks", "check", "--card-deck", str(pack)], tmp_path)
    assert result.returncode == 2 and "pack.yaml:1" in result.stdout
    shipped = REPO / "decks"
    result = run(
        [
            "decks",
            "check",
            "--card-deck",
            str(shipped / "one-percent.yaml"),
            "--card-deck",
            str(shipped / "cards.yaml"),
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stdout


def test_the_menu_picks_a_game_and_players_when_none_is_given(tmp_path):
    result = run(
        ["play", "--input", "text", "--output", "text", "--seed", "4"],
        tmp_path,
        stdin="play the piano\nlet's play centurion\nthree\n1\nscore\n",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Which game shall we play?" in out and "Sorry, I didn't catch that" in out
    assert "Centurion needs 1 to 2 players." in out and "You play against me." in out
    listing = run(["sessions"], tmp_path).stdout
    assert "centurion" in listing and "Player One" in listing


@pytest.mark.parametrize("fails_at", ["--user", "enable"])
def test_install_service_without_a_user_systemd_says_so_and_leaves_no_unit(tmp_path, fails_at):
    """A stand-in systemctl that cannot reach the user bus (a container, an ssh session), at
    once or only when enabling: one clear line, exit 1, and no partyhost.service left behind."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(
        f'#!/bin/sh\ncase "$*" in *{fails_at}*) echo "Failed to connect to bus: No medium found" >&2; exit 1;; esac\n'
    )
    (bin_dir / "systemctl").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    result = subprocess.run(
        [str(REPO / "scripts" / "install-service")], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 1
    told = [line for line in result.stderr.splitlines() if line.startswith("install-service: ")]
    assert len(told) == 1
    if fails_at == "--user":  # every call: no user bus at all
        assert "no systemd user service manager" in told[0]
    else:
        assert "nothing is installed" in told[0]
    assert not (tmp_path / "config" / "systemd" / "user" / "partyhost.service").exists()


def test_install_service_renders_a_unit_that_starts_the_menu(tmp_path):
    result = subprocess.run(
        [str(REPO / "scripts" / "install-service"), "--print"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0
    unit = result.stdout
    assert "[Service]" in unit and f"ExecStart={REPO}/.venv/bin/partyhost\n" in unit
    assert "Restart=on-failure" in unit and "WantedBy=default.target" in unit


AS_SCRIPTS_RUN = {"PARTYHOST_RUN": "scripts/run"}


@pytest.fixture
def refused_here(tmp_path, monkeypatch, capsys):
    """The command line run in this process (no interpreter to start: these are refusals
    before anything loads), as scripts/run runs it; gives the exit code and what it said."""
    monkeypatch.setenv("PARTYHOST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARTYHOST_CONFIG", os.devnull)
    monkeypatch.setenv("PARTYHOST_RUN", "scripts/run")

    def refused(args: list[str]) -> tuple[int | str | None, str]:
        from partyhost.cli import main

        try:
            code: int | str | None = main(args)
        except SystemExit as exit:  # argparse's refusals
            code = exit.code
        return code, capsys.readouterr().err

    return refused


@pytest.mark.parametrize(
    "args, said",
    [
        (["plya", "keep-cool"], "scripts/run: no command 'plya'; did you mean play?"),
        (["plya", "--players", "Ana"], "scripts/run: no command 'plya'; did you mean play?"),
        (["play", "keep-it-10"], "scripts/run play: no game 'keep-it-10'; did you mean keep-it-100?"),
        (["keep-it-10", "--players", "Ana,Ben"], "scripts/run play: no game 'keep-it-10'; did you mean keep-it-100?"),
        (
            ["play", "keep-it-100", "--palyers", "Ana,Ben"],
            "scripts/run play: no option --palyers; did you mean --players?",
        ),
        (["play", "--dta-dir", "x", "keep-it-100"], "scripts/run play: no option --dta-dir; did you mean --data-dir?"),
        (["play", "keep-it-100", "--deal", "hots"], "scripts/run play: no --deal 'hots'; did you mean host?"),
        (["bench", "latensy"], "scripts/run bench: no command 'latensy'; did you mean latency?"),
        (
            ["models", "fetch", "faster-whisper-smal.en"],
            "no model called faster-whisper-smal.en; did you mean faster-whisper-small.en?",
        ),
        (
            ["play", "keep-cool", "--players", "Ana,Ben,Cy", "--mode", "too-coll"],
            "Keep Cool has no mode 'too-coll'; did you mean too-cool?",
        ),
        (
            ["play", "keep-cool", "--players", "Ana,Ben,Cy", "--rules", "turn_secnds=5"],
            "no rule called turn_secnds; did you mean turn_seconds?",
        ),
        (["play", "keep-it-100", "--backend", "whispr"], "not 'whispr'; did you mean whisper?"),
        (
            ["play", "keep-it-100", "--players", "Ana,Ben", "--deck", "lab/scripted_games/decks/questions-startr.csv"],
            "did you mean",
        ),
        (
            ["play", "keep-it-100", "--seed", "x"],
            "scripts/run play: argument --seed: invalid int value: 'x'; see: scripts/run play --help",
        ),
        (["rules", "keep-coool"], "scripts/run rules: no game 'keep-coool'; did you mean keep-cool?"),
    ],
)
def test_a_mistyped_name_is_one_line_with_the_name_meant(tmp_path, refused_here, args, said):
    """Not the whole usage and "invalid choice": one line, and the close name (issue 57)."""
    code, told = refused_here([*args, "--input", "text", "--output", "text"] if args[0] == "play" else args)
    assert code == 2 and told.count("\n") == 1 and said in told, told
    assert "usage:" not in told and saved_sessions(tmp_path) == []


def test_data_dir_may_follow_the_command(tmp_path):
    """`play GAME ... --data-dir X`, as the other options do (issue 57); before it, as before."""
    folder = tmp_path / "elsewhere"
    game = ["play", "centurion", "--players", "Ana,Ben", "--seed", "7", "--input", "text", "--output", "text"]
    played = run([*game, "--data-dir", str(folder)], tmp_path, "score\n")
    assert played.returncode == 0, played.stderr
    assert (folder / "partyhost.sqlite3").is_file() and saved_sessions(tmp_path) == []
    listed = run(["sessions", "--data-dir", str(folder)], tmp_path)
    assert listed.returncode == 0 and "centurion" in listed.stdout
    assert "centurion" in run(["--data-dir", str(folder), "sessions"], tmp_path).stdout
    resumed = run(["resume", "--data-dir", str(folder)], tmp_path, "score\n")
    assert resumed.returncode == 0 and "Welcome back to Centurion" in resumed.stdout


def test_usage_and_hints_name_scripts_run_when_it_ran_partyhost(tmp_path):
    """What the user typed is what the help and the hints say (partyhost/invoked.py)."""
    helped = run(["play", "--help"], tmp_path, **AS_SCRIPTS_RUN)
    assert helped.stdout.startswith("usage: scripts/run play ") and "see: scripts/run rules GAME" in helped.stdout
    assert run(["--help"], tmp_path, **AS_SCRIPTS_RUN).stdout.startswith("usage: scripts/run ")
    config = tmp_path / "config.toml"
    config.write_text(f'models_dir = "{tmp_path / "no models"}"\n')
    answers = "tests/fixtures/voice/wav/keep-it-100-choose_card-f830323447.wav"
    game = ["play", "keep-it-100", "--backend", "vosk", "--input", answers, "--output", "text"]
    refused = run(game, tmp_path, PARTYHOST_CONFIG=str(config), **AS_SCRIPTS_RUN).stderr
    assert "run `scripts/run models fetch vosk-model-small-en-us-0.15`" in refused  # voice/ says it too


@pytest.mark.parametrize(
    "deck, said",
    [
        ("{tmp}", "partyhost: bad deck: {tmp} is a folder, not a deck file"),
        ("/dev/zero", "partyhost: bad deck: /dev/zero is a device, not a deck file"),
        ("", "scripts/run play: argument --deck: empty value ''; see: scripts/run play --help"),
        (
            "{tmp}/questons.csv",
            "partyhost: bad deck: {tmp}/questons.csv: no such deck file; did you mean questions.csv?",
        ),
    ],
)
def test_a_deck_that_is_no_file_is_named_as_what_it_is(tmp_path, refused_here, deck, said):
    """As docs/robustness.md says: a folder, a device, an empty name, each in one line (issue 57)."""
    (tmp_path / "questions.csv").write_text("id,category,text,answer,source\n")
    args = ["play", "keep-it-100", "--players", "Ana,Ben", "--deck", deck.format(tmp=tmp_path), "--input", "text"]
    assert refused_here(args) == (2, said.format(tmp=tmp_path) + "\n")
    assert saved_sessions(tmp_path) == []


@pytest.mark.parametrize(
    "game, said",
    [
        (["keep-it-100", "--players", "Ana"], "Keep It 100 basic needs 2 to 8 players, not 1."),
        (
            ["keep-it-100", "--mode", "challenge", "--players", "A,B,C,D,E,F,G,H,I"],
            "Keep It 100 challenge needs 1 to 8 players, not 9.",
        ),
        (["zero-to-100", "--players", "Ana"], "Zero to 100 basic needs 2 to 12 players, not 1."),
        (["keep-cool", "--players", "Ana,Ben"], "Keep Cool basic needs 3 to 8 players, not 2."),
        (["one-percent", "--players", "A,B,C,D,E,F,G"], "1% basic needs 2 to 6 players, not 7."),
        (["centurion", "--players", "Ana"], "Centurion pvp needs 2 players, not 1. (one player: --mode vs-host)"),
        (["centurion", "--mode", "vs-host", "--players", "Ana,Ben"], "Centurion vs-host needs 1 player, not 2."),
        (
            ["zero-to-100", "--teams", "Ana;Ben", "--players", "Cy,Dan"],
            "Every player must be in exactly one team: Cy and Dan are in no team; "
            "Ana and Ben are in a team but not among the players.",
        ),
    ],
)
def test_how_many_may_play_is_said_one_way_naming_the_game_and_mode(refused_here, game, said):
    """One rule and one wording for every game (host.engine.check_player_count; issue 57)."""
    assert refused_here(["play", *game, "--input", "text", "--output", "text"]) == (2, f"partyhost: {said}\n")


def test_output_into_a_pipe_nobody_reads_ends_quietly_not_with_a_traceback():
    """`partyhost rules keep-it-100 | head -0`: the reader is gone before anything is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "partyhost", "rules", "keep-it-100"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            cwd=REPO,
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 1
