"""Shared test fixtures.

The reference material (rules, 18xx.games records and traces) stays in ``../shared`` beside the
repository; tests that read it use the ``shared_dir`` / ``oracle_dir`` fixtures and skip cleanly
when it is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()
ORACLE = SHARED / "reference" / "1840" / "oracle"

# A finished game's post-game analysis costs seconds of CPU: off in every test's server (and
# the servers they start) unless a test asks for it (ServerSettings(analysis="thread")).
os.environ.setdefault("TRAMWAYS_ANALYSIS", "off")


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture
def oracle_dir() -> Path:
    if not (ORACLE / "2player.json").is_file():
        pytest.skip("../shared/reference/1840/oracle is not present")
    return ORACLE
