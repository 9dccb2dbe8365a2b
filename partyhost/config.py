"""Settings: a TOML file in the platform config folder, then command-line flags on top.

A headless box has no keyboard, so everything a player might want changed for good
(devices, recogniser, thresholds, speech rate, volume, timers) lives in one file:
`partyhost config` prints where it is and what is set. Unknown keys, wrong types,
values out of range (LIMITS), nan and infinity, and [rules.GAME] tables of games that
do not exist are refused with the file and key named, before any game starts, so a
typo never silently does nothing and never surfaces in the middle of a game. The file
is read only if it is a regular file of at most a megabyte, and a value may nest only
VALUE_DEPTH deep and hold only VALUE_CHARS characters (VALUE_ITEMS in a list): a rule
is a number, a word or a short list, and anything vaster is a mistake or an attack.

The file is the user's, edited by hand: a setting partyhost writes itself (`bench latency
--choose`) changes its own line only, through tomlkit, which keeps their comments and
layout and quotes any text (quotes, backslashes, a Windows path) so it reads back as it was.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import tomlkit
import tomlkit.exceptions

from host.contract import Json, JsonObject
from host.errors import PartyhostError
from host.files import SETTINGS_BYTES, FileProblem, check_regular, check_writable, read_text
from host.games import game_ids, get_game
from voice.recognizers import check_backend_name
from voice.remote.address import AddressError, is_wyoming, parse_address
from voice.remote.nesting import walk

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


class ConfigError(PartyhostError):
    """A settings file that cannot be used; the message names the file and the key."""


@dataclass
class Settings:
    input: str = "mic"  # mic | text | path to a WAV file | wyoming://HOST:PORT (a satellite)
    output: str = "speaker"  # speaker | text | path to a WAV file | wyoming://HOST:PORT
    input_device: str | None = None  # name or index (see: partyhost devices)
    output_device: str | None = None
    backend: str | None = None  # recogniser; None = the measured default; wyoming://HOST:PORT: a
    # Wyoming ASR server, local fallback (docs/smart-speaker.md). Also read as `recogniser`
    voice: str | None = None  # None: the local Piper voice; wyoming://HOST:PORT: a Wyoming TTS server
    whisper_model: str | None = None  # a fetched Whisper model (partyhost models list); None: shipped tiny.en
    # (`partyhost bench latency --choose` sets it)
    accept_score: float = 86.0  # matcher score (0-100) to act at once
    confirm_score: float = 72.0  # from here up to accept_score: "did you mean ...?"
    speech_rate: float = 1.0  # 0.5 (slow) to 2 (fast); players step it from 0.7 to 1.4
    volume: float = 0.75  # 0 to 1
    endpoint_silence_ms: int = 500  # silence that ends an utterance
    word_check_line: float = -3.0  # Keep Cool: a word in play this much less likely than a rival
    # reading is a clue (voice.listening.wordcheck.CHECK_LINE, tested); -100: no check
    number_check_line: float = -8.0  # a number said alone this much less likely than a rival reading
    # is asked again (voice.listening.wordcheck.NUMBER_LINE, tested); -100: no check
    rival_margin: float = 0.1  # a reading of another intent this close: "did you mean ...?" first
    # (voice.listening.reading.RIVAL_MARGIN, tested); 0: never asked for this
    second_opinion: bool = True  # Keep Cool: Moonshine re-judges each word in play (voice/listening/second_opinion.py)
    second_opinion_weights: str = "auto"  # its weights: "int8" (145 MB, slower), "float" (460 MB, faster),
    # "auto": int8 (voice.asr.moonshine.WEIGHTS)
    grammar_decoding: bool = (
        True  # Whisper also decodes inside each prompt's grammar (voice/understanding/grammar_decode.py);
    )
    # false: the free reading alone, a little faster on a slow machine
    max_utterance_s: float = 6.0
    follow_nearest_voice: bool = True  # in a loud room speech run to the length limit is cut to the nearest
    # voice's stretch, not set aside whole (voice/listening/nearest.py)
    agc: bool = True  # gain for quiet voices before the endpointer (voice/listening/frontend.py)
    noise_suppression: int = 0  # WebRTC noise suppression 0 (off, measured best) .. 4
    reply_max_s: float = 4.0  # longer speech is table talk, not a reply (voice/listening/attention.py); 0: no limit
    remind_after_s: float = 45.0  # silence before a brief reminder at an untimed prompt, then doubling; 0: never
    show_private: bool = True  # print secret cards on the terminal
    echo_text: bool = True  # also print what the host says
    models_dir: str | None = None  # where downloaded models live
    wake_word: str = "okay_nabu"  # said before a command at any moment, and wakes a box at rest; "off": none
    # (the engine's words: voice.listening.wake.shipped_wake_words)
    phones: bool = False  # secret hands on players' phones (host-deal games with secret cards)
    phones_port: int = 8080  # the phone pages' port (0: any free port)
    phones_bind: str | None = None  # address to serve on; None: this machine's LAN address; "0.0.0.0": all
    serve_bind: str | None = None  # partyhost serve: address to listen on; None: this machine's LAN address
    serve_port: int = 10800  # partyhost serve: its Wyoming port (0: any free port)
    serve_zeroconf: bool = True  # partyhost serve: announce it (_wyoming._tcp) so Home Assistant finds it
    undo_after_reveal: bool = False  # "undo" may take back a move that showed something hidden
    # (a card, a roll), once the table agrees (docs/rules.md)
    rules: dict[str, JsonObject] = field(default_factory=dict)  # per game: {"keep-cool": {"turn_seconds": 12}}


@dataclass(frozen=True)
class Limit:
    """The values a number setting may take, both ends included."""

    low: float
    high: float
    whole: bool = False

    def describe(self) -> str:
        kind = "a whole number" if self.whole else "a number"
        return f"{kind} from {self.low:g} to {self.high:g}"


LIMITS = {
    "accept_score": Limit(0, 100),
    "confirm_score": Limit(0, 100),
    "speech_rate": Limit(0.5, 2.0),
    "volume": Limit(0, 1),
    "endpoint_silence_ms": Limit(100, 5000, whole=True),
    "word_check_line": Limit(-100, 100),
    "number_check_line": Limit(-100, 100),
    "rival_margin": Limit(0, 1),
    "max_utterance_s": Limit(1, 60),
    "phones_port": Limit(0, 65535, whole=True),  # 0: any free port
    "serve_port": Limit(0, 65535, whole=True),  # 0: any free port
    "noise_suppression": Limit(0, 4, whole=True),
    "reply_max_s": Limit(0, 60),  # 0: no limit
    "remind_after_s": Limit(0, 3600),  # 0: never
}


AUDIO_SUFFIXES = (".wav", ".wave")
COMMAND_LINE = "command line"
"""The source of the flags' values (apply_overrides), which errors call by their flag."""
VALUE_DEPTH = 4
"""Lists in lists: a rule's value is a number, text or a list (of pairs, at most)."""
VALUE_CHARS = 1000
"""Characters of one text or number, in the file or after --rules KEY=."""
VALUE_ITEMS = 1000
"""Entries in one list or table."""


ALIASES = {"recogniser": "backend"}
"""Other names a settings file may use for a setting (the issue's spelling); `backend` is canonical."""


CONFIG_VARIABLE = "PARTYHOST_CONFIG"
"""The environment variable that names another settings file."""


def settings_path() -> Path:
    """$PARTYHOST_CONFIG, else config.toml in the platform config folder."""
    return Path(os.environ.get(CONFIG_VARIABLE) or Path(platformdirs.user_config_dir("partyhost")) / "config.toml")


def load_settings(path: Path | None = None) -> Settings:
    """Defaults, overridden by the file if it exists. A file named by $PARTYHOST_CONFIG must
    exist (a typo there would silently play with the defaults); /dev/null is no settings."""
    path = path or settings_path()
    settings = Settings()
    try:
        if _is_null_device(path) or not _settings_file_exists(path):
            return settings
        data = tomllib.loads(read_text(path, "settings file", SETTINGS_BYTES))
    except FileProblem as problem:
        raise ConfigError(str(problem)) from None
    except RecursionError:
        raise ConfigError(f"{path}: a value nests too deeply (at most {VALUE_DEPTH} levels)") from None
    except (OSError, ValueError) as error:  # TOMLDecodeError, and a number too long to read
        raise ConfigError(f"{path}: {error}") from None
    return apply_overrides(settings, data, source=str(path))


def _settings_file_exists(path: Path) -> bool:
    """Whether there is a settings file to read; ConfigError for a link that leads nowhere,
    and for a file $PARTYHOST_CONFIG names that is not there."""
    try:
        os.stat(path)
        return True
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ConfigError(f"{path}: the link leads round in a loop, never to a settings file") from None
        if error.errno not in (errno.ENOENT, errno.ENOTDIR):
            return True  # read_text names the problem (no permission ...)
    if path.is_symlink():
        raise ConfigError(f"{path}: the link leads to {os.readlink(path)}, which does not exist") from None
    named = os.environ.get(CONFIG_VARIABLE)
    if named and Path(named) == path:
        raise ConfigError(f"{CONFIG_VARIABLE} names {path}, which does not exist (unset it to play with the defaults)")
    return False


def _is_null_device(path: Path) -> bool:
    """/dev/null, the usual way to say "no settings": read as an empty file."""
    try:
        return os.path.samefile(path, os.devnull)
    except OSError:
        return False


def check_value_size(value: Any, where: str) -> None:
    """ConfigError when a setting's value nests deeper than VALUE_DEPTH, or holds a text or
    number longer than VALUE_CHARS or a list longer than VALUE_ITEMS."""
    for item, level in walk(value):
        if isinstance(item, (list, dict)):
            if level > VALUE_DEPTH:
                raise ConfigError(f"{where}: the value nests too deeply (at most {VALUE_DEPTH} levels)")
            if len(item) > VALUE_ITEMS:
                raise ConfigError(f"{where}: the value has {len(item)} entries; at most {VALUE_ITEMS}")
        elif isinstance(item, (str, int, float)) and not isinstance(item, bool) and len(_as_text(item)) > VALUE_CHARS:
            raise ConfigError(f"{where}: the value is longer than {VALUE_CHARS} characters")


def rule_values(pairs: list[str]) -> JsonObject:
    """KEY=VALUE pairs (--rules); values read as JSON where they parse (12, true, [1,2]), else
    text; bounded in length and nesting as the settings file's are."""
    rules: JsonObject = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip() or len(key) > 100:
            raise ConfigError(f"--rules takes KEY=VALUE, got {pair[:100]!r}{'...' if len(pair) > 100 else ''}")
        where = f"--rules {key.strip()}"
        if len(value) > VALUE_CHARS:
            raise ConfigError(f"{where}: the value is longer than {VALUE_CHARS} characters")
        try:
            rules[key.strip()] = json.loads(value)
        except RecursionError:
            raise ConfigError(f"{where}: the value nests too deeply") from None
        except ValueError:  # not JSON (or a number too long for Python to read): text
            rules[key.strip()] = value
        check_value_size(rules[key.strip()], where)
    return rules


def _as_text(item: str | int | float) -> str:
    """An int with more digits than Python will print is longer than any limit here."""
    try:
        return str(item)
    except ValueError:
        return "9" * (VALUE_CHARS + 1)


def apply_overrides(settings: Settings, values: Mapping[str, Json], source: str) -> Settings:
    """A copy of settings with values set; each checked against the field's type."""
    known = {f.name: f for f in dataclasses.fields(Settings)}
    changes: dict[str, Any] = {}
    for alias, key in ALIASES.items():
        if alias in values and key in values and values[key] is not None:
            raise ConfigError(f"{source}: set {key} or {alias} (the same setting), not both")
    for key, value in values.items():
        if value is None:
            continue
        key = ALIASES.get(key, key)
        if key not in known:
            raise ConfigError(f"{source}: unknown setting {key!r}; known: {', '.join(known)}")
        changes[key] = _checked(key, value, getattr(settings, key), source)
    settings = dataclasses.replace(settings, **changes)
    if settings.confirm_score > settings.accept_score:
        raise ConfigError(
            f"{source}: confirm_score ({settings.confirm_score:g}) must not be above "
            f"accept_score ({settings.accept_score:g})"
        )
    return settings


def _checked(key: str, value: Any, default: Any, source: str) -> Any:
    if key == "rules":
        return _checked_rules(value, source)
    check_value_size(value, f"{source}: {key}")
    if key in ("input", "output"):
        return _io_choice(key, value, source)
    if key == "backend":
        return _checked_backend(value, source)
    if key == "voice":
        return _checked_voice(value, source)
    if key == "wake_word":
        return _wake_word(value, source)
    if key == "second_opinion_weights":
        from voice.asr.moonshine import WEIGHTS

        if value not in WEIGHTS:
            raise ConfigError(f"{source}: second_opinion_weights must be one of {', '.join(WEIGHTS)}, not {value!r}")
        return value
    if key in LIMITS:
        return _number(key, value, LIMITS[key], source)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{source}: {key} must be true or false")
        return value
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ConfigError(f"{source}: {key} must be text")
    return str(value)


def _checked_rules(value: Any, source: str) -> Any:
    """[rules.GAME] tables: each a game's, each rule checked as that game checks it."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigError(f"{source}: 'rules' must be tables per game, e.g. [rules.keep-cool]")
    unknown = [game for game in value if game not in game_ids()]
    if unknown:
        raise ConfigError(f"{source}: [rules.{unknown[0]}] is not a game; games: {', '.join(game_ids())}")
    for game_id, rules in value.items():
        for rule, setting in rules.items():
            check_value_size(setting, f"{source}: [rules.{game_id}] {rule}")
        _check_game_rules(game_id, rules, source)
    return value


def _checked_backend(value: Any, source: str) -> Any:
    """A recogniser's name, or a remote one's wyoming://HOST:PORT."""
    try:
        check_backend_name(str(value) if isinstance(value, str) else repr(value))
    except AddressError as error:
        raise ConfigError(f"{source}: backend: {error}") from None
    except ValueError as error:
        raise ConfigError(f"{source}: backend {error}") from None
    return value


def _checked_voice(value: Any, source: str) -> Any:
    """A Wyoming TTS server's wyoming://HOST:PORT (the local Piper voice is the setting left out)."""
    if not isinstance(value, str) or not is_wyoming(value):
        raise ConfigError(
            f"{source}: voice must be wyoming://HOST:PORT (a Wyoming TTS server), "
            f"or left out for the local Piper voice, not {value!r}"
        )
    try:
        parse_address(value)
    except AddressError as error:
        raise ConfigError(f"{source}: voice: {error}") from None
    return value


def _io_choice(kind: str, value: Any, source: str) -> str:
    """An input or output that can be opened: text, mic or speaker, a .wav file (an input
    one that exists), or a satellite's wyoming://HOST:PORT. A flag's error names the flag."""
    name = f"--{kind}" if source == COMMAND_LINE else kind
    allowed = ("text", "mic") if kind == "input" else ("text", "speaker")
    if isinstance(value, str) and is_wyoming(value):
        try:
            parse_address(value)
        except AddressError as error:
            raise ConfigError(f"{source}: {name}: {error}") from None
        return value
    if isinstance(value, str) and (value in allowed or value.lower().endswith(AUDIO_SUFFIXES)):
        if value not in allowed:
            try:
                if kind == "input":
                    check_regular(Path(value), "recording")
                else:
                    check_writable(Path(value), "recording to write")
            except FileProblem as problem:
                raise ConfigError(f"{source}: {name}: {problem}") from None
        return value
    raise ConfigError(
        f"{source}: {name} takes {', '.join(allowed)}, a .wav file or a satellite's wyoming://HOST:PORT, not {value!r}"
    )


def _check_game_rules(game_id: str, rules: JsonObject, source: str) -> None:
    """Every game's rules, whichever game is played (`relaxed = "maybe"` is refused before a
    game of Centurion too), as far as they can be checked without a table."""
    from host.engine import RuleError
    from host.rules import merge_rules

    game = get_game(game_id)
    check = game.check_rules or (lambda given: merge_rules(game.title, game.rule_defaults, given))
    try:
        check(dict(rules))
    except RuleError as error:
        raise ConfigError(f"{source}: [rules.{game_id}] {error.reason}") from None


def _wake_word(value: Any, source: str) -> str:
    """One of the wake words the engine ships, or "off"."""
    from voice.listening.wake import OFF, shipped_wake_words

    words = shipped_wake_words()
    if isinstance(value, str) and (value == OFF or value in words):
        return value
    choices = ", ".join([*(f'"{name}" ({word.phrase})' for name, word in words.items()), f'"{OFF}"'])
    raise ConfigError(f"{source}: wake_word must be one of {choices}, not {value!r}")


def _number(key: str, value: Any, limit: Limit, source: str) -> float | int:
    """The value if it is a finite number within the limit (a whole one where it must be)."""
    wanted = f"{source}: {key} must be {limit.describe()}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{wanted}, not {value!r}")
    if not math.isfinite(value) or not limit.low <= value <= limit.high:
        raise ConfigError(f"{wanted}, not {value!r}")
    if limit.whole:
        if value != int(value):
            raise ConfigError(f"{wanted}, not {value!r}")
        return int(value)
    return float(value)


def save_setting(key: str, value: Any, path: Path | None = None) -> Path:
    """Set one setting in the settings file and leave the rest of it as the user wrote it
    (comments, order, spacing, the other settings); returns the file. The value is checked
    first, and the file written only if it reads back as these settings. None removes the
    setting (TOML has no null), so its default applies again."""
    path = path or settings_path()
    key = ALIASES.get(key, key)
    exists = os.path.lexists(path) and not _is_null_device(path)  # a file to make: no need to exist
    current = load_settings(path) if exists else Settings()
    wanted = apply_overrides(current, {key: value}, source=str(path))
    document = _editable(path) if exists else tomlkit.document()
    spelled = next((name for name in (key, *_aliases_of(key)) if name in document), key)
    if value is None:
        document.pop(spelled, None)
        wanted = dataclasses.replace(wanted, **{key: getattr(Settings(), key)})
    else:
        document[spelled] = value
    text = tomlkit.dumps(document)
    if apply_overrides(Settings(), tomllib.loads(text), source=str(path)) != wanted:  # pragma: no cover - a guard
        raise ConfigError(f"{path}: {key} could not be written so that it reads back; the file is unchanged")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _aliases_of(key: str) -> list[str]:
    return [alias for alias, canonical in ALIASES.items() if canonical == key]


def _editable(path: Path) -> tomlkit.TOMLDocument:
    """The settings file as tomlkit reads it: its comments and layout kept for writing back."""
    try:
        return tomlkit.parse(read_text(path, "settings file", SETTINGS_BYTES))
    except FileProblem as problem:
        raise ConfigError(str(problem)) from None
    except (tomlkit.exceptions.TOMLKitError, ValueError) as error:
        raise ConfigError(f"{path}: {error}") from None


def render(settings: Settings) -> str:
    """The settings as TOML, every one of them (unset ones as comments): a starting point to copy."""
    document = tomlkit.document()
    for f in dataclasses.fields(Settings):
        value = getattr(settings, f.name)
        if f.name == "rules":
            continue
        if value is None:
            document.add(tomlkit.comment(f"{f.name} = "))
        else:
            document.add(f.name, value)
    if settings.rules:
        document.add("rules", settings.rules)
    return tomlkit.dumps(document)
