"""Settings and grammars are checked before a game starts: one clear line, exit 2, nothing saved."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from source_copy import FILES, PARTYHOST

from host.journal import Journal
from partyhost.cli import main
from partyhost.config import LIMITS, Settings

REPO = Path(__file__).resolve().parents[1]
PLAY = ["play", "centurion", "--players", "Ana,Ben", "--input", "text", "--output", "text"]

BAD_SETTINGS = [
    ("accept_score = -50", "accept_score must be a number from 0 to 100, not -50"),
    ("accept_score = nan", "accept_score must be a number from 0 to 100, not nan"),
    ("accept_score = 150", "accept_score must be a number from 0 to 100"),
    ("confirm_score = inf", "confirm_score must be a number from 0 to 100, not inf"),
    ("confirm_score = 90", "confirm_score (90) must not be above accept_score (86)"),
    ("speech_rate = inf", "speech_rate must be a number from 0.5 to 2, not inf"),
    ("speech_rate = 0", "speech_rate must be a number from 0.5 to 2, not 0"),
    ("speech_rate = -1.0", "speech_rate must be a number from 0.5 to 2"),
    ("volume = 1.5", "volume must be a number from 0 to 1, not 1.5"),
    ('volume = "loud"', "volume must be a number from 0 to 1, not 'loud'"),
    ("endpoint_silence_ms = 1.5", "endpoint_silence_ms must be a whole number from 100 to 5000, not 1.5"),
    ("endpoint_silence_ms = -500", "endpoint_silence_ms must be a whole number"),
    ("word_check_line = nan", "word_check_line must be a number from -100 to 100, not nan"),
    ("number_check_line = -inf", "number_check_line must be a number from -100 to 100, not -inf"),
    ("rival_margin = 2", "rival_margin must be a number from 0 to 1, not 2"),
    ("max_utterance_s = 0", "max_utterance_s must be a number from 1 to 60, not 0"),
    ("phones_port = 99999", "phones_port must be a whole number from 0 to 65535, not 99999"),
    ("phones_port = -1", "phones_port must be a whole number from 0 to 65535, not -1"),
    ("phones_port = 80.5", "phones_port must be a whole number from 0 to 65535, not 80.5"),
    ("serve_port = 70000", "serve_port must be a whole number from 0 to 65535, not 70000"),
    ('serve_zeroconf = "no"', "serve_zeroconf must be true or false"),
    ('show_private = "yes"', "show_private must be true or false"),
    ('backend = "siri"', "backend must be one of whisper, pocketsphinx, vosk, or wyoming://HOST:PORT, not 'siri'"),
    ("[rules.nogame]\nturns = 3", "[rules.nogame] is not a game"),
    # checked whatever game is played (this is Centurion) and whatever the flags say (--input text)
    ('[rules.keep-cool]\nrelaxed = "maybe"', "[rules.keep-cool] The rule relaxed must be true or false."),
    ("[rules.zero-to-100]\nteams = 5", "[rules.zero-to-100] The rule teams must be 2 or 3, not 5."),
    ('[rules.keep-it-100]\ntiebreak_entry = "shout"', "The rule tiebreak_entry must be say or phone."),
    ('[rules.one-percent]\ndice = "mine"', "[rules.one-percent] The dice rule must be host or table."),
    (
        'input = "microphone"',
        "input takes text, mic, a .wav file or a satellite's wyoming://HOST:PORT, not 'microphone'",
    ),
    ('output = "loudspeaker"', "output takes text, speaker, a .wav file"),
    ("rules = 3", "'rules' must be tables per game"),
    ("speach_rate = 1.2", "unknown setting 'speach_rate'"),
]


def run(args, tmp_path, monkeypatch, capsys, config: str = ""):
    (tmp_path / "config.toml").write_text(config + "\n")
    monkeypatch.setenv("PARTYHOST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARTYHOST_CONFIG", str(tmp_path / "config.toml"))
    code = main(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("text, message", BAD_SETTINGS, ids=[t.split("=")[0].strip() for t, _ in BAD_SETTINGS])
def test_a_bad_setting_is_one_clear_line_before_anything_is_saved(tmp_path, monkeypatch, capsys, text, message):
    code, err = run(PLAY, tmp_path, monkeypatch, capsys, text)
    assert code == 2
    assert err == f"partyhost: {tmp_path / 'config.toml'}: {message}\n" or (
        err.startswith(f"partyhost: {tmp_path / 'config.toml'}: ") and message in err and err.count("\n") == 1
    )
    assert not (tmp_path / "data" / "partyhost.sqlite3").exists()


def test_a_bad_port_on_the_command_line_is_refused_before_the_server_starts(tmp_path, monkeypatch, capsys):
    code, err = run([*PLAY, "--phones", "--phones-port", "99999"], tmp_path, monkeypatch, capsys)
    assert code == 2
    assert err == "partyhost: command line: phones_port must be a whole number from 0 to 65535, not 99999\n"


def test_a_bad_serve_port_is_refused_before_the_service_starts(tmp_path, monkeypatch, capsys):
    code, err = run(["serve", "--port", "-5", "--no-zeroconf"], tmp_path, monkeypatch, capsys)
    assert code == 2
    assert err == "partyhost: command line: serve_port must be a whole number from 0 to 65535, not -5\n"


def test_a_bad_rule_of_any_game_is_refused_before_the_service_starts(tmp_path, monkeypatch, capsys):
    """partyhost serve plays whatever game the table asks for: every game's rules are checked first."""
    code, err = run(["serve", "--no-zeroconf"], tmp_path, monkeypatch, capsys, "[rules.keep-it-100]\nno_such_rule = 1")
    assert code == 2 and "[rules.keep-it-100] Keep It 100 has no rule called no_such_rule." in err


def test_a_settings_file_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Windows' Notepad may begin a UTF-8 file with one; it is not part of the first key
    (docs/robustness.md). This held before issue 58 too: it was only not written down."""
    from partyhost.config import load_settings

    path = tmp_path / "config.toml"
    path.write_bytes("\ufeffspeech_rate = 1.2\nvolume = 0.5\n".encode())
    settings = load_settings(path)
    assert (settings.speech_rate, settings.volume) == (1.2, 0.5)


def test_every_number_setting_has_limits():
    numbers = {
        f.name
        for f in dataclasses.fields(Settings)
        if isinstance(f.default, (int, float)) and not isinstance(f.default, bool)
    }
    assert numbers == set(LIMITS)
    for name, limit in LIMITS.items():
        assert limit.low <= getattr(Settings(), name) <= limit.high


# ---- grammars: checked on a copy of the program whose grammar file is broken -------------

GRAMMAR_BREAKS = [
    ('"[i] pass"', '"[i pass"', "Unable to find end of optional"),  # hassil: no line of its own
    ("intents:\n", "intents: [\n", "while parsing"),  # YAML
    (
        "prompts:\n  centurion/play_card: [play_card, read_cards, rank_alone, suit_alone]\n"
        "  # House rule joker_at_multiple: lay a joker on the "
        'stop just made, or let it stand.\n  centurion/joker_steal: [play_card, pass, "yes", "no"]\n',
        "prompts: 5\n",
        "prompts must be a mapping",
    ),  # once an AttributeError
]


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    """A copy of the program's source, grammars and decks (not the models), to break."""
    copy = tmp_path_factory.mktemp("program")
    for name in ("host", "voice", "partyhost", "grammars", "decks"):
        shutil.copytree(REPO / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in FILES:
        shutil.copy2(REPO / name, copy / name)
    return copy


@pytest.mark.parametrize("old, new, message", GRAMMAR_BREAKS, ids=["template", "yaml", "shape"])
def test_a_broken_grammar_names_file_and_line_before_a_session_is_saved(program, tmp_path, old, new, message):
    grammar = program / "grammars" / "centurion.yaml"
    original = grammar.read_text()
    assert old in original
    grammar.write_text(original.replace(old, new, 1))
    try:
        env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path), "PARTYHOST_CONFIG": os.devnull}
        result = subprocess.run(
            [*PARTYHOST, *PLAY], cwd=program, env=env, input="", capture_output=True, text=True, timeout=120
        )
    finally:
        grammar.write_text(original)
    assert result.returncode == 2, result.stdout
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith(f"partyhost: {grammar}:") and message in line
    number = int(line.split(f"{grammar}:")[1].split(":")[0])
    assert new.split("\n")[0] in grammar.read_text().replace(old, new, 1).splitlines()[number - 1]
    assert not (tmp_path / "partyhost.sqlite3").exists() or Journal(tmp_path / "partyhost.sqlite3").sessions() == []
