"""`partyhost models fetch|list`: the arguments, and what each prints; the command line hands them here."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from host.contract import PartyhostError
from partyhost.config import load_settings, settings_path


class ModelUsageError(PartyhostError):
    """A model named that does not exist, or --from with other than one model."""


def add_parser(commands: Any) -> None:
    """The `models` command and its actions, on the command line's subparsers."""
    models = commands.add_parser("models", help="downloadable speech models")
    actions = models.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    fetch = actions.add_parser("fetch", help="download, verify (SHA-256) and unpack models")
    fetch.add_argument(
        "names",
        nargs="*",
        help="which models (default: every one in models/manifest.json but the larger "
        "Whisper models and any without a published checksum)",
    )
    fetch.add_argument(
        "--from",
        dest="archive",
        type=Path,
        metavar="FILE",
        help="install one model from its archive, downloaded elsewhere (no network needed)",
    )
    listing = actions.add_parser("list", help="the models and whether they are installed")
    for sub in (fetch, listing):
        sub.add_argument(
            "--models-dir", help="where models go (default: the settings' models_dir, else the platform data folder)"
        )


def run(args: argparse.Namespace) -> int:
    """List the models, or fetch the ones named (every verifiable small one by default)."""
    from partyhost.models import default_models_dir, fetch, load_manifest, provided_by_package

    folder = Path(args.models_dir or load_settings(settings_path()).models_dir or default_models_dir())
    entries = load_manifest()
    if args.model_command == "list":
        from partyhost.model_list import model_lines

        print("\n".join(model_lines(entries, folder)))
        return 0
    unknown = set(args.names) - {e.name for e in entries}
    if unknown:
        raise ModelUsageError(f"no model called {', '.join(sorted(unknown))}; see: partyhost models list")
    if args.archive and len(args.names) != 1:
        raise ModelUsageError(
            f"--from installs one model: name it, e.g. partyhost models fetch {entries[0].name} --from {args.archive}"
        )
    for entry in entries:
        if args.names and entry.name not in args.names:
            continue
        if not args.names and (entry.backend == "whisper" or entry.unverifiable()):
            print(
                f"{entry.name}: only when named (a larger recogniser, or no published checksum); "
                "see: partyhost models list"
            )
            continue
        package = provided_by_package(entry)
        print(
            f"{entry.name}: in the {package} package already, not downloaded"
            if package
            else f"{entry.name}: ready in {fetch(entry, folder, archive=args.archive)}"
        )
    return 0
