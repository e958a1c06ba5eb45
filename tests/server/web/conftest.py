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


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory):
    """A real ``tramways serve`` without the move rate limit (the bots here play through the
    API as fast as they can)."""
    from tests.server.conftest import start_server, stop_server

    folder = tmp_path_factory.mktemp("words")
    proc, base = start_server(f"sqlite:///{folder / 'tramways.sqlite3'}", None,
                              "--moves-per-second", "0")
    try:
        yield base
    finally:
        stop_server(proc)
