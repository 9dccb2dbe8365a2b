"""`partyhost serve`: its arguments, and what it prints while it serves; the command line hands them here."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from partyhost.config import COMMAND_LINE, apply_overrides, load_settings, settings_path
from partyhost.usage import Parser

if TYPE_CHECKING:
    from partyhost.discovery import Announced
    from partyhost.games_folder import GamesFolder


def add_parser(commands: Any, data_dir: Parser) -> None:
    """The `serve` command and its flags, on the command line's subparsers."""
    serve = commands.add_parser(
        "serve",
        help="be a Home Assistant conversation agent (Wyoming protocol): "
        "players start and play games through their Assist devices",
        parents=[data_dir],
    )
    serve.add_argument(
        "--bind",
        help="address to listen on (default: the settings' serve_bind, else this "
        "machine's LAN address; 0.0.0.0 for all interfaces)",
    )
    serve.add_argument(
        "--port", type=int, help="port to listen on (default: the settings' serve_port, 10800; 0: any free one)"
    )
    serve.add_argument("--no-zeroconf", action="store_true", help="do not announce the service on the network")


def run(args: argparse.Namespace, folder: GamesFolder) -> int:
    """Games played through Home Assistant's Assist devices (partyhost/served_games.py)."""
    from partyhost.served_games import serve as serve_games

    flags = {"serve_bind": args.bind, "serve_port": args.port, "serve_zeroconf": False if args.no_zeroconf else None}
    settings = apply_overrides(load_settings(settings_path()), flags, source=COMMAND_LINE)
    serve_games(folder, settings, _serving)
    return 0


def _serving(bind: str, port: int, announced: Announced | None) -> None:
    at = f", announced as {announced.name} at {announced.address}" if announced and announced.name else ""
    print(f"partyhost: serving games on {bind}:{port} (Wyoming protocol){at}", flush=True)
    if announced and announced.reason:
        print(f"partyhost: not announced: {announced.reason}", flush=True)
    print(
        "partyhost: in Home Assistant: Settings > Devices & services > Add integration > "
        f"Wyoming Protocol, this machine's address, port {port}; then choose partyhost as the "
        "conversation agent of an Assist pipeline",
        flush=True,
    )
