"""Documentation generated from code must match the code."""

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_rules_doc_is_current():
    spec = importlib.util.spec_from_file_location("rules_doc", REPO / "scripts" / "rules_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (REPO / "docs" / "rules.md").read_text(encoding="utf-8") == module.render(), (
        "docs/rules.md is stale: run python scripts/rules_doc.py"
    )


# ---- the README's commands run as written, after the two commands -------------------

README_COMMANDS = [
    line.split("  #")[0].strip()
    for block in re.findall(r"```sh\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    for line in block.splitlines()
    if line.strip()
]


def partyhost_words(command: str) -> tuple[list[str], str | None]:
    """The arguments after scripts/run, and the file piped in with '<' (or None)."""
    words = shlex.split(command)
    stdin = words[words.index("<") + 1] if "<" in words else None
    words = words[: words.index("<")] if "<" in words else words
    assert words[0] == "scripts/run", command
    return words[1:], stdin


def test_the_readme_is_for_players_and_short():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert README_COMMANDS and all(
        c.split()[0] in ("scripts/run", "scripts/test", "scripts/install-service") for c in README_COMMANDS
    ), "partyhost is not on PATH after the two commands"
    for tool in ("scripts/run", "scripts/test", "scripts/install-service", "scripts/ci-system-deps"):
        assert (REPO / tool).is_file() and os.access(REPO / tool, os.X_OK), tool


def test_the_readme_says_where_a_piped_scripts_settings_come_from():
    """A piped script ends as written only with its case's settings, in a new data folder:
    the README names the file that holds them, and its own piped example agrees with it."""
    from replay import load_cases

    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert (
        "lab/scripted_games/cases.yaml" in text and "--data-dir" in text.split("lab/scripted_games/cases.yaml")[1][:300]
    )
    piped = [partyhost_words(c) for c in README_COMMANDS if " < " in c]
    assert piped
    for words, stdin in piped:
        case = next(case for case in load_cases() if f"lab/scripted_games/{case.script}" == stdin)
        asked = case.cli_arguments()
        for flag in ("--players", "--seed", "--mode", "--deal", "--rules"):
            given = [words[i + 1] for i, word in enumerate(words[:-1]) if word == flag]
            wanted = [asked[i + 1] for i, word in enumerate(asked[:-1]) if word == flag]
            assert not given or given == wanted, (flag, given, wanted)
        assert "--seed" in words


@pytest.mark.parametrize("command", [c for c in README_COMMANDS if c.startswith("scripts/run")])
def test_every_readme_command_is_understood(command):
    from partyhost.cli import build_parser

    words, stdin = partyhost_words(command)
    build_parser().parse_args(words)  # an unknown flag or choice exits here
    assert stdin is None or (REPO / stdin).is_file()


SPOKEN = ("--input", "text", "--output", "text")
"""What a command meant for a microphone and a speaker runs with here, so that its game
starts as the command sets it up (players, mode) and stops at the end of the input."""

OUTCOMES: dict[str, tuple[str, ...]] = {
    'scripts/run play keep-it-100 --players "Ana,Ben,Cy" --input text --output text': (
        "HOST: Keep It 100!",
        "HOST: Ana, you're the Slider",
        "HOST: The game is saved.",
    ),
    'scripts/run play centurion --mode vs-host --players "Ana"': (
        "HOST: Centurion! First to 21 points wins.",
        "HOST: The game is saved.",
    ),
    'scripts/run play zero-to-100 --players "Ana,Ben,Cy,Dan" --input text --output text': (
        "Teams: Ana and Dan. Ben. Cy.",
        "HOST: The game is saved.",
    ),
    'scripts/run play one-percent --players "Ana,Ben,Cy" --seed 26 --input text --output text'
    " < lab/scripted_games/one-percent-basic-host.txt": ("HOST: Cy wins the game with a winning roll!",),
    "scripts/run rules keep-cool": ("Keep Cool. Everyone holds 4 secret words.", "Modes: basic, too-cool."),
    'scripts/run play keep-cool --players "Ana,Ben,Cy" --rules turn_seconds=12 --input text --output text': (
        "HOST: Keep Cool, the basic game, for Ana, Ben and Cy.",
        "HOST: The game is saved.",
    ),
    "scripts/run sessions": ("one-percent  over", "keep-cool    playing"),
    "scripts/run resume": ("HOST: Welcome back to Centurion.",),  # the phones game, the newest
    "scripts/run sessions --check": ("6 saved games checked", "all can be resumed"),
    "scripts/run sessions --prune": (
        "keep-it-100, 0 moves",
        "centurion, 0 moves",
        "zero-to-100, 0 moves",
        "keep-cool, 0 moves",
    ),
    "scripts/run decks check --questions lab/scripted_games/decks/questions-starter.csv": (
        "151 questions, 0 word cards",
    ),
    "scripts/run decks stats": ("questions: 601", "for keep-it-100: 267"),
    "scripts/run models list": ("whisper-tiny.en (shipped)",),
    'scripts/run play centurion --players "Ana,Ben" --phones --input text --output text': (
        "PHONES: open http://",
        "HOST: Your secret cards are on your phones.",
        "HOST: The game is saved.",
    ),
}
"""What each command shows when it has run to its end, in the README's order, on one
machine: a first evening's games, then the saved games they left."""

NOT_RUN = {
    "scripts/test": "the tests themselves",
    "scripts/run": "the spoken menu (tests/test_cli.py plays it; without sound devices: below)",
    "scripts/run devices": "this machine's sound devices (tests/test_pulse_device.py; without any: below)",
    "scripts/install-service": "installs a system service (tests/test_cli.py renders its unit)",
}
SPOKEN_COMMANDS = ('scripts/run play centurion --mode vs-host --players "Ana"', "scripts/run resume")


def test_every_readme_command_has_an_outcome_or_a_reason():
    assert sorted(set(README_COMMANDS) - set(OUTCOMES) - set(NOT_RUN)) == []
    assert sorted(set(OUTCOMES) | set(NOT_RUN)) == sorted(set(README_COMMANDS))


@pytest.mark.slow
def test_the_readme_commands_run_to_their_end_as_written(tmp_path):
    """A first evening: every command the README shows, in its order and on one machine,
    does what the README says; a piped game is played to its end, refusing nothing."""
    config = tmp_path / "config.toml"
    config.write_text("phones_port = 0\n")  # any free port: another run may hold 8080
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": str(config)}
    for command in [c for c in README_COMMANDS if c in OUTCOMES]:
        words, stdin = partyhost_words(command)
        words += list(SPOKEN) if command in SPOKEN_COMMANDS else []
        piped = (REPO / stdin).read_text(encoding="utf-8") if stdin else ""
        result = subprocess.run(
            [sys.executable, "-m", "partyhost", *words],
            cwd=REPO,
            env=env,
            input=piped,
            capture_output=True,
            text=True,
            timeout=300,
        )
        shown = result.stdout[-3000:] + result.stderr[-2000:]
        assert result.returncode == 0, (command, shown)
        assert "Traceback" not in result.stderr and "Sorry, I didn't catch that" not in result.stdout, shown
        for expected in OUTCOMES[command]:
            assert expected in result.stdout, (command, expected, shown)


NO_SOUND_DEVICE = {"PULSE_SERVER": "unix:/nonexistent"}
"""No sound server: where no sound card either (this machine, CI), no microphone or speaker."""


@pytest.mark.slow
def test_each_readme_command_for_a_microphone_says_what_is_missing_without_one(tmp_path):
    """The README's spoken commands, as written, on a machine with no sound device: each
    says in one line what is missing and how to go on, never a traceback (issue 57)."""
    env = {**os.environ, "PARTYHOST_DATA_DIR": str(tmp_path / "data"), "PARTYHOST_CONFIG": os.devnull}
    env.update(NO_SOUND_DEVICE)

    def as_written(command: str) -> subprocess.CompletedProcess:
        words, _ = partyhost_words(command)
        partyhost = [sys.executable, "-m", "partyhost", *words]
        return subprocess.run(partyhost, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)

    listed = as_written("scripts/run devices")
    if listed.stdout.strip() != "No sound devices found. Plug in a USB speakerphone, or check `pactl info`.":
        pytest.skip(f"this machine has sound devices without a sound server: {listed.stdout[:200]}")
    spoken = [c for c in README_COMMANDS if c in SPOKEN_COMMANDS or c == "scripts/run"]
    assert len(spoken) == 3
    for command in spoken:
        result = as_written(command)
        told = result.stderr.strip()
        assert result.returncode == 2 and "\n" not in told and "Traceback" not in told, (command, result.stderr)
        assert "no microphone" in told and "add --input text" in told or "no unfinished game" in told, (command, told)


# ---- links between the pages -------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_links(page: Path) -> list[str]:
    """The targets of a page's Markdown links that point into the repository (no web
    addresses, no anchor-only links), without their #anchor."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [
        target.split("#")[0]
        for target in LINK.findall(text)
        if not re.match(r"[a-z]+:", target) and not target.startswith("#")
    ]


PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_link_between_pages_leads_to_a_file(page):
    missing = [target for target in relative_links(page) if not (page.parent / target).exists()]
    assert missing == [], f"{page.relative_to(REPO)} links to what is not there: {missing}"


def test_the_home_assistant_page_is_linked_from_the_index_and_the_smart_speaker_page():
    docs = REPO / "docs"
    assert (docs / "home-assistant.md").is_file() and (docs / "smart-speaker.md").is_file()
    assert "home-assistant.md" in relative_links(docs / "README.md")
    assert "home-assistant.md" in relative_links(docs / "smart-speaker.md")
