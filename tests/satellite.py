"""The real wyoming-satellite on 127.0.0.1 (lab/partyhost_lab/live_satellite.py) as pytest
fixtures, for the tests of voice/remote/satellite.py and of `partyhost bench table`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import unavailable

from partyhost_lab.live_satellite import (  # noqa: F401 (some only for the tests that import them from here)
    SND_RATE,
    HostSpeech,
    RunningSatellite,
    SatelliteUnavailable,
    count,
    events,
    free_port,
    satellite_venv,
)


@pytest.fixture(scope="session")
def satellite_program_path() -> Path:
    """The lab's wyoming-satellite venv (built once); one that cannot be built skips the
    test (fails it on CI)."""
    try:
        return satellite_venv()
    except SatelliteUnavailable as error:
        unavailable(str(error))
        raise


@pytest.fixture
def satellite(satellite_program_path, tmp_path):
    running = RunningSatellite(satellite_program_path, tmp_path / "satellite").start()
    yield running
    running.kill()
