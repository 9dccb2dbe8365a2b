"""Where the benchmarks find what they measure with: the project checkout they run in
(its scripted games and recorded fixtures, which live with the tests) and the
recordings beside it (people's speech and noise). None of it ships: a bench runs from
a checkout, and finds these by path (it never imports the tests)."""

from __future__ import annotations

from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
"""The project checkout: partyhost/bench/ is two folders down."""
TESTS = CHECKOUT / "tests"
SHARED_AUDIO = CHECKOUT.parent / "shared" / "audio"
"""Recordings beside the project checkout (people's speech, noise): lab data, not shipped."""
