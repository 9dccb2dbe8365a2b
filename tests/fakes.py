"""Stand-ins shared by the session tests: a mouth that only records."""

from __future__ import annotations


class RecordingMouth:
    """host.announcer.Mouth that keeps what was said (secrets as "[player] text") and played."""

    def __init__(self):
        self.said, self.sounds = [], []

    def say(self, text):
        self.said.append(text)

    def sound(self, name):
        self.sounds.append(name)

    def private(self, player, text):
        self.said.append(f"[{player}] {text}")

    def adjust(self, change):
        return f"ok {change}"
