"""A microphone for wyoming-satellite's --mic-command: raw 16 kHz 16-bit mono at real-time pace.

Stands in for `arecord -r 16000 -c 1 -f S16_LE -t raw`: it writes silence (a faint
noise floor) until a file NAME.raw appears in the mailbox folder, then that file's
samples, then renames it NAME.said (NAME.start holds the time.monotonic() at which
its first sample was "heard", for scripts/bench_satellite.py), so a test can speak a line into the room when
the host is listening. Only the standard library: it runs under any python3.
"""
import os
import random
import sys
import time
from pathlib import Path

RATE = 16_000


def main() -> None:
    mailbox = Path(sys.argv[1])
    chunk = int(sys.argv[2]) if len(sys.argv) > 2 else 1024    # samples, as the satellite reads them
    seconds = chunk / RATE
    if not mailbox.is_dir():
        sys.exit(f"no microphone here: {mailbox} is not a folder")
    out = sys.stdout.buffer
    noise = random.Random(1)
    floor = b"".join(noise.randint(-20, 20).to_bytes(2, "little", signed=True) for _ in range(chunk))
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
                current.with_suffix(".start").write_text(repr(due))   # when its first sample is heard
        piece, pending = pending[:2 * chunk], pending[2 * chunk:]
        piece += floor[len(piece):]
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
