"""`python -m partyhost` and the `partyhost` command: Ctrl-C at any moment stops it in one line.

The command line's modules take a moment to import (the grammars, the recognisers'
wrappers); a Ctrl-C while they load is caught here, not shown as a traceback. Before
this runs, Python is still starting (site, runpy), and a Ctrl-C there is Python's own
traceback: scripts/run starts partyhost with Ctrl-C ignored, and it is taken back here.
"""

import signal
import sys


def run() -> int:
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # scripts/run: ignored while Python started
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        from partyhost.cli import main

        return main()
    except (KeyboardInterrupt, RuntimeError) as error:  # while importing, or between main's handlers
        if isinstance(error, RuntimeError) and not isinstance(error.__cause__, KeyboardInterrupt):
            raise  # (Python 3.11 wraps a Ctrl-C during a class's creation in a RuntimeError)
        print("\npartyhost: stopped.", file=sys.stderr)
        return 130  # cli.EXIT_INTERRUPTED, which may not be imported yet


if __name__ == "__main__":
    raise SystemExit(run())
