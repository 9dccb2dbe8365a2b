"""Log lines as the host's terminal shows them: one short line each, whoever wrote them.

Anyone on the LAN can put words in a log line (a phone's request path, a Wyoming peer's
event), so every record is made one printable line by host.errors.one_line, the rule
the typed echo and the host's printed words follow too; a traceback is folded into a
short line naming the error. The filter sits on the loggers of the servers (for records
made there) and on the handlers that print (for every record that reaches them,
Python's last-resort handler included, which prints when nothing is configured).
"""

from __future__ import annotations

import logging

from host.errors import one_line

SERVER_LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "aiohttp.access", "asyncio")
LONGEST_ERROR = 120
"""Characters of an error's text kept in its log line."""


def short_error(error: BaseException) -> str:
    """An error as a few words: its type and the start of its text, on one line."""
    text = one_line(str(error))
    return f"{type(error).__name__}: {text[:LONGEST_ERROR]}" if text else type(error).__name__


class OneLine(logging.Filter):
    """Makes a record one printable line: its traceback folded to the error's name and text."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            message = f"{message}: {short_error(record.exc_info[1])}"
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.msg, record.args = one_line(message), None
        return True


def one_line_logs(*names: str) -> None:
    """Every record of the named loggers, the servers' and Python's last resort made one line."""
    targets: list[logging.Filterer] = [logging.getLogger(name) for name in (*SERVER_LOGGERS, *names)]
    if logging.lastResort is not None:
        targets.append(logging.lastResort)
    for target in targets:
        if not any(isinstance(f, OneLine) for f in target.filters):
            target.addFilter(OneLine())


def stderr_handler(prefix: str) -> logging.Handler:
    """A handler printing to stderr, each line after `prefix`, every record one line."""
    import sys

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{prefix}%(message)s"))
    handler.addFilter(OneLine())
    return handler
