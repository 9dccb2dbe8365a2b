"""Wyoming events read with limits, for both ends: the host's servers' answers and `partyhost serve`.

The wyoming package reads whatever a peer announces: a header line up to the stream's
buffer, `data_length` and `payload_length` of any size, JSON of any depth (60,000 open
brackets end in a RecursionError). A peer is a program on the network, so here each
part has a ceiling (EventLimits), the JSON a depth, and anything beyond is a BadEvent
that says what was wrong; the caller drops the connection (a server) or treats the peer
as failed (a client). Events are written with the wyoming package's own writer.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from wyoming.event import Event

from host.contract import JsonObject  # where host and voice meet
from voice.remote.nesting import depth


@dataclass(frozen=True)
class EventLimits:
    """The largest event parts accepted, in bytes, and how deep its JSON may nest."""

    header: int = 8 << 10
    data: int = 64 << 10
    payload: int = 1 << 20
    depth: int = 32


class BadEvent(ValueError):
    """What the peer sent is not an event within the limits; the message says what."""


async def read_event(reader: asyncio.StreamReader, limits: EventLimits) -> Event | None:
    """The next event, None at the end of the stream; BadEvent for anything else."""
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as end:
        if not end.partial.strip():
            return None
        raise BadEvent("the connection ended in the middle of an event") from None
    except asyncio.LimitOverrunError:
        raise BadEvent(f"an event header longer than {limits.header} bytes") from None
    if len(line) > limits.header:
        raise BadEvent(f"an event header longer than {limits.header} bytes")
    header = _json(line, limits, "header")
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise BadEvent("a header that is not an event")
    data = header.get("data") or {}
    if not isinstance(data, dict):
        raise BadEvent("event data that is not an object")
    data_length = _length(header, "data_length", limits.data)
    if data_length:
        more = _json(await _exactly(reader, data_length), limits, "data")
        if not isinstance(more, dict):
            raise BadEvent("event data that is not an object")
        data = {**data, **more}
    payload_length = _length(header, "payload_length", limits.payload)
    payload = await _exactly(reader, payload_length) if payload_length else None
    return Event(type=header["type"], data=data, payload=payload)


def _length(header: JsonObject, key: str, limit: int) -> int:
    value = header.get(key) or 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadEvent(f"a {key} that is not a size")
    if value > limit:
        raise BadEvent(f"a {key} of {value} bytes; at most {limit}")
    return value


async def _exactly(reader: asyncio.StreamReader, size: int) -> bytes:
    try:
        return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise BadEvent("the connection ended in the middle of an event") from None


def _json(raw: bytes, limits: EventLimits, part: str) -> Any:
    try:
        value = json.loads(raw)
    except RecursionError:
        raise BadEvent(f"event {part} nested deeper than {limits.depth}") from None
    except ValueError:
        raise BadEvent(f"event {part} that is not JSON") from None
    if depth(value) > limits.depth:
        raise BadEvent(f"event {part} nested deeper than {limits.depth}")
    return value
