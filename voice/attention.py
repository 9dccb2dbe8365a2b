"""Was it said to the host? Speech at a party table is mostly not.

A real table talks all evening. A host that answers every stretch of chatter with
"Sorry, I didn't catch that" is unbearable (99 times in twenty minutes of babble
before this module), so the ears hand over, as ignored with a reason, speech that
was plainly not a reply:

- a reading that is empty or a single letter (a cough, a laugh, a clatter);
- speech longer than a reply (several voices over one another run on; a reply to a
  prompt is a few words: "card six with spot on" takes under two seconds);
- a reading the ears do not trust that is also far from anything the prompt accepts:
  no hypothesis comes within the matcher's confirm score (Match.score, 0-100) of a
  phrase of the prompt.

What is left and still unreliable was plausibly meant for the host: close to the
prompt's grammar and of reply length; only then does the host say "Sorry?".
"""
from __future__ import annotations

from typing import Any

from .normalize import normalize

REPLY_MAX_S = 4.0
"""Speech longer than this is not a reply (config reply_max_s)."""
EMPTY = "empty reading"
TOO_LONG = "longer than a reply"
FAR = "far from the prompt"


def too_long(utterance: Any, reply_max_s: float = REPLY_MAX_S) -> bool:
    """Longer than any reply (reply_max_s 0: no limit)."""
    return bool(reply_max_s) and utterance.end - utterance.start > reply_max_s


def ignore_reason(reading: Any, table: Any, reply_max_s: float = REPLY_MAX_S) -> str:
    """Why `reading` (voice.reading.Reading) was not meant for the host, or "" if it may
    have been. `table`: the prompt's voice.matcher.PromptGraph."""
    if too_long(reading.utterance, reply_max_s):
        return TOO_LONG
    texts = [normalize(h.text) for h in reading.hypotheses] + [normalize(reading.text)]
    if not any(len(text.replace(" ", "")) > 1 for text in texts):
        return EMPTY
    if not reading.rejected:
        return ""
    closest = max((table.match(h.text).score for h in reading.hypotheses), default=0.0)
    return FAR if closest < table.confirm else ""
