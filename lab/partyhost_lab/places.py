"""Where the lab finds what it measures with: the checkout it runs in (the benches start
`partyhost` there, as a player's `scripts/run` does), its own scripted games and their
decks (lab/scripted_games), and the recordings beside the checkout (people's speech and
noise). None of it ships: the lab is installed from a checkout only."""

from __future__ import annotations

from pathlib import Path

LAB = Path(__file__).resolve().parents[1]
"""The lab's folder in the checkout: lab/partyhost_lab/ is one folder down."""
CHECKOUT = LAB.parent
SCRIPTED_GAMES = LAB / "scripted_games"
"""Typed whole games (one player's line each) with cases.yaml, their seeds, options and decks."""
LAB_CACHE = LAB / ".cache"
"""What the lab builds once and keeps (git ignores it): the wyoming-satellite venv."""
SHARED_AUDIO = CHECKOUT.parent / "shared" / "audio"
"""Recordings beside the project checkout (people's speech, noise): lab data, not shipped."""
