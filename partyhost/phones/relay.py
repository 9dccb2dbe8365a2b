"""Ears and a mouth that add the phone pages to whatever the host hears and speaks with.

PhoneMouth sends secrets (`private`) to the player's page instead of the terminal
or the speaker; everything else goes to the mouth it wraps, after what the server
asked the whole table to hear (joining paused by guessing). PhoneEars answers a
prompt with whichever comes first: what the wrapped ears hear, or a button the
prompted player pressed on their page (an Understood already decided, Source.PHONE;
where a prompt awaits any of several players, its context's "answering", a press
from any of their pages, which names its seat).

How the wait is shared depends on the wrapped ears:
- ears with an `interrupt` hook (voice.listening.ears.VoiceEars): they listen in this thread
  and stop between utterances as soon as a button press is waiting, so the host
  never keeps a microphone open while it speaks;
- any other ears (typed lines): they wait in a helper thread that puts what it
  hears in the hub's inbox, the same queue the pages feed. A line typed for a
  prompt the page already answered goes to the next prompt, as a late answer
  would (understood again against it); a timer that ran out for such a prompt is
  dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, runtime_checkable

from host.announcer import Mouth
from host.awaiting import Ears
from host.contract import Likeness, Outcome, Prompt, Source, Understood, prompt_parts
from host.narrowing import CHOICE_PROMPT
from voice.understanding.understand import decided

from .hub import PageAction, PhoneHub


@runtime_checkable
class InterruptibleEars(Ears, Protocol):
    """Ears that listen in the caller's thread and give up between utterances when
    `interrupt()` says an answer came another way (voice.listening.ears.VoiceEars)."""

    interrupt: Callable[[], bool] | None


class PhoneMouth:
    """The wrapped mouth, with each player's secrets sent to their page only."""

    def __init__(self, inner: Mouth, hub: PhoneHub):
        self.inner, self.hub = inner, hub

    def say(self, text: str) -> None:
        for announcement in self.hub.announcements():
            self.inner.say(announcement)
        self.inner.say(text)

    def sound(self, name: str) -> None:
        self.inner.sound(name)

    def private(self, player: str, text: str) -> None:
        self.hub.message(player, text)

    def adjust(self, change: str) -> str:
        return self.inner.adjust(change)


class _EarsSaid:
    """What the wrapped ears heard, for the prompt they were asked."""

    def __init__(self, prompt: Prompt, heard: Understood | None):
        self.prompt, self.heard = prompt, heard


class PhoneEars:
    """host.awaiting.Ears: the wrapped ears, or a button on the prompted player's page."""

    def __init__(self, inner: Ears, hub: PhoneHub):
        self.inner, self.hub = inner, hub
        self._listening: threading.Thread | None = None

    def hear(self, prompt: Prompt) -> Understood | None:
        if isinstance(self.inner, InterruptibleEars):
            return self._hear_interrupting(self.inner, prompt)
        return self._hear_threaded(prompt)

    def reread(self, prompt: Prompt, text: str) -> Understood:
        return self.inner.reread(prompt, text)

    def likeness(self, heard: Understood, prompt: Prompt, corrected: str) -> Likeness | None:
        return self.inner.likeness(heard, prompt, corrected)

    # ---- ears that can be interrupted (the microphone) ----------------------

    def _hear_interrupting(self, inner: InterruptibleEars, prompt: Prompt) -> Understood | None:
        from voice.listening.ears import Interrupted  # these ears are the microphone's: audio is loaded

        while True:
            pressed = self._waiting_press(prompt)
            if pressed is not None:
                return pressed
            inner.interrupt = lambda: not self.hub.inbox.empty()
            try:
                return inner.hear(prompt)
            except Interrupted:
                continue
            finally:
                inner.interrupt = None

    def _waiting_press(self, prompt: Prompt) -> Understood | None:
        while not self.hub.inbox.empty():
            item = self.hub.inbox.get_nowait()
            if isinstance(item, PageAction):
                heard = self._accept_press(prompt, item)
                if heard is not None:
                    return heard
        return None

    # ---- any other ears: a helper thread feeding the same queue -------------

    def _hear_threaded(self, prompt: Prompt) -> Understood | None:
        if self._listening is None:
            self._listening = threading.Thread(target=self._listen, args=(prompt,), name="phone-ears", daemon=True)
            self._listening.start()
        while True:
            item = self.hub.inbox.get()
            if isinstance(item, PageAction):
                heard = self._accept_press(prompt, item)
                if heard is not None:
                    return heard
                continue
            self._listening = None
            timed_out = item.heard is not None and item.heard.outcome is Outcome.TIMED_OUT
            if timed_out and item.prompt is not prompt:
                # The timer of a prompt the page answered: not an answer to this one.
                self._listening = threading.Thread(target=self._listen, args=(prompt,), name="phone-ears", daemon=True)
                self._listening.start()
                continue
            if item.heard is not None and item.heard.outcome is Outcome.REPLY and item.prompt is not prompt:
                return self.inner.reread(prompt, item.heard.text)  # a late line answers the prompt asked now
            return item.heard

    def _listen(self, prompt: Prompt) -> None:
        self.hub.inbox.put(_EarsSaid(prompt, self.inner.hear(prompt)))

    # ---- a button press -----------------------------------------------------

    def _accept_press(self, prompt: Prompt, pressed: PageAction) -> Understood | None:
        """The press as a decided reply if it answers this prompt now; else the page is told why not."""
        if prompt.name.startswith("common/") and CHOICE_PROMPT not in prompt_parts(prompt.name):
            # A yes/no question or a pause: a card button is no answer to it (it is to a
            # narrowed question, which stands for the game's prompt).
            self.hub.message(pressed.player, "Answer the host's question first, then choose again.")
            return None
        anyone = prompt.player is None and pressed.player in prompt.context.get("answering", ())
        if pressed.player != prompt.player and not anyone:
            self.hub.message(pressed.player, "It is not your turn to choose; wait for the host to ask you.")
            return None
        if not self.hub.still_current(pressed):
            self.hub.message(pressed.player, "Too late: the game had moved on. Look at your cards again.")
            return None
        return replace(decided(pressed.intent, Source.PHONE, pressed.label), seat=pressed.player)
