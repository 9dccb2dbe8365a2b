"""Game rules, sessions and persistence: everything but audio.

The names of host.contract, where host/ and voice/ meet, and PartyhostError (host.errors) are
offered here too; importing this package imports nothing else (voice/ imports host.contract
and host.errors, which run this file).
"""

from host.contract import (
    Choice,
    Ending,
    Intent,
    Narrow,
    Outcome,
    Prompt,
    Source,
    Understood,
    joined_prompt,
    prompt_parts,
)
from host.errors import PartyhostError

__all__ = [
    # from host.contract
    "Choice",
    "Ending",
    "Intent",
    "Narrow",
    "Outcome",
    "Prompt",
    "Source",
    "Understood",
    "joined_prompt",
    "prompt_parts",
    # from host.errors
    "PartyhostError",
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
    "errors",
    "eventlog",
    "files",
    "games",
    "journal",
    "log_events",
    "moves",
    "narrowing",
    "play",
    "reply_policy",
    "rules",
    "session",
    "sessionlock",
    "unchanging",
    "views",
    "wal_check",
]
