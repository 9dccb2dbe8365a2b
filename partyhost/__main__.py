"""`python -m partyhost` and the `partyhost` command: Ctrl-C at any moment stops it in one line.

The command line's modules take a moment to import (the grammars, the recognisers'
wrappers); a Ctrl-C while they load is caught here, not shown as a traceback.
"""
import sys


def run() -> int:
    try:
        from .cli import EXIT_INTERRUPTED, main
    except KeyboardInterrupt:
        print("\npartyhost: stopped.", file=sys.stderr)
        return 130
    try:
        return main()
    except KeyboardInterrupt:       # between main's own handlers (it catches the rest)
        print("\npartyhost: stopped.", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    raise SystemExit(run())
