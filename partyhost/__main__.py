"""`python -m partyhost` and the `partyhost` command: Ctrl-C at any moment stops it in one line.

The command line's modules take a moment to import (the grammars, the recognisers'
wrappers); a Ctrl-C while they load is caught here, not shown as a traceback. Before
this runs, Python is still starting (site, runpy), and a Ctrl-C there is Python's own
traceback: scripts/run starts partyhost with Ctrl-C blocked, and it is let through here,
so one pressed while Python started stops partyhost now instead of being lost.
A Ctrl-C that lands in a clean-up callback (an import lock's, a weak reference's) cannot be
raised there, and Python would print "Exception ignored" and drop it: it is sent again.
Output piped into a program that stops reading (`partyhost models list | head -1`) ends
partyhost quietly, as any command line tool does, not with a traceback.
"""

import os
import signal
import sys
import threading


def run() -> int:
    sys.unraisablehook = _interrupt_again
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # scripts/run: ignored while Python started
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # scripts/run: held back; a Ctrl-C lands here
        from partyhost.cli import main

        return main()
    except (KeyboardInterrupt, RuntimeError) as error:  # while importing, or between main's handlers
        if isinstance(error, RuntimeError) and not isinstance(error.__cause__, KeyboardInterrupt):
            raise  # (Python 3.11 wraps a Ctrl-C during a class's creation in a RuntimeError)
        print("\npartyhost: stopped.", file=sys.stderr)
        return 130  # cli.EXIT_INTERRUPTED, which may not be imported yet
    except BrokenPipeError:  # whoever read the output stopped reading
        _quiet_stdout()
        return 1


def _quiet_stdout() -> None:
    """Standard output sent to nowhere, so that Python's flush of it on the way out
    does not fail a second time and print a traceback after all."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _interrupt_again(unraisable: "sys.UnraisableHookArgs") -> None:
    """A Ctrl-C Python could not raise where it landed, sent again to land in partyhost's code.

    Not from here (it would land in this hook, and be dropped again) but from a timer, once
    this has returned; to the main thread, so that a read waiting there is interrupted too.
    """
    if not issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)
        return
    again = threading.Timer(0.01, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    again.daemon = True  # a process on its way out is not held back by it
    again.start()


if __name__ == "__main__":
    raise SystemExit(run())
