"""Browser fixtures for the page tests: one chromium per test module, and the folder for
screenshots (``TRAMWAYS_SCREENSHOT_DIR=docs`` makes them the README's)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.web.chromium import CHROMIUM, LAUNCH_ARGS


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = os.environ.get("TRAMWAYS_SCREENSHOT_DIR")
    return Path(folder) if folder else tmp_path
