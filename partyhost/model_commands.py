"""`partyhost models fetch|list`: the arguments, and what each prints; the command line hands them here."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from host.errors import PartyhostError, command, did_you_mean
from partyhost.config import load_settings, settings_path

if TYPE_CHECKING:
    from partyhost.models import ModelEntry


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
        metavar="NAME",
        help="which models (see: models list; default: every one listed but the larger Whisper models)",
    )
    fetch.add_argument(
        "--from",
        dest="archive",
        type=Path,
        metavar="FILE|FOLDER",
        help="install one model without the network, from what was downloaded elsewhere: its archive "
        "(or the folder holding it), or for a model of several files the folder holding them",
    )
    listing = actions.add_parser("list", help="the models that can be installed here, and whether they are")
    for sub in (fetch, listing):
        sub.add_argument(
            "--models-dir", help="where models go (default: the settings' models_dir, else the platform data folder)"
        )


def run(args: argparse.Namespace) -> int:
    """List the models, or fetch the ones named (every verifiable small one by default)."""
    from partyhost.models import default_models_dir, fetch, installed, load_manifest, provided_by_package

    folder = Path(args.models_dir or load_settings(settings_path()).models_dir or default_models_dir())
    entries = load_manifest()
    models = f"{command()} models"
    again = f" --models-dir {shlex.quote(args.models_dir)}" if args.models_dir else ""
    if args.model_command == "list":
        from partyhost.model_list import model_lines

        print("\n".join(model_lines(entries, folder, f"{models} fetch {{name}}{again}")))
        return 0
    by_name = {entry.name: entry for entry in entries}
    for name in args.names:
        if name not in by_name:
            close = did_you_mean(name, by_name) or f"; see: {models} list{again}"
            raise ModelUsageError(f"no model called {name}{close}")
        entry = by_name[name]
        if entry.unverifiable() and not installed(entry, folder):
            raise ModelUsageError(_not_offered(entry, entries, f"{models} fetch {{name}}{again}"))
    if args.archive and len(args.names) != 1:
        raise ModelUsageError(
            f"--from installs one model: name it, e.g. {models} fetch {entries[0].name} --from {args.archive}{again}"
        )
    for entry in entries:
        if args.names and entry.name not in args.names:
            continue
        if not args.names and (entry.unverifiable() or entry.backend == "whisper"):
            if not entry.unverifiable():  # the larger recognisers: hundreds of megabytes, only when named
                print(f"{entry.name}: only when named: {models} fetch {entry.name}{again}")
            continue
        package = provided_by_package(entry)
        if package:
            print(f"{entry.name}: in the {package} package already, not downloaded")
            continue
        where = fetch(entry, folder, archive=args.archive, again=f"{models} fetch {entry.name}{again}")
        print(f"{entry.name}: ready in {where}")
    return 0


def _not_offered(entry: ModelEntry, entries: list[ModelEntry], fetch_command: str) -> str:
    """Why a model without a published checksum is not installed, and the one that does its job."""
    instead = next(
        (e.name for e in entries if e.backend == entry.backend and e.name != entry.name and not e.unverifiable()), None
    )
    other = f"; `{fetch_command.format(name=instead)}` installs one that can be" if instead else ""
    return (
        f"{entry.name} cannot be installed: no published SHA-256 is known for "
        f"{', '.join(entry.unverifiable())}, and partyhost installs nothing it cannot check{other}"
    )
