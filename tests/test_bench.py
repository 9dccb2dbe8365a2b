"""`partyhost bench accuracy` on the committed recordings (tests/fixtures/voice), the
real recogniser and matcher, with the output shape of docs/specs/manifest.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def slow(test):
    """Real recordings and the real recogniser."""
    return pytest.mark.slow(pytest.mark.model(pytest.mark.audio(test)))


REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / "tests" / "fixtures" / "voice" / "manifest.jsonl"
LAST_LINE = re.compile(r"^accuracy=(\d\.\d{3}) false_accepts=(\d+) n=(\d+) p50_ms=(\d+) p95_ms=(\d+)$")


@slow
def test_the_fixtures_cover_every_prompt_of_every_game():
    from voice.understanding.grammar import load_grammar

    lines = [json.loads(line) for line in MANIFEST.read_text().splitlines()]
    said = {f"{line['game']}/{line['prompt']}" for line in lines}
    every = {
        p
        for g in ("keep-it-100", "zero-to-100", "keep-cool", "one-percent", "centurion", "common")
        for p in load_grammar(g).prompts
        if p != "common/any"
    }
    assert every <= said
    assert sum(line["expect"] == {"intent": "none"} for line in lines) >= 20  # chatter, noise, music


@slow
def test_bench_accuracy_on_the_fixtures(tmp_path):
    out = tmp_path / "result.json"
    env = {**os.environ, "PARTYHOST_CONFIG": os.devnull}
    run = subprocess.run(
        [sys.executable, "-m", "partyhost", "bench", "accuracy", str(MANIFEST), "--json", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    match = LAST_LINE.match(run.stdout.strip().splitlines()[-1])
    assert match, run.stdout[-500:]
    accuracy, false_accepts, n = float(match[1]), int(match[2]), int(match[3])
    result = json.loads(out.read_text())
    assert n == len(result["items"]) == len(MANIFEST.read_text().splitlines())
    assert {"id", "condition", "expect", "got", "correct", "ms"} <= set(result["items"][0])
    assert false_accepts == 0  # noise, music and chatter never become moves
    assert accuracy >= 0.9  # measured 0.929 when these were recorded


@slow
def test_keep_cool_chatter_is_a_clue_and_anything_else_a_false_accept():
    """At a Keep Cool turn speech not understood is a clue (as live); chatter that
    becomes a hit claim is still a false accept."""
    from host.games import unclear_intent
    from partyhost.bench.manifest import is_negative, summarise

    clue = unclear_intent("keep-cool/word")
    assert clue == {"intent": "word", "word": None} and unclear_intent("common/number") is None
    line = {"expect": clue, "source": "chatter", "negative": True}
    taken = [
        {
            "expect": clue,
            "got": got,
            "correct": got == clue,
            "negative": is_negative(line),
            "prompt": "keep-cool/word",
            "condition": "clean",
            "ms": 1.0,
        }
        for got in (clue, {"intent": "hit"})
    ]
    summary = summarise(taken)
    assert summary["negatives"] == 2 and summary["false_accepts"] == 1
    assert not is_negative({"expect": clue, "source": "script"})
    assert not is_negative({"expect": clue, "source": "chatter"})  # only the field says so


@slow
def test_bench_grammar_loads_exactly_the_file_named(tmp_path):
    """--grammar FILE is that file, whatever the manifest's game is called; a missing one is an error."""
    from voice.understanding.grammar import GrammarError
    from voice.understanding.matcher import Matcher

    grammar = tmp_path / "any-name.yaml"
    grammar.write_text(
        "language: en\nprompts:\n  shop/order: [buy]\nintents:\n  buy:\n"
        "    data:\n      - sentences: ['(tea|coffee) for me']\n"
    )
    matcher = Matcher(common=False, grammar_file=grammar)
    assert matcher.match("shop/order", "tea for me").intent == {"intent": "buy"}
    with pytest.raises(GrammarError, match="not found"):
        Matcher(common=False, grammar_file=tmp_path / "missing.yaml")


@slow
def test_make_fixtures_refuses_espeak_voices_it_cannot_find(tmp_path):
    """Asked for espeak-ng's held-apart voices where espeak-ng is missing, the fixture
    builder says so and writes nothing, rather than a set with those voices left out."""
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # python, but no espeak-ng
    run = subprocess.run(
        [sys.executable, "scripts/make_fixtures.py", str(tmp_path / "set"), "--espeak", "--limit", "1"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2
    assert "espeak-ng is not installed" in run.stderr
    assert not (tmp_path / "set" / "manifest.jsonl").exists()


@slow
def test_the_summary_tells_a_wrong_move_from_a_question_again():
    """Both are misses; only a move other than the one expected is "acted wrongly", and
    "unasked" when the host would make it without "Did you mean ...?" first."""
    from partyhost.bench.manifest import format_summary, summarise

    def item(got, correct, negative=False, asked=False):
        return {
            "prompt": "common/number",
            "condition": "clean",
            "got": got,
            "correct": correct,
            "negative": negative,
            "asked": asked,
            "ms": 10.0,
        }

    twelve = {"intent": "number", "value": 12}
    twenty = {"intent": "number", "value": 20}
    summary = summarise(
        [
            item(twelve, True),
            item(twenty, False),
            item(twenty, False, asked=True),
            item(twelve, True, asked=True),
            item(None, False),
            item(None, True, negative=True),
            item(twelve, True),
            item(twelve, True),
        ]
    )
    assert summary["by_prompt"]["common/number"] == {
        "n": 8,
        "accuracy": 0.625,
        "acted_wrongly": 0.25,
        "unasked": 0.125,
        "asked": 0.25,
    }
    header = format_summary(summary).splitlines()[0]
    assert "acted wrongly" in header and "unasked" in header and "asked first" in header


def quiet_manifest(folder: Path, count: int = 6, peak_dbfs: float = -40.0) -> Path:
    """Some clean fixtures of moves, each scaled to `peak_dbfs` (a soft voice at the far
    end of the table), as a manifest of their own."""
    import numpy as np
    import soundfile

    from partyhost.bench.manifest import is_negative, manifest_lines
    from voice.listening.audio_in import read_wav_16k

    lines = [line for line in manifest_lines(MANIFEST) if not is_negative(line) and "clean" in line["condition"]]
    folder.mkdir(parents=True, exist_ok=True)
    chosen = []
    for line in lines[:: len(lines) // count][:count]:
        audio = read_wav_16k(MANIFEST.parent / line["wav"])
        quiet = audio / np.max(np.abs(audio)) * 10 ** (peak_dbfs / 20)
        name = Path(line["wav"]).name
        soundfile.write(folder / name, quiet, 16000, subtype="PCM_16")
        chosen.append(json.dumps({**line, "wav": name}))
    manifest = folder / "manifest.jsonl"
    manifest.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    return manifest


@slow
def test_the_bench_finds_a_quiet_voice_through_the_front_end_as_the_live_ears_do(tmp_path):
    """A recording at -40 dBFS peak: the endpointer alone hears nothing in it; the bench
    hears it, as the live ears do, because the front end's gain comes first (and hears
    nothing either with the gain set off)."""
    from partyhost.bench.manifest import first_utterance, frames_of, manifest_lines
    from partyhost.config import Settings
    from voice.listening.audio_in import read_wav_16k
    from voice.listening.endpoint import Endpointer

    manifest = quiet_manifest(tmp_path)
    for line in manifest_lines(manifest):
        audio = read_wav_16k(manifest.parent / line["wav"])
        assert list(Endpointer().utterances(frames_of(audio))) == []
        assert first_utterance(audio) is not None
        assert first_utterance(audio, Settings(agc=False)) is None


@slow
def test_bench_accuracy_reads_a_quiet_speaker_as_the_live_ears_do(tmp_path):
    """`bench accuracy` on quiet recordings gets the moves the live path gets (it read
    4.5 % of a quiet speaker's replies right without the front end, 99 % through it)."""
    from partyhost.bench.manifest import make_listener, run_accuracy
    from partyhost.config import Settings

    manifest = quiet_manifest(tmp_path)
    heard = run_accuracy(manifest, make_listener(Settings()), progress=False)
    assert heard["summary"]["accuracy"] == 1.0, [(i["id"], i["heard"]) for i in heard["items"]]
    unaided = run_accuracy(manifest, make_listener(Settings(agc=False)), progress=False)
    assert unaided["summary"]["accuracy"] == 0.0


LAB = REPO / "lab" / "partyhost_lab"
TEST_MODULES = {p.stem for p in (REPO / "tests").glob("*.py")}


def test_the_lab_stands_apart_from_the_tests_and_the_product_from_the_lab():
    """The lab imports nothing of tests/ and touches no import path; the product imports
    nothing of the lab (its `bench` command finds the lab's benches by entry point)."""
    from test_layers import imported_modules, project_imports

    for path in LAB.glob("*.py"):
        assert not {m.split(".")[0] for m in imported_modules(path)} & TEST_MODULES, path.name
        assert "sys.path" not in path.read_text(encoding="utf-8"), path.name
        assert '"tests"' not in path.read_text(encoding="utf-8"), path.name
    for top in ("host", "voice", "partyhost"):
        for path in (REPO / top).rglob("*.py"):
            assert not any(m.startswith("partyhost_lab") for m in project_imports(path)), path


def test_the_command_line_loads_nothing_of_the_tests_or_the_lab_until_a_lab_bench_runs():
    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, partyhost.cli, partyhost.bench.manifest, partyhost.bench.model_choice\n"
            "print('\\n'.join(str(getattr(m, '__file__', None)) for m in list(sys.modules.values())))",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    ).stdout.splitlines()
    assert not [f for f in listed if f.startswith((str(REPO / "tests"), str(REPO / "lab")))]


def test_only_the_bench_command_looks_for_the_labs_benches():
    """Another command's start-up never loads the lab (nor scans for it); `bench` lists
    the lab's benches beside the product's own where the lab is installed."""
    check = (
        "import sys, contextlib, io\n"
        "from partyhost.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['decks', 'stats'])\n"
        "print('partyhost_lab.commands' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.strip() == "False", done.stderr
    listed = subprocess.run(
        [sys.executable, "-m", "partyhost", "bench", "--help"], capture_output=True, text=True, cwd=REPO, check=True
    ).stdout
    assert all(name in listed for name in ("accuracy", "latency", "table", "chatter", "commands", "tts", "coffee"))


def test_the_benches_of_one_part_refuse_bad_arguments_in_one_line():
    """`bench tts`, `satellite` and `coffee` (once scripts of their own) check their arguments
    as every bench does, before anything loads or starts."""
    for args, reason in (
        (("tts", "--repeat", "0"), "--repeat"),
        (("satellite", "--chunk", "1"), "--chunk"),
        (("coffee", "--snr", "loud"), "--snr loud"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "partyhost", "bench", *args], capture_output=True, text=True, cwd=REPO, timeout=60
        )
        assert run.returncode == 2 and reason in run.stderr and len(run.stderr.strip().splitlines()) == 1, run


def test_every_file_the_lab_names_by_path_is_there():
    """The lab finds its files from its own folder; a path left pointing where a file
    used to be (the matcher bench's example grammar) fails here, not at a bench run."""
    from partyhost_lab import coffee, live_satellite, matcher, scripted

    for path in (matcher.EXAMPLE, scripted.CASES_FILE, live_satellite.MIC, coffee.GRAMMAR):
        assert path.is_file(), path
    assert all(case.decks() is not None for case in scripted.load_cases())  # every deck cases.yaml names


def test_benches_that_cannot_load_are_told_in_one_line_and_the_rest_still_run(monkeypatch, capsys):
    from importlib.metadata import EntryPoint

    from partyhost.bench import commands
    from partyhost.cli import build_parser

    broken = EntryPoint(name="broken", value="no_such_bench_module", group=commands.BENCH_GROUP)
    monkeypatch.setattr(commands, "entry_points", lambda group: [broken])
    args = build_parser(more_benches=True).parse_args(["bench", "accuracy", "/nowhere.jsonl"])
    told = capsys.readouterr().err.strip().splitlines()
    assert len(told) == 1 and "no_such_bench_module did not load" in told[0] and "Traceback" not in told[0]
    assert set(args.bench_runners) == {"accuracy", "latency"}  # the product's own benches stay
