"""Settings from the TOML file: defaults, overrides, and clear refusals."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from partyhost.config import ConfigError, Settings, apply_overrides, load_settings, render, save_setting, settings_path

REPO = Path(__file__).resolve().parents[1]


def test_missing_file_gives_defaults(tmp_path):
    assert load_settings(tmp_path / "none.toml") == Settings()


def _named(monkeypatch, path):
    monkeypatch.setenv("PARTYHOST_CONFIG", str(path))
    return path


def test_a_settings_file_named_in_the_environment_must_exist(tmp_path, monkeypatch):
    path = _named(monkeypatch, tmp_path / "confg.toml")
    with pytest.raises(ConfigError) as error:
        load_settings(settings_path())
    assert (
        str(error.value) == f"PARTYHOST_CONFIG names {path}, which does not exist (unset it to play with the defaults)"
    )


def test_a_link_that_leads_nowhere_or_round_in_a_loop_is_named(tmp_path, monkeypatch):
    dangling = tmp_path / "dangling.toml"
    dangling.symlink_to(tmp_path / "gone.toml")
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.symlink_to(second)
    second.symlink_to(first)
    with pytest.raises(ConfigError) as error:
        load_settings(_named(monkeypatch, dangling))
    assert str(error.value) == f"{dangling}: the link leads to {tmp_path / 'gone.toml'}, which does not exist"
    with pytest.raises(ConfigError) as error:
        load_settings(_named(monkeypatch, first))
    assert str(error.value) == f"{first}: the link leads round in a loop, never to a settings file"


def test_dev_null_is_no_settings(monkeypatch):
    assert load_settings(_named(monkeypatch, Path(os.devnull))) == Settings()


def test_a_missing_file_named_in_the_environment_is_refused_by_the_command_line(tmp_path):
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": str(tmp_path / "typo.toml")}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "partyhost",
            "play",
            "keep-cool",
            "--players",
            "Ana,Ben,Cy",
            "--input",
            "text",
            "--output",
            "text",
        ],
        cwd=REPO,
        env=env,
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr == f"partyhost: PARTYHOST_CONFIG names {tmp_path / 'typo.toml'}, which does not exist "
        "(unset it to play with the defaults)\n"
    )
    assert not (tmp_path / "data" / "partyhost.sqlite3").exists()


def test_file_values_override_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(
        'backend = "pocketsphinx"\nspeech_rate = 0.85\nvolume = 1\nshow_private = false\n'
        "[rules.keep-cool]\nturn_seconds = 12\n"
    )
    settings = load_settings(path)
    assert settings.backend == "pocketsphinx" and settings.speech_rate == 0.85
    assert settings.volume == 1.0 and isinstance(settings.volume, float)
    assert settings.show_private is False
    assert settings.rules == {"keep-cool": {"turn_seconds": 12}}


@pytest.mark.parametrize(
    "text, message",
    [
        ("speach_rate = 1.2", "unknown setting 'speach_rate'"),
        ('volume = "loud"', "volume must be a number"),
        ("show_private = 1", "show_private must be true or false"),
        ("rules = 3", "'rules' must be tables"),
        ("volume = ", "config.toml"),
    ],
)
def test_bad_files_name_file_and_key(tmp_path, text, message):
    path = tmp_path / "config.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match="config.toml") as error:
        load_settings(path)
    assert message in str(error.value)


def test_flags_override_and_none_means_not_given(tmp_path):
    recording = tmp_path / "game.wav"
    recording.write_bytes(b"")
    settings = apply_overrides(Settings(), {"input": str(recording), "backend": None}, source="flags")
    assert settings.input == str(recording) and settings.backend is None


def test_rules_that_need_the_table_wait_for_it(tmp_path):
    """A first player is checked against the players when a game starts, not in the file."""
    path = tmp_path / "config.toml"
    path.write_text(
        '[rules.keep-cool]\nfirst_player = "Ana"\nturn_seconds = 12\n[rules.keep-it-100]\nfirst_slider = "Ben"\n'
    )
    assert load_settings(path).rules["keep-cool"]["first_player"] == "Ana"


def test_rendered_settings_read_back_the_same(tmp_path):
    original = apply_overrides(
        Settings(), {"speech_rate": 1.2, "rules": {"centurion": {"jokers": 2}}, **HARD_TEXTS}, "t"
    )
    path = tmp_path / "config.toml"
    path.write_text(render(original))
    assert load_settings(path) == original


def test_tuned_defaults_are_the_tuned_values():
    """A setting that repeats a tuned constant (a TOML default must be a plain value)
    must follow it when it is re-tuned."""
    from voice.listening.endpoint import EndpointConfig
    from voice.listening.reading import RIVAL_MARGIN
    from voice.listening.wordcheck import CHECK_LINE, NUMBER_LINE
    from voice.understanding.matcher import ACCEPT_SCORE, CONFIRM_SCORE

    settings, endpoint = Settings(), EndpointConfig()
    assert (settings.word_check_line, settings.number_check_line) == (CHECK_LINE, NUMBER_LINE)
    assert settings.rival_margin == RIVAL_MARGIN
    assert (settings.accept_score, settings.confirm_score) == (ACCEPT_SCORE, CONFIRM_SCORE)
    assert settings.endpoint_silence_ms == endpoint.end_silence_ms
    assert settings.max_utterance_s * 1000 == endpoint.max_ms


HARD_TEXTS = {
    "input_device": 'Jabra "Speak" 510',
    "output_device": 'Mike\'s "Big" Speaker 🔊 Küche',
    "models_dir": "C:\\Users\\Zoë\\partyhost\\models\\",
    "whisper_model": 'tab\there, a backslash \\ and a quote "',
}


def test_saved_settings_keep_quotes_backslashes_unicode_and_the_users_comments(tmp_path):
    """save_setting writes any text so that it reads back as it was (a device name with both
    quote kinds, a Windows path, an emoji), and changes only its own line of a file the user
    wrote: their comments, order and other settings stay as they were."""
    path = tmp_path / "config.toml"
    path.write_text(
        '# the kitchen box\nvolume = 0.5  # quiet: the baby sleeps\nrecogniser = "whisper"\n\n'
        "[rules.keep-cool]\nturn_seconds = 12  # we are slow\n",
        encoding="utf-8",
    )
    for key, text in HARD_TEXTS.items():
        save_setting(key, text, path)
    save_setting("volume", 0.7, path)
    save_setting("backend", "pocketsphinx", path)  # the file's own spelling (recogniser) is kept
    settings = load_settings(path)
    assert {key: getattr(settings, key) for key in HARD_TEXTS} == HARD_TEXTS
    assert (settings.volume, settings.backend) == (0.7, "pocketsphinx")
    assert settings.rules == {"keep-cool": {"turn_seconds": 12}}
    written = path.read_text(encoding="utf-8")
    assert written.startswith(
        '# the kitchen box\nvolume = 0.7  # quiet: the baby sleeps\nrecogniser = "pocketsphinx"\n'
    )
    assert "turn_seconds = 12  # we are slow" in written and "backend" not in written


def test_a_setting_saved_where_there_is_no_file_makes_one_that_reads_back(tmp_path):
    path = tmp_path / "new" / "config.toml"
    save_setting("input_device", HARD_TEXTS["output_device"], path)
    assert load_settings(path).input_device == HARD_TEXTS["output_device"]
    assert path.read_text(encoding="utf-8").count("\n") == 1  # that setting alone, not every default


def test_a_wrong_value_is_refused_and_the_file_left_as_it_was(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("# mine\nvolume = 0.5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="volume must be a number"):
        save_setting("volume", 3, path)
    assert path.read_text(encoding="utf-8") == "# mine\nvolume = 0.5\n"
