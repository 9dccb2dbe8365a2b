"""A microphone for wyoming-satellite's --mic-command: raw 16 kHz 16-bit mono at real-time pace.

Stands in for `arecord -r 16000 -c 1 -f S16_LE -t raw`: it writes the room until a
file NAME.raw appears in the mailbox folder, then that file's samples over the room,
then renames it NAME.said (NAME.start holds the time.monotonic() at which its first
sample was "heard", for scripts/bench_satellite.py and `partyhost bench table`), so a
test can speak a line into the room when the host is listening. The room is a faint
noise floor, or (third argument) a raw file of the same format played in a loop
under everything, without a break: a party's continuous noise. Only the standard
library: it runs under any python3.

    satellite_mic.py MAILBOX [SAMPLES_PER_CHUNK [ROOM.raw]]
"""

import os
import random
import sys
import time
from array import array
from pathlib import Path

RATE = 16_000


class Room:
    """The room's own sound, chunk after chunk: a faint floor, or a recording looped."""

    def __init__(self, chunk: int, recording: Path | None):
        noise = random.Random(1)
        self.samples = array("h", (noise.randint(-20, 20) for _ in range(chunk)))
        if recording is not None:
            self.samples = array("h")
            self.samples.frombytes(recording.read_bytes())
            if sys.byteorder == "big":
                self.samples.byteswap()
            if len(self.samples) < chunk:
                sys.exit(f"the room recording {recording} is shorter than one chunk")
        self.at = 0

    def next(self, n: int) -> array:
        out = self.samples[self.at : self.at + n]
        while len(out) < n:
            out += self.samples[: n - len(out)]
        self.at = (self.at + n) % len(self.samples)
        return out


def over(room: array, line: bytes) -> bytes:
    """The line's samples added to the room's (little-endian 16-bit), kept in range."""
    spoken = array("h")
    spoken.frombytes(line)
    if sys.byteorder == "big":
        spoken.byteswap()
    mixed = array("h", (max(-32768, min(32767, a + b)) for a, b in zip(room, spoken)))
    mixed += room[len(spoken) :]
    if sys.byteorder == "big":
        mixed.byteswap()
    return mixed.tobytes()


def main() -> None:
    mailbox = Path(sys.argv[1])
    chunk = int(sys.argv[2]) if len(sys.argv) > 2 else 1024  # samples, as the satellite reads them
    room = Room(chunk, Path(sys.argv[3]) if len(sys.argv) > 3 else None)
    seconds = chunk / RATE
    if not mailbox.is_dir():
        sys.exit(f"no microphone here: {mailbox} is not a folder")
    out = sys.stdout.buffer
    pending = b""
    current: Path | None = None
    due = time.monotonic()
    while True:
        if not pending:
            if current is not None:
                current.rename(current.with_suffix(".said"))
                current = None
            waiting = sorted(mailbox.glob("*.raw"))
            if waiting:
                current = waiting[0]
                pending = current.read_bytes()
                current.with_suffix(".start").write_text(repr(due))  # when its first sample is heard
        piece, pending = pending[: 2 * chunk], pending[2 * chunk :]
        piece = over(room.next(chunk), piece)
        due += seconds
        if (ahead := due - time.monotonic()) > 0:
            time.sleep(ahead)
        try:
            out.write(piece)
            out.flush()
        except BrokenPipeError:
            os._exit(0)


if __name__ == "__main__":
    main()
