"""The command line's parser: a mistake in the arguments is told in one line, with the name
meant where one is close ("did you mean keep-it-100?"), instead of the whole usage.

argparse's own suggestions (`suggest_on_error`) come with Python 3.14 only, and still print
the usage first. Every parser and subparser of the command line is a `Parser`: argparse
makes a command's parser of its parent's class.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from host.errors import DID_YOU_MEAN, did_you_mean, one_line

EXIT_USAGE = 2
PARSED_BY = "_parsed_by"
"""Where the innermost parser that read the arguments leaves itself on the namespace, so
that an unknown option is looked for among the options of the command it followed."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose refusals are one line; see the module's docstring."""

    def error(self, message: str) -> NoReturn:
        """`PROG: MESSAGE`, with `see: PROG --help` where no name is suggested."""
        hint = "" if DID_YOU_MEAN in message else f"; see: {self.prog} --help"
        self.exit(EXIT_USAGE, f"{self.prog}: {one_line(message)}{hint}\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside the choices (a command, a game, --deal ...) named with the one meant."""
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(choice) for choice in choices]
        if isinstance(choices, dict):  # a command's parsers, by name (its options are not known here)
            what = "command"
        else:
            mistyped = self._unknown_option()
            if mistyped is not None:  # what was meant as its value was taken for this one: name the cause
                raise argparse.ArgumentError(None, _unexpected([mistyped], self.option_names()))
            what = action.option_strings[0] if action.option_strings else str(action.metavar or action.dest).lower()
        close = did_you_mean(str(value), names)
        listed = "" if close else f"; choose from {', '.join(names)}"
        raise argparse.ArgumentError(None, f"no {what} {value!r}{close}{listed}")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if not hasattr(parsed, PARSED_BY):  # a command's parser has set it already: the innermost
            setattr(parsed, PARSED_BY, self)
        return parsed, extras

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        inner: Parser = getattr(parsed, PARSED_BY, self)
        delattr(parsed, PARSED_BY)
        if extras:
            inner.error(_unexpected(extras, inner.option_names()))
        return parsed

    def option_names(self) -> list[str]:
        """Every option this parser takes ("--players", "-h" ...)."""
        return [name for action in self._actions for name in action.option_strings]

    def _unknown_option(self) -> str | None:
        """The first long option given to this parser that it does not take (nor begins)."""
        options = self.option_names()
        for word in getattr(self, "_given", []):
            if word == "--":
                break
            name = word.split("=", 1)[0]
            if name.startswith("--") and not any(option.startswith(name) for option in options):
                return name
        return None


def _unexpected(extras: Iterable[str], options: list[str]) -> str:
    """What was given that the command does not take: the first unknown option, with the one
    meant where one is close, else the first word left over."""
    words = list(extras)
    option = next((word for word in words if word.startswith("-") and len(word) > 1), None)
    if option is not None:
        name = option.split("=", 1)[0]
        return f"no option {name}{did_you_mean(name, options)}"
    return f"unexpected argument {words[0]!r}"


def named(text: str) -> str:
    """An option's value that names a file (or a choice such as `text`): never empty, which
    would be taken for the working folder, or for no value at all."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"empty value {text!r}")
    return text
