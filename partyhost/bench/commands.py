"""`partyhost bench ...`: the measuring a player runs on their own machine (`accuracy` of a
manifest of their recordings, `latency`, and `latency --choose` to pick the Whisper model this
box can afford), and the benches a checkout adds (the lab, lab/partyhost_lab: installed
beside partyhost in a checkout, never in the wheel; found by the entry point group
`partyhost.bench`).

Every benchmark module keeps its own `command`; this only reads the arguments, refuses bad
ones in one line (BenchUsageError) and calls it.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Protocol

from host.errors import PartyhostError
from partyhost.config import Settings, load_settings, settings_path

BENCH_GROUP = "partyhost.bench"
"""The entry point group of bench modules installed beside partyhost (the lab's)."""


class BenchUsageError(PartyhostError):
    """Benchmark arguments that cannot run; told in one line."""


Runner = Callable[[argparse.Namespace, Settings], int]


class MoreBenches(Protocol):
    """A module of benches another package adds: its parsers, and a runner for each."""

    RUNNERS: dict[str, Runner]

    def add_benches(self, benches: Any) -> None: ...


def add_parser(commands: Any, more_benches: bool = True) -> None:
    """The `bench` command and its benchmarks, on the command line's subparsers; with
    `more_benches`, those another package adds too."""
    bench = commands.add_parser("bench", help="measure recognition accuracy and latency")
    benches = bench.add_subparsers(dest="bench_command", metavar="WHAT", required=True)
    _add_recognition(benches)
    runners = dict(RUNNERS)
    for more in _more_benches() if more_benches else ():
        more.add_benches(benches)
        runners.update(more.RUNNERS)
    bench.set_defaults(bench_runners=runners)  # run() takes them from here: the lab is looked for once


def _more_benches() -> list[MoreBenches]:
    """The bench modules installed beside partyhost; one that cannot load is told in one
    line and left out, so a broken checkout never stops the command line."""
    found: list[MoreBenches] = []
    for point in entry_points(group=BENCH_GROUP):
        try:
            found.append(point.load())
        except Exception as error:  # noqa: BLE001 (any import failure of another package: told, never raised)
            print(f"partyhost: the benches of {point.value} did not load ({error})", file=sys.stderr)
    return found


def _add_recognition(benches: Any) -> None:
    accuracy = benches.add_parser("accuracy", help="a manifest of recordings (docs/specs/manifest.md)")
    accuracy.add_argument("manifest", type=Path, help="MANIFEST.jsonl")
    accuracy.add_argument("--grammar", type=Path, help="a grammar file of your own (prompts named in it)")
    accuracy.add_argument("--json", type=Path, help="write every item's result here")
    latency = benches.add_parser("latency", help="end of speech to intent, TTS, idle CPU, memory")
    latency.add_argument(
        "manifest", type=Path, nargs="?", help="recordings to time (default: replies said by the host's own voice)"
    )
    latency.add_argument(
        "--paced",
        action="store_true",
        help="also play clips in real time into the ears, with and without reading ahead",
    )
    latency.add_argument(
        "--choose",
        action="store_true",
        help="time every installed Whisper model and set the largest with p95 within "
        "400 ms as the settings' whisper_model",
    )
    latency.add_argument(
        "--cores",
        type=int,
        help="run on this many cores only, as a Raspberry Pi or a busy laptop gives the host (default: all)",
    )
    for sub in (accuracy, latency):
        sub.add_argument(
            "--backend", help="recogniser, or wyoming://HOST:PORT (default: the settings', else the measured default)"
        )


# ---- running them ----------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """The benchmark named by `args.bench_command`, with the settings file read first."""
    settings = load_settings(settings_path())
    return args.bench_runners[args.bench_command](args, settings)


def _recognition_settings(args: argparse.Namespace, settings: Settings) -> Settings:
    """The settings with the recogniser asked for (checked by name: a typo is told in one line)."""
    backend = args.backend or settings.backend
    if backend:
        from voice.recognizers import check_backend_name

        try:
            check_backend_name(backend)
        except ValueError as error:
            raise BenchUsageError(f"the recogniser {error}") from error
    return dataclasses.replace(settings, backend=backend)


def _accuracy(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost.bench import manifest

    settings = _recognition_settings(args, settings)
    if not args.manifest.is_file():
        raise BenchUsageError(f"no manifest at {args.manifest}")
    return manifest.accuracy_command(args.manifest, settings, args.grammar, args.json)


def _latency(args: argparse.Namespace, settings: Settings) -> int:
    from partyhost.bench import manifest

    settings = _recognition_settings(args, settings)
    if args.cores:
        from voice.cores import keep_to_cores

        kept = keep_to_cores(args.cores)
        print(f"cores={len(kept)} (this run is kept to core {', '.join(map(str, kept))}; threads follow)")
    with tempfile.TemporaryDirectory(prefix="partyhost-lines-") as spoken:
        recordings = args.manifest or _own_recordings(Path(spoken))
        from partyhost.models import default_models_dir

        models_dir = Path(settings.models_dir or default_models_dir())
        if args.choose:
            from partyhost.bench.model_choice import choose_command

            return choose_command(models_dir, recordings)
        return manifest.latency_command(recordings, settings, args.paced, models_dir)


def _own_recordings(folder: Path) -> Path:
    """The product's own replies in the host's voice, where no manifest is named."""
    from partyhost.bench.own_lines import spoken_manifest

    print("Timing replies spoken by the host's own voice (name a manifest to time your own recordings).")
    return spoken_manifest(folder)


RUNNERS: dict[str, Runner] = {"accuracy": _accuracy, "latency": _latency}
"""Each of the product's own `bench` subcommands' runner."""
