"""Game rules, sessions and persistence: everything but audio.

The names of host.contract, where host/ and voice/ meet, are offered here too; importing
this package imports nothing else (voice/ imports host.contract, which runs this file).
"""

from host.contract import (
    Choice,
    Ending,
    Intent,
    Narrow,
    Outcome,
    PartyhostError,
    Prompt,
    Source,
    Understood,
    Verdict,
    decide,
    joined_prompt,
    prompt_parts,
)

__all__ = [
    # from host.contract
    "Choice",
    "Ending",
    "Intent",
    "Narrow",
    "Outcome",
    "PartyhostError",
    "Prompt",
    "Source",
    "Understood",
    "Verdict",
    "decide",
    "joined_prompt",
    "prompt_parts",
    # the subpackage and modules, imported when used
    "announcer",
    "awaiting",
    "cardtitle",
    "clarifying",
    "common_commands",
    "contract",
    "corrections",
    "decks",
    "engine",
    "eventlog",
    "files",
    "games",
    "journal",
    "log_events",
    "moves",
    "narrowing",
    "play",
    "rules",
    "session",
    "sessionlock",
    "unchanging",
    "views",
    "wal_check",
]
