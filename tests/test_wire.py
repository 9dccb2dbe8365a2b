"""Wyoming events read with limits (voice/remote/wire.py): what passes, and why the rest does not."""

from __future__ import annotations

import asyncio
import json

import pytest
from wyoming.event import Event, async_write_event

from voice.remote.nesting import depth
from voice.remote.wire import BadEvent, EventLimits, read_event

LIMITS = EventLimits(header=8 << 10, data=64 << 10, payload=64 << 10, depth=16)


def read(raw: bytes, limits: EventLimits = LIMITS) -> Event | None:
    async def go():
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        return await read_event(reader, limits)

    return asyncio.run(go())


def written(event: Event) -> bytes:
    """The bytes the wyoming package itself writes for `event`."""

    class Sink:
        data = b""

        def writelines(self, parts):
            self.data += b"".join(parts)

        def write(self, part):
            self.data += part

        async def drain(self):
            pass

    sink = Sink()
    asyncio.run(async_write_event(event, sink))
    return sink.data


def test_events_as_the_wyoming_package_writes_them_are_read_back():
    for event in (
        Event("transcript", {"text": "card one", "context": {"conversation_id": "x"}}),
        Event("audio-chunk", {"rate": 16000, "width": 2, "channels": 1}, payload=b"\1\2" * 2000),
        Event("describe"),
    ):
        again = read(written(event))
        assert (again.type, again.data, again.payload or None) == (event.type, event.data, event.payload or None)
    assert read(b"") is None  # the peer closed


@pytest.mark.parametrize(
    "raw, why",
    [
        (
            b'{"type": "transcript", "data": ' + b"[" * 60_000 + b"]" * 60_000 + b"}\n",
            "an event header longer than 8192",
        ),
        (
            b'{"type": "transcript", "data": {"text": ' + b"[" * 40 + b"]" * 40 + b"}}\n",
            "event header nested deeper than 16",
        ),
        (b'{"type": "t", "data_length": 70}\n' + b"[" * 35 + b"]" * 35, "event data nested deeper than 16"),
        (b'{"type": "transcript", "data_length": 1000000000}\n', "a data_length of 1000000000 bytes; at most 65536"),
        (b'{"type": "audio-chunk", "payload_length": 99999999}\n', "a payload_length of 99999999 bytes; at most 65536"),
        (b'{"type": "t", "payload_length": -5}\n', "a payload_length that is not a size"),
        (b'{"type": "t", "data_length": "9"}\n', "a data_length that is not a size"),
        (b"x" * 200_000, "an event header longer than 8192"),
        (b"this is not json\n", "event header that is not JSON"),
        (b"[1, 2]\n", "a header that is not an event"),
        (b'{"type": 5}\n', "a header that is not an event"),
        (b'{"type": "t", "data": 5}\n', "event data that is not an object"),
        (b'{"type": "t", "data_length": 9}\n[1, 2, 3]', "event data that is not an object"),
        (b'{"type": "t", "data_length": 9999}\n{"text"', "the connection ended in the middle of an event"),
        (b'{"type": "t"', "the connection ended in the middle of an event"),
        (b'{"type": "t"}\xff\xfe\n', "event header that is not JSON"),
    ],
)
def test_what_is_not_an_event_within_limits_says_why(raw, why):
    with pytest.raises(BadEvent) as refused:
        read(raw)
    assert str(refused.value).startswith(why)


def test_depth_counts_without_recursion():
    deep = json.loads("[" * 900 + "]" * 900)
    assert depth(deep) == 900 and depth(5) == 0 and depth({"a": [1, {"b": []}]}) == 4
