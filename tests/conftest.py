"""Shared test fixtures.

The reference material (rules, 18xx.games records and traces) stays in ``../shared`` beside the
repository; tests that read it use the ``shared_dir`` / ``oracle_dir`` fixtures and skip cleanly
when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()
ORACLE = SHARED / "reference" / "1840" / "oracle"


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
