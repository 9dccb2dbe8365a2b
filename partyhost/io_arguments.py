"""The listening and speaking flags of `partyhost play` and `resume`, and the IOChoice they make."""

from __future__ import annotations

import argparse
from pathlib import Path

from partyhost.game_setup import IOChoice
from partyhost.invoked import command
from partyhost.usage import named
from voice.recognizers import BACKENDS


def add_io_arguments(parser: argparse.ArgumentParser) -> None:
    io = parser.add_argument_group("listening and speaking (defaults from the settings file)")
    io.add_argument(
        "--input",
        type=named,
        help="mic, text (typed lines), FILE.wav (a recording as the microphone) "
        "or wyoming://HOST:PORT (a voice satellite's microphone)",
    )
    io.add_argument(
        "--output",
        type=named,
        help="speaker, text (printed lines), FILE.wav (all the host says) "
        "or wyoming://HOST:PORT (a voice satellite's speaker)",
    )
    io.add_argument("--input-device", help=f"microphone name or index (see: {command()} devices)")
    io.add_argument("--output-device", help="speaker name or index")
    io.add_argument(
        "--backend",
        help=f"recogniser: {', '.join(BACKENDS)}, or wyoming://HOST:PORT "
        "(a Wyoming speech-to-text server; the local one if it fails)",
    )
    io.add_argument(
        "--voice",
        help="wyoming://HOST:PORT: a Wyoming text-to-speech server speaks (the local Piper voice if it fails)",
    )
    io.add_argument("--events", metavar="FILE.jsonl", type=named, help="also write the event log here")
    io.add_argument("--hide-private", action="store_true", help="do not print players' secret cards")
    io.add_argument(
        "--reveal-words",
        action="store_true",
        help="print every player's secret cards (Keep Cool's words) on the terminal, "
        "whatever the settings say: for a manual test (--phones is the private way)",
    )
    io.add_argument(
        "--phones",
        action="store_true",
        default=None,
        help="show each player's secret cards on their own phone (host deal)",
    )
    io.add_argument("--phones-port", type=int, help="port of the phone pages (default 8080; 0: any free one)")
    io.add_argument(
        "--phones-bind",
        help="address to serve the phone pages on (default: this machine's LAN address; 0.0.0.0 for all interfaces)",
    )


def io_choice(args: argparse.Namespace) -> IOChoice:
    return IOChoice(
        input=args.input,
        output=args.output,
        input_device=args.input_device,
        output_device=args.output_device,
        backend=args.backend,
        voice=args.voice,
        show_private=True if args.reveal_words else False if args.hide_private else None,
        phones=args.phones,
        phones_port=args.phones_port,
        phones_bind=args.phones_bind,
        events=Path(args.events) if args.events else None,
    )
