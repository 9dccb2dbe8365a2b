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
  phrase of the prompt;
- a reading with more words than the sound could hold ("take the survey one" from
  a tenth of a second): a recogniser primed with the prompt's phrases writes them
  out of a clatter, so even a sure reading of it is not a reply;
- speech begun amid table talk long after the host last spoke (voice/listening/ears.py, with
  `amid_talk`): what runs on from a stretch too long for a reply is more of it.

What is left and still unreliable was plausibly meant for the host: close to the
prompt's grammar and of reply length; only then does the host say "Sorry?".

The player the host waits for is never met with silence, though (`awaited`): speech
of a reply's length, begun inside the answer window (REPLY_WINDOW_S after the host
fell silent) and not running on from table talk, is a miss even when its reading is
empty, far from the prompt or too wordy for its sound (MISS_REASONS): the host says
"Sorry?", and the session's miss count leads on to the narrowed questions. The ears
cannot tell who spoke, so the answer window stands for the awaited seat: table talk
is long, amid other talk, or long after the prompt. A player whose reply went
unanswered says it again, though, often after the window has closed (their first try
ran into the room's noise and was set aside as too long): so a reply-length reading set
aside for one of those reasons, or a stretch too long for a reply begun inside the answer
window, opens the window again for SAID_AGAIN_S, and the next one in it is a miss the
host answers: a reply-length reading, or another stretch too long for a reply that does
not run on from the first (a loud room runs every try on; voice/listening/ears.py). Table
talk seldom brings two such so close.

A yes-or-no question about what the host just heard or was just asked ("Did you mean
...?", "... is that your answer?", "Does everyone agree?": host.contract.Prompt.confirming)
is being answered by someone at the table, with a word, and a talking room runs that word
on into its talk, stretch after stretch with no pause between them, or hides it until
the answer window has closed. There no speech is passed over as table talk
(voice/listening/ears.py): a word said just after the talk is read (it may be the answer,
where elsewhere it would be more of the talk), and a stretch too long for a reply, or a
reading set aside for a MISS_REASON, is a miss the host answers ("Sorry? Yes or no?"),
however long after the question. The host asks such a question again at most once and
then takes it for a no, so a table that only talks hears a word or two more, never a
game's worth.
"""

from __future__ import annotations

import re

from voice.audio_types import Utterance
from voice.listening.reading import Reading
from voice.understanding.matcher import PromptGraph
from voice.understanding.normalize import normalize

REPLY_MAX_S = 4.0
"""Speech longer than this is not a reply (config reply_max_s)."""
SYLLABLES_PER_S = 10.0
SYLLABLES_SLACK = 2
"""The most syllables a reply holds: this many a second of speech (fast speech is 6
to 8) and a few more for soft first and last sounds the endpointer leaves out."""
AMID_TALK_S = 1.0
"""Speech beginning this soon after a stretch too long for a reply ended ..."""
REPLY_WINDOW_S = 6.0
"""... and this long after the host fell silent is more of the table's talk."""
EMPTY = "empty reading"
TOO_LONG = "longer than a reply"
FAR = "far from the prompt"
TOO_MANY_WORDS = "more words than speech"
AMID_TALK = "amid table talk"
MISS_REASONS = (EMPTY, FAR, TOO_MANY_WORDS)
"""Reasons that make a reading a miss, not silence, when it is `awaited`."""
SAID_AGAIN_S = 6.0
"""A reply-length reading set aside for a MISS_REASON opens the answer window again for this long."""


def too_long(utterance: Utterance, reply_max_s: float = REPLY_MAX_S) -> bool:
    """Longer than any reply (reply_max_s 0: no limit)."""
    return bool(reply_max_s) and utterance.end - utterance.start > reply_max_s


def ignore_reason(reading: Reading, table: PromptGraph, reply_max_s: float = REPLY_MAX_S) -> str:
    """Why `reading` (voice.listening.reading.Reading) was not meant for the host, or "" if it may
    have been. `table`: the prompt's voice.understanding.matcher.PromptGraph (its confirm
    score; the hypotheses were matched when read: Reading.closest)."""
    if too_long(reading.utterance, reply_max_s):
        return TOO_LONG
    texts = [normalize(h.text) for h in reading.hypotheses] + [normalize(reading.text)]
    if not any(len(text.replace(" ", "")) > 1 for text in texts):
        return EMPTY
    speech_s = reading.utterance.end - reading.utterance.start
    if syllables(reading.text) > SYLLABLES_PER_S * speech_s + SYLLABLES_SLACK:
        return TOO_MANY_WORDS
    if not reading.rejected:
        return ""
    return FAR if reading.closest < table.confirm else ""


def amid_talk(utterance: Utterance, talk_until: float | None, host_quiet_since: float) -> bool:
    """Speech begun just after a stretch too long for a reply (which ended at
    `talk_until`), well after the host last spoke: table talk going on, not a reply."""
    return (
        talk_until is not None
        and utterance.start - talk_until < AMID_TALK_S
        and utterance.start - host_quiet_since > REPLY_WINDOW_S
    )


def awaited(
    utterance: Utterance,
    talk_until: float | None,
    host_quiet_since: float,
    reply_max_s: float,
    set_aside_until: float | None = None,
) -> bool:
    """Plausibly the awaited player's reply, whatever its reading: of a reply's length,
    begun within REPLY_WINDOW_S of the host falling silent (`host_quiet_since`) or within
    SAID_AGAIN_S of the end of a reply-length reading set aside at the same question
    (`set_aside_until`: said again), and not within AMID_TALK_S of the end of a stretch
    too long for a reply (`talk_until`)."""
    in_window = utterance.start - host_quiet_since <= REPLY_WINDOW_S or (
        set_aside_until is not None and 0.0 <= utterance.start - set_aside_until <= SAID_AGAIN_S
    )
    return (
        not too_long(utterance, reply_max_s)
        and in_window
        and (talk_until is None or utterance.start - talk_until >= AMID_TALK_S)
    )


def syllables(text: str) -> int:
    """About how many syllables `text` takes to say: its vowel groups, one at least a word."""
    return sum(max(1, len(re.findall(r"[aeiouy]+", word))) for word in normalize(text).split())
