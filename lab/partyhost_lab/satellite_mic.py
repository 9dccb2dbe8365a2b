"""A microphone for wyoming-satellite's --mic-command: raw 16 kHz 16-bit mono at real-time pace.

Stands in for `arecord -r 16000 -c 1 -f S16_LE -t raw`: it writes the room until a
file NAME.raw appears in the mailbox folder, then that file's samples over the room,
then renames it NAME.said (NAME.start holds the time.monotonic() at which its first
sample was "heard", for `scripts/bench satellite` and `partyhost bench table`), so a
test can speak a line into the room when the host is listening. The room is a faint
noise floor, or (third argument) a raw file of the same format played in a loop
under everything, without a break: a party's continuous noise ("-": the floor). With
PLAYED.raw and GAIN, the microphone also hears the satellite's speaker, as a table's
microphone hears the host: what the speaker file gains (22050 Hz 16-bit mono, as the
satellite plays it) is added at GAIN, as it comes. With HEARD_COPY in the environment
(a path), everything it writes is also written there, and the time.monotonic() of its
first sample to HEARD_COPY.start: what the host heard, kept to look into later. Only the
standard library: it runs under any python3.

    satellite_mic.py MAILBOX [SAMPLES_PER_CHUNK [ROOM.raw|- [PLAYED.raw GAIN]]]
"""

from __future__ import annotations

import os
import random
import sys
import time
from array import array
from pathlib import Path
from typing import BinaryIO

RATE = 16_000
HEARD_COPY = "HEARD_COPY"


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


class Echo:
    """The speaker's sound at the microphone: what the speaker file gains, from its size
    at the start on, brought to 16 kHz (nearest sample: an echo, not a recording) and
    scaled by `gain`, played at the microphone's own pace."""

    def __init__(self, played: Path, gain: float, played_rate: int = 22_050):
        self.played, self.gain, self.step = played, gain, played_rate / RATE
        self.read = played.stat().st_size if played.exists() else 0
        self.waiting = array("h")
        self.at = 0.0  # where in `waiting` the next 16 kHz sample is taken

    def next(self, n: int) -> bytes:
        """The next `n` samples of echo, little-endian 16-bit (silence when nothing plays)."""
        self._take_new()
        out = array("h")
        while len(out) < n and int(self.at) < len(self.waiting):
            out.append(max(-32768, min(32767, round(self.waiting[int(self.at)] * self.gain))))
            self.at += self.step
        done = int(self.at)
        del self.waiting[:done]
        self.at -= done
        out += array("h", bytes(2 * (n - len(out))))
        if sys.byteorder == "big":
            out.byteswap()
        return out.tobytes()

    def _take_new(self) -> None:
        if not self.played.exists():
            return
        with open(self.played, "rb") as speaker:
            speaker.seek(self.read)
            new = speaker.read()
        new = new[: len(new) // 2 * 2]
        self.read += len(new)
        samples = array("h")
        samples.frombytes(new)
        if sys.byteorder == "big":
            samples.byteswap()
        self.waiting += samples


def added(room: array, sound: bytes) -> array:
    """The sound's samples (little-endian 16-bit) added to the room's, kept in range."""
    spoken = array("h")
    spoken.frombytes(sound)
    if sys.byteorder == "big":
        spoken.byteswap()
    mixed = array("h", (max(-32768, min(32767, a + b)) for a, b in zip(room, spoken)))
    return mixed + room[len(spoken) :]


def over(room: array, line: bytes) -> bytes:
    """The line's samples added to the room's, as little-endian 16-bit bytes."""
    mixed = added(room, line)
    if sys.byteorder == "big":
        mixed.byteswap()
    return mixed.tobytes()


def main() -> None:
    mailbox = Path(sys.argv[1])
    chunk = int(sys.argv[2]) if len(sys.argv) > 2 else 1024  # samples, as the satellite reads them
    room = Room(chunk, Path(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] != "-" else None)
    echo = Echo(Path(sys.argv[4]), float(sys.argv[5])) if len(sys.argv) > 5 else None
    seconds = chunk / RATE
    if not mailbox.is_dir():
        sys.exit(f"no microphone here: {mailbox} is not a folder")
    out = sys.stdout.buffer
    pending = b""
    current: Path | None = None
    due = time.monotonic()
    copy = _heard_copy(due)
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
        heard = room.next(chunk) if echo is None else added(room.next(chunk), echo.next(chunk))
        piece = over(heard, piece)
        due += seconds
        if (ahead := due - time.monotonic()) > 0:
            time.sleep(ahead)
        try:
            out.write(piece)
            out.flush()
        except BrokenPipeError:
            os._exit(0)
        if copy is not None:
            copy.write(piece)


def _heard_copy(first_sample_at: float) -> BinaryIO | None:
    """The file HEARD_COPY names, opened to copy the microphone's stream into, or None."""
    path = os.environ.get(HEARD_COPY)
    if not path:
        return None
    Path(path + ".start").write_text(repr(first_sample_at))
    return open(path, "ab", buffering=0)  # unbuffered: the satellite is killed, not stopped


if __name__ == "__main__":
    main()
