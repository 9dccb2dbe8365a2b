"""Settings from the TOML file: defaults, overrides, and clear refusals."""

import pytest

from partyhost.config import ConfigError, Settings, apply_overrides, load_settings, render


def test_missing_file_gives_defaults(tmp_path):
    assert load_settings(tmp_path / "none.toml") == Settings()


def test_file_values_override_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('backend = "pocketsphinx"\nspeech_rate = 0.85\nvolume = 1\nshow_private = false\n'
                    '[rules.keep-cool]\nturn_seconds = 12\n')
    settings = load_settings(path)
    assert settings.backend == "pocketsphinx" and settings.speech_rate == 0.85
    assert settings.volume == 1.0 and isinstance(settings.volume, float)
    assert settings.show_private is False
    assert settings.rules == {"keep-cool": {"turn_seconds": 12}}


@pytest.mark.parametrize("text, message", [
    ("speach_rate = 1.2", "unknown setting 'speach_rate'"),
    ('volume = "loud"', "volume must be a number"),
    ("show_private = 1", "show_private must be true or false"),
    ("rules = 3", "'rules' must be tables"),
    ("volume = ", "config.toml"),
])
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
    path.write_text('[rules.keep-cool]\nfirst_player = "Ana"\nturn_seconds = 12\n'
                    '[rules.keep-it-100]\nfirst_slider = "Ben"\n')
    assert load_settings(path).rules["keep-cool"]["first_player"] == "Ana"


def test_rendered_settings_read_back_the_same(tmp_path):
    original = apply_overrides(Settings(), {"speech_rate": 1.2, "rules": {"centurion": {"jokers": 2}}}, "t")
    path = tmp_path / "config.toml"
    path.write_text(render(original))
    assert load_settings(path) == original


def test_tuned_defaults_are_the_tuned_values():
    """A setting that repeats a tuned constant (a TOML default must be a plain value)
    must follow it when it is re-tuned."""
    from voice.listening.endpoint import EndpointConfig
    from voice.understanding.matcher import ACCEPT_SCORE, CONFIRM_SCORE
    from voice.listening.reading import RIVAL_MARGIN
    from voice.listening.wordcheck import CHECK_LINE, NUMBER_LINE
    settings, endpoint = Settings(), EndpointConfig()
    assert (settings.word_check_line, settings.number_check_line) == (CHECK_LINE, NUMBER_LINE)
    assert settings.rival_margin == RIVAL_MARGIN
    assert (settings.accept_score, settings.confirm_score) == (ACCEPT_SCORE, CONFIRM_SCORE)
    assert settings.endpoint_silence_ms == endpoint.end_silence_ms
    assert settings.max_utterance_s * 1000 == endpoint.max_ms
