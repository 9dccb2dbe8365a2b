"""Typed play: the terminal as the host's ears and mouth.

Piped input is echoed after the prompt so a transcript reads like a conversation.
A line "..." stands for silence: the prompt's timer runs out. With a real keyboard,
timed prompts also time out for real, and lines are edited with readline (arrows,
history), so an arrow key is never taken as an answer. Bytes that are not UTF-8
become U+FFFD, and every line printed (an echo, the host's words, a player's name) goes
through host.errors.one_line: any line is just a reply, and none can drive the terminal.

Each line is understood here, matched once with the text understanding (no audio
module is imported for typed play). As by voice, a command typed after "host" or the
wake word ("host, score", "okay nabu, score") works at any prompt (TypedCommands); at
a Keep Cool turn, where any word is a clue, a command typed without it is asked about
before it counts as one.
"""

from __future__ import annotations

import select
import sys
import time
from collections.abc import Callable
from typing import TextIO

from host.contract import Intent, Likeness, Outcome, Prompt, Source, Understood
from host.errors import one_line
from host.reply_policy import acts
from voice.understanding.commands import Commands
from voice.understanding.matcher import Matcher
from voice.understanding.normalize import normalize
from voice.understanding.understand import TextUnderstanding, decided
from voice.wake_words import OFF, shipped_wake_words

SILENCE = "..."
LONGEST_LINE = 1000
"""Characters of a typed line that are read; the rest is dropped, and said to be, once."""
_CHUNK = 1 << 16
NEEDS_ADDRESS = (
    '(During a turn any word is a clue. For the command, type "host, {line}"; '
    'to give "{line}" as your clue, type it again.)'
)


class TypedCommands:
    """What typed play makes of "host, ..." and "<wake word>, ...": the command after the
    address, read as the voice's ears read it after the wake word (voice.understanding.commands:
    the prompt's commands said after its prefix, or the common commands)."""

    def __init__(self, matcher: Matcher, wake_word: str = OFF):
        self.matcher = matcher
        phrases = ["host"]
        word = shipped_wake_words().get(wake_word) if wake_word != OFF else None
        if word is not None:
            phrases.append(normalize(word.phrase, strip_fillers=False))
            phrases += [phrases[-1].replace("okay ", "ok ", 1)] if phrases[-1].startswith("okay ") else []
        self.addresses = tuple(phrases)

    def command(self, prompt: Prompt, line: str) -> Intent | None:
        """The command a line addresses to the host ("host, score"), or None."""
        said = normalize(line, strip_fillers=False)
        rest = next((said[len(a) :].strip() for a in self.addresses if said == a or said.startswith(a + " ")), None)
        return self._read(prompt, rest) if rest else None

    def needs_address(self, prompt: Prompt, line: str, understood: Intent | None) -> bool:
        """A command typed exactly but bare, at a prompt where commands need an address (a
        Keep Cool turn: "score" there is a clue); never a word in play (a guess).
        `understood`: what the line means at the prompt."""
        table = self.matcher.table(prompt.name, prompt.slots)
        command = table.lookup(f"{table.prefix} {line}") if table.prefix else None
        if command is None or command["intent"] not in table.addressed_intents:
            return False
        return understood is None or understood.get("word") is None

    def _read(self, prompt: Prompt, text: str) -> Intent | None:
        found = Commands(self.matcher, prompt.name, prompt.slots).command(text, acts)
        return found.intent.copy() if found is not None and found.intent is not None else None


class TextEars:
    """host.awaiting.Ears for typed lines: each understood against its prompt."""

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None, commands: TypedCommands | None = None):
        """`commands`: what "host, ..." means, and the matcher every line is understood
        with (None: a plain Matcher, and no addressed commands)."""
        self.stream = sys.stdin if stream is None else stream
        self.out = sys.stdout if out is None else out
        self.commands = commands
        self.understand = TextUnderstanding(commands.matcher if commands is not None else Matcher())
        self._asked: tuple[Prompt, str] | None = None  # a bare command asked about at this prompt
        if hasattr(self.stream, "reconfigure") and getattr(self.stream, "errors", None) != "replace":
            self.stream.reconfigure(errors="replace")  # before its first read (the menu's ears)
        self.interactive = self.stream.isatty()
        self.edited = self.interactive and self.stream is sys.stdin and self.out is sys.stdout
        if self.edited:
            try:
                import readline  # noqa: F401  (importing it gives input() line editing)
            except ImportError:  # pragma: no cover - Python built without it
                pass
        self._timed: tuple[Prompt, float] | None = None  # the last timed prompt and its deadline

    def hear(self, prompt: Prompt) -> Understood | None:
        who = one_line(prompt.player or "table")
        if self.interactive:
            if prompt.timeout:
                self.out.write(f"{who}> ")
                self.out.flush()
                if not select.select([self.stream], [], [], self._time_left(prompt))[0]:
                    self._timed = None
                    self.out.write("(time is up)\n")
                    return Understood(Outcome.TIMED_OUT)
            line = self._typed("" if prompt.timeout else f"{who}> ")
        else:
            line = self._bounded(self.stream.readline)
        if not line:
            return None
        line = line.strip()
        if not self.interactive:
            self.out.write(one_line(f"{who}> {line}") + "\n")
        if line == SILENCE:
            return Understood(Outcome.TIMED_OUT) if prompt.timeout else self.understand(prompt, "")
        return self._read(prompt, line)

    def reread(self, prompt: Prompt, text: str) -> Understood:
        return self.understand(prompt, text)

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        """Typed words are not misheard: a correction of them is asked of the table."""
        return None

    def _read(self, prompt: Prompt, line: str) -> Understood:
        """A command after an address is decided here, like a phone's button; a bare one at a
        Keep Cool turn is asked about once (the turn goes on), and taken as a clue if typed again."""
        if self.commands is None:
            return self.understand(prompt, line)
        command = self.commands.command(prompt, line)
        if command is not None:
            return decided(command, Source.TYPED, line)
        understood = self.understand(prompt, line)
        if self._asked != (prompt, line.lower()) and self.commands.needs_address(prompt, line, understood.intent):
            self._asked = (prompt, line.lower())
            self.out.write(one_line(NEEDS_ADDRESS.format(line=line.lower())) + "\n")
            return Understood(Outcome.IGNORED, text=line, reason="a command without its address")
        self._asked = None
        return understood

    def _typed(self, prompt: str) -> str:
        """One line from the keyboard, "" at its end (Ctrl-D)."""
        if not self.edited:
            self.out.write(prompt)
            self.out.flush()
            return self._bounded(self.stream.readline)
        try:
            return self._bounded(_one_read(input(prompt) + "\n"))
        except EOFError:
            self.out.write("\n")
            return ""

    def _bounded(self, readline: Callable[[int], str]) -> str:
        """One line of at most LONGEST_LINE characters (and its end): the rest of a longer one is
        read and dropped a piece at a time, never held whole (a 200 MB line was a MemoryError),
        and the player is told once."""
        line = readline(LONGEST_LINE + 1)
        if len(line) <= LONGEST_LINE or line.endswith("\n"):
            return line
        while (rest := readline(_CHUNK)) and not rest.endswith("\n"):
            pass
        self.out.write(f"(That line was too long: only its first {LONGEST_LINE} characters were read.)\n")
        return line[:LONGEST_LINE] + "\n"

    def _time_left(self, prompt: Prompt) -> float:
        """The prompt's time, or what is left of it when the same prompt is asked again
        straight away (a refused reply, "host, score"): the turn's clock keeps running."""
        timeout = prompt.timeout
        assert timeout is not None, "only a timed prompt has time left"
        now = time.monotonic()
        if self._timed is not None and self._timed[0] == prompt and self._timed[1] > now:
            return self._timed[1] - now
        self._timed = (prompt, now + timeout)
        return timeout


def _one_read(line: str) -> Callable[[int], str]:
    """A line already read whole (by input()), handed out as readline would hand it out."""
    at = 0

    def readline(size: int) -> str:
        nonlocal at
        piece, at = line[at : at + size], at + size
        return piece

    return readline


class TextMouth:
    """Prints what the host would say; keeps rate and volume so commands are answered."""

    RATE_STEPS = (0.7, 0.85, 1.0, 1.2, 1.4)
    VOLUME_STEPS = (0.25, 0.5, 0.75, 1.0)

    def __init__(self, out: TextIO | None = None, show_private: bool = True):
        self.out, self.show_private = (sys.stdout if out is None else out), show_private
        self.rate, self.volume = 2, 2

    def say(self, text: str) -> None:
        self.out.write(f"HOST: {one_line(text)}\n")
        self.out.flush()

    def sound(self, name: str) -> None:
        self.out.write(f"[sound: {one_line(name)}]\n")

    def private(self, player: str, text: str) -> None:
        if self.show_private:
            self.out.write(one_line(f"[to {player} only] {text}") + "\n")

    def adjust(self, change: str) -> str:
        if change in ("slower", "faster"):
            self.rate = max(0, min(len(self.RATE_STEPS) - 1, self.rate + (1 if change == "faster" else -1)))
            return f"Speaking speed is now {self.RATE_STEPS[self.rate]:g} times normal."
        self.volume = max(0, min(len(self.VOLUME_STEPS) - 1, self.volume + (1 if change == "louder" else -1)))
        return f"Volume is now {int(self.VOLUME_STEPS[self.volume] * 100)} percent."
